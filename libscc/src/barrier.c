/*
 * barrier.c - RCCE_barrier's own: a dissemination barrier on MPB lines,
 * which the library uses itself wherever it must synchronize (RCCE_init,
 * RCCE_finalize, RCCE_comm_split). The collectives register it as the
 * barrier algorithm "dissemination" (coll/barrier/barrier_dissemination.c).
 *
 * In round k (k = 0, 1, ... while 2^k < size) member i writes the
 * barrier's epoch into line k of member (i + 2^k) mod size and waits for
 * its own line k to reach the epoch. After ceil(log2 size) rounds every
 * member has heard, directly or not, from every other. Each line has a
 * single writer per communicator, every wait polls the UE's own MPB, and
 * epochs only grow, so lines are never reset and a partner that is
 * already one barrier ahead does no harm.
 */
#include "internal.h"

int scc_barrier_dissemination(RCCE_COMM *comm)
{
    int n = comm->size, me = comm->my_rank;
    uint32_t epoch = (uint32_t)++comm->cycle;
    t_vcharp lines = (t_vcharp)comm->gather;
    ptrdiff_t off = lines - my_mpb();

    for (int k = 0, d = 1; d < n; k++, d <<= 1) {
        int to = comm->member[(me + d) % n];
        unsigned int spins = 0;

        line_write(scc_self.mpb[to] + off + SCC_MPB_LINE * k, epoch);
        while (!seq_ge(line_read(lines + SCC_MPB_LINE * k), epoch)) {
            spins = scc_progress() ? 0 : spins + plat_spin_step;
            plat_relax(spins);
        }
    }
    return RCCE_SUCCESS;
}
