/*
 * kary.h - the one-sided pipelined k-ary reduction tree (reduce_kary.c),
 * and the collectives built on it (allreduce_kary.c,
 * reduce_scatter_kary.c).
 */
#ifndef SCC_COLL_KARY_H
#define SCC_COLL_KARY_H

#include "coll.h"

/* Lines per chunk at most: two chunk buffers fill the region. */
#define KARY_MAX_CHUNK (SCC_MPB_REGION_SIZE / SCC_MPB_LINE / 2)

/* The parameters, by name: their index in struct coll_call.p and in the
 * param tables. */
enum { KARY_P_K, KARY_P_CHUNK };

/* The parameter table entries every kary algorithm shares. */
#define KARY_PARAMS                                                          \
    [KARY_P_K] = { "k", 1, RCCE_MAXNP - 1, 7, "fan-in: children per inner node "  \
                   "(1 = a chain, 47 = every member the root's child)" },         \
    [KARY_P_CHUNK] = { "chunk", 1, KARY_MAX_CHUNK, KARY_MAX_CHUNK, "lines per chunk buffer" }

/* Reduce every member's c->in (c->bytes, c->num elements) towards c->root
 * along the k-ary tree of positions (rank - root) mod n, in chunks of
 * `lines` lines; the root's result goes to out (only the root's out is
 * written). Needs this UE's region unless it is the root. */
int coll_kary_reduce(const struct coll_call *c, int k, int lines, char *out);

#endif
