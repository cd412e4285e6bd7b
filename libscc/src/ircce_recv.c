/*
 * ircce_recv.c - iRCCE's non-blocking receives, their test/wait, probe.
 */
#include <limits.h>

#include "internal.h"

static int irecv(char *buf, ssize_t size, int source, iRCCE_RECV_REQUEST *r,
                 int sync)
{
    int err;

    if (size < 0 || (uintmax_t)size > INT_MAX)
        return scc_error(RCCE_ERROR_MESSAGE_LENGTH);
    if (source != iRCCE_ANY_SOURCE &&
        (err = scc_check_ue(source)) != RCCE_SUCCESS)
        return err;
    if (source == scc_self.iam)     /* would wait for itself forever */
        return scc_error(RCCE_ERROR_ID);
    if (!buf && size)
        return scc_error(RCCE_ERROR_TARGET);
    if (!r) {       /* iRCCE: no request means a blocking receive */
        iRCCE_RECV_REQUEST mine;
        if ((err = irecv(buf, size, source, &mine, sync)) < 0)
            scc_wait_recv(&mine);
        if (err > 0)
            return err;
        return mine.error;
    }

    r->privbuf = buf;
    r->size = (size_t)size;
    r->source = source;
    r->sync = sync;
    r->label = 0;
    r->finished = 0;
    r->started = 0;
    r->error = 0;
    r->next = NULL;
    if (!size) {
        r->finished = 1;
        return iRCCE_SUCCESS;
    }
    if (source == iRCCE_ANY_SOURCE) {
        if (scc_self.any_tail)
            scc_self.any_tail->next = r;
        else
            scc_self.any_head = r;
        scc_self.any_tail = r;
        iRCCE_irecv_push();
        if (r->finished)
            return iRCCE_SUCCESS;
        return r->source == iRCCE_ANY_SOURCE ? iRCCE_RESERVED : iRCCE_PENDING;
    }
    scc_irecv_start(r);
    if (r->finished)
        return iRCCE_SUCCESS;
    return scc_self.irecv_head[source] == r ? iRCCE_PENDING : iRCCE_RESERVED;
}

int iRCCE_irecv(char *buf, ssize_t size, int source, iRCCE_RECV_REQUEST *r)
{
    return irecv(buf, size, source, r, 0);
}

int iRCCE_isrecv(char *buf, ssize_t size, int source, iRCCE_RECV_REQUEST *r)
{
    return irecv(buf, size, source, r, 1);
}

int iRCCE_irecv_test(iRCCE_RECV_REQUEST *r, int *test)
{
    int moved = scc_progress();
    int done = r ? r->finished : !(scc_self.nrecvq || scc_self.any_head);

    scc_idle(moved || done);
    if (test)
        *test = done;
    return done ? iRCCE_SUCCESS : iRCCE_PENDING;
}

int iRCCE_irecv_wait(iRCCE_RECV_REQUEST *r)
{
    unsigned int spins = 0;

    if (r) {
        scc_wait_recv(r);
        return r->error ? r->error : iRCCE_SUCCESS;
    }
    while (scc_self.nrecvq || scc_self.any_head) {
        spins = scc_progress() ? 0 : spins + plat_spin_step;
        plat_relax(spins);
    }
    return iRCCE_SUCCESS;
}

int iRCCE_srecv(char *buf, ssize_t size, int source)
{
    return irecv(buf, size, source, NULL, 1);
}

/*
 * The test of a blocking receive that must not block (RCCE_simple_recv_test
 * and iRCCE_srecv_test, each of which then receives with its own blocking
 * receive): *ready = 1 if the message from source is coming and neither a
 * queued receive nor a receive in progress claims it, so that it can be
 * received now; *ready = 0 after pushing the pending requests and waiting
 * a little, as any test call that finds nothing does, or on an error.
 */
int scc_recv_test(char *buf, size_t size, int source, int *ready)
{
    int err;

    *ready = 0;
    if (size > INT_MAX)
        return scc_error(RCCE_ERROR_MESSAGE_LENGTH);
    if ((err = scc_check_ue(source)))
        return err;
    if (!buf && size)
        return scc_error(RCCE_ERROR_TARGET);
    if (size && (scc_self.irecv_head[source] || scc_self.recv_port[source] ||
                 !chan_incoming(source))) {
        scc_idle(scc_progress());
        return RCCE_SUCCESS;
    }
    *ready = 1;
    return RCCE_SUCCESS;
}

int iRCCE_srecv_test(char *buf, ssize_t size, int source, int *test)
{
    int ready, err = scc_recv_test(buf, (size_t)size, source, &ready);

    if (test)
        *test = ready;
    if (err || !ready)
        return err;
    return iRCCE_srecv(buf, size, source);
}

/* A message from source (or any source) waits and no receive is queued
 * for it: *test_flag = 1, *test_rank = the source. Pushes pending requests
 * too, and waits a little when nothing happened, like a test call. */
int iRCCE_iprobe(int source, int *test_rank, int *test_flag)
{
    int found = -1, moved;

    if (source != iRCCE_ANY_SOURCE) {
        int err = scc_check_ue(source);
        if (err != RCCE_SUCCESS)
            return err;
    }
    moved = scc_progress();
    for (int s = 0; s < scc_self.np && found < 0; s++)
        if ((source == iRCCE_ANY_SOURCE ? s != scc_self.iam : s == source) &&
            !scc_self.irecv_head[s] && !scc_self.recv_port[s] && chan_incoming(s))
            found = s;
    if (found >= 0) {
        scc_self.recent_source = found;
        scc_self.recent_length = (int)(plat_load_relaxed(
            my_mpb() + SCC_MPB_SENT_LINE(found) + SCC_LINE_SIZE) &
            ~SCC_SIZE_LOCKSTEP);
    }
    scc_idle(moved || found >= 0);
    if (test_rank)
        *test_rank = found >= 0 ? found : iRCCE_ANY_SOURCE;
    if (test_flag)
        *test_flag = found >= 0;
    return iRCCE_SUCCESS;
}

/* iprobe until a message is there (iprobe does the waiting). */
int iRCCE_probe(int source, int *test_rank)
{
    int flag = 0, err;

    while ((err = iRCCE_iprobe(source, test_rank, &flag)) == iRCCE_SUCCESS &&
           !flag)
        ;
    return err;
}
