/*
 * entry.c - the public collectives: check the arguments, fill a
 * coll_call, dispatch through the selection table (select.c).
 *
 * Every entry point refuses what it can see is wrong on this UE with an
 * RCCE error before it communicates: an undefined communicator, a root or
 * source out of range, a type or operator RCCE does not have, a length
 * that overflows, a missing buffer.
 */
#include <limits.h>

#include "coll.h"

static int comm_ok(const RCCE_COMM *comm)
{
    return comm && comm->initialized == RCCE_COMM_INITIALIZED && comm->size >= 1 &&
           comm->my_rank >= 0 && comm->my_rank < comm->size;
}

static void call_init(struct coll_call *c, enum coll_op op, const RCCE_COMM *comm)
{
    memset(c, 0, sizeof(*c));
    c->op = op;
    c->comm = comm;
    c->n = comm->size;
    c->me = comm->my_rank;
}

/* A block of num bytes for each of n members must fit a size_t. */
static int blocks_ok(size_t num, int n)
{
    return num <= SIZE_MAX / (size_t)n;
}

int RCCE_bcast(char *buf, size_t num, int root, RCCE_COMM comm)
{
    struct coll_call c;

    if (!comm_ok(&comm))
        return scc_error(RCCE_ERROR_COMM_UNDEFINED);
    if (root < 0 || root >= comm.size)
        return scc_error(RCCE_ERROR_ID);
    if (!buf && num)
        return scc_error(RCCE_ERROR_TARGET);
    call_init(&c, COLL_BCAST, &comm);
    c.out = buf;
    c.bytes = num;
    c.root = root;
    return coll_dispatch(&c);
}

/* The checks of every reducing collective; elements = num per block. */
static int reduction(struct coll_call *c, enum coll_op op, const RCCE_COMM *comm,
                     int num, int type, int rop, int blocks)
{
    size_t ts = coll_type_size(type);

    if (!comm_ok(comm))
        return scc_error(RCCE_ERROR_COMM_UNDEFINED);
    if (!ts)
        return scc_error(RCCE_ERROR_ILLEGAL_TYPE);
    if (!coll_op_valid(rop))
        return scc_error(RCCE_ERROR_ILLEGAL_OP);
    if (num < 0 || (size_t)num > INT_MAX / ts / (size_t)blocks)
        return scc_error(RCCE_ERROR_MESSAGE_LENGTH);
    call_init(c, op, comm);
    c->num = num;
    c->type = type;
    c->rop = rop;
    c->tsize = ts;
    c->bytes = (size_t)num * ts;
    return RCCE_SUCCESS;
}

int RCCE_reduce(char *inbuf, char *outbuf, int num, int type, int op, int root,
                RCCE_COMM comm)
{
    struct coll_call c;
    int err = reduction(&c, COLL_REDUCE, &comm, num, type, op, 1);

    if (err)
        return err;
    if (root < 0 || root >= comm.size)
        return scc_error(RCCE_ERROR_ID);
    if (!c.bytes)
        return RCCE_SUCCESS;
    if (!inbuf)
        return scc_error(RCCE_ERROR_SOURCE);
    if (!outbuf && comm.my_rank == root)
        return scc_error(RCCE_ERROR_TARGET);
    c.in = inbuf;
    c.out = outbuf;
    c.root = root;
    return coll_dispatch(&c);
}

/* allreduce and reduce_scatter: every member gives and gets a vector. */
static int everyone(enum coll_op op, char *inbuf, char *outbuf, int num, int type, int rop,
                    const RCCE_COMM *comm, int blocks)
{
    struct coll_call c;
    int err = reduction(&c, op, comm, num, type, rop, blocks);

    if (err)
        return err;
    if (!c.bytes)
        return RCCE_SUCCESS;
    if (!inbuf)
        return scc_error(RCCE_ERROR_SOURCE);
    if (!outbuf)
        return scc_error(RCCE_ERROR_TARGET);
    c.in = inbuf;
    c.out = outbuf;
    return coll_dispatch(&c);
}

int RCCE_allreduce(char *inbuf, char *outbuf, int num, int type, int op, RCCE_COMM comm)
{
    return everyone(COLL_ALLREDUCE, inbuf, outbuf, num, type, op, &comm, 1);
}

int RCCE_reduce_scatter(char *inbuf, char *outbuf, int num, int type, int op,
                        RCCE_COMM comm)
{
    return everyone(COLL_REDUCE_SCATTER, inbuf, outbuf, num, type, op, &comm,
                    comm_ok(&comm) ? comm.size : 1);
}

/* allgather, alltoall, scatter, gather: blocks of num bytes. */
static int blocks(enum coll_op op, char *inbuf, char *outbuf, size_t num, int root,
                  RCCE_COMM *comm)
{
    struct coll_call c;
    int rooted = op == COLL_SCATTER || op == COLL_GATHER;

    if (!comm_ok(comm))
        return scc_error(RCCE_ERROR_COMM_UNDEFINED);
    if (rooted && (root < 0 || root >= comm->size))
        return scc_error(RCCE_ERROR_ID);
    if (!blocks_ok(num, comm->size))
        return scc_error(RCCE_ERROR_MESSAGE_LENGTH);
    call_init(&c, op, comm);
    c.bytes = num;
    c.root = root;
    if (!num)
        return RCCE_SUCCESS;
    /* who needs which buffer */
    int need_in = op != COLL_SCATTER || comm->my_rank == root;
    int need_out = op != COLL_GATHER || comm->my_rank == root;
    if (need_in && !inbuf)
        return scc_error(RCCE_ERROR_SOURCE);
    if (need_out && !outbuf)
        return scc_error(RCCE_ERROR_TARGET);
    c.in = inbuf;
    c.out = outbuf;
    return coll_dispatch(&c);
}

int RCCE_allgather(char *inbuf, char *outbuf, size_t num, RCCE_COMM comm)
{
    return blocks(COLL_ALLGATHER, inbuf, outbuf, num, 0, &comm);
}

int RCCE_alltoall(char *inbuf, char *outbuf, size_t num, RCCE_COMM comm)
{
    return blocks(COLL_ALLTOALL, inbuf, outbuf, num, 0, &comm);
}

int RCCE_scatter(char *inbuf, char *outbuf, size_t num, int root, RCCE_COMM comm)
{
    return blocks(COLL_SCATTER, inbuf, outbuf, num, root, &comm);
}

int RCCE_gather(char *inbuf, char *outbuf, size_t num, int root, RCCE_COMM comm)
{
    return blocks(COLL_GATHER, inbuf, outbuf, num, root, &comm);
}

int scc_stop_bcast(char *inbuf, char *outbuf, size_t num, const int *sources,
                   int nsources, RCCE_COMM comm)
{
    struct coll_call c;
    int source = 0;

    if (!comm_ok(&comm))
        return scc_error(RCCE_ERROR_COMM_UNDEFINED);
    if (!sources || nsources < 1 || nsources > comm.size)
        return scc_error(RCCE_ERROR_ID);
    for (int i = 0; i < nsources; i++) {
        if (sources[i] < 0 || sources[i] >= comm.size ||
            (i && sources[i] <= sources[i - 1]))
            return scc_error(RCCE_ERROR_ID);        /* ascending, no repeats */
        source |= sources[i] == comm.my_rank;
    }
    if (!blocks_ok(num, nsources))
        return scc_error(RCCE_ERROR_MESSAGE_LENGTH);
    if (!num)
        return RCCE_SUCCESS;
    if (source && !inbuf)
        return scc_error(RCCE_ERROR_SOURCE);
    if (!outbuf)
        return scc_error(RCCE_ERROR_TARGET);
    call_init(&c, COLL_STOP, &comm);
    c.in = inbuf;
    c.out = outbuf;
    c.bytes = num;
    c.src = sources;
    c.nsrc = nsources;
    return coll_dispatch(&c);
}

int RCCE_barrier(RCCE_COMM *comm)
{
    struct coll_call c;

    if (!comm_ok(comm) || !comm->gather)
        return scc_error(RCCE_ERROR_COMM_UNDEFINED);
    call_init(&c, COLL_BARRIER, comm);
    return coll_dispatch(&c);
}
