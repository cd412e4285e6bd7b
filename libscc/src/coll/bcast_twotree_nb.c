/*
 * bcast_twotree_nb.c - 002 IV.D: the paper's Two Tree broadcast on non-
 * blocking iRCCE (iRCCE_bcast_2tree), pipelined in chunks.
 */
#include "bcast_pipe.h"

static int run(struct coll_call *c)
{
    int n = c->n, r = (c->me - c->root + n) % n, parent = -1, kids[2], nk = 0;

    /* 002 IV.D: P0 heads the chain P0..Pm-1 and feeds the second chain
     * Pm..Pn-1, m = n/2 + 1 for even n, n/2 for odd n (Fig. 8); each
     * chain carries the whole message */
    int m = n % 2 ? n / 2 : n / 2 + 1;

    if (m < 1 || m > n)
        m = n;
    if (r == 0) {
        if (m > 1)
            kids[nk++] = 1;
        if (m < n)
            kids[nk++] = m;
    } else {
        parent = r == m ? 0 : r - 1;
        if (r + 1 < n && r + 1 != m)
            kids[nk++] = r + 1;
    }
    for (int k = 0; k < nk; k++)
        kids[k] = coll_bcast_abs(c, kids[k]);
    return coll_bcast_pipe(c, parent < 0 ? -1 : coll_bcast_abs(c, parent), kids, nk,
                           (size_t)c->p[0], 1);
}

const struct coll_alg coll_bcast_twotree_nb = {
    .name = "twotree_nb", .op = COLL_BCAST, .fn = run, .nparam = 1,
    .param = { { "chunk", 0, 1L << 30, 1920,
                 "bytes forwarded at a time; 0 = the whole message" } },
    .doc = "pipelined two-tree (root feeds two chains) on iRCCE (002 section IV.D)",
};
