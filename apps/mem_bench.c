/*
 * mem_bench.c - memory bandwidth of one core streaming 4-byte loads or
 * stores over a buffer, and of N cores reading their private DRAM at
 * once (002's copy-core paper, Figures 1 and 2, lines 1153-1238).
 *
 *   mem_bench NUES GHZ CORE... [--sizes LIST|none] [--ops read,write]
 *             [--mem plain,mpbt] [--reps R] [--warmup W]
 *             [--aggregate N,...] [--agg-size SIZE] [--agg-reps R]
 *             [--place own|rank|controller|two|four] [--regions]
 *   (each option in any form of apps/lib/bench.h: --reps 4, --reps=4, reps=4)
 *
 * Single core (UE 0; the others wait): for each size, memory type and
 * operation, W passes over the buffer first (002: "each area is
 * prefetched before every measurement"), then R timed passes. A pass
 * reads every 4-byte word of the buffer into a sum, or stores one value
 * to every word: a loop of 4-byte operations unrolled by two, 2.5
 * instructions a word, in assembler so that it stays that loop whatever
 * the compiler. 002 does not give its loop; its L1 figure (400 MB/s at
 * 533 MHz) says it took 5.3 cycles a word, and the model's average
 * instruction (2.07 cycles, docs/timing.md) puts this one at 5.2, where
 * gcc -O2's four instructions a word took 8.3 and held every size's
 * reads to the loop's pace. mem plain is the
 * app's private memory as the kernel maps it; mpbt marks the buffer's
 * pages MPBT for the measurement (SYS_copy_mpbt, as copy_bench's mpbt
 * methods do; the marking is not timed). The default sizes are for the
 * L1 (4 KiB: a quarter of the 16 KiB, 4-way L1, so that the stack and the
 * clock's data, which share it, never push the buffer out), the L2
 * (128 KiB, half of it) and DRAM (1 MiB, four times the L2).
 *
 * Aggregate (--aggregate): for each N, UEs 0..N-1 each read a buffer of
 * their own private DRAM (--agg-size, default 1 MiB: beyond the L2) R
 * times, all starting after one barrier; the others wait. The bandwidth
 * is all bytes over the time from the first start to the last end.
 *
 * Where the aggregate reads (--place): own, each UE its own private DRAM,
 * on the ranks and controllers the default LUTs give (three or four cores
 * a rank, twelve a controller). The others put the readers where 002's
 * Figure 2 put them, as its authors did with LUT files: UE u reads a
 * read-only view (scc_dram_map) of 1 MiB in page 1 of an owner UE's private
 * slot, the owners taken round-robin: rank, UE 0's alone (every reader on
 * one rank); controller, the first UE on each of the four ranks of UE 0's
 * controller; two, those of UE 0's controller and the next; four, of all
 * four controllers. Each owner first sums its region through the same
 * view, and a reader's pass is right when it reads that sum.
 *
 * CSV on stdout (UE 0), after the `#` lines of apps/lib/bench.h:
 *   kind,op,mem,cores,controllers,bytes,reps,moved_bytes,clock,us,mb_per_s,
 *   core_min_mb_per_s,core_max_mb_per_s,verified,warmup,place
 * kind single or aggregate; cores the cores that ran it; controllers how
 * many memory controllers the memory they read is on (from the LUT entry
 * of each owner's private page 0); place the --place; bytes the buffer (per core); moved_bytes
 * = cores x bytes x reps; us the time (single: the core's R passes;
 * aggregate: first start to last end) in microseconds of RCCE_wtime
 * (clock: modeled in the timing mode, emulated otherwise: host speed, not
 * SCC time); mb_per_s = moved_bytes / us (10^6 bytes a second);
 * core_min/max_mb_per_s the slowest and fastest core's own bandwidth;
 * verified yes if every pass read the sum the buffer holds, and the buffer
 * held the stored value after every write pass. A summary goes to stderr.
 *
 * --regions (apps/lib/bench.h): the timed passes are regions
 * read_plain, read_mpbt, write_plain, write_mpbt (single) and aggregate.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "RCCE.h"
#include "bench.h"
#include "scc.h"
#include "scc_copy.h"

#define MAXSIZES 16
#define MAXN 48
#define MAXREPS 1000
#define SIZE_MAX_BYTES (16L << 20)

static long sizes[MAXSIZES];
static int nsizes;
static int ops = 3, mems = 3;           /* bit 0: read / plain, bit 1: write / mpbt */
static int reps = 4, warmup = 1, agg_reps = 2;
static long agg_size = 1L << 20;
static int aggn[MAXN], naggn;
static int me, np;
static uint32_t agg_want;               /* the sum of the words of a buffer of agg_size */

/* --place: where the aggregate's readers read (see the top) */
enum { PLACE_OWN, PLACE_RANK, PLACE_MC, PLACE_TWO, PLACE_FOUR };
static const char *const place_name[] = {"own", "rank", "controller", "two", "four"};
static int place;
/* Each UE's private slot: its controller (0-3), the system page of its
 * private page 0, and the sum of its region (page 1's first agg_size bytes,
 * through a view) when place is not own. */
struct slot {
    long mc, page0;
    uint32_t sum;
};
static struct slot slot_of[MAXN];
static int owner_of[MAXN];              /* whose region UE u reads */

/* UE 0 says what is wrong; every UE stops with status 2 after a barrier,
 * so that UE 0's words are out before the first UE's exit ends the run. */
static int usage(const char *why, const char *what)
{
    if (me == 0)
        fprintf(stderr, "mem_bench: %s%s\nusage: mem_bench NUES GHZ CORE... [--sizes LIST|none] "
                "[--ops read,write] [--mem plain,mpbt] [--reps R] [--warmup W] "
                "[--aggregate N,...] [--agg-size SIZE] [--agg-reps R] [--regions]\n",
                why, what ? what : "");
    RCCE_barrier(&RCCE_COMM_WORLD);
    return 2;
}

/* "read,write" or "plain,mpbt" into a bit set: 0 if a word is unknown. */
static int words(const char *s, const char *a, const char *b)
{
    int set = 0;

    while (*s) {
        size_t n = strcspn(s, ",");
        if (n == strlen(a) && !strncmp(s, a, n))
            set |= 1;
        else if (n == strlen(b) && !strncmp(s, b, n))
            set |= 2;
        else
            return 0;
        s += n + (s[n] == ',');
    }
    return set;
}

/* The UE's controller and its slot's first system page, from its LUT
 * entry for private page 0 (route: the tile the controller hangs off). */
static int my_slot(struct slot *sl)
{
    struct scc_info in;
    long e = scc_lut_read(0);

    if (e < 0 || scc_info(&in))
        return -1;
    long route = LUT_ROUTE(e);
    sl->mc = SCC_QUADRANT_MC(LUT_ROUTE_X(route), LUT_ROUTE_Y(route), (long)in.mesh_x,
                             (long)in.mesh_y);
    sl->page0 = LUT_ADDRBITS(e);
    return 0;
}

/* The owners of the regions read under place, from UE 0's controller on:
 * the first UE of each wanted (controller, rank), in UE order. */
static int owners(int *own, int max)
{
    int nmc = place == PLACE_RANK || place == PLACE_MC ? 1 : place == PLACE_TWO ? 2 : 4;
    int nrank = place == PLACE_RANK ? 1 : SCC_MC_RANKS, n = 0;

    for (int m = 0; m < nmc; m++)
        for (int r = 0; r < nrank; r++)
            for (int u = 0; u < np; u++) {
                long mc = (slot_of[0].mc + m) % SCC_NUM_MC;
                long rank = (slot_of[u].page0 % SCC_MC_PAGES) / SCC_MC_RANK_PAGES;
                if (slot_of[u].mc == mc && rank == r) {
                    if (n < max)
                        own[n++] = u;
                    break;
                }
            }
    return n;
}

static int parse_counts(const char *s)
{
    naggn = 0;
    while (*s) {
        char *end;
        long v = strtol(s, &end, 10);
        if (end == s || v < 1 || v > np || naggn == MAXN || (*end && *end != ','))
            return -1;
        aggn[naggn++] = (int)v;
        s = end + (*end == ',');
    }
    return naggn ? 0 : -1;
}

/* --- the loops ------------------------------------------------------------------ */

/* The sum of the words of [p, end), two a turn (sizes are whole lines). */
static uint32_t read_pass(const uint32_t *p, const uint32_t *end, uint32_t s)
{
    __asm__ volatile("1: addl (%1), %0\n\t"
                     "addl 4(%1), %0\n\t"
                     "addl $8, %1\n\t"
                     "cmpl %2, %1\n\t"
                     "jb 1b"
                     : "+r"(s), "+r"(p) : "r"(end) : "memory", "cc");
    return s;
}

/* v into every word of [p, end), two a turn. */
static void write_pass(uint32_t *p, uint32_t *end, uint32_t v)
{
    __asm__ volatile("1: movl %2, (%0)\n\t"
                     "movl %2, 4(%0)\n\t"
                     "addl $8, %0\n\t"
                     "cmpl %1, %0\n\t"
                     "jb 1b"
                     : "+r"(p) : "r"(end), "r"(v) : "memory", "cc");
}

/*
 * The timed part: R passes between two clock reads, in functions of
 * their own (BENCH_TIMED: never inlined), so that its instructions are
 * the same whatever the code around the call (the region markers, with
 * and without --regions, and main's). Microseconds; *sum the reads' sum.
 */
BENCH_TIMED static double timed_reads(const uint32_t *p, const uint32_t *end, int r,
                                      uint32_t *sum)
{
    uint32_t s = 0;
    double t0 = RCCE_wtime();

    for (int i = 0; i < r; i++)
        s = read_pass(p, end, s);
    double t1 = RCCE_wtime();
    *sum = s;
    return (t1 - t0) * 1e6;
}

/* The same, for the aggregate: the start in *start and the end returned,
 * in seconds of RCCE_wtime (the cores' clocks are compared). */
BENCH_TIMED static double timed_reads_at(const uint32_t *p, const uint32_t *end, int r,
                                         uint32_t *sum, double *start)
{
    uint32_t s = 0;
    double t0 = RCCE_wtime();

    for (int i = 0; i < r; i++)
        s = read_pass(p, end, s);
    double t1 = RCCE_wtime();
    *sum = s;
    *start = t0;
    return t1;
}

BENCH_TIMED static double timed_writes(uint32_t *p, uint32_t *end, int r, uint32_t v)
{
    double t0 = RCCE_wtime();

    for (int i = 0; i < r; i++)
        write_pass(p, end, v + (uint32_t)i);
    double t1 = RCCE_wtime();
    return (t1 - t0) * 1e6;
}

static uint32_t pattern(size_t i)
{
    return (uint32_t)i * 2654435761u + 12345u;
}

static uint32_t fill(uint32_t *buf, size_t nwords)
{
    uint32_t sum = 0;

    for (size_t i = 0; i < nwords; i++) {
        buf[i] = pattern(i);
        sum += buf[i];
    }
    return sum;
}

static int holds(const uint32_t *buf, size_t nwords, uint32_t v)
{
    for (size_t i = 0; i < nwords; i++)
        if (buf[i] != v)
            return 0;
    return 1;
}

/* The memory controller this core's private memory is on: its LUT entry
 * for private page 0 without the address bits (route and port). */
static long my_controller(void)
{
    long e = scc_lut_read(0);

    return e < 0 ? e : (e & LUT_PORT_MASK) >> 10;
}

static int count_controllers(const long *c, int n)
{
    int k = 0;

    for (int i = 0; i < n; i++) {
        int seen = 0;
        for (int j = 0; j < i; j++)
            seen |= c[j] == c[i];
        k += !seen;
    }
    return k;
}

static void row(const char *kind, const char *op, const char *mem, int cores, int ctrls,
                long bytes, int r, double us, double cmin, double cmax, int ok)
{
    double moved = (double)cores * (double)bytes * r;

    printf("%s,%s,%s,%d,%d,%ld,%d,%.0f,%s,%.3f,%.3f,%.3f,%.3f,%s,%d,%s\n", kind, op, mem,
           cores, ctrls, bytes, r, moved, bench_clock(), us, us > 0 ? moved / us : 0.0, cmin,
           cmax, ok ? "yes" : "NO", warmup, place_name[place]);
    fflush(stdout);
    fprintf(stderr, "%-9s %-5s %-5s %2d cores %8ld B x %d: %10.3f us %9.2f MB/s%s\n", kind, op,
            mem, cores, bytes, r, us, us > 0 ? moved / us : 0.0, ok ? "" : "  WRONG");
}

/* --- single core --------------------------------------------------------------- */

static int single(uint32_t *buf, long bytes, int op, int mem, int ctrls)
{
    static const char *const region[2][2] = {{"read_plain", "read_mpbt"},
                                             {"write_plain", "write_mpbt"}};
    size_t nwords = (size_t)bytes / 4;
    uint32_t *end = buf + nwords, want = fill(buf, nwords), sum = 0, v = 0x5a5a0000u;
    int ok = 1;
    double us;

    if (mem && scc_copy_mark_mpbt(buf, (size_t)bytes, 1)) {
        fprintf(stderr, "mem_bench: marking %ld bytes MPBT failed\n", bytes);
        return 1;
    }
    for (int w = 0; w < warmup; w++)
        ok &= read_pass(buf, end, 0) == want;
    if (op == 0) {
        bench_region_begin(region[0][mem]);
        us = timed_reads(buf, end, reps, &sum);
        bench_region_end();
        ok &= sum == want * (uint32_t)reps;
    } else {
        bench_region_begin(region[1][mem]);
        us = timed_writes(buf, end, reps, v);
        bench_region_end();
        if (mem)
            (void)scc_gtsc_lo();    /* an uncached access pushes the WCB out */
        ok &= holds(buf, nwords, v + (uint32_t)reps - 1);
    }
    if (mem)
        scc_copy_mark_mpbt(buf, (size_t)bytes, 0);
    double mbs = us > 0 ? (double)bytes * reps / us : 0;
    row("single", op ? "write" : "read", mem ? "mpbt" : "plain", 1, ctrls, bytes, reps, us,
        mbs, mbs, ok);
    return !ok;
}

/* --- N cores at once ------------------------------------------------------------- */

static int aggregate(const uint32_t *buf, int n, const long *ctrl_of)
{
    size_t nwords = (size_t)agg_size / 4;
    const uint32_t *end = buf + nwords;
    uint32_t want = place == PLACE_OWN ? agg_want : slot_of[owner_of[me]].sum;
    int bad = 0;

    if (me < n) {
        for (int w = 0; w < warmup; w++)
            (void)read_pass(buf, end, 0);
    }
    RCCE_barrier(&RCCE_COMM_WORLD);
    double t[3] = {0, 0, 1};
    if (me < n) {
        uint32_t sum = 0;
        bench_region_begin("aggregate");
        t[1] = timed_reads_at(buf, end, agg_reps, &sum, &t[0]);
        bench_region_end();
        t[2] = sum == want * (uint32_t)agg_reps;
    }
    if (me == 0) {
        double first = t[0], last = t[1], cmin = 0, cmax = 0;
        int ok = t[2] != 0;
        for (int u = 0; u < n; u++) {
            double v[3];
            if (u == 0)
                memcpy(v, t, sizeof v);
            else
                RCCE_recv((char *)v, sizeof v, u);
            first = v[0] < first ? v[0] : first;
            last = v[1] > last ? v[1] : last;
            ok &= v[2] != 0;
            double mbs = (double)agg_size * agg_reps / ((v[1] - v[0]) * 1e6);
            cmin = u == 0 || mbs < cmin ? mbs : cmin;
            cmax = u == 0 || mbs > cmax ? mbs : cmax;
        }
        long read_on[MAXN];
        for (int u = 0; u < n; u++)
            read_on[u] = ctrl_of[place == PLACE_OWN ? u : owner_of[u]];
        row("aggregate", "read", "plain", n, count_controllers(read_on, n), agg_size, agg_reps,
            (last - first) * 1e6, cmin, cmax, ok);
        bad = !ok;
    } else if (me < n) {
        RCCE_send((char *)t, sizeof t, 0);
    }
    return bad;
}

/* The options (apps/lib/bench.h), and the region option. */
#define MB_OPTIONS(X)                   \
    X(MB_SIZES, "sizes", value)         \
    X(MB_OPS, "ops", value)             \
    X(MB_MEM, "mem", value)             \
    X(MB_REPS, "reps", value)           \
    X(MB_AGG_REPS, "agg-reps", value)   \
    X(MB_WARMUP, "warmup", value)       \
    X(MB_AGGREGATE, "aggregate", value) \
    X(MB_PLACE, "place", value)         \
    X(MB_AGG_SIZE, "agg-size", value)
BENCH_OPTIONS(mb, rcce, regions, MB_OPTIONS);

/* The options after the RCCE words: 0, or 2 (the exit status) after
 * saying why. */
static int mb_options(int argc, char **argv)
{
    struct bench_args a;
    const char *v;
    long x;
    int k;

    bench_args(&a, argc, argv, 1, &mb_opts);
    while ((k = bench_next(&a, &v)) != BENCH_END) {
        switch (k) {
        case BENCH_BAD:
            return usage(bench_why(), NULL);
        case BENCH_POSITIONAL:
            return usage("unknown option ", v);
        case MB_SIZES:
            if (!strcmp(v, "none"))
                nsizes = 0;
            else if ((nsizes = size_list(v, sizes, MAXSIZES, 4, SIZE_MAX_BYTES, 2)) < 0)
                return usage("bad --sizes: ", size_why());
            break;
        case MB_OPS:
            if (!(ops = words(v, "read", "write")))
                return usage("--ops takes read and/or write, not ", v);
            break;
        case MB_MEM:
            if (!(mems = words(v, "plain", "mpbt")))
                return usage("--mem takes plain and/or mpbt, not ", v);
            break;
        case MB_REPS:
            if (bench_count(v, 1, MAXREPS, &x))
                return usage("--reps wants 1-1000, not ", v);
            reps = (int)x;
            break;
        case MB_AGG_REPS:
            if (bench_count(v, 1, MAXREPS, &x))
                return usage("--agg-reps wants 1-1000, not ", v);
            agg_reps = (int)x;
            break;
        case MB_WARMUP:
            if (bench_count(v, 0, MAXREPS, &x))
                return usage("--warmup wants 0-1000, not ", v);
            warmup = (int)x;
            break;
        case MB_AGGREGATE:
            if (!strcmp(v, "none"))
                naggn = 0;
            else if (parse_counts(v))
                return usage("--aggregate wants core counts 1..NUES, comma-separated, not ", v);
            break;
        case MB_PLACE:
            for (place = 0; place < 5 && strcmp(v, place_name[place]); place++)
                ;
            if (place == 5)
                return usage("--place takes own, rank, controller, two or four, not ", v);
            break;
        case MB_AGG_SIZE:
            if (size_parse(v, 32, SIZE_MAX_BYTES, &agg_size))
                return usage("bad --agg-size: ", size_why());
            break;
        }
    }
    for (int s = 0; s < nsizes; s++)
        if (sizes[s] % 32)
            return usage("sizes must be whole 32-byte lines", NULL);
    if (agg_size % 32)
        return usage("--agg-size must be whole 32-byte lines", NULL);
    return 0;
}

/* Every UE's memory controller into ctrl_of (UE 0's; every UE's with
 * --place), and with --place every UE's slot and its region's sum, the
 * owner of the region each UE reads, and in *view this UE's view of it:
 * 0, or 1 after saying why. */
static int where(long *ctrl_of, const uint32_t **view)
{
    long mine = my_controller();
    struct slot sl = {0, 0, 0};

    if (place != PLACE_OWN) {
        if (my_slot(&sl) ||
            !(*view = scc_dram_map((unsigned)sl.mc, (unsigned)sl.page0 + 1, (size_t)agg_size))) {
            fprintf(stderr, "mem_bench: UE %d: no view of page 1 of its slot (--place needs "
                    "more than 16 MiB of private memory a core, and --agg-size <= 16M)\n", me);
            return 1;
        }
        sl.sum = read_pass(*view, *view + agg_size / 4, 0);
    }
    if (me == 0) {
        ctrl_of[0] = mine;
        slot_of[0] = sl;
        for (int u = 1; u < np; u++) {
            RCCE_recv((char *)&ctrl_of[u], sizeof(long), u);
            RCCE_recv((char *)&slot_of[u], sizeof(struct slot), u);
        }
    } else {
        RCCE_send((char *)&mine, sizeof mine, 0);
        RCCE_send((char *)&sl, sizeof sl, 0);
    }
    if (place != PLACE_OWN) {
        RCCE_bcast((char *)slot_of, sizeof slot_of, 0, RCCE_COMM_WORLD);
        RCCE_bcast((char *)ctrl_of, MAXN * sizeof *ctrl_of, 0, RCCE_COMM_WORLD);
        int own[SCC_NUM_MC * SCC_MC_RANKS], nown = owners(own, SCC_NUM_MC * SCC_MC_RANKS);
        for (int u = 0; u < np; u++)
            owner_of[u] = own[u % nown];
        const struct slot *o = &slot_of[owner_of[me]];
        if (!(*view = scc_dram_map((unsigned)o->mc, (unsigned)o->page0 + 1, (size_t)agg_size))) {
            fprintf(stderr, "mem_bench: UE %d: no view of UE %d's region\n", me, owner_of[me]);
            return 1;
        }
    }
    return 0;
}

/* UE 0: the `#` lines and the header row. */
static void preamble(void)
{
    char what[120];

    snprintf(what, sizeof what, "memory bandwidth, 4-byte loads and stores; one row per "
             "(kind, operation, memory, size or cores)");
    bench_preamble(what);
    printf("# times: us of RCCE_wtime; single: UE 0 alone, after %d prefetch pass(es); "
           "aggregate: UEs 0..N-1 read DRAM at once (place %s)\n", warmup, place_name[place]);
    if (place != PLACE_OWN) {
        printf("# place %s: UEs 0, 1, ... read page 1 of the slots of UEs", place_name[place]);
        for (int u = 0; u < np && u < 16; u++)
            printf(" %d", owner_of[u]);
        printf("%s\n", np > 16 ? " ..." : "");
    }
    printf("kind,op,mem,cores,controllers,bytes,reps,moved_bytes,clock,us,mb_per_s,"
           "core_min_mb_per_s,core_max_mb_per_s,verified,warmup,place\n");
    fflush(stdout);
}

int RCCE_APP(int argc, char **argv)
{
    static long ctrl_of[MAXN];      /* every UE's memory controller */
    const uint32_t *view = NULL;    /* --place: the region this UE reads */
    int bad = 0;

    if (bench_rcce_start(&argc, &argv, "mem_bench", 0))
        return 2;
    me = RCCE_ue();
    np = RCCE_num_ues();
    nsizes = size_list("4K,128K,1M", sizes, MAXSIZES, 4, SIZE_MAX_BYTES, 2);
    if (mb_options(argc, argv))
        return 2;
    if (where(ctrl_of, &view))
        return 1;

    long most = 0;
    for (int s = 0; s < nsizes; s++)
        most = sizes[s] > most ? sizes[s] : most;
    uint32_t *buf = me == 0 && most ? scc_mmap((size_t)most) : NULL;
    int in_agg = 0;
    for (int k = 0; k < naggn; k++)
        in_agg |= me < aggn[k];
    uint32_t *abuf = in_agg && place == PLACE_OWN ? scc_mmap((size_t)agg_size) : NULL;
    if ((me == 0 && most && !buf) || (in_agg && place == PLACE_OWN && !abuf)) {
        fprintf(stderr, "mem_bench: UE %d: no memory for the buffers\n", me);
        return 1;
    }
    if (abuf)
        agg_want = fill(abuf, (size_t)agg_size / 4);

    if (me == 0) {
        preamble();
        for (int s = 0; s < nsizes; s++)
            for (int m = 0; m < 2; m++)
                for (int o = 0; o < 2; o++)
                    if ((mems >> m & 1) && (ops >> o & 1))
                        bad |= single(buf, sizes[s], o, m, 1);
    }
    for (int k = 0; k < naggn; k++)
        bad |= aggregate(place == PLACE_OWN ? abuf : view, aggn[k], ctrl_of);
    RCCE_finalize();
    return bad;
}
