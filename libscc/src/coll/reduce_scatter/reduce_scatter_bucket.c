/*
 * reduce_scatter_bucket.c - RCCE_comm's reduce_scatter as 004 (Kohler &
 * Radetzki) optimized it: the bucket reduce-scatter ring of Barnett's
 * algorithm (004 section III, Fig. 1), n-1 rounds on blocking RCCE
 * send/recv in the odd-even order of 004 Alg. 1. The blocks are the
 * caller's (num elements each), so bucket sizing does not arise.
 */
#include "../engine/bucket.h"

static int run(struct coll_call *c)
{
    return coll_bucket_reduce_scatter(c, (struct coll_prim){ 0, 0 });
}

const struct coll_alg coll_reduce_scatter_bucket = {
    .name = "bucket", .op = COLL_REDUCE_SCATTER, .fn = run,
    .doc = "bucket reduce-scatter ring on blocking RCCE, odd-even order "
           "(RCCE_comm, 004 section III, Alg. 1)",
};
