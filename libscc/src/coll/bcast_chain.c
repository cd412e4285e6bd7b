/*
 * bcast_chain.c - 002 (RCCE broadcast paper) IV.B: chain broadcast on
 * blocking RCCE send/recv, the message forwarded whole (chunk=0, as the
 * paper's RCCE_bcast_chain) or in chunks.
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
                           (size_t)c->p[0], 0);
}

const struct coll_alg coll_bcast_chain = {
    .name = "chain", .op = COLL_BCAST, .fn = run, .nparam = 1,
    .param = { { "chunk", 0, 1L << 30, 0,
                 "bytes forwarded at a time; 0 = the whole message" } },
    .doc = "chain broadcast on blocking RCCE (002 section IV.B)",
};
