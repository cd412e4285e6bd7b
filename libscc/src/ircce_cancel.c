/*
 * ircce_cancel.c - taking back requests that have not moved any data yet.
 *
 * A request can be cancelled while it waits in a queue, and also at the
 * head of its queue as long as it has posted (send) or taken (receive) no
 * chunk: until then it has written nothing into another UE's MPB, so
 * dropping it leaves the channel as if it had never been issued.
 */
#include "internal.h"

static int unlink_send(iRCCE_SEND_REQUEST *r)
{
    iRCCE_SEND_REQUEST *prev = NULL, *p = scc_self.isend_head;

    while (p && p != r) {
        prev = p;
        p = p->next;
    }
    if (!p)
        return 0;
    if (prev)
        prev->next = r->next;
    else
        scc_self.isend_head = r->next;
    if (scc_self.isend_tail == r)
        scc_self.isend_tail = prev;
    r->next = NULL;
    return 1;
}

int iRCCE_isend_cancel(iRCCE_SEND_REQUEST *r, int *test)
{
    if (test)
        *test = 0;
    if (!r || r->finished)
        return iRCCE_NOT_ENQUEUED;
    if (r->label && r->xfer.next > 0)
        return iRCCE_PENDING;           /* data is on its way */
    if (!unlink_send(r))
        return iRCCE_NOT_ENQUEUED;
    if (r->label)
        scc_self.send_port = NULL;
    r->label = 0;
    if (test)
        *test = 1;
    return iRCCE_SUCCESS;
}

static int unlink_recv(iRCCE_RECV_REQUEST **head, iRCCE_RECV_REQUEST **tail,
                       iRCCE_RECV_REQUEST *r)
{
    iRCCE_RECV_REQUEST *prev = NULL, *p = *head;

    while (p && p != r) {
        prev = p;
        p = p->next;
    }
    if (!p)
        return 0;
    if (prev)
        prev->next = r->next;
    else
        *head = r->next;
    if (*tail == r)
        *tail = prev;
    r->next = NULL;
    return 1;
}

int iRCCE_irecv_cancel(iRCCE_RECV_REQUEST *r, int *test)
{
    int s;

    if (test)
        *test = 0;
    if (!r || r->finished)
        return iRCCE_NOT_ENQUEUED;
    s = r->source;
    if (s == iRCCE_ANY_SOURCE) {
        if (!unlink_recv(&scc_self.any_head, &scc_self.any_tail, r))
            return iRCCE_NOT_ENQUEUED;
    } else {
        if (s < 0 || s >= scc_self.np)
            return iRCCE_NOT_ENQUEUED;
        if (r->label && r->xfer.next > 0)
            return iRCCE_PENDING;       /* part of it is already here */
        if (!unlink_recv(&scc_self.irecv_head[s], &scc_self.irecv_tail[s], r))
            return iRCCE_NOT_ENQUEUED;
        if (r->label)
            scc_self.recv_port[s] = NULL;
        if (!scc_self.irecv_head[s])
            scc_self.nrecvq--;
    }
    r->label = 0;
    if (test)
        *test = 1;
    return iRCCE_SUCCESS;
}
