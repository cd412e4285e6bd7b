/*
 * gory.c - RCCE's gory send and receive (with -DGORY they are RCCE_send,
 * RCCE_recv and RCCE_recv_test): the caller supplies the comm buffer
 * (from RCCE_malloc) and two flags, and the protocol is Intel's. Per chunk
 * the sender puts into its own comm buffer, sets `sent` at the receiver
 * and waits for `ready`; the receiver waits for `sent`, clears it, gets the
 * chunk from the sender's comm buffer and sets `ready` at the sender.
 */
#include "internal.h"

static int check(char *privbuf, t_vcharp combuf, size_t chunk,
                 RCCE_FLAG *ready, RCCE_FLAG *sent, size_t size, int ue,
                 int bad_buffer)
{
    int err;

    if ((err = scc_check_ue(ue)))
        return err;
    if (ue == scc_self.iam)
        return scc_error(RCCE_ERROR_ID);
    if (!ready || !sent || !*ready || !*sent)
        return scc_error(RCCE_ERROR_FLAG_UNDEFINED);
    if (chunk == 0 || chunk > RCCE_BUFF_SIZE_MAX)
        return scc_error(RCCE_ERROR_MESSAGE_LENGTH);
    if (!scc_in_heap(combuf, chunk))
        return scc_error(RCCE_ERROR_DATA_OVERLAP);
    if (!privbuf && size)
        return scc_error(bad_buffer);
    return RCCE_SUCCESS;
}

int RCCE_gory_send(char *privbuf, t_vcharp combuf, size_t chunk,
                   RCCE_FLAG *ready, RCCE_FLAG *sent, size_t size, int dest)
{
    int err = check(privbuf, combuf, chunk, ready, sent, size, dest,
                    RCCE_ERROR_SOURCE);

    for (size_t off = 0; !err && off < size; off += chunk) {
        int n = (int)(size - off < chunk ? size - off : chunk);
        if ((err = RCCE_put(combuf, (t_vcharp)privbuf + off, n, scc_self.iam)) ||
            (err = RCCE_flag_write(sent, RCCE_FLAG_SET, dest)) ||
            (err = RCCE_wait_until(*ready, RCCE_FLAG_SET)))
            break;
        err = RCCE_flag_write(ready, RCCE_FLAG_UNSET, scc_self.iam);
    }
    return err;
}

int RCCE_gory_recv(char *privbuf, t_vcharp combuf, size_t chunk,
                   RCCE_FLAG *ready, RCCE_FLAG *sent, size_t size, int source)
{
    int err = check(privbuf, combuf, chunk, ready, sent, size, source,
                    RCCE_ERROR_TARGET);

    for (size_t off = 0; !err && off < size; off += chunk) {
        int n = (int)(size - off < chunk ? size - off : chunk);
        if ((err = RCCE_wait_until(*sent, RCCE_FLAG_SET)) ||
            (err = RCCE_flag_write(sent, RCCE_FLAG_UNSET, scc_self.iam)) ||
            (err = RCCE_get((t_vcharp)privbuf + off, combuf, n, source)))
            break;
        err = RCCE_flag_write(ready, RCCE_FLAG_SET, source);
    }
    return err;
}

int RCCE_gory_recv_test(char *privbuf, t_vcharp combuf, size_t chunk,
                        RCCE_FLAG *ready, RCCE_FLAG *sent, size_t size,
                        int source, int *test)
{
    int err = check(privbuf, combuf, chunk, ready, sent, size, source,
                    RCCE_ERROR_TARGET);
    int set = 0;

    if (test)
        *test = 0;
    if (err || (err = RCCE_test_flag(*sent, RCCE_FLAG_SET, &set)) || !set)
        return err;
    if (test)
        *test = 1;
    return RCCE_gory_recv(privbuf, combuf, chunk, ready, sent, size, source);
}
