/*
 * allreduce_bucket_relaxed.c - 004's optimized bucket allreduce (Kohler &
 * Radetzki, section III.A-C), each step selectable so that the paper's
 * step-by-step comparison can be rerun: relaxed synchronization on
 * non-blocking primitives (Alg. 2), RCCEnb instead of iRCCE, balanced
 * bucket sizes. relaxed=0,nb=0,balanced=0 is allreduce "bucket".
 */
#include "../engine/bucket.h"

static int run(struct coll_call *c)
{
    return coll_bucket_allreduce(c, coll_prim_of(c),
                                 (int)c->p[BUCKET_P_BALANCED]);
}

const struct coll_alg coll_allreduce_bucket_relaxed = {
    .name = "bucket_relaxed", .op = COLL_ALLREDUCE, .fn = run, .nparam = 3,
    .param = { [BUCKET_P_RELAXED] = { "relaxed", 0, 1, 1, "1: start send and receive, wait once per round (004 III.A, Alg. 2); 0: RCCE_comm odd-even order (Alg. 1)" },
               [BUCKET_P_NB] = { "nb", 0, 1, 1, "1: RCCEnb lightweight primitives (004 III.B); 0: iRCCE (relaxed=1) or blocking RCCE (relaxed=0)" },
               [BUCKET_P_BALANCED] = { "balanced", 0, 1, 1, "1: first num%n buckets one element larger (004 III.C); 0: remainder all in bucket 0 (RCCE_comm)" } },
    .doc = "bucket allreduce with 004's optimizations (004 section III.A-C)",
};
