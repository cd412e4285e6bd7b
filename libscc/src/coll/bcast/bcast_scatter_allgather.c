/*
 * bcast_scatter_allgather.c - RCCE_comm's scatter-allgather broadcast
 * (001 section 5.3.2, the large-message baseline of OC-Bcast): the message
 * is cut into n pieces, scattered down a binomial tree (relative rank r
 * gets pieces r .. r+mask-1 from r-mask), then a ring allgather: in each
 * of n-1 steps every member sends the piece it got last to its left
 * neighbour and gets a new one from its right neighbour (001: "core i
 * sends to core i-1"). Blocking p2p; odd relative ranks receive first, so
 * the synchronous sends of the ring cannot all wait at once.
 */
#include "../core/coll.h"

/* Piece i is bytes [off(i), off(i+1)): sizes differ by at most one. */
static size_t off(const struct coll_call *c, int i)
{
    return c->bytes / c->n * i + (c->bytes % c->n) * i / c->n;
}

static int to(const struct coll_call *c, int rel)
{
    return (rel + c->root) % c->n;
}

static int span(const struct coll_call *c, int from, int end, int peer, int send)
{
    size_t a, b;

    if (end > c->n)
        end = c->n;
    a = off(c, from), b = off(c, end);
    if (a == b)
        return RCCE_SUCCESS;
    return send ? coll_send(c, c->out + a, b - a, peer) : coll_recv(c, c->out + a, b - a, peer);
}

static int run(struct coll_call *c)
{
    int n = c->n, me = (c->me - c->root + n) % n, mask = 1, err;

    if (n == 1)
        return RCCE_SUCCESS;
    while (mask < n) {
        if (me & mask) {
            if ((err = span(c, me, me + mask, to(c, me - mask), 0)))
                return err;
            break;
        }
        mask <<= 1;
    }
    for (mask >>= 1; mask > 0; mask >>= 1)
        if (me + mask < n && (err = span(c, me + mask, me + 2 * mask, to(c, me + mask), 1)))
            return err;

    for (int step = 0; step < n - 1; step++) {
        int out = (me + step) % n, in = (me + step + 1) % n;
        int left = to(c, (me + n - 1) % n), right = to(c, (me + 1) % n);

        for (int half = 0; half < 2; half++) {
            err = (half == (me & 1)) ? span(c, out, out + 1, left, 1)
                                     : span(c, in, in + 1, right, 0);
            if (err)
                return err;
        }
    }
    return RCCE_SUCCESS;
}

const struct coll_alg coll_bcast_scatter_allgather = {
    .name = "scatter_allgather", .op = COLL_BCAST, .fn = run,
    .doc = "binomial scatter + ring allgather of blocking p2p (RCCE_comm, 001 section 5.3.2)",
};
