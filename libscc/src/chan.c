/*
 * chan.c - the MPB channel: moving one message from UE s to UE r.
 *
 * The sender puts chunk k into its own payload buffer, then sets
 * chan[s].seq in r's MPB to (chunks ever posted to r) and chan[s].size to
 * the message's size. The receiver waits for chan[s].seq to reach the
 * chunk, copies it out of s's MPB, and sets chan[r].taken in s's MPB to
 * (chunks ever taken from s). A one-chunk message uses the whole buffer;
 * a longer one alternates between its halves, with at most two chunks
 * posted and not yet taken. The send is done when chan[r].taken says every
 * chunk was taken: RCCE's synchronous send.
 *
 * A sender in RCCE 1.x's style (RCCE_COPY_LOCKSTEP) sends in lockstep, as
 * RCCE 1.x did before iRCCE brought pipelining (002, copy paper): chunks
 * of the whole buffer, the next put only once the last was taken. It
 * says so in the size word's top bit (sizes stop at INT_MAX), so the
 * receiver cuts the message the same way whatever its own style.
 *
 * RCCE 1.x's protocol (RCCE_COPY_CHUNK, _FLAGS, _PARTIAL; RCCE 1.x's
 * RCCE_send.c and RCCE_recv.c, RCCE_send_general / RCCE_recv_general,
 * as published in hermit-os/kernel, hermit/usr/ircce/) adds to that:
 * - CHUNK: RCCE 1.x gave each message the whole 8 KB of the sender's MPB
 *   less its flags (RCCE_chunk = RCCE_BUFF_SIZE_MAX - one line - a line
 *   per flag, RCCE_admin.c / RCCE_malloc.c); libscc's region is 3,840 B,
 *   so the chunk grows over the chan lines no UE writes (those of ranks
 *   np..47, just below the region): 5,312 B for 2 UEs, 3,840 B for 48.
 * - FLAGS: RCCE 1.x's handshake per chunk also clears each flag where it
 *   was seen (the sender its ready flag, the receiver its sent flag: a
 *   whole-line RCCE_flag_write to its own MPB, then the WCB flush); here
 *   a line put to the owner's WCB line, which nobody reads, and a flush.
 * - PARTIAL: RCCE 1.x sends the bytes after the message's last whole
 *   line as one more chunk with its own handshake (its "padline"; 004
 *   line 176: "an extra synchronization for the transmission of bytes
 *   that do not fill a whole cacheline").
 * Unlike LOCKSTEP, these are not said in the size word: CHUNK and
 * PARTIAL must be set alike on both sides, as RCCE 1.x's were compiled
 * into the library every UE ran; FLAGS is each side's own.
 *
 * Both sides derive the chunking from the SENDER's size, which the
 * receiver reads from the line, so a receive of the wrong size still
 * consumes exactly the sent message (it copies what fits and reports
 * RCCE_ERROR_MESSAGE_LENGTH) and the channel stays in step.
 *
 * The step functions never wait: they do what can be done now and return
 * 0, or 1 when the message is complete. Whoever holds a port (send_port,
 * recv_port[src]) is the only user of that direction of the channel.
 */
#include "internal.h"

/* How a message of n bytes is cut: one chunk in the whole buffer, or
 * half-buffer chunks; in lockstep, whole-buffer chunks. RCCE 1.x's
 * protocol (RCCE_COPY_PROTO1) has steps of its own (below), so that
 * libscc's stay the code they were: their layout is part of what the
 * timing mode measures (docs/timing.md, "Measuring well"). */
static void plan(struct scc_xfer *x, size_t n, int lockstep)
{
    x->msg = n;
    x->lockstep = lockstep;
    if (n <= SCC_MPB_PAYLOAD_SIZE) {
        x->chunk = n;
        x->nchunks = n ? 1 : 0;
    } else {
        x->chunk = lockstep ? SCC_MPB_PAYLOAD_SIZE : SCC_MPB_PAYLOAD_SIZE / 2;
        x->nchunks = (unsigned int)((n + x->chunk - 1) / x->chunk);
    }
}

/* Offset of chunk k in the payload buffer. */
static size_t slot(const struct scc_xfer *x, unsigned int k)
{
    return SCC_MPB_PAYLOAD + (x->nchunks == 1 || x->lockstep ? 0 :
                              (k & 1) * x->chunk);
}

/* Bytes in chunk k. */
static size_t chunk_bytes(const struct scc_xfer *x, unsigned int k)
{
    size_t off = (size_t)k * x->chunk;
    return x->msg - off < x->chunk ? x->msg - off : x->chunk;
}

/* --- RCCE 1.x's protocol (RCCE_COPY_CHUNK, _FLAGS, _PARTIAL) ---------------- */

#define PROTO1_CUT (RCCE_COPY_CHUNK | RCCE_COPY_PARTIAL)

/* Where the payload starts in an MPB: with RCCE_COPY_CHUNK, at the first
 * chan line no UE writes. */
static size_t payload1_at(int style)
{
    return style & RCCE_COPY_CHUNK ? SCC_MPB_CHAN_LINE(scc_self.np) : SCC_MPB_PAYLOAD;
}

/* The message's bytes up to its last whole line (RCCE_COPY_PARTIAL), or
 * all of them. */
static size_t whole1(int style, size_t n)
{
    return style & RCCE_COPY_PARTIAL && n > SCC_MPB_LINE ? n - n % SCC_MPB_LINE : n;
}

/* plan() with RCCE 1.x's cut: chunks as large as the payload room, and
 * the bytes after the last whole line a chunk of their own.
 * x->lockstep keeps the style bits (RCCE_COPY_LOCKSTEP and PROTO1_CUT). */
static void plan1(struct scc_xfer *x, size_t n, int style)
{
    size_t room = SCC_MPB_PAYLOAD + SCC_MPB_PAYLOAD_SIZE - payload1_at(style);
    size_t whole = whole1(style, n);

    x->msg = n;
    x->lockstep = style | RCCE_COPY_CHUNK << 8;     /* nonzero: plan1's */
    if (whole <= room) {
        x->chunk = whole;
        x->nchunks = whole ? 1 : 0;
    } else {
        x->chunk = style & RCCE_COPY_LOCKSTEP ? room : room / 2 & ~(size_t)(SCC_MPB_LINE - 1);
        x->nchunks = (unsigned int)((whole + x->chunk - 1) / x->chunk);
    }
    x->nchunks += whole < n;
}

/* Chunk k is the tail after the last whole line: it goes alone, at the
 * buffer's start, once every chunk before it was taken (RCCE 1.x's
 * padline). */
static int tail1(const struct scc_xfer *x, unsigned int k)
{
    return k + 1 == x->nchunks && whole1(x->lockstep, x->msg) < x->msg;
}

/* The bytes of the message before chunk k. */
static size_t off1(const struct scc_xfer *x, unsigned int k)
{
    size_t off = (size_t)k * x->chunk, whole = whole1(x->lockstep, x->msg);

    return off < whole ? off : whole;
}

static size_t slot1(const struct scc_xfer *x, unsigned int k)
{
    return payload1_at(x->lockstep) + (x->nchunks == 1 || x->lockstep & RCCE_COPY_LOCKSTEP ||
                                       tail1(x, k) ? 0 : (k & 1) * x->chunk);
}

static size_t bytes1(const struct scc_xfer *x, unsigned int k)
{
    return (k + 1 < x->nchunks ? off1(x, k + 1) : x->msg) - off1(x, k);
}

/* RCCE 1.x's clear of the flag it just saw (RCCE_COPY_FLAGS): a line
 * written to its own MPB, then the WCB flushed, as RCCE_flag_write of a
 * whole-line flag did. */
static void flag_clear1(void)
{
    static const uint32_t unset[SCC_MPB_LINE / 4];

    if (plat_copy_style & RCCE_COPY_FLAGS) {
        plat_put(my_mpb() + SCC_MPB_WCB_LINE, unset, SCC_MPB_LINE);
        plat_flush(my_mpb());
    }
}

static int send_step1(struct scc_xfer *x)
{
    t_vcharp mine = my_mpb();
    t_vcharp ready = mine + SCC_MPB_CHAN_LINE(x->peer) + SCC_LINE_TAKEN;
    t_vcharp sent = scc_self.mpb[x->peer] + SCC_MPB_SENT_LINE(scc_self.iam);
    unsigned int window = x->nchunks == 1 || x->lockstep & RCCE_COPY_LOCKSTEP ? 1 : 2;

    while (x->next < x->nchunks) {
        uint32_t taken = line_read(ready);
        if (x->base + x->next - taken >= (tail1(x, x->next) ? 1 : window))
            return 0;
        if (x->next)
            flag_clear1();              /* a ready flag seen: one a chunk */
        plat_put(mine + slot1(x, x->next), x->buf + off1(x, x->next), bytes1(x, x->next));
        x->next++;
        plat_store_relaxed(sent + SCC_LINE_SIZE, (uint32_t)x->msg |
                           (x->lockstep & RCCE_COPY_LOCKSTEP ? SCC_SIZE_LOCKSTEP : 0));
        plat_store(sent + SCC_LINE_SEQ, x->base + x->next);
        plat_flush(mine);
    }
    if (line_read(ready) != x->base + x->nchunks)
        return 0;
    flag_clear1();
    scc_self.posted[x->peer] = x->base + x->nchunks;
    return 1;
}

static int recv_step1(struct scc_xfer *x)
{
    t_vcharp sent = my_mpb() + SCC_MPB_SENT_LINE(x->peer);
    t_vcharp ready = scc_self.mpb[x->peer] + SCC_MPB_CHAN_LINE(scc_self.iam) +
                     SCC_LINE_TAKEN;
    t_vcharp theirs = scc_self.mpb[x->peer];

    if (!x->started) {
        if (line_read(sent) == x->base)
            return 0;
        uint32_t w = plat_load_relaxed(sent + SCC_LINE_SIZE);

        plan1(x, w & ~SCC_SIZE_LOCKSTEP, (w & SCC_SIZE_LOCKSTEP ? RCCE_COPY_LOCKSTEP : 0) |
              (plat_copy_style & PROTO1_CUT));
        x->started = 1;
    }
    while (x->next < x->nchunks) {
        if (!seq_ge(line_read(sent), x->base + x->next + 1))
            return 0;
        size_t off = off1(x, x->next), n = bytes1(x, x->next);

        flag_clear1();                  /* the sent flag of chunk next */
        if (off < x->size)
            plat_get(x->buf + off, theirs + slot1(x, x->next),
                     x->size - off < n ? x->size - off : n);
        x->next++;
        line_write(ready, x->base + x->next);
    }
    scc_self.taken[x->peer] = x->base + x->nchunks;
    return 1;
}

/* --- the channel's steps ------------------------------------------------------ */

void chan_send_begin(struct scc_xfer *x, char *buf, size_t size, int dest)
{
    x->buf = buf;
    x->size = size;
    x->peer = dest;
    x->base = scc_self.posted[dest];
    x->next = 0;
    x->started = 1;
    if (plat_copy_style & RCCE_COPY_PROTO1)
        plan1(x, size, plat_copy_style & (RCCE_COPY_LOCKSTEP | PROTO1_CUT));
    else
        plan(x, size, (plat_copy_style & RCCE_COPY_LOCKSTEP) != 0);
}

int chan_send_step(struct scc_xfer *x)
{
    t_vcharp mine = my_mpb();
    t_vcharp ready = mine + SCC_MPB_CHAN_LINE(x->peer) + SCC_LINE_TAKEN;
    t_vcharp sent = scc_self.mpb[x->peer] + SCC_MPB_SENT_LINE(scc_self.iam);
    unsigned int window = x->nchunks == 1 || x->lockstep ? 1 : 2;

    if (x->lockstep > 1)
        return send_step1(x);
    while (x->next < x->nchunks) {
        uint32_t taken = line_read(ready);
        if (x->base + x->next - taken >= window)
            return 0;
        plat_put(mine + slot(x, x->next), x->buf + (size_t)x->next * x->chunk,
                 chunk_bytes(x, x->next));
        x->next++;
        /* size before seq: a reader that sees seq also sees the size */
        plat_store_relaxed(sent + SCC_LINE_SIZE, (uint32_t)x->msg |
                           (x->lockstep ? SCC_SIZE_LOCKSTEP : 0));
        plat_store(sent + SCC_LINE_SEQ, x->base + x->next);
        plat_flush(mine);
    }
    if (line_read(ready) != x->base + x->nchunks)
        return 0;
    scc_self.posted[x->peer] = x->base + x->nchunks;
    return 1;
}

void chan_recv_begin(struct scc_xfer *x, char *buf, size_t size, int src)
{
    x->buf = buf;
    x->size = size;
    x->peer = src;
    x->base = scc_self.taken[src];
    x->next = 0;
    x->started = 0;
    x->msg = 0;
    x->nchunks = 0;
}

int chan_incoming(int src)
{
    return line_read(my_mpb() + SCC_MPB_SENT_LINE(src)) != scc_self.taken[src];
}

int chan_recv_step(struct scc_xfer *x)
{
    t_vcharp sent = my_mpb() + SCC_MPB_SENT_LINE(x->peer);
    t_vcharp ready = scc_self.mpb[x->peer] + SCC_MPB_CHAN_LINE(scc_self.iam) +
                     SCC_LINE_TAKEN;
    t_vcharp theirs = scc_self.mpb[x->peer];

    if (plat_copy_style & RCCE_COPY_PROTO1)
        return recv_step1(x);
    if (!x->started) {
        if (line_read(sent) == x->base)
            return 0;
        uint32_t w = plat_load_relaxed(sent + SCC_LINE_SIZE);

        plan(x, w & ~SCC_SIZE_LOCKSTEP, (w & SCC_SIZE_LOCKSTEP) != 0);
        x->started = 1;
    }
    while (x->next < x->nchunks) {
        if (!seq_ge(line_read(sent), x->base + x->next + 1))
            return 0;
        size_t off = (size_t)x->next * x->chunk;
        size_t n = chunk_bytes(x, x->next);
        if (off < x->size)
            plat_get(x->buf + off, theirs + slot(x, x->next),
                     x->size - off < n ? x->size - off : n);
        x->next++;
        line_write(ready, x->base + x->next);
    }
    scc_self.taken[x->peer] = x->base + x->nchunks;
    return 1;
}
