/*
 * allreduce_kary.c - ours: the one-sided k-ary reduction tree to rank 0
 * (reduce_kary.c), then the broadcast `auto` (or the program's choice for
 * bcast) picks for the vector, so every member ends with rank 0's bits.
 * For short vectors both halves cost a few signal hops instead of RCCE's
 * two binomial trees of blocking sends.
 */
#include "kary.h"

static int run(struct coll_call *c)
{
    struct coll_call r = *c, b = *c;
    int err;

    r.op = COLL_REDUCE;
    r.root = 0;
    err = coll_kary_reduce(&r, (int)c->p[KARY_P_K], (int)c->p[KARY_P_CHUNK], c->out);
    if (err)
        return err;
    b.op = COLL_BCAST;
    b.root = 0;
    b.in = NULL;
    return coll_dispatch(&b);
}

const struct coll_alg coll_allreduce_kary = {
    .name = "kary", .op = COLL_ALLREDUCE, .fn = run, .nparam = 2,
    .param = { KARY_PARAMS },
    .doc = "ours: one-sided k-ary tree reduce to rank 0, then the selected broadcast",
};
