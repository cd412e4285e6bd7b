/*
 * benchout.h - how every benchmark's CSV begins: `#` lines that say what
 * made the table and what its times are, so that the file alone is
 * enough to read a result and to make it again. Then comes one header
 * row, then the rows; a human summary, if any, goes to stderr.
 *
 *   # bcast_bench: bcast latency, one row per (algorithm, parameters, size)
 *   # command: bcast_bench.elf 48 0.533 0 1 ... --sizes 32:4K --iters 20
 *   # commit: 0123456789ab-dirty
 *   # mode: timing
 *   # clock: modeled
 *   # core_hz: 533000000
 *   # gtsc_hz: 125000000
 *   # mesh: 6x4 tiles, 2 cores a tile
 *   ...the app's own comment lines...
 *
 * Every line is "# key: value". command is the program's argv, quoted as
 * a POSIX shell would need it. commit is the build's (apps/commit.sh:
 * "-dirty" if tracked files differed from it, "unknown" outside git).
 * mode is how the program ran: timing (the machine's timing mode),
 * functional (the machine without it) or host (the host backend, a thread
 * per UE); clock is what its times are, as the rows' clock column says:
 * modeled (modeled SCC time, the same on every run), emulated (the
 * emulated chip's clock in functional mode: host speed, not SCC time) or
 * host (the host's monotonic clock). On the chip, core_hz and gtsc_hz
 * are the rates of the TSC and of the global timestamp counter (the
 * clock of RCCE_wtime), and stale_mpbt says whether the timing mode lets
 * MPBT hits return stale data.
 *
 * An RCCE program calls bench_keep_args before RCCE_init, which rewrites
 * argv; any other calls it before it prints.
 *
 * Region markers (docs/timing.md, "Counters of a region of interest"):
 * every benchmark takes --regions (the apps of key=value arguments also
 * take regions and regions=1; regions=0 is the default, off). With it,
 * each core wraps what it times in scc_stats_begin(NAME)/scc_stats_end(),
 * so that a run under `scc-run --timing --timing-stats F` gives counters
 * of just the measured part (rows region:NAME). Without it nothing is
 * called: the markers are system calls, and they would move the modeled
 * numbers a little (their own cycles, the kernel's lines in the caches).
 * bench_regions_arg takes the argument; bench_region_begin/_end (or the
 * BENCH_MARK_* statements below) go just outside the clock reads that
 * bound what is timed.
 */
#ifndef APPS_BENCHOUT_H
#define APPS_BENCHOUT_H

#include <stdio.h>
#include <string.h>

#include "scc_build.h"          /* SCC_BUILD_COMMIT, from apps/commit.sh */
#ifndef SCC_HOST
#include <scc/hw.h>
#include "scc.h"
#endif

/* Words kept of the command line: every word of any the kernel passes
 * (it keeps 4095 bytes, CMDLINE_MAX in kernel/defs.h: at most 2048
 * words); a longer one (the host's) ends in "..." */
#define BENCH_MAXARGS 2048

/* The host's UEs are threads of one process: each keeps its own. */
#ifdef SCC_HOST
#define BENCH_PER_UE __thread
#else
#define BENCH_PER_UE
#endif
static BENCH_PER_UE char *bench_argv[BENCH_MAXARGS];
static BENCH_PER_UE int bench_argc, bench_argc_all;

/* Of one size whatever the commit says, so that a new commit (or -dirty)
 * moves nothing else in the program's memory, and so none of what the
 * timing mode models of its caches. */
static const char bench_commit[32] = SCC_BUILD_COMMIT;

static inline void bench_keep_args(int argc, char **argv)
{
    bench_argc_all = argc;
    bench_argc = argc < BENCH_MAXARGS ? argc : BENCH_MAXARGS;
    memcpy(bench_argv, argv, sizeof(char *) * (size_t)bench_argc);
}

/* "modeled", "emulated" or "host": what the times are (the clock column). */
static inline const char *bench_clock(void)
{
#ifdef SCC_HOST
    return "host";
#else
    return scc_timing() & TIMING_ON ? "modeled" : "emulated";
#endif
}

/* "timing", "functional" or "host": how the program ran. */
static inline const char *bench_mode(void)
{
#ifdef SCC_HOST
    return "host";
#else
    return scc_timing() & TIMING_ON ? "timing" : "functional";
#endif
}

/* One word of the command line, quoted if a shell would need it. */
static inline void bench_put_word(FILE *f, const char *w)
{
    static const char plain[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
                                "0123456789_-+=.,:/@%";

    if (*w && strspn(w, plain) == strlen(w)) {
        fputs(w, f);
        return;
    }
    fputc('\'', f);
    for (; *w; w++) {
        if (*w == '\'')
            fputs("'\\''", f);
        else
            fputc(*w, f);
    }
    fputc('\'', f);
}

/* The program's name: argv[0] without its directory and ".elf". */
static inline void bench_put_name(FILE *f)
{
    const char *p = bench_argc ? bench_argv[0] : "benchmark", *slash = strrchr(p, '/');
    size_t n;

    p = slash ? slash + 1 : p;
    n = strlen(p);
    if (n > 4 && !strcmp(p + n - 4, ".elf"))
        n -= 4;
    fprintf(f, "%.*s", (int)n, p);
}

/* The comment lines above; `what` follows the program's name on the
 * first. Printed by the one UE that writes the CSV. */
static inline void bench_preamble(const char *what)
{
    printf("# ");
    bench_put_name(stdout);
    printf(": %s\n# command:", what);
    for (int i = 0; i < bench_argc; i++) {
        putchar(' ');
        bench_put_word(stdout, bench_argv[i]);
    }
    if (bench_argc < bench_argc_all)
        printf(" ...");
    printf("\n# commit: %.*s\n# mode: %s\n# clock: %s\n", (int)sizeof bench_commit,
           bench_commit, bench_mode(), bench_clock());
#ifndef SCC_HOST
    struct scc_info info;

    if (scc_info(&info) == 0)
        printf("# core_hz: %lu\n# gtsc_hz: %lu\n# mesh: %lux%lu tiles, %lu cores a tile\n",
               (unsigned long)info.core_hz, (unsigned long)info.gtsc_hz,
               (unsigned long)info.mesh_x, (unsigned long)info.mesh_y,
               (unsigned long)info.cores_per_tile);
    if (scc_timing() & TIMING_ON)
        printf("# stale_mpbt: %s\n", scc_timing() & TIMING_STALE ? "on" : "off");
#endif
}

/* --- region markers ------------------------------------------------------------ */

/* flags: bit 0 --regions given, bit 1 a region is open, bit 2 a refusal
 * was reported; name: the region BENCH_MARK_BEGIN opens; first: the
 * first iteration BENCH_MARK_BEGIN_FROM marks. On the chip a
 * common symbol, which the linker places after every other variable
 * (libscc/sys/app.ld: COMMON comes last in .bss), so that it moves none
 * of them: where a program's variables sit decides which of the timing
 * model's cache sets they use. */
struct bench_regions {
    int flags;
    const char *name;
    unsigned first;
};
#ifdef SCC_HOST
static __thread struct bench_regions bench_regions;
#else
struct bench_regions bench_regions __attribute__((common));
#endif
#define BENCH_REGIONS_ON 1
#define BENCH_REGIONS_OPEN 2
#define BENCH_REGIONS_WARNED 4

static inline int bench_regions_on(void)
{
    return bench_regions.flags & BENCH_REGIONS_ON;
}

/* Whether @a is the region option ("--regions", "regions", "regions=1"
 * turn the markers on, "regions=0" off); if so it is taken. */
static inline int bench_regions_arg(const char *a)
{
    if (!strcmp(a, "--regions") || !strcmp(a, "regions") || !strcmp(a, "regions=1"))
        bench_regions.flags |= BENCH_REGIONS_ON;
    else if (!strcmp(a, "regions=0"))
        bench_regions.flags &= ~BENCH_REGIONS_ON;
    else
        return 0;
    return 1;
}

/* Open region @name (1-31 printable characters, no comma; 8 names a core
 * at most) if --regions was given; say so once on stderr if the kernel
 * refuses it. Nothing on the host backend. */
static inline void bench_region_begin(const char *name)
{
#ifndef SCC_HOST
    if (!bench_regions_on())
        return;
    if (scc_stats_begin(name) == 0) {
        bench_regions.flags |= BENCH_REGIONS_OPEN;
    } else if (!(bench_regions.flags & BENCH_REGIONS_WARNED)) {
        bench_regions.flags |= BENCH_REGIONS_WARNED;
        fprintf(stderr, "benchmark: region '%s' refused (scc_stats_begin)\n", name);
    }
#else
    (void)name;
#endif
}

/* Close the region bench_region_begin opened, if it did. */
static inline void bench_region_end(void)
{
#ifndef SCC_HOST
    if (bench_regions.flags & BENCH_REGIONS_OPEN) {
        bench_regions.flags &= ~BENCH_REGIONS_OPEN;
        scc_stats_end();
    }
#endif
}

/* The region BENCH_MARK_BEGIN opens. */
static inline void bench_region_name(const char *name)
{
    bench_regions.name = name;
}

/* The first iteration BENCH_MARK_BEGIN_FROM marks (the warm-up's length). */
static inline void bench_region_from(unsigned first)
{
    bench_regions.first = first;
}

/*
 * Markers for the benchmarks whose timed loops predate them (a program
 * that defines BENCH_MARKS before including this). A test and branch in
 * C takes a register, and the compiler may then move the loop's other
 * instructions into the timed part (it put one more into ipi_latency's
 * send); each of these markers is one asm statement that tests the flag
 * itself and, only when it is set, saves every register around the
 * call, so that nothing is added between the clock reads.
 * BENCH_MARK_BEGIN() opens the region named by bench_region_name when
 * --regions was given, BENCH_MARK_BEGIN_FROM(i) only when also i >=
 * bench_region_from's first (unsigned: iteration i after the warm-up),
 * and BENCH_MARK_END() closes it if one is open. The operand i may be
 * anywhere the compiler keeps it (a register, a stack slot): the asm
 * reads it with a push, whose address is taken before the push moves
 * the stack pointer, and restores every register and the stack.
 * Without --regions each is a test and a branch where it stands, outside
 * the timed part: still code that takes modeled time, and the compiler
 * may lay the function's stack frame out differently around it
 * (docs/timing.md, "Region markers in the benchmarks", says what that
 * moved).
 */
#if defined(SCC_HOST) || !defined(BENCH_MARKS)
#define BENCH_MARK_BEGIN() ((void)0)
#define BENCH_MARK_BEGIN_FROM(i) ((void)0)
#define BENCH_MARK_END() ((void)0)
#else
__attribute__((used, noipa)) static void bench_mark_begin_(void)
{
    bench_region_begin(bench_regions.name);
}

__attribute__((used, noipa)) static void bench_mark_end_(void)
{
    bench_region_end();
}

#define BENCH_MARK_BEGIN()                                                          \
    __asm__ volatile("testb $1, bench_regions\n\t"                                  \
                     "jz 9f\n\t"                                                    \
                     "pushal\n\t"                                                   \
                     "call bench_mark_begin_\n\t"                                   \
                     "popal\n"                                                      \
                     "9:")
#define BENCH_MARK_BEGIN_FROM(i)                                                    \
    __asm__ volatile("testb $1, bench_regions\n\t"                                  \
                     "jz 9f\n\t"                                                    \
                     "pushl %0\n\t"                                                 \
                     "xchgl %%eax, (%%esp)\n\t"                                      \
                     "cmpl bench_regions+8, %%eax\n\t"                              \
                     "xchgl %%eax, (%%esp)\n\t"                                      \
                     "leal 4(%%esp), %%esp\n\t"                                      \
                     "jb 9f\n\t"                                                    \
                     "pushal\n\t"                                                   \
                     "call bench_mark_begin_\n\t"                                   \
                     "popal\n"                                                      \
                     "9:" : : "g"((unsigned)(i)))
#define BENCH_MARK_END()                                                            \
    __asm__ volatile("testb $2, bench_regions\n\t"                                  \
                     "jz 9f\n\t"                                                    \
                     "pushal\n\t"                                                   \
                     "call bench_mark_end_\n\t"                                     \
                     "popal\n"                                                      \
                     "9:")
#endif

#endif
