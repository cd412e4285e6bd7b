/*
 * bcast_chain_nb.c - 002 IV.B: chain broadcast on non-blocking iRCCE
 * isend/irecv (iRCCE_bcast_chain): receives of the next chunks are posted
 * while a chunk is forwarded; chunk default = half the MPB payload buffer,
 * iRCCE's pipelining unit the paper relies on.
 */
#include "bcast_pipe.h"

static int run(struct coll_call *c)
{
    int n = c->n, r = (c->me - c->root + n) % n, parent = -1, kids[2], nk = 0;

    /* 002 IV.B: each member receives from its predecessor and sends to
     * its successor; the last one only receives */
    if (r > 0)
        parent = r - 1;
    if (r + 1 < n)
        kids[nk++] = r + 1;
    for (int k = 0; k < nk; k++)
        kids[k] = coll_bcast_abs(c, kids[k]);
    return coll_bcast_pipe(c, parent < 0 ? -1 : coll_bcast_abs(c, parent), kids, nk,
                           (size_t)c->p[0], 1);
}

const struct coll_alg coll_bcast_chain_nb = {
    .name = "chain_nb", .op = COLL_BCAST, .fn = run, .nparam = 1,
    .param = { { "chunk", 0, 1L << 30, 1920,
                 "bytes forwarded at a time; 0 = the whole message" } },
    .doc = "pipelined chain broadcast on iRCCE isend/irecv (002 section IV.B)",
};
