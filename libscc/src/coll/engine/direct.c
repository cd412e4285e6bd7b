/*
 * direct.c - ours: an exchange in which nobody forwards anything. Each
 * member leaves its buffer in its own MPB region, the whole of it if it
 * fits, otherwise a half-region (a pass) at a time, and every member that
 * wants a part of it gets that part straight from there (coll_region_of).
 * Against a ring (004's buckets, n - 1 dependent rounds in which each
 * block is put and got again at every member), a block crosses the mesh
 * once, and the n - 1 gets of a member are independent of each other.
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

/* How a member publishes its buffer: the same on every member. */
struct lay {
    const struct coll_call *c;
    size_t stride;
    size_t pass;        /* bytes of a pass: the whole region if the buffer
                           fits it in one, otherwise a half */
    size_t passes;
    size_t total;       /* bytes published: n blocks, or n - 1 rotated */
    int rot;            /* an alltoall's buffer of more than one pass is
                           published rotated, the blocks for o + 1, o + 2,
                           ... in that order (its own left out), so that in
                           each step every member serves a different reader
                           and every reader is served */
};

static void lay_init(struct lay *l, const struct coll_call *c, size_t stride)
{
    size_t all = stride ? (size_t)c->n * c->bytes : c->bytes;

    l->c = c;
    l->stride = stride;
    l->pass = all + HDR <= SCC_MPB_REGION_SIZE ? SCC_MPB_REGION_SIZE - HDR : HALF - HDR;
    l->rot = stride && all > l->pass;
    if (l->rot)
        all -= c->bytes;
    l->total = all;
    l->passes = (all + l->pass - 1) / l->pass;
}

/* Where member d's part starts in member o's buffer as o publishes it:
 * an allgather publishes its block, which everybody wants whole. */
static size_t pos(const struct lay *l, int o, int d)
{
    if (!l->rot)
        return (size_t)d * l->stride;
    return (size_t)((d - o - 1 + l->c->n) % l->c->n) * l->c->bytes;
}

/* Whether member d wants part of o's pass q, [q * pass, + pass). */
static int wants(const struct lay *l, int o, int d, size_t q)
{
    size_t lo = pos(l, o, d);

    return l->passes == 1 || (q * l->pass < lo + l->c->bytes && (q + 1) * l->pass > lo);
}

static void await_readers(const struct lay *l, size_t q)
{
    const struct coll_call *c = l->c;

    for (int d = 0; d < c->n; d++)
        if (d != c->me && wants(l, c->me, d, q)) {
            sig_wait(coll_ue(c, d), 1, 1);
            sig_consume(coll_ue(c, d), 1, 1);
        }
}

/* Put bytes [from, from + len) of my published buffer at dst. */
static void put_pass(const struct lay *l, t_vcharp dst, size_t from, size_t len)
{
    const struct coll_call *c = l->c;

    if (!l->rot) {
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
    struct lay l;
    uint64_t count = c->bytes;
    t_vcharp mine = coll_region();

    memmove(c->out + (size_t)me * c->bytes, c->in + (size_t)me * stride, c->bytes);
    if (n == 1)
        return RCCE_SUCCESS;
    if (!mine)
        return scc_error(RCCE_REJECTED);
    lay_init(&l, c, stride);
    for (size_t q = 0; q < l.passes; q++) {
        size_t from = q * l.pass, len = l.total - from < l.pass ? l.total - from : l.pass;
        t_vcharp half = mine + (q % 2) * HALF;

        if (q >= 2)
            await_readers(&l, q - 2);
        plat_put(half, &count, HDR);
        put_pass(&l, half + HDR, from, len);
        plat_flush(my_mpb());
        for (int j = 1; j < n; j++) {
            int d = (me + j) % n;

            if (wants(&l, me, d, q))
                sig_add(coll_ue(c, d), 0, 1);
        }
        for (int j = 1; j < n; j++) {   /* my parts of the others' pass q */
            int o = (me + j) % n, ue = coll_ue(c, o);
            size_t lo = pos(&l, o, me);
            size_t a = from > lo ? from : lo;
            size_t b = from + len < lo + c->bytes ? from + len : lo + c->bytes;
            t_vcharp theirs = coll_region_of(ue) + (q % 2) * HALF;
            uint64_t got;

            if (!wants(&l, o, me, q))
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
    for (size_t q = l.passes > 2 ? l.passes - 2 : 0; q < l.passes; q++)
        await_readers(&l, q);
    return RCCE_SUCCESS;
}
