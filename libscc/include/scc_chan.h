/*
 * scc_chan.h - one message on its way over the MPB channel between two
 * UEs (libscc internals; public only because iRCCE and RCCEnb requests
 * embed it). The protocol is described in scc_mpb.h and src/chan.c.
 */
#ifndef SCC_CHAN_H
#define SCC_CHAN_H

#include <stddef.h>

struct scc_xfer {
    char *buf;              /* the caller's private buffer */
    size_t size;            /* bytes the caller gave */
    size_t msg;             /* bytes of the message (a receive learns it) */
    size_t chunk;           /* bytes per chunk */
    unsigned int base;      /* channel counter when the message began */
    unsigned int nchunks;   /* chunks in the message */
    unsigned int next;      /* chunks posted (send) or taken (receive) */
    int peer;               /* the other UE's rank */
    int started;            /* receive: the message's size is known */
    int lockstep;           /* one whole-buffer chunk in flight (RCCE 1.x) */
};

#endif
