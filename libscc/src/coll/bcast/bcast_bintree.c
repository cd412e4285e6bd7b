/*
 * bcast_bintree.c - 002 IV.C: binary tree broadcast on blocking RCCE
 * send/recv (RCCE_bcast_binary).
 */
#include "../engine/bcast_pipe.h"

static int run(struct coll_call *c)
{
    return coll_bcast_shape(c, coll_pipe_bintree, 0);
}

const struct coll_alg coll_bcast_bintree = {
    .name = "bintree", .op = COLL_BCAST, .fn = run, .nparam = 1,
    .param = { [PIPE_P_CHUNK] = { "chunk", 0, 1L << 30, 0,
                 "bytes forwarded at a time; 0 = the whole message" } },
    .doc = "binary tree broadcast on blocking RCCE (002 section IV.C)",
};
