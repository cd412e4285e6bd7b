/*
 * send.c - RCCE's simplified send and receive: blocking, any size, and
 * synchronous (the send returns once the receiver has all the data).
 * With iRCCE requests pending they run through iRCCE's queues, so they
 * keep their order with those requests and push them while they wait;
 * with none, they drive the channel directly (the same steps).
 */
#include <limits.h>

#include "internal.h"

static int check_size(size_t size)
{
    return size > INT_MAX ? scc_error(RCCE_ERROR_MESSAGE_LENGTH) : RCCE_SUCCESS;
}

/* Nothing queued and the port free: a blocking call can drive the channel
 * itself, and while it waits there is nothing else to push. The queued
 * path does the same steps through iRCCE's requests and progress engine,
 * at about twice the instructions: on the chip those are SCC time. */
static int quiet(void)
{
    return !scc_self.isend_head && !scc_self.nrecvq && !scc_self.any_head;
}

static int can_fast(const char *buf, size_t size, int ue)
{
    return quiet() && buf && size && ue >= 0 && ue < scc_self.np &&
           ue != scc_self.iam;
}

/* Step a transfer until it is done, waiting as the library's loops do. */
static inline void drive(struct scc_xfer *x, int (*step)(struct scc_xfer *))
{
    unsigned int spins = 0, before;

    for (before = x->next; !step(x); before = x->next) {
        spins = x->next != before ? 0 : spins + plat_spin_step;
        plat_relax(spins);
    }
}

int RCCE_simple_send(char *buf, size_t size, int dest)
{
    int err = check_size(size);

    if (err)
        return err;
    if (can_fast(buf, size, dest) && !scc_self.send_port) {
        struct scc_xfer x;

        chan_send_begin(&x, buf, size, dest);
        scc_self.send_port = &x;
        drive(&x, chan_send_step);
        scc_self.send_port = NULL;
        return RCCE_SUCCESS;
    }
    return iRCCE_ssend(buf, (ssize_t)size, dest);
}

int RCCE_simple_recv(char *buf, size_t size, int source)
{
    int err = check_size(size);

    if (err)
        return err;
    if (source == iRCCE_ANY_SOURCE)     /* RCCE has no wildcard */
        return scc_error(RCCE_ERROR_ID);
    if (can_fast(buf, size, source) && !scc_self.recv_port[source]) {
        struct scc_xfer x;

        chan_recv_begin(&x, buf, size, source);
        scc_self.recv_port[source] = &x;
        drive(&x, chan_recv_step);
        scc_self.recv_port[source] = NULL;
        scc_self.recent_source = source;        /* as finish_recv does */
        scc_self.recent_length = (int)x.msg;
        return x.msg != size ? RCCE_ERROR_MESSAGE_LENGTH : RCCE_SUCCESS;
    }
    return iRCCE_srecv(buf, (ssize_t)size, source);
}

/* Receive if the message is already coming: *test = 1 and the data, or
 * *test = 0 and nothing happened. */
int RCCE_simple_recv_test(char *buf, size_t size, int source, int *test)
{
    int ready, err = scc_recv_test(buf, size, source, &ready);

    if (test)
        *test = ready;
    if (err || !ready)
        return err;
    return RCCE_simple_recv(buf, size, source);
}
