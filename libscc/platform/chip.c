/*
 * chip.c - libscc on the emulated SCC: one UE per core, under the per-core
 * kernel, through the runtime in libscc/sys (scc.h) and the user mappings
 * of docs/kernel.md.
 *
 * Waiting: a UE polls its own MPB. After spin_limit fruitless polls it
 * arms its wake line (scc_mpb.h), notes how many interrupts it has taken,
 * lets the caller look once more, and then sleeps in the kernel until an
 * interrupt (scc_halt_since), which costs the emulator's host no CPU. A UE
 * that writes a line into an armed UE's MPB interrupts it (scc_ipi). No
 * wake-up is lost: the sleeper armed (and fenced) before its last look,
 * the writer stored (and fenced) before it reads the wake line, and the
 * kernel sleeps only if no interrupt came since the sleeper's count.
 * In timing mode (TIMING_ON) a UE only polls, as RCCE did on the real chip:
 * sleeping would add interrupt costs RCCE never had, and the machine parks
 * a polling core anyway, so polling costs no host time there.
 * Wake-ups take no lock and no mailbox slot: the kernel mailbox stays the
 * application's, and a UE may hold T&S registers while it waits
 * (barrier:tas).
 *
 * The T&S registers and GCBCFG share each tile's CRB page with LUT0, a
 * core's memory map, so the kernel gives user code that page only when
 * asked (crb=raw, or scc_crb_raw before RCCE_init). Without it, locks and
 * tile clocks are system calls, which touch only the register named; with
 * it, the registers themselves, as RCCE used them. Wake-ups are system
 * calls either way (SYS_ipi: the kernel's pulse waits for the pin).
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
int plat_copy_style;                /* RCCE_COPY_* */
static int armed;                   /* my wake line is set */
static int poll_only;               /* timing mode: never sleep */
unsigned int plat_spin_step = 1;
static unsigned int spin_limit;     /* polls before sleeping (plat_set_ues) */
static unsigned intr_seen;          /* interrupts taken when I armed */
static int crb_direct;              /* user code has the CRB pages */

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
    crb_direct = scc_crb_mapped();
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

/* Register @off of tile @tile's CRB. */
static volatile uint32_t *crb_reg(int tile, uint32_t off)
{
    return (volatile uint32_t *)(uintptr_t)(info.crb_base +
        (uint32_t)tile * SCC_PAGE_SIZE + off);
}

static volatile uint32_t *lock_reg(int core)
{
    return crb_reg(core / (int)info.cores_per_tile,
                   CRB_LOCK(core % (int)info.cores_per_tile));
}

static t_vcharp wake_line(int core)
{
    return plat_mpb(core) + SCC_MPB_WAKE_LINE;
}

static void wake(int core)
{
    scc_ipi(core);
}

/* Reading the T&S register takes the lock if it is free (reads 1). The
 * system call is a compiler barrier too ("memory" clobber). */
int plat_lock_try(int core)
{
    int got;

    if (!crb_direct)
        return scc_lock_try(core) == 1;
    got = *lock_reg(core) & 1;
    __asm__ volatile("" ::: "memory");
    return got;
}

void plat_lock_release(int core)
{
    if (!crb_direct) {
        scc_lock_release(core);
        return;
    }
    __asm__ volatile("" ::: "memory");
    *lock_reg(core) = 0;
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
    int c;

    if (poll_only)      /* first: every store to an MPB comes here */
        return;
    c = core_of(p);
    if (c < 0 || c == (int)info.core_id)
        return;
    plat_flush(plat_mpb((int)info.core_id));
    plat_fence();
    SCC_CL1INVMB();
    if (*(volatile uint32_t *)wake_line(c))
        wake(c);
}

static void arm(int on)
{
    t_vcharp mine = plat_mpb((int)info.core_id);

    if (on)
        intr_seen = scc_intr_count();

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

/* GCBCFG's clock field, kept next to the tile's reset bits. The machine
 * takes clocks up to its core-hz; in timing mode the tile's cores then
 * run at the new clock (functional mode keeps the field only). */
int plat_tile_clock(int tile, unsigned int mhz)
{
    volatile uint32_t *gcbcfg = crb_reg(tile, CRB_GCBCFG);

    if (mhz == 0 || mhz > info.core_hz / 1000000)
        return -1;
    if (!crb_direct)
        return scc_tile_clock(tile, mhz) < 0 ? -1 : 0;
    *gcbcfg = (*gcbcfg & ~(uint32_t)GCBCFG_CLOCK_MASK) | mhz << GCBCFG_CLOCK_SHIFT;
    return 0;
}

/* In the timing mode a core that does not listen for interrupts runs
 * ahead of the others, and a clock change its domain's master makes would
 * reach it late. Reading the interrupt count makes the kernel unmask LINT0
 * for good (docs/kernel.md). */
void plat_power_member(void)
{
    static int member;

    if (poll_only && !member) {
        member = 1;
        (void)scc_intr_count();
    }
}

void *plat_shm(size_t *size)
{
    *size = scc_shm_size();
    return (void *)scc_shm();
}

void plat_set_ues(int np)
{
    spin_limit = np > 0 && SPIN_BUDGET / np > SPIN_MIN ? SPIN_BUDGET / np
                                                       : SPIN_MIN;
}

/* Spin, then arm, then (the caller having looked once more) sleep until
 * an interrupt. Any interrupt ends the sleep; the caller looks again. */
void plat_relax(unsigned int spins)
{
    if (spins < spin_limit || poll_only) {
        if (armed)
            arm(0);
        __asm__ volatile("rep; nop" ::: "memory");
    } else if (!armed) {
        arm(1);
    } else {
        /* several writers may each interrupt us: the extra wake-ups
         * only make a later sleep end early, and the caller looks again */
        scc_halt_since(intr_seen);
        arm(0);
    }
}

void plat_pause(unsigned int spins)
{
    (void)spins;
    __asm__ volatile("rep; nop" ::: "memory");
}
