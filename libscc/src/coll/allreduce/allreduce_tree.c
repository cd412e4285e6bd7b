/*
 * allreduce_tree.c - ours: the one-sided reduction tree to rank 0
 * (reduce_tree.c), then the broadcast `auto` (or the program's choice for
 * bcast) picks for the vector, so every member ends with rank 0's bits.
 * For short vectors both halves cost a few signal hops instead of RCCE's
 * two binomial trees of blocking sends.
 */
#include "../engine/tree.h"

static int run(struct coll_call *c)
{
    struct coll_call r = *c, b = *c;
    int err;

    r.op = COLL_REDUCE;
    r.root = 0;
    err = coll_tree_reduce(&r, TREE_K(c), (int)c->p[TREE_P_CHUNK], c->out);
    if (err)
        return err;
    b.op = COLL_BCAST;
    b.root = 0;
    b.in = NULL;
    return coll_dispatch(&b);
}

const struct coll_alg coll_allreduce_tree = {
    .name = "tree", .op = COLL_ALLREDUCE, .fn = run, .nparam = 3,
    .param = { TREE_PARAMS },
    .doc = "ours: one-sided tree reduce to rank 0, then the selected broadcast",
};
