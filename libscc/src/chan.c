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
 * half-buffer chunks; in lockstep, whole-buffer chunks. */
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

void chan_send_begin(struct scc_xfer *x, char *buf, size_t size, int dest)
{
    x->buf = buf;
    x->size = size;
    x->peer = dest;
    x->base = scc_self.posted[dest];
    x->next = 0;
    x->started = 1;
    plan(x, size, (plat_copy_style & RCCE_COPY_LOCKSTEP) != 0);
}

int chan_send_step(struct scc_xfer *x)
{
    t_vcharp mine = my_mpb();
    t_vcharp ready = mine + SCC_MPB_CHAN_LINE(x->peer) + SCC_LINE_TAKEN;
    t_vcharp sent = scc_self.mpb[x->peer] + SCC_MPB_SENT_LINE(scc_self.iam);
    unsigned int window = x->nchunks == 1 || x->lockstep ? 1 : 2;

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
