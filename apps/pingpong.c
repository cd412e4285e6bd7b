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
 *          pingpong 5 0.533 0 1 2 11 47 [sizes=SIZES] [budget=BUDGET] [apis=APIS]
 *                   [copy=libscc|rcce1] [mpbt=off|on] [--regions]
 *   chip:  the same words after the kernel's `--`
 *
 * The three parameters come by position or by name (key=value, in any
 * order, as an experiment file's arg_style = "key=value" passes them);
 * the two forms mix (positional ones first fill SIZES, BUDGET, APIS in
 * that order), but a parameter given twice, an unknown key, a fourth
 * positional word or a bad value is a usage error (exit status 2).
 * copy= (by name only) chooses how gets copy into private memory
 * (RCCE_copy_style): libscc (the default) reads each destination line
 * first, as iRCCE's memcpy did; rcce1 copies words straight, as RCCE 1.x
 * did, each store to an uncached line going around the caches, and sends
 * in lockstep, one whole-buffer chunk at a time, as RCCE 1.x did before
 * iRCCE's pipelining (the copy paper's "RCCE normal->normal" against
 * "iRCCE normal->normal").
 * mpbt= (by name only, chip only) on marks the pages of the message buffer
 * (sent from and received into) MPBT (SYS_copy_mpbt): reads of it bypass
 * the L2 and writes combine in the write-combine buffer (the copy paper's
 * MPBT-flagged buffers, Fig. 3).
 * --regions (or regions, regions=1) makes each api's timed round trips a
 * region named after the api for --timing-stats (apps/benchout.h).
 * SIZES and BUDGET are as in apps/sizes.h (4096, 64K, 1M). SIZES is the
 * largest size (default 1M: the sizes are 32, 64, ... up to it) or a
 * list of sizes (32:1M, 1:4K,64K), none above 1G: the two buffers must
 * fit the chip's 32-bit address space. BUDGET (default 8M) bounds the
 * bytes one size moves: iterations = BUDGET / bytes, at least 2 and at
 * most 1000. APIS is a comma list of rcce, putget and ircce (default
 * rcce,putget,ircce). UE 0
 * prints CSV, timed with RCCE_wtime, after the `#` lines of
 * apps/benchout.h:
 *
 *   api,peer,bytes,iterations,usec_per_roundtrip,MB_per_s,warmup,
 *   latency_us,verified,clock
 *
 * peer is the peer's core id; MB_per_s counts both directions (2 * bytes
 * per round trip) in 10^6 bytes per second; latency_us is half a round
 * trip (the one-way latency OSU's and IMB's ping-pongs report); warmup
 * is the round trips before the timed ones (one, checked: verified says
 * whether UE 0 got back the bytes it sent); clock as in apps/benchout.h.
 * Errors go to stderr.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "RCCE.h"
#define BENCH_MARKS            /* apps/benchout.h: the asm markers */
#include "benchout.h"
#include "iRCCE.h"
#include "opts.h"
#include "sizes.h"
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

/* One round trip of n bytes between UE 0 and peer over `api`. */
static void round_trip(const char *api, struct putget *pg, char *data, size_t n,
                       int peer)
{
    int me = RCCE_ue();

    if (strcmp(api, "rcce") == 0) {
        if (me == 0) {
            RCCE_send(data, n, peer);
            RCCE_recv(data, n, peer);
        } else {
            RCCE_recv(data, n, 0);
            RCCE_send(data, n, 0);
        }
    } else if (strcmp(api, "putget") == 0) {
        pg_move(pg, data, n, 0, peer);
        pg_move(pg, data, n, peer, 0);
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
            "   or: pingpong <nues> <GHz> <cores...> [sizes=MAXBYTES|SIZES] [budget=BYTES] "
            "[apis=rcce,putget,ircce] [copy=libscc|rcce1] [mpbt=off|on] [--regions]\n",
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

/* The named parameters (apps/opts.h), in the order of the positional
 * ones (SIZES BUDGET APIS), then copy= and mpbt=: the names the parser
 * compares, and the ELF's list for the tools, with regions
 * (bench_regions_arg's, apps/benchout.h). */
#define PP_OPTIONS(X)               \
    X(PP_SIZES, "sizes", value)     \
    X(PP_BUDGET, "budget", value)   \
    X(PP_APIS, "apis", value)       \
    X(PP_COPY, "copy", value)       \
    X(PP_MPBT, "mpbt", value)
OPTS_TABLE(pp, keyeq, rcce, regions, PP_OPTIONS);

int RCCE_APP(int argc, char **argv)
{
    long budget = 8 << 20, sizes[MAXSIZES], maxbytes = 0;
    int nsizes;
    char apis[64] = "rcce,putget,ircce";
    struct putget pg;
    int status = 0;

    bench_keep_args(argc, argv);    /* RCCE_init rewrites argv */
    if (RCCE_init(&argc, &argv) != RCCE_SUCCESS || iRCCE_init() != iRCCE_SUCCESS) {
        fprintf(stderr, "pingpong: RCCE_init failed: start as pingpong <nues> <GHz> "
                "<cores...>\n");
        return 2;
    }
    /* every UE says why: on the chip the first to exit stops the others */
    static const char *const names[] = {PP_OPTIONS(OPTS_NAME_)};
    static const char *const labels[] = {"SIZES", "BUDGET", "APIS", "copy", "mpbt"};
    const char *param[5] = {NULL, NULL, NULL, NULL, NULL};
    int mpbt = 0;
    int next = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *eq = strchr(a, '=');
        char what[80];
        int k;
        if (bench_regions_arg(a))
            continue;
        snprintf(what, sizeof what, "argument '%.60s'", a);
        if (eq) {
            size_t len = (size_t)(eq - a);
            for (k = 0; k < 5; k++)
                if (strlen(names[k]) == len && !strncmp(a, names[k], len))
                    break;
            if (k == 5)
                return usage(what, "unknown key (want sizes=, budget=, apis=, copy= or mpbt=)");
            a = eq + 1;
        } else {
            if (next == 3)
                return usage(what, "a fourth positional one (want SIZES BUDGET APIS)");
            k = next++;
        }
        if (param[k])
            return usage(labels[k], "given twice (by position or by name)");
        param[k] = a;
    }
    nsizes = parse_sizes(param[0] ? param[0] : "1M", sizes);
    if (nsizes < 0)
        return usage(labels[0], size_why());
    for (int i = 0; i < nsizes; i++)
        maxbytes = sizes[i] > maxbytes ? sizes[i] : maxbytes;
    if (param[1] && size_parse(param[1], 1, SIZE_LIMIT, &budget))
        return usage(labels[1], size_why());
    if (param[2]) {
        const char *why = check_apis(param[2]);
        if (!why && strlen(param[2]) >= sizeof apis)
            why = "too long";
        if (why)
            return usage(labels[2], why);
        snprintf(apis, sizeof apis, "%s", param[2]);
    }
    if (param[3]) {
        if (!strcmp(param[3], "rcce1"))
            RCCE_copy_style(RCCE_COPY_RCCE1);
        else if (strcmp(param[3], "libscc"))
            return usage(labels[3], "want libscc or rcce1");
    }
    if (param[4]) {
        if (!strcmp(param[4], "on"))
            mpbt = 1;
        else if (strcmp(param[4], "off"))
            return usage(labels[4], "want off or on");
#ifdef SCC_HOST
        if (mpbt)
            return usage(labels[4], "on needs the chip (the host has no MPBT pages)");
#endif
    }
    int me = RCCE_ue(), np = RCCE_num_ues();

    pg.buf = RCCE_malloc_request(1024, &pg.chunk);
    if (!pg.buf || RCCE_flag_alloc(&pg.full) || RCCE_flag_alloc(&pg.empty)) {
        fprintf(stderr, "pingpong: no MPB space for put/get\n");
        return 2;
    }
    /* whole pages: mpbt=on marks them, and nothing else may share them */
    size_t dbytes = (2 * (size_t)maxbytes + 64 + 4095) & ~(size_t)4095;
    char *data = aligned_alloc(4096, dbytes);
    if (!data) {
        fprintf(stderr, "pingpong: out of memory\n");
        return 2;
    }
#ifndef SCC_HOST
    if (mpbt && scc_copy_mark_mpbt(data, dbytes, 1)) {
        fprintf(stderr, "pingpong: mpbt=on: marking the buffer's pages MPBT failed\n");
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
    for (char *api = strtok_r(apis, ",", &save); api; api = strtok_r(NULL, ",", &save)) {
        for (int peer = 1; peer < np; peer++) {
            for (int s = 0; s < nsizes; s++) {
                size_t n = (size_t)sizes[s];
                int iters = (int)((size_t)budget / n), ok;
                iters = iters < 2 ? 2 : iters > 1000 ? 1000 : iters;
                if (me != 0 && me != peer)
                    continue;
                /* one checked round trip, which also warms up */
                for (size_t i = 0; i < n; i++)
                    data[i] = (char)(i * 7 + peer);
                round_trip(api, &pg, data, n, peer);
                ok = check_data(me == 0 && strcmp(api, "ircce") == 0 ? data + n : data,
                                n, peer);
                if (!ok) {
                    fprintf(stderr, "pingpong: %s %lu bytes: wrong data on UE %d\n", api,
                            (unsigned long)n, me);
                    status = 1;
                }
                bench_region_name(api);
                BENCH_MARK_BEGIN();
                double t = RCCE_wtime();
                for (int it = 0; it < iters; it++)
                    round_trip(api, &pg, data, n, peer);
                t = RCCE_wtime() - t;
                BENCH_MARK_END();
                if (me == 0)
                    printf("%s,%d,%lu,%d,%.2f,%.2f,%d,%.2f,%s,%s\n", api, RCCE_ue_core(peer),
                           (unsigned long)n, iters, t * 1e6 / iters,
                           2.0 * n * iters / t / 1e6, WARMUP, t * 1e6 / iters / 2,
                           ok ? "yes" : "NO", bench_clock());
            }
            RCCE_barrier(&RCCE_COMM_WORLD);
        }
    }
    free(data);
    RCCE_finalize();
    return status;
}
