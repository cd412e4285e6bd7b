/*
 * Regions of interest for the timing mode's counters (tests/test_timing.py):
 * core 0 runs loops of known length inside named regions, and reads its
 * TSC at each edge so that the test can hold the region's cycles against
 * it. Prints "NAME calls N cycles C" for each region (C: TSC cycles from
 * just after begin to just before end, summed), then the refusals:
 * "bad name R", "nested R" (R: what the system call returned).
 */
#include <stdint.h>
#include <string.h>

#include "testlib.h"

static inline uint32_t tsc(void)
{
    uint32_t lo, hi;

    __asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi));
    return lo;
}

static void loop(unsigned n)
{
    for (volatile unsigned i = 0; i < n; i++)
        ;
}

static void region(const char *name, unsigned n, int calls)
{
    uint64_t cycles = 0;

    for (int i = 0; i < calls; i++) {
        MUST(scc_stats_begin(name));
        uint32_t t0 = tsc();
        loop(n);
        uint32_t t1 = tsc();
        MUST(scc_stats_end());
        cycles += t1 - t0;
    }
    printf("%s calls %d cycles %llu\n", name, calls, (unsigned long long)cycles);
}

int main(void)
{
    if (scc_core_id() != 0)
        return 0;
    loop(1000);                 /* outside every region */
    region("short", 2000, 3);
    region("long", 50000, 1);
    printf("bad name %d\n", scc_stats_begin("a,b"));
    MUST(scc_stats_begin("outer"));
    printf("nested %d\n", scc_stats_begin("inner"));
    MUST(scc_stats_end());
    return 0;
}
