/*
 * inmpb.c - 004's in-MPB reduce-scatter ring (Kohler & Radetzki, section
 * III.D, Fig. 4b) and what may follow it, for the algorithms built on it
 * (allreduce_inmpb.c, allreduce_hybrid.c, reduce_inmpb.c,
 * reduce_scatter_inmpb.c). The partial result of each round stays in
 * MPBs: in round k a member reads its left neighbour's partial bucket
 * straight from the neighbour's region, combines it with its own operand
 * and stores the result in its own region for its right neighbour; the
 * region is split in two halves that alternate, so a member writes one
 * half while its right neighbour still reads the other. Vectors larger
 * than n half-regions run in passes.
 *
 * After the ring (enum inmpb_then): the allgather ring forwards the
 * finished buckets the same way (004); or each member gets every finished
 * bucket straight from its owner's region (a one-sided allgather); or
 * only the root does (a one-sided gather, for reduce); or nothing
 * (reduce_scatter: member i's finished bucket is its block i).
 *
 * Flow control (sig.c), per pass, w = this member's writes so far:
 * counter 0 to the right neighbour: "write w is in half w % 2";
 * counter 1 to the left neighbour: "I have read your write". The last
 * write, the finished bucket, is signalled to whoever reads it, and they
 * signal back on counter 1. Before write w >= 2 a member waits for the
 * done of write w - 2 (the same half); at the end of a pass it waits for
 * the done of every write, so nobody reads its region once it returns.
 *
 * The remote operand passes through a stack buffer of at most one half
 * (1920 bytes, L1-resident) between the get and the put: the private
 * vector in DRAM is read once per round and never written, as in Fig. 4b.
 *
 * Every write starts with the writer's element count (HDR bytes): a
 * member whose count differs from its neighbour's returns
 * RCCE_ERROR_MESSAGE_LENGTH instead of combining buckets cut differently
 * (a silent wrong answer); members still waiting on it are then ended by
 * the stall detectors, as for a mismatch in any other collective.
 */
#include <string.h>

#include "bucket.h"

#define HALF (SCC_MPB_REGION_SIZE / 2)
#define HDR 8                   /* the element count, before the data */

struct ring {
    const struct coll_call *c;
    t_vcharp mine, left;
    int lu, ru;                 /* neighbours' UE ids */
    unsigned writes, dones;     /* this pass: my writes, dones from right */
};

static void await_from(int ue)
{
    sig_wait(ue, 1, 1);
    sig_consume(ue, 1, 1);
}

static void await_done(struct ring *r, unsigned upto)
{
    for (; r->dones < upto; r->dones++)
        await_from(r->ru);
}

/* Write the next half; the half's previous contents must have been read.
 * Signal the right neighbour, or (last write) every member, or rank to. */
enum { TO_RIGHT = -1, TO_ALL = -2 };

static void publish(struct ring *r, const char *src, size_t n, int to)
{
    unsigned w = r->writes++;

    uint64_t count = (uint64_t)r->c->num;

    if (w >= 2)
        await_done(r, w - 1);
    plat_put(r->mine + (w % 2) * HALF, &count, HDR);
    plat_put(r->mine + (w % 2) * HALF + HDR, src, n);
    plat_flush(my_mpb());
    if (to == TO_RIGHT) {
        sig_add(r->ru, 0, 1);
        return;
    }
    for (int i = 0; i < r->c->n; i++)
        if (i != r->c->me && (to == TO_ALL || i == to))
            sig_add(coll_ue(r->c, i), 0, 1);
}

/* Get n bytes of a write in half into dst: 0, or -1 if the writer's
 * element count is not ours. */
static int get(const struct coll_call *c, t_vcharp half, char *dst, size_t n)
{
    uint64_t count;

    plat_get(&count, half, HDR);
    if (count != (uint64_t)c->num)
        return -1;
    plat_get(dst, half + HDR, n);
    return 0;
}

/* Wait for UE ue's write into its half `half`, get n bytes of it into
 * dst and say "read"; 0 or -1 (get). */
static int take_from(const struct coll_call *c, int ue, t_vcharp half, char *dst, size_t n)
{
    sig_wait(ue, 0, 1);
    sig_consume(ue, 0, 1);
    int err = get(c, half, dst, n);
    sig_add(ue, 1, 1);
    return err;
}

/* Take the left neighbour's write number w (n bytes) into dst. */
static int take(struct ring *r, unsigned w, char *dst, size_t n)
{
    return take_from(r->c, r->lu, r->left + (w % 2) * HALF, dst, n);
}

/* Take owner o's finished bucket (its write n - 1) into dst. */
static int take_final(const struct coll_call *c, int o, char *dst, size_t n)
{
    int ue = coll_ue(c, o);

    return take_from(c, ue, coll_region_of(ue) + ((c->n - 1) % 2) * HALF, dst, n);
}

int coll_inmpb(struct coll_call *c, enum inmpb_then then)
{
    int n = c->n, me = c->me, rs = then == INMPB_NONE;
    int shift = rs ? -1 : 0;    /* reduce_scatter: member i ends with bucket i */
    size_t ts = c->tsize, off[RCCE_MAXNP], len[RCCE_MAXNP];
    /* elements a pass takes: of the vector, or of each block */
    size_t per = (HALF - HDR) / ts * (rs ? 1 : (size_t)n), total = (size_t)c->num;
    _Alignas(8) char tmp[HALF];
    struct ring r = { .c = c };

    if (n == 1) {
        memmove(c->out, c->in, c->bytes);
        return RCCE_SUCCESS;
    }
    if (!(r.mine = coll_region()))
        return scc_error(RCCE_REJECTED);
    r.lu = coll_ue(c, (me - 1 + n) % n);
    r.ru = coll_ue(c, (me + 1) % n);
    r.left = coll_region_of(r.lu);
    for (size_t base = 0; base < total; base += per) {
        size_t m = total - base < per ? total - base : per;
        const char *in = c->in + base * ts;
        char *out = c->out ? c->out + base * ts : NULL;
        int to = then == INMPB_DIRECT_AG ? TO_ALL :
                 then == INMPB_GATHER ? c->root : TO_RIGHT;

        if (rs) {               /* bucket b: this pass's slice of block b */
            for (int b = 0; b < n; b++) {
                off[b] = (size_t)b * c->bytes;
                len[b] = m * ts;
            }
        } else {
            coll_buckets((int)m, ts, n, 1, off, len);
        }
        r.writes = r.dones = 0;
        publish(&r, in + off[(me + shift + n) % n], len[(me + shift + n) % n], TO_RIGHT);
        for (int k = 1; k < n; k++) {          /* reduce-scatter */
            int b = (me - k + shift + 2 * n) % n, last = k == n - 1;

            if (take(&r, (unsigned)k - 1, tmp, len[b]))
                return scc_error(RCCE_ERROR_MESSAGE_LENGTH);
            coll_combine(tmp, in + off[b], (int)(len[b] / ts), c->type, c->rop);
            if (last && (then != INMPB_GATHER || me == c->root))
                memcpy(rs ? out : out + off[b], tmp, len[b]);
            if (!last || then == INMPB_RING_AG || then == INMPB_DIRECT_AG ||
                (then == INMPB_GATHER && me != c->root))
                publish(&r, tmp, len[b], last ? to : TO_RIGHT);
        }
        if (then == INMPB_RING_AG) {
            for (int j = 1; j < n; j++) {      /* allgather ring */
                int b = (me - j + 1 + n) % n;

                if (take(&r, (unsigned)(n - 2 + j), out + off[b], len[b]))
                    return scc_error(RCCE_ERROR_MESSAGE_LENGTH);
                if (j < n - 1)
                    publish(&r, out + off[b], len[b], TO_RIGHT);
            }
            await_done(&r, r.writes);
            continue;
        }
        if (then == INMPB_DIRECT_AG || (then == INMPB_GATHER && me == c->root)) {
            /* every finished bucket from its owner, the nearest first */
            for (int j = 1; j < n; j++) {
                int o = (me + j) % n;

                if (take_final(c, o, out + off[(o + 1) % n], len[(o + 1) % n]))
                    return scc_error(RCCE_ERROR_MESSAGE_LENGTH);
            }
        }
        if (then == INMPB_GATHER && me != c->root && r.ru != coll_ue(c, c->root)) {
            await_done(&r, r.writes - 1);       /* the ring's writes */
            await_from(coll_ue(c, c->root));    /* the root's read */
            continue;
        }
        await_done(&r, r.writes);       /* the right reads every write */
        if (then == INMPB_DIRECT_AG)
            for (int j = 2; j < n; j++)
                await_from(coll_ue(c, (me + j) % n));
    }
    return RCCE_SUCCESS;
}
