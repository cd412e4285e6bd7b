/*
 * coll.h - the collectives' framework (libscc/src/coll/README.md).
 *
 * MPICH-style: one algorithm per file (<op>_<algorithm>.c), each described
 * by a struct coll_alg; one selection table (select.c) that picks an
 * algorithm for each call by communicator size and message size, unless
 * the program forced one with scc_coll_set(); the public entry points
 * (entry.c) check their arguments and dispatch through the table.
 *
 * An algorithm gets a struct coll_call whose arguments entry.c has already
 * checked, and returns RCCE_SUCCESS or an RCCE error code. It must leave
 * every member's state as it found it: when it returns on a UE, nobody
 * reads or writes that UE's region for this call any more (region.c).
 */
#ifndef SCC_COLL_H_INTERNAL
#define SCC_COLL_H_INTERNAL

#include <stddef.h>
#include <stdint.h>

#include "../../internal.h"
#include "scc_coll.h"

enum coll_op {
    COLL_BCAST, COLL_REDUCE, COLL_ALLREDUCE, COLL_ALLGATHER, COLL_ALLTOALL,
    COLL_REDUCE_SCATTER, COLL_SCATTER, COLL_GATHER, COLL_BARRIER,
    COLL_STOP,                  /* s-to-p broadcast (scc_stop_bcast) */
    COLL_NOPS
};

#define COLL_MAXPARAM 4

/* One call, as the entry points hand it to an algorithm. Sizes in bytes;
 * ranks are ranks in comm (comm->member[] maps them to UEs). */
struct coll_call {
    enum coll_op op;
    const RCCE_COMM *comm;
    int n, me;                  /* comm->size, comm->my_rank */
    const char *in;             /* what this member contributes (NULL for
                                   bcast and for non-roots of scatter) */
    char *out;                  /* where its result goes (bcast: the buffer) */
    size_t bytes;               /* bcast: the message; allgather, alltoall,
                                   scatter, gather, s-to-p: one member's
                                   block; reduce, allreduce: the vector;
                                   reduce_scatter: one member's block */
    int num;                    /* elements in `bytes` (reductions) */
    int type, rop;              /* RCCE_INT.., RCCE_SUM.. (reductions) */
    size_t tsize;               /* bytes of one element */
    int root;                   /* bcast, reduce, scatter, gather */
    const int *src;             /* s-to-p: source ranks, ascending */
    int nsrc;
    long p[COLL_MAXPARAM];      /* the algorithm's parameters */
};

struct coll_param {
    const char *key;
    long min, max, dflt;
    const char *doc;
};

struct coll_alg {
    const char *name;
    enum coll_op op;
    int (*fn)(struct coll_call *c);
    int nparam;
    struct coll_param param[COLL_MAXPARAM];
    /* Optional: constraints that depend on the call (parameter against
     * communicator size, buffer space): 0, or -1 with a reason in why. */
    int (*check)(const struct coll_call *c, char *why, size_t n);
    const char *doc;            /* what it is, and where it comes from */
};

/* select.c */
const char *coll_op_name(enum coll_op op);
const struct coll_alg *const *coll_algs(enum coll_op op, int *count);
int coll_dispatch(struct coll_call *c);

/* ops.c: the reduction operators, in one place */
size_t coll_type_size(int type);
int coll_op_valid(int rop);
void coll_combine(char *acc, const char *in, int num, int type, int rop);
void coll_combine_to(char *dst, const char *acc, const char *in, int num, int type, int rop);

/* sig.c: signals between members through the chan lines (scc_mpb.h).
 * Counter k (0 or 1) from me to UE `ue`, and its value words. A signal
 * only ever adds; a waiter compares with what it has consumed. */
void sig_add(int ue, int k, uint32_t n);
/* The same signal to each of m members, ue[0..m-1]. */
void sig_add_each(const int *ue, int m, int k, uint32_t n);
void sig_set_val(int ue, int w, uint32_t v);   /* before the sig_add */
uint32_t sig_get_val(int ue, int w);
/* One signal on counter k with all three value words: one line write. */
void sig_add_vals(int ue, int k, const uint32_t v[3]);
void sig_get_vals(int ue, uint32_t v[3]);
int sig_test(int ue, int k, uint32_t n);       /* n unconsumed signals? */
void sig_wait(int ue, int k, uint32_t n);      /* wait for n unconsumed */
void sig_consume(int ue, int k, uint32_t n);
void coll_wait_step(unsigned int *spins);      /* one idle turn of a wait */

/* region.c: this UE's MPB region (3840 bytes), for algorithms that move data
 * through MPBs. NULL if a p2p send of this UE still uses it. */
t_vcharp coll_region(void);
t_vcharp coll_region_of(int ue);
size_t coll_region_size(void);

/* A member's own block of an exchange, from in to out in private memory:
 * a piece at a time, its lines read first (plat_prefetch_dst), so that the
 * stores hit the caches instead of each going to DRAM on its own. */
#define COLL_OWN_PIECE 2048
static inline void coll_copy_own(char *dst, const char *src, size_t b)
{
    for (size_t o = 0; o < b; o += COLL_OWN_PIECE) {
        size_t len = b - o < COLL_OWN_PIECE ? b - o : COLL_OWN_PIECE;

        plat_prefetch_dst(dst + o, len);
        plat_copy(dst + o, src + o, len);
    }
}

/* transport.c: for algorithms built on p2p, send/recv to a comm rank. */
int coll_send(const struct coll_call *c, const void *buf, size_t n, int rank);
int coll_recv(const struct coll_call *c, void *buf, size_t n, int rank);
static inline int coll_ue(const struct coll_call *c, int rank)
{
    return c->comm->member[rank];
}

#endif
