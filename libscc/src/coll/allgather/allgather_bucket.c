/*
 * allgather_bucket.c - RCCE_comm's allgather as 004 (Kohler & Radetzki)
 * measured it: the allgather ring of Barnett's bucket algorithm, n-1
 * rounds on blocking RCCE send/recv in the odd-even order of 004 Alg. 1
 * (the order whose double synchronization 004 III.A removes).
 */
#include "../engine/bucket.h"

static int run(struct coll_call *c)
{
    return coll_bucket_allgather(c, (struct coll_prim){ 0, 0 });
}

const struct coll_alg coll_allgather_bucket = {
    .name = "bucket", .op = COLL_ALLGATHER, .fn = run,
    .doc = "bucket (ring) allgather on blocking RCCE, odd-even order (RCCE_comm, "
           "004 section III, Alg. 1)",
};
