/*
 * stop_engine.c - the machinery of the s-to-p algorithms (stop.h): the
 * grid over the members, simulated holdings, and rounds of transfers.
 */
#include <stdlib.h>
#include <string.h>

#include "stop.h"

int stop_begin(struct stop *st, struct coll_call *c)
{
    int core[RCCE_MAXNP];

    st->c = c;
    st->n = c->n;
    st->nx = 0;
    for (int r = 0; r < c->n; r++)
        core[r] = RCCE_ue_core(coll_ue(c, r));
    st->cols = scc_stop_grid(core, c->n, st->at);
    if (st->cols < 1)
        return scc_error(RCCE_ERROR_ID);
    st->rows = c->n / st->cols;
    for (int p = 0; p < c->n; p++)
        st->pos[st->at[p]] = p;
    memset(st->hold, 0, sizeof(st->hold));
    for (int k = 0; k < c->nsrc; k++) {
        st->hold[c->src[k]] = (uint64_t)1 << k;
        if (c->src[k] == c->me)
            memmove(c->out + (size_t)k * c->bytes, c->in, c->bytes);
    }
    return RCCE_SUCCESS;
}

void stop_add(struct stop *st, int from, int to, uint64_t mask)
{
    if (from != to && st->nx < STOP_MAXX)
        st->x[st->nx++] = (struct stop_xfer){from, to, mask};
}

/* Blocks lo.. of a mask that is one run: no packing needed. */
static int run_of(uint64_t m, int *lo)
{
    *lo = __builtin_ctzll(m);
    m >>= *lo;
    return (m & (m + 1)) == 0;
}

static void copy_blocks(struct stop *st, char *buf, uint64_t m, int pack)
{
    size_t b = st->c->bytes;

    for (int k = 0; m; k++, m >>= 1)
        if (m & 1) {
            char *slot = st->c->out + (size_t)k * b;
            if (pack)
                memcpy(buf, slot, b);
            else
                memcpy(slot, buf, b);
            buf += b;
        }
}

int stop_round(struct stop *st)
{
    struct coll_call *c = st->c;
    size_t b = c->bytes;
    uint64_t in[RCCE_MAXNP] = {0}, m[STOP_MAXX];
    iRCCE_SEND_REQUEST sr[RCCE_MAXNP];
    iRCCE_RECV_REQUEST rr[RCCE_MAXNP];
    char *sbuf[RCCE_MAXNP] = {0}, *rbuf[RCCE_MAXNP] = {0};
    int rx[RCCE_MAXNP], ns = 0, nr = 0, err = RCCE_SUCCESS, lo;

    for (int t = 0; t < st->nx; t++) {
        struct stop_xfer *x = &st->x[t];
        m[t] = x->mask & st->hold[x->from] & ~st->hold[x->to] & ~in[x->to];
        in[x->to] |= m[t];
    }
    /* Buffers first: a failed malloc must not leave requests posted. */
    for (int t = 0; t < st->nx; t++) {
        struct stop_xfer *x = &st->x[t];
        size_t len = (size_t)__builtin_popcountll(m[t]) * b;

        if (!m[t] || (x->to != c->me && x->from != c->me))
            continue;
        if (ns == RCCE_MAXNP || nr == RCCE_MAXNP) {
            err = scc_error(RCCE_ERROR_ID);
            goto out;
        }
        if (x->to == c->me) {
            rx[nr] = t;
            if (!run_of(m[t], &lo) && !(rbuf[nr] = malloc(len))) {
                err = scc_error(RCCE_ERROR_MALLOC);
                goto out;
            }
            nr++;
        } else {
            if (!run_of(m[t], &lo)) {
                if (!(sbuf[ns] = malloc(len))) {
                    err = scc_error(RCCE_ERROR_MALLOC);
                    goto out;
                }
                copy_blocks(st, sbuf[ns], m[t], 1);
            }
            ns++;
        }
    }
    for (int i = 0; i < nr && !err; i++) {
        struct stop_xfer *x = &st->x[rx[i]];
        size_t len = (size_t)__builtin_popcountll(m[rx[i]]) * b;
        char *dst = rbuf[i];

        if (!dst) {
            run_of(m[rx[i]], &lo);
            dst = c->out + (size_t)lo * b;
        }
        err = iRCCE_irecv(dst, (ssize_t)len, coll_ue(c, x->from), &rr[i]);
        err = err == iRCCE_PENDING ? RCCE_SUCCESS : err;
    }
    for (int t = 0, i = 0; t < st->nx && !err; t++) {
        struct stop_xfer *x = &st->x[t];
        size_t len = (size_t)__builtin_popcountll(m[t]) * b;
        char *src = sbuf[i];

        if (!m[t] || x->from != c->me)
            continue;
        if (!src) {
            run_of(m[t], &lo);
            src = c->out + (size_t)lo * b;
        }
        err = iRCCE_isend(src, (ssize_t)len, coll_ue(c, x->to), &sr[i++]);
        err = err == iRCCE_PENDING ? RCCE_SUCCESS : err;
    }
    for (int i = 0; i < ns && !err; i++)
        err = iRCCE_isend_wait(&sr[i]);
    for (int i = 0; i < nr && !err; i++)
        if (!(err = iRCCE_irecv_wait(&rr[i])) && rbuf[i])
            copy_blocks(st, rbuf[i], m[rx[i]], 0);
    for (int r = 0; r < st->n; r++)
        st->hold[r] |= in[r];
out:
    for (int i = 0; i < RCCE_MAXNP; i++) {
        free(sbuf[i]);
        free(rbuf[i]);
    }
    st->nx = 0;
    return err;
}

int stop_repos(struct stop *st, const int *tpos)
{
    const struct coll_call *c = st->c;
    int s = c->nsrc, dst[RCCE_MAXNP], taken[RCCE_MAXNP] = {0}, target[RCCE_MAXNP] = {0};
    int err;

    for (int k = 0; k < s; k++)
        target[st->at[tpos[k]]] = 1;
    /* A source already on a target place stays: less to move. */
    for (int k = 0; k < s; k++) {
        dst[k] = target[c->src[k]] ? c->src[k] : -1;
        if (dst[k] >= 0)
            taken[dst[k]] = 1;
    }
    for (int k = 0, r = 0; k < s; k++) {
        if (dst[k] >= 0)
            continue;
        while (!target[r] || taken[r])
            r++;
        dst[k] = r;
        taken[r] = 1;
        stop_add(st, c->src[k], r, (uint64_t)1 << k);
    }
    if ((err = stop_round(st)))
        return err;
    memset(st->hold, 0, sizeof(st->hold));
    for (int k = 0; k < s; k++)
        st->hold[dst[k]] |= (uint64_t)1 << k;
    return RCCE_SUCCESS;
}

int stop_br_lin(struct stop *st, const int *lines, int nlines, int len)
{
    int a[RCCE_MAXNP], m[RCCE_MAXNP], nseg = 1, err;

    a[0] = 0, m[0] = len;
    for (;;) {
        int na[RCCE_MAXNP], nm[RCCE_MAXNP], n2 = 0, any = 0;

        for (int g = 0; g < nseg; g++) {
            int h = m[g] / 2, H = m[g] - h, s0 = a[g];

            if (m[g] < 2) {
                na[n2] = s0, nm[n2++] = m[g];
                continue;
            }
            any = 1;
            for (int l = 0; l < nlines; l++) {
                const int *L = lines + (size_t)l * len;
                for (int i = 0; i < h; i++) {
                    stop_add(st, L[s0 + i], L[s0 + H + i], STOP_ALL);
                    stop_add(st, L[s0 + H + i], L[s0 + i], STOP_ALL);
                }
                /* Odd: the unpaired last of the first half gives its
                 * blocks to the second half, which would never see them. */
                if (H > h)
                    stop_add(st, L[s0 + h], L[s0 + H], STOP_ALL);
            }
            na[n2] = s0, nm[n2++] = H;
            na[n2] = s0 + H, nm[n2++] = h;
        }
        if (!any)
            return RCCE_SUCCESS;
        if ((err = stop_round(st)))
            return err;
        nseg = n2;
        memcpy(a, na, sizeof(int) * (size_t)n2);
        memcpy(m, nm, sizeof(int) * (size_t)n2);
    }
}

void stop_snake(const struct stop *st, int *line)
{
    for (int y = 0; y < st->rows; y++)
        for (int x = 0; x < st->cols; x++)
            line[y * st->cols + x] = st->at[y * st->cols + (y & 1 ? st->cols - 1 - x : x)];
}

void stop_rows(const struct stop *st, int *lines)
{
    memcpy(lines, st->at, sizeof(int) * (size_t)st->n);
}

void stop_cols(const struct stop *st, int *lines)
{
    for (int x = 0; x < st->cols; x++)
        for (int y = 0; y < st->rows; y++)
            lines[x * st->rows + y] = st->at[y * st->cols + x];
}

int stop_want_repos(const struct coll_call *c, long repos)
{
    if (repos != 2)
        return repos == 1;
    return 2 * c->nsrc < c->n && c->n > 16 && c->bytes >= 1024 && c->bytes <= 16384;
}

int stop_begin_at(struct stop *st, struct coll_call *c, const char *dist)
{
    int tpos[RCCE_MAXNP], err;

    if ((err = stop_begin(st, c)) || !stop_want_repos(c, c->p[STOP_P_REPOS]))
        return err;
    scc_stop_sources(dist, c->nsrc, st->n, st->cols, 0, tpos);
    return stop_repos(st, tpos);
}

int stop_br_2d(struct stop *st, int rows_first)
{
    int rows[RCCE_MAXNP], cols[RCCE_MAXNP], err;

    stop_rows(st, rows);
    stop_cols(st, cols);
    if (rows_first) {
        if (!(err = stop_br_lin(st, rows, st->rows, st->cols)))
            err = stop_br_lin(st, cols, st->cols, st->rows);
    } else {
        if (!(err = stop_br_lin(st, cols, st->cols, st->rows)))
            err = stop_br_lin(st, rows, st->rows, st->cols);
    }
    return err;
}
