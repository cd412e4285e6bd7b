/*
 * p2p.c - the point-to-point calls: argument checks, then requests
 * (request.c) over the transport (transport.c).
 */
#include <stdlib.h>
#include <string.h>

#include "mpiimpl.h"

static int check(const char *fn, int count, MPI_Datatype t, int rank, int tag, MPI_Comm c,
                 int recv)
{
    mpi_check_up(fn);
    if (comm_check(c))
        return mpi_err(c, fn, MPI_ERR_COMM);
    if (count < 0)
        return mpi_errf(c, fn, MPI_ERR_COUNT, "count %d", count);
    if (!t || !t->committed)
        return mpi_errf(c, fn, MPI_ERR_TYPE, "%s", t ? "the datatype is not committed"
                                                     : "MPI_DATATYPE_NULL");
    if (tag < 0 && !(recv && tag == MPI_ANY_TAG))
        return mpi_errf(c, fn, MPI_ERR_TAG, "tag %d", tag);
    if (rank != MPI_PROC_NULL && !(recv && rank == MPI_ANY_SOURCE) &&
        (rank < 0 || rank >= comm_peers(c)))
        return mpi_errf(c, fn, MPI_ERR_RANK, "rank %d of a communicator of %d", rank,
                        comm_peers(c));
    return MPI_SUCCESS;
}

static int isend(const char *fn, const void *buf, int count, MPI_Datatype t, int dest,
                 int tag, MPI_Comm c, int mode, MPI_Request *req)
{
    int err = check(fn, count, t, dest, tag, c, 0);
    if (!err)
        err = req_isend(buf, count, t, dest, tag, c, c->ctx, mode, req);
    if (err == MPI_ERR_BUFFER)
        return mpi_errf(c, fn, err, "%zu bytes do not fit the attached buffer's free space",
                        (size_t)count * (size_t)t->size + MPI_BSEND_OVERHEAD);
    return err ? mpi_err(c, fn, err) : MPI_SUCCESS;
}

static int send(const char *fn, const void *buf, int count, MPI_Datatype t, int dest,
                int tag, MPI_Comm c, int mode)
{
    MPI_Request r;
    int err = isend(fn, buf, count, t, dest, tag, c, mode, &r);
    if (!err && (err = req_wait(&r, MPI_STATUS_IGNORE)))
        return mpi_err(c, fn, err);
    return err;
}

int MPI_Send(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm)
{
    int err = check("MPI_Send", count, type, dest, tag, comm, 0);
    if (err)
        return err;
    /* a short message goes at once, with no request (transport.c) */
    if (dest != MPI_PROC_NULL && type->contig &&
        send_now(comm_ue(comm, dest), comm->ctx, tag, comm->rank, buf,
                 (size_t)count * (size_t)type->size))
        return MPI_SUCCESS;
    MPI_Request r;
    err = req_isend(buf, count, type, dest, tag, comm, comm->ctx, SEND_STD, &r);
    if (!err)
        err = req_wait(&r, MPI_STATUS_IGNORE);
    return err ? mpi_err(comm, "MPI_Send", err) : MPI_SUCCESS;
}

int MPI_Ssend(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm)
{
    return send("MPI_Ssend", buf, count, type, dest, tag, comm, SEND_SYNC);
}

int MPI_Bsend(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm)
{
    MPI_Request r;
    int err = isend("MPI_Bsend", buf, count, type, dest, tag, comm, SEND_BUF, &r);
    /* done as soon as the data are in the attached buffer */
    if (!err)
        MPI_Request_free(&r);
    return err;
}

int MPI_Rsend(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm)
{
    return send("MPI_Rsend", buf, count, type, dest, tag, comm, SEND_READY);
}

int MPI_Isend(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
              MPI_Request *req)
{
    return isend("MPI_Isend", buf, count, type, dest, tag, comm, SEND_STD, req);
}

int MPI_Issend(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
               MPI_Request *req)
{
    return isend("MPI_Issend", buf, count, type, dest, tag, comm, SEND_SYNC, req);
}

int MPI_Ibsend(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
               MPI_Request *req)
{
    return isend("MPI_Ibsend", buf, count, type, dest, tag, comm, SEND_BUF, req);
}

int MPI_Irsend(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
               MPI_Request *req)
{
    return isend("MPI_Irsend", buf, count, type, dest, tag, comm, SEND_READY, req);
}

int MPI_Irecv(void *buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm,
              MPI_Request *req)
{
    int err = check("MPI_Irecv", count, type, source, tag, comm, 1);
    if (!err)
        err = req_irecv(buf, count, type, source, tag, comm, comm->ctx, req);
    return err;
}

int MPI_Recv(void *buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm,
             MPI_Status *status)
{
    MPI_Request r;
    int err = check("MPI_Recv", count, type, source, tag, comm, 1);
    if (err)
        return err;
    /* from one rank, with nothing else pending: no request (transport.c) */
    if (source >= 0 && type->contig &&
        recv_now(buf, (size_t)count * (size_t)type->size, comm_ue(comm, source), comm->ctx,
                 source, tag, status))
        return MPI_SUCCESS;
    req_irecv(buf, count, type, source, tag, comm, comm->ctx, &r);
    /* no status written when ignored (a line only written is not cached:
     * each store would go to memory) */
    err = req_wait(&r, status);
    if (err == MPI_ERR_TRUNCATE)
        return mpi_errf(comm, "MPI_Recv", err, "the message from rank %d, tag %d, is longer "
                        "than the receive's %lld bytes", req_failed.MPI_SOURCE,
                        req_failed.MPI_TAG, (long long)count * type->size);
    return err ? mpi_err(comm, "MPI_Recv", err) : MPI_SUCCESS;
}

int MPI_Sendrecv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, int dest,
                 int sendtag, void *recvbuf, int recvcount, MPI_Datatype recvtype, int source,
                 int recvtag, MPI_Comm comm, MPI_Status *status)
{
    MPI_Request rs[2];
    int err = check("MPI_Sendrecv", recvcount, recvtype, source, recvtag, comm, 1);
    if (err)
        return err;
    req_irecv(recvbuf, recvcount, recvtype, source, recvtag, comm, comm->ctx, &rs[0]);
    if ((err = isend("MPI_Sendrecv", sendbuf, sendcount, sendtype, dest, sendtag, comm,
                     SEND_STD, &rs[1])))
        return err;
    int e2 = req_wait(&rs[1], MPI_STATUS_IGNORE);
    err = req_wait(&rs[0], status);
    return err || e2 ? mpi_err(comm, "MPI_Sendrecv", err ? err : e2) : MPI_SUCCESS;
}

int MPI_Sendrecv_replace(void *buf, int count, MPI_Datatype type, int dest, int sendtag,
                         int source, int recvtag, MPI_Comm comm, MPI_Status *status)
{
    int err = check("MPI_Sendrecv_replace", count, type, dest, sendtag, comm, 0);
    if (err)
        return err;
    size_t n = (size_t)count * (size_t)type->size;
    char *copy = malloc(n ? n : 1);
    if (!copy)
        return mpi_err(comm, "MPI_Sendrecv_replace", MPI_ERR_NO_MEM);
    type_pack(buf, count, type, copy);
    err = MPI_Sendrecv(copy, (int)n, MPI_BYTE, dest, sendtag, buf, count, type, source,
                       recvtag, comm, status);
    free(copy);
    return err;
}

int MPI_Iprobe(int source, int tag, MPI_Comm comm, int *flag, MPI_Status *status)
{
    int err = check("MPI_Iprobe", 0, MPI_BYTE, source, tag, comm, 1);
    if (err)
        return err;
    if (source == MPI_PROC_NULL) {
        *flag = 1;
        if (status)
            *status = (MPI_Status){ MPI_PROC_NULL, MPI_ANY_TAG, MPI_SUCCESS, 0, 0 };
        return MPI_SUCCESS;
    }
    int moved = progress();
    *flag = p2p_probe(comm->ctx, source, tag, comm, status);
    if (!*flag)
        progress_wait(moved);
    return MPI_SUCCESS;
}

int MPI_Probe(int source, int tag, MPI_Comm comm, MPI_Status *status)
{
    int flag = 0, err;

    while (!(err = MPI_Iprobe(source, tag, comm, &flag, status)) && !flag)
        ;
    return err;
}

int MPI_Get_count(const MPI_Status *status, MPI_Datatype type, int *count)
{
    if (!type)
        return mpi_err(NULL, "MPI_Get_count", MPI_ERR_TYPE);
    if (!type->size)
        *count = status->mpi_bytes ? MPI_UNDEFINED : 0;
    else if (status->mpi_bytes % type->size)
        *count = MPI_UNDEFINED;
    else
        *count = (int)(status->mpi_bytes / type->size);
    return MPI_SUCCESS;
}

int MPI_Get_elements(const MPI_Status *status, MPI_Datatype type, int *count)
{
    if (!type)
        return mpi_err(NULL, "MPI_Get_elements", MPI_ERR_TYPE);
    MPI_Aint n = type_elements(type, status->mpi_bytes);
    /* bytes that end inside a basic element make no whole element */
    *count = (int)n;
    return MPI_SUCCESS;
}
