/*
 * direct.c - ours: an exchange in which nobody forwards anything. Each
 * member leaves its buffer in its own MPB region, a half-region (a pass)
 * at a time, and every member that wants a part of it gets that part
 * straight from there (coll_region_of). Against a ring (004's buckets,
 * n - 1 dependent rounds in which each block is put and got again at
 * every member), a block crosses the mesh once, and the n - 1 gets of a
 * member are independent of each other.
 *
 * Passes alternate between the region's halves. In step q a member first
 * writes its pass q (once every reader of its pass q - 2 is done with
 * it) and signals its readers, then reads pass q of every other member,
 * if it wants part of it: step q waits only on steps q - 2 and q of
 * others, so the steps cannot wait on each other in a circle. Readers
 * start with their next neighbour, so each region has about one reader
 * at a time. Flow control (sig.c): counter 0 from writer to reader "pass
 * q is in half q % 2", counter 1 back "read". A member returns when every
 * reader of its last two passes is done, so nobody reads its region
 * after.
 *
 * Every pass starts with the writer's block size (HDR bytes): a reader
 * whose size differs returns RCCE_ERROR_MESSAGE_LENGTH rather than taking
 * blocks cut differently; members still waiting on it are then ended by
 * the stall detectors, as for a mismatch in any other collective.
 */
#include <string.h>

#include "direct.h"

#define HALF (SCC_MPB_REGION_SIZE / 2)
#define HDR 8
#define PASS (HALF - HDR)

/* Whether an alltoall's send buffer takes more than one pass: it is then
 * published rotated, the blocks for o + 1, o + 2, ... in that order (its
 * own left out), so that in each step every member serves a different
 * reader and every reader is served; one pass is published as it is, in
 * one copy. */
static int rotated(const struct coll_call *c, size_t stride)
{
    return stride && (size_t)c->n * c->bytes > PASS;
}

/* Where member d's part starts in member o's buffer as o publishes it:
 * an allgather publishes its block, which everybody wants whole. */
static size_t pos(const struct coll_call *c, size_t stride, int o, int d)
{
    if (!rotated(c, stride))
        return (size_t)d * stride;
    return (size_t)((d - o - 1 + c->n) % c->n) * c->bytes;
}

/* Whether member d wants part of o's pass q, [q * PASS, + PASS). */
static int wants(const struct coll_call *c, size_t stride, int o, int d, size_t q)
{
    size_t lo = pos(c, stride, o, d);

    return q * PASS < lo + c->bytes && (q + 1) * PASS > lo;
}

static void await_readers(const struct coll_call *c, size_t stride, size_t q)
{
    for (int d = 0; d < c->n; d++)
        if (d != c->me && wants(c, stride, c->me, d, q)) {
            sig_wait(coll_ue(c, d), 1, 1);
            sig_consume(coll_ue(c, d), 1, 1);
        }
}

/* Put bytes [from, from + len) of my published buffer at dst. */
static void put_pass(const struct coll_call *c, size_t stride, t_vcharp dst, size_t from,
                     size_t len)
{
    if (!rotated(c, stride)) {
        plat_put(dst, c->in + from, len);
        return;
    }
    while (len) {
        size_t i = from / c->bytes, in_block = from % c->bytes;
        size_t piece = c->bytes - in_block < len ? c->bytes - in_block : len;
        int to = (c->me + 1 + (int)i) % c->n;

        plat_put(dst, c->in + (size_t)to * c->bytes + in_block, piece);
        dst += piece;
        from += piece;
        len -= piece;
    }
}

int coll_direct(const struct coll_call *c, size_t stride)
{
    int n = c->n, me = c->me;
    size_t total = !stride ? c->bytes : (size_t)(n - rotated(c, stride)) * c->bytes;
    size_t passes = (total + PASS - 1) / PASS;
    uint64_t count = c->bytes;
    t_vcharp mine = coll_region();

    memmove(c->out + (size_t)me * c->bytes, c->in + (size_t)me * stride, c->bytes);
    if (n == 1)
        return RCCE_SUCCESS;
    if (!mine)
        return scc_error(RCCE_REJECTED);
    for (size_t q = 0; q < passes; q++) {
        size_t from = q * PASS, len = total - from < PASS ? total - from : PASS;
        t_vcharp half = mine + (q % 2) * HALF;

        if (q >= 2)
            await_readers(c, stride, q - 2);
        plat_put(half, &count, HDR);
        put_pass(c, stride, half + HDR, from, len);
        plat_flush(my_mpb());
        for (int j = 1; j < n; j++) {
            int d = (me + j) % n;

            if (wants(c, stride, me, d, q))
                sig_add(coll_ue(c, d), 0, 1);
        }
        for (int j = 1; j < n; j++) {   /* my parts of the others' pass q */
            int o = (me + j) % n, ue = coll_ue(c, o);
            size_t lo = pos(c, stride, o, me);
            size_t a = from > lo ? from : lo;
            size_t b = from + len < lo + c->bytes ? from + len : lo + c->bytes;
            t_vcharp theirs = coll_region_of(ue) + (q % 2) * HALF;
            uint64_t got;

            if (!wants(c, stride, o, me, q))
                continue;
            sig_wait(ue, 0, 1);
            sig_consume(ue, 0, 1);
            plat_get(&got, theirs, HDR);
            if (got != count)
                return scc_error(RCCE_ERROR_MESSAGE_LENGTH);
            plat_get_batch(c->out + (size_t)o * c->bytes + (a - lo), theirs + HDR + (a - from),
                           b - a);
            sig_add(ue, 1, 1);
        }
    }
    for (size_t q = passes > 2 ? passes - 2 : 0; q < passes; q++)
        await_readers(c, stride, q);
    return RCCE_SUCCESS;
}
