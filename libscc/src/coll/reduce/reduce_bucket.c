/*
 * reduce_bucket.c - RCCE_comm's reduce for long vectors, as 004 (Kohler &
 * Radetzki) measured it: the bucket reduce-scatter ring (the first half of
 * 004's Barnett allreduce, with RCCE_comm's unbalanced bucket sizing,
 * III.C; the "ramp-like latency increments" of 004 section IV), then a
 * gather of the buckets to the root, on blocking RCCE send/recv.
 */
#include "../engine/bucket.h"

static int run(struct coll_call *c)
{
    return coll_bucket_reduce(c, (struct coll_prim){ 0, 0 }, 0);
}

const struct coll_alg coll_reduce_bucket = {
    .name = "bucket", .op = COLL_REDUCE, .fn = run,
    .doc = "bucket reduce-scatter then gather to the root, blocking RCCE, unbalanced "
           "buckets (RCCE_comm as in 004 section III/IV)",
};
