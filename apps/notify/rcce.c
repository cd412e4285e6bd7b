/*
 * rcce: RCCE_send/RCCE_recv of the record (S-Net's "RCCE" column), the
 * baseline: its own data path (the receiver's MPB, synchronous). RCCE has
 * no receive from any source, so a receiver of many takes them in turn.
 */
#include "notify.h"

static int next;

static int setup(const char *params)
{
    (void)params;
    next = 0;
    return 0;
}

static int xsend(int dest, const struct record *r)
{
    return RCCE_send((char *)r, REC_BYTES, dest);
}

static int xrecv(int from, struct record *r)
{
    if (from < 0) {
        do
            from = next++ % ncores;
        while (from == me);
    }
    return RCCE_recv((char *)r, REC_BYTES, from) == RCCE_SUCCESS ? from : -1;
}

const struct scheme scheme_rcce = {
    .name = "rcce", .params = "", .setup = setup, .xsend = xsend, .xrecv = xrecv,
};
