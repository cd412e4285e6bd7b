/*
 * oc.h - the one-sided pipelined tree broadcast engine shared by OC-Bcast
 * (001 section 4) and its variants (bcast_oc*.c, bcast_mesh.c).
 *
 * A variant only decides the data tree: who gets each chunk from whose
 * region, and which leaves keep a copy in their own region. The engine
 * (oc_engine.c) does the rest: double-buffered chunks in each inner
 * node's region, binary notification trees among the children of every
 * node (sig counter 0), one done signal per child and chunk (counter 1).
 */
#ifndef SCC_COLL_OC_H
#define SCC_COLL_OC_H

#include "../core/coll.h"

#define OC_REGION_LINES (SCC_MPB_REGION_SIZE / SCC_MPB_LINE)
#define OC_MAX_CHUNK (OC_REGION_LINES / 2)  /* lines, with two buffers */

/* The OC-Bcast variants' parameters, by name: their index in struct
 * coll_call.p and in the param tables. */
enum { OC_P_K, OC_P_CHUNK };

/* A tree over positions 0..n-1; position 0 is the root. The children of a
 * node, in increasing position, are notified in that order's binary tree:
 * the parent signals the first two, child s signals children 2s+2, 2s+3
 * (in direct mode, struct oc_how, the parent signals each in turn). */
struct oc_tree {
    int n;
    int rank[RCCE_MAXNP];           /* position -> comm rank */
    int up[RCCE_MAXNP];             /* position -> parent position, -1 at 0 */
    unsigned char keep[RCCE_MAXNP]; /* a leaf also copies into its region */
};

typedef void oc_build_fn(const struct coll_call *c, int k, struct oc_tree *t);

/* The paper's tree: position j = rank (root + j) mod n, parent (j-1)/k. */
void oc_tree_kary(const struct coll_call *c, int k, struct oc_tree *t);

/* The tile (core / cores_per_tile) of comm rank r. */
int oc_tile(const struct coll_call *c, int r);

/* Broadcast c->out from c->root with the tree `build` gives for fan-out k,
 * in chunks of `lines` lines (at most OC_MAX_CHUNK). */
int oc_bcast(struct coll_call *c, oc_build_fn *build, int k, int lines);

/* The done words of struct oc_how .packed: one word per member, eight to
 * a line, in the last lines of the root's region. */
#define OC_PACKED_LINES ((RCCE_MAXNP * 4 + SCC_MPB_LINE - 1) / SCC_MPB_LINE)
#define OC_PACKED_OFF ((OC_REGION_LINES - OC_PACKED_LINES) * SCC_MPB_LINE)

/* How the engine runs; OC-Bcast's (oc_bcast) is { 0, 2, 0, 0 }. */
struct oc_how {
    int direct;     /* a parent notifies every child itself, in increasing
                       position, instead of the first two of a binary
                       notification tree (bcast_logp.c) */
    int bufs;       /* chunk buffers in the region, 2 or more: a node may
                       run that many chunks ahead of its slowest child */
    int batch;      /* copies into private memory with plat_get_batch */
    int packed;     /* a flat tree (every member the root's child, none
                       kept): each member counts its done chunks in its own
                       word of the root's region, which the root reads
                       eight to a line, instead of in a line of its own
                       (bcast_flat.c); the chunk buffers then take at most
                       OC_REGION_LINES - OC_PACKED_LINES lines */
};

/* The same as oc_bcast, run as `how` says; lines * how.bufs lines at most
 * OC_REGION_LINES. */
int oc_bcast_how(struct coll_call *c, oc_build_fn *build, int k, int lines, struct oc_how how);

#endif
