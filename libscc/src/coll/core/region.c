/*
 * region.c - the MPB region of each UE (3840 bytes) (scc_mpb.h), lent to
 * collectives that move data through MPBs.
 *
 * The region is also the payload buffer of this UE's p2p sends, so it is
 * lent only while no send of this UE (RCCE, iRCCE or RCCEnb) holds it.
 * An algorithm that uses it must, before it returns on a UE, make sure
 * that no other member still reads that UE's region for this call (a
 * done signal from each reader), so that the next collective or p2p send
 * may write it at once.
 */
#include "coll.h"

t_vcharp coll_region(void)
{
    if (scc_self.send_port || scc_self.nb_send_on)
        return NULL;
    return my_mpb() + SCC_MPB_REGION;
}

t_vcharp coll_region_of(int ue)
{
    return scc_self.mpb[ue] + SCC_MPB_REGION;
}

size_t coll_region_size(void)
{
    return SCC_MPB_REGION_SIZE;
}
