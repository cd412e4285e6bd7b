/*
 * The record path every scheme shares (notify.h): a sender's outbox in its
 * own MPB (the record, then the sender's count of records sent in the
 * word after it) and, unless the scheme has its own, an ack line in the
 * sender's MPB, written by whoever consumed the record last with that
 * count. Reading from the sender's MPB (sender-side placement, 002 line
 * 6572) lets 47 senders have an outbox each: receiver-side slots for
 * 47 senders would not fit one 8 KiB MPB.
 */
#include <stdio.h>
#include <string.h>

#include "notify.h"
#include "scc.h"
#include "scc_mpb.h"

int me, ncores;

static const struct scheme *cur;
static volatile uint8_t *outbox, *ackline;
static uint32_t sent;           /* records sent so far (the outbox's count) */
static int last_dest = -1;

/* Every UE's MPB user area, looked up once: a scheme's poll loop asks for
 * addresses all the time, and each lookup is two library calls. */
static volatile uint8_t *mpb_base[RCCE_MAXNP];

volatile uint8_t *mpb_at(int ue, volatile uint8_t *mine)
{
    return mpb_base[ue] + (mine - mpb_base[me]);
}

/* The WCB holds the line written last: a store to another line (the
 * flush line no one reads) pushes it out to the MPB. */
void mpb_flush(void)
{
    __asm__ volatile("" ::: "memory");
    *(volatile uint32_t *)(mpb_base[me] + SCC_MPB_WCB_LINE) = 0;
    __asm__ volatile("" ::: "memory");
}

/* Whole words (REC_BYTES is a multiple of 4): picolibc's memcpy moves a
 * byte at a time, which would make the record's copy, not the
 * notification, most of every scheme's cost. */
_Static_assert(REC_BYTES % 4 == 0, "records are copied in words");

static void copy_words(volatile void *d, const volatile void *s)
{
    void *dst = (void *)d;
    const void *src = (const void *)s;
    unsigned n = REC_BYTES / 4;

    __asm__ volatile("cld; rep movsl" : "+D"(dst), "+S"(src), "+c"(n) : : "memory");
}

static uint32_t load32(volatile uint8_t *p)
{
    return *(volatile uint32_t *)p;
}

int chan_setup(const struct scheme *s, const char *params)
{
    cur = s;
    me = RCCE_ue();
    ncores = RCCE_num_ues();
    for (int i = 0; i < ncores; i++)
        mpb_base[i] = scc_mpb_user(RCCE_ue_core(i));
    if (!s->xsend) {
        outbox = RCCE_malloc((REC_LINES + (REC_BYTES + 4 > REC_LINES * MPB_LINE)) * MPB_LINE);
        ackline = s->ack ? NULL : RCCE_malloc(MPB_LINE);
        if (!outbox || (!s->ack && !ackline)) {
            fprintf(stderr, "notify: core %02d: no MPB room for the outbox\n", me);
            return -1;
        }
        *(volatile uint32_t *)(outbox + REC_BYTES) = 0;
        if (ackline)
            *(volatile uint32_t *)ackline = 0;
        mpb_flush();
    }
    sent = 0;
    last_dest = -1;
    return s->setup ? s->setup(params) : 0;
}

void chan_teardown(void)
{
    if (cur->teardown)
        cur->teardown();
    if (ackline)
        RCCE_free((t_vcharp)ackline);
    if (outbox)
        RCCE_free((t_vcharp)outbox);
    outbox = ackline = NULL;
}

static uint32_t acked(int dest)
{
    if (cur->acked)
        return cur->acked(dest);
    scc_cl1invmb();
    return load32(ackline);
}

int chan_send(int dest, const struct record *r)
{
    if (cur->xsend)
        return cur->xsend(dest, r);
    /* The outbox is ours again once its last record was consumed. */
    if (last_dest >= 0)
        while (acked(last_dest) != sent)
            ;
    copy_words(outbox, r);
    *(volatile uint32_t *)(outbox + REC_BYTES) = ++sent;
    mpb_flush();
    last_dest = dest;
    cur->notify(dest, sent);
    return 0;
}

int chan_recv(int from, struct record *r)
{
    if (cur->xrecv)
        return cur->xrecv(from, r);
    int src = cur->wait(from);
    volatile uint8_t *box = mpb_at(src, outbox);
    scc_cl1invmb();
    copy_words(r, box);
    uint32_t count = load32(box + REC_BYTES);
    if (cur->ack) {
        cur->ack(src, count);
    } else {
        *(volatile uint32_t *)mpb_at(src, ackline) = count;
        mpb_flush();
    }
    return src;
}

/* A record whose every field follows from (source, seq): the receiver
 * checks it against this, not against what was sent. */
void rec_fill(struct record *r, uint32_t source, uint32_t seq)
{
    r->source = source;
    r->seq = seq;
    for (int i = 0; i < REC_TAGS; i++) {
        r->tag[i] = (int32_t)(source * 1000003u + seq * 31u + (uint32_t)i);
        r->value[i] = (int32_t)((seq ^ 0x5A5A5A5Au) * 2654435761u + source + (uint32_t)i * 7u);
    }
}

int rec_check(const struct record *r, uint32_t source, uint32_t seq)
{
    struct record want;
    rec_fill(&want, source, seq);
    return memcmp(r, &want, sizeof want) == 0;
}

int hops_between(int a, int b)
{
    return scc_hops(RCCE_ue_core(a), RCCE_ue_core(b));
}
