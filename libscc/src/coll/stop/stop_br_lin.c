/*
 * stop_br_lin.c - 003's Br_Lin (sec. 2): the grid as a snake-ordered
 * linear array; P_i and P_{i+p/2} exchange (or one sends) everything the
 * other lacks, combining blocks, then each half recurses: ceil(log p)
 * rounds. For odd lengths the unpaired middle member also hands its
 * blocks to the second half. repos: 003 sec. 3/5.2's Repos_Lin, first
 * moving the sources to the left diagonal Dl(s), Br_Lin's ideal
 * distribution (003 sec. 4, 5.2).
 */
#include "../engine/stop.h"

static int run(struct coll_call *c)
{
    struct stop st;
    int line[RCCE_MAXNP], err;

    if ((err = stop_begin_at(&st, c, "Dl")))
        return err;
    stop_snake(&st, line);
    return stop_br_lin(&st, line, 1, st.n);
}

const struct coll_alg coll_stop_br_lin = {
    .name = "br_lin", .op = COLL_STOP, .fn = run, .nparam = 1,
    .param = {[STOP_P_REPOS] = {"repos", 0, 2, 2, "reposition to Dl(s) first (Repos_Lin, 003 sec. 3): "
               "0 no, 1 yes, 2 if s<p/2, p>16, 1K<=L<=16K (003 sec. 5.2)"}},
    .doc = "003 Br_Lin: recursive halving exchange on the snake-ordered grid (sec. 2)",
};
