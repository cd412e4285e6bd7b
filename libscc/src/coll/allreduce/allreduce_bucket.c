/*
 * allreduce_bucket.c - RCCE_comm's allreduce for long vectors as 004
 * (Kohler & Radetzki) section III describes it: Barnett's bucket
 * algorithm, a reduce-scatter ring of n-1 rounds then an allgather ring
 * of n-1 rounds, on blocking RCCE send/recv in the odd-even order of
 * 004 Alg. 1, with RCCE_comm's bucket sizing (floor(num/n) elements each,
 * the whole remainder in bucket 0: up to 5.3:1 unbalanced, 004 III.C).
 */
#include "../engine/bucket.h"

static int run(struct coll_call *c)
{
    return coll_bucket_allreduce(c, (struct coll_prim){ 0, 0 }, 0);
}

const struct coll_alg coll_allreduce_bucket = {
    .name = "bucket", .op = COLL_ALLREDUCE, .fn = run,
    .doc = "RCCE_comm's bucket allreduce on blocking RCCE, unbalanced buckets "
           "(004 section III, Alg. 1, III.C)",
};
