/*
 * bcast_twotree.c - 002 IV.D: the paper's Two Tree broadcast on blocking
 * RCCE (RCCE_bcast_2tree): the root feeds two chains that split the
 * members.
 */
#include "../engine/bcast_pipe.h"

static int run(struct coll_call *c)
{
    return coll_bcast_shape(c, coll_pipe_twotree, 0);
}

const struct coll_alg coll_bcast_twotree = {
    .name = "twotree", .op = COLL_BCAST, .fn = run, .nparam = 1,
    .param = { [PIPE_P_CHUNK] = { "chunk", 0, 1L << 30, 0,
                 "bytes forwarded at a time; 0 = the whole message" } },
    .doc = "two-tree (root feeds two chains) on blocking RCCE (002 section IV.D)",
};
