/*
 * alltoall_direct.c - ours: each member leaves its whole send buffer in
 * its MPB region, a half-region at a time, and each member gets its own
 * block of it from there (direct.c). For short blocks the whole buffer is
 * one pass: one signal round instead of n - 1 pairwise rounds.
 */
#include "../engine/direct.h"

static int run(struct coll_call *c)
{
    return coll_direct(c, c->bytes);
}

const struct coll_alg coll_alltoall_direct = {
    .name = "direct", .op = COLL_ALLTOALL, .fn = run,
    .doc = "ours: every member gets its block of each send buffer straight from "
           "the sender's MPB region",
};
