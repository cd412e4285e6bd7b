/*
 * bcast_binomial.c - RCCE_comm's binomial broadcast (001 section 5.2):
 * log2(n) rounds of blocking sends down a binomial tree rooted at the
 * root; the whole message at each step.
 */
#include "../core/coll.h"

static int run(struct coll_call *c)
{
    int n = c->n, me = (c->me - c->root + n) % n, mask = 1, err;

    while (mask < n) {
        if (me & mask) {
            if ((err = coll_recv(c, c->out, c->bytes, (me - mask + c->root) % n)))
                return err;
            break;
        }
        mask <<= 1;
    }
    for (mask >>= 1; mask > 0; mask >>= 1)
        if (me + mask < n &&
            (err = coll_send(c, c->out, c->bytes, (me + mask + c->root) % n)))
            return err;
    return RCCE_SUCCESS;
}

const struct coll_alg coll_bcast_binomial = {
    .name = "binomial", .op = COLL_BCAST, .fn = run,
    .doc = "binomial tree of blocking sends (RCCE_comm, 001 section 5.2)",
};
