/*
 * tree.h - the one-sided pipelined reduction tree (reduce_tree.c), and
 * the collectives built on it (allreduce_tree.c, reduce_scatter_tree.c).
 */
#ifndef SCC_COLL_TREE_H
#define SCC_COLL_TREE_H

#include "../core/coll.h"

/* Lines per chunk at most: the two slots of one child fill the region. */
#define TREE_MAX_CHUNK (SCC_MPB_REGION_SIZE / SCC_MPB_LINE / 2)

/* The parameters, by name: their index in struct coll_call.p and in the
 * param tables. */
enum { TREE_P_K, TREE_P_CHUNK, TREE_P_SHAPE };

/* The parameter table entries every tree algorithm shares. */
#define TREE_PARAMS                                                          \
    [TREE_P_K] = { "k", 0, RCCE_MAXNP - 1, 0, "the tree: 0 = binomial (RCCE_comm's "      \
                   "shape), k > 0 = k-ary (1 = a chain, 47 = every member the root's "    \
                   "child)" },                                                            \
    [TREE_P_CHUNK] = { "chunk", 1, TREE_MAX_CHUNK, TREE_MAX_CHUNK, "lines per chunk at "  \
                       "most (a slot is also at most the region / twice the most children a node has)" }, \
    [TREE_P_SHAPE] = { "shape", 0, 1, 0, "1 = the tree that finishes first under the "   \
                       "model's costs of a read, a combine and a hop (k is then ignored)" }

/* Reduce every member's c->in (c->bytes, c->num elements) towards c->root
 * along tree k (TREE_K) over positions (rank - root) mod n, in chunks of at most `lines` lines; the root's result
 * goes to out (only the root's out is written). Needs the region of
 * every member with children. */
int coll_tree_reduce(const struct coll_call *c, int k, int lines, char *out);

/* The tree of a call: k, or the cost-shaped tree (TREE_P_SHAPE = 1),
 * with at most TREE_SHAPED_KIDS children a node (tree_shape.c). */
#define TREE_SHAPED (-1)
#define TREE_SHAPED_KIDS 5
#define TREE_K(c) ((c)->p[TREE_P_SHAPE] ? TREE_SHAPED : (int)(c)->p[TREE_P_K])

/* Tree k over n positions (tree_shape.c): position p's children, in the
 * order p takes them, into kid[] (returns how many); p's parent (-1 at
 * the root, position 0); the most children any position has. */
int tree_kids(int k, int n, int p, int *kid);
int tree_parent(int k, int n, int p);
int tree_most_kids(int k, int n);

#endif
