/*
 * bcast_cube.c - the "Cube" broadcast of the thesis (000 chapter 5): Bin
 * Jia's pipelined hypercube schedule for any number of members. The
 * message is cut into parts; in round j every unit exchanges with the
 * unit whose number differs in bit j mod q, and the whole broadcast takes
 * parts + q - 1 rounds (q = floor(log2 n)), the lower bound.
 *
 * Ranks are counted from the root. 2^q units: unit u < 2^q is member u,
 * joined by member u + 2^q - 1 when that exists (never unit 0). Of a
 * two-member unit one member is "in" (receives from the partner unit) and
 * the other "out" (sends to it); the roles swap after every round whose
 * bit is set in u (Jia's Switch array). The in member passes each part it
 * received to the out member in the next round in which it is in again
 * (its send port is free then), oldest first; what is left is exchanged
 * after the last round. Both members replay the unit's history, so they
 * agree on every transfer without messages about it.
 *
 * blocking=1 does each round's transfers with blocking sends and
 * receives, one after the other, as the thesis did (000 section 5.3: RCCE
 * "only provides blocking functions"; iRCCE was taken up for DOPL only).
 * The order keeps it free of deadlock: an in member sends its debt before
 * it receives (the out member takes the debt first, then sends), and two
 * lone members exchanging parts go lower rank first (000 lines 1774-1786).
 */
#include <string.h>

#include "../core/coll.h"

enum { CUBE_P_PART, CUBE_P_BLOCKING };     /* the parameters, by name */

struct cube {
    int n, q, P, k;
};

static int co(const struct cube *g, int p)
{
    if (p >= g->P)
        return p - (g->P - 1);
    return p >= 1 && p + g->P - 1 < g->n ? p + g->P - 1 : p;
}

/* Jia's Dis: distance from bit j to the next set bit on its left,
 * cyclically over q bits; q when there is none (unit 0). */
static int dis(const struct cube *g, int u, int j)
{
    for (int d = 1; d <= g->q; d++)
        if ((u >> ((j + d) % g->q)) & 1)
            return d;
    return g->q;
}

/* The out member of unit u in round j: roles swapped once per set bit of
 * u passed so far. */
static int out_of(const struct cube *g, int u, int j)
{
    int sw = __builtin_popcount(u) * (j / g->q) +
             __builtin_popcount(u & ((1 << (j % g->q)) - 1));

    return sw & 1 ? u : co(g, u);
}

/* A member's record of its unit: what each member has, and the parts each
 * still owes its partner (a FIFO). */
struct side {
    unsigned char *have;
    int *q, head, tail;
};

/* One round's transfers, in order, with blocking calls: see the top. */
static int xfer_blocking(struct coll_call *c, char *rbuf, size_t rlen, int from,
                         const char *sbuf, size_t slen, int to, int send_first)
{
    int err = RCCE_SUCCESS;

    if (to >= 0 && send_first)
        err = coll_send(c, sbuf, slen, to);
    if (!err && from >= 0)
        err = coll_recv(c, rbuf, rlen, from);
    if (!err && to >= 0 && !send_first)
        err = coll_send(c, sbuf, slen, to);
    return err;
}

static int xfer(struct coll_call *c, char *rbuf, size_t rlen, int from,
                const char *sbuf, size_t slen, int to, int send_first)
{
    iRCCE_RECV_REQUEST rr;
    iRCCE_SEND_REQUEST sr;
    int err;

    if (c->p[CUBE_P_BLOCKING])
        return xfer_blocking(c, rbuf, rlen, from, sbuf, slen, to, send_first);
    if (from >= 0) {
        err = iRCCE_irecv(rbuf, (ssize_t)rlen, coll_ue(c, from), &rr);
        if (err != iRCCE_SUCCESS && err != iRCCE_PENDING && err != iRCCE_RESERVED)
            return err;
    }
    if (to >= 0) {
        err = iRCCE_isend((char *)sbuf, (ssize_t)slen, coll_ue(c, to), &sr);
        if (err != iRCCE_SUCCESS && err != iRCCE_PENDING && err != iRCCE_RESERVED)
            return err;
        if ((err = iRCCE_isend_wait(&sr)))
            return err;
    }
    return from >= 0 ? iRCCE_irecv_wait(&rr) : RCCE_SUCCESS;
}

static int run(struct coll_call *c)
{
    struct cube g = { .n = c->n };
    size_t part = (size_t)c->p[CUBE_P_PART];
    int rel = (c->me - c->root + c->n) % c->n, u, m[2], mine, err = RCCE_SUCCESS;
    struct side sd[2];
    char *scratch;

    if (c->n == 1 || c->bytes == 0)
        return RCCE_SUCCESS;
    g.k = (int)((c->bytes + part - 1) / part);
    g.q = 31 - __builtin_clz((unsigned)c->n);
    g.P = 1 << g.q;
    u = rel < g.P ? rel : rel - (g.P - 1);
    m[0] = u;
    m[1] = co(&g, u);
    mine = rel == m[0] ? 0 : 1;

#define ABS(x) (((x) + c->root) % c->n)
#define OFF(p) ((size_t)(p) * part)
#define LEN(p) (c->bytes - OFF(p) < part ? c->bytes - OFF(p) : part)
    /* one block: the part received twice, then each side's record */
    size_t qn = SCC_SCRATCH_LINES(sizeof(int) * (size_t)g.k), hn = SCC_SCRATCH_LINES((size_t)g.k);
    scratch = scc_scratch(SCC_SCRATCH_OWN, SCC_SCRATCH_LINES(part) + 2 * (qn + hn));
    if (!scratch)
        return scc_error(RCCE_ERROR_MALLOC);
    for (int s = 0; s < 2; s++) {
        sd[s].q = (int *)(scratch + SCC_SCRATCH_LINES(part) + (size_t)s * (qn + hn));
        sd[s].have = (unsigned char *)sd[s].q + qn;
        memset(sd[s].have, 0, (size_t)g.k);
        sd[s].head = sd[s].tail = 0;
    }
    if (u == 0)
        memset(sd[0].have, 1, (size_t)g.k);

    for (int j = 0; j < g.k + g.q - 1 && !err; j++) {
        int jj = j % g.q, bit = (u >> jj) & 1, d = dis(&g, u, jj), pr = u ^ (1 << jj);
        int s = j - g.q + (1 - bit) * d, t = j - g.q + bit * d;
        int o = out_of(&g, u, j), in = co(&g, o), po = out_of(&g, pr, j);
        int pin = co(&g, po), io = o == m[0] ? 0 : 1, ii = 1 - io, f = -1;
        int from = -1, to = -1;
        char *rbuf = NULL;
        const char *sbuf = NULL;
        size_t rlen = 0, slen = 0;

        if (s > g.k - 1)
            s = g.k - 1;
        if (t > g.k - 1)
            t = g.k - 1;
        if (m[0] != m[1]) {     /* the in member's oldest debt still due */
            struct side *w = &sd[ii];
            while (w->head < w->tail && sd[io].have[w->q[w->head]])
                w->head++;
            if (w->head < w->tail)
                f = w->q[w->head];
        }
        if (rel == o && s >= 0 && pr != 0) {
            to = pin;
            sbuf = c->out + OFF(s);
            slen = LEN(s);
        }
        if (rel == in && t >= 0 && u != 0) {
            from = po;
            rbuf = sd[ii].have[t] ? scratch : c->out + OFF(t);
            rlen = LEN(t);
        }
        if (f >= 0 && rel == in) {              /* in: send the debt */
            err = xfer(c, rbuf, rlen, from < 0 ? -1 : ABS(from), c->out + OFF(f),
                       LEN(f), ABS(o), 1);
        } else if (f >= 0 && rel == o) {        /* out: take it */
            err = xfer(c, c->out + OFF(f), LEN(f), ABS(in), sbuf, slen,
                       to < 0 ? -1 : ABS(to), 0);
        } else {
            /* a lone member: lower rank first if it exchanges with one */
            err = xfer(c, rbuf, rlen, from < 0 ? -1 : ABS(from), sbuf, slen,
                       to < 0 ? -1 : ABS(to), from != to || rel < to);
        }
        /* both members replay the round */
        if (t >= 0 && u != 0 && !sd[ii].have[t]) {
            sd[ii].have[t] = 1;
            if (m[0] != m[1] && !sd[io].have[t])
                sd[ii].q[sd[ii].tail++] = t;
        }
        if (f >= 0) {
            sd[io].have[f] = 1;
            sd[ii].head++;
        }
    }
    /* what each member still owes the other: lower rank sends first */
    if (!err && m[0] != m[1]) {
        for (int pass = 0; pass < 2 && !err; pass++) {
            int snd = pass == 0 ? 0 : 1;
            struct side *w = &sd[snd];

            for (int i = w->head; i < w->tail && !err; i++) {
                int p = w->q[i];
                if (sd[1 - snd].have[p])
                    continue;
                if (mine == snd)
                    err = coll_send(c, c->out + OFF(p), LEN(p), ABS(m[1 - snd]));
                else
                    err = coll_recv(c, c->out + OFF(p), LEN(p), ABS(m[snd]));
            }
        }
    }
    return err;
#undef ABS
#undef OFF
#undef LEN
}

const struct coll_alg coll_bcast_cube = {
    .name = "cube", .op = COLL_BCAST, .fn = run, .nparam = 2,
    .param = { [CUBE_P_PART] = { "part", 1, 1L << 30, 4096,
                 "bytes per part (000 section 5.5 chose 4 KiB)" },
               [CUBE_P_BLOCKING] = { "blocking", 0, 1, 0,
                 "1: each round's send, then receive (or the other way), blocking, as "
                 "the thesis did; 0: both at once (iRCCE)" } },
    .doc = "Cube: Bin Jia's pipelined hypercube schedule for any n (thesis 000 chapter 5)",
};
