/*
 * allgather_ring.c - allgather on a ring: in n-1 steps each member passes
 * the block it received last to its right neighbour. Even ranks send
 * first, odd ranks receive first, so blocking sends cannot deadlock
 * (an odd ring's last pair is ordered by its ranks too).
 */
#include <string.h>

#include "../core/coll.h"

static int run(struct coll_call *c)
{
    int n = c->n, me = c->me, right = (me + 1) % n, left = (me - 1 + n) % n, err;
    size_t b = c->bytes;

    memmove(c->out + (size_t)me * b, c->in, b);
    for (int s = 0; s < n - 1; s++) {
        int out = (me - s + n) % n, in = (me - s - 1 + n) % n;

        if (me % 2 == 0 && me != n - 1) {
            if ((err = coll_send(c, c->out + (size_t)out * b, b, right)) ||
                (err = coll_recv(c, c->out + (size_t)in * b, b, left)))
                return err;
        } else {
            if ((err = coll_recv(c, c->out + (size_t)in * b, b, left)) ||
                (err = coll_send(c, c->out + (size_t)out * b, b, right)))
                return err;
        }
    }
    return RCCE_SUCCESS;
}

const struct coll_alg coll_allgather_ring = {
    .name = "ring", .op = COLL_ALLGATHER, .fn = run,
    .doc = "ring of blocking sends, n-1 steps",
};
