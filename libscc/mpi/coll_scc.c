/*
 * coll_scc.c - collectives lent to libscc: its tuned algorithms (the
 * `auto` choice, the tuning file, --coll/SCC_COLL overrides) serve calls
 * on a communicator of every rank in world order (RCCE_COMM_WORLD) with
 * contiguous data and, for reductions, RCCE's types and operations.
 * coll_enter has made sure no MPI packet is in a channel meanwhile.
 */
#include <stdlib.h>
#include <string.h>

#include "mpiimpl.h"
#include "RCCE.h"
#include "scc_coll.h"

int scc_coll_ok(MPI_Comm c)
{
    return c->world_like && c->size > 1;
}

void scc_quiet(void)
{
    RCCE_barrier(&RCCE_COMM_WORLD);
}

static int rcce_type(MPI_Datatype t)
{
    if (t == MPI_INT || t == MPI_INT32_T)
        return RCCE_INT;
    if (t == MPI_LONG)
        return RCCE_LONG;
    if (t == MPI_FLOAT)
        return RCCE_FLOAT;
    if (t == MPI_DOUBLE)
        return RCCE_DOUBLE;
    return -1;
}

static int rcce_op(MPI_Op op)
{
    if (op == MPI_SUM)
        return RCCE_SUM;
    if (op == MPI_MIN)
        return RCCE_MIN;
    if (op == MPI_MAX)
        return RCCE_MAX;
    if (op == MPI_PROD)
        return RCCE_PROD;
    return -1;
}

int scc_reduces(MPI_Datatype t, MPI_Op op)
{
    return rcce_type(t) >= 0 && rcce_op(op) >= 0;
}

/* libscc's errors are all of the kind "the call could not be done". */
static int done(int rc, int *err)
{
    *err = rc == RCCE_SUCCESS ? MPI_SUCCESS : MPI_ERR_OTHER;
    return 1;
}

/* libscc's collectives read and write distinct buffers: an in-place call
 * gets a copy of its input. */
static const void *unaliased(const void *in, const void *out, size_t n, void **copy)
{
    *copy = NULL;
    if (in != out)
        return in;
    *copy = malloc(n ? n : 1);
    if (!*copy)
        mpi_die(MPI_ERR_NO_MEM, "out of memory for an in-place collective");
    memcpy(*copy, in, n);
    return *copy;
}

int scc_bcast(void *buf, size_t bytes, int root, MPI_Comm c, int *err)
{
    (void)c;
    return done(RCCE_bcast(buf, bytes, root, RCCE_COMM_WORLD), err);
}

int scc_allreduce(const void *in, void *out, int count, MPI_Datatype t, MPI_Op op,
                  MPI_Comm c, int *err)
{
    void *copy;
    (void)c;
    in = unaliased(in, out, (size_t)count * (size_t)t->size, &copy);
    done(RCCE_allreduce((char *)in, out, count, rcce_type(t), rcce_op(op), RCCE_COMM_WORLD),
         err);
    free(copy);
    return 1;
}

int scc_reduce(const void *in, void *out, int count, MPI_Datatype t, MPI_Op op, int root,
               MPI_Comm c, int *err)
{
    void *copy;
    in = unaliased(in, out, (size_t)count * (size_t)t->size, &copy);
    /* libscc writes outbuf on the root only; others' recvbuf may be NULL */
    void *scratch = NULL;
    if (c->rank != root && !out)
        out = scratch = malloc((size_t)count * (size_t)t->size + 1);
    done(RCCE_reduce((char *)in, out, count, rcce_type(t), rcce_op(op), root,
                     RCCE_COMM_WORLD), err);
    free(copy);
    free(scratch);
    return 1;
}

int scc_allgather(const void *in, void *out, size_t bytes, MPI_Comm c, int *err)
{
    (void)c;
    return done(RCCE_allgather((char *)in, out, bytes, RCCE_COMM_WORLD), err);
}

int scc_alltoall(const void *in, void *out, size_t bytes, MPI_Comm c, int *err)
{
    (void)c;
    return done(RCCE_alltoall((char *)in, out, bytes, RCCE_COMM_WORLD), err);
}

int scc_gather(const void *in, void *out, size_t bytes, int root, MPI_Comm c, int *err)
{
    void *copy = NULL;
    if (c->rank == root)
        in = unaliased(in, (char *)out + (size_t)root * bytes, bytes, &copy);
    done(RCCE_gather((char *)in, out, bytes, root, RCCE_COMM_WORLD), err);
    free(copy);
    return 1;
}

int scc_scatter(const void *in, void *out, size_t bytes, int root, MPI_Comm c, int *err)
{
    void *copy = NULL;
    if (c->rank == root && out == (const char *)in + (size_t)root * bytes) {
        copy = malloc(bytes ? bytes : 1);
        out = copy;
    }
    done(RCCE_scatter((char *)in, out, bytes, root, RCCE_COMM_WORLD), err);
    free(copy);
    return 1;
}
