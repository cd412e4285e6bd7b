/*
 * reduce_binomial.c - a binomial reduction tree towards the root
 * (RCCE_comm's reduce): in round k, member i with bit k set sends its
 * partial result to i - 2^k and leaves. The caller's inbuf is never
 * written.
 */
#include <string.h>

#include "../core/coll.h"

/* Reduce the members' in[] into acc along the tree; the root's acc ends
 * with the result. tmp holds one incoming vector. */
int coll_binomial_reduce(struct coll_call *c, char *acc, char *tmp)
{
    int n = c->n, me = (c->me - c->root + n) % n, err;

    memmove(acc, c->in, c->bytes);
    for (int mask = 1; mask < n; mask <<= 1) {
        if (me & mask)
            return coll_send(c, acc, c->bytes, (me - mask + c->root) % n);
        if (me + mask < n) {
            if ((err = coll_recv(c, tmp, c->bytes, (me + mask + c->root) % n)))
                return err;
            coll_combine(acc, tmp, c->num, c->type, c->rop);
        }
    }
    return RCCE_SUCCESS;
}

static int run(struct coll_call *c)
{
    size_t line = SCC_SCRATCH_LINES(c->bytes);
    char *tmp = scc_scratch(SCC_SCRATCH_OWN, c->me == c->root ? c->bytes : line + c->bytes);

    if (!tmp)
        return scc_error(RCCE_ERROR_MALLOC);
    return coll_binomial_reduce(c, c->me == c->root ? c->out : tmp + line, tmp);
}

const struct coll_alg coll_reduce_binomial = {
    .name = "binomial", .op = COLL_REDUCE, .fn = run,
    .doc = "binomial reduction tree of blocking sends (RCCE_comm's reduce)",
};
