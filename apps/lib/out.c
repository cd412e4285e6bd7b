/*
 * out.c - the `#` lines above every benchmark's CSV (bench.h says what
 * they are).
 */
#include <stdio.h>
#include <string.h>

#include "bench.h"
#include "scc_build.h"          /* SCC_BUILD_COMMIT, from apps/commit.sh */
#ifndef SCC_HOST
#include <scc/hw.h>
#include "scc.h"
#endif

/* Words kept of the command line: every word of any the kernel passes
 * (it keeps 4095 bytes, CMDLINE_MAX in kernel/defs.h: at most 2048
 * words); a longer one (the host's) ends in "..." */
#define MAXARGS 2048

/* The host's UEs are threads of one process: each keeps its own. */
#ifdef SCC_HOST
#define PER_UE __thread
#else
#define PER_UE
#endif
static PER_UE char *kept_argv[MAXARGS];
static PER_UE int kept_argc, kept_argc_all;

/* Of one size whatever the commit says, so that a new commit (or -dirty)
 * moves nothing else in the program's memory, and so none of what the
 * timing mode models of its caches. */
static const char commit[32] = SCC_BUILD_COMMIT;

void bench_keep_args(int argc, char **argv)
{
    kept_argc_all = argc;
    kept_argc = argc < MAXARGS ? argc : MAXARGS;
    memcpy(kept_argv, argv, sizeof(char *) * (size_t)kept_argc);
}

const char *bench_clock(void)
{
#ifdef SCC_HOST
    return "host";
#else
    return scc_timing() & TIMING_ON ? "modeled" : "emulated";
#endif
}

const char *bench_mode(void)
{
#ifdef SCC_HOST
    return "host";
#else
    return scc_timing() & TIMING_ON ? "timing" : "functional";
#endif
}

/* One word of the command line, quoted if a shell would need it. */
static void put_word(FILE *f, const char *w)
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
static void put_name(FILE *f)
{
    const char *p = kept_argc ? kept_argv[0] : "benchmark", *slash = strrchr(p, '/');
    size_t n;

    p = slash ? slash + 1 : p;
    n = strlen(p);
    if (n > 4 && !strcmp(p + n - 4, ".elf"))
        n -= 4;
    fprintf(f, "%.*s", (int)n, p);
}

void bench_preamble(const char *what)
{
    printf("# ");
    put_name(stdout);
    printf(": %s\n# command:", what);
    for (int i = 0; i < kept_argc; i++) {
        putchar(' ');
        put_word(stdout, kept_argv[i]);
    }
    if (kept_argc < kept_argc_all)
        printf(" ...");
    printf("\n# commit: %.*s\n# mode: %s\n# clock: %s\n", (int)sizeof commit, commit,
           bench_mode(), bench_clock());
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
