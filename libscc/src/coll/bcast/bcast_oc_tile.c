/*
 * bcast_oc_tile.c - OC-Bcast (001 section 4) with one MPB copy per tile.
 * Ours, after the second optimisation 001 section 5.4 names and leaves
 * out: the two cores of a tile share the tile's MPB, so only one of them
 * (the root, or else the lower core) gets each chunk over the mesh into
 * its region; its tile mate gets it from there, on the tile, straight
 * into private memory. The k-ary tree of 001 is built over these tile
 * leaders (in rank order from the root); a leader's children are its
 * mate first (local, so notified first), then its child leaders.
 */
#include "../engine/oc.h"

#define MAXTILE 64

static void build(const struct coll_call *c, int k, struct oc_tree *t)
{
    int n = c->n, lead[MAXTILE], best[MAXTILE], idx[RCCE_MAXNP], q[RCCE_MAXNP];
    int nlead = 0, head = 0, tail = 0;

    for (int i = 0; i < MAXTILE; i++)
        best[i] = -1;
    for (int j = 0; j < n; j++) {
        int r = (c->root + j) % n, tl = oc_tile(c, r);

        idx[r] = -1;
        if (tl < 0 || tl >= MAXTILE)
            continue;           /* unknown tile: a tile of its own */
        if (best[tl] < 0 || (best[tl] != c->root &&
                             RCCE_ue_core(coll_ue(c, r)) < RCCE_ue_core(coll_ue(c, best[tl]))))
            best[tl] = r;
    }
    for (int j = 0; j < n; j++) {
        int r = (c->root + j) % n, tl = oc_tile(c, r);

        if (tl < 0 || tl >= MAXTILE || best[tl] == r) {
            idx[r] = nlead;
            lead[nlead++] = r;
        }
    }
    /* Lay the tree out breadth first, so that each node's children get
     * increasing positions in the order we want them notified. */
    t->n = n;
    t->rank[0] = c->root;
    t->up[0] = -1;
    q[tail++] = 0;
    while (head < tail) {
        int px = q[head++], x = t->rank[px], li = idx[x];

        t->keep[px] = li >= 0;
        if (li < 0)
            continue;
        for (int j = 1; j < n; j++) {
            int r = (c->root + j) % n, tl = oc_tile(c, r);

            if (idx[r] < 0 && tl >= 0 && tl < MAXTILE && best[tl] == x) {
                t->rank[tail] = r, t->up[tail] = px;
                q[tail] = tail, tail++;
            }
        }
        for (int j = li * k + 1; j <= li * k + k && j < nlead; j++) {
            t->rank[tail] = lead[j], t->up[tail] = px;
            q[tail] = tail, tail++;
        }
    }
}

static int run(struct coll_call *c)
{
    return oc_bcast(c, build, (int)c->p[OC_P_K], (int)c->p[OC_P_CHUNK]);
}

const struct coll_alg coll_bcast_oc_tile = {
    .name = "oc_tile", .op = COLL_BCAST, .fn = run, .nparam = 2,
    .param = {
        [OC_P_K] = { "k", 1, 47, 7, "fan-out of the tree of tile leaders (001 section 5.2: 7)" },
        [OC_P_CHUNK] = { "chunk", 1, OC_MAX_CHUNK, OC_MAX_CHUNK, "lines per chunk buffer" },
    },
    .doc = "OC-Bcast with one MPB copy per tile, mate reads it locally (ours, 001 section 5.4)",
};
