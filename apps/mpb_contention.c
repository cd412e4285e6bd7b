/*
 * mpb_contention.c - MPB and mesh contention, measured as 001 did
 * (section 3.3, lines 476-550): n cores at once get 128 cache lines from
 * one core's MPB, or put 1 line into it; and one get across a mesh link
 * that 44 other cores load with gets of their own.
 *
 *   mpb_contention NUES GHZ CORE... [--ops get,put,link] [--counts 1,2,...,48]
 *                  [--lines L] [--target UE] [--dst mpb|mem] [--iters N]
 *                  [--warmup W] [--put-batch K] [--regions]
 *   (each option in any form of apps/lib/bench.h: --iters 20, --iters=20, iters=20)
 *
 * get: for each n of --counts, UEs 0..n-1 each get --lines lines (default
 * 128) from the target's MPB (default UE 0) into their own MPB (--dst
 * mpb, OC-Bcast's get, 001 step ii) or into private memory (--dst mem):
 * CL1INVMB, then a copy of whole words (rep movsl), as libscc's RCCE_get.
 * The lines are the target's payload region (120 lines) followed by a
 * block of its RCCE_malloc heap: RCCE's 54-line heap cannot hold 128
 * lines, so the copy is two pieces, read back to back.
 * put: UEs 0..n-1 each put one line from their own MPB into their own
 * line of the target's MPB, and push it out of the write-combine buffer
 * (so the time includes the write's acknowledgement). --put-batch K
 * (default 1): a timed operation is K puts back to back, its time over K
 * (001's "parallel puts" averaged over millions of iterations: one put
 * between two clock reads leaves the target's port mostly idle).
 * Every operation of a round starts after a barrier (all n at once, as
 * 001's "n cores executing get at the same time"); each core times its
 * own with RCCE_wtime. Before the rounds, each core of the largest n
 * does the same alone (the others wait): its time without contention.
 *
 * link (all 48 cores, UE u on core u): 001's link test. Every core but
 * those of tiles (2,2) and (3,2) gets 128 lines, again and again, from
 * the odd core of tile (5-x, 2), x its own column, into its private
 * memory (no loader writes an MPB that another reads): by X-Y routing
 * every reply crosses the link (2,2)-(3,2). Core 28 on tile (2,2) times
 * gets from core 30 on tile (3,2) into its MPB, first with the mesh idle
 * (link_idle), then while the 44 loaders run (link_loaded).
 *
 * CSV on stdout (UE 0), after the `#` lines of apps/lib/bench.h:
 *   op,target,cores,core,hops,lines,bytes,iters,warmup,mean_us,min_us,max_us,
 *   alone_us,slowdown,clock,verified
 * One row per (op, n, core): target the core whose MPB is read or
 * written, cores n, core the core, hops its distance to the target's
 * tile, mean/min/max_us over its iters timed operations (after warmup
 * untimed ones), alone_us its mean alone, slowdown mean_us / alone_us.
 * Then one row per (op, n) with core "all": mean_us the mean of the
 * cores' means, min_us the fastest core's mean, max_us the slowest
 * core's mean (001's "slowest core is more than two times slower than
 * the fastest" is max_us / min_us), alone_us the mean of their alone
 * times, slowdown the largest core's. link rows: core the probe (28),
 * target its source (30), cores the loaders (0 or 44), alone_us the idle
 * mean. Times are microseconds of RCCE_wtime (clock modeled in the
 * timing mode; emulated otherwise: host speed, not SCC time). verified:
 * yes if every get read the target's data (each core's MPB holds a
 * pattern of its own) and every put's line arrived (and, for
 * link_loaded, the load lasted as long as the probe's gets). A summary
 * goes to stderr.
 *
 * --regions (apps/lib/bench.h): regions get, put, get_alone, put_alone
 * and link around the timed operations.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "RCCE.h"
#include "bench.h"
#include "scc.h"
#include "scc_mpb.h"

#define LINE 32
#define MAXN RCCE_MAXNP
#define HEAP_LINES 48                   /* RCCE_malloc's lines for programs */
#define MAXLINES (SCC_MPB_REGION_SIZE / LINE + HEAP_LINES)
#define MAXNUM 100000
#define PROBE_CORE 28                   /* tile (2,2), even core */
#define PROBE_SRC 30                    /* tile (3,2), even core */

enum { GET, PUT, LINK };

static int me, np, target = 0, lines = 128, iters = 20, warmup = 2, dst_mem, put_batch = 1;
static int counts[MAXN], ncounts;
static int sync_rounds;                 /* --sync 1: a barrier before every operation */
static size_t heap_off;                 /* the heap block's offset in every UE's MPB area */
static uint32_t *priv;                  /* --dst mem, and the loaders' destination */

static int usage(const char *why, const char *what)
{
    if (me == 0)
        fprintf(stderr, "mpb_contention: %s%s\nusage: mpb_contention NUES GHZ CORE... "
                "[--ops get,put,link] [--counts 1,2,...,48] [--lines 1-%d] [--target UE] "
                "[--dst mpb|mem] [--sync 0|1] [--iters N] [--warmup W] [--put-batch K] "
                "[--regions]\n", why, what ? what : "",
                MAXLINES);
    RCCE_barrier(&RCCE_COMM_WORLD);
    return 2;
}

/* --- the MPB lines ------------------------------------------------------------- */

#define REGION_LINES (SCC_MPB_REGION_SIZE / LINE)

/* Line k (0..MAXLINES-1) of UE u's area: the region, then the heap block. */
static volatile uint32_t *area_line(int u, int k)
{
    t_vcharp base = (t_vcharp)scc_mpb_user(RCCE_ue_core(u));

    return (volatile uint32_t *)(k < REGION_LINES ? base + SCC_MPB_REGION + LINE * k
                                 : base + heap_off + LINE * (k - REGION_LINES));
}

static uint32_t pattern(int u, int k, int w)
{
    return 0x10000000u * (uint32_t)(u % 16) + 0x1000u * (uint32_t)k + (uint32_t)w * 17u + 1u;
}

/* An uncached access: the write-combine buffer goes out before it. */
static void wcb_empty(void)
{
    (void)scc_gtsc_lo();
}

/* Write this UE's pattern into its own area (region + heap block). */
static void fill_own(void)
{
    for (int k = 0; k < MAXLINES; k++) {
        volatile uint32_t *l = area_line(me, k);
        for (int w = 0; w < 8; w++)
            l[w] = pattern(me, k, w);
    }
    wcb_empty();
}

static void copy_words(volatile void *dst, const volatile void *src, size_t words)
{
    __asm__ volatile("cld; rep movsl" : "+D"(dst), "+S"(src), "+c"(words) : : "memory");
}

/* Get @n lines from UE u's area into this UE's area or private memory. */
static void get_lines(int u, int n, int to_mem)
{
    int first = n < REGION_LINES ? n : REGION_LINES;

    scc_cl1invmb();
    copy_words(to_mem ? (volatile void *)priv : (volatile void *)area_line(me, 0),
               area_line(u, 0), (size_t)first * 8);
    if (n > first)
        copy_words(to_mem ? (volatile void *)(priv + 8 * first)
                          : (volatile void *)area_line(me, first),
                   area_line(u, first), (size_t)(n - first) * 8);
}

/* Whether the last get brought UE u's pattern. */
static int got_lines(int u, int n, int from_mem)
{
    wcb_empty();
    scc_cl1invmb();
    for (int k = 0; k < n; k++) {
        volatile uint32_t *l = from_mem ? (volatile uint32_t *)(priv + 8 * k) : area_line(me, k);
        for (int w = 0; w < 8; w++)
            if (l[w] != pattern(u, k, w))
                return 0;
    }
    return 1;
}

/* What UE u puts in round it. */
static uint32_t put_word(int u, int it, int w)
{
    return 0xabc00000u + ((uint32_t)u << 12) + ((uint32_t)it << 3) + (uint32_t)w;
}

/* Where a put goes from and to, and the line whose store pushes it out. */
struct put_lines {
    volatile uint32_t *dst, *src, *flush;
};

static struct put_lines put_lines(void)
{
    struct put_lines p = {area_line(target, me), area_line(me, REGION_LINES - 1),
                          (volatile uint32_t *)((t_vcharp)scc_mpb_user(RCCE_ue_core(me)) +
                                                SCC_MPB_WCB_LINE)};
    return p;
}

/* Put one line: this UE's last region line -> line me of the target's
 * region (the addresses worked out before the clock starts: they take
 * divisions). */
static void put_line(const struct put_lines *p)
{
    scc_cl1invmb();
    copy_words(p->dst, p->src, 8);
    /* a store to another line sends the line out; the P54C waits for it */
    *p->flush = 0;
}

/* Read the private destination, so that the L2 holds it: a get into
 * private memory then costs its MPB reads (the L2 takes the writes), in
 * every round alike. */
static void touch_priv(void)
{
    volatile uint32_t *p = priv;
    uint32_t sum = 0;

    for (int k = 0; k < MAXLINES; k++)
        sum += p[8 * k];
    (void)sum;
}

/* --- the timed operations -------------------------------------------------------- */

struct res {
    double mean, min, max, ok, end;
};

/* warmup + iters operations (get from UE src, or put), each after a
 * barrier if @sync; this UE's times. BENCH_TIMED: its code does not
 * change with its callers'. */
BENCH_TIMED static struct res timed(int op, int sync, const char *region, int src)
{
    struct res r = {0, 1e30, 0, 1, 0};
    struct put_lines pl = put_lines();

    if (op == GET && dst_mem)
        touch_priv();
    for (int it = 0; it < warmup + iters; it++) {
        if (op == PUT) {
            volatile uint32_t *l = area_line(me, REGION_LINES - 1);
            for (int w = 0; w < 8; w++)
                l[w] = put_word(me, it, w);
        }
        if (sync > 1 || (sync && it == 0))
            RCCE_barrier(&RCCE_COMM_WORLD);
        wcb_empty();            /* nothing of the barrier's or ours pending */
        int timed_it = it >= warmup;
        if (timed_it)
            bench_region_begin(region);
        double t0 = RCCE_wtime();
        if (op == PUT)
            for (int k = 0; k < put_batch; k++)
                put_line(&pl);
        else
            get_lines(src, lines, dst_mem);
        double t1 = RCCE_wtime();
        if (timed_it) {
            bench_region_end();
            double us = (t1 - t0) * 1e6 / (op == PUT ? put_batch : 1);
            r.mean += us;
            r.min = us < r.min ? us : r.min;
            r.max = us > r.max ? us : r.max;
        }
        r.end = t1;
    }
    r.mean /= iters;
    if (op == GET)
        r.ok = got_lines(src, lines, dst_mem);
    wcb_empty();
    return r;
}

/* The cores not taking part: the same barriers. */
static void idle_rounds(void)
{
    for (int it = 0; it < (sync_rounds ? warmup + iters : 1); it++)
        RCCE_barrier(&RCCE_COMM_WORLD);
}

static void row(const char *op, int tcore, int n, const char *core, int hops, int nl,
                const struct res *r, double alone, double slow, int ok)
{
    char h[12] = "";

    if (hops >= 0)
        snprintf(h, sizeof h, "%d", hops);
    printf("%s,%d,%d,%s,%s,%d,%d,%d,%d,%.3f,%.3f,%.3f,%.3f,%.3f,%s,%s\n", op, tcore, n, core, h,
           nl, nl * LINE, iters, warmup, r->mean, r->min, r->max, alone, slow, bench_clock(),
           ok ? "yes" : "NO");
}

/* get or put, for every n of --counts. */
static int contention(int op)
{
    static const char *const names[2] = {"get", "put"};
    static const char *const alone_names[2] = {"get_alone", "put_alone"};
    static double alone[MAXN];
    static struct res all[MAXN];
    int maxn = 0, bad = 0, nl = op == PUT ? 1 : lines, tcore = RCCE_ue_core(target);
    double my_alone = 0;

    for (int i = 0; i < ncounts; i++)
        maxn = counts[i] > maxn ? counts[i] : maxn;
    /* alone: each UE of the largest n in turn, the others in the same
     * barriers; the target's pattern is not disturbed meanwhile */
    fill_own();
    RCCE_barrier(&RCCE_COMM_WORLD);
    for (int u = 0; u < maxn; u++) {
        if (me == u)
            my_alone = timed(op, 1 + sync_rounds, alone_names[op], target).mean;
        else
            idle_rounds();
    }
    if (me == 0) {
        alone[0] = my_alone;
        for (int u = 1; u < maxn; u++)
            RCCE_recv((char *)&alone[u], sizeof alone[u], u);
    } else if (me < maxn) {
        RCCE_send((char *)&my_alone, sizeof my_alone, 0);
    }
    for (int c = 0; c < ncounts; c++) {
        int n = counts[c];
        struct res r = {0};
        double vt = 1;          /* put: the target's verdict on the lines it got */

        fill_own();
        RCCE_barrier(&RCCE_COMM_WORLD);
        if (me < n)
            r = timed(op, 1 + sync_rounds, names[op], target);
        else
            idle_rounds();
        RCCE_barrier(&RCCE_COMM_WORLD);
        if (op == PUT && me == target) {
            scc_cl1invmb();
            for (int u = 0; u < n; u++) {
                volatile uint32_t *l = area_line(target, u);
                for (int w = 0; w < 8; w++)
                    vt = vt && l[w] == put_word(u, warmup + iters - 1, w);
            }
        }
        if (me != 0) {
            if (me < n)
                RCCE_send((char *)&r, sizeof r, 0);
            if (op == PUT && me == target)
                RCCE_send((char *)&vt, sizeof vt, 0);
            continue;
        }
        all[0] = r;
        for (int u = 1; u < n; u++)
            RCCE_recv((char *)&all[u], sizeof all[u], u);
        if (op == PUT && target != 0)
            RCCE_recv((char *)&vt, sizeof vt, target);
        struct res a = {0, 1e30, 0, 1, 0};
        double asum = 0, slow = 0;
        int ok = 1;
        for (int u = 0; u < n; u++) {
            char name[8];
            double sd = alone[u] > 0 ? all[u].mean / alone[u] : 0;
            int cok = op == GET ? all[u].ok != 0 : vt != 0;
            snprintf(name, sizeof name, "%d", RCCE_ue_core(u));
            row(names[op], tcore, n, name, scc_hops(RCCE_ue_core(u), tcore), nl, &all[u],
                alone[u], sd, cok);
            ok &= cok;
            a.mean += all[u].mean / n;
            a.min = all[u].mean < a.min ? all[u].mean : a.min;
            a.max = all[u].mean > a.max ? all[u].mean : a.max;
            asum += alone[u] / n;
            slow = sd > slow ? sd : slow;
        }
        row(names[op], tcore, n, "all", -1, nl, &a, asum, slow, ok);
        fflush(stdout);
        fprintf(stderr, "%s %3d line(s), %2d cores: mean %8.3f us, fastest %8.3f, slowest "
                "%8.3f (x%.2f), alone %8.3f, worst slowdown x%.2f%s\n", names[op], nl, n, a.mean,
                a.min, a.max, a.min > 0 ? a.max / a.min : 0, asum, slow, ok ? "" : "  WRONG");
        bad |= !ok;
    }
    return bad;
}

/* --- the mesh link ------------------------------------------------------------- */

/* A loader of the link test: @rounds gets of 128 lines from UE src into
 * private memory, back to back; when they ended, in seconds of
 * RCCE_wtime (link_test checks that the load outlasted the probe's
 * gets). */
BENCH_TIMED static double load_link(int src, int rounds)
{
    for (int it = 0; it < rounds; it++)
        get_lines(src, 128, 1);
    return RCCE_wtime();
}

/* Whether core c is on tile (2,2) or (3,2): not a loader. */
static int on_link_tiles(int c)
{
    int t = scc_tile_of(c);

    return t / 6 == 2 && (t % 6 == 2 || t % 6 == 3);
}

/* link needs UE u on core u for every core: UE numbers are core numbers. */
static int link_test(void)
{
    int tile = scc_tile_of(me), x = tile % 6;
    int src = 2 * (2 * 6 + (5 - x)) + 1;        /* the odd core of tile (5-x, 2) */
    int rounds = 2 * (warmup + iters) + 4, bad = 0;
    struct res r = {0}, idle = {0};

    fill_own();
    RCCE_barrier(&RCCE_COMM_WORLD);
    if (me == PROBE_CORE)           /* the mesh idle: the probe alone */
        idle = timed(GET, 0, "link", PROBE_SRC);
    RCCE_barrier(&RCCE_COMM_WORLD);
    if (me == PROBE_CORE) {         /* loaded: the loaders start with it */
        r = timed(GET, 0, "link", PROBE_SRC);
    } else if (!on_link_tiles(me)) {
        touch_priv();
        bench_region_begin("link");
        r.end = load_link(src, rounds);
        bench_region_end();
        r.ok = got_lines(src, 128, 1);
    }
    RCCE_barrier(&RCCE_COMM_WORLD);
    if (me != 0) {
        RCCE_send((char *)&r, sizeof r, 0);
        if (me == PROBE_CORE)
            RCCE_send((char *)&idle, sizeof idle, 0);
        return 0;
    }
    static struct res all[MAXN];
    double first_end = 1e30;
    int nload = 0, ok = 1;
    all[0] = r;
    for (int u = 1; u < np; u++)
        RCCE_recv((char *)&all[u], sizeof all[u], u);
    RCCE_recv((char *)&idle, sizeof idle, PROBE_CORE);
    for (int u = 0; u < np; u++) {
        if (on_link_tiles(u))
            continue;
        nload++;
        ok &= all[u].ok != 0;
        first_end = all[u].end < first_end ? all[u].end : first_end;
    }
    struct res p = all[PROBE_CORE];
    int covered = first_end >= p.end, hops = scc_hops(PROBE_CORE, PROBE_SRC);
    char name[8];
    snprintf(name, sizeof name, "%d", PROBE_CORE);
    row("link_idle", PROBE_SRC, 0, name, hops, 128, &idle, idle.mean, 1.0, idle.ok != 0);
    row("link_loaded", PROBE_SRC, nload, name, hops, 128, &p, idle.mean,
        idle.mean > 0 ? p.mean / idle.mean : 0, ok && covered && p.ok != 0);
    fflush(stdout);
    fprintf(stderr, "link (2,2)-(3,2): core %d's get of 128 lines from core %d: %8.3f us idle, "
            "%8.3f us with %d loaders (x%.3f)%s%s\n", PROBE_CORE, PROBE_SRC, idle.mean, p.mean,
            nload, idle.mean > 0 ? p.mean / idle.mean : 0,
            covered ? "" : "  (the load ended before the probe's gets)",
            ok && p.ok != 0 && idle.ok != 0 ? "" : "  WRONG");
    bad = !(ok && covered && p.ok != 0 && idle.ok != 0);
    return bad;
}

/* The options (apps/lib/bench.h), and the region option. */
#define MC_OPTIONS(X)                   \
    X(MC_OPS, "ops", value)             \
    X(MC_COUNTS, "counts", value)       \
    X(MC_LINES, "lines", value)         \
    X(MC_TARGET, "target", value)       \
    X(MC_DST, "dst", value)             \
    X(MC_SYNC, "sync", value)           \
    X(MC_ITERS, "iters", value)         \
    X(MC_PUT_BATCH, "put-batch", value) \
    X(MC_WARMUP, "warmup", value)
BENCH_OPTIONS(mc, rcce, regions, MC_OPTIONS);

/* "get,put,link" into a bit set (1 get, 2 put, 4 link): 0 if a word is
 * unknown or there is none. */
static int op_set(const char *s)
{
    int set = 0;

    while (*s) {
        size_t n = strcspn(s, ",");
        int bit = n == 3 && !strncmp(s, "get", 3) ? 1 : n == 3 && !strncmp(s, "put", 3)
                  ? 2 : n == 4 && !strncmp(s, "link", 4) ? 4 : 0;
        if (!bit)
            return 0;
        set |= bit;
        s += n + (s[n] == ',');
    }
    return set;
}

/* --counts (@arg, or NULL for the default) into counts[]: 0, or 2 (the
 * exit status) after saying why. */
static int count_list(const char *arg)
{
    static const int dflt[] = {1, 2, 4, 8, 16, 24, 32, 40, 48};

    if (!arg) {
        for (int i = 0; i < 9 && dflt[i] <= np; i++)
            counts[ncounts++] = dflt[i];
        if (!ncounts || counts[ncounts - 1] != np)
            counts[ncounts++] = np;
        return 0;
    }
    for (const char *s = arg; *s;) {
        char *end;
        long c = strtol(s, &end, 10);
        if (end == s || c < 1 || c > np || ncounts == MAXN || (*end && *end != ','))
            return usage("--counts wants core counts 1..NUES, comma-separated, not ", arg);
        counts[ncounts++] = (int)c;
        s = end + (*end == ',');
    }
    return 0;
}

/* The options after the RCCE words into the globals and *opset (the
 * operations: 1 get, 2 put, 4 link): 0, or 2 (the exit status) after
 * saying why. */
static int mc_options(int argc, char **argv, int *opset)
{
    const char *count_arg = NULL;
    struct bench_args a;
    const char *v;
    long x;
    int k;

    bench_args(&a, argc, argv, 1, &mc_opts);
    while ((k = bench_next(&a, &v)) != BENCH_END) {
        switch (k) {
        case BENCH_BAD:
            return usage(bench_why(), NULL);
        case BENCH_POSITIONAL:
            return usage("unknown option ", v);
        case MC_OPS:
            if (!*v)
                return usage("--ops is empty", NULL);
            if (!(*opset = op_set(v)))
                return usage("--ops takes get, put and link, not ", v);
            break;
        case MC_COUNTS:
            count_arg = v;
            break;
        case MC_LINES:
            if (bench_count(v, 1, MAXLINES, &x))
                return usage("--lines wants 1-168, not ", v);
            lines = (int)x;
            break;
        case MC_TARGET:
            if (bench_count(v, 0, np - 1, &x))
                return usage("--target wants a UE 0..NUES-1, not ", v);
            target = (int)x;
            break;
        case MC_DST:
            if (strcmp(v, "mpb") && strcmp(v, "mem"))
                return usage("--dst takes mpb or mem, not ", v);
            dst_mem = !strcmp(v, "mem");
            break;
        case MC_SYNC:
            if (bench_count(v, 0, 1, &x))
                return usage("--sync takes 0 or 1, not ", v);
            sync_rounds = (int)x;
            break;
        case MC_ITERS:
            if (bench_count(v, 1, MAXNUM, &x))
                return usage("--iters wants 1-100000, not ", v);
            iters = (int)x;
            break;
        case MC_PUT_BATCH:
            if (bench_count(v, 1, 1000, &x))
                return usage("--put-batch wants 1-1000, not ", v);
            put_batch = (int)x;
            break;
        case MC_WARMUP:
            if (bench_count(v, 0, MAXNUM, &x))
                return usage("--warmup wants 0-100000, not ", v);
            warmup = (int)x;
            break;
        }
    }
    if (count_list(count_arg))
        return 2;
    if (*opset & 4) {
        int all = np == 48;
        for (int u = 0; all && u < np; u++)
            all = RCCE_ue_core(u) == u;
        if (!all)
            return usage("link needs all 48 cores, UE u on core u", NULL);
    }
    return 0;
}

int RCCE_APP(int argc, char **argv)
{
    int opset = 3, bad = 0;

    if (bench_rcce_start(&argc, &argv, "mpb_contention", 0))
        return 2;
    me = RCCE_ue();
    np = RCCE_num_ues();
    if (mc_options(argc, argv, &opset))
        return 2;
    t_vcharp heap_block = RCCE_malloc(HEAP_LINES * LINE);
    heap_off = (size_t)(heap_block - (t_vcharp)scc_mpb_user(RCCE_ue_core(me)));
    priv = scc_mmap(MAXLINES * LINE);
    if (!heap_block || !priv) {
        fprintf(stderr, "mpb_contention: UE %d: no MPB heap or memory for the buffers\n", me);
        return 1;
    }
    if (me == 0) {
        char what[160];
        snprintf(what, sizeof what, "MPB contention: n cores get %d lines from (or put 1 "
                 "line into) UE %d's MPB at once; the mesh link test", lines, target);
        bench_preamble(what);
        printf("# times: us of RCCE_wtime, each core its own operations; get into %s; "
               "every round starts after a barrier; a put's time is that of %d back to "
               "back over %d\n", dst_mem ? "private memory" : "the MPB", put_batch, put_batch);
        printf("op,target,cores,core,hops,lines,bytes,iters,warmup,mean_us,min_us,max_us,"
               "alone_us,slowdown,clock,verified\n");
        fflush(stdout);
    }
    if (opset & 1)
        bad |= contention(GET);
    if (opset & 2)
        bad |= contention(PUT);
    if (opset & 4)
        bad |= link_test();
    RCCE_finalize();
    return bad;
}
