/*
 * LAPIC timer rate against the GTSC. With hz=H (H > 0) the app sets the
 * rate itself with SYS_tick; with hz=0 (default) it keeps the kernel's
 * tick= option. It then sleeps in scc_halt() for secs=S seconds of GTSC
 * (default 1) and prints the tick count and the GTSC time that passed:
 *
 *   ticks DTICKS gtsc DGTSC gtsc_hz HZ
 *
 * tests/test_kernel.py computes the rate and compares it with the
 * configured one.
 */
#include <stdint.h>

#include "testlib.h"

int main(int argc, char **argv)
{
    long hz = arg_long(argc, argv, "hz", 0);
    long secs = arg_long(argc, argv, "secs", 1);
    struct scc_info info;
    struct scc_kstat k0, k1;
    MUST(scc_info(&info));
    if (hz > 0)
        MUST(scc_tick(hz));
    /* Start on a tick boundary: wait for one tick first, without halting
     * (with no timer running, a halt would never end). */
    MUST(scc_kstat(&k0));
    uint64_t limit = scc_gtsc() + (uint64_t)info.gtsc_hz * 2;
    do {
        MUST(scc_kstat(&k1));
    } while (k1.ticks == k0.ticks && scc_gtsc() < limit);
    CHECK(k1.ticks != k0.ticks, "no tick within 2 s");

    MUST(scc_kstat(&k0));
    uint64_t g0 = scc_gtsc();
    uint64_t end = g0 + (uint64_t)info.gtsc_hz * secs;
    while (scc_gtsc() < end)
        scc_halt();
    MUST(scc_kstat(&k1));
    uint64_t g1 = scc_gtsc();
    if (hz > 0)
        MUST(scc_tick(0));
    printf("ticks %lu gtsc %llu gtsc_hz %lu\n", (unsigned long)(k1.ticks - k0.ticks),
           (unsigned long long)(g1 - g0), (unsigned long)info.gtsc_hz);
    return 0;
}
