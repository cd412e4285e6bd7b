/*
 * Round trip of an S-Net record (8 bytes of metadata, 25 tags, 25 values:
 * 208 bytes) between core 0 and other cores under each notification
 * scheme (002 Table II, lines 5534-5555; the schemes: docs/notify.md).
 *
 *   notify_pingpong <nues> <GHz> <cores...> [--scheme SPEC]... [--n N]
 *                   [--warmup N] [--peers LIST] [--list] [--regions]
 *   (each option in any form of apps/lib/bench.h: --n 1000, --n=1000, n=1000)
 *
 * SPEC is a scheme name with optional parameters (mbox-timer:hz=1000) or
 * "all" (the default). Peers default to every other UE; core 0 measures
 * them one at a time while the others wait in a barrier. Every record is
 * checked against the one its (source, sequence number) determine.
 *
 * CSV on stdout, after the `#` lines of apps/lib/bench.h, one row per
 * scheme and peer, then per scheme and hop distance with peer "all"
 * (median of the peers' medians, mean of means):
 *   notify,scheme,params,peer,hops,n,median,mean,min,max,free_cycles,free_pct,clock,
 *   warmup,verified
 * Times are core cycles of core 0's clock: modeled SCC time in the timing
 * mode (clock=modeled), host speed otherwise (clock=emulated).
 * free_cycles is the peer's idle time per round trip (halted in its
 * kernel, so free for other work: S-Net's "Free" column), free_pct its
 * share of the peer's time. n is the round trips timed (per peer), warmup
 * those before them; verified: every record was right (a wrong one fails
 * the run, so a row always says "yes"). Errors go to stderr.
 *
 * --regions (apps/lib/bench.h): region notify is core 0's timed round
 * trips (each from its send to the reply's arrival) and, on each peer,
 * its counted rounds as one span (the span its free_cycles are of).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "notify/notify.h"
#include "scc.h"

#define MAX_SPECS 16

/* UE 0 has said what is wrong: the others wait for that before they fail
 * too (the machine stops the run at the first failing core). */
static int bad_exit(void)
{
    RCCE_barrier(&RCCE_COMM_WORLD);
    return 2;
}

/* Shared DRAM (uncached): what a peer reports after its rounds. */
struct shared {
    volatile uint32_t done[RCCE_MAXNP];     /* the measurement number reported */
    volatile uint64_t idle[RCCE_MAXNP], span[RCCE_MAXNP];
};

struct result {
    uint32_t median, min, max;
    uint64_t mean, free_cycles;
    uint32_t free_pct;
};

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

static uint64_t idle_tsc(void)
{
    struct scc_kstat k;
    if (scc_kstat(&k) < 0)
        scc_panic("kstat failed");
    return k.idle_tsc;
}

static void fail(const char *scheme, const char *what, int peer, unsigned i)
{
    fprintf(stderr, "notify_pingpong: core %02d: scheme %s: %s in round %u with %d\n", me,
            scheme, what, i, peer);
    exit(1);
}

/* A peer's rounds: it answers core 0's records; after the warm-up its
 * idle time and its span, to shared DRAM. BENCH_TIMED: its code does not
 * change with main's. */
BENCH_TIMED static void serve(const char *name, unsigned rounds, unsigned warmup,
                              struct shared *sh, uint32_t token)
{
    struct record r, back;
    uint64_t i0 = 0, t0 = 0;
    for (unsigned i = 0; i < rounds; i++) {
        if (i == warmup) {
            BENCH_MARK_BEGIN();
            i0 = idle_tsc();
            t0 = scc_tsc();
        }
        /* the reply is made before, the check after: neither is part
         * of the round trip core 0 times */
        rec_fill(&back, (uint32_t)me, i);
        if (chan_recv(0, &r) != 0)
            fail(name, "a record from another core", 0, i);
        chan_send(0, &back);
        if (!rec_check(&r, 0, i))
            fail(name, "a wrong record", 0, i);
    }
    sh->idle[me] = idle_tsc() - i0;
    sh->span[me] = scc_tsc() - t0;
    BENCH_MARK_END();
    sh->done[me] = token;
}

/* Core 0's round trips with peer p, each timed alone; their statistics.
 * BENCH_TIMED: its code does not change with main's. */
BENCH_TIMED static struct result measure(const char *name, int p, unsigned n,
                                         unsigned warmup, struct shared *sh, uint32_t token,
                                         uint32_t *rtt)
{
    struct record r, back;
    struct result res;
    for (unsigned i = 0; i < warmup + n; i++) {
        rec_fill(&r, 0, i);
        BENCH_MARK_BEGIN_FROM(i);
        uint64_t t0 = scc_tsc();
        chan_send(p, &r);
        int src = chan_recv(p, &back);
        uint64_t t1 = scc_tsc();
        BENCH_MARK_END();
        if (src != p || !rec_check(&back, (uint32_t)p, i))
            fail(name, "a wrong record", p, i);
        if (i >= warmup)
            rtt[i - warmup] = (uint32_t)(t1 - t0);
    }
    while (sh->done[p] != token)
        ;
    qsort(rtt, n, sizeof *rtt, cmp_u32);
    res.median = n % 2 ? rtt[n / 2] : (uint32_t)(((uint64_t)rtt[n / 2 - 1] + rtt[n / 2]) / 2);
    res.min = rtt[0];
    res.max = rtt[n - 1];
    res.mean = 0;
    for (unsigned i = 0; i < n; i++)
        res.mean += rtt[i];
    res.mean /= n;
    res.free_cycles = sh->idle[p] / n;
    res.free_pct = sh->span[p] ? (uint32_t)(100 * sh->idle[p] / sh->span[p]) : 0;
    return res;
}

static void row(const char *name, const char *params, const char *peer, int hops, unsigned n,
                const struct result *r, unsigned warmup)
{
    printf("notify,%s,%s,%s,%d,%u,%lu,%lu,%lu,%lu,%lu,%lu,%s,%u,yes\n", name, params, peer,
           hops, n, (unsigned long)r->median, (unsigned long)r->mean, (unsigned long)r->min,
           (unsigned long)r->max, (unsigned long)r->free_cycles, (unsigned long)r->free_pct,
           bench_clock(), warmup);
}

static int number(const char *opt, const char *v, unsigned lo, unsigned *out)
{
    char *end;
    unsigned long x = strtoul(v, &end, 0);
    if (end == v || *end || x < lo || x > 100000000) {
        SAY_ERR("notify_pingpong: %s needs a number >= %u\n", opt, lo);
        return -1;
    }
    *out = (unsigned)x;
    return 0;
}

/* "1,2,5": UEs 1..ncores-1 into peers[]; how many, or -1 after saying why. */
static int peer_list(const char *v, int *peers)
{
    const char *p = v;
    char *end;
    int n = 0, bad = 0;

    while (*p && !bad) {
        long u = strtol(p, &end, 0);
        bad = end == p || u <= 0 || u >= ncores || n == RCCE_MAXNP ||
              (*end && *end != ',');
        if (!bad)
            peers[n++] = (int)u;
        p = end + (*end == ',');
    }
    if (bad || !n) {
        SAY_ERR("notify_pingpong: --peers wants UEs 1..%d, comma-separated\n", ncores - 1);
        return -1;
    }
    return n;
}

/* The options (apps/lib/bench.h), and the region option. */
#define NP_OPTIONS(X)               \
    X(NP_SCHEME, "scheme", value)   \
    X(NP_N, "n", value)             \
    X(NP_WARMUP, "warmup", value)   \
    X(NP_PEERS, "peers", value)     \
    X(NP_LIST, "list", flag)
BENCH_OPTIONS(np, rcce, regions, NP_OPTIONS);

/* What a run measures: the schemes, the round trips per peer, the peers. */
struct run {
    const char *specs[MAX_SPECS];
    int nspecs, peers[RCCE_MAXNP], npeers, list;
    unsigned n, warmup;
};

/* The options after the RCCE words into @r: 0, or 2 (the exit status)
 * after UE 0 said why. */
static int np_options(int argc, char **argv, struct run *r)
{
    struct bench_args a;
    const char *v;
    int k;

    bench_args(&a, argc, argv, 1, &np_opts);
    while ((k = bench_next(&a, &v)) != BENCH_END) {
        int bad = 0;

        switch (k) {
        case BENCH_BAD:
            SAY_ERR("notify_pingpong: %s (--scheme SPEC, --n N, --warmup N, --peers LIST, "
                    "--list, --regions)\n", bench_why());
            return bad_exit();
        case BENCH_POSITIONAL:
            SAY_ERR("notify_pingpong: unknown argument '%s' (--scheme SPEC, --n N, --warmup N, "
                    "--peers LIST, --list, --regions)\n", v);
            return bad_exit();
        case NP_LIST:
            r->list = *v == '1';
            break;
        case NP_SCHEME:
            bad = (r->nspecs = scheme_specs(v, r->specs, r->nspecs, MAX_SPECS)) < 0;
            break;
        case NP_N:
            bad = number("--n", v, 1, &r->n) < 0;
            break;
        case NP_WARMUP:
            bad = number("--warmup", v, 0, &r->warmup) < 0;
            break;
        case NP_PEERS:
            bad = (r->npeers = peer_list(v, r->peers)) < 0;
            break;
        }
        if (bad)
            return bad_exit();
    }
    return 0;
}

/* UE 0: per hop distance, the row over the peers at that distance (peer
 * "all": median of the peers' medians, mean of means). */
static void hop_rows(const char *name, const char *params, const struct run *run,
                     const struct result *res, int maxhops)
{
    for (int h = 0; h <= maxhops; h++) {
        uint32_t med[RCCE_MAXNP];
        struct result a = {.min = UINT32_MAX};
        unsigned m = 0;
        uint64_t pct = 0;
        for (int i = 0; i < run->npeers; i++) {
            if (hops_between(0, run->peers[i]) != h)
                continue;
            med[m++] = res[i].median;
            a.mean += res[i].mean;
            a.free_cycles += res[i].free_cycles;
            pct += res[i].free_pct;
            a.min = res[i].min < a.min ? res[i].min : a.min;
            a.max = res[i].max > a.max ? res[i].max : a.max;
        }
        if (!m)
            continue;
        qsort(med, m, sizeof *med, cmp_u32);
        a.median = m % 2 ? med[m / 2] : (uint32_t)(((uint64_t)med[m / 2 - 1] + med[m / 2]) / 2);
        a.mean /= m;
        a.free_cycles /= m;
        a.free_pct = (uint32_t)(pct / m);
        row(name, params, "all", h, run->n * m, &a, run->warmup * m);
    }
}

int RCCE_APP(int argc, char **argv)
{
    struct run run = {.n = 1000, .warmup = 100};

    if (bench_rcce_start(&argc, &argv, "notify_pingpong", 0))
        return 2;
    bench_region_name("notify");
    me = RCCE_ue();
    ncores = RCCE_num_ues();
    if (np_options(argc, argv, &run))
        return 2;
    if (run.list) {
        SAY("notify_pingpong schemes (--scheme NAME[:key=value,...]):\n");
        scheme_list(stdout);
        return 0;
    }
    if (ncores < 2) {
        SAY_ERR("notify_pingpong: needs at least 2 UEs\n");
        return 2;
    }
    if (!run.nspecs)
        run.nspecs = scheme_specs("all", run.specs, 0, MAX_SPECS);
    bench_region_from(run.warmup);
    if (!run.npeers)
        for (int u = 1; u < ncores; u++)
            run.peers[run.npeers++] = u;

    struct shared *sh = (struct shared *)scc_shm();
    uint32_t *rtt = me == 0 ? malloc(run.n * sizeof *rtt) : NULL;
    if (me == 0 && !rtt) {
        fprintf(stderr, "notify_pingpong: no memory for %u samples\n", run.n);
        return 1;
    }
    if (me == 0) {
        char what[160];
        snprintf(what, sizeof what, "%u round trips per peer after %u warm-up; a %d-byte "
                 "record; core cycles at core 0; clock %s", run.n, run.warmup, REC_BYTES,
                 bench_clock());
        bench_preamble(what);
        printf("notify,scheme,params,peer,hops,n,median,mean,min,max,free_cycles,free_pct,"
               "clock,warmup,verified\n");
    }
    uint32_t token = 0;
    static struct result res[RCCE_MAXNP];
    for (int k = 0; k < run.nspecs; k++) {
        const char *params;
        const struct scheme *s = scheme_find(run.specs[k], &params);
        if (chan_setup(s, params) < 0)
            return bad_exit();
        int maxhops = 0;
        for (int i = 0; i < run.npeers; i++) {
            int p = run.peers[i];
            token++;
            RCCE_barrier(&RCCE_COMM_WORLD);
            if (me == 0) {
                res[i] = measure(s->name, p, run.n, run.warmup, sh, token, rtt);
                char name[8];
                snprintf(name, sizeof name, "%d", p);
                int h = hops_between(0, p);
                maxhops = h > maxhops ? h : maxhops;
                row(s->name, params, name, h, run.n, &res[i], run.warmup);
            } else if (me == p) {
                serve(s->name, run.warmup + run.n, run.warmup, sh, token);
            }
        }
        RCCE_barrier(&RCCE_COMM_WORLD);
        chan_teardown();
        if (me == 0)
            hop_rows(s->name, params, &run, res, maxhops);
    }
    RCCE_finalize();
    return 0;
}
