/*
 * rcce: RCCE_send/RCCE_recv of the record (S-Net's "RCCE" column), the
 * baseline: its own data path (the receiver's MPB, synchronous). RCCE has
 * no receive from any source, so a receiver of many takes them in turn.
 *
 * framed=1 sends the record's size first, then the record: what a runtime
 * whose records vary in size must do over RCCE, whose receive takes the
 * exact size and has no probe. 002 does not say how S-Net's RCCE version
 * framed its records; framed=0 is the lower bound, one RCCE_send.
 */
#include "notify.h"

static int next;
static uint32_t framed;

static int setup(const char *params)
{
    next = 0;
    return param_u32(params, "framed", 0, 0, 1, &framed);
}

static int xsend(int dest, const struct record *r)
{
    int size = REC_BYTES, err;

    if (framed && (err = RCCE_send((char *)&size, sizeof size, dest)) != RCCE_SUCCESS)
        return err;
    return RCCE_send((char *)r, REC_BYTES, dest);
}

static int xrecv(int from, struct record *r)
{
    int size = REC_BYTES;

    if (from < 0) {
        do
            from = next++ % ncores;
        while (from == me);
    }
    if (framed && (RCCE_recv((char *)&size, sizeof size, from) != RCCE_SUCCESS ||
                   size != REC_BYTES))
        return -1;
    return RCCE_recv((char *)r, size, from) == RCCE_SUCCESS ? from : -1;
}

const struct scheme scheme_rcce = {
    .name = "rcce", .params = "framed=0", .setup = setup, .xsend = xsend, .xrecv = xrecv,
};
