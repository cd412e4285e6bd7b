/*
 * allreduce_inmpb.c - 004's data-flow optimized bucket allreduce (Kohler &
 * Radetzki, section III.D, Fig. 4b): the in-MPB reduce-scatter ring
 * (inmpb.c), then the allgather ring forwarding the finished buckets the
 * same way, through MPBs. Buckets are balanced (III.C).
 */
#include "../engine/bucket.h"

static int run(struct coll_call *c)
{
    return coll_inmpb(c, INMPB_RING_AG);
}

const struct coll_alg coll_allreduce_inmpb = {
    .name = "inmpb", .op = COLL_ALLREDUCE, .fn = run,
    .doc = "bucket allreduce with the data kept in double-buffered MPB halves "
           "(004 section III.D, Fig. 4b), balanced buckets",
};
