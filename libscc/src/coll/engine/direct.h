/*
 * direct.h - one-sided exchange through the members' MPB regions
 * (direct.c), for allgather_direct.c and alltoall_direct.c.
 */
#ifndef SCC_COLL_DIRECT_H
#define SCC_COLL_DIRECT_H

#include "../core/coll.h"

/* Member d gets block d of each other member o's c->in (stride =
 * c->bytes: an alltoall), or o's whole c->in (stride = 0: an allgather),
 * into c->out + o * c->bytes, and copies its own there itself. */
int coll_direct(const struct coll_call *c, size_t stride);

#endif
