/*
 * allgather_direct.c - ours: each member leaves its block in its MPB
 * region and every other member gets it from there (direct.c): one
 * crossing of the mesh per block and no forwarding, where the ring of
 * RCCE_comm and 004 takes n - 1 dependent rounds.
 */
#include "../engine/direct.h"

static int run(struct coll_call *c)
{
    return coll_direct(c, 0);
}

const struct coll_alg coll_allgather_direct = {
    .name = "direct", .op = COLL_ALLGATHER, .fn = run,
    .doc = "ours: every member gets each block straight from its owner's MPB region",
};
