/*
 * reduce_scatter_inmpb.c - ours: 004's in-MPB reduce-scatter ring
 * (section III.D, Fig. 4b; inmpb.c) as a reduce_scatter of its own: the
 * partial bucket of each round stays in MPBs, and member i's finished
 * bucket is its block i. RCCE_comm's bucket ring moves each partial
 * through the sender's private memory (a get and a put per round).
 */
#include "../engine/bucket.h"

static int run(struct coll_call *c)
{
    return coll_inmpb(c, INMPB_NONE);
}

const struct coll_alg coll_reduce_scatter_inmpb = {
    .name = "inmpb", .op = COLL_REDUCE_SCATTER, .fn = run,
    .doc = "ours: 004's in-MPB reduce-scatter ring (III.D), block i ending on rank i",
};
