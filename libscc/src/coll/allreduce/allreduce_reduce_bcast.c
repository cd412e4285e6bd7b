/*
 * allreduce_reduce_bcast.c - RCCE's allreduce: a binomial reduction to
 * rank 0, then a binomial broadcast of the result, so every member ends
 * with the same bits.
 */

#include "../core/coll.h"

int coll_binomial_reduce(struct coll_call *c, char *acc, char *tmp);

static int run(struct coll_call *c)
{
    char *tmp = scc_scratch(SCC_SCRATCH_OWN, c->bytes);
    struct coll_call b = *c;
    int err;

    if (!tmp)
        return scc_error(RCCE_ERROR_MALLOC);
    c->root = 0;
    err = coll_binomial_reduce(c, c->out, tmp);
    if (err)
        return err;
    b.op = COLL_BCAST;
    b.root = 0;
    extern const struct coll_alg coll_bcast_binomial;
    return coll_bcast_binomial.fn(&b);
}

const struct coll_alg coll_allreduce_reduce_bcast = {
    .name = "reduce_bcast", .op = COLL_ALLREDUCE, .fn = run,
    .doc = "binomial reduce to rank 0, then binomial broadcast (RCCE's allreduce)",
};
