/*
 * transport.c - packets over libscc's MPB channel, matching, progress.
 *
 * Each message starts as a packet: a header (kind, context, tag, source,
 * request ids) carried in the value words of the sender's channel line in
 * the receiver's MPB (the words libscc's collectives use for their
 * signals' values, idle outside a collective), written in the same line
 * write as the channel's sequence number, and, for a small message, its
 * data as the one chunk in the sender's payload buffer. So a short
 * message costs what RCCE's costs: one line read at the receiver for the
 * header (its own MPB) and the payload lines from the sender's MPB, which
 * go straight into a matching receive's buffer. A large one goes as a
 * header (RTS) only: the receiver answers CTS once a receive matches, and
 * the data then follow as a raw channel message (src/chan.c), announced
 * by a DATA packet, copied by the channel straight into the receive
 * buffer. The channel keeps each pair's messages in order, which gives
 * MPI's non-overtaking rule. Whatever arrives is taken out of the MPB at
 * once (the sender's payload buffer is free again) and, if no receive is
 * posted for it, kept in private memory as an unexpected message, up to
 * a limit that ends the run with a clear error.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mpiimpl.h"
#include "../src/internal.h"

enum { P_EAGER, P_EAGER_SYNC, P_RTS, P_CTS, P_DATA, P_ACK, P_CANCEL, P_CANCELLED };

struct pkt {                    /* a packet's header, as this file handles it */
    uint32_t kind, ctx;
    int32_t tag, src;           /* src: the sender's rank in the communicator */
    uint32_t size;              /* the message's bytes */
    uint32_t sreq, rreq;        /* request ids of the sender and the receiver */
};

/* In the channel line's size word: the message is an MPI packet, not a
 * channel message of libscc's own (a collective's, which may start on a
 * member that left the agreement while this one still waits in it:
 * coll_enter) nor raw data (which a DATA packet announced). */
#define PKT_MPI 0x40000000u

/* Unexpected messages held at most (bytes of data, messages). */
#define UNEXPECTED_BYTES (16u << 20)
#define UNEXPECTED_MSGS  16384

struct out {                    /* a channel message waiting to leave */
    struct out *next;
    int ue;
    int raw;                    /* raw data, else a packet with header h */
    struct pkt h;
    const char *buf;            /* the payload */
    size_t len;
    void *owned;                /* freed once sent */
    MPI_Request notify;         /* completed once sent */
    uint32_t word;              /* an RTS's payload: the message's size */
};

struct unexp {
    struct unexp *next;
    struct pkt h;
    int ue;
    char *buf;                  /* the data (eager), or NULL */
};

struct in {                     /* raw data arriving from one UE */
    int active;
    struct scc_xfer x;
    char *buf;
    size_t len;
};

static struct out *out_head, *out_tail, *self_head, *self_tail;
static struct out *sending;
static struct scc_xfer send_x;
static unsigned int send_base;  /* a packet's: the channel's count before it */
static int hold;                /* start no send (coll_enter) */
static struct in in[RCCE_MAXNP];
/* Where a packet from each UE lands when no receive takes it directly:
 * no allocation on the common path; one kept as unexpected is copied out. */
static char stage[RCCE_MAXNP][SCC_MPB_PAYLOAD_SIZE];
static MPI_Request raw_req[RCCE_MAXNP];
static int nactive;             /* raw data arriving (in[].active) */
static int nraw;                /* raw data announced (raw_req[] set) */
static MPI_Request posted_head, posted_tail;
static struct unexp *unexp_head, *unexp_tail;
static size_t unexp_bytes;
static int unexp_msgs;

#define EAGER_MAX SCC_MPB_PAYLOAD_SIZE

void transport_init(void)
{
    memset(in, 0, sizeof in);
}

int outbox_empty(void)
{
    return !out_head && !sending && !self_head;
}

void transport_hold(int on)
{
    hold = on;
}

/* Whether MPI has work under way that only passes of progress move on: a
 * message leaving that someone waits for or that others follow (not one
 * held), raw data coming or announced. */
int transport_busy(void)
{
    return (sending && (sending->raw || sending->notify)) || (out_head && !hold) ||
           self_head || nactive || nraw;
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

/* Small payload copies and queue entries are reused rather than
 * allocated: the latency of a short message is mostly such bookkeeping. */
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

/* A copy of n bytes of payload (NULL for none): at most SMALL_PKT bytes
 * from the spare list, so packet_free must be told the same n. */
static void *payload_copy(const void *data, size_t n)
{
    if (!n)
        return NULL;
    void *p = n <= SMALL_PKT ? take(&spare_pkt, SMALL_PKT) : malloc(n);
    if (!p)
        mpi_die(MPI_ERR_NO_MEM, "out of memory for a message of %zu bytes", n);
    memcpy(p, data, n);
    return p;
}

static void packet_free(void *p, size_t len)
{
    if (!p)
        return;
    if (len <= SMALL_PKT)
        give(&spare_pkt, p);
    else
        free(p);
}

static struct out *out_new(int ue, int raw, const void *buf, size_t len, void *owned,
                           MPI_Request notify)
{
    struct out *o = take(&spare_out, sizeof *o);
    if (!o)
        mpi_die(MPI_ERR_NO_MEM, "out of memory for a message to rank %d", ue);
    o->ue = ue;
    o->raw = raw;
    o->buf = buf;
    o->len = len;
    o->owned = owned;
    o->notify = notify;
    return o;
}

void send_raw(int ue, const void *data, size_t len, MPI_Request notify, void *owned)
{
    queue(&out_head, &out_tail, out_new(ue, 1, data, len, owned, notify));
}

/* A packet to ue with n bytes of payload, copied now. */
static void send_pkt(int ue, const struct pkt *h, const void *payload, size_t n,
                     MPI_Request notify)
{
    struct out *o = out_new(ue, 0, NULL, n, payload_copy(payload, n), notify);
    o->h = *h;
    o->buf = o->owned;
    if (h->kind == P_RTS) {
        o->word = h->size;
        o->buf = (const char *)&o->word;
        o->len = sizeof o->word;
    }
    if (ue == mpi_env.me)
        queue(&self_head, &self_tail, o);
    else
        queue(&out_head, &out_tail, o);
}

static void send_ctl(int ue, int kind, uint32_t sreq, uint32_t rreq)
{
    struct pkt h = { (uint32_t)kind, 0, 0, 0, 0, sreq, rreq };
    send_pkt(ue, &h, NULL, 0, NULL);
}

/* --- packets on the channel -------------------------------------------------------- */

/* The header in the line's three value words: kind and context; then tag
 * and source (with the sender's request) for what a receive matches,
 * the two request ids for the rest. */
static void wire(const struct pkt *h, uint32_t v[3])
{
    v[0] = h->kind | h->ctx << 4;
    if (h->kind <= P_RTS) {
        if (h->sreq >= 1u << 24 || (uint32_t)h->src > 0xff)
            mpi_die(MPI_ERR_INTERN, "request %u or rank %d out of a packet's range",
                    h->sreq, h->src);
        v[1] = (uint32_t)h->tag;
        v[2] = (uint32_t)h->src | h->sreq << 8;
    } else {
        v[1] = h->sreq;
        v[2] = h->rreq;
    }
}

static void unwire(struct pkt *h, const uint32_t v[3], size_t payload)
{
    h->kind = v[0] & 15;
    h->ctx = v[0] >> 4;
    h->size = (uint32_t)payload;
    if (h->kind <= P_RTS) {
        h->tag = (int32_t)v[1];
        h->src = (int32_t)(v[2] & 0xff);
        h->sreq = v[2] >> 8;
        h->rreq = 0;
    } else {
        h->tag = h->src = 0;
        h->sreq = v[1];
        h->rreq = v[2];
    }
}

/* The packet's payload into this UE's payload buffer as the one chunk of
 * a channel message to ue, its header in the same line write as the
 * sequence number (src/chan.c's order: payload, size, seq, flush). */
static void pkt_put(int ue, const struct pkt *h, const void *buf, size_t n)
{
    t_vcharp mine = my_mpb();
    t_vcharp line = scc_self.mpb[ue] + SCC_MPB_SENT_LINE(mpi_env.me);
    uint32_t v[3];

    wire(h, v);
    send_base = scc_self.posted[ue];
    if (n)
        plat_put(mine + SCC_MPB_PAYLOAD, buf, n);
    plat_store_relaxed(line + SCC_LINE_VAL(0), v[0]);
    plat_store_relaxed(line + SCC_LINE_VAL(1), v[1]);
    plat_store_relaxed(line + SCC_LINE_VAL(2), v[2]);
    plat_store_relaxed(line + SCC_LINE_SIZE, (uint32_t)n | PKT_MPI);
    plat_store(line + SCC_LINE_SEQ, send_base + 1);
    plat_flush(mine);
    /* counted now: a channel message after it to ue (libscc's) waits
     * for its acknowledgement by the channel's own window */
    scc_self.posted[ue] = send_base + 1;
}

/* The packet in flight to ue was taken: the payload buffer is free (at
 * least: libscc's own messages to ue may have followed it). */
static int pkt_taken(int ue)
{
    return seq_ge(line_read(my_mpb() + SCC_MPB_CHAN_LINE(ue) + SCC_LINE_TAKEN), send_base + 1);
}

/* The message in flight left: the payload buffer is free. */
static void send_done(void)
{
    struct out *o = sending;
    sending = NULL;
    packet_free(o->owned, o->len);
    if (o->notify)
        req_done(o->notify);
    give(&spare_out, o);
}

static int progress_send(void)
{
    int moved = 0;

    for (;;) {
        if (!sending) {
            if (!out_head || hold)
                return moved;
            sending = out_head;
            out_head = out_head->next;
            if (!out_head)
                out_tail = NULL;
            if (sending->raw)
                chan_send_begin(&send_x, (char *)sending->buf, sending->len, sending->ue);
            else
                pkt_put(sending->ue, &sending->h, sending->buf, sending->len);
        }
        if (sending->raw ? !chan_send_step(&send_x) : !pkt_taken(sending->ue))
            return moved;
        moved = 1;
        send_done();
    }
}

/* Nothing queued or in flight (after a look at what is): a packet may go
 * out at once, from its owner's buffer. */
static int send_idle(void)
{
    if (sending && !out_head)
        progress_send();
    return !sending && !out_head && !hold;
}

/* MPI_Send's short way: a standard send of at most EAGER_MAX contiguous
 * bytes to another rank, while nothing else waits to leave, goes straight
 * into the payload buffer with no request at all: 1 if it went. */
int send_now(int ue, int ctx, int tag, int src_rank, const void *buf, size_t n)
{
    if (n > EAGER_MAX || ue == mpi_env.me || !send_idle())
        return 0;
    struct pkt h = { P_EAGER, (uint32_t)ctx, tag, src_rank, (uint32_t)n, 0, 0 };
    pkt_put(ue, &h, buf, n);
    sending = out_new(ue, 0, NULL, 0, NULL, NULL);
    return 1;
}

/* A send request's first step: its data (packed already) go eagerly or
 * it asks for a rendezvous. */
void send_start(MPI_Request s, int tag, int src_rank)
{
    int eager = s->bytes <= EAGER_MAX || s->dest_ue == mpi_env.me;
    int kind = !eager ? P_RTS : s->mode == SEND_SYNC ? P_EAGER_SYNC : P_EAGER;
    struct pkt h = { (uint32_t)kind, (uint32_t)s->ctx, tag, src_rank, (uint32_t)s->bytes,
                     (uint32_t)s->id, 0 };

    if (eager && s->dest_ue != mpi_env.me && send_idle()) {
        /* straight into the payload buffer: done unless synchronous */
        pkt_put(s->dest_ue, &h, s->data, s->bytes);
        sending = out_new(s->dest_ue, 0, NULL, 0, NULL, NULL);
    } else {
        /* a standard or ready eager send is done once its data are
         * copied; a buffered one when they left (then its attached space
         * is free) */
        send_pkt(s->dest_ue, &h, s->data, eager ? s->bytes : 0,
                 kind == P_EAGER && s->mode == SEND_BUF ? s : NULL);
        if (kind == P_EAGER && s->mode == SEND_BUF)
            return;
    }
    if (kind == P_EAGER) {
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

/* The first posted receive that matches h, taken off the list; or NULL. */
static MPI_Request match_posted(const struct pkt *h)
{
    for (MPI_Request *pp = &posted_head, prev = NULL; *pp; prev = *pp, pp = &(*pp)->next) {
        MPI_Request r = *pp;
        if (!matches(r, h))
            continue;
        *pp = r->next;
        if (posted_tail == r)
            posted_tail = prev;
        return r;
    }
    return NULL;
}

/* A matched message in hand (its data, if eager): into the receive
 * buffer, or a CTS for a rendezvous. */
static void deliver(MPI_Request r, const struct pkt *h, const char *data, int ue)
{
    size_t cap = capacity(r), n = h->size < cap ? h->size : cap;

    if (h->kind == P_RTS) {
        fill_status(r, h, n);
        r->bytes = h->size;
        send_ctl(ue, P_CTS, h->sreq, (uint32_t)r->id);
        return;
    }
    if (n)
        type_unpack(data, (MPI_Aint)n, r->buf, r->count, r->type);
    fill_status(r, h, n);
    if (h->size > cap)
        r->st.MPI_ERROR = r->err = MPI_ERR_TRUNCATE;
    if (h->kind == P_EAGER_SYNC)
        send_ctl(ue, P_ACK, h->sreq, 0);
    req_done(r);
}

/* MPI_Cancel of a send: ask the receiver to drop it if still unmatched
 * (the answer completes the request as cancelled, or changes nothing). */
void send_cancel(MPI_Request s)
{
    send_ctl(s->dest_ue, P_CANCEL, (uint32_t)s->id, 0);
}

static void unexp_unlink(struct unexp **pp, struct unexp *prev)
{
    struct unexp *u = *pp;
    *pp = u->next;
    if (unexp_tail == u)
        unexp_tail = prev;
    unexp_msgs--;
    unexp_bytes -= u->h.kind == P_RTS ? 0 : u->h.size;
}

void recv_posted(MPI_Request r)
{
    for (struct unexp **pp = &unexp_head, *prev = NULL; *pp; prev = *pp, pp = &(*pp)->next) {
        struct unexp *u = *pp;
        if (!matches(r, &u->h))
            continue;
        unexp_unlink(pp, prev);
        deliver(r, &u->h, u->buf, u->ue);
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

/* A message no receive matched yet: kept (data copied unless owned). */
static void keep(int ue, const struct pkt *h, char *data, int owned)
{
    size_t bytes = h->kind == P_RTS ? 0 : h->size;

    if (unexp_msgs + 1 > UNEXPECTED_MSGS || unexp_bytes + bytes > UNEXPECTED_BYTES)
        mpi_die(MPI_ERR_NO_MEM, "more unexpected messages than this rank can hold "
                "(%d messages, %zu bytes of data received before a matching receive "
                "was posted; the limit is %d messages or %u bytes): the run ends "
                "rather than lose one", unexp_msgs + 1, unexp_bytes + bytes,
                UNEXPECTED_MSGS, UNEXPECTED_BYTES);
    struct unexp *u = malloc(sizeof *u);
    char *buf = owned ? data : malloc(bytes ? bytes : 1);     /* freed when taken */
    if (!u || (!owned && !buf))
        mpi_die(MPI_ERR_NO_MEM, "out of memory for an unexpected message");
    if (buf != data)
        memcpy(buf, data, bytes);
    *u = (struct unexp){ NULL, *h, ue, buf };
    if (unexp_tail)
        unexp_tail->next = u;
    else
        unexp_head = u;
    unexp_tail = u;
    unexp_msgs++;
    unexp_bytes += bytes;
}

/* A whole packet from ue, its payload at data (len bytes); data is freed
 * here if owned (a payload copy: packet_free), else it is a staging
 * buffer and copied if kept. */
static void arrived(int ue, const struct pkt *h, char *data, size_t len, int owned)
{
    switch (h->kind) {
    case P_EAGER:
    case P_EAGER_SYNC:
    case P_RTS: {
        MPI_Request r = match_posted(h);
        if (r) {
            deliver(r, h, data, ue);
            break;
        }
        keep(ue, h, data, owned);
        return;
    }
    case P_CTS: {
        MPI_Request s = req_by_id((int)h->sreq);
        struct pkt d = { P_DATA, 0, 0, 0, (uint32_t)s->bytes, h->sreq, h->rreq };
        send_pkt(ue, &d, NULL, 0, NULL);
        send_raw(ue, s->data, s->bytes, s, s->own_data ? s->data : NULL);
        s->own_data = 0;
        break;
    }
    case P_DATA:
        raw_req[ue] = req_by_id((int)h->rreq);
        nraw++;
        break;
    case P_ACK:
        req_done(req_by_id((int)h->sreq));
        break;
    case P_CANCEL: {
        /* the sender withdraws a message that waits here unmatched (a
         * rendezvous header, or a synchronous send's packet): gone, if so */
        int gone = 0;
        for (struct unexp **pp = &unexp_head, *prev = NULL; *pp; prev = *pp, pp = &(*pp)->next) {
            struct unexp *u = *pp;
            if (u->ue != ue || u->h.sreq != h->sreq ||
                (u->h.kind != P_RTS && u->h.kind != P_EAGER_SYNC))
                continue;
            unexp_unlink(pp, prev);
            free(u->buf);
            free(u);
            gone = 1;
            break;
        }
        send_ctl(ue, P_CANCELLED, h->sreq, (uint32_t)gone);
        break;
    }
    case P_CANCELLED: {
        /* in order after any CTS or ACK the receiver sent before it; a
         * send it did not cancel may be long done and its id reused */
        if (!h->rreq)
            break;
        MPI_Request s = req_by_id((int)h->sreq);
        if (!s->done) {
            s->cancelled = 1;
            req_done(s);
        }
        break;
    }
    }
    if (owned)
        packet_free(data, len);
}

/* The raw data of a rendezvous, arrived in buf (the receive's own buffer
 * when it was contiguous and large enough). */
static void raw_arrived(int ue, char *buf)
{
    MPI_Request r = raw_req[ue];
    size_t cap = capacity(r), n = r->bytes < cap ? r->bytes : cap;

    raw_req[ue] = NULL;
    nraw--;
    if (buf != r->buf) {
        type_unpack(buf, (MPI_Aint)n, r->buf, r->count, r->type);
        free(buf);
    }
    if (r->bytes > cap)
        r->st.MPI_ERROR = r->err = MPI_ERR_TRUNCATE;
    req_done(r);
}

/* --- progress ------------------------------------------------------------------- */

/* A new channel message from ue that is a packet (its line, in this UE's
 * MPB, was just read): its header from the line, its payload from ue's
 * payload buffer, straight into the receive it matches when that can
 * take it as it is; then the channel acknowledged. 0 if the message is
 * not MPI's (it stays for libscc's collective). */
static int take_packet(int ue, t_vcharp line)
{
    /* the same line holds ue's acknowledgement of this rank's packets: a
     * packet in flight to ue is done without a read of its own */
    if (sending && sending->ue == ue && !sending->raw &&
        seq_ge(plat_load_relaxed(line + SCC_LINE_TAKEN), send_base + 1))
        send_done();

    uint32_t w = plat_load_relaxed(line + SCC_LINE_SIZE), v[3];
    t_vcharp theirs = scc_self.mpb[ue] + SCC_MPB_PAYLOAD;
    t_vcharp ack = scc_self.mpb[ue] + SCC_MPB_CHAN_LINE(mpi_env.me) + SCC_LINE_TAKEN;
    struct pkt h;
    size_t n = w & ~PKT_MPI;
    MPI_Request r = NULL;

    if (!(w & PKT_MPI))
        return 0;
    v[0] = plat_load_relaxed(line + SCC_LINE_VAL(0));
    v[1] = plat_load_relaxed(line + SCC_LINE_VAL(1));
    v[2] = plat_load_relaxed(line + SCC_LINE_VAL(2));
    unwire(&h, v, n);
    if (n > SCC_MPB_PAYLOAD_SIZE)
        mpi_die(MPI_ERR_INTERN, "a packet of %zu bytes from rank %d", n, ue);
    if (h.kind <= P_EAGER_SYNC && (r = match_posted(&h)) && r->type->contig &&
        n <= capacity(r)) {
        if (n)
            plat_get(r->buf, theirs, n);
        line_write(ack, ++scc_self.taken[ue]);
        fill_status(r, &h, n);
        if (h.kind == P_EAGER_SYNC)
            send_ctl(ue, P_ACK, h.sreq, 0);
        req_done(r);
        return 1;
    }
    if (n)
        plat_get(stage[ue], theirs, n);
    line_write(ack, ++scc_self.taken[ue]);
    if (h.kind == P_RTS) {
        memcpy(&h.size, stage[ue], sizeof h.size);
        n = 0;
    }
    if (r)
        deliver(r, &h, stage[ue], ue);
    else
        arrived(ue, &h, stage[ue], n, 0);
    return 1;
}

/* A wait for one peer (progress_focus) looks at that peer's channel on
 * every pass and at all of them on every FULL_PASS-th: each look costs
 * a read of an MPB line, and 47 of them per pass made a short message
 * between two of 48 ranks four times slower. The full passes still take
 * everything that arrives out of the MPB. */
#define FULL_PASS 16
#define IDLE_FULL 32            /* fruitless passes in a row after which every pass is full */
#define LOOKS 16                /* looks at one line between passes (req_wait, recv_now) */
static int focus = -1;
static unsigned int passes;

void progress_focus(int ue)
{
    if (focus != ue)            /* read first: a line only written is not cached */
        focus = ue;
}

/* A look for a wait that depends on ue alone, when nothing else needs a
 * pass of progress (nothing to push out or to deliver here, no raw data
 * coming, no send someone waits for in flight): ue's channel line, read
 * now, and a packet there taken at once. 1 if one was, 0 if nothing came,
 * -1 if a pass is due. req_wait looks so between passes, as RCCE's loops
 * do: a look is a few instructions and one read of a line. */
int transport_poll(int ue)
{
    t_vcharp line = my_mpb() + SCC_MPB_SENT_LINE(ue);

    if (self_head || (out_head && !sending) || nactive ||
        (sending && (sending->raw || sending->notify)))
        return -1;
    plat_invalidate();
    if (plat_load(line + SCC_LINE_SEQ) == scc_self.taken[ue])
        return 0;
    return !raw_req[ue] && take_packet(ue, line) ? 1 : -1;
}

static int progress_recv(void)
{
    /* a pass that may precede a sleep looks at every line: a packet from
     * another rank that came before the wake-up was armed wakes nobody,
     * and a focused pass would not see it (libscc's sleep arms after 50
     * fruitless checks or more: plat_relax) */
    int moved = 0, full = focus < 0 || !(++passes % FULL_PASS) || scc_self.idle >= IDLE_FULL;
    t_vcharp mine = my_mpb();

    plat_invalidate();          /* once for all the lines below (chan_incoming's test) */
    /* with no raw data coming, a focused pass looks at the focus alone */
    int all = full || nactive, end = all ? mpi_env.np : focus + 1;
    for (int ue = all ? 0 : focus; ue < end; ue++) {
        struct in *c = &in[ue];
        if (ue == mpi_env.me || (!full && ue != focus && !c->active))
            continue;
        if (!c->active) {
            t_vcharp line = mine + SCC_MPB_SENT_LINE(ue);
            if (plat_load(line + SCC_LINE_SEQ) == scc_self.taken[ue])
                continue;
            MPI_Request r = raw_req[ue];
            if (!r) {
                moved |= take_packet(ue, line);
                continue;
            }
            /* raw data follow a header that said their size: nothing
             * here reads the channel's own size word for them */
            c->len = r->bytes;
            if (r->type->contig && c->len <= capacity(r))
                c->buf = r->buf;
            else if (!(c->buf = malloc(c->len ? c->len : 1)))
                mpi_die(MPI_ERR_NO_MEM, "out of memory for a message of %zu bytes from rank %d",
                        c->len, ue);
            chan_recv_begin(&c->x, c->buf, c->len, ue);
            c->active = 1;
            nactive++;
        }
        if (!chan_recv_step(&c->x))
            continue;
        c->active = 0;
        nactive--;
        moved = 1;
        if (c->x.msg > c->len)
            mpi_die(MPI_ERR_INTERN, "a message of %zu bytes from rank %d where %zu were due",
                    c->x.msg, ue, c->len);
        raw_arrived(ue, c->buf);
    }
    return moved;
}

/* MPI_Recv's short way: a receive from one rank (world rank ue, rank src
 * in the communicator) of at most cap contiguous bytes, while no other
 * receive is posted and no message waits unexpected, looks at ue's
 * channel line itself and takes the packet there straight into buf if
 * it is the one (eager, matching, fitting), with no request at all: 1 if
 * so (st filled, unless NULL). 0 as soon as anything else comes up (a
 * packet that is not the one, one a pass of progress took, something to
 * push out): nothing was taken for this receive then, and the caller
 * goes the general way. Waiting as req_wait does: LOOKS looks at the
 * line, then a pass of progress, which may sleep. */
int recv_now(void *buf, size_t cap, int ue, int ctx, int src, int tag, MPI_Status *st)
{
    t_vcharp line = my_mpb() + SCC_MPB_SENT_LINE(ue);
    t_vcharp theirs = scc_self.mpb[ue] + SCC_MPB_PAYLOAD;
    int got = 0;

    if (posted_head || unexp_head || ue == mpi_env.me)
        return 0;
    progress_focus(ue);
    for (unsigned int look = 1;; look++) {
        if (self_head || (out_head && !sending) || nactive || raw_req[ue] ||
            (sending && (sending->raw || sending->notify)))
            break;
        plat_invalidate();
        if (plat_load(line + SCC_LINE_SEQ) != scc_self.taken[ue]) {
            uint32_t w = plat_load_relaxed(line + SCC_LINE_SIZE), v[3];
            size_t n = w & ~PKT_MPI;
            struct pkt h;
            v[0] = plat_load_relaxed(line + SCC_LINE_VAL(0));
            v[1] = plat_load_relaxed(line + SCC_LINE_VAL(1));
            v[2] = plat_load_relaxed(line + SCC_LINE_VAL(2));
            unwire(&h, v, n);
            if (!(w & PKT_MPI) || h.kind > P_EAGER_SYNC || h.ctx != (uint32_t)ctx ||
                h.src != src || (tag != MPI_ANY_TAG && h.tag != tag) || n > cap)
                break;
            if (sending && sending->ue == ue &&
                seq_ge(plat_load_relaxed(line + SCC_LINE_TAKEN), send_base + 1))
                send_done();
            if (n)
                plat_get(buf, theirs, n);
            line_write(scc_self.mpb[ue] + SCC_MPB_CHAN_LINE(mpi_env.me) + SCC_LINE_TAKEN,
                       ++scc_self.taken[ue]);
            if (h.kind == P_EAGER_SYNC)
                send_ctl(ue, P_ACK, h.sreq, 0);
            if (st) {
                st->MPI_SOURCE = h.src;
                st->MPI_TAG = h.tag;
                st->MPI_ERROR = MPI_SUCCESS;
                st->mpi_cancelled = 0;
                st->mpi_bytes = (long long)n;
            }
            got = 1;
            if (scc_self.idle)  /* not idle: the next wait starts afresh */
                scc_self.idle = 0;
            break;
        }
        if (look % LOOKS) {
            plat_pause(look);
            continue;
        }
        int moved = progress();
        if (unexp_head || posted_head)
            break;
        progress_wait(moved);
    }
    progress_focus(-1);
    return got;
}

static int progress_self(void)
{
    int moved = 0;

    while (self_head) {
        struct out *o = self_head;
        self_head = o->next;
        if (!self_head)
            self_tail = NULL;
        struct pkt h = o->h;
        char *data = o->owned;
        size_t len = o->len;
        MPI_Request notify = o->notify;
        give(&spare_out, o);
        if (notify)
            req_done(notify);
        arrived(mpi_env.me, &h, data, len, 1);
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
