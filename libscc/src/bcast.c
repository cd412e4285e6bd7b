/*
 * bcast.c - RCCE_bcast: a binomial tree over the communicator, rooted at
 * member root (a rank in the communicator, as in RCCE). log2(size) rounds
 * instead of RCCE's size-1 sends from the root.
 */
#include "internal.h"

int scc_bcast(char *buf, size_t num, int root, const RCCE_COMM *comm)
{
    int n = comm->size, me = (comm->my_rank - root + n) % n, mask = 1, err;

    while (mask < n) {
        if (me & mask) {
            int from = comm->member[(me - mask + root) % n];
            if ((err = RCCE_simple_recv(buf, num, from)))
                return err;
            break;
        }
        mask <<= 1;
    }
    for (mask >>= 1; mask > 0; mask >>= 1) {
        if (me + mask < n) {
            int to = comm->member[(me + mask + root) % n];
            if ((err = RCCE_simple_send(buf, num, to)))
                return err;
        }
    }
    return RCCE_SUCCESS;
}

int RCCE_bcast(char *buf, size_t num, int root, RCCE_COMM comm)
{
    if (comm.initialized != RCCE_COMM_INITIALIZED)
        return scc_error(RCCE_ERROR_COMM_UNDEFINED);
    if (root < 0 || root >= comm.size)
        return scc_error(RCCE_ERROR_ID);
    if (!buf && num)
        return scc_error(RCCE_ERROR_TARGET);
    return scc_bcast(buf, num, root, &comm);
}
