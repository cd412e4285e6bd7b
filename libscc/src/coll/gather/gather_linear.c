/*
 * gather_linear.c - the root receives each member's block in turn.
 */
#include <string.h>

#include "../core/coll.h"

static int run(struct coll_call *c)
{
    int err;

    if (c->me != c->root)
        return coll_send(c, c->in, c->bytes, c->root);
    for (int i = 0; i < c->n; i++) {
        char *blk = c->out + (size_t)i * c->bytes;

        if (i == c->me)
            memmove(blk, c->in, c->bytes);
        else if ((err = coll_recv(c, blk, c->bytes, i)))
            return err;
    }
    return RCCE_SUCCESS;
}

const struct coll_alg coll_gather_linear = {
    .name = "linear", .op = COLL_GATHER, .fn = run,
    .doc = "the root receives each member's block in turn",
};
