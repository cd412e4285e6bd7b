/*
 * Round trip of an S-Net record (8 bytes of metadata, 25 tags, 25 values:
 * 208 bytes) between core 0 and other cores under each notification
 * scheme (002 Table II, lines 5534-5555; the schemes: docs/notify.md).
 *
 *   notify_pingpong <nues> <GHz> <cores...> [--scheme SPEC]... [--n N]
 *                   [--warmup N] [--peers LIST] [--list] [--regions]
 *
 * SPEC is a scheme name with optional parameters (mbox-timer:hz=1000) or
 * "all" (the default). Peers default to every other UE; core 0 measures
 * them one at a time while the others wait in a barrier. Every record is
 * checked against the one its (source, sequence number) determine.
 *
 * CSV on stdout, after the `#` lines of apps/benchout.h, one row per
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
 * --regions (apps/benchout.h): region notify is core 0's timed round
 * trips (each from its send to the reply's arrival) and, on each peer,
 * its counted rounds as one span (the span its free_cycles are of).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BENCH_MARKS            /* apps/benchout.h: the asm markers */
#include "benchout.h"
#include "notify/notify.h"
#include "opts.h"
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

static void serve(const char *name, unsigned rounds, unsigned warmup, struct shared *sh,
                  uint32_t token)
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

static struct result measure(const char *name, int p, unsigned n, unsigned warmup,
                             struct shared *sh, uint32_t token, uint32_t *rtt)
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
    unsigned long x = v ? strtoul(v, &end, 0) : 0;
    if (!v || end == v || *end || x < lo || x > 100000000) {
        SAY_ERR("notify_pingpong: %s needs a number >= %u\n", opt, lo);
        return -1;
    }
    *out = (unsigned)x;
    return 0;
}

/* The options (apps/opts.h): the words the parser compares, and the
 * ELF's list for the tools, with regions (bench_regions_arg's,
 * apps/benchout.h). */
#define NP_OPTIONS(X)               \
    X(NP_SCHEME, "scheme", value)   \
    X(NP_N, "n", value)             \
    X(NP_WARMUP, "warmup", value)   \
    X(NP_PEERS, "peers", value)     \
    X(NP_LIST, "list", flag)
OPTS_TABLE(np, dashdash, rcce, regions, NP_OPTIONS);

int RCCE_APP(int argc, char **argv)
{
    const char *specs[MAX_SPECS];
    int nspecs = 0, peers[RCCE_MAXNP], npeers = 0;
    unsigned n = 1000, warmup = 100;

    bench_keep_args(argc, argv);    /* RCCE_init rewrites argv */
    bench_region_name("notify");
    if (RCCE_init(&argc, &argv) != RCCE_SUCCESS) {
        fprintf(stderr, "notify_pingpong: RCCE_init failed: start as notify_pingpong <nues> "
                "<GHz> <cores...> [options]\n");
        return 2;
    }
    me = RCCE_ue();
    ncores = RCCE_num_ues();
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        int bad = 0;
        if (bench_regions_arg(a)) {
            continue;
        } else if (OPTS_IS(np, NP_LIST, a)) {
            SAY("notify_pingpong schemes (--scheme NAME[:key=value,...]):\n");
            scheme_list(stdout);
            return 0;
        } else if (OPTS_IS(np, NP_SCHEME, a) && v) {
            bad = (nspecs = scheme_specs(v, specs, nspecs, MAX_SPECS)) < 0;
            i++;
        } else if (OPTS_IS(np, NP_N, a)) {
            bad = number(a, v, 1, &n) < 0;
            i++;
        } else if (OPTS_IS(np, NP_WARMUP, a)) {
            bad = number(a, v, 0, &warmup) < 0;
            i++;
        } else if (OPTS_IS(np, NP_PEERS, a) && v) {
            char *p = (char *)v, *end;
            npeers = 0;
            while (*p && !bad) {
                long u = strtol(p, &end, 0);
                bad = end == p || u <= 0 || u >= ncores || npeers == RCCE_MAXNP;
                peers[npeers++] = (int)u;
                p = end + (*end == ',');
                bad |= *end && *end != ',';
            }
            if (bad || !npeers) {
                SAY_ERR("notify_pingpong: --peers wants UEs 1..%d, comma-separated\n",
                        ncores - 1);
                bad = 1;
            }
            i++;
        } else {
            SAY_ERR("notify_pingpong: unknown argument '%s' (--scheme SPEC, --n N, --warmup N, "
                    "--peers LIST, --list, --regions)\n", a);
            bad = 1;
        }
        if (bad)
            return bad_exit();
    }
    if (ncores < 2) {
        SAY_ERR("notify_pingpong: needs at least 2 UEs\n");
        return 2;
    }
    if (!nspecs)
        nspecs = scheme_specs("all", specs, 0, MAX_SPECS);
    bench_region_from(warmup);
    if (!npeers)
        for (int u = 1; u < ncores; u++)
            peers[npeers++] = u;

    struct shared *sh = (struct shared *)scc_shm();
    uint32_t *rtt = me == 0 ? malloc(n * sizeof *rtt) : NULL;
    if (me == 0 && !rtt) {
        fprintf(stderr, "notify_pingpong: no memory for %u samples\n", n);
        return 1;
    }
    if (me == 0) {
        char what[160];
        snprintf(what, sizeof what, "%u round trips per peer after %u warm-up; a %d-byte "
                 "record; core cycles at core 0; clock %s", n, warmup, REC_BYTES, bench_clock());
        bench_preamble(what);
        printf("notify,scheme,params,peer,hops,n,median,mean,min,max,free_cycles,free_pct,"
               "clock,warmup,verified\n");
    }
    uint32_t token = 0;
    static struct result res[RCCE_MAXNP];
    for (int k = 0; k < nspecs; k++) {
        const char *params;
        const struct scheme *s = scheme_find(specs[k], &params);
        if (chan_setup(s, params) < 0)
            return bad_exit();
        int maxhops = 0;
        for (int i = 0; i < npeers; i++) {
            int p = peers[i];
            token++;
            RCCE_barrier(&RCCE_COMM_WORLD);
            if (me == 0) {
                res[i] = measure(s->name, p, n, warmup, sh, token, rtt);
                char name[8];
                snprintf(name, sizeof name, "%d", p);
                int h = hops_between(0, p);
                maxhops = h > maxhops ? h : maxhops;
                row(s->name, params, name, h, n, &res[i], warmup);
            } else if (me == p) {
                serve(s->name, warmup + n, warmup, sh, token);
            }
        }
        RCCE_barrier(&RCCE_COMM_WORLD);
        chan_teardown();
        if (me != 0)
            continue;
        for (int h = 0; h <= maxhops; h++) {
            uint32_t med[RCCE_MAXNP];
            struct result a = {.min = UINT32_MAX};
            unsigned m = 0;
            uint64_t pct = 0;
            for (int i = 0; i < npeers; i++) {
                if (hops_between(0, peers[i]) != h)
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
            row(s->name, params, "all", h, n * m, &a, warmup * m);
        }
    }
    RCCE_finalize();
    return 0;
}
