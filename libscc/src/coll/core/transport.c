/*
 * transport.c - point to point inside a collective: RCCE's blocking send
 * and receive, addressed by the member's rank in the call's communicator
 * (the MPB region's lending is region.c's).
 */
#include "coll.h"

int coll_send(const struct coll_call *c, const void *buf, size_t n, int rank)
{
    return RCCE_simple_send((char *)buf, n, coll_ue(c, rank));
}

int coll_recv(const struct coll_call *c, void *buf, size_t n, int rank)
{
    return RCCE_simple_recv((char *)buf, n, coll_ue(c, rank));
}
