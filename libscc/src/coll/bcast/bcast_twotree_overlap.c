/*
 * bcast_twotree_overlap.c - 002 IV.D: the paper's Two Tree broadcast on non-
 * blocking iRCCE (iRCCE_bcast_2tree), pipelined in chunks.
 */
#include "../engine/bcast_pipe.h"

static int run(struct coll_call *c)
{
    return coll_bcast_shape(c, coll_pipe_twotree, 1);
}

const struct coll_alg coll_bcast_twotree_overlap = {
    .name = "twotree_overlap", .op = COLL_BCAST, .fn = run, .nparam = 1,
    .param = { [PIPE_P_CHUNK] = { "chunk", 0, 1L << 30, 1920,
                 "bytes forwarded at a time; 0 = the whole message" } },
    .doc = "pipelined two-tree (root feeds two chains) on iRCCE (002 section IV.D)",
};
