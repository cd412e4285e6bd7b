/*
 * lock.c - RCCE's locks: the test-and-set register of each UE's core
 * (LOCK0/LOCK1 in its tile's CRB). The kernel's mailbox uses the same
 * registers for a moment per message, which only delays the other side.
 */
#include "internal.h"

int RCCE_acquire_lock(int ue)
{
    unsigned int spins = 0;
    int err;

    if ((err = scc_check_ue(ue)))
        return err;
    while (!plat_lock_try(scc_self.core_of[ue]))
        plat_pause(++spins);
    return RCCE_SUCCESS;
}

int RCCE_release_lock(int ue)
{
    int err;

    if ((err = scc_check_ue(ue)))
        return err;
    plat_lock_release(scc_self.core_of[ue]);
    return RCCE_SUCCESS;
}

void RCCE_fence(void)
{
    if (scc_self.up)
        plat_flush(my_mpb());
    plat_fence();
}
