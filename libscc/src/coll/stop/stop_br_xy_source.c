/*
 * stop_br_xy_source.c - 003's Br_xy_source (sec. 2): Br_Lin within every
 * row, then within every column, or columns first: rows first iff
 * max_r < max_c (the most sources in a row, in a column), so that the
 * second dimension starts with short messages. repos: Repos_xy_source
 * (003 sec. 5.2), first moving the sources to a row distribution whose
 * rows make new sources as fast as possible: the first ceil(s/c) rows,
 * which the columns' first halving pairs with empty rows.
 */
#include "../engine/stop.h"

static int run(struct coll_call *c)
{
    struct stop st;
    int tpos[RCCE_MAXNP], err;
    int in_row[RCCE_MAXNP] = {0}, in_col[RCCE_MAXNP] = {0}, max_r = 0, max_c = 0;

    if ((err = stop_begin(&st, c)))
        return err;
    if (stop_want_repos(c, c->p[STOP_P_REPOS])) {
        for (int k = 0; k < c->nsrc; k++)
            tpos[k] = k;
        if ((err = stop_repos(&st, tpos)))
            return err;
    }
    for (int p = 0; p < st.n; p++)
        if (st.hold[st.at[p]]) {
            int y = p / st.cols, x = p % st.cols;
            max_r = ++in_row[y] > max_r ? in_row[y] : max_r;
            max_c = ++in_col[x] > max_c ? in_col[x] : max_c;
        }
    return stop_br_2d(&st, max_r < max_c);
}

const struct coll_alg coll_stop_br_xy_source = {
    .name = "br_xy_source", .op = COLL_STOP, .fn = run, .nparam = 1,
    .param = {[STOP_P_REPOS] = {"repos", 0, 2, 2, "reposition to the first rows first (Repos_xy_source, "
               "003 sec. 5.2): 0 no, 1 yes, 2 if s<p/2, p>16, 1K<=L<=16K"}},
    .doc = "003 Br_xy_source: Br_Lin in rows and columns, fewer-sources dimension first (sec. 2)",
};
