/*
 * The SCC user API: thin wrappers over the kernel's system calls
 * (include/scc/syscall.h, docs/kernel.md) and the few things user code may
 * touch directly (the GTSC, the atomic counters, CL1INVMB, the MPBs and the
 * shared DRAM).
 *
 * Functions that wrap a system call return what the kernel returns: a value
 * >= 0, or -errno (SCC_EINVAL, ...). They do not set errno; the POSIX calls
 * picolibc uses (write, sbrk, ...) do.
 */
#ifndef SCC_H
#define SCC_H

#include <stddef.h>
#include <stdint.h>

#include <scc/syscall.h>

#ifdef __cplusplus
extern "C" {
#endif

/* --- raw system call --------------------------------------------------------- */

/* int $0x80 with EAX = nr and EBX, ECX, EDX, ESI, EDI = a..e; returns EAX. */
static inline long scc_syscall(long nr, long a, long b, long c, long d, long e)
{
    long ret;
    __asm__ volatile("int $0x80"
                     : "=a"(ret), "+b"(a), "+c"(b), "+d"(c), "+S"(d), "+D"(e)
                     : "0"(nr)
                     : "memory", "cc");
    return ret;
}

/* Whether a raw result is -errno (the kernel's error range -4095..-1). */
static inline int scc_is_error(long ret)
{
    return (unsigned long)ret >= (unsigned long)-4095;
}

/* --- who and where ------------------------------------------------------------- */

int scc_info(struct scc_info *out);         /* SYS_info */
/* TIMING_ON if times are modeled SCC time (the machine's timing=on). */
uint32_t scc_timing(void);
int scc_core_id(void);                      /* this core's id (cached) */
int scc_num_cores(void);                    /* cores on the chip (cached) */
int scc_tile_of(int core);                  /* tile t of a core */
int scc_hops(int a, int b);                 /* Manhattan distance of two cores' tiles */
/* CORE_STATE_RESET, _RUNNING or _EXITED (abi.h); -SCC_EINVAL */
int scc_core_state(int core);

/* --- time ------------------------------------------------------------------------ */

int scc_time(struct scc_time *out);         /* SYS_time */
int scc_sleep_until(uint64_t gtsc);         /* SYS_sleep: halt until the GTSC is there */

/* This core's cycle counter (RDTSC; every TSC counts at core_hz). */
static inline uint64_t scc_tsc(void)
{
    uint32_t lo, hi;
    __asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi));
    return ((uint64_t)hi << 32) | lo;
}

/* The chip's global timestamp counter (gtsc_hz), read from the system
 * interface page the kernel maps read-only for user code. */
#define SCC_SIF_USER_GTSC   0xF9008000u
#define SCC_GTSC_LO_REG     ((volatile uint32_t *)(SCC_SIF_USER_GTSC + 0x224))
#define SCC_GTSC_HI_REG     ((volatile uint32_t *)(SCC_SIF_USER_GTSC + 0x228))

/* Low 32 bits only: one uncached read (it also latches HI). */
static inline uint32_t scc_gtsc_lo(void)
{
    return *SCC_GTSC_LO_REG;
}

uint64_t scc_gtsc(void);                    /* the full 64-bit value */

/* --- mailbox ---------------------------------------------------------------------- */

int scc_mbox_send(int dest, int tag, const void *buf, size_t len);
int scc_mbox_recv(struct scc_msg *out, int flags);  /* SCC_MBOX_NONBLOCK */
int scc_mbox_poll(void);                    /* messages waiting */
int scc_mbox_mode(int mode);                /* SCC_MBOX_*; -1 asks; -> previous */
int scc_mbox_setmode(int mode, unsigned spin); /* and hybrid's spin, core cycles */
const char *scc_mbox_mode_name(int mode);   /* "ipi", "poll", "hybrid", "timer"; "?" */
int scc_mbox_mode_parse(const char *name);  /* the inverse; -1 if unknown */

/* --- interrupts, scheduling, statistics ------------------------------------------ */

int scc_ipi(int dest);                      /* pulse dest's INTR line (LINT0) */
int scc_kstat(struct scc_kstat *out);
int scc_tick(unsigned hz);                  /* LAPIC timer rate, 0 off */
int scc_yield(void);                        /* drain the mailbox, return */
int scc_halt(void);                         /* sleep until an interrupt */
/* Sleep unless an interrupt came since the count seen; the count now
 * (interrupts taken: kstat.lint0 + kstat.ticks). Lose no wake-up with
 * `seen = scc_halt_since(seen)` in a loop that checks its condition. */
unsigned scc_halt_since(unsigned seen);
unsigned scc_intr_count(void);              /* the count scc_halt_since compares */
__attribute__((noreturn)) void scc_panic(const char *msg);

/* --- the configuration registers (CRB) and their T&S registers ----------------- */

/* Each tile's CRB page holds the T&S registers (LOCK0/1), the GLCFG
 * interrupt pins, GCBCFG (tile clock, core resets) and LUT0, this tile's
 * even core's memory map. Under the kernel's default crb=isolated, user
 * code has no CRB page and uses these calls, which touch only the
 * register named (docs/kernel.md); libscc does so by itself. */
/* A T&S register through the kernel's own short path (SCC_TAS_VECTOR):
 * 1 if this call took core's register, 0 if it was held; release: 0. */
static inline int scc_tas(int core, int op)
{
    int ret;
    __asm__ volatile("int %2" : "=a"(ret) : "0"(core), "i"(SCC_TAS_VECTOR), "c"(op)
                     : "memory", "cc");
    return ret;
}

static inline int scc_lock_try(int core)
{
    return scc_tas(core, SCC_TAS_TRY);
}

static inline int scc_lock_release(int core)
{
    return scc_tas(core, SCC_TAS_RELEASE);
}
int scc_tile_clock(int tile, unsigned mhz); /* GCBCFG's clock field (SYS_tile_clock) */
/* A read-only view of len bytes (16 MiB at most) of memory controller mc's
 * 16 MiB system page (SCC_MC_PAGES a controller, SCC_MC_RANK_PAGES a rank),
 * through a LUT entry of this core's: NULL if the page holds no memory or
 * an argument is out of range. A new view replaces the one before; len 0
 * takes it away (SYS_dram_map). */
const void *scc_dram_map(unsigned mc, unsigned page, size_t len);
/* Raw access, for programs that remap LUTs or reset cores on purpose:
 * map (1) or unmap (0) every tile's CRB page for user code; whether it
 * was mapped, or -SCC_EPERM under crb=strict. Call it before RCCE_init
 * for libscc to use the registers directly too. */
int scc_crb_raw(int on);
int scc_crb_mapped(void);                   /* whether user code has the CRB pages */
/* Register off of tile's CRB page (only usable when scc_crb_mapped()). */
volatile uint32_t *scc_crb_reg(int tile, unsigned off);

/* --- counters for a region of interest (timing mode) --------------------------------- */

/* Mark the part of the program you measure: with scc-run --timing-stats F,
 * F then holds, besides the whole run's counters, one set per region and
 * core (scope region:NAME), summed over its calls. Regions do not nest; a
 * name is 1-31 printable characters without a comma; 8 names per core.
 * Each call is a system call: its own few hundred cycles fall into the
 * region's edges. In functional mode they do nothing. 0, or -SCC_EINVAL. */
int scc_stats_begin(const char *name);
int scc_stats_end(void);

/* --- memory ----------------------------------------------------------------------- */

/* The page-table entry that maps vaddr: 0 and *pte set, or -errno
 * (-SCC_EFAULT when nothing maps it). */
int scc_vmquery(const void *vaddr, uint32_t *pte);
#define SCC_PTE_P       0x001u
#define SCC_PTE_W       0x002u
#define SCC_PTE_U       0x004u
#define SCC_PTE_PCD     0x010u
#define SCC_PTE_MPBT    0x080u              /* bit 7 with CR4.MBE */

void *scc_mmap(size_t len);                 /* zeroed pages, or NULL */
int scc_munmap(void *addr, size_t len);

/*
 * Copy n bytes a 32-bit word at a time (REP MOVSL, then the tail by
 * bytes): eight stores to a line, where picolibc's memcpy, built for
 * size, makes 32, each a write around the caches on a line they do not
 * hold. Returns dst.
 */
static inline void *scc_word_copy(void *dst, const void *src, size_t n)
{
    void *d = dst;
    size_t words = n >> 2, tail = n & 3;

    __asm__ volatile("cld; rep movsl"
                     : "+D"(d), "+S"(src), "+c"(words) : : "memory");
    __asm__ volatile("rep movsb"
                     : "+D"(d), "+S"(src), "+c"(tail) : : "memory");
    return dst;
}

/* Invalidate the L1's MPBT lines (SCC instruction CL1INVMB, 0F 0A). */
static inline void scc_cl1invmb(void)
{
    __asm__ volatile(".byte 0x0f, 0x0a" ::: "memory");
}

/* User address of a core's 8 KiB MPB area and of the part libscc owns
 * (docs/kernel.md: 0x0000-0x1BFF of each core's 8 KiB). */
volatile void *scc_mpb_core(int core);
volatile void *scc_mpb_user(int core);
/* User address of the shared DRAM (uncached) and its size. */
volatile void *scc_shm(void);
size_t scc_shm_size(void);

/* --- atomic counters (system interface, user page) ------------------------------- */

#define SCC_SIF_USER_ATOMIC 0xF900E000u
#define SCC_ATOMIC_COUNTERS 48
/* Counter 47 is the kernel's panic record: leave it alone. */

static inline uint32_t scc_atomic_inc(unsigned i)   /* returns the old value */
{
    return *(volatile uint32_t *)(SCC_SIF_USER_ATOMIC + 8 * i);
}

static inline uint32_t scc_atomic_read(unsigned i)
{
    return *(volatile uint32_t *)(SCC_SIF_USER_ATOMIC + 8 * i + 4);
}

static inline void scc_atomic_set(unsigned i, uint32_t v)
{
    *(volatile uint32_t *)(SCC_SIF_USER_ATOMIC + 8 * i + 4) = v;
}

/* A reusable barrier for n cores on atomic counter i (which must start at
 * 0 and be used for nothing else). Each participant passes its own round
 * counter, starting at 0. Waits with scc_yield(). */
void scc_barrier(unsigned i, unsigned n, unsigned *round);

#ifdef __cplusplus
}
#endif

#endif
