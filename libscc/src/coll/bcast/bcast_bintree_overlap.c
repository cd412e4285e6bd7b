/*
 * bcast_bintree_overlap.c - 002 IV.C: binary tree broadcast on non-blocking
 * iRCCE (iRCCE_bcast_binary), pipelined in chunks.
 */
#include "../engine/bcast_pipe.h"

static int run(struct coll_call *c)
{
    return coll_bcast_shape(c, coll_pipe_bintree, 1);
}

const struct coll_alg coll_bcast_bintree_overlap = {
    .name = "bintree_overlap", .op = COLL_BCAST, .fn = run, .nparam = 1,
    .param = { [PIPE_P_CHUNK] = { "chunk", 0, 1L << 30, 1920,
                 "bytes forwarded at a time; 0 = the whole message" } },
    .doc = "pipelined binary tree broadcast on iRCCE isend/irecv (002 section IV.C)",
};
