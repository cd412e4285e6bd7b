/*
 * SCC: the one clock source behind RDTSC, the GTSC and the APIC timer.
 *
 * Functional mode: every clock is QEMU's virtual clock scaled to the SCC's
 * rates, counted from machine reset. Timing mode: the reading core's
 * modeled clock (scc-timing.c); the GTSC at the time the read reaches the
 * system interface. Nothing else reads time.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "qemu/osdep.h"
#include "qemu/host-utils.h"
#include "qemu/timer.h"
#include "hw/scc/scc.h"

static uint64_t scc_clock_ns(SCCMachineState *s)
{
    return qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL) - s->clock_base_ns;
}

void scc_clock_reset(SCCMachineState *s)
{
    s->clock_base_ns = qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL);
}

uint64_t scc_clock_core_cycles(SCCMachineState *s, SCCCore *c)
{
    if (s->timing_hooks) {
        return s->timing_hooks->tsc(s, c);
    }
    return muldiv64(scc_clock_ns(s), s->core_hz, NANOSECONDS_PER_SECOND);
}

uint64_t scc_clock_gtsc(SCCMachineState *s)
{
    if (s->timing_hooks) {
        return muldiv64(s->timing_hooks->io_time(s) / 1000, s->gtsc_hz,
                        NANOSECONDS_PER_SECOND);
    }
    return muldiv64(scc_clock_ns(s), s->gtsc_hz, NANOSECONDS_PER_SECOND);
}
