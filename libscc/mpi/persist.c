/*
 * persist.c - persistent requests: the arguments kept in the request,
 * each MPI_Start a new send or receive through the same object (its id
 * travels in packets, so a start may follow the last completion at
 * once). Completion makes the request inactive, not free.
 */
#include "mpiimpl.h"

static int init(const char *fn, int kind, int mode, const void *buf, int count,
                MPI_Datatype t, int peer, int tag, MPI_Comm c, MPI_Request *req)
{
    mpi_check_up(fn);
    if (comm_check(c))
        return mpi_err(c, fn, MPI_ERR_COMM);
    if (count < 0 || !t || !t->committed)
        return mpi_err(c, fn, count < 0 ? MPI_ERR_COUNT : MPI_ERR_TYPE);
    int recv = kind == REQ_RECV;
    if (tag < 0 && !(recv && tag == MPI_ANY_TAG))
        return mpi_errf(c, fn, MPI_ERR_TAG, "tag %d", tag);
    if (peer != MPI_PROC_NULL && !(recv && peer == MPI_ANY_SOURCE) &&
        (peer < 0 || peer >= comm_peers(c)))
        return mpi_errf(c, fn, MPI_ERR_RANK, "rank %d of a communicator of %d", peer,
                        comm_peers(c));
    MPI_Request r = req_new(kind, c, c->ctx);
    r->persistent = 1;
    r->done = 1;            /* inactive: nothing to wait for */
    r->mode = mode;
    r->pbuf = buf;
    r->pcount = count;
    r->ptype = t;
    if (!t->predefined)
        t->refs++;
    r->ppeer = peer;
    r->ptag = tag;
    *req = r;
    return MPI_SUCCESS;
}

int MPI_Send_init(const void *buf, int count, MPI_Datatype type, int dest, int tag,
                  MPI_Comm comm, MPI_Request *req)
{
    return init("MPI_Send_init", REQ_SEND, SEND_STD, buf, count, type, dest, tag, comm, req);
}

int MPI_Ssend_init(const void *buf, int count, MPI_Datatype type, int dest, int tag,
                   MPI_Comm comm, MPI_Request *req)
{
    return init("MPI_Ssend_init", REQ_SEND, SEND_SYNC, buf, count, type, dest, tag, comm, req);
}

int MPI_Bsend_init(const void *buf, int count, MPI_Datatype type, int dest, int tag,
                   MPI_Comm comm, MPI_Request *req)
{
    return init("MPI_Bsend_init", REQ_SEND, SEND_BUF, buf, count, type, dest, tag, comm, req);
}

int MPI_Rsend_init(const void *buf, int count, MPI_Datatype type, int dest, int tag,
                   MPI_Comm comm, MPI_Request *req)
{
    return init("MPI_Rsend_init", REQ_SEND, SEND_READY, buf, count, type, dest, tag, comm, req);
}

int MPI_Recv_init(void *buf, int count, MPI_Datatype type, int source, int tag,
                  MPI_Comm comm, MPI_Request *req)
{
    return init("MPI_Recv_init", REQ_RECV, 0, buf, count, type, source, tag, comm, req);
}

int MPI_Start(MPI_Request *req)
{
    MPI_Request r = req ? *req : MPI_REQUEST_NULL;

    if (!r || !r->persistent || r->active)
        return mpi_errf(r ? r->comm : NULL, "MPI_Start", MPI_ERR_REQUEST, "%s",
                        !r || !r->persistent ? "not a persistent request" : "already active");
    r->active = 1;
    r->done = r->err = r->cancelled = 0;
    r->st = (MPI_Status){ 0 };
    if (r->kind == REQ_RECV) {
        r->buf = (void *)r->pbuf;
        r->count = r->pcount;
        r->type = r->ptype;
        r->src = r->ppeer;
        r->tag = r->ptag;
        recv_begin(r);
        return MPI_SUCCESS;
    }
    r->data = NULL;
    r->own_data = r->bsend_bytes = 0;
    int err = send_begin(r, r->pbuf, r->pcount, r->ptype, r->ppeer, r->ptag);
    if (err) {
        r->active = 0;
        r->done = 1;
        return mpi_err(r->comm, "MPI_Start", err);
    }
    return MPI_SUCCESS;
}

int MPI_Startall(int count, MPI_Request reqs[])
{
    for (int i = 0; i < count; i++) {
        int err = MPI_Start(&reqs[i]);
        if (err)
            return err;
    }
    return MPI_SUCCESS;
}
