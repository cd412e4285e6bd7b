/*
 * barrier_tas.c - the Test-and-Set barrier of the MetalSVM paper (002
 * section VI, Listing 1): a linear barrier on the T&S registers alone.
 *
 * Register s is the T&S register of member s's core. An arriving member
 * grabs the first free register: its index is how many arrived before
 * it, so the registers themselves are the arrival counter (no counter in
 * memory: the MPB layout allows no line with two writers, scc_mpb.h). All
 * but the last spin on the register they hold until it is cleared, then
 * clear it and their right neighbour's; the last clears register 0 and
 * waits for the chain to come back to it.
 *
 * Back to back: a member that left and comes again searches from 0. When
 * the chain has passed j, only members 0..j can have left, and registers
 * 0..j are all free or taken by them again, so the search stops at or
 * below j and never takes a register the old chain still has to pass;
 * no epoch is needed. Waiting only spins on the member's own register
 * with plat_pause and writes no MPB line. Pending non-blocking requests
 * are not progressed here. On the chip the registers are also the kernel
 * mailbox's locks: a member must not send mailbox messages to a core
 * whose register it holds (libscc's own wake-ups take no lock).
 */

#include "../core/coll.h"

static int core(const struct coll_call *c, int s)
{
    return RCCE_ue_core(coll_ue(c, s));
}

static void spin_take(int reg)
{
    unsigned int spins = 0;

    while (!plat_lock_try(reg))
        plat_pause(++spins);
}

static int run(struct coll_call *c)
{
    int n = c->n, step = 0;
    unsigned int spins = 0;

    /* linear search for a free register; wraps only if misused */
    while (!plat_lock_try(core(c, step))) {
        step = (step + 1) % n;
        plat_pause(++spins);
    }
    if (step != n - 1) {
        spin_take(core(c, step));               /* wait for release */
        plat_lock_release(core(c, step));       /* signal exit */
        plat_lock_release(core(c, step + 1));   /* wake the right neighbour */
    } else {
        plat_lock_release(core(c, 0));          /* wake the first */
        spin_take(core(c, step));               /* wait for the chain */
        plat_lock_release(core(c, step));
    }
    return RCCE_SUCCESS;
}

const struct coll_alg coll_barrier_tas = {
    .name = "tas", .op = COLL_BARRIER, .fn = run,
    .doc = "linear Test-and-Set register barrier (MetalSVM paper in 002, section VI, Listing 1)",
};
