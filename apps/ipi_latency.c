/*
 * Inter-core interrupt latency by hop distance (S-Net's Table I, 002
 * lines 5310-5417, and Barrelfish's trap cost, 002 line 4361): core 0
 * interrupts every other core in turn, n times each; the peer answers
 * each interrupt with one back to core 0.
 *
 *   ipi_latency [--n 100000] [--drop 10] [--peers 1,2,...] [--regions]
 *   (or n=100000 drop=10 ...: any form of apps/lib/bench.h)
 *
 * The first drop percent of each peer's rounds are dropped (warm-up).
 * Kinds, all in core cycles:
 *   send    core 0: the SYS_ipi call, from just before to just after.
 *   arrive  from core 0's send to the peer's trap (its kernel stamps it,
 *           kstat.intr_tsc, with the first instruction after the gate).
 *   trap    on the peer, from that stamp to its user code running again
 *           after scc_halt_since() (the receiver's trap cost: the entry
 *           stub, the register save, the handler, the mailbox ring read,
 *           the returns; not the P54C's gate itself, which no software
 *           stamp can see, 25 cycles in the timing mode).
 *   remote  from core 0's send to the peer's user code running again
 *           (S-Net's "Remote" column is this with a signal handler).
 *   rtt     core 0: from its send to its own user code running again
 *           after the peer's answer interrupted it (S-Net's "Roundtrip").
 * arrive and remote compare two cores' TSCs: meaningful here because the
 * machine's TSCs all start at reset and count the same clock (in the
 * timing mode, modeled time; on the SCC they were not synchronized).
 *
 * CSV on stdout, after the `#` lines of apps/lib/bench.h:
 *   bench,scheme,peer,hops,kind,unit,n,median,mean,min,max,clock,warmup,
 *   verified
 * one row per peer and kind, then per hop distance and kind with peer
 * "all" (median of the peers' medians, mean of their means, extremes).
 * clock is "modeled" in the timing mode, "emulated" otherwise (host
 * speed: meaningless as SCC time). n is the rounds counted, warmup those
 * dropped before them (per peer). verified: every wake-up was the ping it
 * should be (else the run fails: a row is always "yes"). Errors go to
 * stderr.
 *
 * --regions (apps/lib/bench.h): core 0's counted
 * rounds, from just before its send to its wake-up by the answer (rtt),
 * are the region ipi, for scc-run --timing-stats.
 *
 * Nothing but core 0 interrupts a peer, and a peer is pinged only after
 * it said it is ready again, so each wake-up is exactly one ping; idle
 * peers sleep, so they cost no host time. Core 0 waits by polling lines
 * of its own MPB that the peers write (in the timing mode the machine
 * parks a core that polls an MPB line, so waiting costs no host time).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "scc.h"

#define MAX_CORES 48
enum { SEND, ARRIVE, TRAP, REMOTE, RTT, NKINDS };
static const char *const kind_names[NKINDS] = {"send", "arrive", "trap", "remote", "rtt"};
#define CMD_DONE 0xFFFFFFFFu

struct stats {
    uint32_t median, min, max;
    uint64_t sum;
};

/* Shared DRAM (uncached): what core 0 tells the peers, and their results. */
struct shared {
    volatile uint32_t cmd[MAX_CORES];    /* round number, or CMD_DONE */
    /* core 0's TSC just before round t0_round's send, written once the
     * reply is back: a store to shared DRAM is a trip to the memory
     * controller, and inside the send or the round trip it would be timed */
    volatile uint64_t t0;
    volatile uint32_t t0_round;
    struct stats res[MAX_CORES][NKINDS]; /* the peers' kinds, ARRIVE..REMOTE */
};

/* Peer p's line in core 0's MPB (written by p only): */
struct status {
    uint32_t up;            /* p counts interrupts from now on */
    uint32_t ready;         /* rounds p has finished */
    uint32_t reported;      /* p's results are in shared DRAM */
};

static volatile struct status *status_line(int p)
{
    return (volatile struct status *)((volatile char *)scc_mpb_user(0) + 32 * p);
}

/* Peer: write a field of our line, then push it out of the write-combine
 * buffer with a store to another line (our own MPB's first line, which no
 * one reads). */
static void publish(volatile uint32_t *field, uint32_t v, int me)
{
    *field = v;
    __asm__ volatile("" ::: "memory");
    *(volatile uint32_t *)scc_mpb_user(me) = 0;
    __asm__ volatile("" ::: "memory");
}

/* Core 0: wait until a field of a peer's line reads v. */
static void await(volatile uint32_t *field, uint32_t v)
{
    for (;;) {
        scc_cl1invmb();
        if (*field == v)
            return;
    }
}

static void die(const char *what, int err)
{
    fprintf(stderr, "ipi_latency: core %02d: %s failed: %d\n", scc_core_id(), what, err);
    exit(1);
}

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

static struct stats summarize(uint32_t *v, unsigned n)
{
    struct stats s = {0};
    qsort(v, n, sizeof *v, cmp_u32);
    s.median = n % 2 ? v[n / 2] : (uint32_t)(((uint64_t)v[n / 2 - 1] + v[n / 2]) / 2);
    s.min = v[0];
    s.max = v[n - 1];
    for (unsigned i = 0; i < n; i++)
        s.sum += v[i];
    return s;
}

static uint64_t intr_tsc(void)
{
    struct scc_kstat k;
    int r = scc_kstat(&k);
    if (r < 0)
        die("scc_kstat", r);
    return k.intr_tsc;
}

static uint32_t *alloc(unsigned n)
{
    uint32_t *v = malloc(n * sizeof *v);
    if (!v)
        die("malloc", -SCC_ENOMEM);
    return v;
}

BENCH_TIMED static void peer(int me, struct shared *sh, unsigned rounds, unsigned drop)
{
    unsigned n = rounds - drop, seen = scc_intr_count();
    uint32_t *v[NKINDS];
    for (int k = ARRIVE; k <= REMOTE; k++)
        v[k] = alloc(n);
    volatile struct status *st = status_line(me);
    publish(&st->up, 1, me);
    for (uint32_t round = 0;; round++) {
        unsigned now;
        while ((now = scc_halt_since(seen)) == seen)
            ;
        uint64_t tu = scc_tsc();
        seen = now;
        uint32_t cmd = sh->cmd[me];
        if (cmd == CMD_DONE)
            break;
        if (cmd != round + 1) {
            fprintf(stderr, "ipi_latency: core %02d: woken for round %lu, expected %lu\n",
                    me, (unsigned long)cmd, (unsigned long)round + 1);
            exit(1);
        }
        scc_ipi(0);
        while (sh->t0_round != round + 1)
            ;
        uint64_t t0 = sh->t0, tk = intr_tsc();
        if (round >= drop) {
            v[ARRIVE][round - drop] = (uint32_t)(tk - t0);
            v[TRAP][round - drop] = (uint32_t)(tu - tk);
            v[REMOTE][round - drop] = (uint32_t)(tu - t0);
        }
        publish(&st->ready, round + 1, me);
    }
    for (int k = ARRIVE; k <= REMOTE; k++)
        sh->res[me][k] = summarize(v[k], n);
    publish(&st->reported, 1, me);
}

static void row(const char *peer, int hops, int kind, unsigned n, const struct stats *s,
                uint64_t mean, const char *clock, unsigned warmup)
{
    printf("ipi,ipi,%s,%d,%s,cycles,%u,%lu,%lu,%lu,%lu,%s,%u,yes\n", peer, hops,
           kind_names[kind], n, (unsigned long)s->median, (unsigned long)mean,
           (unsigned long)s->min, (unsigned long)s->max, clock, warmup);
}

BENCH_TIMED static void measure(int p, struct shared *sh, unsigned rounds, unsigned drop,
                    struct stats out[NKINDS])
{
    unsigned n = rounds - drop, seen = scc_intr_count();
    uint32_t *send = alloc(n), *rtt = alloc(n);
    volatile struct status *st = status_line(p);
    /* A peer that is running gets here, or fails and so ends the run. */
    if (scc_core_state(p) != CORE_STATE_RUNNING) {
        fprintf(stderr, "ipi_latency: peer %d is not running (held in reset, or exited)\n", p);
        exit(1);
    }
    await(&st->up, 1);
    sh->t0_round = 0;       /* not the last peer's rounds */
    for (uint32_t round = 0; round < rounds; round++) {
        await(&st->ready, round);
        sh->cmd[p] = round + 1;
        BENCH_MARK_BEGIN_FROM(round);
        uint64_t t0 = scc_tsc();
        int r = scc_ipi(p);
        uint64_t t1 = scc_tsc();
        if (r < 0)
            die("scc_ipi", r);
        unsigned now;
        while ((now = scc_halt_since(seen)) == seen)
            ;
        uint64_t t2 = scc_tsc();
        BENCH_MARK_END();
        seen = now;
        sh->t0 = t0;
        __asm__ volatile("" ::: "memory");
        sh->t0_round = round + 1;
        if (round >= drop) {
            send[round - drop] = (uint32_t)(t1 - t0);
            rtt[round - drop] = (uint32_t)(t2 - t0);
        }
    }
    await(&st->ready, rounds);
    sh->cmd[p] = CMD_DONE;
    scc_ipi(p);
    await(&st->reported, 1);
    out[SEND] = summarize(send, n);
    out[RTT] = summarize(rtt, n);
    for (int k = ARRIVE; k <= REMOTE; k++)
        out[k] = sh->res[p][k];
    free(send);
    free(rtt);
}

static int parse_peers(char *p, int *peers)
{
    int n = 0;
    while (*p) {
        char *end;
        long v = strtol(p, &end, 0);
        if (end == p || n == MAX_CORES)
            return -1;
        peers[n++] = (int)v;
        p = end;
        if (*p == ',')
            p++;
        else if (*p)
            return -1;
    }
    return n;
}

/* The arguments (apps/lib/bench.h), and the region option. */
#define IPI_OPTIONS(X)              \
    X(IPI_N, "n", value)            \
    X(IPI_DROP, "drop", value)      \
    X(IPI_PEERS, "peers", value)
BENCH_OPTIONS(ipi, none, regions, IPI_OPTIONS);

/* The arguments into *rounds, *drop_pct and peers[*npeers]: 0, or 2
 * (core 0 says why; the others leave that to it, and fail the run). */
static int ipi_options(int argc, char **argv, unsigned *rounds, unsigned *drop_pct,
                       int *peers, int *npeers)
{
    struct bench_args args;
    const char *v;
    char *end;
    int k;

    bench_args(&args, argc, argv, 1, &ipi_opts);
    while ((k = bench_next(&args, &v)) != BENCH_END) {
        char copy[160];

        end = NULL;
        if (k == IPI_N || k == IPI_DROP) {
            *(k == IPI_N ? rounds : drop_pct) = strtoul(v, &end, 0);
            if (end == v || *end)
                end = NULL;
        } else if (k == IPI_PEERS && strlen(v) < sizeof copy) {
            strcpy(copy, v);
            *npeers = parse_peers(copy, peers);
            end = *npeers < 0 ? NULL : copy;
        }
        if (!end) {
            if (scc_core_id() == 0)
                fprintf(stderr, "ipi_latency: bad argument '%s'%s%s (--n ROUNDS --drop PERCENT "
                        "--peers LIST --regions)\n", bench_word(&args),
                        k == BENCH_BAD ? ": " : "", k == BENCH_BAD ? bench_why() : "");
            return 2;
        }
    }
    return 0;
}

int main(int argc, char **argv)
{
    unsigned rounds = 100000, drop_pct = 10;
    int peers[MAX_CORES], npeers = 0, ncores = scc_num_cores(), me = scc_core_id();

    bench_keep_args(argc, argv);
    bench_region_name("ipi");
    if (ipi_options(argc, argv, &rounds, &drop_pct, peers, &npeers))
        return me == 0 ? 2 : 0;     /* core 0 says why and fails the run */
    unsigned drop = (unsigned)((uint64_t)rounds * drop_pct / 100);
    bench_region_from(drop);
    if (drop_pct >= 100 || rounds - drop == 0) {
        if (me != 0)
            return 0;
        fprintf(stderr, "ipi_latency: --n %u --drop %u leaves no rounds to report\n", rounds,
                drop_pct);
        return 2;
    }
    if (npeers == 0)
        for (int c = 1; c < ncores; c++)
            peers[npeers++] = c;
    for (int i = 0; i < npeers; i++)
        if (peers[i] <= 0 || peers[i] >= ncores) {
            if (me != 0)
                return 0;
            fprintf(stderr, "ipi_latency: peer %d is not a core other than 0 (cores 1..%d)\n",
                   peers[i], ncores - 1);
            return 2;
        }

    struct shared *sh = (struct shared *)scc_shm();
    int involved = me == 0;
    for (int i = 0; i < npeers; i++)
        involved |= peers[i] == me;
    if (!involved)
        return 0;
    if (me != 0) {
        peer(me, sh, rounds, drop);
        return 0;
    }

    struct scc_info info;
    scc_info(&info);
    const char *clock = bench_clock();
    char what[160];
    snprintf(what, sizeof what, "%u rounds per peer, first %u dropped; core cycles at %lu Hz; "
             "clock %s", rounds, drop, (unsigned long)info.core_hz, clock);
    bench_preamble(what);
    printf("bench,scheme,peer,hops,kind,unit,n,median,mean,min,max,clock,warmup,verified\n");

    static struct stats all[MAX_CORES][NKINDS];
    int hops_of[MAX_CORES], maxhops = 0;
    for (int i = 0; i < npeers; i++) {
        int p = peers[i];
        hops_of[i] = scc_hops(0, p);
        if (hops_of[i] > maxhops)
            maxhops = hops_of[i];
        measure(p, sh, rounds, drop, all[i]);
        char name[8];
        snprintf(name, sizeof name, "%d", p);
        for (int k = 0; k < NKINDS; k++)
            row(name, hops_of[i], k, rounds - drop, &all[i][k], all[i][k].sum / (rounds - drop),
                clock, drop);
    }
    for (int h = 0; h <= maxhops; h++)
        for (int k = 0; k < NKINDS; k++) {
            uint32_t med[MAX_CORES];
            uint64_t mean = 0;
            struct stats s = {.min = UINT32_MAX};
            unsigned m = 0;
            for (int i = 0; i < npeers; i++) {
                if (hops_of[i] != h)
                    continue;
                med[m++] = all[i][k].median;
                mean += all[i][k].sum / (rounds - drop);
                if (all[i][k].min < s.min)
                    s.min = all[i][k].min;
                if (all[i][k].max > s.max)
                    s.max = all[i][k].max;
            }
            if (!m)
                continue;
            s.median = summarize(med, m).median;
            row("all", h, k, (rounds - drop) * m, &s, mean / m, clock, drop * m);
        }
    return 0;
}
