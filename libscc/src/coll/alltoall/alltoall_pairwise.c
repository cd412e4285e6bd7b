/*
 * alltoall_pairwise.c - alltoall in n-1 steps: in step s member i sends
 * its block for i+s and receives the block of i-s, with non-blocking
 * iRCCE requests so that no order of blocking sends can deadlock.
 */
#include <string.h>

#include "../core/coll.h"

static int run(struct coll_call *c)
{
    int n = c->n, me = c->me, err;
    size_t b = c->bytes;

    memmove(c->out + (size_t)me * b, c->in + (size_t)me * b, b);
    for (int s = 1; s < n; s++) {
        int to = (me + s) % n, from = (me - s + n) % n;
        iRCCE_SEND_REQUEST sr;
        iRCCE_RECV_REQUEST rr;

        err = iRCCE_isend((char *)c->in + (size_t)to * b, (ssize_t)b, coll_ue(c, to), &sr);
        if (err != iRCCE_SUCCESS && err != iRCCE_PENDING)
            return err;
        err = iRCCE_irecv(c->out + (size_t)from * b, (ssize_t)b, coll_ue(c, from), &rr);
        if (err != iRCCE_SUCCESS && err != iRCCE_PENDING)
            return err;
        if ((err = iRCCE_isend_wait(&sr)) || (err = iRCCE_irecv_wait(&rr)))
            return err;
    }
    return RCCE_SUCCESS;
}

const struct coll_alg coll_alltoall_pairwise = {
    .name = "pairwise", .op = COLL_ALLTOALL, .fn = run,
    .doc = "n-1 steps of pairwise exchange on non-blocking iRCCE requests",
};
