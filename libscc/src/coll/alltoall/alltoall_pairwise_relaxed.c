/*
 * alltoall_pairwise_relaxed.c - 004's optimized alltoall (Kohler & Radetzki, sections
 * III.A-B, IV): pairwise exchange with relaxed synchronization and RCCEnb
 * selectable. relaxed=0,nb=0 is alltoall "blocking".
 */
#include "../engine/bucket.h"

static int run(struct coll_call *c)
{
    return coll_pairwise_alltoall(c, coll_prim_of(c), 0);
}

const struct coll_alg coll_alltoall_pairwise_relaxed = {
    .name = "pairwise_relaxed", .op = COLL_ALLTOALL, .fn = run, .nparam = 2,
    .param = { [BUCKET_P_RELAXED] = { "relaxed", 0, 1, 1, "1: start send and receive, wait once per round (004 III.A, Alg. 2); 0: RCCE_comm odd-even order (Alg. 1)" },
               [BUCKET_P_NB] = { "nb", 0, 1, 1, "1: RCCEnb lightweight primitives (004 III.B); 0: iRCCE (relaxed=1) or blocking RCCE (relaxed=0)" } },
    .doc = "pairwise alltoall with 004's optimizations (004 section III.A-B)",
};
