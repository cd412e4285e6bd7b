/*
 * ircce_send.c - iRCCE's non-blocking sends and their test/wait.
 */
#include <limits.h>

#include "internal.h"

static int isend(char *buf, ssize_t size, int dest, iRCCE_SEND_REQUEST *r,
                 int sync)
{
    int err;

    if (size < 0 || (uintmax_t)size > INT_MAX)
        return scc_error(RCCE_ERROR_MESSAGE_LENGTH);
    if ((err = scc_check_ue(dest)) != RCCE_SUCCESS)
        return err;
    if (dest == scc_self.iam)       /* would wait for itself forever */
        return scc_error(RCCE_ERROR_ID);
    if (!buf && size)
        return scc_error(RCCE_ERROR_SOURCE);
    if (!r) {       /* iRCCE: no request means a blocking send */
        iRCCE_SEND_REQUEST mine;
        if ((err = isend(buf, size, dest, &mine, sync)) < 0)
            scc_wait_send(&mine);
        return err < 0 ? iRCCE_SUCCESS : err;
    }

    r->privbuf = buf;
    r->size = (size_t)size;
    r->dest = dest;
    r->sync = sync;
    r->label = 0;
    r->finished = 0;
    r->next = NULL;
    if (!size) {
        r->finished = 1;
        return iRCCE_SUCCESS;
    }
    if (scc_self.isend_tail)
        scc_self.isend_tail->next = r;
    else
        scc_self.isend_head = r;
    scc_self.isend_tail = r;
    iRCCE_isend_push();
    if (r->finished)
        return iRCCE_SUCCESS;
    return scc_self.isend_head == r ? iRCCE_PENDING : iRCCE_RESERVED;
}

int iRCCE_isend(char *buf, ssize_t size, int dest, iRCCE_SEND_REQUEST *r)
{
    return isend(buf, size, dest, r, 0);
}

int iRCCE_issend(char *buf, ssize_t size, int dest, iRCCE_SEND_REQUEST *r)
{
    return isend(buf, size, dest, r, 1);
}

int iRCCE_isend_test(iRCCE_SEND_REQUEST *r, int *test)
{
    int moved = scc_progress(), done = r ? r->finished : !scc_self.isend_head;

    scc_idle(moved || done);
    if (test)
        *test = done;
    return done ? iRCCE_SUCCESS : iRCCE_PENDING;
}

int iRCCE_isend_wait(iRCCE_SEND_REQUEST *r)
{
    unsigned int spins = 0;

    if (r) {
        scc_wait_send(r);
        return iRCCE_SUCCESS;
    }
    while (scc_self.isend_head) {
        spins = scc_progress() ? 0 : spins + plat_spin_step;
        plat_relax(spins);
    }
    return iRCCE_SUCCESS;
}

int iRCCE_ssend(char *buf, ssize_t size, int dest)
{
    return isend(buf, size, dest, NULL, 1);
}
