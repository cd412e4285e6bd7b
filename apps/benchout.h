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

#endif
