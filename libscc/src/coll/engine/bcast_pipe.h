/*
 * bcast_pipe.h - the engine shared by the tree broadcasts of 002 (chain,
 * binary tree, two-tree): every member receives the message from one
 * parent and forwards it to at most two children, chunk by chunk.
 */
#ifndef SCC_BCAST_PIPE_H
#define SCC_BCAST_PIPE_H

#include "../core/coll.h"

/* The tree broadcasts' parameter, by name: its index in struct coll_call.p
 * and in the param tables. */
enum { PIPE_P_CHUNK };

/* parent: comm rank or -1 (the root); kids: comm ranks; chunk 0 = the
 * whole message at once. nb: iRCCE isend/irecv (receives posted ahead,
 * forwarding overlaps the next receive) instead of blocking RCCE. */
int coll_bcast_pipe(struct coll_call *c, int parent, const int *kids, int nk,
                    size_t chunk, int nb);

/* A tree of 002 over ranks relative to the root: parent and children of
 * rel rank r among n; returns the number of children (at most 2). */
typedef int (*coll_pipe_shape)(int n, int r, int *parent, int kids[2]);
int coll_pipe_chain(int n, int r, int *parent, int kids[2]);
int coll_pipe_bintree(int n, int r, int *parent, int kids[2]);
int coll_pipe_twotree(int n, int r, int *parent, int kids[2]);

/* The broadcast down that tree; chunk is the algorithm's parameter 0. */
int coll_bcast_shape(struct coll_call *c, coll_pipe_shape shape, int nb);

/* Comm rank of the member rel steps after the root. */
static inline int coll_bcast_abs(const struct coll_call *c, int rel)
{
    return (rel + c->root) % c->n;
}

#endif
