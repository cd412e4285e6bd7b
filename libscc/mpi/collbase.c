/*
 * collbase.c - what the general collective algorithms (coll.c) and those
 * of intercommunicators (coll_inter.c) share: point to point on a
 * communicator's collective context (ctx + 1), whose messages never match
 * a program's own on the same communicator; temporary buffers of a type;
 * the check of a count and a type.
 */
#include <stdlib.h>

#include "mpiimpl.h"

void collctx_isend(const void *buf, int count, MPI_Datatype t, int dest, int tag, MPI_Comm c,
                   MPI_Request *r)
{
    req_isend(buf, count, t, dest, tag, c, c->ctx + 1, SEND_STD, r);
}

void collctx_irecv(void *buf, int count, MPI_Datatype t, int src, int tag, MPI_Comm c,
                   MPI_Request *r)
{
    req_irecv(buf, count, t, src, tag, c, c->ctx + 1, r);
}

int collctx_send(const void *buf, int count, MPI_Datatype t, int dest, int tag, MPI_Comm c)
{
    MPI_Request r;
    collctx_isend(buf, count, t, dest, tag, c, &r);
    return req_wait(&r, MPI_STATUS_IGNORE);
}

int collctx_recv(void *buf, int count, MPI_Datatype t, int src, int tag, MPI_Comm c)
{
    MPI_Request r;
    collctx_irecv(buf, count, t, src, tag, c, &r);
    return req_wait(&r, MPI_STATUS_IGNORE);
}

/* Every request waited for (MPI_REQUEST_NULL skipped); the first error. */
int collctx_waitall(int n, MPI_Request *r)
{
    int err = MPI_SUCCESS;
    for (int i = 0; i < n; i++) {
        int e = r[i] == MPI_REQUEST_NULL ? 0 : req_wait(&r[i], MPI_STATUS_IGNORE);
        if (e && !err)
            err = e;
    }
    return err;
}

/* A buffer for count instances of t; *base is where instance 0 starts. */
void *coll_tmp(int count, MPI_Datatype t, char **base)
{
    MPI_Aint span = count ? (count - 1) * type_extent(t) + t->true_ub - t->true_lb : 0;
    char *p = malloc((size_t)(span > 0 ? span : 1));
    if (!p)
        mpi_die(MPI_ERR_NO_MEM, "out of memory for %ld bytes of a collective", (long)span);
    *base = p - t->true_lb;
    return p;
}

int coll_check_type(const char *fn, MPI_Comm c, int count, MPI_Datatype t)
{
    if (count < 0)
        return mpi_errf(c, fn, MPI_ERR_COUNT, "count %d", count);
    if (!t || !t->committed)
        return mpi_err(c, fn, MPI_ERR_TYPE);
    return MPI_SUCCESS;
}
