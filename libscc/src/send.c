/*
 * send.c - RCCE's simplified send and receive: blocking, any size, and
 * synchronous (the send returns once the receiver has all the data).
 * They run through iRCCE's queues, so they keep their order with pending
 * iRCCE requests to or from the same UE, and they push those requests
 * while they wait.
 */
#include <limits.h>

#include "internal.h"

static int check_size(size_t size)
{
    return size > INT_MAX ? scc_error(RCCE_ERROR_MESSAGE_LENGTH) : RCCE_SUCCESS;
}

int RCCE_simple_send(char *buf, size_t size, int dest)
{
    int err = check_size(size);

    if (err)
        return err;
    return iRCCE_ssend(buf, (ssize_t)size, dest);
}

int RCCE_simple_recv(char *buf, size_t size, int source)
{
    int err = check_size(size);

    if (err)
        return err;
    if (source == iRCCE_ANY_SOURCE)     /* RCCE has no wildcard */
        return scc_error(RCCE_ERROR_ID);
    return iRCCE_srecv(buf, (ssize_t)size, source);
}

/* Receive if the message is already coming: *test = 1 and the data, or
 * *test = 0 and nothing happened. */
int RCCE_simple_recv_test(char *buf, size_t size, int source, int *test)
{
    int err;

    if (test)
        *test = 0;
    if ((err = check_size(size)) || (err = scc_check_ue(source)))
        return err;
    if (!buf && size)
        return scc_error(RCCE_ERROR_TARGET);
    if (size && (scc_self.irecv_head[source] || scc_self.recv_port[source] ||
                 !chan_incoming(source))) {
        scc_idle(scc_progress());
        return RCCE_SUCCESS;
    }
    if (test)
        *test = 1;
    return RCCE_simple_recv(buf, size, source);
}
