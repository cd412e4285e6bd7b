/*
 * stop_sources.c - where the sources of an s-to-p broadcast are: the grid
 * the s-to-p algorithms lay the members on (scc_stop_grid), and the
 * source distributions of 003 section 4 (scc_stop_sources).
 *
 * The grid. The SCC's 24 tiles form a 6 x 4 mesh with 2 cores per tile;
 * core c sits at x = 2 * (tile % 6) + c % 2, y = tile / 6 (tile = c / 2),
 * so the chip is a 12 x 4 core grid (rows <= columns, as 003 assumes).
 * Members that fill a rectangle of it keep their physical places (the
 * whole chip: 12 x 4; cores 0-23: 12 x 2). Any other set is ordered by
 * physical place (row-major) and laid row-major on an r x (n / r) grid,
 * r the largest divisor of n with 3 r * r <= n, i.e. at most as square as
 * the chip (47 members: 47 x 1, 12: 6 x 2). Every grid is full, so every
 * row and every column is a complete line for Br_Lin.
 */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "../core/coll.h"

int scc_stop_grid(const int *core, int n, int *rank_at)
{
    int x[RCCE_MAXNP], y[RCCE_MAXNP], x0 = 1 << 20, x1 = -1, y0 = 1 << 20, y1 = -1;
    int order[RCCE_MAXNP], r = 1;

    if (!core || !rank_at || n < 1 || n > RCCE_MAXNP)
        return -1;
    for (int i = 0; i < n; i++) {
        int tile = core[i] / 2;
        x[i] = 2 * (tile % 6) + core[i] % 2;
        y[i] = tile / 6;
        x0 = x[i] < x0 ? x[i] : x0, x1 = x[i] > x1 ? x[i] : x1;
        y0 = y[i] < y0 ? y[i] : y0, y1 = y[i] > y1 ? y[i] : y1;
    }
    if ((x1 - x0 + 1) * (y1 - y0 + 1) == n) {
        int w = x1 - x0 + 1, seen[RCCE_MAXNP] = {0}, ok = 1;
        for (int i = 0; i < n && ok; i++) {
            int p = (y[i] - y0) * w + x[i] - x0;
            ok = !seen[p]++;
            rank_at[p] = i;
        }
        if (ok)
            return w;
    }
    for (int i = 0; i < n; i++) {       /* insertion sort by place */
        int j = i, key = y[i] * 12 + x[i];
        for (; j > 0 && y[order[j - 1]] * 12 + x[order[j - 1]] > key; j--)
            order[j] = order[j - 1];
        order[j] = i;
    }
    for (int d = 1; 3 * d * d <= n; d++)
        if (n % d == 0)
            r = d;
    memcpy(rank_at, order, sizeof(int) * (size_t)n);
    return n / r;
}

struct grid {
    int n, rows, cols, s, got;
    char *mark;
};

/* Mark (y, x) (columns wrap, 003's "wrap-around" for diagonals). */
static void put(struct grid *g, int y, int x)
{
    int p;

    x = ((x % g->cols) + g->cols) % g->cols;
    p = y * g->cols + x;
    if (g->got < g->s && y >= 0 && y < g->rows && p < g->n && !g->mark[p]) {
        g->mark[p] = 1;
        g->got++;
    }
}

/* d diagonals of one cell per row, the first from (0, 0) ((0, c-1) for
 * the left ones), the others spaced evenly. */
static void diagonals(struct grid *g, int left)
{
    int d = (g->s + g->rows - 1) / g->rows;

    for (int k = 0; k < d; k++) {
        int x = k * g->cols / d;
        for (int t = 0; t < g->rows; t++)
            put(g, t, left ? g->cols - 1 - x - t : x + t);
    }
}

static void band(struct grid *g)
{
    int b = (g->cols + g->rows - 1) / g->rows;
    int w = (g->s + b * g->rows - 1) / (b * g->rows);

    for (int j = 0; j < w; j++)
        for (int k = 0; k < b; k++)
            for (int t = 0; t < g->rows; t++)
                put(g, t, k * g->cols / b + j + t);
}

static void cross(struct grid *g)
{
    int k = 1, lim = g->rows < g->cols ? g->rows : g->cols;
    int ri = 0, ci = 0, nr, nc;

    while (k < lim && k * g->cols + k * g->rows - k * k < g->s)
        k++;
    nr = k * g->cols, nc = k * g->rows;
    /* Alternate: the row part and the column part stay about equal. */
    while (g->got < g->s && (ri < nr || ci < nc)) {
        for (int before = g->got; ri < nr && g->got == before; ri++)
            put(g, (ri / g->cols) * g->rows / k, ri % g->cols);
        for (int before = g->got; ci < nc && g->got == before; ci++)
            put(g, ci % g->rows, (ci / g->rows) * g->cols / k);
    }
}

static void square(struct grid *g)
{
    int q = 1;

    while (q * q < g->s)
        q++;
    if (q > g->rows)
        q = g->rows;
    for (int t = 0; t < g->s; t++)       /* column by column */
        put(g, t % q, t / q);
}

static void uniform(struct grid *g, unsigned seed)
{
    int perm[4096];

    for (int i = 0; i < g->n; i++)
        perm[i] = i;
    for (int i = 0; i < g->s; i++) {
        int j;
        seed = seed * 1103515245u + 12345u;
        j = i + (int)((seed >> 8) % (unsigned)(g->n - i));
        int t = perm[i];
        perm[i] = perm[j], perm[j] = t;
        put(g, perm[i] / g->cols, perm[i] % g->cols);
    }
}

int scc_stop_sources(const char *dist, int s, int n, int cols, unsigned seed, int *out)
{
    struct grid g = {n, 0, cols, s, 0, NULL};

    if (!dist || !out || n < 1 || n > 4096 || s < 1 || s > n || cols < 1 || cols > n)
        return -1;
    g.rows = (n + cols - 1) / cols;
    if (!(g.mark = calloc((size_t)n, 1)))
        return -1;
    if (!strcasecmp(dist, "R")) {
        int i = (s + cols - 1) / cols;
        for (int t = 0; t < i * cols; t++)
            put(&g, (t / cols) * g.rows / i, t % cols);
    } else if (!strcasecmp(dist, "C")) {
        int i = (s + g.rows - 1) / g.rows;
        for (int t = 0; t < i * g.rows; t++)
            put(&g, t % g.rows, (t / g.rows) * cols / i);
    } else if (!strcasecmp(dist, "E")) {
        for (int k = 0; k < s; k++)
            put(&g, (int)((long)k * n / s) / cols, (int)((long)k * n / s) % cols);
    } else if (!strcasecmp(dist, "Dr") || !strcasecmp(dist, "Dl")) {
        diagonals(&g, dist[1] == 'l' || dist[1] == 'L');
    } else if (!strcasecmp(dist, "B")) {
        band(&g);
    } else if (!strcasecmp(dist, "Cr")) {
        cross(&g);
    } else if (!strcasecmp(dist, "Sq")) {
        square(&g);
    } else if (!strcasecmp(dist, "U")) {
        uniform(&g, seed);
    } else {
        free(g.mark);
        return -1;
    }
    /* Where a pattern does not fit the grid (a partial last row, a square
     * taller than the grid), the rest goes to the first free places. */
    for (int p = 0; p < n && g.got < s; p++)
        put(&g, p / cols, p % cols);
    for (int p = 0, k = 0; p < n; p++)
        if (g.mark[p])
            out[k++] = p;
    free(g.mark);
    return s;
}
