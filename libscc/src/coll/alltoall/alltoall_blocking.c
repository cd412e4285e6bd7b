/*
 * alltoall_blocking.c - the baseline alltoall of the 004 comparison
 * (Kohler & Radetzki, section IV) on blocking RCCE send/recv: n-1 steps
 * of pairwise exchange (step s: send to i+s, receive from i-s), the lower
 * rank of each pair sending first (order=1: odd-even along each step's
 * cycles, as RCCE_comm's rings order their sends). 004 does not describe
 * RCCE_comm's alltoall algorithm, so this is named for what it is.
 */
#include "../engine/bucket.h"

enum { ALLTOALL_P_ORDER };                  /* the parameter, by name */

static int run(struct coll_call *c)
{
    return coll_pairwise_alltoall(c, (struct coll_prim){ 0, 0 }, (int)c->p[ALLTOALL_P_ORDER]);
}

const struct coll_alg coll_alltoall_blocking = {
    .name = "blocking", .op = COLL_ALLTOALL, .fn = run, .nparam = 1,
    .param = { [ALLTOALL_P_ORDER] = { "order", 0, 1, 0,
                 "0: the lower rank of each pair sends first (a step's sends complete "
                 "one after another, up to n - 1 in a row); 1: odd-even along each "
                 "step's cycles (two or three in a row)" } },
    .doc = "pairwise exchange on blocking RCCE, lower rank sends first "
           "(baseline for 004 section IV)",
};
