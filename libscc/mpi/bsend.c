/*
 * bsend.c - the buffer of buffered sends. A buffered send's data wait in
 * a private copy (the transport's packet) until they left; the attached
 * buffer is the budget for those copies: a send beyond its free space
 * fails with MPI_ERR_BUFFER, as the standard requires.
 */
#include "mpiimpl.h"

static void *attached;
static size_t size, used;

int bsend_reserve(size_t bytes)
{
    if (!attached || used + bytes + MPI_BSEND_OVERHEAD > size)
        return MPI_ERR_BUFFER;
    used += bytes + MPI_BSEND_OVERHEAD;
    return MPI_SUCCESS;
}

void bsend_release(size_t bytes)
{
    used -= bytes + MPI_BSEND_OVERHEAD;
}

int MPI_Buffer_attach(void *buffer, int sz)
{
    mpi_check_up("MPI_Buffer_attach");
    if (attached || sz < 0)
        return mpi_errf(NULL, "MPI_Buffer_attach", MPI_ERR_BUFFER, "%s",
                        attached ? "a buffer is attached already" : "negative size");
    attached = buffer;
    size = (size_t)sz;
    used = 0;
    return MPI_SUCCESS;
}

/* Waits until every buffered send has left. */
int MPI_Buffer_detach(void *buffer_addr, int *sz)
{
    mpi_check_up("MPI_Buffer_detach");
    while (used)
        progress_wait(progress());
    *(void **)buffer_addr = attached;
    *sz = (int)size;
    attached = NULL;
    size = 0;
    return MPI_SUCCESS;
}
