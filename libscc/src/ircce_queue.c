/*
 * ircce_queue.c - where pending iRCCE requests wait, and how they move.
 *
 * Sends: one FIFO. Only the head uses the channel (there is one payload
 * buffer per UE), so sends leave in posting order, as in iRCCE.
 * Receives: one FIFO per source; heads of different sources progress
 * independently, so receives complete in any order across sources.
 * Wildcard receives (iRCCE_ANY_SOURCE) wait in their own FIFO until a
 * source has a new message, no receive queued and a free port; they then
 * join that source's FIFO. The scan for such a source starts after the
 * last one matched, so 47 busy senders are served round-robin.
 * A port held by RCCEnb blocks that direction here until it is released.
 */
#include "internal.h"

const int iRCCE_ANY_SOURCE = -1;

/* Advance the send queue; nonzero if anything moved. */
static int push_sends(void)
{
    int moved = 0;
    iRCCE_SEND_REQUEST *r;

    while ((r = scc_self.isend_head) != NULL) {
        if (!r->label) {
            if (scc_self.send_port)
                break;
            chan_send_begin(&r->xfer, r->privbuf, r->size, r->dest);
            scc_self.send_port = &r->xfer;
            r->label = 1;
        }
        unsigned int before = r->xfer.next;
        if (!chan_send_step(&r->xfer)) {
            moved |= r->xfer.next != before;
            break;
        }
        r->finished = 1;
        scc_self.send_port = NULL;
        scc_self.isend_head = r->next;
        if (!r->next)
            scc_self.isend_tail = NULL;
        r->next = NULL;
        moved = 1;
    }
    return moved;
}

static void finish_recv(iRCCE_RECV_REQUEST *r)
{
    int s = r->source;

    r->finished = 1;
    r->error = r->xfer.msg != r->size ? RCCE_ERROR_MESSAGE_LENGTH : 0;
    scc_self.recent_source = s;
    scc_self.recent_length = (int)r->xfer.msg;
    scc_self.recv_port[s] = NULL;
    scc_self.irecv_head[s] = r->next;
    if (!r->next) {
        scc_self.irecv_tail[s] = NULL;
        scc_self.nrecvq--;
    }
    r->next = NULL;
}

/* Advance the receive queue of source s. */
static int push_recvs_from(int s)
{
    int moved = 0;
    iRCCE_RECV_REQUEST *r;

    while ((r = scc_self.irecv_head[s]) != NULL) {
        if (!r->label) {
            if (scc_self.recv_port[s])
                break;
            chan_recv_begin(&r->xfer, r->privbuf, r->size, s);
            scc_self.recv_port[s] = &r->xfer;
            r->label = 1;
        }
        unsigned int before = r->xfer.next;
        if (!chan_recv_step(&r->xfer)) {
            moved |= r->xfer.next != before;
            r->started = r->xfer.next > 0;
            break;
        }
        finish_recv(r);
        moved = 1;
    }
    return moved;
}

/* Append r to the queue of its (known) source and push that queue. */
int scc_irecv_start(iRCCE_RECV_REQUEST *r)
{
    int s = r->source;

    r->next = NULL;
    if (scc_self.irecv_tail[s])
        scc_self.irecv_tail[s]->next = r;
    else {
        scc_self.irecv_head[s] = r;
        scc_self.nrecvq++;
    }
    scc_self.irecv_tail[s] = r;
    return push_recvs_from(s);
}

/* A source a wildcard receive may take now, or -1. */
static int wildcard_source(void)
{
    int np = scc_self.np;

    for (int i = 0; i < np; i++) {
        int s = (scc_self.any_next + i) % np;
        if (s != scc_self.iam && !scc_self.irecv_head[s] &&
            !scc_self.recv_port[s] && chan_incoming(s))
            return s;
    }
    return -1;
}

static int match_wildcards(void)
{
    int moved = 0, s;
    iRCCE_RECV_REQUEST *r;

    while ((r = scc_self.any_head) != NULL && (s = wildcard_source()) >= 0) {
        scc_self.any_head = r->next;
        if (!r->next)
            scc_self.any_tail = NULL;
        r->source = s;
        scc_self.any_next = (s + 1) % scc_self.np;
        scc_irecv_start(r);
        moved = 1;
    }
    return moved;
}

int iRCCE_isend_push(void)
{
    push_sends();
    return scc_self.isend_head ? iRCCE_PENDING : iRCCE_SUCCESS;
}

int iRCCE_irecv_push(void)
{
    if (scc_self.nrecvq)
        for (int s = 0; s < scc_self.np; s++)
            if (scc_self.irecv_head[s])
                push_recvs_from(s);
    match_wildcards();
    return scc_self.nrecvq || scc_self.any_head ? iRCCE_PENDING : iRCCE_SUCCESS;
}

int scc_progress(void)
{
    int moved = 0;

    if (scc_self.isend_head)
        moved |= push_sends();
    if (scc_self.nrecvq)
        for (int s = 0; s < scc_self.np; s++)
            if (scc_self.irecv_head[s])
                moved |= push_recvs_from(s);
    if (scc_self.any_head)
        moved |= match_wildcards();
    return moved;
}

int iRCCE_push(void)
{
    scc_progress();
    return scc_self.isend_head || scc_self.nrecvq || scc_self.any_head
        ? iRCCE_PENDING : iRCCE_SUCCESS;
}

void scc_wait_send(iRCCE_SEND_REQUEST *r)
{
    unsigned int spins = 0;

    while (!r->finished) {
        spins = scc_progress() ? 0 : spins + plat_spin_step;
        if (!r->finished)
            plat_relax(spins);
    }
}

void scc_wait_recv(iRCCE_RECV_REQUEST *r)
{
    unsigned int spins = 0;

    while (!r->finished) {
        spins = scc_progress() ? 0 : spins + plat_spin_step;
        if (!r->finished)
            plat_relax(spins);
    }
}
