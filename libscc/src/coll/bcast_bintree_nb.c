/*
 * bcast_bintree_nb.c - 002 IV.C: binary tree broadcast on non-blocking
 * iRCCE (iRCCE_bcast_binary), pipelined in chunks.
 */
#include "bcast_pipe.h"

static int run(struct coll_call *c)
{
    int n = c->n, r = (c->me - c->root + n) % n, parent = -1, kids[2], nk = 0;

    /* 002 IV.C: heap-ordered binary tree, every parent has two children */
    if (r > 0)
        parent = (r - 1) / 2;
    for (int k = 2 * r + 1; k <= 2 * r + 2 && k < n; k++)
        kids[nk++] = k;
    for (int k = 0; k < nk; k++)
        kids[k] = coll_bcast_abs(c, kids[k]);
    return coll_bcast_pipe(c, parent < 0 ? -1 : coll_bcast_abs(c, parent), kids, nk,
                           (size_t)c->p[0], 1);
}

const struct coll_alg coll_bcast_bintree_nb = {
    .name = "bintree_nb", .op = COLL_BCAST, .fn = run, .nparam = 1,
    .param = { { "chunk", 0, 1L << 30, 1920,
                 "bytes forwarded at a time; 0 = the whole message" } },
    .doc = "pipelined binary tree broadcast on iRCCE isend/irecv (002 section IV.C)",
};
