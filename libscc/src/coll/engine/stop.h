/*
 * stop.h - what the s-to-p algorithms of 003 (Hambrusch, Khokhar, Liu,
 * "Scalable S-to-P Broadcasting on Message-Passing MPPs") share: the
 * member grid, who holds which source block, and rounds of concurrent
 * p2p transfers.
 *
 * Every member simulates every member's holdings (a mask of source
 * indices): the schedule is a function of the sources and the grid
 * only, so sender and receiver agree on each message's blocks without
 * sending masks (003 assumes every processor knows the sources, sec. 1).
 */
#ifndef SCC_COLL_STOP_H
#define SCC_COLL_STOP_H

#include "../core/coll.h"

#define STOP_ALL (~(uint64_t)0)
#define STOP_MAXX (3 * RCCE_MAXNP)      /* transfers in one round */

/* The s-to-p algorithms' parameter, by name: its index in struct
 * coll_call.p and in the param tables. */
enum { STOP_P_REPOS };

struct stop_xfer {
    int from, to;               /* ranks */
    uint64_t mask;              /* at most these blocks (STOP_ALL: any) */
};

struct stop {
    struct coll_call *c;
    int n, rows, cols;
    int at[RCCE_MAXNP];         /* grid position (row-major) -> rank */
    int pos[RCCE_MAXNP];        /* rank -> grid position */
    uint64_t hold[RCCE_MAXNP];  /* rank -> blocks it holds */
    int nx;
    struct stop_xfer x[STOP_MAXX];      /* the round being built */
};

/* The grid, the initial holdings; a source copies its block into out. */
int stop_begin(struct stop *st, struct coll_call *c);
/* Queue from -> to: every block of mask that from holds and to lacks
 * (and that no earlier transfer of this round brings to `to`). */
void stop_add(struct stop *st, int from, int to, uint64_t mask);
/* Run the queued transfers at once (iRCCE, so no order can deadlock). */
int stop_round(struct stop *st);
/* 003 sec. 3: move block k to the member at grid position tpos[k]'s
 * place (tpos: s ascending positions; members already there keep
 * theirs), then hold exactly that distribution. */
int stop_repos(struct stop *st, const int *tpos);
/* Br_Lin (003 sec. 2) on nlines lines of len ranks each (lines[l*len+i]),
 * all lines in lockstep. */
int stop_br_lin(struct stop *st, const int *lines, int nlines, int len);
/* The grid in snake-like row-major order (003 sec. 2), n ranks. */
void stop_snake(const struct stop *st, int *line);
/* The grid's rows (rows lines of cols) or columns (cols lines of rows). */
void stop_rows(const struct stop *st, int *lines);
void stop_cols(const struct stop *st, int *lines);
/* repos = 0 no, 1 yes, 2 when 003's three conditions hold (sec. 5.2:
 * s < p/2, p > 16, 1 KiB <= L <= 16 KiB). */
int stop_want_repos(const struct coll_call *c, long repos);
/* stop_begin, then, if the call's repos parameter asks for it, move the
 * sources to the places of distribution dist (scc_stop_sources). */
int stop_begin_at(struct stop *st, struct coll_call *c, const char *dist);
/* Br_Lin in every row, then in every column (rows_first), or columns
 * first: 003's two-dimensional broadcasts (sec. 2). */
int stop_br_2d(struct stop *st, int rows_first);

#endif
