/*
 * scatter_linear.c - the root sends each member its block in turn
 * (RCCE's "simple" pattern, as RCCE_comm's scatter baseline).
 */
#include <string.h>

#include "../core/coll.h"

static int run(struct coll_call *c)
{
    int err;

    if (c->me != c->root)
        return coll_recv(c, c->out, c->bytes, c->root);
    for (int i = 0; i < c->n; i++) {
        const char *blk = c->in + (size_t)i * c->bytes;

        if (i == c->me)
            memmove(c->out, blk, c->bytes);
        else if ((err = coll_send(c, blk, c->bytes, i)))
            return err;
    }
    return RCCE_SUCCESS;
}

const struct coll_alg coll_scatter_linear = {
    .name = "linear", .op = COLL_SCATTER, .fn = run,
    .doc = "the root sends each member its block in turn",
};
