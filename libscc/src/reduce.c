/*
 * reduce.c - RCCE_reduce and RCCE_allreduce: a binomial reduction tree
 * towards the root (a rank in the communicator), then for allreduce a
 * binomial broadcast of the result, so every UE ends with the same bits.
 * Unlike Intel's RCCE, the caller's inbuf is never overwritten.
 */
#include <limits.h>
#include <string.h>

#include "internal.h"

static size_t type_size(int type)
{
    switch (type) {
    case RCCE_INT:    return sizeof(int);
    case RCCE_LONG:   return sizeof(long);
    case RCCE_FLOAT:  return sizeof(float);
    case RCCE_DOUBLE: return sizeof(double);
    }
    return 0;
}

#define COMBINE(T, acc, in, num, op) do {                                   \
        T *a = (T *)(acc);                                                  \
        const T *b = (const T *)(in);                                       \
        for (int i = 0; i < (num); i++)                                     \
            switch (op) {                                                   \
            case RCCE_SUM:  a[i] = a[i] + b[i]; break;                      \
            case RCCE_PROD: a[i] = a[i] * b[i]; break;                      \
            case RCCE_MIN:  if (b[i] < a[i]) a[i] = b[i]; break;            \
            case RCCE_MAX:  if (b[i] > a[i]) a[i] = b[i]; break;            \
            }                                                               \
    } while (0)

/* acc[i] = acc[i] op in[i] */
static void combine(char *acc, const char *in, int num, int type, int op)
{
    switch (type) {
    case RCCE_INT:    COMBINE(int, acc, in, num, op); break;
    case RCCE_LONG:   COMBINE(long, acc, in, num, op); break;
    case RCCE_FLOAT:  COMBINE(float, acc, in, num, op); break;
    case RCCE_DOUBLE: COMBINE(double, acc, in, num, op); break;
    }
}

/* Reduce into acc (which holds this UE's contribution) along the tree;
 * on return the root's acc holds the result. */
static int tree(char *acc, char *tmp, int num, size_t bytes, int type, int op,
                int root, const RCCE_COMM *comm)
{
    int n = comm->size, me = (comm->my_rank - root + n) % n, err;

    for (int mask = 1; mask < n; mask <<= 1) {
        if (me & mask) {
            int to = comm->member[(me - mask + root) % n];
            return RCCE_simple_send(acc, bytes, to);
        }
        if (me + mask < n) {
            int from = comm->member[(me + mask + root) % n];
            if ((err = RCCE_simple_recv(tmp, bytes, from)))
                return err;
            combine(acc, tmp, num, type, op);
        }
    }
    return RCCE_SUCCESS;
}

static int reduce(char *inbuf, char *outbuf, int num, int type, int op,
                  int root, int all, const RCCE_COMM *comm)
{
    size_t ts = type_size(type), bytes;
    int err;

    if (comm->initialized != RCCE_COMM_INITIALIZED)
        return scc_error(RCCE_ERROR_COMM_UNDEFINED);
    if (root < 0 || root >= comm->size)
        return scc_error(RCCE_ERROR_ID);
    if (!ts)
        return scc_error(RCCE_ERROR_ILLEGAL_TYPE);
    if (op < RCCE_SUM || op > RCCE_PROD)
        return scc_error(RCCE_ERROR_ILLEGAL_OP);
    if (num < 0 || (size_t)num > INT_MAX / ts)
        return scc_error(RCCE_ERROR_MESSAGE_LENGTH);
    bytes = (size_t)num * ts;
    if (!bytes)
        return RCCE_SUCCESS;
    if (!inbuf)
        return scc_error(RCCE_ERROR_SOURCE);
    int mine = comm->my_rank == root;
    if (!outbuf && (all || mine))
        return scc_error(RCCE_ERROR_TARGET);

    /* the accumulator is outbuf where the result goes anyway */
    char *tmp = malloc(bytes), *acc = all || mine ? outbuf : malloc(bytes);
    if (!tmp || !acc) {
        free(tmp);
        if (acc != outbuf)
            free(acc);
        return scc_error(RCCE_ERROR_MALLOC);
    }
    memmove(acc, inbuf, bytes);
    err = tree(acc, tmp, num, bytes, type, op, root, comm);
    if (!err && all)
        err = scc_bcast(outbuf, bytes, root, comm);
    free(tmp);
    if (acc != outbuf)
        free(acc);
    return err;
}

int RCCE_reduce(char *inbuf, char *outbuf, int num, int type, int op,
                int root, RCCE_COMM comm)
{
    return reduce(inbuf, outbuf, num, type, op, root, 0, &comm);
}

int RCCE_allreduce(char *inbuf, char *outbuf, int num, int type, int op,
                   RCCE_COMM comm)
{
    return reduce(inbuf, outbuf, num, type, op, 0, 1, &comm);
}
