/*
 * transport.c - packets over libscc's MPB channel, matching, progress.
 *
 * Each message starts as a packet (a header, then for a small message its
 * data) sent as one channel message (src/chan.c) from the sender's MPB;
 * a large one as a header (RTS) only: the receiver answers CTS once a
 * receive matches, and the data then follow as a raw channel message,
 * announced by a DATA packet, copied by the channel straight into the
 * receive buffer. The channel keeps each pair's messages in order, which
 * gives MPI's non-overtaking rule. Whatever arrives is taken out of the
 * MPB at once (the sender's payload buffer is free again) and, if no
 * receive is posted for it, kept in private memory as an unexpected
 * message, up to a limit that ends the run with a clear error.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mpiimpl.h"
#include "../src/internal.h"

enum { P_EAGER, P_EAGER_SYNC, P_RTS, P_CTS, P_DATA, P_ACK, P_CANCEL, P_CANCELLED };

struct pkt {
    uint32_t kind, ctx;
    int32_t tag, src;           /* src: the sender's rank in the communicator */
    uint32_t size;              /* the message's bytes */
    uint32_t sreq, rreq;        /* request ids of the sender and the receiver */
    uint32_t pad;
};

/* Unexpected messages held at most (bytes of data, messages). */
#define UNEXPECTED_BYTES (16u << 20)
#define UNEXPECTED_MSGS  16384

struct out {                    /* a channel message waiting to leave */
    struct out *next;
    int ue;
    const char *buf;
    size_t len;
    void *owned;                /* freed once sent */
    MPI_Request notify;         /* completed once sent */
};

struct unexp {
    struct unexp *next;
    struct pkt h;
    int ue;
    char *buf;                  /* the packet (header and data) */
};

struct in {                     /* a channel message arriving from one UE */
    int active;
    struct scc_xfer x;
    char *buf;
    size_t len;
    int raw;                    /* the data of the receive raw_req */
};

static struct out *out_head, *out_tail, *self_head, *self_tail;
static struct out *sending;
static struct scc_xfer send_x;
static struct in in[RCCE_MAXNP];
/* Where a one-chunk packet from each UE lands: no allocation on the
 * common path; one kept as unexpected is copied out. */
static char stage[RCCE_MAXNP][SCC_MPB_PAYLOAD_SIZE];
static MPI_Request raw_req[RCCE_MAXNP];
static MPI_Request posted_head, posted_tail;
static struct unexp *unexp_head, *unexp_tail;
static size_t unexp_bytes;
static int unexp_msgs;

#define EAGER_MAX (SCC_MPB_PAYLOAD_SIZE - sizeof(struct pkt))

void transport_init(void)
{
    memset(in, 0, sizeof in);
}

int outbox_empty(void)
{
    return !out_head && !sending && !self_head;
}

static void queue(struct out **head, struct out **tail, struct out *o)
{
    o->next = NULL;
    if (*tail)
        (*tail)->next = o;
    else
        *head = o;
    *tail = o;
}

static void req_done(MPI_Request r)
{
    r->done = 1;
    if (r->bsend_bytes)
        bsend_release((size_t)r->bsend_bytes);
    r->bsend_bytes = 0;
    if (r->freed)
        req_release(r);
}

/* Small packets and queue entries are reused rather than allocated: the
 * latency of a short message is mostly such bookkeeping. */
#define SMALL_PKT 256
struct spare { struct spare *next; };
static struct spare *spare_out, *spare_pkt;

static void *take(struct spare **list, size_t n)
{
    struct spare *p = *list;
    if (p) {
        *list = p->next;
        return p;
    }
    return malloc(n);
}

static void give(struct spare **list, void *p)
{
    struct spare *s = p;
    s->next = *list;
    *list = s;
}

/* Packets of at most SMALL_PKT bytes come from the spare list (their
 * owner pointer is tagged by where they came from: see packet()). */
static void packet_free(void *p, size_t len)
{
    if (!p)
        return;
    if (len <= SMALL_PKT)
        give(&spare_pkt, p);
    else
        free(p);
}

void send_raw(int ue, const void *data, size_t len, MPI_Request notify, void *owned)
{
    struct out *o = take(&spare_out, sizeof *o);
    if (!o)
        mpi_die(MPI_ERR_NO_MEM, "out of memory for a message to rank %d", ue);
    *o = (struct out){ NULL, ue, data, len, owned, notify };
    if (ue == mpi_env.me)
        queue(&self_head, &self_tail, o);
    else
        queue(&out_head, &out_tail, o);
}

void send_packet(int ue, void *pkt, size_t len, MPI_Request notify)
{
    send_raw(ue, pkt, len, notify, pkt);
}

static void *packet(int kind, int ctx, int tag, int src, size_t size, int sreq, int rreq,
                    const void *data, size_t n)
{
    struct pkt *p = sizeof *p + n <= SMALL_PKT ? take(&spare_pkt, SMALL_PKT)
                                               : malloc(sizeof *p + n);
    if (!p)
        mpi_die(MPI_ERR_NO_MEM, "out of memory for a message of %zu bytes", n);
    *p = (struct pkt){ (uint32_t)kind, (uint32_t)ctx, tag, src, (uint32_t)size,
                       (uint32_t)sreq, (uint32_t)rreq, 0 };
    if (n)
        memcpy(p + 1, data, n);
    return p;
}

/* A send request's first step: its data (packed already) go eagerly or
 * it asks for a rendezvous. */
void send_start(MPI_Request s, int tag, int src_rank)
{
    int eager = s->bytes <= EAGER_MAX || s->dest_ue == mpi_env.me;
    int kind = !eager ? P_RTS : s->mode == SEND_SYNC ? P_EAGER_SYNC : P_EAGER;
    void *p = packet(kind, s->ctx, tag, src_rank, s->bytes, s->id, 0,
                     s->data, eager ? s->bytes : 0);
    /* a standard or ready eager send is done once its data are copied; a
     * buffered one when they left (then its attached space is free) */
    send_packet(s->dest_ue, p, sizeof(struct pkt) + (eager ? s->bytes : 0),
                kind == P_EAGER && s->mode == SEND_BUF ? s : NULL);
    if (kind == P_EAGER && s->mode != SEND_BUF) {
        if (s->own_data)
            free(s->data);
        s->own_data = 0;
        s->data = NULL;
        req_done(s);
    }
}

/* --- matching ------------------------------------------------------------------ */

static int matches(MPI_Request r, const struct pkt *h)
{
    return r->ctx == (int)h->ctx && (r->src == MPI_ANY_SOURCE || r->src == h->src) &&
           (r->tag == MPI_ANY_TAG || r->tag == h->tag);
}

static void fill_status(MPI_Request r, const struct pkt *h, size_t got)
{
    r->st.MPI_SOURCE = h->src;
    r->st.MPI_TAG = h->tag;
    r->st.mpi_bytes = (long long)got;
    r->st.MPI_ERROR = MPI_SUCCESS;
}

static size_t capacity(MPI_Request r)
{
    return (size_t)r->count * (size_t)r->type->size;
}

/* A matched message's data in hand (eager): into the receive buffer. */
static void deliver(MPI_Request r, const struct pkt *h, const char *data, int ue)
{
    size_t cap = capacity(r), n = h->size < cap ? h->size : cap;

    if (h->kind == P_RTS) {
        fill_status(r, h, n);
        r->bytes = h->size;
        send_packet(ue, packet(P_CTS, 0, 0, 0, h->size, (int)h->sreq, r->id, NULL, 0),
                    sizeof(struct pkt), NULL);
        return;
    }
    type_unpack(data, (MPI_Aint)n, r->buf, r->count, r->type);
    fill_status(r, h, n);
    if (h->size > cap)
        r->st.MPI_ERROR = r->err = MPI_ERR_TRUNCATE;
    if (h->kind == P_EAGER_SYNC)
        send_packet(ue, packet(P_ACK, 0, 0, 0, 0, (int)h->sreq, 0, NULL, 0),
                    sizeof(struct pkt), NULL);
    req_done(r);
}

/* MPI_Cancel of a send: ask the receiver to drop it if still unmatched
 * (the answer completes the request as cancelled, or changes nothing). */
void send_cancel(MPI_Request s)
{
    send_packet(s->dest_ue, packet(P_CANCEL, 0, 0, 0, 0, s->id, 0, NULL, 0),
                sizeof(struct pkt), NULL);
}

void recv_posted(MPI_Request r)
{
    for (struct unexp **pp = &unexp_head, *prev = NULL; *pp; prev = *pp, pp = &(*pp)->next) {
        struct unexp *u = *pp;
        if (!matches(r, &u->h))
            continue;
        *pp = u->next;
        if (unexp_tail == u)
            unexp_tail = prev;
        unexp_msgs--;
        unexp_bytes -= u->h.kind == P_RTS ? 0 : u->h.size;
        deliver(r, &u->h, u->buf + sizeof(struct pkt), u->ue);
        free(u->buf);
        free(u);
        return;
    }
    r->next = NULL;
    if (posted_tail)
        posted_tail->next = r;
    else
        posted_head = r;
    posted_tail = r;
}

int req_cancel_recv(MPI_Request r)
{
    for (MPI_Request *pp = &posted_head, prev = NULL; *pp; prev = *pp, pp = &(*pp)->next)
        if (*pp == r) {
            *pp = r->next;
            if (posted_tail == r)
                posted_tail = prev;
            return 1;
        }
    return 0;
}

int p2p_probe(int ctx, int src, int tag, MPI_Comm c, MPI_Status *st)
{
    struct mpi_request_s probe = { .ctx = ctx, .src = src, .tag = tag };
    (void)c;
    for (struct unexp *u = unexp_head; u; u = u->next)
        if (matches(&probe, &u->h)) {
            if (st) {
                st->MPI_SOURCE = u->h.src;
                st->MPI_TAG = u->h.tag;
                st->MPI_ERROR = MPI_SUCCESS;
                st->mpi_bytes = u->h.size;
                st->mpi_cancelled = 0;
            }
            return 1;
        }
    return 0;
}

/* A whole packet from ue; buf is freed here if owned, else it is a
 * staging buffer and copied if kept. */
static void arrived(int ue, char *buf, size_t len, int owned)
{
    struct pkt h;
    memcpy(&h, buf, sizeof h);

    switch (h.kind) {
    case P_EAGER:
    case P_EAGER_SYNC:
    case P_RTS:
        for (MPI_Request *pp = &posted_head, prev = NULL; *pp; prev = *pp, pp = &(*pp)->next) {
            MPI_Request r = *pp;
            if (!matches(r, &h))
                continue;
            *pp = r->next;
            if (posted_tail == r)
                posted_tail = prev;
            deliver(r, &h, buf + sizeof h, ue);
            if (owned)
                free(buf);
            return;
        }
        if (unexp_msgs + 1 > UNEXPECTED_MSGS ||
            unexp_bytes + (h.kind == P_RTS ? 0 : h.size) > UNEXPECTED_BYTES)
            mpi_die(MPI_ERR_NO_MEM, "more unexpected messages than this rank can hold "
                    "(%d messages, %zu bytes of data received before a matching receive "
                    "was posted; the limit is %d messages or %u bytes): the run ends "
                    "rather than lose one", unexp_msgs + 1,
                    unexp_bytes + (h.kind == P_RTS ? 0 : h.size), UNEXPECTED_MSGS,
                    UNEXPECTED_BYTES);
        struct unexp *u = malloc(sizeof *u);
        if (!owned) {
            char *copy = malloc(len);
            if (copy)
                memcpy(copy, buf, len);
            buf = copy;
        }
        if (!u || !buf)
            mpi_die(MPI_ERR_NO_MEM, "out of memory for an unexpected message");
        *u = (struct unexp){ NULL, h, ue, buf };
        if (unexp_tail)
            unexp_tail->next = u;
        else
            unexp_head = u;
        unexp_tail = u;
        unexp_msgs++;
        unexp_bytes += h.kind == P_RTS ? 0 : h.size;
        return;
    case P_CTS: {
        MPI_Request s = req_by_id((int)h.sreq);
        send_packet(ue, packet(P_DATA, 0, 0, 0, s->bytes, (int)h.sreq, (int)h.rreq, NULL, 0),
                    sizeof(struct pkt), NULL);
        send_raw(ue, s->data, s->bytes, s, s->own_data ? s->data : NULL);
        s->own_data = 0;
        break;
    }
    case P_DATA:
        raw_req[ue] = req_by_id((int)h.rreq);
        break;
    case P_ACK:
        req_done(req_by_id((int)h.sreq));
        break;
    case P_CANCEL: {
        /* the sender withdraws a message that waits here unmatched (a
         * rendezvous header, or a synchronous send's packet): gone, if so */
        int gone = 0;
        for (struct unexp **pp = &unexp_head, *prev = NULL; *pp; prev = *pp, pp = &(*pp)->next) {
            struct unexp *u = *pp;
            if (u->ue != ue || u->h.sreq != h.sreq ||
                (u->h.kind != P_RTS && u->h.kind != P_EAGER_SYNC))
                continue;
            *pp = u->next;
            if (unexp_tail == u)
                unexp_tail = prev;
            unexp_msgs--;
            unexp_bytes -= u->h.kind == P_RTS ? 0 : u->h.size;
            free(u->buf);
            free(u);
            gone = 1;
            break;
        }
        send_packet(ue, packet(P_CANCELLED, 0, 0, 0, 0, (int)h.sreq, gone, NULL, 0),
                    sizeof(struct pkt), NULL);
        break;
    }
    case P_CANCELLED: {
        /* in order after any CTS or ACK the receiver sent before it; a
         * send it did not cancel may be long done and its id reused */
        if (!h.rreq)
            break;
        MPI_Request s = req_by_id((int)h.sreq);
        if (!s->done) {
            s->cancelled = 1;
            req_done(s);
        }
        break;
    }
    }
    if (owned)
        free(buf);
}

/* The raw data of a rendezvous, arrived in buf (the receive's own buffer
 * when it was contiguous and large enough). */
static void raw_arrived(int ue, char *buf)
{
    MPI_Request r = raw_req[ue];
    size_t cap = capacity(r), n = r->bytes < cap ? r->bytes : cap;

    raw_req[ue] = NULL;
    if (buf != r->buf) {
        type_unpack(buf, (MPI_Aint)n, r->buf, r->count, r->type);
        free(buf);
    }
    if (r->bytes > cap)
        r->st.MPI_ERROR = r->err = MPI_ERR_TRUNCATE;
    req_done(r);
}

/* --- progress ------------------------------------------------------------------- */

static int progress_send(void)
{
    int moved = 0;

    for (;;) {
        if (!sending) {
            if (!out_head)
                return moved;
            sending = out_head;
            out_head = out_head->next;
            if (!out_head)
                out_tail = NULL;
            chan_send_begin(&send_x, (char *)sending->buf, sending->len, sending->ue);
        }
        if (!chan_send_step(&send_x))
            return moved;
        moved = 1;
        struct out *o = sending;
        sending = NULL;
        packet_free(o->owned, o->len);
        if (o->notify)
            req_done(o->notify);
        give(&spare_out, o);
    }
}

/* A wait for one peer (progress_focus) looks at that peer's channel on
 * every pass and at all of them on every FULL_PASS-th: each look costs
 * a read of an MPB line, and 47 of them per pass made a short message
 * between two of 48 ranks four times slower. The full passes still take
 * everything that arrives out of the MPB. */
#define FULL_PASS 16
static int focus = -1;
static unsigned int passes;

void progress_focus(int ue)
{
    focus = ue;
}

static int progress_recv(void)
{
    int moved = 0, full = focus < 0 || !(++passes % FULL_PASS);
    t_vcharp mine = my_mpb();

    plat_invalidate();          /* once for all the lines below (chan_incoming's test) */
    for (int ue = 0; ue < mpi_env.np; ue++) {
        struct in *c = &in[ue];
        if (ue == mpi_env.me || (!full && ue != focus && !c->active))
            continue;
        if (!c->active) {
            if (plat_load(mine + SCC_MPB_SENT_LINE(ue)) == scc_self.taken[ue])
                continue;
            /* a packet fits one payload buffer; raw data follow a header
             * that said their size: nothing here reads the channel's own
             * size word, whose encoding is the channel's business */
            MPI_Request r = raw_req[ue];
            c->raw = r != NULL;
            c->len = c->raw ? r->bytes : sizeof stage[ue];
            if (!c->raw)
                c->buf = stage[ue];
            else if (r->type->contig && c->len <= capacity(r))
                c->buf = r->buf;
            else if (!(c->buf = malloc(c->len ? c->len : 1)))
                mpi_die(MPI_ERR_NO_MEM, "out of memory for a message of %zu bytes from rank %d",
                        c->len, ue);
            chan_recv_begin(&c->x, c->buf, c->len, ue);
            c->active = 1;
        }
        if (!chan_recv_step(&c->x))
            continue;
        c->active = 0;
        moved = 1;
        if (c->x.msg > c->len)
            mpi_die(MPI_ERR_INTERN, "a message of %zu bytes from rank %d where %zu were due",
                    c->x.msg, ue, c->len);
        if (c->raw)
            raw_arrived(ue, c->buf);
        else
            arrived(ue, c->buf, c->x.msg, 0);
    }
    return moved;
}

static int progress_self(void)
{
    int moved = 0;

    while (self_head) {
        struct out *o = self_head;
        self_head = o->next;
        if (!self_head)
            self_tail = NULL;
        size_t len = o->len;
        char *copy = o->owned ? o->owned : malloc(len ? len : 1);
        if (!o->owned)
            memcpy(copy, o->buf, len);
        if (o->notify)
            req_done(o->notify);
        give(&spare_out, o);
        arrived(mpi_env.me, copy, len, 1);
        moved = 1;
    }
    return moved;
}

int progress(void)
{
    int moved = progress_self();
    moved |= progress_send();
    moved |= progress_recv();
    moved |= progress_send();
    return moved;
}

void progress_wait(int moved)
{
    scc_idle(moved);
}
