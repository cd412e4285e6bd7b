/*
 * platform.h - everything that differs between the chip and the host.
 *
 * The chip (default): one UE per core, libscc state in plain globals, MPBs,
 * T&S locks, shared DRAM and the GTSC at the addresses the kernel maps
 * (docs/kernel.md). CL1INVMB before reading what another core wrote, a
 * write to the WCB flush line after writing. A waiting UE polls, then
 * sleeps in the kernel (chip.c).
 *
 * The host (-DSCC_HOST, like Intel's RCCE emulator): one thread per UE,
 * state in thread-locals, MPBs/locks/shared memory in host memory. Flag
 * and counter words use C11-style __atomic acquire/release, which also
 * orders the plain payload copies around them, so ThreadSanitizer sees
 * every happens-before edge the protocols rely on. A waiting UE yields
 * the CPU, then sleeps until a line of its MPB is written (host.c).
 *
 * Chip and host: every wait in libscc is for a line of the UE's own MPB,
 * written by someone through plat_store, which wakes a sleeping owner.
 */
#ifndef SCC_PLATFORM_H
#define SCC_PLATFORM_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "RCCE.h"

#ifdef SCC_HOST
#define SCC_TLS __thread
#else
#define SCC_TLS
#endif

/* Facts about the machine, filled by plat_init. */
struct plat_facts {
    int core;               /* this UE's core id */
    int ncores;             /* cores on the chip */
    int mesh_x, cores_per_tile;
    double tick_hz;         /* rate of plat_ticks */
};

int plat_init(struct plat_facts *out);      /* 0, or an RCCE error */
/* The number of UEs, from RCCE_init once it has read them (how long a
 * waiting UE polls before it sleeps depends on it on the chip). */
void plat_set_ues(int np);
t_vcharp plat_mpb(int core);                /* the core's 7 KiB user area */
uint64_t plat_ticks(void);                  /* wall clock */
int plat_lock_try(int core);                /* 1 if taken */
void plat_lock_release(int core);
void *plat_shm(size_t *size);               /* shared DRAM for RCCE_shmalloc */
/* Set a tile's clock (MHz): 0, or -1 if faster than the chip allows.
 * The host has no tile clocks and takes any. */
int plat_tile_clock(int tile, unsigned int mhz);
/* This UE takes part in power management: make sure a tile clock change
 * reaches it in time (the chip's timing mode: it then listens for
 * interrupts, docs/timing.md). */
void plat_power_member(void);
/* What a waiting loop adds to its count of fruitless checks per check:
 * 1, or 0 in the chip's timing mode, where a loop whose iterations change
 * nothing is recognized as polling and costs no host time (chip.c). */
extern unsigned int plat_spin_step;
/* Called in a loop that waits for a line in this UE's OWN MPB to change,
 * after `spins` fruitless checks. */
void plat_relax(unsigned int spins);
/* The same for any other wait (a lock). */
void plat_pause(unsigned int spins);
/* A line in some UE's MPB was written: wake that UE if it sleeps. */
void plat_notify(t_vcharp p);
/* Leave no wake-up armed (RCCE_finalize). */
void plat_quiesce(void);

#ifdef SCC_HOST

#include <stdio.h>
/* host_where.c: prints where a stack of return addresses waits, the
 * program's own function, file and line first (the stall report). */
void plat_where_print(FILE *out, void *const *frames, int n);

static inline void plat_invalidate(void)
{
    /* the acquire loads below do the work */
}

/* Nothing to flush: the release store of the flag that follows every
 * payload write publishes it (ThreadSanitizer has no standalone fences). */
static inline void plat_flush(t_vcharp own_mpb)
{
    (void)own_mpb;
    __asm__ volatile("" ::: "memory");
}

/* A full fence, as a locked read-modify-write on a private word. */
static inline void plat_fence(void)
{
    static __thread int word;
    __atomic_fetch_add(&word, 0, __ATOMIC_SEQ_CST);
}

static inline uint32_t plat_load(t_vcharp p)
{
    return __atomic_load_n((volatile uint32_t *)p, __ATOMIC_ACQUIRE);
}

static inline uint32_t plat_load_relaxed(t_vcharp p)
{
    return __atomic_load_n((volatile uint32_t *)p, __ATOMIC_RELAXED);
}

static inline void plat_store(t_vcharp p, uint32_t v)
{
    __atomic_store_n((volatile uint32_t *)p, v, __ATOMIC_RELEASE);
    plat_notify(p);
}

static inline void plat_store_relaxed(t_vcharp p, uint32_t v)
{
    __atomic_store_n((volatile uint32_t *)p, v, __ATOMIC_RELAXED);
}

#else /* the chip */

#define SCC_CL1INVMB() __asm__ volatile(".byte 0x0f, 0x0a" ::: "memory")

static inline void plat_invalidate(void)
{
    SCC_CL1INVMB();
}

/* The WCB holds one line and writes it out when a store goes to another
 * line: a store to the flush line pushes out the line written last. */
#include "scc_mpb.h"
#ifndef SCC_HOST
#include "scc_copy.h"           /* scc_word_copy, scc_mpbt_covers */
#endif
static inline void plat_flush(t_vcharp own_mpb)
{
    __asm__ volatile("" ::: "memory");
    *(volatile uint32_t *)(own_mpb + SCC_MPB_WCB_LINE) = 0;
    __asm__ volatile("" ::: "memory");
}

static inline void plat_fence(void)
{
    __asm__ volatile("lock; addl $0, (%%esp)" ::: "memory", "cc");
}

static inline uint32_t plat_load(t_vcharp p)
{
    uint32_t v = *(volatile uint32_t *)p;
    __asm__ volatile("" ::: "memory");
    return v;
}

static inline uint32_t plat_load_relaxed(t_vcharp p)
{
    return *(volatile uint32_t *)p;
}

static inline void plat_store(t_vcharp p, uint32_t v)
{
    __asm__ volatile("" ::: "memory");
    *(volatile uint32_t *)p = v;
    plat_notify(p);
}

static inline void plat_store_relaxed(t_vcharp p, uint32_t v)
{
    *(volatile uint32_t *)p = v;
}

#endif

/*
 * Payload copies between private memory and an MPB. Callers order them
 * with plat_load/plat_store on a flag or channel line.
 *
 * On the chip, picolibc's memcpy (built for size) moves one byte at a
 * time, so an MPB line cost 32 accesses; RCCE had its own copy routines
 * for the same reason. plat_copy moves whole 32-bit words (8 to a line)
 * with rep movsl and only the 0-3 tail bytes singly. Unaligned words are
 * fine on the P54C.
 */
#ifdef SCC_HOST
#define plat_copy memcpy
#else
#define plat_copy scc_word_copy     /* sys/scc.h */
#endif

static inline void plat_put(t_vcharp mpb, const void *src, size_t n)
{
    plat_copy((void *)mpb, src, n);
}

/*
 * Out of an MPB into private memory, as RCCE's memcpy_get did: each
 * 32-byte piece's destination line(s) read first, then its eight words
 * moved. The caches do not allocate on a write miss, so storing into a
 * line that is not cached would send every 4-byte store to the memory
 * controller on its own (002: 22 MB/s); read first, the line is in the
 * L1 and the stores hit it, and it goes back as one line when evicted.
 * Only private memory (below 0x80000000, docs/kernel.md): an MPB or
 * shared DRAM destination is not cached that way, and reading it first
 * would cost a trip over the mesh; and not pages marked MPBT
 * (scc_copy_mark_mpbt): their stores combine in the write-combine buffer
 * into line writes, and their reads bypass the L2, so a read first would
 * only add a DRAM read a line.
 */
#define PLAT_PRIVATE_END 0x80000000u
/* RCCE_COPY_* (RCCE_copy_style): this UE's */
#ifdef SCC_HOST
extern __thread int plat_copy_style;
#else
extern int plat_copy_style;
#endif
#ifdef SCC_HOST
static inline void plat_get(void *dst, t_vcharp mpb, size_t n)
{
    plat_invalidate();
    memcpy(dst, (const void *)mpb, n);
}
#else
/* Whether n bytes at dst take a plain word copy rather than having their
 * lines read first (the conditions above). A macro, so that plat_get
 * compiles to the code it had: its layout is part of what the timing mode
 * measures (docs/timing.md, "Measuring well"). */
#define PLAT_GET_WORDS_ONLY(dst, n)                                          \
    ((uintptr_t)(dst) >= PLAT_PRIVATE_END || (plat_copy_style & RCCE_COPY_WORDS) || \
     (scc_mpbt_nranges && scc_mpbt_covers((dst), (n))))

static inline void plat_get(void *dst, t_vcharp mpb, size_t n)
{
    volatile const uint8_t *d = dst;
    const void *src = (const void *)mpb;
    void *to = dst;
    size_t done = 0, words;

    plat_invalidate();
    if (PLAT_GET_WORDS_ONLY(dst, n)) {
        plat_copy(dst, src, n);
        return;
    }
    for (; n - done >= 32; done += 32) {
        (void)d[done];
        (void)d[done + 31];
        words = 8;
        __asm__ volatile("cld; rep movsl"
                         : "+D"(to), "+S"(src), "+c"(words) : : "memory");
    }
    if (done < n) {
        (void)d[done];
        (void)d[n - 1];
        plat_copy(to, src, n - done);
    }
}
#endif

/*
 * The same copy with the destination's lines read first all at once, then
 * one word copy of the whole: the same memory transactions as plat_get,
 * without its per-line loop (about 15 of the 25 instructions a line cost).
 * For a piece that fits the L1 with its source (a chunk of a broadcast,
 * at most a few KiB): a destination line evicted before its stores would
 * only send them around the caches, slower but right.
 */
#ifdef SCC_HOST
#define plat_get_batch plat_get
#else
/* Read every line of n > 0 bytes at dst, so that stores into them hit. */
static inline void plat_read_lines(void *dst, size_t n)
{
    volatile const uint8_t *d = dst;

    for (size_t i = 0; i < n; i += 32)
        (void)d[i];
    (void)d[n - 1];
}

static inline void plat_get_batch(void *dst, t_vcharp mpb, size_t n)
{
    if (PLAT_GET_WORDS_ONLY(dst, n) || !n) {
        plat_get(dst, mpb, n);
        return;
    }
    plat_invalidate();
    plat_read_lines(dst, n);
    plat_copy(dst, (const void *)mpb, n);
}
#endif

/*
 * Read the lines of n bytes at dst that a later plat_get into them would
 * read first, now: a member that must wait for its data anyway takes the
 * DRAM reads off the path from the data's arrival to its use (a fresh
 * destination line is o_mem_r, about 0.2 us). n should fit the L1 (16 KiB)
 * with what the wait touches. Nothing on the host.
 */
#ifdef SCC_HOST
#define plat_prefetch_dst(dst, n) ((void)(dst), (void)(n))
#else
static inline void plat_prefetch_dst(void *dst, size_t n)
{
    if (n && !PLAT_GET_WORDS_ONLY(dst, n))
        plat_read_lines(dst, n);
}
#endif

#endif
