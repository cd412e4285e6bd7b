/*
 * bcast_chain_overlap.c - 002 IV.B: chain broadcast on non-blocking iRCCE
 * isend/irecv (iRCCE_bcast_chain): receives of the next chunks are posted
 * while a chunk is forwarded; chunk default = half the MPB payload buffer,
 * iRCCE's pipelining unit the paper relies on.
 */
#include "../engine/bcast_pipe.h"

static int run(struct coll_call *c)
{
    return coll_bcast_shape(c, coll_pipe_chain, 1);
}

const struct coll_alg coll_bcast_chain_overlap = {
    .name = "chain_overlap", .op = COLL_BCAST, .fn = run, .nparam = 1,
    .param = { [PIPE_P_CHUNK] = { "chunk", 0, 1L << 30, 1920,
                 "bytes forwarded at a time; 0 = the whole message" } },
    .doc = "pipelined chain broadcast on iRCCE isend/irecv (002 section IV.B)",
};
