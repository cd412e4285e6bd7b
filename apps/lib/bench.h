/*
 * bench.h - the benchmark library (apps/lib/), built once and linked
 * into every benchmark in apps/: its options, its start-up, the `#`
 * lines above its CSV, its sizes and its region markers. One header of
 * prototypes, as libscc's are; apps/README.md says how a benchmark is
 * laid out.
 */
#ifndef APPS_LIB_BENCH_H
#define APPS_LIB_BENCH_H

#include <stddef.h>
#include <stdio.h>

/* --- options (opts.c) ------------------------------------------------------------
 *
 * A benchmark's options are one table, an X-macro with one
 * X(ID, "name", KIND) an option, KIND value (it takes one) or flag:
 *
 *   #define MY_OPTIONS(X)              \
 *       X(MY_SIZES, "sizes", value)    \
 *       X(MY_LIST, "list", flag)
 *   BENCH_OPTIONS(my, rcce, regions, MY_OPTIONS);
 *
 * INIT is rcce for a program that calls RCCE_init (it takes the RCCE words
 * NUES GHZ CORE... first, and --coll SPEC after them: libscc's
 * coll/core/override.c), else none. REGIONS is regions for a program that
 * takes the region markers' option (--regions, below), else none.
 *
 * It defines enum { MY_SIZES, MY_LIST, ... } and my_opts, the table the
 * parser reads; and it puts the same table into the ELF as a section of
 * its own, .scc_options, which the tools read without running the
 * program (tools/scc/bench/appopts.py: an experiment that names an option
 * the program does not take is refused before any point runs). The
 * section is a text, a line each: "scc-options 2", "init INIT", then
 * "KIND name" per option; a NUL ends it. It is not allocated (no
 * SHF_ALLOC): it costs the guest nothing and moves none of the program's
 * addresses.
 *
 * Every benchmark reads its options one way, each in any of these forms:
 *   --name value    --name=value    name=value      (a value)
 *   --name          name            --name=1, name=0 (a flag: on, off)
 * The first is the convention (the tools write it); the others keep the
 * scripts written for the programs that took key=value working. A word
 * that is none of these is positional (pingpong's SIZES BUDGET APIS);
 * a program without positional arguments refuses it.
 */
enum bench_kind { BENCH_KIND_value, BENCH_KIND_flag };

struct bench_opt {
    const char *name;
    enum bench_kind kind;
};

struct bench_optset {
    const struct bench_opt *opts;   /* ends with a NULL name */
    int regions;                    /* takes --regions */
};

#define BENCH_OPT_ID_(id, name, kind) id,
#define BENCH_OPT_ROW_(id, name, kind) {name, BENCH_KIND_##kind},
#define BENCH_OPT_LINE_(id, name, kind) #kind " " name "\\n"
#define BENCH_REGIONS_regions 1
#define BENCH_REGIONS_none 0
#define BENCH_REGIONS_LINE_regions "flag regions\\n"
#define BENCH_REGIONS_LINE_none ""

#define BENCH_OPTIONS(var, init, regions, LIST)                                       \
    enum { LIST(BENCH_OPT_ID_) var##_count_ };                                        \
    static const struct bench_opt var##_opt_rows[] = {LIST(BENCH_OPT_ROW_){NULL,      \
                                                                           0}};       \
    static const struct bench_optset var##_opts = {var##_opt_rows,                    \
                                                   BENCH_REGIONS_##regions};          \
    __asm__(".pushsection .scc_options,\"\",@progbits\n\t"                           \
            ".ascii \"scc-options 2\\ninit " #init "\\n" LIST(BENCH_OPT_LINE_)        \
                BENCH_REGIONS_LINE_##regions "\"\n\t.byte 0\n\t.popsection")

/* What bench_next returns besides an option's id. */
enum {
    BENCH_END = -1,         /* no words left */
    BENCH_POSITIONAL = -2,  /* *value is a word that names no option */
    BENCH_BAD = -3,         /* bench_why() says what is wrong */
};

struct bench_args {
    int argc, i;
    char **argv;
    const struct bench_optset *set;
};

/* Read argv[first..argc) by @set: each bench_next gives the next
 * option's id and its value (a flag's is "1" or "0"). The region option
 * is taken here, never returned. */
void bench_args(struct bench_args *a, int argc, char **argv, int first,
                const struct bench_optset *set);
int bench_next(struct bench_args *a, const char **value);
/* The word bench_next last read (for a message). */
const char *bench_word(const struct bench_args *a);
/* Why the last bench_next, size or count failed. */
const char *bench_why(void);
/* Set bench_why() to @fmt... and return -1. */
int bench_refuse(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* A whole number in lo..hi, decimal digits only, into *out: 0, or -1
 * (bench_why says why). */
int bench_count(const char *s, long lo, long hi, long *out);

/* --- sizes (sizes.c) ---------------------------------------------------------------
 *
 * A size is a decimal number with an optional K or M (binary): "4096",
 * "4K", "1M". Each program says the largest it takes (SIZE_LIMIT at
 * most); a larger one is refused, never wrapped (on the chip a long has
 * 32 bits). A list is sizes and ranges, "32,100,1K-1M,1:1M": lo-hi steps
 * by the program's factor from lo and always ends at hi; lo:hi doubles
 * from lo while it stays within hi, whatever the factor, as OSU's
 * benchmarks read -m lo:hi. After an error, size_why() says what was
 * wrong.
 */
#define SIZE_LIMIT 0x7fffffffL

const char *size_why(void);
/* One size in min..limit: 0, or -1. */
int size_parse(const char *s, long min, long limit, long *out);
/* The list @s into out[0..max), each in min..limit: how many, or -1. */
int size_list(const char *s, long *out, int max, long min, long limit, long factor);

/* --- start-up (start.c) --------------------------------------------------------------
 *
 * An RCCE benchmark's first call: keeps the command line for the
 * preamble (RCCE_init rewrites argv), then RCCE_init (and iRCCE_init if
 * @ircce). 0, or says why on stderr and returns 2, the exit status. */
int bench_rcce_start(int *argc, char ***argv, const char *prog, int ircce);

/* --- the CSV's `#` lines (out.c) ----------------------------------------------------
 *
 * Every benchmark's CSV begins with `#` lines that say what made the
 * table and what its times are, so that the file alone is enough to read
 * a result and to make it again; then one header row, then the rows:
 *
 *   # bcast_bench: bcast latency, one row per (algorithm, parameters, size)
 *   # command: bcast_bench.elf 48 0.533 0 1 ... --sizes 32:4K --iters 20
 *   # commit: 0123456789ab-dirty
 *   # mode: timing
 *   # clock: modeled
 *   # core_hz: 533000000
 *   # gtsc_hz: 125000000
 *   # mesh: 6x4 tiles, 2 cores a tile
 *   ...the program's own comment lines...
 *
 * command is the program's argv, quoted as a POSIX shell would need it.
 * commit is the build's (apps/commit.sh: "-dirty" if tracked files
 * differed from it). mode is how the program ran: timing (the machine's
 * timing mode), functional (the machine without it) or host (the host
 * backend, a thread per UE); clock is what its times are, as the rows'
 * clock column says: modeled (modeled SCC time, the same on every run),
 * emulated (the emulated chip's clock in functional mode: host speed, not
 * SCC time) or host (the host's monotonic clock). On the chip, core_hz
 * and gtsc_hz are the rates of the TSC and of the global timestamp
 * counter (RCCE_wtime's clock), and stale_mpbt whether the timing mode
 * lets MPBT hits return stale data.
 */
/* Keep the command line; before RCCE_init, or before printing. */
void bench_keep_args(int argc, char **argv);
/* The `#` lines, `what` after the program's name on the first. */
void bench_preamble(const char *what);
const char *bench_clock(void);      /* "modeled", "emulated" or "host" */
const char *bench_mode(void);       /* "timing", "functional" or "host" */

/* --- region markers (regions.c) ------------------------------------------------------
 *
 * docs/timing.md, "Counters of a region of interest": with --regions,
 * each core wraps what it times in scc_stats_begin(NAME)/scc_stats_end(),
 * so that a run under `scc-run --timing --timing-stats F` gives counters
 * of the measured part alone (rows region:NAME). Without it nothing is
 * called: the markers are system calls, which would move the modeled
 * numbers a little. bench_region_begin/_end (or the BENCH_MARK_*
 * statements below) go just outside the clock reads that bound what is
 * timed.
 */
int bench_regions_on(void);
void bench_regions_set(int on);
void bench_region_begin(const char *name);
void bench_region_end(void);
void bench_region_name(const char *name);   /* the region BENCH_MARK_BEGIN opens */
void bench_region_from(unsigned first);     /* the first iteration _FROM marks */

/*
 * Markers for timed loops where a C test and branch would change the
 * loop (it takes a register, and the compiler may then move other
 * instructions into the timed part): each is one asm statement that
 * tests the flag itself and, only when it is set, saves every register
 * around the call. BENCH_MARK_BEGIN() opens bench_region_name's region
 * when --regions was given, BENCH_MARK_BEGIN_FROM(i) only when also
 * i >= bench_region_from's first (unsigned), BENCH_MARK_END() closes it
 * if one is open. bench_regions is regions.c's state (flags first, then
 * the name, then first: the asm reads flags at +0 and first at +8).
 */
#ifdef SCC_HOST
#define BENCH_MARK_BEGIN() ((void)0)
#define BENCH_MARK_BEGIN_FROM(i) ((void)(i))
#define BENCH_MARK_END() ((void)0)
#else
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

/* A timed part kept out of main: its code then does not change with
 * main's (GCC allocates registers over a whole function, and a parser
 * change once moved modeled times by up to 9 % through main). */
#define BENCH_TIMED __attribute__((noinline))

#endif
