/*
 * reduce_scatter_reduce.c - reduce_scatter as a binomial reduction of the
 * whole vector to rank 0, then a linear scatter of the blocks: the simple
 * baseline the bucket algorithms improve on.
 */

#include "../core/coll.h"

int coll_binomial_reduce(struct coll_call *c, char *acc, char *tmp);
extern const struct coll_alg coll_scatter_linear;

static int run(struct coll_call *c)
{
    size_t all = c->bytes * (size_t)c->n;
    /* OUTER: held across the scatter */
    char *acc = scc_scratch(SCC_SCRATCH_OUTER, 2 * SCC_SCRATCH_LINES(all)), *tmp;
    struct coll_call r = *c, s = *c;
    int err;

    if (!acc)
        return scc_error(RCCE_ERROR_MALLOC);
    tmp = acc + SCC_SCRATCH_LINES(all);
    r.root = 0;
    r.bytes = all;
    r.num = c->num * c->n;
    err = coll_binomial_reduce(&r, acc, tmp);
    if (!err) {
        s.op = COLL_SCATTER;
        s.root = 0;
        s.in = acc;
        err = coll_scatter_linear.fn(&s);
    }
    return err;
}

const struct coll_alg coll_reduce_scatter_reduce = {
    .name = "reduce", .op = COLL_REDUCE_SCATTER, .fn = run,
    .doc = "binomial reduce of the whole vector to rank 0, then linear scatter",
};
