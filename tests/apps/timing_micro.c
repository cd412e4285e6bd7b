/*
 * Micro-programs for the timing mode (tests/test_timing.py): each times one
 * thing with the TSC and prints the cycles; the Python side computes what
 * the model's documented formulas say they must be.
 *
 *   none        nothing (start-up and exit only, a baseline for counters)
 *   hops        core 0: one MPB read after CL1INVMB from the MPB of a core
 *               0..8 routers away ("hops H cycles C"), then the same read
 *               again without CL1INVMB ("hit cycles C")
 *   wcb         core 0: eight 4-byte stores to one line of a remote MPB
 *               ("same cycles C"), then eight alternating between two lines
 *               ("alternate cycles C")
 *   flag        core 0 sets a flag in core 47's MPB ("wrote T" = TSC just
 *               before the store that flushes it); core 47 polls for it
 *               ("seen T" = TSC of the read that saw it)
 *   contention  cores 1..k read one line of core 0's MPB, 200 times each,
 *               all at once ("reader N cycles C" per read, on average)
 *   ipi         core 47 halts; core 0 sends it an IPI ("sent T" = TSC just
 *               before SYS_ipi); core 47 prints "woke T" (TSC once back)
 *   ipi_busy    as ipi, but core 47, listening, stores to fresh lines of
 *               private memory meanwhile (a DRAM stall each); it prints
 *               "taken T" (TSC at the interrupt handler's entry) and core 0
 *               "sent T"
 *   rep         core 47, listening, times a REP STOSL of 16384 words
 *               whose lines are in its L2 ("rep N cycles C"), then starts
 *               one of 32768; core 0 sends it an IPI meanwhile ("sent T");
 *               core 47 prints "taken T" (TSC at the handler's entry)
 *   classes     core 0: eight of each of the P54C's expensive instructions
 *               (mul, div, ...) and eight NOPs, each after the same
 *               preparing instruction, between two RDTSCs ("NAME cycles
 *               C" and "base cycles C"); then a system call that fails
 *               at once ("syscall cycles C": INT 0x80 to the kernel and
 *               IRET back, the kernel's trap path between)
 *   deaf        core 47 runs without having asked about interrupts (LINT0
 *               masked); core 0 sends it an IPI, then tells it so; core 47
 *               prints "before N" (its interrupt count, which starts
 *               listening), waits for a second IPI, and prints "after N"
 *   stale       core 47 caches a flag of its MPB, core 0 sets it, core 47
 *               reads it again WITHOUT CL1INVMB, 20000 times at most
 *               ("stale: saw 1 after N reads", or "stale: never saw it")
 *   shflag      as flag, with the flag in shared DRAM: core 0 stores it
 *               ("wrote T" = TSC just before the store), core 47 polls it
 *               ("seen T")
 *   dram        core 0, one line of private memory no cache holds: eight
 *               stores to it ("write_new cycles C"), a load ("read_back"),
 *               the load again ("read_again"), eight stores again
 *               ("write_cached"); then eight stores each to lines A, A,
 *               B never loaded ("around_a", "around_a_again", "around_b"),
 *               each after a pause that lets posted writes out
 *   dram_wcb    core 0, MPBT-marked private memory: eight stores to one
 *               line ("wcb_one"), sixteen to the next two ("wcb_two")
 *   dram_writeback  core 0: a read that evicts a dirty line from the L2
 *               ("dirty"), and one that evicts a clean line ("clean")
 *   repcopy     core 0 copies with REP MOVSL, as libscc's RCCE_get and
 *               RCCE_put do, out of 8 lines of its own MPB after
 *               CL1INVMB: into private memory, then (all 8 now cached)
 *               into core 47's MPB; then it stores a word to line 0
 *               (held in its WCB) and copies line 0 again. Core 47 reads
 *               its own MPB meanwhile, so core 0's accesses wait for it and
 *               restart. Core 0 prints "get ok|bad", "put ok|bad" and
 *               "wcb ok|bad": whether each copy has what the source held
 *               (the last: the stored word too); then it stores to a line of
 *               core 47's MPB before and after an uncached access (which
 *               empties the WCB) and reads both words back ("again
 *               ok|bad"). With copies=0 it does
 *               all but the copies and the checks ("get -" ...)
 *   shcopy      every core copies 64 bytes with REP MOVSB (or REP MOVSL
 *               with movsl=1) from one shared-DRAM buffer of its own to
 *               another, once; cores of one tile copy at the same modeled
 *               time, which once made them restart each other's copies for
 *               ever. Each prints "shcopy ok|bad" (whether the copy holds
 *               the source)
 *   clock       core 0 times a loop in TSC cycles and GTSC ticks at its
 *               tile's clock ("base"), after setting GCBCFG's clock field
 *               to mhz=M ("set"), then after asking for twice core-hz,
 *               which the machine refuses ("refused"):
 *               "NAME cycles C gtsc G"
 *   clock_other core 2 times a loop ("far cycles C gtsc G"); early in it
 *               core 0 sets the clock of core 2's tile to mhz=M; with listen=1
 *               core 2 first reads its interrupt count, which makes it
 *               listen for interrupts (and so for the change in time)
 */
#include <stdint.h>
#include <string.h>

#include "scc_copy.h"
#include "testlib.h"

#define LINE 32

static inline uint32_t tsc(void)
{
    uint32_t lo, hi;

    __asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi));
    return lo;
}

/* A loop of @n iterations that touches no memory: time passing. */
static void spin(unsigned n)
{
    for (unsigned i = 0; i < n; i++)
        __asm__ volatile("" ::: "memory");
}

static volatile uint32_t *mpb(int core, unsigned off)
{
    return (volatile uint32_t *)((volatile char *)scc_mpb_user(core) + off);
}

/* Cycles of: CL1INVMB (if inv), one load from p. Four instructions from
 * the first RDTSC's end to the second's: mov, cl1invmb or nop, load, rdtsc. */
static uint32_t timed_read(volatile uint32_t *p, int inv)
{
    uint32_t t0, t1, v;

    if (inv)
        __asm__ volatile("rdtsc\n\tmov %%eax, %0\n\t.byte 0x0f, 0x0a\n\t"
                         "mov (%3), %1\n\trdtsc"
                         : "=&r"(t0), "=&r"(v), "=&a"(t1) : "r"(p) : "edx", "memory");
    else
        __asm__ volatile("rdtsc\n\tmov %%eax, %0\n\tnop\n\t"
                         "mov (%3), %1\n\trdtsc"
                         : "=&r"(t0), "=&r"(v), "=&a"(t1) : "r"(p) : "edx", "memory");
    (void)v;
    return t1 - t0;
}

/* The core on the tile `hops` routers from tile (0,0) of a 6x4 mesh. */
static int core_at(int hops)
{
    int x = hops < 6 ? hops : 5, y = hops - x;

    return hops == 0 ? 0 : 2 * (y * 6 + x);
}

static void hops(void)
{
    int h;

    for (h = 0; h <= 8; h++) {
        volatile uint32_t *p = mpb(core_at(h), 0x100);

        timed_read(p, 1);                   /* warm the TLB */
        printf("hops %d cycles %u\n", h, timed_read(p, 1));
    }
    /* the kernel's printf path ran CL1INVMB: read once, then time a hit */
    timed_read(mpb(core_at(8), 0x100), 0);
    h = (int)timed_read(mpb(core_at(8), 0x100), 0);
    printf("hit cycles %d\n", h);
}

/* Eight stores; the WCB line is flushed by a store elsewhere first. */
static void wcb(void)
{
    volatile uint32_t *a = mpb(47, 0x200), *b = mpb(47, 0x240);
    volatile uint32_t *away = mpb(47, 0x300);
    uint32_t t0, t1;
    int i;

    *away = 0;
    a[0] = 0;
    b[0] = 0;
    *away = 1;
    t0 = tsc();
    for (i = 0; i < 8; i++)
        a[i] = i;
    t1 = tsc();
    printf("same cycles %u\n", t1 - t0);
    *away = 2;
    t0 = tsc();
    for (i = 0; i < 8; i++)
        (i & 1 ? b : a)[i / 2] = i;
    t1 = tsc();
    printf("alternate cycles %u\n", t1 - t0);
}

/* flag and shflag: core 47 polls *f (dropping its cached copy first when
 * the flag is in an MPB), core 0 sets it once the reader spins. An MPB
 * flag leaves the writer's WCB by a store to another line. Inlined with a
 * constant in_mpb, so each poll loop is as tight as if written out. */
static inline __attribute__((always_inline)) void flag_at(int me, volatile uint32_t *f,
                                                        int in_mpb)
{
    if (me == 47) {
        uint32_t t;

        *f = 0;
        if (in_mpb)
            *mpb(47, 0x440) = 0;                /* out of the WCB */
        scc_atomic_inc(0);                      /* ready */
        for (;;) {
            if (in_mpb)
                scc_cl1invmb();
            if (*f) {
                t = tsc();
                break;
            }
        }
        printf("seen %u\n", t);
    } else {
        uint32_t t;

        while (scc_atomic_read(0) != 1)
            ;
        spin(20000);                            /* let the reader spin */
        if (in_mpb) {
            /* the address first: scc_mpb_user divides (41 cycles) */
            volatile uint32_t *flush = mpb(47, 0x440);

            *f = 1;
            t = tsc();
            *flush = 1;                         /* flushes the flag's line */
        } else {
            t = tsc();
            *f = 1;
        }
        printf("wrote %u\n", t);
    }
}

static void contention(int me, int k)
{
    volatile uint32_t *p = mpb(0, 0x500);
    uint32_t t0, t1;
    int i;

    if (me == 0) {
        scc_atomic_inc(0);
        while (scc_atomic_read(0) != (uint32_t)k + 1)
            ;
        return;
    }
    if (me > k)
        return;
    scc_atomic_inc(0);
    while (scc_atomic_read(0) != (uint32_t)k + 1)
        ;
    t0 = tsc();
    for (i = 0; i < 200; i++) {
        scc_cl1invmb();
        (void)*p;
    }
    t1 = tsc();
    printf("reader %d cycles %u\n", me, (t1 - t0) / 200);
}

static void ipi(int me)
{
    if (me == 47) {
        scc_atomic_inc(2);
        scc_halt();
        printf("woke %u\n", tsc());
    } else {
        uint32_t t;

        while (scc_atomic_read(2) != 1)
            ;
        spin(20000);                            /* let it halt */
        t = tsc();
        MUST(scc_ipi(47));
        printf("sent %u\n", t);
    }
}

/* Core 0's side of ipi_busy and rep: once core 47 has counted atomic
 * counter @i up to 1, let it get well into its work, then interrupt it
 * ("sent T": the TSC just before SYS_ipi). */
static void send_ipi_when(unsigned i)
{
    uint32_t t;

    while (scc_atomic_read(i) != 1)
        ;
    spin(2000);
    t = tsc();
    MUST(scc_ipi(47));
    printf("sent %u\n", t);
}

static void ipi_busy(int me)
{
    if (me == 47) {
        static volatile char buf[64 << 10];
        struct scc_kstat k;
        unsigned i;

        (void)scc_intr_count();                 /* it listens from here */
        scc_atomic_inc(6);
        for (i = 0; i < sizeof(buf) / LINE; i++)
            buf[i * LINE] = 1;                  /* around the caches */
        MUST(scc_kstat(&k));
        printf("taken %u\n", (uint32_t)k.intr_tsc);
    } else {
        send_ipi_when(6);                       /* well into its stores */
    }
}

/*
 * A REP STOSL of @n words: n iterations, each one instruction, and under
 * icount each its own translation block, chained to the next (QEMU patch
 * 0006): an interrupt must still be taken between two of them.
 */
static void rep_stos(uint32_t *p, unsigned n)
{
    __asm__ volatile("cld; rep stosl" : "+D"(p), "+c"(n) : "a"(0) : "memory");
}

#define REP_WORDS (32u << 10)           /* 128 KiB: fits the L2 */

static void rep(int me)
{
    if (me == 47) {
        static uint32_t buf[REP_WORDS];
        struct scc_kstat k;
        uint32_t t0, t1, sum = 0;
        unsigned i;

        for (i = 0; i < REP_WORDS; i += LINE / 4)
            sum += ((volatile uint32_t *)buf)[i];   /* into the L2: stores are free */
        (void)scc_intr_count();                 /* it listens from here */
        t0 = tsc();
        rep_stos(buf, REP_WORDS / 2);
        t1 = tsc();
        printf("rep %u cycles %u\n", REP_WORDS / 2, t1 - t0 + sum * 0);
        scc_atomic_inc(7);
        rep_stos(buf, REP_WORDS);               /* interrupted a quarter in */
        MUST(scc_kstat(&k));
        printf("taken %u\n", (uint32_t)k.intr_tsc);
    } else {
        send_ipi_when(7);                       /* well into its copy */
    }
}

static void rep_movs(volatile void *dst, const volatile void *src, unsigned n)
{
    __asm__ volatile("cld; rep movsl" : "+D"(dst), "+S"(src), "+c"(n) : : "memory");
}

#define COPY_WORDS (8 * LINE / 4)

/* Whether p[0..n) holds the pattern repcopy writes, with @w3 at 3. */
static const char *pattern(const volatile uint32_t *p, unsigned n, uint32_t w3)
{
    for (unsigned i = 0; i < n; i++)
        if (p[i] != (i == 3 ? w3 : 0x5a000000u + i))
            return "bad";
    return "ok";
}

static void repcopy(int me, int copies)
{
    volatile uint32_t *src = mpb(0, 0x800), *far = mpb(47, 0x800);
    static uint32_t dst[COPY_WORDS] __attribute__((aligned(LINE)));
    const char *get, *put, *wcb, *again;
    unsigned i;

    if (me == 47) {
        scc_atomic_inc(8);
        for (i = 0; i < 4000; i++) {            /* never the same line twice running */
            scc_cl1invmb();
            (void)*mpb(47, 0x1000 + (i % 64) * LINE);
        }
        return;
    }
    if (me != 0)
        return;
    for (i = 0; i < COPY_WORDS; i++)
        src[i] = 0x5a000000u + i;
    for (i = 0; i < COPY_WORDS; i++)
        (void)((volatile uint32_t *)dst)[i];    /* into the caches: stores hit */
    while (scc_atomic_read(8) != 1)
        ;
    if (!copies) {              /* the same system calls: each reads an MPB line */
        printf("get -\nput -\nwcb -\nagain -\n");
        return;
    }
    scc_cl1invmb();
    rep_movs(dst, src, COPY_WORDS);             /* 8 misses, 56 hits */
    get = pattern(dst, COPY_WORDS, 0x5a000003u);
    rep_movs(far, src, COPY_WORDS);             /* 64 hits; full lines go out */
    src[3] = 0xa5a5a5a5u;                       /* held in the WCB */
    rep_movs(dst, src, LINE / 4);               /* 8 hits, with the WCB's word */
    wcb = pattern(dst, LINE / 4, 0xa5a5a5a5u);
    scc_cl1invmb();
    put = pattern(far, COPY_WORDS, 0x5a000003u);        /* 8 misses, 56 hits */
    far[0] = 0x11;
    (void)scc_atomic_read(8);                   /* uncached: the WCB goes out */
    far[1] = 0x22;                              /* into the WCB anew */
    *mpb(47, 0xc00) = 0;                        /* out */
    scc_cl1invmb();
    again = far[0] == 0x11 && far[1] == 0x22 ? "ok" : "bad";  /* 1 miss, 1 hit */
    printf("get %s\nput %s\nwcb %s\nagain %s\n", get, put, wcb, again);
}

static void rep_movsb(volatile void *dst, const volatile void *src, unsigned n)
{
    __asm__ volatile("cld; rep movsb" : "+D"(dst), "+S"(src), "+c"(n) : : "memory");
}

static void shcopy(int me, int words)
{
    volatile uint8_t *src = (volatile uint8_t *)scc_shm() + 4096 + me * 256;
    volatile uint8_t *dst = src + 128;
    unsigned i;

    for (i = 0; i < 64; i++) {
        src[i] = (uint8_t)(me * 7 + i);
        dst[i] = 0;
    }
    if (words)
        rep_movs(dst, src, 64 / 4);
    else
        rep_movsb(dst, src, 64);
    for (i = 0; i < 64 && dst[i] == (uint8_t)(me * 7 + i); i++)
        ;
    printf("shcopy %s\n", i == 64 ? "ok" : "bad");
}

/* Atomic counters 3 and 4 order the steps; they are SIF registers, which
 * take no system call (a system call may start the core listening). */
static void deaf(int me)
{
    if (me == 47) {
        unsigned seen, now;

        while (scc_atomic_read(3) != 1)
            ;
        seen = scc_intr_count();
        printf("before %u\n", seen);
        scc_atomic_inc(4);
        while ((now = scc_halt_since(seen)) == seen)
            ;
        printf("after %u\n", now);
    } else {
        MUST(scc_ipi(47));
        spin(20000);                            /* it has long arrived */
        scc_atomic_inc(3);
        while (scc_atomic_read(4) != 1)
            ;
        spin(20000);                            /* let it halt */
        MUST(scc_ipi(47));
    }
}

/* The bug the timing mode's timing-stale=on is there to catch. */
static void stale(int me)
{
    volatile uint32_t *f = mpb(47, 0x600);
    int i;

    if (me == 47) {
        *f = 0;
        *mpb(47, 0x640) = 0;                    /* out of the WCB */
        scc_cl1invmb();
        (void)*f;                               /* now in this core's L1 */
        scc_atomic_inc(1);
        while (scc_atomic_read(1) != 2)
            ;
        for (i = 0; i < 20000; i++)
            if (*f)                             /* no CL1INVMB: the bug */
                break;
        if (i < 20000)
            printf("stale: saw %u after %d reads\n", *f, i + 1);
        else
            printf("stale: never saw it\n");
    } else {
        while (scc_atomic_read(1) != 1)
            ;
        *f = 1;
        *mpb(47, 0x640) = 1;                    /* flushes the flag */
        scc_atomic_inc(1);
    }
}

/* Cycles of eight 4-byte stores to the line at p: as in timed_read, the
 * stores alone between the RDTSCs (and the mov that keeps the first). */
static uint32_t timed_stores(volatile uint32_t *p)
{
    uint32_t t0, t1;

    __asm__ volatile("rdtsc\n\tmov %%eax, %0\n\t"
                     "movl $1, (%2)\n\tmovl $1, 4(%2)\n\tmovl $1, 8(%2)\n\t"
                     "movl $1, 12(%2)\n\tmovl $1, 16(%2)\n\tmovl $1, 20(%2)\n\t"
                     "movl $1, 24(%2)\n\tmovl $1, 28(%2)\n\trdtsc"
                     : "=&r"(t0), "=&a"(t1) : "r"(p) : "edx", "memory");
    return t1 - t0;
}

/* A register loop long enough for a posted write to be out. */
#define QUIET 2000

static void dram(void)
{
    /* .bss, cleared by writes that went around the caches; a line in the
     * middle, far from the last one cleared */
    static uint32_t buf[1024] __attribute__((aligned(32)));
    volatile uint32_t *p = buf + 512;

    printf("write_new cycles %lu\n", (unsigned long)timed_stores(p));
    printf("read_back cycles %lu\n", (unsigned long)timed_read(p, 0));
    printf("read_again cycles %lu\n", (unsigned long)timed_read(p, 0));
    printf("write_cached cycles %lu\n", (unsigned long)timed_stores(p));
    /* lines never loaded: every store goes around the caches on its own,
     * the line written before or not */
    {
        /* Nothing in between may store to a line outside the L1 (it would
         * go around too): no printf, and the results go to a line loaded
         * first. */
        static volatile uint32_t r[8] __attribute__((aligned(32)));

        (void)r[0];
        spin(QUIET);
        r[0] = timed_stores(buf + 256);
        spin(QUIET);
        r[1] = timed_stores(buf + 256);
        spin(QUIET);
        r[2] = timed_stores(buf + 768);
        printf("around_a cycles %lu\n", (unsigned long)r[0]);
        printf("around_a_again cycles %lu\n", (unsigned long)r[1]);
        printf("around_b cycles %lu\n", (unsigned long)r[2]);
    }
}

/*
 * MPBT-marked DRAM: eight stores fill one line of the write-combine
 * buffer ("wcb_one"), which goes out as one write; sixteen fill two
 * ("wcb_two"), the second waiting for the first to be out. Then a line
 * read ("mpbt_read"), read again ("mpbt_read_again"), and read after a
 * CL1INVMB ("mpbt_read_inv").
 */
static void dram_wcb(void)
{
    static uint32_t buf[2048] __attribute__((aligned(4096)));
    static volatile uint32_t r[8] __attribute__((aligned(32)));
    uint32_t *p = buf + 1024, t0, t1;

    MUST(scc_copy_mark_mpbt(buf, sizeof(buf), 1));
    (void)r[0];
    spin(QUIET);
    r[0] = timed_stores(p);
    spin(QUIET);
    __asm__ volatile("rdtsc\n\tmov %%eax, %0\n\t"
                     "movl $1, (%2)\n\tmovl $1, 4(%2)\n\tmovl $1, 8(%2)\n\t"
                     "movl $1, 12(%2)\n\tmovl $1, 16(%2)\n\tmovl $1, 20(%2)\n\t"
                     "movl $1, 24(%2)\n\tmovl $1, 28(%2)\n\t"
                     "movl $1, 32(%2)\n\tmovl $1, 36(%2)\n\tmovl $1, 40(%2)\n\t"
                     "movl $1, 44(%2)\n\tmovl $1, 48(%2)\n\tmovl $1, 52(%2)\n\t"
                     "movl $1, 56(%2)\n\tmovl $1, 60(%2)\n\trdtsc"
                     : "=&r"(t0), "=&a"(t1) : "r"(p + 16) : "edx", "memory");
    r[1] = t1 - t0;
    /* an MPBT line read from DRAM stays in the L1 until CL1INVMB drops it */
    spin(QUIET);
    r[2] = timed_read(p + 64, 0);
    r[3] = timed_read(p + 64, 0);
    spin(QUIET);
    r[4] = timed_read(p + 64, 1);
    printf("wcb_one cycles %lu\n", (unsigned long)r[0]);
    printf("wcb_two cycles %lu\n", (unsigned long)r[1]);
    printf("mpbt_read cycles %lu\n", (unsigned long)r[2]);
    printf("mpbt_read_again cycles %lu\n", (unsigned long)r[3]);
    printf("mpbt_read_inv cycles %lu\n", (unsigned long)r[4]);
    MUST(scc_copy_mark_mpbt(buf, sizeof(buf), 0));
}

/* The L2 set of the line at @p: 256 KiB, 4-way, 32-byte lines, indexed by
 * physical address (docs/timing.md); -1 if the kernel cannot say. */
static int l2_set(const volatile void *p)
{
    uint32_t pte;

    if (scc_vmquery((const void *)p, &pte))
        return -1;
    return (int)(((pte & ~0xFFFu) | ((uintptr_t)p & 0xFFFu)) / LINE % 2048);
}

/*
 * A dirty line leaves the L2: the read that evicts it waits for its write
 * back. Line A is read and written (dirty), then five lines of A's L1 set
 * but of other L2 sets push A out of the L1 into the L2 (after A, five
 * other lines always do under the 4-way L1's pseudo-LRU, four may not),
 * then four more lines of A's L2 set are read: the fourth evicts it from
 * the 4-way L2 ("dirty"). The same with a line only read ("clean"). The
 * lines are found by physical address: the buffer's pages are contiguous
 * in virtual memory only. The L1's sets are the page offset's lines, the
 * L2's a multiple of them: a line of A's L2 set is in A's L1 set.
 */
static void dram_writeback(void)
{
    static uint32_t buf[8 * 16384] __attribute__((aligned(4096)));
    static volatile uint32_t r[8] __attribute__((aligned(32)));
    volatile uint32_t *set[2][5], *other[2][5];
    const unsigned nlines = sizeof(buf) / LINE;

    (void)r[0];
    for (int k = 0; k < 2; k++) {
        unsigned first = 128 + 40 * k, n = 0, m = 0;
        int want = l2_set(buf + 8 * first);

        for (unsigned l = first; l < nlines && n < 5 && want >= 0; l++)
            if (l2_set(buf + 8 * l) == want)
                set[k][n++] = buf + 8 * l;
        for (unsigned l = first; l < nlines && m < 5 && want >= 0; l += 128)
            if (l2_set(buf + 8 * l) != want)
                other[k][m++] = buf + 8 * l;
        if (n < 5 || m < 5) {
            printf("dram_writeback: no five lines of one L2 set\n");
            return;
        }
    }
    for (int k = 0; k < 2; k++) {
        volatile uint32_t **a = set[k];

        (void)*a[0];
        if (k == 0)
            *a[0] = 7;
        for (int i = 0; i < 5; i++)
            (void)*other[k][i];
        (void)*a[1];
        (void)*a[2];
        (void)*a[3];
        spin(QUIET);
        r[k] = timed_read((uint32_t *)a[4], 0);
    }
    printf("dirty cycles %lu\n", (unsigned long)r[0]);
    printf("clean cycles %lu\n", (unsigned long)r[1]);
}

static void clock_loop(const char *name)
{
    uint32_t t0, t1;
    uint64_t g0, g1;

    g0 = scc_gtsc();
    t0 = tsc();
    spin(20000);
    t1 = tsc();
    g1 = scc_gtsc();
    printf("%s cycles %lu gtsc %llu\n", name, (unsigned long)(t1 - t0),
           (unsigned long long)(g1 - g0));
}

static void set_clock(const struct scc_info *info, uint32_t mhz)
{
    volatile uint32_t *gcbcfg = (volatile uint32_t *)(uintptr_t)(info->crb_base +
                                                                 CRB_GCBCFG);

    *gcbcfg = (*gcbcfg & ~(uint32_t)GCBCFG_CLOCK_MASK) | mhz << GCBCFG_CLOCK_SHIFT;
    spin(100);          /* the new clock comes a pin latency after the write */
}

static void clock_mode(long mhz)
{
    struct scc_info info;

    MUST(scc_info(&info));
    clock_loop("base");
    set_clock(&info, (uint32_t)mhz);
    clock_loop("set");
    set_clock(&info, info.core_hz / 1000000 * 2);
    clock_loop("refused");
}

static void clock_other(int me, long mhz, int listen)
{
    struct scc_info info;

    MUST(scc_info(&info));
    if (me == 2) {
        if (listen)
            (void)scc_intr_count();
        scc_atomic_inc(5);
        clock_loop("far");
    } else {
        info.crb_base += SCC_PAGE_SIZE;         /* tile 1: cores 2 and 3 */
        while (scc_atomic_read(5) != 1)
            ;
        spin(2000);             /* core 2's loop is under way */
        set_clock(&info, (uint32_t)mhz);
    }
}

/*
 * Eight times PREP then INSN between two RDTSCs: the cycles. Every block
 * has the same instructions but INSN, so the difference to the NOP block
 * is eight times the difference of INSN's cost to a NOP's.
 */
#define CLASS_BLOCK(name, setup, prep, insn, ...)                          \
    do {                                                                   \
        uint32_t d_;                                                       \
        __asm__ volatile(setup "\n\trdtsc\n\tmov %%eax, %%esi\n\t"          \
                         ".rept 8\n\t" prep "\n\t" insn "\n\t.endr\n\t"     \
                         "rdtsc\n\tsub %%esi, %%eax\n\tmov %%eax, %%esi"    \
                         : "=&S"(d_)                                       \
                         : __VA_ARGS__                                     \
                         : "eax", "ebx", "ecx", "edx", "memory", "cc");    \
        printf("%s cycles %lu\n", name, (unsigned long)d_);                \
    } while (0)

static void classes(void)
{
    static volatile uint32_t word __attribute__((aligned(32)));
    static const double one = 1.0;

    (void)word;                 /* its line in the L1 (a store alone */
    word = 1;                   /* would go around), then dirty */
    CLASS_BLOCK("base", "", "xor %%edx, %%edx", "nop", "D"(&word));
    CLASS_BLOCK("mul", "", "xor %%edx, %%edx", "mull %%ebx", "D"(&word));
    CLASS_BLOCK("imul", "", "xor %%edx, %%edx", "imull %%ebx, %%ecx", "D"(&word));
    CLASS_BLOCK("div", "mov $3, %%ebx", "xor %%edx, %%edx", "divl %%ebx", "D"(&word));
    CLASS_BLOCK("idiv", "mov $3, %%ebx", "cltd", "idivl %%ebx", "D"(&word));
    CLASS_BLOCK("xchg", "", "xor %%edx, %%edx", "xchgl %%ecx, (%%edi)", "D"(&word));
    CLASS_BLOCK("cmpxchg", "", "xor %%edx, %%edx", "lock cmpxchgl %%ecx, (%%edi)",
                "D"(&word));
    CLASS_BLOCK("pusha_popa", "", "pushal", "popal", "D"(&word));
    CLASS_BLOCK("push_pop", "", "pushl %%eax", "popl %%eax", "D"(&word));
    CLASS_BLOCK("mov_ds", "mov %%ds, %%ecx", "xor %%edx, %%edx", "mov %%ecx, %%ds",
                "D"(&word));
    CLASS_BLOCK("cpuid", "", "xor %%eax, %%eax", "cpuid", "D"(&word));
    CLASS_BLOCK("fadd", "fldl (%%edi)", "xor %%edx, %%edx", "fadd %%st(0), %%st",
                "D"(&one));
    CLASS_BLOCK("fdiv", "fldl (%%edi)", "xor %%edx, %%edx", "fdiv %%st(0), %%st",
                "D"(&one));
    CLASS_BLOCK("fsqrt", "fldl (%%edi)", "xor %%edx, %%edx", "fsqrt", "D"(&one));
    __asm__ volatile("fninit");
    CLASS_BLOCK("syscall", "", "mov $0x7fff, %%eax", "int $0x80", "D"(&word));
}

int main(int argc, char **argv)
{
    int me = scc_core_id();
    const char *what = argc > 1 ? argv[1] : "";

    if (!strcmp(what, "none")) {
        /* start-up and exit only: what the other programs are measured against */
    } else if (!strcmp(what, "hops")) {
        if (me == 0)
            hops();
    } else if (!strcmp(what, "wcb")) {
        if (me == 0)
            wcb();
    } else if (!strcmp(what, "flag")) {
        flag_at(me, mpb(47, 0x400), 1);
    } else if (!strcmp(what, "ipi")) {
        ipi(me);
    } else if (!strcmp(what, "ipi_busy")) {
        ipi_busy(me);
    } else if (!strcmp(what, "rep")) {
        rep(me);
    } else if (!strcmp(what, "repcopy")) {
        repcopy(me, (int)arg_long(argc, argv, "copies", 1));
    } else if (!strcmp(what, "deaf")) {
        deaf(me);
    } else if (!strcmp(what, "stale")) {
        stale(me);
    } else if (!strcmp(what, "shflag")) {
        flag_at(me, (volatile uint32_t *)scc_shm() + 16, 0);
    } else if (!strcmp(what, "shcopy")) {
        shcopy(me, (int)arg_long(argc, argv, "movsl", 0));
    } else if (!strcmp(what, "dram")) {
        if (me == 0)
            dram();
    } else if (!strcmp(what, "dram_wcb")) {
        if (me == 0)
            dram_wcb();
    } else if (!strcmp(what, "dram_writeback")) {
        if (me == 0)
            dram_writeback();
    } else if (!strcmp(what, "clock")) {
        if (me == 0)
            clock_mode(arg_long(argc, argv, "mhz", 266));
    } else if (!strcmp(what, "clock_other")) {
        clock_other(me, arg_long(argc, argv, "mhz", 266),
                    (int)arg_long(argc, argv, "listen", 0));
    } else if (!strcmp(what, "classes")) {
        if (me == 0)
            classes();
    } else if (!strcmp(what, "contention")) {
        contention(me, (int)arg_long(argc, argv, "k", 8));
    } else {
        FAIL("usage: timing_micro none|hops|classes|wcb|flag|shflag|contention|ipi|ipi_busy|rep|repcopy|deaf|stale|shcopy|dram|dram_wcb|dram_writeback|clock|clock_other [k=N] [mhz=M] [listen=0|1] [copies=0|1]");
    }
    return 0;
}
