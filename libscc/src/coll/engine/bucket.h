/*
 * bucket.h - the ring steps shared by the bucket collectives of 004
 * (Kohler & Radetzki, "Latency-optimized Collectives for High Performance
 * on Intel's SCC", section III) and their RCCE_comm baselines: bucket
 * sizing, one exchange with the neighbours on the chosen primitives,
 * Barnett's reduce-scatter and allgather rings, and a gather to a root.
 */
#ifndef SCC_COLL_BUCKET_H
#define SCC_COLL_BUCKET_H

#include "../core/coll.h"

/* The primitives of one exchange: relaxed = 0 is RCCE_comm's odd-even
 * order (004 Alg. 1), each transfer finished before the next starts;
 * relaxed = 1 starts both and waits once (004 Alg. 2). nb = 0 uses RCCE's
 * blocking send/recv (relaxed = 0) or iRCCE (relaxed = 1); nb = 1 uses the
 * lightweight RCCEnb primitives (004 section III.B) in either order. */
struct coll_prim {
    int relaxed, nb;
};

/* The parameters of 004's step-by-step variants (the *_nb algorithms), by
 * name: their index in struct coll_call.p and in the param tables. */
enum { BUCKET_P_RELAXED, BUCKET_P_NB, BUCKET_P_BALANCED };

/* The primitives a *_nb call's parameters choose. */
static inline struct coll_prim coll_prim_of(const struct coll_call *c)
{
    return (struct coll_prim){ (int)c->p[BUCKET_P_RELAXED], (int)c->p[BUCKET_P_NB] };
}

/* Bucket b of n: off[b], len[b] in bytes, for num elements of tsize.
 * balanced = 0: RCCE_comm's sizing, floor(num/n) each and the remainder
 * in bucket 0 (004 III.C); 1: the first num % n buckets get one more. */
void coll_buckets(int num, size_t tsize, int n, int balanced, size_t *off,
                  size_t *len);

/* Send sb (sn bytes) to rank `to` and receive rb (rn bytes) from rank
 * `from`. sendfirst orders the transfers when relaxed = 0. */
int coll_xchg(const struct coll_call *c, struct coll_prim m, int sendfirst,
              const char *sb, size_t sn, int to, char *rb, size_t rn, int from);

/* Barnett's reduce-scatter ring on acc (the whole vector, already holding
 * this member's operand): n-1 steps; afterwards member i holds the
 * reduced bucket (i + 1 + shift) mod n. tmp holds the largest bucket. */
int coll_bucket_rs(const struct coll_call *c, struct coll_prim m, char *acc,
                   char *tmp, const size_t *off, const size_t *len, int shift);

/* Allgather ring on buf: member i starts with bucket (i + 1 + shift) mod
 * n, and after n-1 steps everybody has every bucket. */
int coll_bucket_ag(const struct coll_call *c, struct coll_prim m, char *buf,
                   const size_t *off, const size_t *len, int shift);

/* Rank i sends its bucket (i + 1 + shift) mod n of buf to the root, which
 * receives them in rank order. */
int coll_bucket_gather(const struct coll_call *c, struct coll_prim m, char *buf,
                       const size_t *off, const size_t *len, int shift);

/* Whole collectives (the algorithm files choose m and balanced). */
int coll_bucket_allreduce(const struct coll_call *c, struct coll_prim m, int balanced);
int coll_bucket_reduce(const struct coll_call *c, struct coll_prim m, int balanced);
int coll_bucket_reduce_scatter(const struct coll_call *c, struct coll_prim m);
int coll_bucket_allgather(const struct coll_call *c, struct coll_prim m);
int coll_pairwise_alltoall(const struct coll_call *c, struct coll_prim m, int oddeven);

/* 004's in-MPB reduce-scatter ring with balanced buckets (inmpb.c), then:
 * the allgather ring through MPBs (004 III.D), every member getting each
 * finished bucket from its owner's region, only the root doing so (a
 * reduce), or nothing (reduce_scatter: c->bytes blocks, block i ending on
 * rank i). */
enum inmpb_then { INMPB_RING_AG, INMPB_DIRECT_AG, INMPB_GATHER, INMPB_NONE };
int coll_inmpb(struct coll_call *c, enum inmpb_then then);

/* RCCE_comm's odd-even order around a ring (004 Alg. 1). */
static inline int coll_ring_sendfirst(int me, int n)
{
    return n % 2 == 0 ? me % 2 == 0 : me % 2 == 1 || me == 0;
}

#endif
