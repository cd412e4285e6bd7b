/*
 * bcast_logp.c - a one-sided tree broadcast whose tree is the optimal
 * broadcast tree of the LogP model (Karp, Sahay, Santos, Schauser 1993),
 * with every parent notifying each of its children itself. Ours.
 *
 * Why: on the chip a one-line broadcast is a chain of notifications, not
 * of bytes (one line costs a get of 0.15 us; a notification hop, from the
 * signal's write to the child's own first signal, about a microsecond of
 * instructions and MPB accesses). OC-Bcast's k-ary tree with binary
 * notification trees among siblings puts two levels of data and about six
 * notification hops on the path to the last leaf at 48 members (k = 7:
 * three among the root's children, three among the grandchildren). Here a
 * parent signals its children one after another, each signal one line
 * write (the size rides in the same line), and a child starts on its own
 * children as soon as it has the data: the tree is built greedily, giving
 * each next member to whichever informed member can signal it first, when
 * a signal costs one step and a child is ready `lat` steps after its
 * signal (the LogP optimal tree for L + overheads = lat g). Children are
 * signalled in the order they were given, so those with the largest
 * subtrees go first. Leaves get straight into private memory, as in
 * oc_private; chunks pipeline as in the engine (oc_engine.c).
 */
#include "../engine/oc.h"

static void build(const struct coll_call *c, int lat, struct oc_tree *t)
{
    int free_at[RCCE_MAXNP];    /* the step of a member's next signal */

    t->n = c->n;
    t->rank[0] = c->root;
    t->up[0] = -1;
    t->keep[0] = 0;
    free_at[0] = 1;
    for (int m = 1; m < c->n; m++) {
        int best = 0;

        for (int j = 1; j < m; j++)
            if (free_at[j] < free_at[best])
                best = j;
        t->rank[m] = (c->root + m) % c->n;
        t->up[m] = best;
        t->keep[m] = 0;         /* the engine keeps copies at inner nodes */
        free_at[m] = free_at[best] + lat;
        free_at[best]++;
    }
}

static int run(struct coll_call *c)
{
    return oc_bcast_how(c, build, (int)c->p[OC_P_K], (int)c->p[OC_P_CHUNK],
                        (struct oc_how){ .direct = 1, .bufs = 2, .batch = 0 });
}

const struct coll_alg coll_bcast_logp = {
    .name = "logp", .op = COLL_BCAST, .fn = run, .nparam = 2,
    .param = {
        [OC_P_K] = { "lat", 1, 47, 2, "steps (signal writes) from a child's signal until it "
                     "signals its own first child: 1 = a binomial-like tree, 47 = flat" },
        [OC_P_CHUNK] = { "chunk", 1, OC_MAX_CHUNK, OC_MAX_CHUNK, "lines per chunk buffer" },
    },
    .doc = "one-sided tree broadcast on LogP's optimal tree, parents signal every child (ours)",
};
