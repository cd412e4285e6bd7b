/*
 * SCC timing mode, events: LINT pins, tile clock changes and the APIC
 * timer, in modeled time.
 * See scc-timing.c for the model.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "qemu/osdep.h"
#include "qemu/error-report.h"
#include "qemu/host-utils.h"
#include "qemu/cutils.h"
#include "qemu/log.h"
#include "qemu/main-loop.h"
#include "qapi/error.h"
#include "qapi/visitor.h"
#include "exec/cpu-common.h"
#include "hw/core/cpu.h"
#include "hw/i386/apic_internal.h"
#include "system/cpu-timers.h"
#include "system/cpus.h"
#include "system/system.h"
#include "system/tcg-timing.h"
#include "target/i386/cpu.h"
#include "hw/irq.h"
#include "hw/scc/scc.h"
#include "hw/scc/scc-timing.h"
#include "trace.h"
#include "scc-timing-internal.h"

/* --- events: LINT pins and the APIC timer ----------------------------- */

int64_t tm_next_event(SCCCore *c)
{
    SCCCoreTiming *k = tm_core_timing(c);
    int64_t t = k->apic_deadline >= 0 ? k->apic_deadline : NEVER;
    int i;

    for (i = 0; i < k->nev; i++) {
        t = MIN(t, k->ev[i].at);
    }
    return t;
}

/*
 * Lower the running core's limit to what core @o at @key could do: its
 * accesses arrive at @key + lookahead or later (see SCCCoreTiming.limit).
 */
void tm_limit_to(SCCMachineState *s, SCCCoreTiming *k, int o,
                 int64_t key)
{
    int64_t l = key == NEVER ? NEVER : key + s->tm->lookahead;

    if (l < k->limit) {
        k->limit = l;
        k->limit_core = o;
    } else if (l == k->limit) {
        k->limit_core = MIN(k->limit_core, o);
    }
}

/* The running core's slice ends after this instruction: @c's key changed. */
void tm_reschedule(SCCMachineState *s, SCCCore *c, int64_t key)
{
    SCCCore *r = tm_current_core();

    s->tm->keys_stale = true;
    if (r && r->tm && r->tm->running) {
        tm_limit_to(s, tm_core_timing(r), c - s->core, key);
        cpu_exit(r->cs);
    }
}

static void tm_add_event(SCCMachineState *s, SCCCore *c, int64_t at, int kind,
                         bool level, uint32_t mhz)
{
    SCCCoreTiming *k = tm_core_timing(c);
    int i;

    for (i = 0; i < k->nev; i++) {
        if (k->ev[i].kind == kind && k->ev[i].at == at) {
            break;
        }
    }
    if (i == SCC_TM_MAX_EVENTS) {
        i = SCC_TM_MAX_EVENTS - 1;  /* a pin toggled faster than it settles */
    }
    k->ev[i] = (SCCTimingEvent){ .at = at, .kind = kind, .level = level,
                                 .mhz = mhz,
                                 .late = scc_timing_now(s, c) > at };
    k->nev = MAX(k->nev, i + 1);
    s->events++;
    tm_reschedule(s, c, at);
}

void scc_timing_lint(SCCMachineState *s, SCCCore *c, int pin, bool level)
{
    tm_add_event(s, c, s->tm->io_arrival + s->tm->irq_ps, pin, level, 0);
}

/* A LINT pin of core @opaque, changed by a tile's GLCFG (its GPIO line). */
static void tm_lint_gate(void *opaque, int pin, int level)
{
    SCCCore *c = opaque;
    SCCCore *from = tm_current_core();

    if (from && from->tm->running) {
        /* a core's GLCFG write: the pin changes when it gets there */
        scc_timing_lint(c->scc, c, pin, level);
        return;
    }
    qemu_set_irq(c->scc->tm->lint_out[c->id][pin], level);
}

qemu_irq *scc_timing_lint_delay(SCCMachineState *s, SCCCore *c,
                                qemu_irq *pins)
{
    s->tm->lint_out[c->id][0] = pins[0];
    s->tm->lint_out[c->id][1] = pins[1];
    return qemu_allocate_irqs(tm_lint_gate, c, 2);
}

/*
 * A core's clock from @now on: a core cycle is 1/hz. What the core does
 * scales with it (instructions, the core-side overheads of its MPB, CRB
 * and SIF accesses, an L2 hit); the mesh (hops), DRAM (o_mem_r, o_mem_w)
 * and the pins do not. The TSC counts the core's own cycles across the
 * change. A spin it was parked in is measured again at the new rate.
 */
void tm_set_core_clock(SCCMachineState *s, SCCCore *c, uint64_t hz,
                       int64_t now)
{
    SCCCoreTiming *k = tm_core_timing(c);
    SCCTimingParams *p = &s->tp;
    int64_t ps = tm_period_ps(hz);

    if (k->core_ps) {
        k->tsc0 += (now - k->tsc_t0) / k->core_ps;
        tm_set_clock(s, c, now);
    }
    k->tsc_t0 = now;
    k->core_ps = ps;
    k->cpi_ps = ps * p->cpi_milli / 1000;
    k->mpb_ps = p->mpb_cycles * ps + s->tm->mpb_mesh_ps;
    k->crb_ps = p->crb_cycles * ps;
    k->sif_ps = p->sif_cycles * ps;
    k->l2_ps = p->l2_cycles * ps;
    k->poll_repeats = 0;
}

int64_t scc_timing_tsc(SCCMachineState *s, SCCCore *c)
{
    SCCCoreTiming *k = tm_core_timing(c);

    return k->tsc0 + (scc_timing_now(s, c) - k->tsc_t0) / k->core_ps;
}

/*
 * A GCBCFG write changed tile @tile's clock field to @mhz: its cores run
 * at the new clock from the write's arrival plus the pin latency (the
 * time a LINT change takes, so no core has run past it). Faster than
 * core-hz is refused: the scheduler's lookahead is the smallest cost at
 * core-hz, and a faster core could act sooner than it allows.
 */
void scc_timing_tile_clock(SCCMachineState *s, int tile, uint32_t mhz)
{
    int z;

    if (!mhz || (uint64_t)mhz * 1000000 > s->core_hz) {
        qemu_log_mask(LOG_GUEST_ERROR, "scc: tile %d: GCBCFG clock %u MHz: "
                      "the timing mode takes 1 MHz to core-hz (%" PRIu64
                      " Hz); the clock stays\n", tile, mhz, s->core_hz);
        return;
    }
    for (z = 0; z < s->cores_per_tile; z++) {
        tm_add_event(s, &s->core[tile * s->cores_per_tile + z],
                     s->tm->io_arrival + s->tm->irq_ps, SCC_TM_EV_CLOCK,
                     false, mhz);
    }
}

void scc_timing_release(SCCMachineState *s, SCCCore *c)
{
    SCCCore *from = tm_current_core();
    int64_t at = from && from->tm->running ? s->tm->io_arrival : 0;

    tm_set_state(s, c, SCC_TM_RUN);
    tm_set_clock(s, c, at);
    tm_reschedule(s, c, at);
}

/*
 * Whether @c's LINT0 was unmasked at @t, as the LVT writes said (masked
 * at reset; a core reset since, which masks it, may still count as
 * listening: that only keeps the core from running ahead).
 */
bool tm_listened(SCCCore *c, int64_t t)
{
    SCCCoreTiming *k = tm_core_timing(c);
    unsigned i;

    for (i = k->lint0_n; i > 0 && i + SCC_TM_LINT0_LOG > k->lint0_n; i--) {
        unsigned j = (i - 1) % SCC_TM_LINT0_LOG;

        if (k->lint0_at[j] <= t) {
            return k->lint0_on[j];
        }
    }
    return false;
}

/*
 * An event that reached @c in its past: @c did not listen then (see
 * SCCCoreTiming.listening), or a stall took it past its slice's end.
 * A LINT0 edge that met a masked LVT entry is lost, as on the chip; one
 * that did not is taken now, late. An NMI and a clock change cannot be
 * masked: they act now, late; a clock change at a core that did not
 * listen (which changes its modeled times) is reported.
 */
static bool tm_late_lost(SCCMachineState *s, SCCCore *c, SCCTimingEvent *e,
                         int64_t now)
{
    if (!e->late || tm_listened(c, e->at)) {
        return false;
    }
    trace_scc_timing_late_event(c->id, e->kind, e->at, now);
    if (e->kind == SCC_TM_EV_CLOCK) {
        warn_report("scc: timing: core %d: tile clock change %" PRId64
                    " cycles late: the core does not listen for interrupts "
                    "(LVT LINT0 masked) and had run past it", c->id,
                    (now - e->at) / tm_core_timing(c)->core_ps);
    }
    return e->kind == SCC_TM_EV_LINT0;
}

void tm_deliver(SCCMachineState *s, SCCCore *c)
{
    SCCCoreTiming *k = tm_core_timing(c);
    int64_t now = scc_timing_now(s, c);

    for (;;) {
        SCCTimingEvent e;
        int i, first = -1;

        /* in time order: late events may be due together */
        for (i = 0; i < k->nev; i++) {
            if (k->ev[i].at <= now &&
                (first < 0 || k->ev[i].at < k->ev[first].at)) {
                first = i;
            }
        }
        if (first < 0) {
            break;
        }
        e = k->ev[first];
        k->ev[first] = k->ev[--k->nev];
        tm_io_event(c);
        if (tm_late_lost(s, c, &e, now)) {
            continue;
        }
        if (e.kind == SCC_TM_EV_CLOCK) {
            tm_set_core_clock(s, c, e.mhz * 1000000ULL, now);
            continue;
        }
        k->n.interrupts++;
        qemu_set_irq(s->tm->lint_out[c->id][e.kind], e.level);
    }
    if (k->apic_deadline >= 0 && k->apic_deadline <= now) {
        APICCommonState *apic = APIC_COMMON(X86_CPU(c->cs)->apic_state);

        k->apic_deadline = -1;
        k->n.interrupts++;
        tm_io_event(c);
        apic_timer_expired(apic);       /* may arm the next period */
    }
}

static SCCCore *tm_core_of_apic(APICCommonState *a)
{
    return &tm_machine->core[CPU(a->cpu)->cpu_index];
}

static int64_t tm_apic_now(APICCommonState *a)
{
    return scc_timing_now(tm_machine, tm_core_of_apic(a)) / 1000;
}

static void tm_apic_arm(APICCommonState *a, int64_t when)
{
    SCCCore *c = tm_core_of_apic(a);

    tm_core_timing(c)->apic_deadline = when < 0 ? -1 : when * 1000;
    tm_machine->tm->keys_stale = true;
    if (when >= 0) {
        tm_reschedule(tm_machine, c, tm_core_timing(c)->apic_deadline);
    }
}

static bool tm_listening(SCCCore *c)
{
    APICCommonState *a = APIC_COMMON(X86_CPU(c->cs)->apic_state);

    return !(a->lvt[APIC_LVT_LINT0] & APIC_LVT_MASKED);
}

/*
 * A core that unmasks LINT0 stops right after: it may be far ahead of
 * the others, and from now on no interrupt may reach it in its past.
 * It waits until they catch up (its key is its clock); what they send
 * it for before now arrives late, to the masked pin (tm_late_lost).
 */
static void tm_apic_lvt_written(APICCommonState *a, int n)
{
    SCCCore *c = tm_core_of_apic(a);
    SCCCoreTiming *k = tm_core_timing(c);
    bool on = tm_listening(c);
    unsigned i = k->lint0_n % SCC_TM_LINT0_LOG;

    if (n != APIC_LVT_LINT0 || on == tm_listened(c, NEVER)) {
        return;
    }
    k->lint0_at[i] = scc_timing_now(tm_machine, c);
    k->lint0_on[i] = on;
    k->lint0_n++;
    if (k->running && !k->listening && on) {
        k->listening = true;
        cpu_exit(c->cs);
    }
}

const APICTimerOps tm_apic_ops = {
    .now = tm_apic_now,
    .arm = tm_apic_arm,
    .lvt_written = tm_apic_lvt_written,
};
