/*
 * bucket.c - the ring machinery of the bucket collectives (bucket.h).
 */
#include "bucket.h"
#include "RCCEnb.h"
#include "iRCCE.h"

void coll_buckets(int num, size_t tsize, int n, int balanced, size_t *off,
                  size_t *len)
{
    int q = num / n, r = num % n, at = 0;

    for (int b = 0; b < n; b++) {
        int k = balanced ? q + (b < r) : q + (b == 0 ? r : 0);

        off[b] = (size_t)at * tsize;
        len[b] = (size_t)k * tsize;
        at += k;
    }
}

static int ok(int err)
{
    return err == RCCE_SUCCESS || err == iRCCE_PENDING ? RCCE_SUCCESS : err;
}

/* One transfer, finished before returning. */
static int one(const struct coll_call *c, struct coll_prim m, int send,
               char *buf, size_t n, int rank)
{
    int err, ue = coll_ue(c, rank);

    if (!m.nb)
        return send ? coll_send(c, buf, n, rank) : coll_recv(c, buf, n, rank);
    if (send)
        return (err = RCCEnb_isend(buf, n, ue)) ? err : RCCEnb_send_wait();
    return (err = RCCEnb_irecv(buf, n, ue)) ? err : RCCEnb_recv_wait();
}

int coll_xchg(const struct coll_call *c, struct coll_prim m, int sendfirst,
              const char *sb, size_t sn, int to, char *rb, size_t rn, int from)
{
    int err;
    char *s = (char *)sb;

    if (!m.relaxed) {
        if (sendfirst && sn && (err = one(c, m, 1, s, sn, to)))
            return err;
        if (rn && (err = one(c, m, 0, rb, rn, from)))
            return err;
        if (!sendfirst && sn && (err = one(c, m, 1, s, sn, to)))
            return err;
        return RCCE_SUCCESS;
    }
    if (m.nb) {
        if ((sn && (err = RCCEnb_isend(s, sn, coll_ue(c, to)))) ||
            (rn && (err = RCCEnb_irecv(rb, rn, coll_ue(c, from)))))
            return err;
        return rn ? RCCEnb_wait() : RCCEnb_send_wait();
    }
    iRCCE_SEND_REQUEST sr;
    iRCCE_RECV_REQUEST rr;
    if (sn && (err = ok(iRCCE_isend(s, (ssize_t)sn, coll_ue(c, to), &sr))))
        return err;
    if (rn && (err = ok(iRCCE_irecv(rb, (ssize_t)rn, coll_ue(c, from), &rr))))
        return err;
    if (sn && (err = iRCCE_isend_wait(&sr)))
        return err;
    return rn ? iRCCE_irecv_wait(&rr) : RCCE_SUCCESS;
}

static int mod(int a, int n)
{
    return ((a % n) + n) % n;
}

int coll_bucket_rs(const struct coll_call *c, struct coll_prim m, char *acc,
                   char *tmp, const size_t *off, const size_t *len, int shift)
{
    int n = c->n, me = c->me, right = mod(me + 1, n), left = mod(me - 1, n);
    int first = coll_ring_sendfirst(me, n), err;

    for (int s = 0; s < n - 1; s++) {
        int sb = mod(me - s + shift, n), rb = mod(me - s - 1 + shift, n);

        if ((err = coll_xchg(c, m, first, acc + off[sb], len[sb], right, tmp,
                             len[rb], left)))
            return err;
        coll_combine(acc + off[rb], tmp, (int)(len[rb] / c->tsize), c->type, c->rop);
    }
    return RCCE_SUCCESS;
}

int coll_bucket_ag(const struct coll_call *c, struct coll_prim m, char *buf,
                   const size_t *off, const size_t *len, int shift)
{
    int n = c->n, me = c->me, right = mod(me + 1, n), left = mod(me - 1, n);
    int first = coll_ring_sendfirst(me, n), err;

    for (int s = 0; s < n - 1; s++) {
        int sb = mod(me + 1 + shift - s, n), rb = mod(me + shift - s, n);

        if ((err = coll_xchg(c, m, first, buf + off[sb], len[sb], right,
                             buf + off[rb], len[rb], left)))
            return err;
    }
    return RCCE_SUCCESS;
}

int coll_bucket_gather(const struct coll_call *c, struct coll_prim m, char *buf,
                       const size_t *off, const size_t *len, int shift)
{
    int n = c->n, err;
    struct coll_prim one_way = { 0, m.nb };

    if (c->me != c->root) {
        int b = mod(c->me + 1 + shift, n);
        return len[b] ? one(c, one_way, 1, buf + off[b], len[b], c->root) : 0;
    }
    if (m.relaxed && !m.nb) {           /* iRCCE: every receive posted at once */
        iRCCE_RECV_REQUEST rr[RCCE_MAXNP];
        int posted[RCCE_MAXNP] = { 0 };

        err = RCCE_SUCCESS;
        for (int i = 0; i < n && !err; i++) {
            int b = mod(i + 1 + shift, n);
            if (i != c->root && len[b]) {
                err = ok(iRCCE_irecv(buf + off[b], (ssize_t)len[b], coll_ue(c, i), &rr[i]));
                posted[i] = !err;
            }
        }
        for (int i = 0; i < n; i++) {
            int e = posted[i] ? iRCCE_irecv_wait(&rr[i]) : 0;
            err = err ? err : e;
        }
        return err;
    }
    for (int i = 0; i < n; i++) {
        int b = mod(i + 1 + shift, n);
        if (i != c->root && len[b] && (err = one(c, one_way, 0, buf + off[b], len[b], i)))
            return err;
    }
    return RCCE_SUCCESS;
}

/* --- whole collectives, shared by the baselines and the optimized files --- */

#include <string.h>

int coll_bucket_allreduce(const struct coll_call *c, struct coll_prim m, int balanced)
{
    size_t off[RCCE_MAXNP], len[RCCE_MAXNP], big = 0;
    char *tmp;
    int err;

    memmove(c->out, c->in, c->bytes);
    if (c->n == 1)
        return RCCE_SUCCESS;
    coll_buckets(c->num, c->tsize, c->n, balanced, off, len);
    for (int b = 0; b < c->n; b++)
        big = len[b] > big ? len[b] : big;
    if (!(tmp = scc_scratch(SCC_SCRATCH_OWN, big)))
        return scc_error(RCCE_ERROR_MALLOC);
    err = coll_bucket_rs(c, m, c->out, tmp, off, len, 0);
    return err ? err : coll_bucket_ag(c, m, c->out, off, len, 0);
}

int coll_bucket_reduce(const struct coll_call *c, struct coll_prim m, int balanced)
{
    size_t off[RCCE_MAXNP], len[RCCE_MAXNP], big = 0;
    size_t own = c->me == c->root ? 0 : SCC_SCRATCH_LINES(c->bytes);
    char *acc, *tmp;
    int err;

    coll_buckets(c->num, c->tsize, c->n, balanced, off, len);
    for (int b = 0; b < c->n; b++)
        big = len[b] > big ? len[b] : big;
    if (!(tmp = scc_scratch(SCC_SCRATCH_OWN, own + big)))
        return scc_error(RCCE_ERROR_MALLOC);
    acc = own ? tmp : c->out;
    tmp += own;
    memmove(acc, c->in, c->bytes);
    err = coll_bucket_rs(c, m, acc, tmp, off, len, 0);
    if (!err)
        err = coll_bucket_gather(c, m, acc, off, len, 0);
    return err;
}

/* reduce_scatter: block i (c->bytes each) ends on rank i, so shift = -1. */
int coll_bucket_reduce_scatter(const struct coll_call *c, struct coll_prim m)
{
    size_t off[RCCE_MAXNP], len[RCCE_MAXNP];
    char *acc, *tmp;
    int err;

    if (c->n == 1) {
        memmove(c->out, c->in, c->bytes);
        return RCCE_SUCCESS;
    }
    acc = scc_scratch(SCC_SCRATCH_OWN, SCC_SCRATCH_LINES(c->bytes * (size_t)c->n) +
                      c->bytes);
    if (!acc)
        return scc_error(RCCE_ERROR_MALLOC);
    tmp = acc + SCC_SCRATCH_LINES(c->bytes * (size_t)c->n);
    memcpy(acc, c->in, c->bytes * (size_t)c->n);
    coll_buckets(c->num * c->n, c->tsize, c->n, 1, off, len);
    err = coll_bucket_rs(c, m, acc, tmp, off, len, -1);
    if (!err)
        memcpy(c->out, acc + off[c->me], c->bytes);
    return err;
}

int coll_bucket_allgather(const struct coll_call *c, struct coll_prim m)
{
    size_t off[RCCE_MAXNP], len[RCCE_MAXNP];

    for (int b = 0; b < c->n; b++) {
        off[b] = (size_t)b * c->bytes;
        len[b] = c->bytes;
    }
    memmove(c->out + off[c->me], c->in, c->bytes);
    return coll_bucket_ag(c, m, c->out, off, len, -1);
}

/* Whether rank me sends first in step s of a blocking pairwise exchange
 * in odd-even order. The step's sends i -> i+s form gcd(n, s) cycles of
 * n / gcd(n, s) ranks each (a residue class mod gcd(n, s), smallest rank
 * first). Lower rank first (order 0) has a rank that receives first in
 * every cycle (the one whose partner wraps around), so nothing deadlocks,
 * but the sends complete one after another back along the cycle, up to
 * n - 1 of them in a row. Odd-even by place in the cycle, the order of
 * RCCE_comm's rings (004 Alg. 1), has two or three in a row. */
static int oddeven_sendfirst(int me, int s, int n)
{
    int g = n, t = s, place = 0;

    while (t) {                         /* g = gcd(n, s) */
        int r = g % t;
        g = t;
        t = r;
    }
    for (int i = me % g; i != me; i = (i + s) % n)
        place++;
    return coll_ring_sendfirst(place, n / g);
}

/* The same for every step at once, a bit a step. Its divisions cost the
 * chip about 100 us a call, which the baseline should not pay in every
 * call: worked out once for (n, me), kept per UE. */
static uint64_t oddeven_steps(int me, int n)
{
    _Static_assert(RCCE_MAXNP <= 64, "a bit a step");
    int key = n << 8 | me;

    if (scc_self.pairwise_key != key + 1) {
        uint64_t first = 0;

        for (int t = 1; t < n; t++)
            first |= (uint64_t)oddeven_sendfirst(me, t, n) << t;
        scc_self.pairwise_first = first;
        scc_self.pairwise_key = key + 1;
    }
    return scc_self.pairwise_first;
}

/* Pairwise alltoall: in step s rank i sends to i+s and receives from i-s;
 * blocking (relaxed = 0) lower rank first, or odd-even (oddeven_sendfirst). */
int coll_pairwise_alltoall(const struct coll_call *c, struct coll_prim m, int oddeven)
{
    int n = c->n, me = c->me, err;
    size_t b = c->bytes;
    uint64_t first = oddeven ? oddeven_steps(me, n) : 0;

    memmove(c->out + (size_t)me * b, c->in + (size_t)me * b, b);
    for (int s = 1; s < n; s++) {
        int to = (me + s) % n, from = (me - s + n) % n;

        if ((err = coll_xchg(c, m, oddeven ? (int)(first >> s & 1) : me < to,
                             c->in + (size_t)to * b, b, to,
                             c->out + (size_t)from * b, b, from)))
            return err;
    }
    return RCCE_SUCCESS;
}
