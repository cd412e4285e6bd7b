/*
 * stop_allgather.c - s-to-p broadcast as s broadcasts in turn: each
 * source's block goes down a binomial tree rooted at it. The baseline
 * the s-to-p algorithms of 003 improve on.
 */
#include <string.h>

#include "../core/coll.h"

extern const struct coll_alg coll_bcast_binomial;

static int run(struct coll_call *c)
{
    for (int i = 0; i < c->nsrc; i++) {
        struct coll_call b = *c;
        int err;

        b.op = COLL_BCAST;
        b.root = c->src[i];
        b.out = c->out + (size_t)i * c->bytes;
        if (c->me == b.root)
            memmove(b.out, c->in, c->bytes);
        if ((err = coll_bcast_binomial.fn(&b)))
            return err;
    }
    return RCCE_SUCCESS;
}

const struct coll_alg coll_stop_allgather = {
    .name = "allgather", .op = COLL_STOP, .fn = run,
    .doc = "each source broadcasts its block down a binomial tree, in turn",
};
