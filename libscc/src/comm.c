/*
 * comm.c - communicators: RCCE_comm_split and friends.
 *
 * As in RCCE, a split is over all UEs: every UE calls it, each computes
 * every UE's color itself (no messages), and the UEs of one color form a
 * communicator ranked by global rank. Its barrier lines come from the
 * symmetric heap, so every UE must split (and free) in the same order.
 */
#include "internal.h"

static void clear_lines(RCCE_COMM *comm)
{
    for (int k = 0; k < SCC_BARRIER_LINES; k++)
        line_write((t_vcharp)comm->gather + SCC_MPB_LINE * k, 0);
    comm->cycle = 0;
}

/* Labels are this UE's own, never reused: what the collectives key their
 * cached plans on (RCCE.h). */
int scc_comm_label(void)
{
    static SCC_TLS int last;

    return ++last;
}

int scc_comm_init(RCCE_COMM *comm)
{
    if (comm->initialized != RCCE_COMM_INITIALIZED) {
        comm->gather = (RCCE_FLAG)scc_heap_alloc(SCC_BARRIER_LINES);
        if (!comm->gather)
            return scc_error(RCCE_ERROR_MALLOC);
        comm->release = NULL;
    }
    /* fresh lines may hold an old communicator's epochs */
    clear_lines(comm);
    comm->initialized = RCCE_COMM_INITIALIZED;
    return RCCE_SUCCESS;
}

int RCCE_comm_split(int (*color)(int, void *), void *aux, RCCE_COMM *comm)
{
    int err;

    if (!comm || !color)
        return scc_error(RCCE_ERROR_COMM_UNDEFINED);
    if (comm == &RCCE_COMM_WORLD)
        return scc_error(RCCE_ERROR_COMM_INITIALIZED);
    /* nobody still runs a barrier on lines we are about to clear */
    if ((err = scc_barrier_dissemination(&RCCE_COMM_WORLD)))
        return err;

    int mine = color(scc_self.iam, aux);
    comm->size = 0;
    for (int i = 0; i < scc_self.np; i++) {
        if (color(i, aux) != mine)
            continue;
        if (i == scc_self.iam)
            comm->my_rank = comm->size;
        comm->member[comm->size++] = i;
    }
    comm->count = comm->step = 0;
    comm->label = scc_comm_label();
    if ((err = scc_comm_init(comm)))
        return err;
    /* nobody uses the new lines before everyone has cleared them */
    return scc_barrier_dissemination(&RCCE_COMM_WORLD);
}

int RCCE_comm_free(RCCE_COMM *comm)
{
    if (!comm || comm->initialized != RCCE_COMM_INITIALIZED)
        return scc_error(RCCE_ERROR_COMM_INITIALIZED);
    if (comm == &RCCE_COMM_WORLD)
        return scc_error(RCCE_ERROR_COMM_UNDEFINED);
    clear_lines(comm);
    scc_heap_free((t_vcharp)comm->gather);
    comm->gather = NULL;
    comm->initialized = RCCE_COMM_NOT_INITIALIZED;
    return RCCE_SUCCESS;
}

int RCCE_comm_size(RCCE_COMM comm, int *size)
{
    if (comm.initialized != RCCE_COMM_INITIALIZED)
        return scc_error(RCCE_ERROR_COMM_INITIALIZED);
    if (!size)
        return scc_error(RCCE_ERROR_VAL_UNDEFINED);
    *size = comm.size;
    return RCCE_SUCCESS;
}

int RCCE_comm_rank(RCCE_COMM comm, int *rank)
{
    if (comm.initialized != RCCE_COMM_INITIALIZED)
        return scc_error(RCCE_ERROR_COMM_INITIALIZED);
    if (!rank)
        return scc_error(RCCE_ERROR_VAL_UNDEFINED);
    *rank = comm.my_rank;
    return RCCE_SUCCESS;
}
