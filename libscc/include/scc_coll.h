/*
 * scc_coll.h - libscc's collectives beyond RCCE's three, and the choice
 * of algorithm (libscc/src/coll/README.md).
 *
 * The collectives RCCE_comm added to RCCE, with RCCE's conventions: data
 * in bytes (size_t num = bytes of ONE member's block), reductions in
 * elements of an RCCE type with an RCCE operator, root and sources as
 * ranks in the communicator. RCCE_comm's own header was not found in any
 * public copy, so the argument order is MPI's (send buffer, receive
 * buffer, count, ..., root, communicator), as RCCE_reduce already has it.
 *
 *   RCCE_allgather:      out[n * num] = every member's in[num], by rank
 *   RCCE_alltoall:       out[j * num .. ] = block me of member j's in
 *   RCCE_scatter:        out[num] = block me of the root's in[n * num]
 *   RCCE_gather:         the root's out[n * num] = every member's in[num]
 *   RCCE_reduce_scatter: out[num] = block me of the reduction of every
 *                        member's in[n * num] (num elements per block)
 *   scc_stop_bcast:      s-to-p broadcast: each of the s source ranks
 *                        (ascending) contributes in[num]; every member
 *                        gets out[s * num], the sources' blocks in order
 *
 * Choosing algorithms (every UE must make the same choice, so call these
 * on every UE, like the collectives themselves):
 *
 *   scc_coll_set("bcast", "oc:k=7,chunk=64")   force an algorithm
 *   scc_coll_set("bcast", "auto")              back to the table
 *   scc_coll_list(stdout, "bcast")             algorithms and parameters
 *   scc_coll_used("bcast")                     "name:k=v,..." of the last
 *                                              call on this UE
 *
 * or for a whole run, without recompiling: RCCE_init takes the words
 * "--coll bcast=oc:k=7" from the program's arguments, after SCC_COLL=
 * "bcast=oc:k=7;allreduce=hybrid" from the environment (src/coll/core/override.c).
 *
 * The collective names are bcast, reduce, allreduce, allgather, alltoall,
 * reduce_scatter, scatter, gather, barrier and stop.
 */
#ifndef SCC_COLL_H
#define SCC_COLL_H

#include <stdio.h>

#include "RCCE.h"

#ifdef __cplusplus
extern "C" {
#endif

int scc_coll_set(const char *collective, const char *spec);   /* 0 or -1 */
const char *scc_coll_error(void);       /* why the last scc_coll_set failed */
void scc_coll_list(FILE *out, const char *collective);       /* NULL: all */
const char *scc_coll_used(const char *collective);
/* The names of the collective's algorithms, at most max of them, into
 * names[]; the number there are (-1 for an unknown collective). */
int scc_coll_names(const char *collective, const char **names, int max);

int RCCE_allgather(char *inbuf, char *outbuf, size_t num, RCCE_COMM comm);
int RCCE_alltoall(char *inbuf, char *outbuf, size_t num, RCCE_COMM comm);
int RCCE_scatter(char *inbuf, char *outbuf, size_t num, int root, RCCE_COMM comm);
int RCCE_gather(char *inbuf, char *outbuf, size_t num, int root, RCCE_COMM comm);
int RCCE_reduce_scatter(char *inbuf, char *outbuf, int num, int type, int op,
                        RCCE_COMM comm);
int scc_stop_bcast(char *inbuf, char *outbuf, size_t num, const int *sources,
                   int nsources, RCCE_COMM comm);

/* The grid the s-to-p algorithms lay n members on (libscc/src/coll/
 * stop_sources.c): member core[] ids in, rank_at[pos] = the member at grid
 * position pos (row-major) out; returns the number of columns (rows =
 * n / columns), or -1. */
int scc_stop_grid(const int *core, int n, int *rank_at);
/* The source distributions of 003 section 4 on an n-place grid with cols
 * columns (row-major places): dist R, C, E, Dr, Dl, B, Cr, Sq, or U
 * (uniformly random from seed). Fills out[] with s ascending places;
 * returns s, or -1 for an unknown dist or a bad s, n or cols. */
int scc_stop_sources(const char *dist, int s, int n, int cols, unsigned seed, int *out);

#ifdef __cplusplus
}
#endif

#endif
