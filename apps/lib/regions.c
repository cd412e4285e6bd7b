/*
 * regions.c - the region markers of bench.h: counters of just the timed
 * part of a benchmark (docs/timing.md, "Counters of a region of
 * interest").
 */
#include <stdio.h>

#include "bench.h"
#ifndef SCC_HOST
#include "scc.h"
#endif

/* flags: bit 0 --regions given, bit 1 a region is open, bit 2 a refusal
 * was reported; name: the region BENCH_MARK_BEGIN opens; first: the
 * first iteration BENCH_MARK_BEGIN_FROM marks. The asm markers read
 * flags at +0 and first at +8. On the chip a common symbol, which the
 * linker places after every other variable (libscc/sys/app.ld: COMMON
 * comes last in .bss), so that it moves none of them: where a program's
 * variables sit decides which of the timing model's cache sets they
 * use. */
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
#define ON 1
#define OPEN 2
#define WARNED 4

int bench_regions_on(void)
{
    return bench_regions.flags & ON;
}

void bench_regions_set(int on)
{
    if (on)
        bench_regions.flags |= ON;
    else
        bench_regions.flags &= ~ON;
}

void bench_region_begin(const char *name)
{
#ifndef SCC_HOST
    if (!bench_regions_on())
        return;
    if (scc_stats_begin(name) == 0) {
        bench_regions.flags |= OPEN;
    } else if (!(bench_regions.flags & WARNED)) {
        bench_regions.flags |= WARNED;
        fprintf(stderr, "benchmark: region '%s' refused (scc_stats_begin)\n", name);
    }
#else
    (void)name;
#endif
}

void bench_region_end(void)
{
#ifndef SCC_HOST
    if (bench_regions.flags & OPEN) {
        bench_regions.flags &= ~OPEN;
        scc_stats_end();
    }
#endif
}

void bench_region_name(const char *name)
{
    bench_regions.name = name;
}

void bench_region_from(unsigned first)
{
    bench_regions.first = first;
}

#ifndef SCC_HOST
/* What the asm markers call, with every register saved around them. */
void bench_mark_begin_(void);
void bench_mark_end_(void);

__attribute__((used)) void bench_mark_begin_(void)
{
    bench_region_begin(bench_regions.name);
}

__attribute__((used)) void bench_mark_end_(void)
{
    bench_region_end();
}
#endif
