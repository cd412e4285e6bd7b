/* The SCC user API (scc.h). */
#include "scc.h"

#include <string.h>

/* Facts that do not change while the program runs, from SYS_info once. */
static struct scc_info facts;
static int have_facts;

static const struct scc_info *get_facts(void)
{
    if (!have_facts) {
        if (scc_info(&facts) < 0)
            scc_panic("libscc: SYS_info failed");
        have_facts = 1;
    }
    return &facts;
}

int scc_info(struct scc_info *out)
{
    return scc_syscall(SYS_info, (long)out, 0, 0, 0, 0);
}

uint32_t scc_timing(void)
{
    return get_facts()->timing;
}

int scc_core_id(void)
{
    return get_facts()->core_id;
}

int scc_num_cores(void)
{
    return get_facts()->ncores;
}

int scc_tile_of(int core)
{
    return core / (int)get_facts()->cores_per_tile;
}

int scc_hops(int a, int b)
{
    int mx = (int)get_facts()->mesh_x, ta = scc_tile_of(a), tb = scc_tile_of(b);
    int dx = ta % mx - tb % mx, dy = ta / mx - tb / mx;

    return (dx < 0 ? -dx : dx) + (dy < 0 ? -dy : dy);
}

int scc_time(struct scc_time *out)
{
    return scc_syscall(SYS_time, (long)out, 0, 0, 0, 0);
}

int scc_sleep_until(uint64_t gtsc)
{
    return scc_syscall(SYS_sleep, (long)(uint32_t)gtsc, (long)(uint32_t)(gtsc >> 32), 0, 0, 0);
}

uint64_t scc_gtsc(void)
{
    /* A GTSC_LO read latches the high half for this core; the kernel may
     * read the GTSC in between (an interrupt), so read twice and accept
     * a pair only when both halves agree. */
    for (;;) {
        uint32_t lo1 = *SCC_GTSC_LO_REG;
        uint32_t hi1 = *SCC_GTSC_HI_REG;
        uint32_t lo2 = *SCC_GTSC_LO_REG;
        uint32_t hi2 = *SCC_GTSC_HI_REG;
        if (hi1 == hi2 && lo1 <= lo2)
            return ((uint64_t)hi1 << 32) | lo1;
    }
}

int scc_mbox_send(int dest, int tag, const void *buf, size_t len)
{
    return scc_syscall(SYS_mbox_send, dest, tag, (long)buf, (long)len, 0);
}

int scc_mbox_recv(struct scc_msg *out, int flags)
{
    return scc_syscall(SYS_mbox_recv, (long)out, flags, 0, 0, 0);
}

int scc_mbox_poll(void)
{
    return scc_syscall(SYS_mbox_poll, 0, 0, 0, 0, 0);
}

int scc_mbox_mode(int mode)
{
    return scc_syscall(SYS_mbox_mode, mode, 0, 0, 0, 0);
}

int scc_mbox_setmode(int mode, unsigned spin)
{
    return scc_syscall(SYS_mbox_mode, mode, spin, 0, 0, 0);
}

static const char *const mode_names[] = SCC_MBOX_NAMES;

const char *scc_mbox_mode_name(int mode)
{
    if (mode >= 0 && mode < (int)(sizeof mode_names / sizeof mode_names[0]))
        return mode_names[mode];
    return "?";
}

int scc_mbox_mode_parse(const char *name)
{
    for (int m = 0; m < (int)(sizeof mode_names / sizeof mode_names[0]); m++)
        if (strcmp(name, mode_names[m]) == 0)
            return m;
    return -1;
}

int scc_ipi(int dest)
{
    return scc_syscall(SYS_ipi, dest, 0, 0, 0, 0);
}

int scc_kstat(struct scc_kstat *out)
{
    return scc_syscall(SYS_kstat, (long)out, 0, 0, 0, 0);
}

int scc_tick(unsigned hz)
{
    return scc_syscall(SYS_tick, (long)hz, 0, 0, 0, 0);
}

int scc_yield(void)
{
    return scc_syscall(SYS_yield, 0, 0, 0, 0, 0);
}

int scc_halt(void)
{
    return scc_syscall(SYS_halt, 0, 0, 0, 0, 0);
}

int scc_core_state(int core)
{
    return scc_syscall(SYS_core_state, core, 0, 0, 0, 0);
}

unsigned scc_intr_count(void)
{
    struct scc_kstat k;

    return scc_kstat(&k) < 0 ? 0 : k.lint0 + k.ticks;
}

unsigned scc_halt_since(unsigned seen)
{
    return scc_syscall(SYS_halt, SCC_HALT_SINCE, seen, 0, 0, 0);
}

void scc_panic(const char *msg)
{
    scc_syscall(SYS_panic, (long)msg, 0, 0, 0, 0);
    for (;;)    /* SYS_panic does not return; if it did, end anyway */
        scc_syscall(SYS_exit, SCC_EXIT_PANIC, 0, 0, 0, 0);
}


int scc_stats_begin(const char *name)
{
    return name ? scc_syscall(SYS_stats, (long)name, 0, 0, 0, 0) : -SCC_EINVAL;
}

int scc_stats_end(void)
{
    return scc_syscall(SYS_stats, 0, 0, 0, 0, 0);
}

int scc_tile_clock(int tile, unsigned mhz)
{
    return scc_syscall(SYS_tile_clock, tile, (long)mhz, 0, 0, 0);
}

const void *scc_dram_map(unsigned mc, unsigned page, size_t len)
{
    long r = scc_syscall(SYS_dram_map, (long)mc, (long)page, (long)len, 0, 0);

    return r > 0 ? (const void *)(uintptr_t)r : NULL;
}

/* Whether user code has the CRB pages: asked once, then kept up to date
 * by scc_crb_raw (-1: not asked yet). */
static int crb_mapped = -1;

int scc_crb_raw(int on)
{
    int r = scc_syscall(SYS_crb_raw, on, 0, 0, 0, 0);

    if (r >= 0)
        crb_mapped = on;
    return r;
}

int scc_crb_mapped(void)
{
    uint32_t pte;

    if (crb_mapped < 0)
        crb_mapped = scc_vmquery((const void *)(uintptr_t)get_facts()->crb_base, &pte) == 0 &&
                     (pte & SCC_PTE_U);
    return crb_mapped;
}

volatile uint32_t *scc_crb_reg(int tile, unsigned off)
{
    return (volatile uint32_t *)(uintptr_t)(get_facts()->crb_base +
                                            (uint32_t)tile * SCC_PAGE_SIZE + off);
}

int scc_vmquery(const void *vaddr, uint32_t *pte)
{
    long r = scc_syscall(SYS_vmquery, (long)vaddr, 0, 0, 0, 0);
    if (scc_is_error(r))
        return (int)r;
    if (pte)
        *pte = (uint32_t)r;
    return 0;
}

void *scc_mmap(size_t len)
{
    long r = scc_syscall(SYS_mmap, (long)len, 0, 0, 0, 0);
    return scc_is_error(r) ? NULL : (void *)r;
}

int scc_munmap(void *addr, size_t len)
{
    return scc_syscall(SYS_munmap, (long)addr, (long)len, 0, 0, 0);
}

volatile void *scc_mpb_core(int core)
{
    const struct scc_info *f = get_facts();
    unsigned tile = core / f->cores_per_tile, z = core % f->cores_per_tile;
    return (volatile void *)(uintptr_t)(f->mpb_base + tile * f->mpb_stride + z * 0x2000u);
}

volatile void *scc_mpb_user(int core)
{
    return (volatile char *)scc_mpb_core(core) + get_facts()->mpb_user_off;
}

volatile void *scc_shm(void)
{
    return (volatile void *)(uintptr_t)get_facts()->shm_base;
}

size_t scc_shm_size(void)
{
    return get_facts()->shm_size;
}

void scc_barrier(unsigned i, unsigned n, unsigned *round)
{
    unsigned target = n * (*round + 1);
    scc_atomic_inc(i);
    while (scc_atomic_read(i) < target)
        scc_yield();
    (*round)++;
}
