/*
 * putget.c - RCCE_put and RCCE_get: copies between private memory and the
 * MPB of any UE. The MPB side is given as an address in the caller's own
 * MPB (from RCCE_malloc); the same offset is used in UE ue's MPB.
 */
#include "internal.h"

int RCCE_put(t_vcharp target, t_vcharp source, int n, int ue)
{
    int err;

    if ((err = scc_check_ue(ue)))
        return err;
    if (n < 0)
        return scc_error(RCCE_ERROR_MESSAGE_LENGTH);
    if (!scc_in_heap(target, (size_t)n))
        return scc_error(RCCE_ERROR_TARGET);
    if (!source && n)
        return scc_error(RCCE_ERROR_SOURCE);
    /* The last line stays in the write-combine buffer, as with RCCE's own
     * RCCE_put: the next store to another line (the flag or barrier that
     * tells the peer) pushes it out. Flushing here would cost every put
     * an MPB write. */
    plat_put(scc_self.mpb[ue] + (target - my_mpb()), (const void *)source,
             (size_t)n);
    return RCCE_SUCCESS;
}

int RCCE_get(t_vcharp target, t_vcharp source, int n, int ue)
{
    int err;

    if ((err = scc_check_ue(ue)))
        return err;
    if (n < 0)
        return scc_error(RCCE_ERROR_MESSAGE_LENGTH);
    if (!scc_in_heap(source, (size_t)n))
        return scc_error(RCCE_ERROR_SOURCE);
    if (!target && n)
        return scc_error(RCCE_ERROR_TARGET);
    plat_get((void *)target, scc_self.mpb[ue] + (source - my_mpb()), (size_t)n);
    return RCCE_SUCCESS;
}
