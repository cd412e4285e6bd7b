/*
 * Mailbox latency benchmark: one-way latency and round trip between core 0
 * and a few peers (default cores 1, 2, 11, 47: same tile, next tile, the
 * far end of the first row, the far corner of the mesh), in the kernel's
 * mailbox mode (its mbox= option), or in the mode given as mode=ipi|poll|hybrid.
 *
 *   mbox_bench [n=1000] [warmup=100] [mode=MODE] [peers=1,2,11,47]
 *   (each option in any form of apps/lib/bench.h: n=1000, --n 1000, --n=1000)
 *
 * Core 0 measures one peer at a time. For each of warmup + n rounds it
 * sends a PING to the peer and waits for the PONG; only the last n rounds
 * count. Output (core 0), CSV after comment lines starting with '#':
 *
 *   mbox,MODE,PEER,KIND,UNIT,MEDIAN,MIN,MAX
 *
 *   KIND rtt     core 0: from just before sending PING to just after the
 *                PONG's receive returned, on core 0's own clocks.
 *   KIND oneway  peer -> core 0: the peer stamps its clocks into the PONG
 *                just before it sends; core 0 subtracts them from its own
 *                clocks just after the receive returned (core 0 is then
 *                already waiting in scc_mbox_recv: blocked, or spinning
 *                in poll mode).
 *   UNIT gtsc    the chip's global timestamp counter (gtsc_hz): one clock
 *                for every core, so a one-way difference is meaningful.
 *   UNIT tsc     the cores' cycle counters (core_hz). A one-way TSC
 *                difference compares two cores' TSCs: meaningful here
 *                because the emulator's TSCs all start at reset and count
 *                the same clock (on the chip they are not synchronized).
 *
 * Peers not in the list (and core 0's list entries that do not exist on a
 * smaller chip) are skipped; cores with nothing to do exit 0 at once.
 * Peers wait for their turn in scc_halt(); core 0 wakes the next one with
 * scc_ipi() until it acknowledges through shared DRAM, so idle peers cost
 * no host time (which matters in poll mode on a small host).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "scc.h"

#define TAG_PING 1
#define TAG_PONG 2
#define TAG_DONE 3
#define MAX_PEERS 48

struct stamp {
    uint32_t seq;
    uint32_t pad;
    uint64_t gtsc;
    uint64_t tsc;
};

/* Shared DRAM (uncached): whose turn it is, and the peers' acknowledgements. */
struct shared {
    volatile uint32_t turn;
    volatile uint32_t pad[15];
    volatile uint32_t ack[MAX_PEERS];
};

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

static void report(const char *mode, int peer, const char *kind, const char *unit,
                   uint32_t *v, unsigned n)
{
    qsort(v, n, sizeof *v, cmp_u32);
    uint32_t median = n % 2 ? v[n / 2] : (uint32_t)(((uint64_t)v[n / 2 - 1] + v[n / 2]) / 2);
    printf("mbox,%s,%d,%s,%s,%lu,%lu,%lu\n", mode, peer, kind, unit,
           (unsigned long)median, (unsigned long)v[0], (unsigned long)v[n - 1]);
}

static void die(const char *what, int err)
{
    printf("mbox_bench: core %02d: %s failed: %d\n", scc_core_id(), what, err);
    exit(1);
}

static void send_stamp(int dest, int tag, uint32_t seq)
{
    struct stamp s = {.seq = seq};
    s.tsc = scc_tsc();
    s.gtsc = scc_gtsc();
    int r = scc_mbox_send(dest, tag, &s, sizeof s);
    if (r < 0)
        die("scc_mbox_send", r);
}

/* A peer: it answers each PING with a PONG stamped with its clocks.
 * BENCH_TIMED: its code does not change with main's. */
BENCH_TIMED static void peer(int me, struct shared *sh)
{
    /* Wait for core 0 to call: it pulses our INTR line until we answer. */
    while (sh->turn != (uint32_t)me)
        scc_halt();
    sh->ack[me] = 1;
    for (;;) {
        struct scc_msg m;
        int r = scc_mbox_recv(&m, 0);
        if (r < 0)
            die("scc_mbox_recv", r);
        if (m.tag == TAG_DONE)
            return;
        if (m.tag != TAG_PING || m.source != 0) {
            printf("mbox_bench: core %02d: unexpected message tag %u from %u\n", me, m.tag,
                   m.source);
            exit(1);
        }
        struct stamp s;
        memcpy(&s, m.payload, sizeof s);
        send_stamp(0, TAG_PONG, s.seq);
    }
}

/* Core 0's warmup + n rounds with peer p, timed; the rows. BENCH_TIMED:
 * its code does not change with main's. */
BENCH_TIMED static void measure(int p, struct shared *sh, const char *mode, unsigned n,
                                unsigned warmup)
{
    uint32_t *rtt_t = malloc(n * sizeof *rtt_t), *rtt_g = malloc(n * sizeof *rtt_g);
    uint32_t *ow_t = malloc(n * sizeof *ow_t), *ow_g = malloc(n * sizeof *ow_g);
    if (!rtt_t || !rtt_g || !ow_t || !ow_g)
        die("malloc", -SCC_ENOMEM);

    /* Call the peer: IPI every 200 us until it acknowledges. */
    sh->turn = p;
    struct scc_info info;
    scc_info(&info);
    uint64_t gap = info.gtsc_hz / 5000;
    while (!sh->ack[p]) {
        scc_ipi(p);
        uint64_t until = scc_gtsc() + gap;
        while (!sh->ack[p] && scc_gtsc() < until)
            ;
    }

    for (unsigned i = 0; i < warmup + n; i++) {
        struct stamp s = {.seq = i};
        struct scc_msg m;
        uint64_t t0 = scc_tsc();
        uint64_t g0 = scc_gtsc();
        s.tsc = t0;
        s.gtsc = g0;
        int r = scc_mbox_send(p, TAG_PING, &s, sizeof s);
        if (r < 0)
            die("scc_mbox_send", r);
        r = scc_mbox_recv(&m, 0);
        uint64_t g1 = scc_gtsc();
        uint64_t t1 = scc_tsc();
        if (r < 0)
            die("scc_mbox_recv", r);
        memcpy(&s, m.payload, sizeof s);
        if (m.tag != TAG_PONG || m.source != p || s.seq != i) {
            printf("mbox_bench: core 00: expected PONG %u from %d, got tag %u seq %lu from %u\n",
                   i, p, m.tag, (unsigned long)s.seq, m.source);
            exit(1);
        }
        if (i >= warmup) {
            unsigned k = i - warmup;
            rtt_t[k] = (uint32_t)(t1 - t0);
            rtt_g[k] = (uint32_t)(g1 - g0);
            ow_t[k] = (uint32_t)(t1 - s.tsc);
            ow_g[k] = (uint32_t)(g1 - s.gtsc);
        }
    }
    int r = scc_mbox_send(p, TAG_DONE, NULL, 0);
    if (r < 0)
        die("scc_mbox_send", r);

    report(mode, p, "oneway", "tsc", ow_t, n);
    report(mode, p, "oneway", "gtsc", ow_g, n);
    report(mode, p, "rtt", "tsc", rtt_t, n);
    report(mode, p, "rtt", "gtsc", rtt_g, n);
    free(rtt_t);
    free(rtt_g);
    free(ow_t);
    free(ow_g);
}

/* The options (apps/lib/bench.h). */
#define MBX_OPTIONS(X)              \
    X(MBX_N, "n", value)            \
    X(MBX_WARMUP, "warmup", value)  \
    X(MBX_MODE, "mode", value)      \
    X(MBX_PEERS, "peers", value)
BENCH_OPTIONS(mbx, none, none, MBX_OPTIONS);

/* What a run measures: rounds, warm-up, the mailbox mode (-1: the
 * kernel's), the peers. */
struct run {
    unsigned n, warmup;
    int want_mode, peers[MAX_PEERS], npeers;
};

/* "1,2,11,47" into r->peers, each once (up to MAX_PEERS; it stops at the
 * first word that is not a number). */
static void peer_list(const char *v, struct run *r)
{
    char *p = (char *)v;

    r->npeers = 0;
    while (*p && r->npeers < MAX_PEERS) {
        int u = strtol(p, &p, 0), dup = 0;
        for (int k = 0; k < r->npeers; k++)
            dup |= r->peers[k] == u;
        if (!dup)
            r->peers[r->npeers++] = u;
        if (*p == ',')
            p++;
        else if (*p)
            break;
    }
}

/* The options into @r: 0, or 2 (the exit status) after saying why. */
static int mbx_options(int argc, char **argv, struct run *r)
{
    struct bench_args a;
    const char *v;
    int k;

    bench_args(&a, argc, argv, 1, &mbx_opts);
    while ((k = bench_next(&a, &v)) != BENCH_END) {
        switch (k) {
        case BENCH_BAD:
            printf("mbox_bench: %s\n", bench_why());
            return 2;
        case BENCH_POSITIONAL:
            printf("mbox_bench: unknown argument %s\n", v);
            return 2;
        case MBX_N:
            r->n = strtoul(v, NULL, 0);
            break;
        case MBX_WARMUP:
            r->warmup = strtoul(v, NULL, 0);
            break;
        case MBX_MODE:
            r->want_mode = scc_mbox_mode_parse(v);
            if (r->want_mode < 0) {
                printf("mbox_bench: unknown mode %s (ipi, poll, hybrid)\n", v);
                return 2;
            }
            break;
        case MBX_PEERS:
            peer_list(v, r);
            break;
        }
    }
    if (r->n == 0) {
        printf("mbox_bench: n must be at least 1\n");
        return 2;
    }
    return 0;
}

int main(int argc, char **argv)
{
    struct run run = {.n = 1000, .warmup = 100, .want_mode = -1, .peers = {1, 2, 11, 47},
                      .npeers = 4};

    bench_keep_args(argc, argv);
    if (mbx_options(argc, argv, &run))
        return 2;

    int me = scc_core_id(), ncores = scc_num_cores();
    int involved = me == 0;
    for (int i = 0; i < run.npeers; i++)
        if (run.peers[i] == me && me != 0)
            involved = 1;
    if (!involved)
        return 0;

    if (run.want_mode >= 0) {
        int r = scc_mbox_mode(run.want_mode);
        if (r < 0)
            die("scc_mbox_mode", r);
    }
    int mode = scc_mbox_mode(-1);
    if (mode < 0)
        die("scc_mbox_mode", mode);
    struct shared *sh = (struct shared *)scc_shm();

    if (me != 0) {
        peer(me, sh);
        return 0;
    }

    struct scc_info info;
    scc_info(&info);
    const char *mname = scc_mbox_mode_name(mode);
    printf("# mbox_bench: mode %s, %u rounds after %u warm-up, median/min/max per peer\n",
           mname, run.n, run.warmup);
    printf("# core_hz %lu gtsc_hz %lu\n", (unsigned long)info.core_hz,
           (unsigned long)info.gtsc_hz);
    printf("# rtt: core 0, send PING .. PONG received; oneway: peer -> core 0, the peer's "
           "clock stamped in the PONG just before its send, subtracted on receipt (tsc: "
           "cross-core, valid because the emulator's TSCs are synchronized)\n");
    printf("# columns: mbox,mode,peer,kind,unit,median,min,max\n");
    for (int i = 0; i < run.npeers; i++) {
        int p = run.peers[i];
        if (p <= 0 || p >= ncores) {
            printf("# peer %d skipped: not a core other than 0 on this chip\n", p);
            continue;
        }
        measure(p, sh, mname, run.n, run.warmup);
    }
    return 0;
}
