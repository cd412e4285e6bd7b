/*
 * stop_2step.c - 003's 2-Step (sec. 2, sec. 5.1): an s-to-one gather to
 * P_0 (one round: P_0 takes all s blocks, congestion O(s), 003 fig. 2),
 * then a 1-to-p broadcast with Br_Lin's pattern on the snake-ordered grid
 * (P_i with P_{i+p/2}, then each half). P_0 is grid place (0, 0).
 * repos=1 first moves the sources to E(s), the distribution 003 sec. 5.3
 * found best for the MPI 2-Step (MPI_AllGather) on the T3D.
 */
#include "../engine/stop.h"

static int run(struct coll_call *c)
{
    struct stop st;
    int line[RCCE_MAXNP], err;

    if ((err = stop_begin_at(&st, c, "E")))
        return err;
    stop_snake(&st, line);
    for (int r = 0; r < st.n; r++)
        stop_add(&st, r, line[0], STOP_ALL);
    if ((err = stop_round(&st)))
        return err;
    return stop_br_lin(&st, line, 1, st.n);
}

const struct coll_alg coll_stop_2step = {
    .name = "2step", .op = COLL_STOP, .fn = run, .nparam = 1,
    .param = {[STOP_P_REPOS] = {"repos", 0, 2, 0, "move the sources to E(s) first (003 sec. 5.3): "
               "0 no, 1 yes, 2 if s<p/2, p>16, 1K<=L<=16K"}},
    .doc = "003 2-Step: gather at P_0, then Br_Lin-pattern 1-to-p broadcast (sec. 2, 5.1)",
};
