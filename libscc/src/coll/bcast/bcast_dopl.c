/*
 * bcast_dopl.c - DOPL, the dimension-ordered pipelined broadcast of the
 * thesis (000 chapter 6, after Traff's [12]) on the SCC's 8 x 6 core
 * grid. The message is cut into parts; in round i every row (i even) or
 * column (i odd) is a pipeline from its head, the member at coordinate 0
 * of that line, to its tail, the part cut again into `pipe`-byte pieces
 * on non-blocking iRCCE. The line through the root carries part i (the
 * root brings in a new part every round), every other line part i - 1
 * (000 lines 2185-2199: part = i + level - d). A head that is not the
 * root misses part i - 2 (its own line of two rounds ago carried it past
 * it), so that line's tail sends it back whole: the wraparound.
 *
 * Grid: on the whole 48-core chip the thesis' map (row = 2 * (core / 12)
 * + core % 2, column = (core % 12) / 2, i.e. the tiles' mesh with the two
 * cores of a tile one above the other), rotated (mod 8, mod 6) so that
 * the root is at (0, 0). Otherwise ranks counted from the root, row-major
 * over C columns, C the first of ceil(sqrt(n)), ceil(sqrt(n)) + 1, ...,
 * n / 2, then ceil(sqrt(n)) - 1 down to 2 for which every line but the
 * root's has at least 2 members (full last row, or a last row of >= 2 and
 * >= 3 rows); none: one line, i.e. a pipelined chain (d = 1).
 */
#include <math.h>

#include "../core/coll.h"

enum { DOPL_P_PART, DOPL_P_PIPE };          /* the parameters, by name */

struct grid {
    int w, h;                   /* columns (row length), rows */
    int d;                      /* 2, or 1 for a single line */
    int at[2 * RCCE_MAXNP];       /* rank at column a, row b: at[b * w + a] */
    int rowlen[RCCE_MAXNP], collen[RCCE_MAXNP];
    int a, b;                   /* mine */
};

static int good_c(int n, int c)
{
    int r = (n + c - 1) / c, last = n - (r - 1) * c;

    return c >= 2 && r >= 2 && (last == c || (last >= 2 && r >= 3));
}

static void make_grid(const struct coll_call *c, struct grid *g)
{
    int n = c->n, full = n == 48, cols = n, seen = 0;
    unsigned long long cores = 0;

    for (int i = 0; i < n && full; i++) {
        int core = RCCE_ue_core(coll_ue(c, i));
        if (core < 0 || core >= 48 || (cores >> core & 1))
            full = 0;
        else
            cores |= 1ull << core;
    }
    if (full) {
        int rc = RCCE_ue_core(coll_ue(c, c->root));
        int r0 = 2 * (rc / 12) + rc % 2, c0 = rc % 12 / 2;

        g->w = 6;
        g->h = 8;
        for (int i = 0; i < n; i++) {
            int core = RCCE_ue_core(coll_ue(c, i));
            int a = (core % 12 / 2 - c0 + 6) % 6, b = (2 * (core / 12) + core % 2 - r0 + 8) % 8;
            g->at[b * 6 + a] = i;
        }
    } else {
        int s = (int)ceil(sqrt((double)n));

        for (int x = s; x <= n / 2 && !seen; x++)
            if (good_c(n, x))
                cols = x, seen = 1;
        for (int x = s - 1; x >= 2 && !seen; x--)
            if (good_c(n, x))
                cols = x, seen = 1;
        g->w = cols;
        g->h = (n + cols - 1) / cols;
        for (int i = 0; i < g->w * g->h; i++)
            g->at[i] = i < n ? (i + c->root) % n : -1;
    }
    g->d = g->h > 1 ? 2 : 1;
    for (int a = 0; a < g->w; a++)
        g->collen[a] = 0;
    for (int b = 0; b < g->h; b++) {
        g->rowlen[b] = 0;
        for (int a = 0; a < g->w; a++) {
            int r = g->at[b * g->w + a];
            if (r < 0)
                continue;
            g->rowlen[b]++;
            g->collen[a]++;
            if (r == c->me)
                g->a = a, g->b = b;
        }
    }
}

static int posted(int e)
{
    return e == iRCCE_SUCCESS || e == iRCCE_PENDING || e == iRCCE_RESERVED ? 0 : e;
}

/* This member's part in one line of one round. */
static int line_round(struct coll_call *c, const struct grid *g, int dim, int pipe_part,
                      int wrap_part, size_t part, size_t pipe,
                      iRCCE_RECV_REQUEST *rr, iRCCE_SEND_REQUEST *sr)
{
    int pos = dim ? g->b : g->a, len = dim ? g->collen[g->a] : g->rowlen[g->b];
    int nr = 0, ns = 0, err = RCCE_SUCCESS, prev = -1, next = -1, head, tail;
    size_t off = 0, plen = 0, np = 0;

#define AT(p) (dim ? g->at[(p) * g->w + g->a] : g->at[g->b * g->w + (p)])
    head = coll_ue(c, AT(0));
    tail = coll_ue(c, AT(len - 1));
    if (pos > 0)
        prev = coll_ue(c, AT(pos - 1));
    if (pos < len - 1)
        next = coll_ue(c, AT(pos + 1));
    if (pipe_part >= 0) {
        off = (size_t)pipe_part * part;
        plen = c->bytes - off < part ? c->bytes - off : part;
        np = (plen + pipe - 1) / pipe;
    }
    for (size_t k = 0; prev >= 0 && k < np && !err; k++, nr++)
        err = posted(iRCCE_irecv(c->out + off + k * pipe,
                                 (ssize_t)(plen - k * pipe < pipe ? plen - k * pipe : pipe),
                                 prev, &rr[nr]));
    if (wrap_part >= 0 && len > 1) {
        size_t woff = (size_t)wrap_part * part;
        size_t wlen = c->bytes - woff < part ? c->bytes - woff : part;

        if (pos == 0 && !err)
            err = posted(iRCCE_irecv(c->out + woff, (ssize_t)wlen, tail, &rr[nr++]));
        if (pos == len - 1 && !err)
            err = posted(iRCCE_isend(c->out + woff, (ssize_t)wlen, head, &sr[ns++]));
    }
    for (size_t k = 0; next >= 0 && k < np && !err; k++) {
        if (prev >= 0 && (err = iRCCE_irecv_wait(&rr[k])))
            break;
        err = posted(iRCCE_isend(c->out + off + k * pipe,
                                 (ssize_t)(plen - k * pipe < pipe ? plen - k * pipe : pipe),
                                 next, &sr[ns++]));
    }
    for (int i = 0; i < ns && !err; i++)
        err = iRCCE_isend_wait(&sr[i]);
    for (int i = 0; i < nr && !err; i++)
        err = iRCCE_irecv_wait(&rr[i]);
    return err;
#undef AT
}

static int run(struct coll_call *c)
{
    size_t part = (size_t)c->p[DOPL_P_PART], pipe = (size_t)c->p[DOPL_P_PIPE], maxp;
    struct grid *g;
    iRCCE_RECV_REQUEST *rr;
    iRCCE_SEND_REQUEST *sr;
    int k, err = RCCE_SUCCESS;

    if (c->n == 1 || c->bytes == 0)
        return RCCE_SUCCESS;
    if (pipe > part)
        pipe = part;
    maxp = (part + pipe - 1) / pipe + 1;
    k = (int)((c->bytes + part - 1) / part);
    g = scc_scratch(SCC_SCRATCH_OWN, SCC_SCRATCH_LINES(sizeof(*g)) +
                    SCC_SCRATCH_LINES(sizeof(*rr) * maxp) + sizeof(*sr) * maxp);
    if (!g)
        return scc_error(RCCE_ERROR_MALLOC);
    rr = (iRCCE_RECV_REQUEST *)((char *)g + SCC_SCRATCH_LINES(sizeof(*g)));
    sr = (iRCCE_SEND_REQUEST *)((char *)rr + SCC_SCRATCH_LINES(sizeof(*rr) * maxp));
    memset(g, 0, sizeof(*g));           /* as malloc's was */
    make_grid(c, g);
    /* d = 2: rounds 0..k+1; the last one only completes wraparounds */
    for (int i = 0; i < (g->d == 2 ? k + 2 : k) && !err; i++) {
        int dim = g->d == 2 ? i % 2 : 0;
        int rootline = dim ? g->a == 0 : g->b == 0;
        int p = rootline ? i : i - 1, w = rootline ? -1 : i - 2;

        err = line_round(c, g, dim, p >= 0 && p < k ? p : -1, w >= 0 && w < k ? w : -1,
                         part, pipe, rr, sr);
    }
    return err ? scc_error(err) : RCCE_SUCCESS;
}

static int check(const struct coll_call *c, char *why, size_t n)
{
    if (c->p[DOPL_P_PIPE] < c->p[DOPL_P_PART] &&
        (c->p[DOPL_P_PART] + c->p[DOPL_P_PIPE] - 1) / c->p[DOPL_P_PIPE] > 4096) {
        snprintf(why, n, "part/pipe = %ld pieces per part, at most 4096",
                 (c->p[DOPL_P_PART] + c->p[DOPL_P_PIPE] - 1) / c->p[DOPL_P_PIPE]);
        return -1;
    }
    return 0;
}

const struct coll_alg coll_bcast_dopl = {
    .name = "dopl", .op = COLL_BCAST, .fn = run, .nparam = 2, .check = check,
    .param = { [DOPL_P_PART] = { "part", 1, 1L << 30, 8192, "bytes per part (000 section 6.3: 8 KiB)" },
               [DOPL_P_PIPE] = { "pipe", 1, 1L << 30, 2048,
                 "bytes per pipelined piece of a part (000 section 6.3: 2 KiB)" } },
    .doc = "DOPL: dimension-ordered pipelined broadcast on the 8x6 core grid (thesis 000 chapter 6)",
};
