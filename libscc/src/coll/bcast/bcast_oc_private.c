/*
 * bcast_oc_private.c - OC-Bcast (001 section 4) whose leaves get each
 * chunk from their parent's MPB straight into private memory: nobody
 * reads a leaf's MPB, so its MPB copy (which 001 section 5.4 names as an
 * optimisation left out) is pure cost. Ours.
 */
#include "../engine/oc.h"

static void build(const struct coll_call *c, int k, struct oc_tree *t)
{
    oc_tree_kary(c, k, t);
    for (int j = 0; j < t->n; j++)
        t->keep[j] = 0;         /* the engine keeps copies at inner nodes */
}

static int run(struct coll_call *c)
{
    return oc_bcast(c, build, (int)c->p[OC_P_K], (int)c->p[OC_P_CHUNK]);
}

const struct coll_alg coll_bcast_oc_private = {
    .name = "oc_private", .op = COLL_BCAST, .fn = run, .nparam = 2,
    .param = {
        [OC_P_K] = { "k", 1, 47, 7, "fan-out of the data tree (001 section 5.2: 7)" },
        [OC_P_CHUNK] = { "chunk", 1, OC_MAX_CHUNK, OC_MAX_CHUNK, "lines per chunk buffer" },
    },
    .doc = "OC-Bcast with leaves getting MPB -> private directly (ours, 001 section 5.4)",
};
