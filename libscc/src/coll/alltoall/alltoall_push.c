/*
 * alltoall_push.c - ours: the pairwise exchange (in step s member i sends
 * its block for i + s and receives the block of i - s), with the sender
 * writing each chunk straight into the receiver's MPB region.
 *
 * Why: from 4 KiB blocks on, an alltoall is bounded by the memory path
 * (README: "Where they stop"): every block is read from DRAM, written
 * into an MPB, read out of it and stored into lines of the output read
 * first, whatever the algorithm. What an algorithm still decides is what
 * it adds: 004's pairwise exchange on RCCEnb puts a chunk into the
 * sender's own MPB and has the receiver get it over the mesh, with a
 * request's bookkeeping around every chunk, and about 290,000
 * instructions a member at 4 KiB (2.07 cycles each) where the copies
 * need 110,000. Here the sender's remote writes are posted, the receiver
 * reads its own MPB (plat_get_batch: the output's lines read first, then
 * one word copy), and a chunk costs one signal each way.
 *
 * The region is `slots` slots of `chunk` lines; chunk j of a block goes
 * in slot j % slots. Flow control (sig.c): counter 0 from sender to
 * receiver "chunk j is in its slot", counter 1 back "a slot is free"
 * (all of them when the receiver starts the step, one more after each
 * chunk it has copied while chunks remain). A receiver grants the slots of step s only after
 * copying every chunk of step s - 1, so a sender never writes a region
 * its owner still reads; each member's sends and receives of a step
 * interleave, so a step's senders cannot wait on each other in a circle.
 * Every counter ends each call with all its signals consumed. Each slot
 * starts with the sender's block size (HDR bytes): a receiver whose size
 * differs returns RCCE_ERROR_MESSAGE_LENGTH, as in direct.c.
 */
#include <stdio.h>

#include "../core/coll.h"

#define HDR 8
#define LINES (SCC_MPB_REGION_SIZE / SCC_MPB_LINE)

enum { P_CHUNK, P_SLOTS };

static int check(const struct coll_call *c, char *why, size_t size)
{
    if (c->p[P_CHUNK] * c->p[P_SLOTS] > LINES) {
        snprintf(why, size, "chunk=%ld x slots=%ld lines: more than the region's %d",
                 c->p[P_CHUNK], c->p[P_SLOTS], LINES);
        return -1;
    }
    return 0;
}

static int run(struct coll_call *c)
{
    int n = c->n, me = c->me;
    size_t b = c->bytes, sb = (size_t)c->p[P_CHUNK] * SCC_MPB_LINE, cb = sb - HDR;
    size_t nch = (b + cb - 1) / cb, k = (size_t)c->p[P_SLOTS];
    uint32_t first = (uint32_t)(nch < k ? nch : k);
    uint64_t count = b;
    t_vcharp mine;

    coll_copy_own(c->out + (size_t)me * b, c->in + (size_t)me * b, b);
    if (n == 1 || !b)
        return RCCE_SUCCESS;
    if (!(mine = coll_region()))
        return scc_error(RCCE_REJECTED);
    for (int s = 1; s < n; s++) {
        int rto = (me + s) % n, rfrom = (me - s + n) % n;
        int to = coll_ue(c, rto), from = coll_ue(c, rfrom);
        const char *src = c->in + (size_t)rto * b;
        char *dst = c->out + (size_t)rfrom * b;
        t_vcharp there = coll_region_of(to);
        size_t sent = 0, got = 0;
        unsigned int spins = 0;

        sig_add(from, 1, first);
        while (sent < nch || got < nch) {
            int moved = 0;

            if (sent < nch && sig_test(to, 1, 1)) {
                t_vcharp slot = there + (sent % k) * sb;
                size_t o = sent * cb;

                sig_consume(to, 1, 1);
                plat_put(slot, &count, HDR);
                plat_put(slot + HDR, src + o, b - o < cb ? b - o : cb);
                plat_flush(my_mpb());
                sig_add(to, 0, 1);
                sent++;
                moved = 1;
            }
            if (got < nch && sig_test(from, 0, 1)) {
                t_vcharp slot = mine + (got % k) * sb;
                size_t o = got * cb;

                sig_consume(from, 0, 1);
                if (plat_load_relaxed(slot) != (uint32_t)count)
                    return scc_error(RCCE_ERROR_MESSAGE_LENGTH);
                plat_get_batch(dst + o, slot + HDR, b - o < cb ? b - o : cb);
                if (got + k < nch)
                    sig_add(from, 1, 1);        /* its slot is free for chunk got + k */
                got++;
                moved = 1;
            }
            if (moved)
                spins = 0;
            else
                coll_wait_step(&spins);
        }
    }
    return RCCE_SUCCESS;
}

const struct coll_alg coll_alltoall_push = {
    .name = "push", .op = COLL_ALLTOALL, .fn = run, .check = check, .nparam = 2,
    .param = {
        [P_CHUNK] = { "chunk", 2, LINES / 2, LINES / 2, "lines per slot (a chunk and its "
                      "8-byte size)" },
        [P_SLOTS] = { "slots", 2, LINES / 2, 2, "slots in the receiver's region (chunk x "
                      "slots <= 120 lines)" },
    },
    .doc = "ours: pairwise exchange; each sender writes its chunks straight into "
           "the receiver's MPB region",
};
