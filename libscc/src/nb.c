/*
 * nb.c - RCCEnb (RCCEnb.h): one send and one receive slot per UE. No
 * request handles, no lists: a slot is the transfer itself, and starting
 * one only checks that nothing else holds that direction of the channel.
 */
#include <limits.h>

#include "internal.h"

static int check(char *buf, size_t size, int ue, int bad_buffer)
{
    int err;

    if (size > INT_MAX)
        return scc_error(RCCE_ERROR_MESSAGE_LENGTH);
    if ((err = scc_check_ue(ue)))
        return err;
    if (ue == scc_self.iam)
        return scc_error(RCCE_ERROR_ID);
    if (!buf && size)
        return scc_error(bad_buffer);
    return RCCE_SUCCESS;
}

static void push_send(void)
{
    if (scc_self.nb_send_on && chan_send_step(&scc_self.nb_send)) {
        scc_self.nb_send_on = 0;
        scc_self.send_port = NULL;
    }
}

static void push_recv(void)
{
    struct scc_xfer *x = &scc_self.nb_recv;

    if (scc_self.nb_recv_on && chan_recv_step(x)) {
        scc_self.nb_recv_on = 0;
        scc_self.recv_port[x->peer] = NULL;
        scc_self.nb_recv_err = x->msg != x->size ? RCCE_ERROR_MESSAGE_LENGTH : 0;
    }
}

int RCCEnb_isend(char *buf, size_t size, int dest)
{
    int err = check(buf, size, dest, RCCE_ERROR_SOURCE);

    if (err)
        return err;
    if (scc_self.nb_send_on || scc_self.send_port || scc_self.isend_head)
        return RCCE_REJECTED;
    if (!size)
        return RCCE_SUCCESS;
    chan_send_begin(&scc_self.nb_send, buf, size, dest);
    scc_self.send_port = &scc_self.nb_send;
    scc_self.nb_send_on = 1;
    push_send();
    return RCCE_SUCCESS;
}

int RCCEnb_irecv(char *buf, size_t size, int source)
{
    int err = check(buf, size, source, RCCE_ERROR_TARGET);

    if (err)
        return err;
    if (scc_self.nb_recv_on || scc_self.recv_port[source] ||
        scc_self.irecv_head[source])
        return RCCE_REJECTED;
    scc_self.nb_recv_err = 0;
    if (!size)
        return RCCE_SUCCESS;
    chan_recv_begin(&scc_self.nb_recv, buf, size, source);
    scc_self.recv_port[source] = &scc_self.nb_recv;
    scc_self.nb_recv_on = 1;
    push_recv();
    return RCCE_SUCCESS;
}

/* Advance both slots; nonzero if either moved. */
static int push(void)
{
    unsigned int s = scc_self.nb_send.next, r = scc_self.nb_recv.next;
    int on = scc_self.nb_send_on + scc_self.nb_recv_on;

    push_send();
    push_recv();
    return s != scc_self.nb_send.next || r != scc_self.nb_recv.next ||
           on != scc_self.nb_send_on + scc_self.nb_recv_on;
}

int RCCEnb_test(int *send_done, int *recv_done)
{
    scc_idle(push() || !(scc_self.nb_send_on || scc_self.nb_recv_on));
    if (send_done)
        *send_done = !scc_self.nb_send_on;
    if (recv_done)
        *recv_done = !scc_self.nb_recv_on;
    return scc_self.nb_send_on || scc_self.nb_recv_on ? RCCE_PENDING
                                                      : RCCE_SUCCESS;
}

/* Wait until the slots in `which` (1 send, 2 receive) are idle. Queued
 * iRCCE requests are pushed too, so a mixed program cannot stall here. */
static int wait(int which)
{
    unsigned int spins = 0;

    for (;;) {
        int moved = push();
        if ((!scc_self.nb_send_on || !(which & 1)) &&
            (!scc_self.nb_recv_on || !(which & 2)))
            break;
        moved |= scc_progress();
        spins = moved ? 0 : spins + plat_spin_step;
        plat_relax(spins);
    }
    return which & 2 ? scc_self.nb_recv_err : RCCE_SUCCESS;
}

int RCCEnb_send_wait(void)
{
    return wait(1);
}

int RCCEnb_recv_wait(void)
{
    return wait(2);
}

int RCCEnb_wait(void)
{
    return wait(3);
}
