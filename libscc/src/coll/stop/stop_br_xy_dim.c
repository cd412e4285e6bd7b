/*
 * stop_br_xy_dim.c - 003's Br_xy_dim (sec. 2): Br_Lin within every row
 * then every column if r >= c, columns first if r < c, whatever the
 * sources. repos (003 sec. 3 lists it among the repositioning
 * algorithms): first move the sources to the lines across the first
 * dimension, filled from the first (the first ceil(s/c) rows when columns
 * go first, the first columns when rows do), so the first dimension's
 * halving pairs every source with an empty place.
 */
#include "../engine/stop.h"

static int run(struct coll_call *c)
{
    struct stop st;
    int tpos[RCCE_MAXNP], err;

    if ((err = stop_begin(&st, c)))
        return err;
    int rows_first = st.rows >= st.cols;
    if (stop_want_repos(c, c->p[STOP_P_REPOS])) {
        /* The first s places in column-major order (rows first) or
         * row-major order (columns first), as ascending row-major places. */
        int k = 0;
        for (int p = 0; p < st.n; p++)
            if (rows_first ? (p % st.cols) * st.rows + p / st.cols < c->nsrc
                           : p < c->nsrc)
                tpos[k++] = p;
        if ((err = stop_repos(&st, tpos)))
            return err;
    }
    return stop_br_2d(&st, rows_first);
}

const struct coll_alg coll_stop_br_xy_dim = {
    .name = "br_xy_dim", .op = COLL_STOP, .fn = run, .nparam = 1,
    .param = {[STOP_P_REPOS] = {"repos", 0, 2, 2, "reposition across the first dimension first (003 sec. 3): "
               "0 no, 1 yes, 2 if s<p/2, p>16, 1K<=L<=16K"}},
    .doc = "003 Br_xy_dim: Br_Lin in rows then columns if r>=c, else columns first (sec. 2)",
};
