/*
 * reduce_bucket_relaxed.c - 004's optimized reduce (Kohler & Radetzki, section III
 * applied to Reduce, section IV): bucket reduce-scatter then gather to the
 * root, each optimization selectable. relaxed=0,nb=0,balanced=0 is
 * reduce "bucket". With relaxed=1,nb=0 the root posts every iRCCE
 * receive of the gather at once; RCCEnb receives one at a time.
 */
#include "../engine/bucket.h"

static int run(struct coll_call *c)
{
    return coll_bucket_reduce(c, coll_prim_of(c),
                              (int)c->p[BUCKET_P_BALANCED]);
}

const struct coll_alg coll_reduce_bucket_relaxed = {
    .name = "bucket_relaxed", .op = COLL_REDUCE, .fn = run, .nparam = 3,
    .param = { [BUCKET_P_RELAXED] = { "relaxed", 0, 1, 1, "1: start send and receive, wait once per round (004 III.A, Alg. 2); 0: RCCE_comm odd-even order (Alg. 1)" },
               [BUCKET_P_NB] = { "nb", 0, 1, 1, "1: RCCEnb lightweight primitives (004 III.B); 0: iRCCE (relaxed=1) or blocking RCCE (relaxed=0)" },
               [BUCKET_P_BALANCED] = { "balanced", 0, 1, 1, "1: first num%n buckets one element larger (004 III.C); 0: remainder all in bucket 0 (RCCE_comm)" } },
    .doc = "bucket reduce-scatter + gather with 004's optimizations (004 section III, IV)",
};
