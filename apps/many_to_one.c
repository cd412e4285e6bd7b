/*
 * Many senders, one receiver, under each notification scheme
 * (docs/notify.md): every other UE sends --records S-Net records to the
 * receiver as fast as the scheme lets it (one record in flight per
 * sender), and the receiver takes them from whoever is ready.
 *
 *   many_to_one <nues> <GHz> <cores...> [--scheme SPEC]... [--records M]
 *               [--receiver UE] [--list] [--regions]
 *   (each option in any form of apps/lib/bench.h: --records 20, --records=20,
 *   records=20)
 *
 * The receiver checks that every record arrives exactly once, in order per
 * sender, with the content its (source, sequence number) determine; any
 * other outcome ends the run with status 1 and says what came.
 *
 * CSV on stdout (the receiver's), after the `#` lines of apps/lib/bench.h,
 * one row per scheme:
 *   many_to_one,scheme,params,receiver,senders,records,cycles,records_per_s,
 *   mb_per_s,busy_pct,jain,verified,clock
 * cycles: the receiver's core cycles from the start (after a barrier) to
 * its last record; records_per_s and mb_per_s (208-byte records) follow
 * from the core clock: modeled SCC time in the timing mode
 * (clock=modeled), host speed otherwise (clock=emulated). busy_pct: the
 * receiver's share of that time not halted. jain: Jain's fairness index
 * (1 = equal) of the records per sender among the first half received.
 * Errors go to stderr.
 *
 * --regions (apps/lib/bench.h): region many_to_one is the receiver's
 * timed span (the cycles column) and each sender's sends.
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

static uint64_t idle_tsc(void)
{
    struct scc_kstat k;
    if (scc_kstat(&k) < 0)
        scc_panic("kstat failed");
    return k.idle_tsc;
}

/* Receive everything, timed; 0, or 1 after saying what went wrong.
 * BENCH_TIMED: its code does not change with main's. */
BENCH_TIMED static int receive(const struct scheme *s, const char *params, int recv, unsigned m)
{
    static uint32_t next[RCCE_MAXNP], half[RCCE_MAXNP];
    unsigned total = (unsigned)(ncores - 1) * m;
    struct record r;
    memset(next, 0, sizeof next);
    memset(half, 0, sizeof half);
    BENCH_MARK_BEGIN();
    uint64_t i0 = idle_tsc(), t0 = scc_tsc();
    for (unsigned j = 0; j < total; j++) {
        int src = chan_recv(-1, &r);
        if (src < 0 || src >= ncores || src == recv || next[src] >= m ||
            !rec_check(&r, (uint32_t)src, next[src])) {
            fprintf(stderr, "many_to_one: scheme %s: record %u: from %d (source %lu, seq %lu), "
                    "expected seq %lu of that sender\n", s->name, j, src,
                    (unsigned long)r.source, (unsigned long)r.seq,
                    src >= 0 && src < ncores ? (unsigned long)next[src] : 0ul);
            return 1;
        }
        next[src]++;
        if (j < total / 2)
            half[src]++;
    }
    uint64_t cycles = scc_tsc() - t0, idle = idle_tsc() - i0;
    BENCH_MARK_END();
    double sum = 0, sq = 0;
    for (int u = 0; u < ncores; u++)
        if (u != recv) {
            sum += half[u];
            sq += (double)half[u] * half[u];
        }
    struct scc_info info;
    scc_info(&info);
    double secs = (double)cycles / info.core_hz;
    printf("many_to_one,%s,%s,%d,%d,%u,%llu,%.0f,%.3f,%u,%.3f,yes,%s\n", s->name, params, recv,
           ncores - 1, total, (unsigned long long)cycles, total / secs,
           total * (double)REC_BYTES / secs / 1e6,
           (unsigned)(100 - 100 * idle / (cycles ? cycles : 1)),
           sq > 0 ? sum * sum / ((ncores - 1) * sq) : 1.0, bench_clock());
    return 0;
}

/* A sender's records to @recv, as fast as the scheme lets it (the load the
 * receiver times). BENCH_TIMED: its code does not change with main's. */
BENCH_TIMED static void send_records(int recv, unsigned m)
{
    struct record r;

    BENCH_MARK_BEGIN();
    for (unsigned i = 0; i < m; i++) {
        rec_fill(&r, (uint32_t)me, i);
        chan_send(recv, &r);
    }
    BENCH_MARK_END();
}

/* The options (apps/lib/bench.h), and the region option. */
#define MTO_OPTIONS(X)                  \
    X(MTO_SCHEME, "scheme", value)      \
    X(MTO_RECORDS, "records", value)    \
    X(MTO_RECEIVER, "receiver", value)  \
    X(MTO_LIST, "list", flag)
BENCH_OPTIONS(mto, rcce, regions, MTO_OPTIONS);

/* What a run measures: the schemes, the records per sender, the receiver. */
struct run {
    const char *specs[MAX_SPECS];
    int nspecs, recv, list;
    unsigned m;
};

/* The options after the RCCE words into @r: 0, or 2 (the exit status)
 * after UE 0 said why. */
static int mto_options(int argc, char **argv, struct run *r)
{
    struct bench_args a;
    const char *v;
    char *end;
    int k;

    bench_args(&a, argc, argv, 1, &mto_opts);
    while ((k = bench_next(&a, &v)) != BENCH_END) {
        int bad = 0;

        switch (k) {
        case BENCH_BAD:
            SAY_ERR("many_to_one: %s (--scheme SPEC, --records M, --receiver UE, --list, "
                    "--regions)\n", bench_why());
            return bad_exit();
        case BENCH_POSITIONAL:
            SAY_ERR("many_to_one: unknown argument '%s' (--scheme SPEC, --records M, "
                    "--receiver UE, --list, --regions)\n", v);
            return bad_exit();
        case MTO_LIST:
            r->list = *v == '1';
            break;
        case MTO_SCHEME:
            bad = (r->nspecs = scheme_specs(v, r->specs, r->nspecs, MAX_SPECS)) < 0;
            break;
        case MTO_RECORDS: {
            unsigned long x = strtoul(v, &end, 0);
            bad = end == v || *end || x < 1 || x > 1000000;
            if (bad)
                SAY_ERR("many_to_one: --records wants 1..1000000\n");
            r->m = (unsigned)x;
            break;
        }
        case MTO_RECEIVER: {
            long x = strtol(v, &end, 0);
            bad = end == v || *end || x < 0 || x >= ncores;
            if (bad)
                SAY_ERR("many_to_one: --receiver wants a UE 0..%d\n", ncores - 1);
            r->recv = (int)x;
            break;
        }
        }
        if (bad)
            return bad_exit();
    }
    return 0;
}

int RCCE_APP(int argc, char **argv)
{
    struct run run = {.m = 20};

    if (bench_rcce_start(&argc, &argv, "many_to_one", 0))
        return 2;
    bench_region_name("many_to_one");
    me = RCCE_ue();
    ncores = RCCE_num_ues();
    if (mto_options(argc, argv, &run))
        return 2;
    if (run.list) {
        SAY("many_to_one schemes (--scheme NAME[:key=value,...]):\n");
        scheme_list(stdout);
        return 0;
    }
    if (ncores < 2) {
        SAY_ERR("many_to_one: needs at least 2 UEs\n");
        return 2;
    }
    if (!run.nspecs)
        run.nspecs = scheme_specs("all", run.specs, 0, MAX_SPECS);

    if (me == run.recv) {
        char what[120];
        snprintf(what, sizeof what, "%d senders, %u records each, to UE %d; clock %s",
                 ncores - 1, run.m, run.recv, bench_clock());
        bench_preamble(what);
        printf("many_to_one,scheme,params,receiver,senders,records,cycles,records_per_s,"
               "mb_per_s,busy_pct,jain,verified,clock\n");
    }
    int status = 0;
    for (int k = 0; k < run.nspecs; k++) {
        const char *params;
        const struct scheme *s = scheme_find(run.specs[k], &params);
        if (chan_setup(s, params) < 0)
            return bad_exit();
        RCCE_barrier(&RCCE_COMM_WORLD);
        if (me == run.recv) {
            status = receive(s, params, run.recv, run.m);
            if (status)
                return status;      /* the senders may wait for ever: stop the run */
        } else {
            send_records(run.recv, run.m);
        }
        RCCE_barrier(&RCCE_COMM_WORLD);
        chan_teardown();
    }
    RCCE_finalize();
    return status;
}
