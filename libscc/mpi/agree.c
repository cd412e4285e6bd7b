/*
 * agree.c - the collectives' agreement on a communicator of every rank,
 * through MPB lines instead of packets: a dissemination barrier whose
 * round k writes this rank's running ranges of (call, root, bytes) into
 * line k of partner me + 2^k's MPB (one writer per line), then waits for
 * its own line k. Lines come in two sets used by turns: a partner is at
 * most one agreement ahead, so it never overwrites a line not yet read.
 * Waiting also progresses MPI now and then, so a member still
 * delivering its packets to this one (coll_enter's flush) is never held
 * up by it.
 */
#include "mpiimpl.h"
#include "../src/internal.h"

#define ROUNDS 6                /* ceil(log2(RCCE_MAXNP)) */
#define LOOKS 64

struct line {                   /* one MPB line */
    uint32_t epoch;             /* written last: the agreement it belongs to */
    int32_t kmin, kmax;         /* call and communicator */
    uint32_t bmin, bmax;        /* bytes per member (mod 2^32) */
    int16_t rmin, rmax;
    int32_t maps;
};
_Static_assert(sizeof(struct line) <= SCC_MPB_LINE, "an agreement line is one MPB line");

static size_t lines_off;        /* [2][ROUNDS] lines at this offset of every MPB */
static int ready;
static uint32_t epoch;

/* In every rank, in the same order (MPI_Init): the same offset everywhere. */
void agree_init(void)
{
    t_vcharp p = RCCE_malloc(2 * ROUNDS * SCC_MPB_LINE);
    if (p) {
        lines_off = (size_t)(p - my_mpb());
        ready = 1;
    }
}

int agree_ready(void)
{
    return ready;
}

static void take(long long *acc, const struct line *l)
{
    if (l->kmin < acc[0]) acc[0] = l->kmin;
    if (l->kmax > acc[1]) acc[1] = l->kmax;
    if (l->rmin < acc[2]) acc[2] = l->rmin;
    if (l->rmax > acc[3]) acc[3] = l->rmax;
    if (l->bmin < acc[4]) acc[4] = l->bmin;
    if (l->bmax > acc[5]) acc[5] = l->bmax;
    acc[6] &= l->maps;
}

/* acc: kmin, kmax, rmin, rmax, bmin, bmax, maps (coll.c), in and out. */
void agree_world(long long *acc)
{
    int n = mpi_env.np, me = mpi_env.me;
    size_t set = lines_off + (++epoch & 1) * ROUNDS * SCC_MPB_LINE;

    acc[4] = (uint32_t)acc[4];
    acc[5] = (uint32_t)acc[5];
    for (int k = 1, round = 0; k < n; k <<= 1, round++) {
        struct line out = { epoch, (int32_t)acc[0], (int32_t)acc[1], (uint32_t)acc[4],
                            (uint32_t)acc[5], (int16_t)acc[2], (int16_t)acc[3],
                            (int32_t)acc[6] };
        t_vcharp to = scc_self.mpb[(me + k) % n] + set + (size_t)round * SCC_MPB_LINE;
        t_vcharp mine = my_mpb() + set + (size_t)round * SCC_MPB_LINE;

        /* the ranges, then the epoch in the same line, then out of the WCB */
        plat_put(to + sizeof out.epoch, (const char *)&out + sizeof out.epoch,
                 sizeof out - sizeof out.epoch);
        plat_store(to, epoch);
        plat_flush(my_mpb());
        /* a pass of MPI's progress reads every channel line (47 of them
         * on 48 ranks), far longer than a look at this one: it is only
         * for members still delivering their packets to this one before
         * they enter (coll_enter), so the first LOOKS looks go without
         * (and without sleeping, which only a pass that found nothing
         * may precede: a write wakes a sleeper once) */
        for (unsigned int i = 0; line_read(mine) != epoch; i++)
            if (i < LOOKS)
                plat_pause(i);
            else
                progress_wait(progress());
        struct line in;
        plat_get(&in, mine, sizeof in);
        take(acc, &in);
    }
}
