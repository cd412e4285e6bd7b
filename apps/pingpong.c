/*
 * pingpong.c - ping-pong between UE 0 and every other UE, message sizes
 * 32 B to 1 MiB, over three paths:
 *
 *   rcce    RCCE_send / RCCE_recv (local put, remote get, synchronous)
 *   putget  RCCE_put into the peer's MPB + flags, RCCE_get at home
 *           (remote put, local get), through a 1 KiB MPB buffer
 *   ircce   iRCCE_irecv + iRCCE_isend, then wait
 *
 * Start it on cores 0 1 2 11 47 (a tile mate, the next tile, the next row,
 * the far corner):
 *
 *   host:  pingpong 5 0.533 0 1 2 11 47 [SIZES [BUDGET [APIS]]]
 *          pingpong 5 0.533 0 1 2 11 47 [--sizes SIZES] [--budget BUDGET] [--apis APIS]
 *                   [--copy libscc|rcce1] [--proto libscc|rcce1] [--buffers same|separate]
 *                   [--mpbt off|on] [--regions]
 *   chip:  the same words after the kernel's `--`
 *
 * The three parameters come by position or by name (--sizes 4K, or any
 * form of apps/lib/bench.h: sizes=4K as older scripts wrote it); the two
 * forms mix (positional ones fill SIZES, BUDGET, APIS in that order), but
 * a parameter given twice, an unknown option, a fourth positional word or
 * a bad value is a usage error (exit status 2).
 * --copy (by name only) chooses how gets copy into private memory
 * (RCCE_copy_style): libscc (the default) reads each destination line
 * first, as iRCCE's memcpy did; rcce1 copies words straight, as RCCE 1.x
 * did, each store to an uncached line going around the caches, and sends
 * in lockstep, one whole-buffer chunk at a time, as RCCE 1.x did before
 * iRCCE's pipelining (the copy paper's "RCCE normal->normal" against
 * "iRCCE normal->normal").
 * --proto (by name only) rcce1 runs RCCE 1.x's protocol as the papers ran
 * it (RCCE_COPY_PROTO1, libscc/src/chan.c, from RCCE 1.x's RCCE_send.c and
 * RCCE_recv.c): the largest payload chunk the MPB layout allows (RCCE 1.x:
 * 8 KB less its flags; here 5,312 B for 2 UEs), each side clearing the
 * flag it saw each chunk, and the bytes after the last whole line as a
 * chunk of their own with its own handshake (004 line 176); every UE sets
 * it. libscc (the default) is libscc's protocol.
 * --buffers (by name only) separate sends from one buffer and receives
 * into another, on both UEs and every api (the copy paper's ping-pong had
 * a send and a receive buffer, 002 lines 1287-1290); its check comes after
 * the timed round trips, so nothing reads the receive buffer before them
 * (a read would bring its lines into the caches, and a store to a line no
 * cache holds goes around them); and before each size's fill, a read of
 * 512 KiB of other lines (twice the L2) takes every line the caches held
 * out of them, so none of the receive buffer's is cached whatever ran
 * before (the kernel reads the app's module, whose pages become the
 * heap: docs/timing.md, "Measuring well"). same (the default): rcce and putget
 * receive into the buffer they send from; ircce's UE 0 receives into a
 * buffer of its own, the peer into the one it sends from.
 * --mpbt (by name only, chip only) on marks the pages of the message buffer
 * (sent from and received into) MPBT (SYS_copy_mpbt): reads of it bypass
 * the L2 and writes combine in the write-combine buffer (the copy paper's
 * MPBT-flagged buffers, Fig. 3).
 * --regions makes each api's timed round trips a region named after the
 * api for --timing-stats (apps/lib/bench.h).
 * SIZES and BUDGET are sizes as apps/lib/bench.h reads them (4096, 64K, 1M). SIZES is the
 * largest size (default 1M: the sizes are 32, 64, ... up to it) or a
 * list of sizes (32:1M, 1:4K,64K), none above 1G: the two buffers must
 * fit the chip's 32-bit address space. BUDGET (default 8M) bounds the
 * bytes one size moves: iterations = BUDGET / bytes, at least 2 and at
 * most 1000. APIS is a comma list of rcce, putget and ircce (default
 * rcce,putget,ircce). UE 0
 * prints CSV, timed with RCCE_wtime, after the `#` lines of
 * apps/lib/bench.h:
 *
 *   api,peer,bytes,iterations,usec_per_roundtrip,MB_per_s,warmup,
 *   latency_us,verified,clock
 *
 * peer is the peer's core id; MB_per_s counts both directions (2 * bytes
 * per round trip) in 10^6 bytes per second; latency_us is half a round
 * trip (the one-way latency OSU's and IMB's ping-pongs report); warmup
 * is the round trips before the timed ones (one, checked: verified says
 * whether UE 0 got back the bytes it sent); clock as in apps/lib/bench.h.
 * Errors go to stderr.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "RCCE.h"
#include "bench.h"
#include "iRCCE.h"
#ifndef SCC_HOST
#include "scc_copy.h"
#endif

#define MAXBYTES_LIMIT (1L << 30)
#define MAXSIZES 64
#define WARMUP 1            /* the checked round trip before the timed ones */

struct putget {
    t_vcharp buf;           /* MPB buffer, same offset everywhere */
    size_t chunk;
    RCCE_FLAG full, empty;  /* full: at the receiver, empty: at the sender */
};

/* Move n bytes from UE `from` to UE `to` through to's MPB buffer. */
static void pg_move(struct putget *pg, char *data, size_t n, int from, int to)
{
    int me = RCCE_ue();

    for (size_t off = 0; off < n; off += pg->chunk) {
        int len = (int)(n - off < pg->chunk ? n - off : pg->chunk);
        if (me == from) {
            RCCE_put(pg->buf, (t_vcharp)data + off, len, to);
            RCCE_flag_write(&pg->full, RCCE_FLAG_SET, to);
            RCCE_wait_until(pg->empty, RCCE_FLAG_SET);
            RCCE_flag_write(&pg->empty, RCCE_FLAG_UNSET, me);
        } else {
            RCCE_wait_until(pg->full, RCCE_FLAG_SET);
            RCCE_flag_write(&pg->full, RCCE_FLAG_UNSET, me);
            RCCE_get((t_vcharp)data + off, pg->buf, len, me);
            RCCE_flag_write(&pg->empty, RCCE_FLAG_SET, from);
        }
    }
}

/* One round trip of n bytes between UE 0 and peer over `api`; with
 * --buffers separate, each UE sends from data and receives into data + n. */
static void round_trip(const char *api, struct putget *pg, char *data, size_t n,
                       int peer, int separate)
{
    int me = RCCE_ue();
    char *in = separate ? data + n : data;

    if (strcmp(api, "rcce") == 0) {
        if (me == 0) {
            RCCE_send(data, n, peer);
            RCCE_recv(in, n, peer);
        } else {
            RCCE_recv(in, n, 0);
            RCCE_send(data, n, 0);
        }
    } else if (strcmp(api, "putget") == 0) {
        if (separate) {
            pg_move(pg, me == 0 ? data : in, n, 0, peer);
            pg_move(pg, me == 0 ? in : data, n, peer, 0);
        } else {
            pg_move(pg, data, n, 0, peer);
            pg_move(pg, data, n, peer, 0);
        }
    } else if (separate) {
        iRCCE_SEND_REQUEST s;
        iRCCE_RECV_REQUEST r;
        int other = me == 0 ? peer : 0;
        iRCCE_irecv(in, n, other, &r);
        if (me == 0) {
            iRCCE_isend(data, n, other, &s);
            iRCCE_isend_wait(&s);
            iRCCE_irecv_wait(&r);
        } else {
            iRCCE_irecv_wait(&r);
            iRCCE_isend(data, n, other, &s);
            iRCCE_isend_wait(&s);
        }
    } else {
        iRCCE_SEND_REQUEST s;
        iRCCE_RECV_REQUEST r;
        int other = me == 0 ? peer : 0;
        if (me == 0) {
            iRCCE_irecv(data + n, n, other, &r);
            iRCCE_isend(data, n, other, &s);
            iRCCE_isend_wait(&s);
            iRCCE_irecv_wait(&r);
        } else {
            iRCCE_irecv(data, n, other, &r);
            iRCCE_irecv_wait(&r);
            iRCCE_isend(data, n, other, &s);
            iRCCE_isend_wait(&s);
        }
    }
}

static int check_data(const char *data, size_t n, int seed)
{
    for (size_t i = 0; i < n; i++)
        if ((unsigned char)data[i] != (unsigned char)(i * 7 + seed))
            return 0;
    return 1;
}

static int usage(const char *what, const char *why)
{
    fprintf(stderr, "pingpong: bad %s: %s\nusage: pingpong <nues> <GHz> <cores...> "
            "[MAXBYTES|SIZES [BUDGET [APIS]]]\n"
            "   or: pingpong <nues> <GHz> <cores...> [--sizes MAXBYTES|SIZES] [--budget BYTES] "
            "[--apis rcce,putget,ircce] [--copy libscc|rcce1] [--proto libscc|rcce1] "
            "[--buffers same|separate] [--mpbt off|on] [--regions]\n",
            what, why);
    return 2;
}

/* APIS: a comma list of known paths: NULL, or what is wrong with it. */
static const char *check_apis(const char *s)
{
    static const char *const known[] = {"rcce", "putget", "ircce"};
    const char *p = s;

    if (!*s)
        return "the list is empty (want some of rcce,putget,ircce)";
    while (*p) {
        size_t len = strcspn(p, ",");
        int ok = 0;
        for (int i = 0; i < 3; i++)
            ok |= strlen(known[i]) == len && !strncmp(p, known[i], len);
        if (!ok)
            return "not a comma list of rcce, putget and ircce";
        p += len;
        if (*p == ',' && !*++p)
            return "the list ends in a comma";
    }
    return NULL;
}

/* SIZES: one size is the largest of 32, 64, ... (as it always was); a
 * list or range is taken as it is. */
static int parse_sizes(const char *s, long *sizes)
{
    long max;
    int n = 0;

    if (strpbrk(s, ",-:"))
        return size_list(s, sizes, MAXSIZES, 1, MAXBYTES_LIMIT, 2);
    if (size_parse(s, 32, MAXBYTES_LIMIT, &max))
        return -1;
    for (long v = 32;; v *= 2) {
        sizes[n++] = v;
        if (v > max / 2)
            return n;               /* 2 v would pass max (or overflow) */
    }
}

/* The named parameters (apps/lib/bench.h), in the order of the
 * positional ones (SIZES BUDGET APIS), then --copy, --mpbt, --proto and
 * --buffers. */
#define PP_OPTIONS(X)               \
    X(PP_SIZES, "sizes", value)     \
    X(PP_BUDGET, "budget", value)   \
    X(PP_APIS, "apis", value)       \
    X(PP_COPY, "copy", value)       \
    X(PP_MPBT, "mpbt", value)       \
    X(PP_PROTO, "proto", value)     \
    X(PP_BUFFERS, "buffers", value)
BENCH_OPTIONS(pp, rcce, regions, PP_OPTIONS);

struct params {
    long budget, sizes[MAXSIZES], maxbytes;
    int nsizes, mpbt, separate;
    char apis[64];
};

/* The words after the RCCE ones into @p: 0, or the exit status after
 * saying why (every UE says it: on the chip the first to exit stops the
 * others). */
static int pp_options(int argc, char **argv, struct params *p)
{
    static const char *const labels[] = {"SIZES", "BUDGET", "APIS", "copy", "mpbt",
                                         "proto", "buffers"};
    const char *param[7] = {NULL, NULL, NULL, NULL, NULL, NULL, NULL};
    struct bench_args args;
    const char *v;
    int k, next = 0;

    bench_args(&args, argc, argv, 1, &pp_opts);
    while ((k = bench_next(&args, &v)) != BENCH_END) {
        char what[80];

        snprintf(what, sizeof what, "argument '%.60s'", bench_word(&args));
        if (k == BENCH_BAD)
            return usage(what, bench_why());
        if (k == BENCH_POSITIONAL) {
            if (next == 3)
                return usage(what, "a fourth positional one (want SIZES BUDGET APIS)");
            k = next++;
        }
        if (param[k])
            return usage(labels[k], "given twice (by position or by name)");
        param[k] = v;
    }
    p->budget = 8 << 20;
    p->nsizes = parse_sizes(param[0] ? param[0] : "1M", p->sizes);
    if (p->nsizes < 0)
        return usage(labels[0], size_why());
    p->maxbytes = 0;
    for (int i = 0; i < p->nsizes; i++)
        p->maxbytes = p->sizes[i] > p->maxbytes ? p->sizes[i] : p->maxbytes;
    if (param[1] && size_parse(param[1], 1, SIZE_LIMIT, &p->budget))
        return usage(labels[1], size_why());
    snprintf(p->apis, sizeof p->apis, "rcce,putget,ircce");
    if (param[2]) {
        const char *why = check_apis(param[2]);
        if (!why && strlen(param[2]) >= sizeof p->apis)
            why = "too long";
        if (why)
            return usage(labels[2], why);
        snprintf(p->apis, sizeof p->apis, "%s", param[2]);
    }
    if (param[3]) {
        if (!strcmp(param[3], "rcce1"))
            RCCE_copy_style(RCCE_COPY_RCCE1);
        else if (strcmp(param[3], "libscc"))
            return usage(labels[3], "want libscc or rcce1");
    }
    if (param[5]) {
        if (!strcmp(param[5], "rcce1"))
            RCCE_copy_style(RCCE_copy_style(0) | RCCE_COPY_PROTO1);
        else if (strcmp(param[5], "libscc"))
            return usage(labels[5], "want libscc or rcce1");
    }
    p->separate = 0;
    if (param[6]) {
        if (!strcmp(param[6], "separate"))
            p->separate = 1;
        else if (strcmp(param[6], "same"))
            return usage(labels[6], "want same or separate");
    }
    p->mpbt = 0;
    if (param[4]) {
        if (!strcmp(param[4], "on"))
            p->mpbt = 1;
        else if (strcmp(param[4], "off"))
            return usage(labels[4], "want off or on");
#ifdef SCC_HOST
        if (p->mpbt)
            return usage(labels[4], "on needs the chip (the host has no MPBT pages)");
#endif
    }
    return 0;
}

/* @iters timed round trips of @n bytes with @peer: their seconds. */
BENCH_TIMED static double time_round_trips(const char *api, struct putget *pg, char *data,
                                           size_t n, int peer, int iters, int separate)
{
    bench_region_name(api);
    BENCH_MARK_BEGIN();
    double t = RCCE_wtime();
    for (int it = 0; it < iters; it++)
        round_trip(api, pg, data, n, peer, separate);
    t = RCCE_wtime() - t;
    BENCH_MARK_END();
    return t;
}

/* --buffers separate: EVICT_BYTES of lines nothing else uses, read before
 * each size's fill (see the header). Twice the L2: of eight lines read
 * into a set of four ways, at least five miss if any of the set's lines
 * is another's, and those misses replace every way in turn. */
#define EVICT_BYTES (512 * 1024)

static void evict_caches(const char *buf)
{
    volatile const char *p = buf;
    unsigned sum = 0;

    for (size_t i = 0; i < EVICT_BYTES; i += 32)
        sum += p[i];
    (void)sum;
}

/* One row: a checked round trip (the warm-up), then the timed ones; 0,
 * or 1 if the data came back wrong. With --buffers separate (@evict, the
 * UE's own EVICT_BYTES, is then given) the receive buffer is checked
 * after the timed round trips (the last one's data). */
static int measure(const char *api, struct putget *pg, char *data, size_t n, int peer,
                   long budget, const char *evict)
{
    int separate = evict != NULL;
    int iters = (int)((size_t)budget / n), ok = 1, me = RCCE_ue();

    iters = iters < 2 ? 2 : iters > 1000 ? 1000 : iters;
    if (separate)
        evict_caches(evict);
    for (size_t i = 0; i < n; i++)
        data[i] = (char)(i * 7 + peer);
    round_trip(api, pg, data, n, peer, separate);
    if (!separate)
        ok = check_data(me == 0 && strcmp(api, "ircce") == 0 ? data + n : data, n, peer);
    double t = time_round_trips(api, pg, data, n, peer, iters, separate);
    if (separate)
        ok = check_data(data + n, n, peer);
    if (!ok)
        fprintf(stderr, "pingpong: %s %lu bytes: wrong data on UE %d\n", api,
                (unsigned long)n, me);
    if (me == 0)
        printf("%s,%d,%lu,%d,%.2f,%.2f,%d,%.2f,%s,%s\n", api, RCCE_ue_core(peer),
               (unsigned long)n, iters, t * 1e6 / iters, 2.0 * n * iters / t / 1e6, WARMUP,
               t * 1e6 / iters / 2, ok ? "yes" : "NO", bench_clock());
    return !ok;
}

int RCCE_APP(int argc, char **argv)
{
    struct params p;
    struct putget pg;
    int status;

    if (bench_rcce_start(&argc, &argv, "pingpong", 1))
        return 2;
    if ((status = pp_options(argc, argv, &p)))
        return status;
    int me = RCCE_ue(), np = RCCE_num_ues();

    pg.buf = RCCE_malloc_request(1024, &pg.chunk);
    if (!pg.buf || RCCE_flag_alloc(&pg.full) || RCCE_flag_alloc(&pg.empty)) {
        fprintf(stderr, "pingpong: no MPB space for put/get\n");
        return 2;
    }
    /* whole pages: --mpbt on marks them, and nothing else may share them */
    size_t dbytes = (2 * (size_t)p.maxbytes + 64 + 4095) & ~(size_t)4095;
    char *data = aligned_alloc(4096, dbytes);
    if (!data) {
        fprintf(stderr, "pingpong: out of memory\n");
        return 2;
    }
    /* the UE's own (on the host the UEs are threads of one process) */
    char *evict = NULL;
    if (p.separate && !(evict = aligned_alloc(4096, EVICT_BYTES))) {
        fprintf(stderr, "pingpong: out of memory\n");
        return 2;
    }
#ifndef SCC_HOST
    if (p.mpbt && scc_copy_mark_mpbt(data, dbytes, 1)) {
        fprintf(stderr, "pingpong: --mpbt on: marking the buffer's pages MPBT failed\n");
        return 2;
    }
#endif
    if (me == 0) {
        bench_preamble("round trips between UE 0 and each other UE, one row per (api, "
                       "peer, size)");
        printf("# times: us of RCCE_wtime; usec_per_roundtrip is the mean of the timed "
               "round trips\n");
        printf("api,peer,bytes,iterations,usec_per_roundtrip,MB_per_s,warmup,latency_us,"
               "verified,clock\n");
    }
    RCCE_barrier(&RCCE_COMM_WORLD);

    char *save = NULL;     /* strtok_r: on the host all UEs share strtok's state */
    for (char *api = strtok_r(p.apis, ",", &save); api; api = strtok_r(NULL, ",", &save)) {
        for (int peer = 1; peer < np; peer++) {
            for (int s = 0; s < p.nsizes; s++)
                if (me == 0 || me == peer)
                    status |= measure(api, &pg, data, (size_t)p.sizes[s], peer, p.budget,
                                      evict);
            RCCE_barrier(&RCCE_COMM_WORLD);
        }
    }
    free(data);
    free(evict);
    RCCE_finalize();
    return status;
}
