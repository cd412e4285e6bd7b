/*
 * Copy throughput: the local copy methods against 1..8 copy cores
 * (docs/copy.md). Core 0 measures; the copy cores run apps/copy_core.elf
 * (coremaps/copy_bench.map: core 0 this program, cores 1-8 the service).
 *
 *   copy_bench [--cores 1,2,...] [--sizes 4K-16M] [--iters 3] [--local plain,...]
 *              [--remote auto,lut] [--regions]
 *   (or cores=1,2 sizes=4K ...: any form of apps/lib/bench.h)
 *
 * The copy cores are the map's: at the end every other running core gets
 * a STOP, so run it only with copy cores beside it.
 *
 * sizes: a list and ranges that grow by 4 ("4K-16M" = 4K,16K,...,16M),
 * or double ("4K:16M" = 4K,8K,...,16M, as OSU's lo:hi). For each size:
 * every local method, then for each remote method the copy split across
 * the first 1, 2, ... of the copy cores.
 *
 * CSV on stdout, after the `#` lines of apps/lib/bench.h:
 *   kind,method,copy_cores,clock,bytes,iters,min_us,median_us,mb_per_s,verified,
 *   warmup,avg_us,max_us
 *
 *   kind      local: scc_copy_local on core 0 (the MPBT methods include
 *             the system calls that mark and unmark the pages);
 *             cores: scc_copy_split, from core 0's first request to its
 *             last completion (messages included).
 *   clock     what the times are: emulated (the emulated chip's GTSC in
 *             functional mode: host time, not SCC time) or modeled (the
 *             machine's timing mode: modeled SCC time, the same on every
 *             run). Times are in microseconds of that clock.
 *   mb_per_s  bytes / median time (10^6 bytes per second).
 *   verified  1 if the destination equals the source after every
 *             iteration.
 *   warmup    iterations before the timed ones: none (each starts cold).
 *   min_us, median_us, avg_us, max_us: of the iters times.
 * Errors go to stderr.
 * --regions (apps/lib/bench.h): the timed copies
 * are the region copy on core 0, for scc-run --timing-stats.
 * Every iteration copies a fresh stretch of two 24 MiB arenas (001's
 * method: no cache holds a line of it yet); before each, core 0 clears
 * the destination (to verify it) and reads 512 KiB of another buffer, so
 * that its own 256 KiB L2 holds neither.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "scc_copy.h"

#define MAXN 48
#define MAXITERS 100

static int cores[MAXN], ncores;
static long sizes[64];
static int nsizes;
static const char *local_methods = "plain,mpbt_src,mpbt_dst,mpbt,lut";
static const char *remote_methods = "auto,lut";
static int iters = 3;
static double gtsc_mhz;

static const char *method_names[] = {"plain", "mpbt_src", "mpbt_dst", "mpbt", "lut", "auto"};

static int method_of(const char *name, size_t len)
{
    for (int i = 0; i < 6; i++)
        if (strlen(method_names[i]) == len && !strncmp(name, method_names[i], len))
            return i;
    return -1;
}

/* a range steps by 4; no copy is larger than SCC_COPY_MAX */
static int parse_sizes(const char *s)
{
    nsizes = size_list(s, sizes, 64, 1, (long)SCC_COPY_MAX, 4);
    return nsizes > 0 ? 0 : -1;
}

static int parse_cores(const char *s)
{
    char *end;
    ncores = 0;
    while (*s && ncores < MAXN) {
        long c = strtol(s, &end, 10);
        if (end == s || c <= 0 || c >= scc_num_cores())
            return -1;
        cores[ncores++] = (int)c;
        s = *end == ',' ? end + 1 : end;
        if (*end && *end != ',')
            return -1;
    }
    return ncores ? 0 : -1;
}

/* Reading more than the L2 holds leaves none of src and dst in it, so
 * every iteration starts as cold as the first. */
#define EVICT_BYTES (512u << 10)
static volatile unsigned char *evict_buf;

static void evict_caches(void)
{
    unsigned sum = 0;
    for (size_t i = 0; i < EVICT_BYTES; i += 32)
        sum += evict_buf[i];
    (void)sum;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static void row(const char *kind, const char *method, int n, long bytes, double *us,
                int verified)
{
    double sum = 0;
    qsort(us, (size_t)iters, sizeof(double), cmp_double);
    double median = iters % 2 ? us[iters / 2] : (us[iters / 2 - 1] + us[iters / 2]) / 2;
    for (int i = 0; i < iters; i++)
        sum += us[i];
    printf("%s,%s,%d,%s,%ld,%d,%.1f,%.1f,%.2f,%d,0,%.1f,%.1f\n", kind, method, n, bench_clock(),
           bytes, iters, us[0], median, median > 0 ? bytes / median : 0.0, verified,
           sum / iters, us[iters - 1]);
}

/* The buffers: an arena each for sources and destinations. Every
 * iteration takes the next stretch of them (001's method), so no cache,
 * neither core 0's nor a copy core's, holds a line of it from before. */
static unsigned char *src_arena, *dst_arena;
static size_t arena, next_off;

static size_t fresh_offset(long bytes)
{
    if (next_off + (size_t)bytes > arena)
        next_off = 0;
    size_t off = next_off;
    next_off += ((size_t)bytes + 4095) & ~(size_t)4095;
    return off;
}

/* kind local: n = 0; kind cores: n copy cores. */
BENCH_TIMED static void measure(const char *kind, int method, int n, long bytes)
{
    double us[MAXITERS];
    int bad = 0, verified = 1;

    for (int i = 0; i < iters; i++) {
        size_t off = fresh_offset(bytes);
        unsigned char *dst = dst_arena + off, *src = src_arena + off;
        memset(dst, 0, (size_t)bytes);
        evict_caches();
        BENCH_MARK_BEGIN();
        uint64_t t0 = scc_gtsc();
        int r = n ? scc_copy_split(cores, n, dst, src, (size_t)bytes, method)
                  : scc_copy_local(dst, src, (size_t)bytes, method);
        uint64_t t1 = scc_gtsc();
        BENCH_MARK_END();
        if (r) {
            fprintf(stderr, "copy_bench: %s %s %d cores %ld bytes: error %d\n", kind,
                    method_names[method], n, bytes, r);
            bad = 1;
        }
        us[i] = (double)(t1 - t0) / gtsc_mhz;
        verified &= !memcmp(dst, src, (size_t)bytes);
    }
    row(kind, method_names[method], n, bytes, us, !bad && verified);
}

static int usage(const char *why)
{
    fprintf(stderr, "copy_bench: %s\nusage: copy_bench [--cores 1,2,...] "
            "[--sizes 4K-16M|4K:16M] [--iters N] [--local plain,mpbt_src,mpbt_dst,mpbt,lut] "
            "[--remote auto,lut,...] [--regions]\n", why);
    return 2;
}

/* The arguments (apps/lib/bench.h), and the region option. */
#define CB_OPTIONS(X)               \
    X(CB_CORES, "cores", value)     \
    X(CB_SIZES, "sizes", value)     \
    X(CB_ITERS, "iters", value)     \
    X(CB_LOCAL, "local", value)     \
    X(CB_REMOTE, "remote", value)
BENCH_OPTIONS(cb, none, regions, CB_OPTIONS);

/* The arguments into the globals above: 0, or 2 after saying why. */
static int cb_options(int argc, char **argv)
{
    struct bench_args args;
    const char *v;
    long x;
    int k;

    bench_args(&args, argc, argv, 1, &cb_opts);
    while ((k = bench_next(&args, &v)) != BENCH_END) {
        switch (k) {
        case BENCH_BAD:
            return usage(bench_why());
        case BENCH_POSITIONAL:
            return usage("unknown argument");
        case CB_CORES:
            if (parse_cores(v))
                return usage("bad --cores");
            break;
        case CB_SIZES:
            if (parse_sizes(v))
                return usage(size_why());
            break;
        case CB_ITERS:
            if (bench_count(v, 1, MAXITERS, &x))
                return usage("--iters must be 1-100");
            iters = (int)x;
            break;
        case CB_LOCAL:
            local_methods = v;
            break;
        case CB_REMOTE:
            remote_methods = v;
            break;
        }
    }
    return 0;
}

int main(int argc, char **argv)
{
    struct scc_time t;

    bench_keep_args(argc, argv);
    bench_region_name("copy");
    if (scc_core_id() != 0)
        return usage("run it on core 0 (the copy cores run copy_core.elf)");
    parse_sizes("4K-16M");
    parse_cores("1,2,3,4,5,6,7,8");
    if (cb_options(argc, argv))
        return 2;
    scc_time(&t);
    gtsc_mhz = t.gtsc_hz / 1e6;

    long max = 0;
    for (int i = 0; i < nsizes; i++)
        max = sizes[i] > max ? sizes[i] : max;
    /* As large as private memory allows, from 24 MiB down to the
     * largest size. */
    evict_buf = scc_mmap(EVICT_BYTES);
    for (arena = 24u << 20; arena >= (size_t)max; arena -= 4u << 20) {
        src_arena = scc_mmap(arena);
        dst_arena = src_arena ? scc_mmap(arena) : NULL;
        if (dst_arena)
            break;
        if (src_arena)
            scc_munmap(src_arena, arena);
        if (arena < (4u << 20))
            break;
    }
    if (!evict_buf || !src_arena || !dst_arena)
        return usage("no memory for the buffers (sizes too large for private memory?)");
    for (size_t i = 0; i < arena; i++)
        src_arena[i] = (unsigned char)(i * 131 + (i >> 9));

    char what[240];
    int len = snprintf(what, sizeof what, "core 0 copies; copy cores");
    for (int i = 0; i < ncores && len < (int)sizeof what; i++)
        len += snprintf(what + len, sizeof what - (size_t)len, " %d", cores[i]);
    bench_preamble(what);
    printf("# times: us of the %s clock (GTSC, %u Hz)\n", bench_clock(), (unsigned)t.gtsc_hz);
    printf("kind,method,copy_cores,clock,bytes,iters,min_us,median_us,mb_per_s,verified,"
           "warmup,avg_us,max_us\n");
    for (int s = 0; s < nsizes; s++) {
        for (const char *m = local_methods; *m;) {
            size_t len = strcspn(m, ",");
            int method = method_of(m, len);
            if (method < 0 || method == SCC_COPY_AUTO)
                return usage("bad --local method");
            measure("local", method, 0, sizes[s]);
            m += len + (m[len] == ',');
        }
        for (const char *m = remote_methods; *m;) {
            size_t len = strcspn(m, ",");
            int method = method_of(m, len);
            if (method < 0)
                return usage("bad --remote method");
            for (int n = 1; n <= ncores; n++)
                measure("cores", method, n, sizes[s]);
            m += len + (m[len] == ',');
        }
    }
    /* Every copy core of the map, also those cores= left out. */
    for (int c = 1; c < scc_num_cores(); c++)
        if (scc_core_state(c) == CORE_STATE_RUNNING)
            scc_copy_stop(c);
    return 0;
}
