/*
 * bcast_chain.c - 002 (RCCE broadcast paper) IV.B: chain broadcast on
 * blocking RCCE send/recv, the message forwarded whole (chunk=0, as the
 * paper's RCCE_bcast_chain) or in chunks.
 */
#include "../engine/bcast_pipe.h"

static int run(struct coll_call *c)
{
    return coll_bcast_shape(c, coll_pipe_chain, 0);
}

const struct coll_alg coll_bcast_chain = {
    .name = "chain", .op = COLL_BCAST, .fn = run, .nparam = 1,
    .param = { [PIPE_P_CHUNK] = { "chunk", 0, 1L << 30, 0,
                 "bytes forwarded at a time; 0 = the whole message" } },
    .doc = "chain broadcast on blocking RCCE (002 section IV.B)",
};
