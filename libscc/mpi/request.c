/*
 * request.c - requests: their ids (which travel in packets), starting a
 * send or a receive, and completing them (Wait/Test and their forms).
 */
#include <stdlib.h>
#include <string.h>

#include "mpiimpl.h"
#include "../src/internal.h"      /* plat_pause */

void send_start(MPI_Request s, int tag, int src_rank);

static MPI_Request *table;
static int table_n, *free_ids, nfree;
static MPI_Request spare;       /* released requests, for reuse (->next) */
MPI_Status req_failed;
#define LOOKS 16                /* req_wait's looks at one line between passes (transport.c's) */

MPI_Request req_new(int kind, MPI_Comm c, int ctx)
{
    MPI_Request r = spare;
    if (r) {
        spare = r->next;
        /* its lines read before they are cleared: the caches do not
         * allocate on a store, and a line of it the last use did not read
         * would take each store to memory (plat_get's rule) */
        for (size_t i = 0; i < sizeof *r; i += 32)
            (void)((volatile const char *)r)[i];
        (void)((volatile const char *)r)[sizeof *r - 1];
        /* word stores (picolibc's memset, built for size, stores bytes) */
        *r = (struct mpi_request_s){ 0 };
    } else {
        r = calloc(1, sizeof *r);
    }
    if (!r)
        mpi_die(MPI_ERR_NO_MEM, "out of memory for a request");
    if (!nfree) {
        int n = table_n ? 2 * table_n : 64;
        table = realloc(table, sizeof *table * (size_t)n);
        free_ids = realloc(free_ids, sizeof *free_ids * (size_t)n);
        if (!table || !free_ids)
            mpi_die(MPI_ERR_NO_MEM, "out of memory for requests");
        for (int i = n - 1; i >= table_n; i--)
            free_ids[nfree++] = i;
        table_n = n;
    }
    r->id = free_ids[--nfree];
    /* read first: a line only ever written is never cached, and each
     * store to it would go around the caches to memory */
    if (table[r->id] != r)
        table[r->id] = r;
    r->kind = kind;
    r->comm = c;
    r->ctx = ctx;
    return r;
}

MPI_Request req_by_id(int id)
{
    if (id < 0 || id >= table_n || !table[id])
        mpi_die(MPI_ERR_INTERN, "a packet names request %d, which does not exist", id);
    return table[id];
}

void req_release(MPI_Request r)
{
    table[r->id] = NULL;
    free_ids[nfree++] = r->id;
    if (r->own_data)
        free(r->data);
    if (r->kind == REQ_RECV && r->type && !r->persistent)
        type_release(r->type);
    if (r->persistent && r->ptype)
        type_release(r->ptype);
    r->next = spare;
    spare = r;
}

int send_begin(MPI_Request s, const void *buf, int count, MPI_Datatype t, int dest, int tag)
{
    MPI_Comm c = s->comm;

    s->bytes = (size_t)count * (size_t)t->size;
    if (dest == MPI_PROC_NULL) {
        s->done = 1;
        return MPI_SUCCESS;
    }
    s->dest_ue = comm_ue(c, dest);
    if (t->contig && s->mode != SEND_BUF) {
        s->data = (char *)buf;      /* a buffered send keeps a copy: it is done at once */
    } else {
        if (!(s->data = malloc(s->bytes ? s->bytes : 1)))
            mpi_die(MPI_ERR_NO_MEM, "out of memory packing %zu bytes", s->bytes);
        s->own_data = 1;
        type_pack(buf, count, t, s->data);
    }
    if (s->mode == SEND_BUF) {
        int err = bsend_reserve(s->bytes);
        if (err) {
            free(s->data);
            s->own_data = 0;
            s->data = NULL;
            return err;
        }
        s->bsend_bytes = (int)s->bytes;
        /* done for its caller now: a request of the library's own carries
         * the copy until it left (and frees the attached space then) */
        MPI_Request t = req_new(REQ_SEND, c, s->ctx);
        t->mode = SEND_BUF;
        t->bytes = s->bytes;
        t->dest_ue = s->dest_ue;
        t->data = s->data;
        t->own_data = 1;
        t->bsend_bytes = s->bsend_bytes;
        t->freed = 1;
        s->data = NULL;
        s->own_data = s->bsend_bytes = 0;
        s->done = 1;
        s = t;
    }
    send_start(s, tag, c->rank);
    return MPI_SUCCESS;
}

int req_isend(const void *buf, int count, MPI_Datatype t, int dest, int tag, MPI_Comm c,
              int ctx, int mode, MPI_Request *out)
{
    MPI_Request s = req_new(REQ_SEND, c, ctx);

    s->mode = mode;
    int err = send_begin(s, buf, count, t, dest, tag);
    if (err) {
        req_release(s);
        return err;
    }
    *out = s;
    return MPI_SUCCESS;
}

void recv_begin(MPI_Request r)
{
    if (r->src == MPI_PROC_NULL) {
        r->st = (MPI_Status){ MPI_PROC_NULL, MPI_ANY_TAG, MPI_SUCCESS, 0, 0 };
        r->done = 1;
        return;
    }
    recv_posted(r);
}

int req_irecv(void *buf, int count, MPI_Datatype t, int src, int tag, MPI_Comm c, int ctx,
              MPI_Request *out)
{
    MPI_Request r = req_new(REQ_RECV, c, ctx);

    r->buf = buf;
    r->count = count;
    r->type = t;
    if (!t->predefined)
        t->refs++;      /* the program may free its type before the receive ends */
    r->src = src;
    r->tag = tag;
    *out = r;
    recv_begin(r);
    return MPI_SUCCESS;
}

int req_inert(MPI_Request r)
{
    return !r || (r->persistent && !r->active);
}

static void empty_status(MPI_Status *st);

/* A done request's status out, the request gone (a persistent one only
 * made inactive). */
static int finish(MPI_Request *rp, MPI_Status *st)
{
    MPI_Request r = *rp;
    int err = r->err;

    if (r->persistent) {
        if (!r->active) {
            empty_status(st);
            return MPI_SUCCESS;
        }
        r->active = 0;
        if (st)
            *st = r->kind == REQ_RECV ? r->st
                                      : (MPI_Status){ MPI_ANY_SOURCE, MPI_ANY_TAG, err, 0, 0 };
        return err;
    }

    if (err && r->kind == REQ_RECV)
        req_failed = r->st;
    if (st) {
        if (r->kind == REQ_RECV) {
            *st = r->st;
        } else {
            st->mpi_cancelled = r->cancelled;
            st->MPI_ERROR = err;
        }
    }
    req_release(r);
    *rp = MPI_REQUEST_NULL;
    return err;
}

static void empty_status(MPI_Status *st)
{
    if (st)
        *st = (MPI_Status){ MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_SUCCESS, 0, 0 };
}

int req_wait(MPI_Request *rp, MPI_Status *st)
{
    if (req_inert(*rp)) {
        empty_status(st);
        return MPI_SUCCESS;
    }
    MPI_Request r = *rp;
    if (!r->done) {
        /* the one peer this wait depends on, if there is one */
        int peer = r->kind == REQ_SEND ? r->dest_ue :
                   r->src >= 0 && r->comm && !r->comm->freed ? comm_ue(r->comm, r->src) : -1;
        progress_focus(peer);
        /* while only the peer's line can change anything, look at it
         * alone (transport_poll) and make a pass of progress when that
         * cannot do or after LOOKS looks (looks never sleep: only a
         * fruitless pass may precede a sleep) */
        for (unsigned int look = 0; !r->done; ) {
            int got = peer >= 0 && look < LOOKS ? transport_poll(peer) : -1;
            if (!got) {
                plat_pause(look++);
            } else {
                look = 0;
                if (got < 0)
                    progress_wait(progress());
                else if (scc_self.idle)     /* not idle: the next wait starts afresh */
                    scc_self.idle = 0;
            }
        }
        progress_focus(-1);
    }
    return finish(rp, st);
}

int req_test(MPI_Request *rp, int *flag, MPI_Status *st)
{
    if (req_inert(*rp)) {
        empty_status(st);
        *flag = 1;
        return MPI_SUCCESS;
    }
    int moved = progress();
    if (!(*rp)->done) {
        progress_wait(moved);
        *flag = 0;
        return MPI_SUCCESS;
    }
    *flag = 1;
    return finish(rp, st);
}

static int raise_req(MPI_Request r, const char *fn, int err)
{
    return mpi_err(r ? r->comm : NULL, fn, err);
}

int MPI_Wait(MPI_Request *req, MPI_Status *status)
{
    MPI_Comm c = *req ? (*req)->comm : NULL;
    int err = req_wait(req, status);
    return err ? mpi_err(c, "MPI_Wait", err) : MPI_SUCCESS;
}

int MPI_Test(MPI_Request *req, int *flag, MPI_Status *status)
{
    MPI_Comm c = *req ? (*req)->comm : NULL;
    int err = req_test(req, flag, status);
    return err ? mpi_err(c, "MPI_Test", err) : MPI_SUCCESS;
}

/* The *all forms: one error in a status makes MPI_ERR_IN_STATUS. */
int MPI_Waitall(int count, MPI_Request reqs[], MPI_Status statuses[])
{
    int any = 0;
    MPI_Comm c = NULL;

    for (int i = 0; i < count; i++) {
        if (reqs[i])
            c = reqs[i]->comm;
        MPI_Status tmp, *st = statuses ? &statuses[i] : &tmp;
        if (req_wait(&reqs[i], st)) {
            st->MPI_ERROR = st->MPI_ERROR ? st->MPI_ERROR : MPI_ERR_OTHER;
            any = 1;
        } else if (statuses) {
            st->MPI_ERROR = MPI_SUCCESS;
        }
    }
    return any ? mpi_err(c, "MPI_Waitall", MPI_ERR_IN_STATUS) : MPI_SUCCESS;
}

int MPI_Testall(int count, MPI_Request reqs[], int *flag, MPI_Status statuses[])
{
    int moved = progress();

    for (int i = 0; i < count; i++)
        if (!req_inert(reqs[i]) && !reqs[i]->done) {
            progress_wait(moved);
            *flag = 0;
            return MPI_SUCCESS;
        }
    *flag = 1;
    return MPI_Waitall(count, reqs, statuses);
}

int MPI_Testany(int count, MPI_Request reqs[], int *index, int *flag, MPI_Status *status)
{
    int moved = progress(), active = 0;

    for (int i = 0; i < count; i++) {
        if (req_inert(reqs[i]))
            continue;
        active = 1;
        if (reqs[i]->done) {
            MPI_Comm c = reqs[i]->comm;
            *index = i;
            *flag = 1;
            int err = finish(&reqs[i], status);
            return err ? mpi_err(c, "MPI_Testany", err) : MPI_SUCCESS;
        }
    }
    *index = MPI_UNDEFINED;
    *flag = !active;
    if (!active)
        empty_status(status);
    else
        progress_wait(moved);
    return MPI_SUCCESS;
}

int MPI_Waitany(int count, MPI_Request reqs[], int *index, MPI_Status *status)
{
    int flag = 0;

    for (;;) {
        int err = MPI_Testany(count, reqs, index, &flag, status);
        if (err || flag)
            return err;
    }
}

int MPI_Testsome(int incount, MPI_Request reqs[], int *outcount, int indices[],
                 MPI_Status statuses[])
{
    int moved = progress(), active = 0, n = 0, bad = 0;
    MPI_Comm c = NULL;

    for (int i = 0; i < incount; i++) {
        if (req_inert(reqs[i]))
            continue;
        active = 1;
        if (!reqs[i]->done)
            continue;
        c = reqs[i]->comm;
        MPI_Status tmp, *st = statuses ? &statuses[n] : &tmp;
        if (finish(&reqs[i], st))
            bad = 1;
        indices[n++] = i;
    }
    *outcount = active ? n : MPI_UNDEFINED;
    if (active && !n)
        progress_wait(moved);
    return bad ? mpi_err(c, "MPI_Testsome", MPI_ERR_IN_STATUS) : MPI_SUCCESS;
}

int MPI_Waitsome(int incount, MPI_Request reqs[], int *outcount, int indices[],
                 MPI_Status statuses[])
{
    for (;;) {
        int err = MPI_Testsome(incount, reqs, outcount, indices, statuses);
        if (err || *outcount)
            return err;
    }
}

int MPI_Request_free(MPI_Request *req)
{
    if (!req || !*req)
        return raise_req(NULL, "MPI_Request_free", MPI_ERR_REQUEST);
    MPI_Request r = *req;
    *req = MPI_REQUEST_NULL;
    if (r->done || req_inert(r))
        req_release(r);
    else
        r->freed = 1;   /* released when it completes */
    return MPI_SUCCESS;
}

int MPI_Request_get_status(MPI_Request req, int *flag, MPI_Status *status)
{
    if (!req) {
        *flag = 1;
        empty_status(status);
        return MPI_SUCCESS;
    }
    progress();
    *flag = req->done;
    if (req->done && status)
        *status = req->st;
    return MPI_SUCCESS;
}

/* Only a receive that no message matched yet can be cancelled; a send
 * is on its way once started (the standard allows the cancel to fail). */
int MPI_Cancel(MPI_Request *req)
{
    if (!req || !*req)
        return raise_req(NULL, "MPI_Cancel", MPI_ERR_REQUEST);
    MPI_Request r = *req;
    if (r->kind == REQ_RECV && !r->done && req_cancel_recv(r)) {
        r->st = (MPI_Status){ r->src, r->tag, MPI_SUCCESS, 1, 0 };
        r->done = 1;
    }
    /* a send not yet done waits at the receiver (a rendezvous header or
     * a synchronous packet): ask for it back */
    if (r->kind == REQ_SEND && !r->done && r->mode != SEND_BUF)
        send_cancel(r);
    return MPI_SUCCESS;
}

int MPI_Test_cancelled(const MPI_Status *status, int *flag)
{
    *flag = status->mpi_cancelled;
    return MPI_SUCCESS;
}
