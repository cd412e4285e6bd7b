/*
 * collbench.c - the collective benchmark shared by bcast_bench,
 * allreduce_bench and coll_bench (one implementation, three programs).
 *
 *   PROG NUES GHZ CORE... [--op OP] [--alg SPEC]... [--sizes LIST] [--root R]
 *        [--iters N] [--warmup W] [--rtype T] [--rop O] [--copy C]
 *        [--buffers fresh|reuse] [--mpbt none|in|out|both] [--list] [--regions]
 *
 * Method (001 section 6.1): every iteration works on a fresh offset of a
 * large buffer, so that nothing is cached from the last one; members
 * start together after a barrier; the latency of one call is from the
 * root's call to the moment the LAST member returns, on RCCE_wtime (the
 * global timestamp counter on the chip, the host's monotonic clock on the
 * host); every member checks its result against a serial reference in
 * every iteration, warm-up included.
 *
 * CSV on stdout (UE 0): the `#` lines of apps/lib/bench.h (command line,
 * commit, mode, clocks), then one row per (algorithm, parameters, size):
 *   collective,algorithm,params,clock,cores,root,bytes,iters,min_us,
 *   median_us,max_us,mb_per_s,verified,warmup,t_min_us,t_avg_us,t_max_us,
 *   root_us
 * clock says what the times are: host (wall clock of the host backend) or
 * emulated (the emulated chip's clock in functional mode: host time, not
 * SCC time) or modeled (the machine's timing mode: modeled SCC time,
 * identical on every run). min_us, median_us and max_us are of the iters
 * latencies; t_min_us, t_avg_us and t_max_us are IMB's (and OSU's min,
 * avg and max): each member's own call time (its call to its return)
 * averaged over the iters, then the least, the mean and the most over the
 * members. root_us is the median over the iters of the root's own call
 * time, its call to its return (what a paper that timed only the root
 * measured: 002's RCCE broadcast paper timed P0). mb_per_s is bytes /
 * median_us; verified is yes if every member's result was right in every
 * iteration, warm-up included. A summary goes to stderr.
 *
 * --sizes takes apps/lib/bench.h's size lists: 32,100,1K-1M (a range doubles to its
 * high end) or 1:1M (OSU's form: the powers of two from 1 to 1M).
 *
 * --copy libscc|rcce1|lockstep (RCCE_copy_style, every member): how gets
 * copy into private memory and whether sends pipeline. libscc (the
 * default): lines read first, sends pipelined; rcce1: RCCE 1.x's word
 * copies and lockstep sends; lockstep: libscc's copies, RCCE 1.x's
 * lockstep sends (RCCE_comm's collectives in 001 ran on RCCE 1.x's sends,
 * and libscc's copy is the one that gives 001's o_mem_w: docs/timing.md).
 *
 * --proto libscc|rcce1 (every member): rcce1 adds RCCE 1.x's protocol to
 * the copy style (RCCE_COPY_PROTO1, libscc/src/chan.c): its payload
 * chunk, a flag cleared per chunk, and the bytes after a message's last
 * whole line sent as a chunk of their own (004 line 176: RCCE 1.1.0's
 * "extra synchronization"), as RCCE_comm's collectives ran on RCCE 1.x.
 *
 * --buffers reuse: every iteration of a size works on the same buffers
 * (IMB's default, and the thesis' 1000 repetitions of one call, 000
 * L2515-2519), so a message that fits the caches is received into lines
 * the last call left there; fresh (the default) is the method above.
 *
 * --mpbt in|out|both (the chip only): the input and/or output arena's
 * pages are marked MPBT (scc_copy_mark_mpbt) once, when they are new:
 * stores into them combine into whole lines in the write-combine buffer
 * and their reads fill the L1 only (the copy paper's fourfold faster
 * writes to DRAM). A program chooses this for its own buffers; it is safe
 * on new pages, which no cache holds yet. alltoall `pull` reads other
 * members' inputs from DRAM only if they are MPBT (in or both). The
 * preamble says which (`# mpbt:`).
 *
 * --regions (apps/lib/bench.h): every member's timed calls (the warm-up
 * left out) form the region named after the collective (bcast,
 * allreduce, ...), for scc-run --timing-stats.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "RCCE.h"
#include "bench.h"
#include "collbench.h"
#ifndef SCC_HOST
#include <scc/hw.h>
#include "scc.h"
#include "scc_copy.h"
#endif

#define CB_MAXALG 40
#define CB_MAXSIZES 64
#define CB_ARENA (8u << 20)     /* the large buffer the offsets walk */
#define CB_MAXNUM 1000000       /* the most --root, --iters and --warmup take */

struct cb {
    const char *op;
    const char *algs[CB_MAXALG];
    int nalgs;
    long sizes[CB_MAXSIZES];
    int nsizes;
    int root, iters, warmup, rtype, rop;
    int me, n;
    char *arena_in, *arena_out;
    size_t arena;               /* bytes in each arena */
    size_t off;
    size_t used;                /* the arenas' bytes below it have been handed out */
    int measured;               /* (algorithm, size) pairs begun */
    int reuse;                  /* --buffers reuse: every call the same buffers */
    int mpbt;                   /* --mpbt: CB_MPBT_IN | CB_MPBT_OUT */
};

enum { CB_MPBT_IN = 1, CB_MPBT_OUT = 2 };

/* The options (apps/lib/bench.h), and the region option. */
#define CB_OPTIONS(X)                   \
    X(CB_OP, "op", value)               \
    X(CB_ALG, "alg", value)             \
    X(CB_SIZES, "sizes", value)         \
    X(CB_ROOT, "root", value)           \
    X(CB_ITERS, "iters", value)         \
    X(CB_WARMUP, "warmup", value)       \
    X(CB_RTYPE, "rtype", value)         \
    X(CB_ROP, "rop", value)             \
    X(CB_COPY, "copy", value)           \
    X(CB_PROTO, "proto", value)         \
    X(CB_BUFFERS, "buffers", value)     \
    X(CB_MPBT, "mpbt", value)           \
    X(CB_LIST, "list", flag)
BENCH_OPTIONS(cb, rcce, regions, CB_OPTIONS);

static const long cb_default_sizes[] = {
    32, 64, 100, 128, 256, 512, 1000, 1024, 2048, 3104, 4096, 8192, 16384, 32768,
    65536, 100000, 131072, 262144, 524288, 1048576,
};

/* Every UE says why it stops: on the chip the first UE to exit stops the
 * run, so only its own words are sure to be seen. UE 0 adds the usage.
 * One fprintf a line: on the host the UEs are threads of one process. */
__attribute__((format(printf, 1, 2)))
static int cb_usage(const char *fmt, ...)
{
    char why[256];
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(why, sizeof why, fmt, ap);
    va_end(ap);
    fprintf(stderr, "error: %s\n", why);
    if (RCCE_ue() == 0)
        fprintf(stderr,
                "usage: PROG NUES GHZ CORE... [--op OP] [--alg NAME[:k=v,...]|all]... "
                "[--sizes 32,100,1K-1M|1:1M] [--root R] [--iters N] [--warmup W] "
                "[--rtype int|long|float|double] [--rop sum|max|min|prod] "
                "[--copy libscc|rcce1|lockstep] [--proto libscc|rcce1] [--buffers fresh|reuse] "
                "[--mpbt none|in|out|both] [--list] [--regions]\n");
    return 2;
}

/* "32,100,1K-1M": a range doubles from its low end to its high end;
 * "1:1M" is the powers of two from 1 to 1M. A size too large for the
 * arena is skipped when its turn comes, saying so. */
static int cb_parse_sizes(struct cb *b, const char *s)
{
    b->nsizes = size_list(s, b->sizes, CB_MAXSIZES, 0, SIZE_LIMIT, 2);
    return b->nsizes > 0 ? 0 : -1;
}

static int cb_lookup(const char *s, const char *const *names, const int *vals, int n)
{
    for (int i = 0; i < n; i++)
        if (!strcmp(s, names[i]))
            return vals[i];
    return -1;
}

static int cb_is_reduction(const char *op)
{
    return !strcmp(op, "reduce") || !strcmp(op, "allreduce") || !strcmp(op, "reduce_scatter");
}

static size_t cb_tsize(int t)
{
    return t == RCCE_INT ? sizeof(int) : t == RCCE_LONG ? sizeof(long)
           : t == RCCE_FLOAT ? sizeof(float) : sizeof(double);
}

/* Bytes of input and output one member needs for a call of `bytes`. */
static void cb_extent(const struct cb *b, size_t bytes, size_t *in, size_t *out)
{
    size_t n = (size_t)b->n;

    *in = *out = bytes;
    if (!strcmp(b->op, "allgather") || !strcmp(b->op, "gather"))
        *out = bytes * n;
    else if (!strcmp(b->op, "stop"))
        *out = bytes * (size_t)(b->root + 1);      /* s = root + 1 sources */
    else if (!strcmp(b->op, "alltoall"))
        *in = *out = bytes * n;
    else if (!strcmp(b->op, "scatter"))
        *in = bytes * n;
    else if (!strcmp(b->op, "reduce_scatter"))
        *in = bytes * n;
}

static unsigned char cb_byte(int m, size_t i, int it)
{
    return (unsigned char)(m * 131 + i * 7 + (i >> 8) * 13 + it * 29 + 1);
}

static long cb_val(int m, size_t i, int rop, int it)
{
    if (rop == RCCE_PROD)
        return ((m + (long)i + it) % 5 == 0) ? -1 : 1;
    return (long)((m * 7 + (long)i * 3 + it) % 41) - 20;
}

static void cb_put(char *p, int t, size_t i, long v)
{
    if (t == RCCE_INT) ((int *)p)[i] = (int)v;
    else if (t == RCCE_LONG) ((long *)p)[i] = v;
    else if (t == RCCE_FLOAT) ((float *)p)[i] = (float)v;
    else ((double *)p)[i] = (double)v;
}

static long cb_ref(const struct cb *b, size_t i, int it)
{
    long acc = cb_val(0, i, b->rop, it);

    for (int m = 1; m < b->n; m++) {
        long v = cb_val(m, i, b->rop, it);
        acc = b->rop == RCCE_SUM ? acc + v : b->rop == RCCE_PROD ? acc * v
              : b->rop == RCCE_MIN ? (v < acc ? v : acc) : (v > acc ? v : acc);
    }
    return acc;
}

/* The sources of an s-to-p broadcast: s = root + 1, spread out. */
static int cb_sources(const struct cb *b, int *src)
{
    int s = b->root + 1;

    for (int i = 0; i < s; i++)
        src[i] = (int)((long)i * b->n / s);
    return s;
}

/* The pattern cb_byte(m, i, it) steps by 7 a byte within 256 bytes, so
 * whole words step by 4 x 7 = 0x1c in each byte, added without carries
 * between bytes. Filling and checking a word at a time matters in the
 * timing mode, where every instruction outside the timed call costs host
 * time too: byte by byte, filling and checking were most of the
 * benchmark's instructions. */
static uint32_t cb_word(int m, size_t i, int it)
{
    return cb_byte(m, i, it) | (uint32_t)cb_byte(m, i + 1, it) << 8 |
           (uint32_t)cb_byte(m, i + 2, it) << 16 | (uint32_t)cb_byte(m, i + 3, it) << 24;
}

static uint32_t cb_next(uint32_t w)
{
    return ((w & 0x7f7f7f7fu) + 0x1c1c1c1cu) ^ (w & 0x80808080u);
}

/* Write (or, if @check, compare) cb_byte(m, base + k, it) for k < len at
 * @o; returns 0 at the first difference. */
static int cb_pattern(unsigned char *o, int m, size_t base, size_t len, int it, int check)
{
    size_t k = 0;

    for (; k < len && (base + k) % 4; k++) {
        if (!check)
            o[k] = cb_byte(m, base + k, it);
        else if (o[k] != cb_byte(m, base + k, it))
            return 0;
    }
    while (k + 4 <= len) {
        size_t end = k + (256 - (base + k) % 256);
        uint32_t w = cb_word(m, base + k, it), got;

        if (end > len)
            end = len;
        for (; k + 4 <= end; k += 4, w = cb_next(w)) {
            if (!check) {
                memcpy(o + k, &w, 4);
                continue;
            }
            memcpy(&got, o + k, 4);
            if (got != w)
                return 0;
        }
    }
    for (; k < len; k++) {
        if (!check)
            o[k] = cb_byte(m, base + k, it);
        else if (o[k] != cb_byte(m, base + k, it))
            return 0;
    }
    return 1;
}

/* Zeroes a word at a time, the same instructions however picolibc's memset
 * is built (it went byte by byte at -Os: scripts/build-picolibc.sh). */
static void cb_zero(char *o, size_t len)
{
#ifdef SCC_HOST
    memset(o, 0, len);
#else
    size_t words = len / 4, tail = len % 4;

    __asm__ volatile("cld; rep stosl; mov %3, %%ecx; rep stosb"
                     : "+D"(o), "+c"(words) : "a"(0), "r"(tail) : "memory");
#endif
}

/* Fill this member's input for iteration it. A broadcast's receivers
 * start from zeros, so that a byte the call does not write cannot pass
 * the check; @fresh: the arena's bytes there were never handed out, so
 * they are still the zeros the kernel mapped. Zeroing them again was a
 * third of the stores of bcast_bench's run, and in the timing mode each
 * is a write around the caches, timed. */
static void cb_fill(struct cb *b, char *in, char *out, size_t bytes, size_t nin, size_t nout,
                    int it, int fresh)
{
    if (cb_is_reduction(b->op)) {
        size_t ts = cb_tsize(b->rtype);
        for (size_t i = 0; i < nin / ts; i++)
            cb_put(in, b->rtype, i, cb_val(b->me, i, b->rop, it));
    } else if (!strcmp(b->op, "bcast")) {
        if (b->me == b->root)
            cb_pattern((unsigned char *)out, b->root, 0, bytes, it, 0);
        else if (!fresh)
            cb_zero(out, bytes);
    } else {
        cb_pattern((unsigned char *)in, b->me, 0, nin, it, 0);
    }
    (void)nout;
}

/* Whether this member's output is right for iteration it. */
static int cb_check(struct cb *b, const char *out, size_t bytes, size_t nout, int it)
{
    int n = b->n, me = b->me, src[RCCE_MAXNP], s;

    if (cb_is_reduction(b->op)) {
        size_t ts = cb_tsize(b->rtype), num = bytes / ts;
        int rs = !strcmp(b->op, "reduce_scatter");
        if (!strcmp(b->op, "reduce") && me != b->root)
            return 1;
        for (size_t i = 0; i < num; i++) {
            char want[8];
            cb_put(want, b->rtype, 0, cb_ref(b, rs ? (size_t)me * num + i : i, it));
            if (memcmp(out + i * ts, want, ts))
                return 0;
        }
        return 1;
    }
    if (!strcmp(b->op, "gather") && me != b->root)
        return 1;
    s = !strcmp(b->op, "stop") ? cb_sources(b, src) : 0;
    /* The output is nout / bytes blocks; block j holds the bytes of member
     * m from its index base on. Decided once per block, not per byte: the
     * check is outside the timed call, but in the timing mode every one of
     * its instructions costs host time. */
    for (size_t j = 0; bytes && j < nout / bytes; j++) {
        const unsigned char *o = (const unsigned char *)out + j * bytes;
        int m;
        size_t base = 0;

        if (!strcmp(b->op, "bcast"))
            m = b->root;
        else if (!strcmp(b->op, "allgather") || !strcmp(b->op, "gather"))
            m = (int)j;
        else if (!strcmp(b->op, "alltoall"))
            m = (int)j, base = (size_t)me * bytes;
        else if (!strcmp(b->op, "scatter"))
            m = b->root, base = (size_t)me * bytes;
        else
            m = src[j];
        if (!cb_pattern((unsigned char *)o, m, base, bytes, it, 1))
            return 0;
    }
    (void)n;
    (void)s;
    return 1;
}

static int cb_call(struct cb *b, char *in, char *out, size_t bytes)
{
    const char *op = b->op;
    int src[RCCE_MAXNP], s, is_src = 0;

    /* Built with -DCB_SELFTEST_SKIP_AFTER=K (tests/test_coll.py only): the
     * broadcasts of every (algorithm, size) after the first K deliver
     * nothing, so that the check must fail there, whatever earlier calls
     * left in the buffers. */
#ifdef CB_SELFTEST_SKIP_AFTER
    if (!strcmp(op, "bcast") && b->measured > CB_SELFTEST_SKIP_AFTER) {
        RCCE_barrier(&RCCE_COMM_WORLD);
        return RCCE_SUCCESS;
    }
#endif
    if (!strcmp(op, "bcast"))
        return RCCE_bcast(out, bytes, b->root, RCCE_COMM_WORLD);
    if (!strcmp(op, "reduce"))
        return RCCE_reduce(in, out, (int)(bytes / cb_tsize(b->rtype)), b->rtype, b->rop,
                           b->root, RCCE_COMM_WORLD);
    if (!strcmp(op, "allreduce"))
        return RCCE_allreduce(in, out, (int)(bytes / cb_tsize(b->rtype)), b->rtype, b->rop,
                              RCCE_COMM_WORLD);
    if (!strcmp(op, "reduce_scatter"))
        return RCCE_reduce_scatter(in, out, (int)(bytes / cb_tsize(b->rtype)), b->rtype,
                                   b->rop, RCCE_COMM_WORLD);
    if (!strcmp(op, "allgather"))
        return RCCE_allgather(in, out, bytes, RCCE_COMM_WORLD);
    if (!strcmp(op, "alltoall"))
        return RCCE_alltoall(in, out, bytes, RCCE_COMM_WORLD);
    if (!strcmp(op, "scatter"))
        return RCCE_scatter(in, out, bytes, b->root, RCCE_COMM_WORLD);
    if (!strcmp(op, "gather"))
        return RCCE_gather(in, out, bytes, b->root, RCCE_COMM_WORLD);
    if (!strcmp(op, "barrier"))
        return RCCE_barrier(&RCCE_COMM_WORLD);
    s = cb_sources(b, src);
    for (int i = 0; i < s; i++)
        is_src |= src[i] == b->me;
    return scc_stop_bcast(is_src ? in : NULL, out, bytes, src, s, RCCE_COMM_WORLD);
}

static int cb_cmp(const void *a, const void *c)
{
    double x = *(const double *)a, y = *(const double *)c;
    return x < y ? -1 : x > y;
}

/* The bytes one call of @size takes from each arena (the message size
 * rounded to whole elements of a reduction, then to two cache lines). */
static size_t cb_step(const struct cb *b, long size)
{
    size_t bytes = (size_t)size, nin, nout;

    if (cb_is_reduction(b->op))
        bytes -= bytes % cb_tsize(b->rtype);
    cb_extent(b, bytes, &nin, &nout);
    return ((nin > nout ? nin : nout) + 63) & ~(size_t)63;
}

/* A zeroed arena just large enough that no call of the run reuses another's
 * buffer (CB_ARENA at most: then the offsets wrap). On the chip it comes
 * from the kernel: picolibc's malloc clears every block, and two 8 MiB
 * arenas on 48 cores were 8e8 instructions (byte by byte, at -Os) before
 * anything ran. */
static char *cb_arena(size_t len)
{
#ifdef SCC_HOST
    return calloc(1, len);
#else
    return scc_mmap(len);
#endif
}

/* One (algorithm, size): warm-up and timed iterations; the row on UE 0.
 * Returns 0, or 1 if a result was wrong or a call failed. */
BENCH_TIMED static int cb_measure(struct cb *b, const char *spec, long size)
{
    size_t bytes = (size_t)size, nin, nout, step = cb_step(b, size);
    size_t nlat = (size_t)(b->iters ? b->iters : 1);
    /* UE 0's latencies, then the root's own call times (root_us) */
    double *lat = malloc(sizeof(double) * 2 * nlat), *rlat = lat + nlat;
    /* on UE 0: every member's call times summed over the timed iterations
     * (static: UE 0's only, and no larger a stack under the timed call) */
    static double own[RCCE_MAXNP];
    int ok = 1, err = 0, total = b->warmup + b->iters;

    b->measured++;
    if (cb_is_reduction(b->op))
        bytes -= bytes % cb_tsize(b->rtype);
    cb_extent(b, bytes, &nin, &nout);
    if (b->me == 0)
        memset(own, 0, sizeof own);
    if (step > CB_ARENA / 2) {
        if (b->me == 0)
            fprintf(stderr, "%s %s: %ld bytes need more than the %u MiB arena, skipped\n",
                    b->op, spec, size, CB_ARENA >> 20);
        free(lat);
        return 0;
    }
    for (int it = 0; it < total; it++) {
        char *in, *out;
        double t0, t1, ends[RCCE_MAXNP];
        int fresh;

        if (b->off + step > b->arena || b->reuse)
            b->off = 0;
        in = b->arena_in + b->off;
        out = b->arena_out + b->off;
        fresh = b->off >= b->used;
        b->off += step;
        if (b->used < b->off)
            b->used = b->off;
        cb_fill(b, in, out, bytes, nin, nout, it, fresh);
        RCCE_barrier(&RCCE_COMM_WORLD);
        BENCH_MARK_BEGIN_FROM(it);
        t0 = RCCE_wtime();
        err |= cb_call(b, in, out, bytes) != RCCE_SUCCESS;
        t1 = RCCE_wtime();
        BENCH_MARK_END();
        ok &= !err && cb_check(b, out, bytes, nout, it);
        /* every member's return time, verdict and call time, to UE 0
         * (baseline p2p) */
        if (b->me == 0) {
            ends[0] = t1;
            if (it >= b->warmup)
                own[0] += t1 - t0;
            for (int m = 1; m < b->n; m++) {
                double v[3];
                RCCE_recv((char *)v, sizeof(v), m);
                ends[m] = v[0];
                ok &= v[1] != 0;
                if (it >= b->warmup)
                    own[m] += v[2];
            }
            double start = t0, rt = t1 - t0;
            if (b->root != 0 && strcmp(b->op, "stop")) {
                /* the root's call, for the latency from the root's call,
                 * and its own call time */
                double rs[2];
                RCCE_recv((char *)rs, sizeof(rs), b->root);
                start = rs[0];
                rt = rs[1];
            }
            if (it >= b->warmup)
                rlat[it - b->warmup] = rt * 1e6;
            double last = ends[0];
            for (int m = 1; m < b->n; m++)
                if (ends[m] > last)
                    last = ends[m];
            if (it >= b->warmup)
                lat[it - b->warmup] = (last - start) * 1e6;
        } else {
            double v[3] = {t1, ok, t1 - t0};
            RCCE_send((char *)v, sizeof(v), 0);
            if (b->me == b->root && strcmp(b->op, "stop")) {
                double rs[2] = {t0, t1 - t0};
                RCCE_send((char *)rs, sizeof(rs), 0);
            }
        }
    }
    if (b->me == 0 && b->iters) {
        qsort(lat, (size_t)b->iters, sizeof(double), cb_cmp);
        qsort(rlat, (size_t)b->iters, sizeof(double), cb_cmp);
        double med = lat[b->iters / 2];
        double tmin = own[0], tmax = own[0], tsum = 0;
        for (int m = 0; m < b->n; m++) {
            tmin = own[m] < tmin ? own[m] : tmin;
            tmax = own[m] > tmax ? own[m] : tmax;
            tsum += own[m];
        }
        double per_us = 1e6 / b->iters;     /* a member's sum -> its mean in us */
        const char *used = scc_coll_used(b->op), *colon = strchr(used, ':');
        /* params is quoted: it holds commas (k=7,chunk=60) */
        printf("%s,%.*s,\"%s\",%s,%d,%d,%ld,%d,%.3f,%.3f,%.3f,%.3f,%s,%d,%.3f,%.3f,%.3f,"
               "%.3f\n",
               b->op, colon ? (int)(colon - used) : (int)strlen(used), used,
               colon ? colon + 1 : "", bench_clock(), b->n, b->root, (long)bytes, b->iters,
               lat[0], med, lat[b->iters - 1], med > 0 ? (double)bytes / med : 0.0,
               ok ? "yes" : "NO", b->warmup, tmin * per_us, tsum / b->n * per_us,
               tmax * per_us, rlat[b->iters / 2]);
        fflush(stdout);
        fprintf(stderr, "%-14s %-28s %8ld B  median %10.2f us  %s\n", b->op, used, (long)bytes,
                med, ok ? "verified" : "WRONG RESULT");
    }
    free(lat);
    return !ok;
}

/* The options after the RCCE words into @b (and *list): 0, or 2 (the
 * exit status) after saying why. */
static int cb_options(struct cb *b, int argc, char **argv, int *list)
{
    static const char *const tnames[] = {"int", "long", "float", "double"};
    static const int tvals[] = {RCCE_INT, RCCE_LONG, RCCE_FLOAT, RCCE_DOUBLE};
    static const char *const onames[] = {"sum", "max", "min", "prod"};
    static const int ovals[] = {RCCE_SUM, RCCE_MAX, RCCE_MIN, RCCE_PROD};
    static const char *const cnames[] = {"libscc", "rcce1", "lockstep"};
    static const int cvals[] = {RCCE_COPY_LIBSCC, RCCE_COPY_RCCE1, RCCE_COPY_LOCKSTEP};
    static const char *const mnames[] = {"none", "in", "out", "both"};
    static const int mvals[] = {0, CB_MPBT_IN, CB_MPBT_OUT, CB_MPBT_IN | CB_MPBT_OUT};
    struct bench_args args;
    const char *v;
    long x;
    int k, copy = RCCE_COPY_LIBSCC, proto = 0;

    bench_args(&args, argc, argv, 1, &cb_opts);
    while ((k = bench_next(&args, &v)) != BENCH_END) {
        switch (k) {
        case BENCH_BAD:
            return cb_usage("%s", bench_why());
        case BENCH_POSITIONAL:
            return cb_usage("unknown option '%s'", v);
        case CB_LIST:
            *list = *v == '1';
            break;
        case CB_OP:
            b->op = v;
            break;
        case CB_ALG:
            if (b->nalgs == CB_MAXALG)
                return cb_usage("more than %d --alg", CB_MAXALG);
            b->algs[b->nalgs++] = v;
            break;
        case CB_SIZES:
            if (cb_parse_sizes(b, v))
                return cb_usage("bad --sizes: %s", size_why());
            break;
        case CB_ROOT:
        case CB_ITERS:
        case CB_WARMUP:
            if (bench_count(v, 0, CB_MAXNUM, &x))
                return cb_usage("--%s wants a number 0-%d, not '%s'", cb_opt_rows[k].name,
                                CB_MAXNUM, v);
            *(k == CB_ROOT ? &b->root : k == CB_ITERS ? &b->iters : &b->warmup) = (int)x;
            break;
        case CB_RTYPE:
            if ((b->rtype = cb_lookup(v, tnames, tvals, 4)) < 0)
                return cb_usage("bad --rtype '%s'", v);
            break;
        case CB_ROP:
            if ((b->rop = cb_lookup(v, onames, ovals, 4)) < 0)
                return cb_usage("bad --rop '%s'", v);
            break;
        case CB_COPY:
            if ((x = cb_lookup(v, cnames, cvals, 3)) < 0)
                return cb_usage("bad --copy '%s': want libscc, rcce1 or lockstep", v);
            copy = (int)x;
            break;
        case CB_PROTO:
            if (strcmp(v, "libscc") && strcmp(v, "rcce1"))
                return cb_usage("bad --proto '%s': want libscc or rcce1", v);
            proto = strcmp(v, "rcce1") ? 0 : RCCE_COPY_PROTO1;
            break;
        case CB_BUFFERS:
            if (strcmp(v, "fresh") && strcmp(v, "reuse"))
                return cb_usage("bad --buffers '%s': want fresh or reuse", v);
            b->reuse = !strcmp(v, "reuse");
            break;
        case CB_MPBT:
            if ((b->mpbt = cb_lookup(v, mnames, mvals, 4)) < 0)
                return cb_usage("bad --mpbt '%s': want none, in, out or both", v);
#ifdef SCC_HOST
            if (b->mpbt)
                return cb_usage("--mpbt %s: the host backend has no memory types", v);
#endif
            break;
        }
    }
    if (copy != RCCE_COPY_LIBSCC || proto)
        RCCE_copy_style(copy | proto);
    return 0;
}

int coll_bench_main(int argc, char **argv, const char *default_op)
{
    struct cb b = {.op = default_op, .iters = 20, .warmup = 3, .rtype = RCCE_DOUBLE,
                   .rop = RCCE_SUM};
    int list = 0, bad = 0;

    if (bench_rcce_start(&argc, &argv, "coll_bench", 0))
        return 2;
    b.me = RCCE_ue();
    b.n = RCCE_num_ues();
    memcpy(b.sizes, cb_default_sizes, sizeof(cb_default_sizes));
    b.nsizes = (int)(sizeof(cb_default_sizes) / sizeof(cb_default_sizes[0]));
    if (cb_options(&b, argc, argv, &list))
        return 2;
    bench_region_name(b.op);
    bench_region_from((unsigned)b.warmup);
    if (list) {
        if (b.me == 0)
            scc_coll_list(stdout, b.op);
        RCCE_finalize();
        return 0;
    }
    const char *names[CB_MAXALG];
    int nnames = scc_coll_names(b.op, names, CB_MAXALG);
    if (nnames < 0)
        return cb_usage("unknown --op '%s' (see --list)", b.op);
    if (b.root >= b.n)
        return cb_usage("--root out of range: %d, with %d UEs", b.root, b.n);
    if (!b.iters)
        return cb_usage("--iters must be at least 1");
    if (!b.nalgs || (b.nalgs == 1 && !strcmp(b.algs[0], "all"))) {
        b.nalgs = 0;
        for (int i = 0; i < nnames && i < CB_MAXALG; i++)
            b.algs[b.nalgs++] = names[i];
    }
    /* Check every spec before measuring anything. */
    for (int a = 0; a < b.nalgs; a++) {
        if (scc_coll_set(b.op, b.algs[a]))
            return cb_usage("%s", scc_coll_error());
    }
    for (int a = 0; a < b.nalgs; a++)
        for (int s = 0; s < b.nsizes; s++)
            if (cb_step(&b, b.sizes[s]) <= CB_ARENA / 2)
                b.arena += cb_step(&b, b.sizes[s]) * (size_t)(b.warmup + b.iters);
    if (b.arena > CB_ARENA)
        b.arena = CB_ARENA;
    /* whole 64 KiB (never empty): runs that differ in a few iterations
     * get the same arenas, so their counters differ by those iterations */
    b.arena = (b.arena + 65536) & ~(size_t)65535;
    b.arena_out = cb_arena(b.arena);
    /* a broadcast and a barrier have no input: no arena of zeroed pages
     * (the kernel's stores) for it */
    b.arena_in = !strcmp(b.op, "bcast") || !strcmp(b.op, "barrier") ? b.arena_out
                                                                     : cb_arena(b.arena);
    if (!b.arena_in || !b.arena_out) {
        fprintf(stderr, "error: no memory for two buffers of %zu KiB\n", b.arena >> 10);
        return 1;
    }
#ifndef SCC_HOST
    /* a broadcast's one arena is its output */
    if (((b.mpbt & CB_MPBT_OUT) && scc_copy_mark_mpbt(b.arena_out, b.arena, 1)) ||
        ((b.mpbt & CB_MPBT_IN) && b.arena_in != b.arena_out &&
         scc_copy_mark_mpbt(b.arena_in, b.arena, 1))) {
        fprintf(stderr, "error: could not mark the arenas MPBT\n");
        return 1;
    }
#endif
    if (b.me == 0) {
        char what[80];
        snprintf(what, sizeof what, "%s latency, one row per (algorithm, parameters, size)",
                 b.op);
        bench_preamble(what);
        if (b.mpbt)
            printf("# mpbt: %s%s%s\n", b.mpbt & CB_MPBT_IN ? "in" : "",
                   b.mpbt == (CB_MPBT_IN | CB_MPBT_OUT) ? "," : "",
                   b.mpbt & CB_MPBT_OUT ? "out" : "");
        printf("# times: us of RCCE_wtime; a call's latency is from the root's call to the "
               "last member's return\n"
               "# min_us, median_us, max_us: of the iters latencies; t_min_us, t_avg_us, "
               "t_max_us: each member's call time averaged over the iters, least, mean and "
               "most over the members (IMB); root_us: the median of the root's own call "
               "times (its call to its return, as 002 timed P0)\n");
        printf("collective,algorithm,params,clock,cores,root,bytes,iters,min_us,median_us,"
               "max_us,mb_per_s,verified,warmup,t_min_us,t_avg_us,t_max_us,root_us\n");
    }
    for (int a = 0; a < b.nalgs; a++) {
        scc_coll_set(b.op, b.algs[a]);
        for (int s = 0; s < b.nsizes; s++)
            bad |= cb_measure(&b, b.algs[a], b.sizes[s]);
    }
    scc_coll_set(b.op, "auto");
    RCCE_finalize();
    return bad;
}
