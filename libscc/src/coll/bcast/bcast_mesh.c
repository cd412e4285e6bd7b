/*
 * bcast_mesh.c - a mesh-aware OC-Bcast (ours): the one-sided pipelined
 * tree of 001 section 4 (engine: oc_engine.c) over a tree that keeps
 * parents and children few hops apart, which 001 section 4.1 leaves open
 * ("finding an efficient k-ary tree taking into account the topology of
 * the NoC ... is outside the scope of this paper").
 *
 * Members are ordered along a snake (boustrophedon) walk of the tile mesh
 * that starts at the root's tile, tile mates next to each other, so that
 * members close in the order are close on the mesh. The tree splits that
 * order recursively: a segment's first member is its subtree's root and
 * the rest is cut into k contiguous sub-segments, whose first members are
 * its children. Deep levels, which carry most of the tree's transfers,
 * thus stay inside small stretches of the mesh; the first child of every
 * node is its successor on the walk (its tile mate when it has one).
 */
#include "../engine/oc.h"

static int snake(int core)
{
    int cpt = scc_self.facts.cores_per_tile > 0 ? scc_self.facts.cores_per_tile : 1;
    int mx = scc_self.facts.mesh_x > 0 ? scc_self.facts.mesh_x : 6;
    int tile = core / cpt, x = tile % mx, y = tile / mx;

    return y * mx + (y % 2 ? mx - 1 - x : x);
}

static void split(struct oc_tree *t, int lo, int hi, int k)
{
    int rem = hi - lo - 1, parts = rem < k ? rem : k, start = lo + 1;

    for (int p = 0; p < parts; p++) {
        int size = rem / parts + (p < rem % parts);

        t->up[start] = lo;
        split(t, start, start + size, k);
        start += size;
    }
}

static void build(const struct coll_call *c, int k, struct oc_tree *t)
{
    int cpt = scc_self.facts.cores_per_tile > 0 ? scc_self.facts.cores_per_tile : 1;
    int ntiles = (scc_self.facts.ncores + cpt - 1) / cpt, key[RCCE_MAXNP];
    int s0 = snake(RCCE_ue_core(coll_ue(c, c->root)));

    if (ntiles < 1)
        ntiles = 1;
    t->n = c->n;
    for (int j = 0; j < c->n; j++) {
        int r = (c->root + j) % c->n, core = RCCE_ue_core(coll_ue(c, r));
        int rot = ((snake(core) - s0) % ntiles + ntiles) % ntiles;
        int kv = rot * (RCCE_MAXNP + 1) + (j ? 1 + core % RCCE_MAXNP : 0), pos = j;

        /* insertion sort by key; equal keys keep their rank order */
        for (; pos > 0 && key[pos - 1] > kv; pos--) {
            t->rank[pos] = t->rank[pos - 1];
            key[pos] = key[pos - 1];
        }
        key[pos] = kv;
        t->rank[pos] = r;
        t->keep[j] = 1;
    }
    t->up[0] = -1;
    split(t, 0, c->n, k);
}

static int run(struct coll_call *c)
{
    return oc_bcast(c, build, (int)c->p[OC_P_K], (int)c->p[OC_P_CHUNK]);
}

const struct coll_alg coll_bcast_mesh = {
    .name = "mesh", .op = COLL_BCAST, .fn = run, .nparam = 2,
    .param = {
        [OC_P_K] = { "k", 1, 47, 7, "fan-out of the data tree (001 section 5.2: 7)" },
        [OC_P_CHUNK] = { "chunk", 1, OC_MAX_CHUNK, OC_MAX_CHUNK, "lines per chunk buffer" },
    },
    .doc = "OC-Bcast over a snake-ordered mesh-local tree (ours, 001 section 4.1)",
};
