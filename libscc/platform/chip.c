/*
 * chip.c - libscc on the emulated SCC: one UE per core, under the per-core
 * kernel, through the runtime in libscc/sys (scc.h) and the user mappings
 * of docs/kernel.md.
 *
 * Waiting: a UE polls its own MPB. After spin_limit fruitless polls it
 * arms its wake line (scc_mpb.h), lets the caller look once more, and
 * then sleeps in the kernel mailbox (SYS_mbox_recv), which costs the
 * emulator's host no CPU. A UE that writes a line into an armed UE's MPB
 * sends it an empty message with tag SCC_WAKE_TAG. No wake-up is lost: the
 * sleeper armed (and fenced) before its last look, the writer stored (and
 * fenced) before it reads the wake line, and mailbox messages queue.
 * In timing mode (TIMING_ON) a UE only polls, as RCCE did on the real chip:
 * sleeping would add interrupt costs RCCE never had, and the machine parks
 * a polling core anyway, so polling costs no host time there.
 * A sleeping wait sets the messages that are not wake-ups aside for the
 * application's scc_mbox_recv (scc_mbox_unget), so an RCCE program may use
 * the kernel mailbox too. A UE that holds the lock of core C sends C's
 * wake-ups only when it releases the lock (the kernel takes C's lock to
 * send to C).
 */
#include <scc/hw.h>

#include "platform.h"
#include "scc.h"
#include "scc_mpb.h"

/* Polls before sleeping. Polling cores cost the emulator's host CPUs
 * that the working cores need, the more the more UEs there are, and
 * sleeping costs a wake-up: so fewer polls with more UEs. (Time is no
 * good measure here: a descheduled virtual CPU's clock runs on.) */
#define SPIN_BUDGET 4096
#define SPIN_MIN 64

static struct scc_info info;
static int armed;                   /* my wake line is set */
static int poll_only;               /* timing mode: never sleep */
unsigned int plat_spin_step = 1;
static unsigned int spin_limit;     /* polls before sleeping */
static uint64_t locks_held;         /* cores whose T&S lock I hold */
static uint64_t wakes_due;          /* wake-ups held back by those locks */

int plat_init(struct plat_facts *f)
{
    if (scc_info(&info) < 0)
        return RCCE_ERROR_CORE_NOT_IN_HOSTFILE;
    if (info.mpb_user_size < SCC_MPB_USER_SIZE)
        return RCCE_ERROR_MALLOC;   /* the layout of scc_mpb.h does not fit */
    f->core = (int)info.core_id;
    f->ncores = (int)info.ncores;
    f->mesh_x = (int)info.mesh_x;
    f->cores_per_tile = (int)info.cores_per_tile;
    f->tick_hz = info.gtsc_hz;
    poll_only = (info.timing & TIMING_ON) != 0;
    if (poll_only) {
        f->tick_hz = info.core_hz;
        plat_spin_step = 0;
    }
    return 0;
}

t_vcharp plat_mpb(int core)
{
    return (t_vcharp)scc_mpb_user(core);
}

/* RCCE on the real chip timed with the core's TSC. In timing mode every
 * TSC counts the same modeled time from reset, so the TSC is as global as
 * the GTSC, without the GTSC's trip over the mesh (which would add to
 * every time measured). In functional mode the TSCs are not comparable
 * across cores: the GTSC is. */
uint64_t plat_ticks(void)
{
    if (poll_only) {
        uint32_t lo, hi;
        __asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi));
        return ((uint64_t)hi << 32) | lo;
    }
    return scc_gtsc();
}

static volatile uint32_t *lock_reg(int core)
{
    int tile = core / (int)info.cores_per_tile;
    int z = core % (int)info.cores_per_tile;

    return (volatile uint32_t *)(uintptr_t)(info.crb_base +
        (uint32_t)tile * SCC_PAGE_SIZE + CRB_LOCK(z));
}

static t_vcharp wake_line(int core)
{
    return plat_mpb(core) + SCC_MPB_WAKE_LINE;
}

static void wake(int core)
{
    scc_mbox_send(core, SCC_WAKE_TAG, NULL, 0);
}

/* Reading the T&S register takes the lock if it is free (reads 1). */
int plat_lock_try(int core)
{
    int got = *lock_reg(core) & 1;

    __asm__ volatile("" ::: "memory");
    if (got)
        locks_held |= 1ull << core;
    return got;
}

void plat_lock_release(int core)
{
    __asm__ volatile("" ::: "memory");
    *lock_reg(core) = 0;
    locks_held &= ~(1ull << core);
    if (wakes_due & (1ull << core)) {
        wakes_due &= ~(1ull << core);
        wake(core);
    }
}

/* The core whose MPB holds p, or -1. */
static int core_of(t_vcharp p)
{
    uint32_t off = (uint32_t)(uintptr_t)p - info.mpb_base;
    uint32_t tile = off / info.mpb_stride, z = off % info.mpb_stride / 0x2000;

    if ((uint32_t)(uintptr_t)p < info.mpb_base || z >= info.cores_per_tile)
        return -1;
    uint32_t core = tile * info.cores_per_tile + z;
    return core < info.ncores ? (int)core : -1;
}

void plat_notify(t_vcharp p)
{
    int c = core_of(p);

    if (c < 0 || c == (int)info.core_id || poll_only)
        return;
    plat_flush(plat_mpb((int)info.core_id));
    plat_fence();
    SCC_CL1INVMB();
    if (!*(volatile uint32_t *)wake_line(c))
        return;
    if (locks_held & (1ull << c))
        wakes_due |= 1ull << c;
    else
        wake(c);
}

static void arm(int on)
{
    t_vcharp mine = plat_mpb((int)info.core_id);

    *(volatile uint32_t *)(mine + SCC_MPB_WAKE_LINE) = (uint32_t)on;
    plat_flush(mine);
    plat_fence();
    armed = on;
}

void plat_quiesce(void)
{
    if (armed)
        arm(0);
}

void *plat_shm(size_t *size)
{
    *size = scc_shm_size();
    return (void *)scc_shm();
}

/* Spin, then arm, then (the caller having looked once more) sleep until
 * a message comes. Any message ends the sleep; the caller looks again. */
void plat_relax(unsigned int spins)
{
    if (!spin_limit) {
        int np = RCCE_num_ues();
        spin_limit = np > 0 && SPIN_BUDGET / np > SPIN_MIN ? SPIN_BUDGET / np
                                                           : SPIN_MIN;
    }
    if (spins < spin_limit || poll_only) {
        if (armed)
            arm(0);
        __asm__ volatile("rep; nop" ::: "memory");
    } else if (!armed) {
        arm(1);
    } else {
        /* sleep; then drop the wake-ups that came meanwhile (several
         * writers may each have sent one): after arm(0) they mean nothing */
        struct scc_msg m;
        if (scc_mbox_recv_raw(&m, 0) == 0 && m.tag != SCC_WAKE_TAG)
            scc_mbox_unget(&m);
        arm(0);
        while (scc_mbox_recv_raw(&m, SCC_MBOX_NONBLOCK) == 0)
            if (m.tag != SCC_WAKE_TAG)
                scc_mbox_unget(&m);
    }
}

void plat_pause(unsigned int spins)
{
    (void)spins;
    __asm__ volatile("rep; nop" ::: "memory");
}
