/*
 * reduce_inmpb.c - ours: reduce as a reduce-scatter and a gather
 * (Rabenseifner's idea) on the chip's MPBs: 004's in-MPB reduce-scatter
 * ring with balanced buckets (inmpb.c), then the root gets every finished
 * bucket straight from its owner's MPB region. Every member combines only
 * 1/n of the vector, and the data never passes through a sender's private
 * memory, where RCCE_comm's bucket reduce puts and gets it twice.
 */
#include "../engine/bucket.h"

static int run(struct coll_call *c)
{
    return coll_inmpb(c, INMPB_GATHER);
}

const struct coll_alg coll_reduce_inmpb = {
    .name = "inmpb", .op = COLL_REDUCE, .fn = run,
    .doc = "ours: in-MPB reduce-scatter ring (004 III.D) + the root getting each "
           "finished bucket from its owner's MPB region",
};
