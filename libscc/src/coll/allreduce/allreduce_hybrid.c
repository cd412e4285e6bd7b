/*
 * allreduce_hybrid.c - ours: 004's in-MPB reduce-scatter ring (section
 * III.D, balanced buckets, III.C) followed by a ONE-SIDED allgather: each
 * member leaves its finished bucket in its region and signals every other
 * member, which read it straight from there (coll_region_of) and signal
 * back. The n-1 dependent rounds of the allgather ring become one round
 * of n-1 independent gets (README: why it should win in the middle range).
 */
#include "../engine/bucket.h"

static int run(struct coll_call *c)
{
    return coll_inmpb(c, INMPB_DIRECT_AG);
}

const struct coll_alg coll_allreduce_hybrid = {
    .name = "hybrid", .op = COLL_ALLREDUCE, .fn = run,
    .doc = "ours: in-MPB reduce-scatter ring (004 III.D) + one-sided allgather "
           "from the owners' MPB regions",
};
