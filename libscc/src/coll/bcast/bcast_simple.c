/*
 * bcast_simple.c - RCCE's simple broadcast, RCCE_bcast (002 lines
 * 11049-11065, "Simple", T(P-1)): the root sends the whole message to
 * every other member in turn, with blocking sends.
 */
#include "../core/coll.h"

static int run(struct coll_call *c)
{
    int err;

    if (c->me != c->root)
        return c->n > 1 ? coll_recv(c, c->out, c->bytes, c->root) : RCCE_SUCCESS;
    for (int i = 1; i < c->n; i++)
        if ((err = coll_send(c, c->out, c->bytes, (c->root + i) % c->n)))
            return err;
    return RCCE_SUCCESS;
}

const struct coll_alg coll_bcast_simple = {
    .name = "simple", .op = COLL_BCAST, .fn = run,
    .doc = "the root sends the message to each member in turn (RCCE_bcast, 002 lines 11049-11065)",
};
