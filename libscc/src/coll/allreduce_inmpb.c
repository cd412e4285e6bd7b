/*
 * allreduce_inmpb.c - 004's data-flow optimized bucket allreduce (Kohler &
 * Radetzki, section III.D, Fig. 4b): the partial result of each round
 * stays in MPBs. In round k a member reads its left neighbour's partial
 * bucket straight from the neighbour's region, combines it with its own
 * operand and stores the result in its own region for its right
 * neighbour; the region is split in two halves that alternate, so a
 * member writes one half while its right neighbour still reads the other.
 * The allgather ring forwards the finished buckets the same way. Buckets
 * are balanced (III.C); vectors larger than n half-regions run in passes.
 *
 * Flow control (sig.c), per pass, w = this member's writes so far:
 * counter 0 to the right neighbour: "write w is in half w % 2";
 * counter 1 to the left neighbour: "I have read your write". Before write
 * w >= 2 a member waits for the done of write w - 2 (the same half); at
 * the end of a pass it waits for the done of every write, so nobody reads
 * its region once it returns.
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

static void await_done(struct ring *r, unsigned upto)
{
    for (; r->dones < upto; r->dones++) {
        sig_wait(r->ru, 1, 1);
        sig_consume(r->ru, 1, 1);
    }
}

/* Write the next half for the right neighbour (and, if all, tell every
 * member); the half's previous contents must have been read. */
static void publish(struct ring *r, const char *src, size_t n, int all)
{
    unsigned w = r->writes++;

    uint64_t count = (uint64_t)r->c->num;

    if (w >= 2)
        await_done(r, w - 1);
    plat_put(r->mine + (w % 2) * HALF, &count, HDR);
    plat_put(r->mine + (w % 2) * HALF + HDR, src, n);
    plat_flush(my_mpb());
    if (!all) {
        sig_add(r->ru, 0, 1);
        return;
    }
    for (int i = 0; i < r->c->n; i++)
        if (i != r->c->me)
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

/* Take the left neighbour's write number w (n bytes) into dst; 0 or -1
 * (get). */
static int take(struct ring *r, unsigned w, char *dst, size_t n)
{
    sig_wait(r->lu, 0, 1);
    sig_consume(r->lu, 0, 1);
    int err = get(r->c, r->left + (w % 2) * HALF, dst, n);
    sig_add(r->lu, 1, 1);
    return err;
}

int coll_inmpb_allreduce(struct coll_call *c, int direct)
{
    int n = c->n, me = c->me;
    size_t ts = c->tsize, per = (HALF - HDR) / ts * (size_t)n, off[RCCE_MAXNP],
        len[RCCE_MAXNP];
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
    for (size_t base = 0; base < (size_t)c->num; base += per) {
        size_t m = (size_t)c->num - base < per ? (size_t)c->num - base : per;
        const char *in = c->in + base * ts;
        char *out = c->out + base * ts;

        coll_buckets((int)m, ts, n, 1, off, len);
        r.writes = r.dones = 0;
        publish(&r, in + off[me], len[me], 0);
        for (int k = 1; k < n; k++) {          /* reduce-scatter */
            int b = (me - k + n) % n;

            if (take(&r, (unsigned)k - 1, tmp, len[b]))
                return scc_error(RCCE_ERROR_MESSAGE_LENGTH);
            coll_combine(tmp, in + off[b], (int)(len[b] / ts), c->type, c->rop);
            if (k == n - 1)
                memcpy(out + off[b], tmp, len[b]);
            publish(&r, tmp, len[b], direct && k == n - 1);
        }
        if (!direct) {
            for (int j = 1; j < n; j++) {      /* allgather ring */
                int b = (me - j + 1 + n) % n;

                if (take(&r, (unsigned)(n - 2 + j), out + off[b], len[b]))
                    return scc_error(RCCE_ERROR_MESSAGE_LENGTH);
                if (j < n - 1)
                    publish(&r, out + off[b], len[b], 0);
            }
            await_done(&r, r.writes);
            continue;
        }
        /* one-sided allgather: every finished bucket from its owner */
        for (int j = 1; j < n; j++) {
            int o = (me + j) % n, b = (o + 1) % n, ue = coll_ue(c, o);

            sig_wait(ue, 0, 1);
            sig_consume(ue, 0, 1);
            int err = get(c, coll_region_of(ue) + ((n - 1) % 2) * HALF, out + off[b], len[b]);
            sig_add(ue, 1, 1);
            if (err)
                return scc_error(RCCE_ERROR_MESSAGE_LENGTH);
        }
        await_done(&r, r.writes);       /* the right reads every write */
        for (int j = 2; j < n; j++) {
            int ue = coll_ue(c, (me + j) % n);
            sig_wait(ue, 1, 1);
            sig_consume(ue, 1, 1);
        }
    }
    return RCCE_SUCCESS;
}

static int run(struct coll_call *c)
{
    return coll_inmpb_allreduce(c, 0);
}

const struct coll_alg coll_allreduce_inmpb = {
    .name = "inmpb", .op = COLL_ALLREDUCE, .fn = run,
    .doc = "bucket allreduce with the data kept in double-buffered MPB halves "
           "(004 section III.D, Fig. 4b), balanced buckets",
};
