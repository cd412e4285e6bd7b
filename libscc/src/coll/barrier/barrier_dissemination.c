/*
 * barrier_dissemination.c - RCCE_barrier's default, the library's own
 * dissemination barrier (src/barrier.c), as a barrier algorithm that can
 * be chosen by name.
 */
#include "../core/coll.h"

static int run(struct coll_call *c)
{
    return scc_barrier_dissemination((RCCE_COMM *)c->comm);
}

const struct coll_alg coll_barrier_dissemination = {
    .name = "dissemination", .op = COLL_BARRIER, .fn = run,
    .doc = "dissemination barrier on MPB lines, log2(n) rounds (libscc's RCCE_barrier)",
};
