/*
 * SCC timing mode (timing=on): modeled SCC time, deterministic.
 *
 * Every core has a clock in picoseconds: its instructions at a calibrated
 * average cost (cpi), plus the stalls of its mesh transactions. Private
 * memory is part of that average (it is RAM to QEMU: timing each access
 * would cost far more host time than the 3x budget of the mode). What
 * goes over the mesh is timed one by one: MPB lines (the MPB is an I/O
 * region in this mode), CRB registers (GLCFG, T&S, LUTs) and the system
 * interface (GTSC, console). A transaction issued at t by a core d routers
 * away (d = Manhattan distance + 1, the paper's d) arrives at
 * t + overhead + d * hop, waits if the MPB's port is busy, and its reply
 * or acknowledgement is back d * hop later; the core stalls until then
 * (the P54C has one transaction outstanding). This is 001's model
 * (Table 1): an MPB line read or write costs o_mpb + 2 d L_hop.
 *
 * MPBT reads hit a per-core L1 model (8 KiB, 2-way, 32-byte lines, MPBT
 * lines only) until CL1INVMB; MPBT writes collect in a one-line WCB that
 * goes out when a write goes to another line or the line is full.
 *
 * Scheduling is conservative and sequential (single-threaded TCG): the
 * core with the smallest (key, id) runs, where key is its clock, or when
 * a blocked access may proceed, or its next event. An access that would
 * arrive later than the next core's key plus the lookahead (the smallest
 * latency with which any action reaches another core) restarts once the
 * others have caught up; at that limit exactly, the lower core id goes
 * first. So the mesh takes accesses in the order of their arrival, equal
 * arrivals by core id, wherever the runs end. A core that listens for
 * interrupts (LVT LINT0 unmasked) runs with an exact instruction budget up
 * to the earliest time another core's interrupt could reach it (the limit
 * plus the pin's latency); one that does not runs to its next event or to
 * an access that must wait. Interrupts arrive at sender time plus latency,
 * and every decision is a function of modeled state: runs are identical
 * on any host.
 *
 * A core that re-reads one MPB location in a strictly periodic loop with
 * nothing else timed in between is spinning: it is parked and its clock
 * later jumps by whole iterations to the first read that can see a write
 * to that line (or to an interrupt), so polling costs no host time.
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
#include "hw/scc/scc.h"
#include "hw/scc/scc-timing.h"
#include "trace.h"

#define PS_PER_S        1000000000000LL
#define NEVER           INT64_MAX
/* instructions; a core alone stops now and then */
#define MAX_BUDGET      100000000
/* identical periodic reads before parking */
#define POLL_REPEATS    3

enum { DIR_E, DIR_S, DIR_W, DIR_N };

static SCCMachineState *tm_machine;

/* One cycle of a clock of @hz, in ps (rounded). */
static int64_t tm_period_ps(uint64_t hz)
{
    return (PS_PER_S + hz / 2) / hz;
}

static inline SCCCoreTiming *tm_core_timing(SCCCore *c)
{
    return c->tm;
}

/* The core's write-combine buffer: its line's bytes are in the CPU state
 * (TCGTimingWCB), where the target's store helper merges into it. */
static inline TCGTimingWCB *tm_core_wcb(SCCCore *c)
{
    return &cpu_env(c->cs)->timing_wcb;
}

/* scc_current_core(), inline for the MPB's millions of accesses */
static inline SCCCore *tm_current_core(void)
{
    return current_cpu && current_cpu->cpu_index < tm_machine->ncores ?
           &tm_machine->core[current_cpu->cpu_index] : NULL;
}

static bool tm_in_run(SCCCore *c)
{
    return c->tm->running && current_cpu == c->cs;
}

/* Every change of a core's state comes here: see SCCTiming.line_pollers. */
static void tm_set_state(SCCMachineState *s, SCCCore *c, int state)
{
    SCCCoreTiming *k = tm_core_timing(c);
    uint64_t bit = 1ull << c->id;

    if (k->state == SCC_TM_POLL) {
        s->tm->line_pollers[k->poll_line] &= ~bit;
    }
    if (state == SCC_TM_POLL) {
        s->tm->line_pollers[k->poll_line] |= bit;
    }
    k->state = state;
}

static int64_t tm_insns(SCCCore *c)
{
    SCCCoreTiming *k = tm_core_timing(c);

    return k->insns +
           (tm_in_run(c) ? tcg_timing_executed(c->cs, k->budget) : 0);
}

int64_t scc_timing_now(SCCMachineState *s, SCCCore *c)
{
    SCCCoreTiming *k = tm_core_timing(c);

    return k->t0 + (tm_insns(c) - k->insn0) * k->cpi_ps;
}

/*
 * Set the core's clock to @t now (a stall, or a jump while it waited).
 * The budget counts instructions, not stalls: a stall that takes a core
 * that listens past its run's end ends the run after this translation
 * block, so an interrupt due meanwhile is taken at most a block late.
 */
static void tm_set_clock(SCCMachineState *s, SCCCore *c, int64_t t)
{
    SCCCoreTiming *k = tm_core_timing(c);

    k->insn0 = tm_insns(c);
    k->t0 = t;
    if (k->running && k->listening && t > k->end) {
        cpu_exit(c->cs);
    }
}

static int tm_hops(SCCMachineState *s, int from, int to)
{
    SCCTile *a = &s->tile[from], *b = &s->tile[to];

    return abs(a->x - b->x) + abs(a->y - b->y) + 1;
}

/* Count one packet on every link of the XY route. */
static void tm_route(SCCMachineState *s, int from, int to)
{
    int x = s->tile[from].x, y = s->tile[from].y;
    int tx = s->tile[to].x, ty = s->tile[to].y;

    while (x != tx) {
        s->tm->link[y * s->mesh_x + x][x < tx ? DIR_E : DIR_W]++;
        x += x < tx ? 1 : -1;
    }
    while (y != ty) {
        s->tm->link[y * s->mesh_x + x][y < ty ? DIR_S : DIR_N]++;
        y += y < ty ? 1 : -1;
    }
}

/*
 * Catch up with what the target's helpers did on their own: the MPB L1
 * hits (TCGTimingMPBHits) and the stores merged into the WCB
 * (TCGTimingWCB), each a timed event. Count the hits, and leave the spin
 * detection as tm_spin_check would have for the last, a read at a new
 * key: no repeat, no loop state. Its time and instruction matter only to
 * tell it from a read of the same instruction, which can only follow in
 * the same TB execution: the clock has not moved since then.
 */
static void tm_catch_up(SCCCore *c)
{
    SCCCoreTiming *k = tm_core_timing(c);
    TCGTimingMPBHits *m = &cpu_env(c->cs)->timing_mpb;
    TCGTimingWCB *w = tm_core_wcb(c);

    if (m->unsynced) {
        m->unsynced = false;
        k->n.l1_mpbt_hits += m->hits;
        m->hits = 0;
        k->poll_addr = m->poll_key;
        k->poll_val = m->val;
        k->poll_state = 0;
        k->poll_repeats = 0;
        k->poll_seq = k->io_seq + m->events_at_hit;
        if (tm_in_run(c) && m->mark == tcg_timing_mark(c->cs)) {
            k->poll_t = scc_timing_now(tm_machine, c);
            k->poll_insn = tm_insns(c);
        } else {
            k->poll_insn = -1;
        }
    }
    k->io_seq += w->events;
    w->events = 0;
    m->events_at_hit = 0;
}

/* A timed event that is not an MPB read: the next read is no repeat. */
static void tm_io_event(SCCCore *c)
{
    tm_catch_up(c);
    tm_core_timing(c)->io_seq++;
}

/*
 * The current access must wait until every other core has caught up with
 * its arrival: undo it (the instruction restarts from scratch later).
 */
static G_NORETURN void tm_restart(SCCMachineState *s, SCCCore *c)
{
    CPUState *cs = c->cs;
    SCCCoreTiming *k = tm_core_timing(c);
    TCGTimingMPBHits *m = &cpu_env(cs)->timing_mpb;

    tm_catch_up(c);
    k->shared_seen = 0;             /* the instruction starts again */
    if (k->hit_insn == tm_insns(c)) {
        k->hits_pending = 0;        /* the instruction is done again later */
    }
    if (m->mark == tcg_timing_mark(cs)) {
        k->n.l1_mpbt_hits -= m->mark_hits;      /* the same, for those */
    }
    m->mark = -1;
    s->tm->blocks++;
    cs->exception_index = EXCP_YIELD;
    cpu_loop_exit_restore(cs, cs->mem_io_pc);
}

static bool tm_can_restart(SCCCore *c)
{
    return tm_in_run(c) && c->cs->mem_io_pc;
}

/* When a transaction of the current core to @tile would arrive there. */
static int64_t tm_arrival(SCCMachineState *s, SCCCore *c, int tile,
                          int64_t overhead)
{
    return scc_timing_now(s, c) + overhead +
           tm_hops(s, c->tile, tile) * s->tm->hop_ps;
}

/*
 * An access arriving at @a must wait until no other core can act before
 * it: undo it, to be restarted once the others have caught up.
 */
static void tm_check_arrival(SCCMachineState *s, SCCCore *c, int64_t a)
{
    SCCCoreTiming *k = tm_core_timing(c);

    /*
     * At the limit itself, another core's access could arrive at the same
     * time: the lower core id goes first. Whatever order the cores ran
     * in, equal arrivals are then taken in one order.
     */
    if ((a > k->limit || (a == k->limit && c - s->core > k->limit_core)) &&
        tm_can_restart(c)) {
        trace_scc_timing_block(c->id, a, k->limit, k->limit_core);
        tm_set_state(s, c, SCC_TM_BLOCKED);
        k->blocked_arrival = a;
        tm_restart(s, c);
    }
}

/*
 * One mesh transaction of the current core to @tile with @overhead:
 * returns the time it takes effect there; the core's clock moves to when
 * the reply (or acknowledgement) is back.
 */
static int64_t tm_transact(SCCMachineState *s, SCCCore *c, int tile,
                           int64_t overhead, bool mpb, uint64_t *stall)
{
    SCCTiming *tm = s->tm;
    int64_t t = scc_timing_now(s, c);
    int d = tm_hops(s, c->tile, tile);
    int64_t a = tm_arrival(s, c, tile, overhead);
    int64_t start = a;

    tm_check_arrival(s, c, a);
    if (mpb) {
        start = MAX(a, tm->port_busy[tile]);
        tm->port_busy[tile] = start + s->tp.mpb_service_ps;
        tm_core_timing(c)->n.stall_contention += start - a;
    }
    tm_route(s, c->tile, tile);
    tm_route(s, tile, c->tile);
    *stall += start + d * tm->hop_ps - t;
    tm_set_clock(s, c, start + d * tm->hop_ps);
    return start;
}

/* --- events: LINT pins and the APIC timer ----------------------------- */

static int64_t tm_next_event(SCCCore *c)
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
static void tm_limit_to(SCCMachineState *s, SCCCoreTiming *k, int o,
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
static void tm_reschedule(SCCMachineState *s, SCCCore *c, int64_t key)
{
    SCCCore *r = scc_current_core();

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

/*
 * A core's clock from @now on: a core cycle is 1/hz. What the core does
 * scales with it (instructions, the core-side overheads of its MPB, CRB
 * and SIF accesses, an L2 hit); the mesh (hops), DRAM (o_mem_r, o_mem_w)
 * and the pins do not. The TSC counts the core's own cycles across the
 * change. A spin it was parked in is measured again at the new rate.
 */
static void tm_set_core_clock(SCCMachineState *s, SCCCore *c, uint64_t hz,
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
    k->mpb_ps = p->mpb_cycles * ps;
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
    SCCCore *from = scc_current_core();
    int64_t at = from && from->tm->running ? s->tm->io_arrival : 0;

    tm_set_state(s, c, SCC_TM_RUN);
    tm_core_timing(c)->t0 = at;
    tm_core_timing(c)->insn0 = tm_core_timing(c)->insns;
    tm_reschedule(s, c, at);
}

/*
 * Whether @c's LINT0 was unmasked at @t, as the LVT writes said (masked
 * at reset; a core reset since, which masks it, may still count as
 * listening: that only keeps the core from running ahead).
 */
static bool tm_listened(SCCCore *c, int64_t t)
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

static void tm_deliver(SCCMachineState *s, SCCCore *c)
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
        scc_core_set_lint(c, e.kind, e.level);
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

static const APICTimerOps tm_apic_ops = {
    .now = tm_apic_now,
    .arm = tm_apic_arm,
    .lvt_written = tm_apic_lvt_written,
};

/* --- spinning cores ----------------------------------------------------- */

/* Jump a parked core's clock by whole iterations to the first read at or
 * after @t (a write's arrival or an event), and let it run. */
static void tm_unpark(SCCMachineState *s, SCCCore *c, int64_t t)
{
    SCCCoreTiming *k = tm_core_timing(c);
    int64_t first = k->poll_t + k->poll_rlat, n = 0;

    if (t > first) {
        n = (t - first + k->poll_dt - 1) / k->poll_dt;
    }
    trace_scc_timing_unpark(c->id, t, n);
    tm_set_state(s, c, SCC_TM_RUN);
    k->n.poll_instructions += n * k->poll_dinsn;
    k->t0 = k->poll_t + n * k->poll_dt - k->cpi_ps;
    k->insn0 = k->insns;
    k->poll_repeats = 0;
}

static void tm_wake_pollers(SCCMachineState *s, uint32_t line, int64_t t)
{
    uint64_t pollers = s->tm->line_pollers[line];

    while (pollers) {
        SCCCore *c = &s->core[ctz64(pollers)];

        pollers &= pollers - 1;
        tm_unpark(s, c, t);
        tm_reschedule(s, c, scc_timing_now(s, c));
    }
}

/*
 * A hash of what the core's loop could depend on: its registers, the EIP
 * of the read, and the RAM it wrote since its previous MPB read (address
 * and the value there now). Equal hashes at two reads of the same value
 * mean the iteration in between changed nothing: the next one is the same.
 */
static uint64_t tm_loop_state(SCCCore *c)
{
    CPUX86State *env = cpu_env(c->cs);
    TCGTimingStoreLog *log = &env->timing_log;
    uint64_t h = 1469598103934665603ull;
    uint64_t data[1 + TARGET_INSN_START_EXTRA_WORDS];
    int i;

    if (!tm_machine->tp.dram && !(env->hflags & HF_CPL_MASK)) {
        /*
         * timing-dram=off: stores are not seen. A user program's polling
         * loop keeps its state in registers (libscc's do); the kernel's
         * paths from one system call to the next do not look different
         * in registers at all.
         */
        return 0;
    }
#define MIX(v) (h = (h ^ (uint64_t)(v)) * 1099511628211ull)
    for (i = 0; i < 8; i++) {
        MIX(env->regs[i]);
    }
    if (c->cs->mem_io_pc && cpu_unwind_state_data(c->cs, c->cs->mem_io_pc,
                                                  data)) {
        MIX(data[0]);
    }
    if (log->n < 0) {
        log->n = 0;
        return 0;               /* too many stores: never a fixed point */
    }
    for (i = 0; i < log->n; i++) {
        uint32_t v = 0;

        address_space_read(c->cs->as, log->addr[i], MEMTXATTRS_UNSPECIFIED,
                           &v, log->size[i] > 4 ? 4 : log->size[i]);
        MIX(log->addr[i]);
        MIX(v);
    }
    log->n = 0;
    return h | 1;
#undef MIX
}

/*
 * A read of @val at @key by the current core at @t: park it if it has
 * read the same there, periodically, in a loop whose iterations change
 * nothing (tm_loop_state), with nothing else timed in between.
 */
static void tm_spin_check(SCCMachineState *s, SCCCore *c, uint32_t key,
                          uint64_t val, uint32_t line, int64_t rlat)
{
    SCCCoreTiming *k = tm_core_timing(c);
    int64_t t = scc_timing_now(s, c), insn = tm_insns(c);
    uint64_t state;

    tm_catch_up(c);
    if (t == k->poll_t && insn == k->poll_insn && key == k->poll_addr) {
        return;     /* the same read again, restarted: already counted */
    }
    if (key == k->poll_addr && val == k->poll_val &&
        k->io_seq == k->poll_seq) {
        state = tm_loop_state(c);       /* only for a candidate: it costs */
    } else {
        state = 0;
        cpu_env(c->cs)->timing_log.n = 0;
    }
    if (state && state == k->poll_state) {
        int64_t dt = t - k->poll_t, di = insn - k->poll_insn;

        if (k->poll_repeats && dt == k->poll_dt && di == k->poll_dinsn) {
            k->poll_repeats++;
        } else {
            k->poll_repeats = 1;
            k->poll_dt = dt;
            k->poll_dinsn = di;
        }
    } else {
        k->poll_repeats = 0;
    }
    k->poll_addr = key;
    cpu_env(c->cs)->timing_mpb.poll_key = key;
    k->poll_val = val;
    k->poll_state = state;
    k->poll_t = t;
    k->poll_insn = insn;
    if (k->poll_repeats >= POLL_REPEATS && k->poll_dt > 0 &&
        tm_can_restart(c)) {
        trace_scc_timing_park(c->id, line / SCC_MPB_LINES,
                              (line % SCC_MPB_LINES) * SCC_LINE, t,
                              k->poll_dt, k->poll_dinsn);
        k->poll_line = line;
        tm_set_state(s, c, SCC_TM_POLL);
        k->poll_rlat = rlat;
        k->n.poll_skips++;
        tm_restart(s, c);
    }
}

/* --- the MPB ------------------------------------------------------------ */

static uint8_t *tm_mpb_ram(SCCMachineState *s, uint32_t line)
{
    SCCTile *t = &s->tile[line / SCC_MPB_LINES];

    return t->mpb_host + (line % SCC_MPB_LINES) * SCC_LINE;
}

static int tm_l1_way(SCCCoreTiming *k, uint32_t line)
{
    int set = line % SCC_L1_SETS, w;

    for (w = 0; w < SCC_L1_WAYS; w++) {
        if (k->l1_tag[set][w] == line + 1) {
            return w;
        }
    }
    return -1;
}

static void tm_stale_report(SCCMachineState *s, SCCCore *c, uint32_t line,
                            int way)
{
    SCCTiming *tm = s->tm;
    uint64_t bit = (uint64_t)c->id * s->ntiles * SCC_MPB_LINES + line;
    int set = line % SCC_L1_SETS;

    SCCCoreTiming *k = tm_core_timing(c);
    int tile = line / SCC_MPB_LINES, off = (line % SCC_MPB_LINES) * SCC_LINE;
    int64_t now = scc_timing_now(s, c);

    k->n.stale_reads++;
    trace_scc_timing_stale_read(c->id, tile, off, k->l1_time[set][way],
                                tm->line_writer[line], tm->line_written[line],
                                now);
    if (tm->stale_seen[bit / 64] & (1ull << (bit % 64))) {
        return;
    }
    tm->stale_seen[bit / 64] |= 1ull << (bit % 64);
    /* a guest mistake: timing-stale=on turns guest_errors on (see init) */
    qemu_log_mask(LOG_GUEST_ERROR, "scc timing: core %02d read stale MPB data: "
                  "tile %d offset 0x%04x, cached at %.3f us, written by core "
                  "%02d at %.3f us, read at %.3f us (a CL1INVMB missing before "
                  "the read?)\n", c->id, tile, off, k->l1_time[set][way] / 1e6,
                  tm->line_writer[line], tm->line_written[line] / 1e6,
                  now / 1e6);
}

/* Put the bytes the core's WCB holds for @line over @len bytes at @off. */
static void tm_wcb_forward(SCCCore *c, uint32_t line, unsigned off,
                           unsigned len, uint8_t *out)
{
    SCCCoreTiming *k = tm_core_timing(c);
    unsigned i;

    if (k->wcb_valid && k->wcb_line == line) {
        for (i = 0; i < len; i++) {
            if (tm_core_wcb(c)->mask & (1u << (off + i))) {
                out[i] = tm_core_wcb(c)->data[off + i];
            }
        }
    }
}

/*
 * An MPBT hit. It counts once its instruction is done: a later access of
 * the same instruction (the write of a MOVS, the next line) may restart
 * it, and the hit is then made again.
 */
static void tm_count_hit(SCCCore *c)
{
    SCCCoreTiming *k = tm_core_timing(c);
    int64_t insn = tm_insns(c);

    if (k->hit_insn != insn) {
        k->n.l1_mpbt_hits += k->hits_pending;
        k->hits_pending = 0;
        k->hit_insn = insn;
    }
    k->hits_pending++;
}

/* Read @len bytes at @off of one line into @out; returns the L1 way that
 * holds the line now (-1: not cached, an uncached read). */
static int tm_read_line(SCCMachineState *s, SCCCore *c, uint32_t line,
                        unsigned off, unsigned len, uint8_t *out, bool mpbt)
{
    SCCCoreTiming *k = tm_core_timing(c);
    uint8_t *mem = tm_mpb_ram(s, line);
    int set = line % SCC_L1_SETS, way = mpbt ? tm_l1_way(k, line) : -1;
    int tile = line / SCC_MPB_LINES;
    int64_t a;

    if (way >= 0) {
        tm_count_hit(c);
        if (s->timing_stale) {
            if (memcmp(k->l1_data[set][way] + off, mem + off, len)) {
                tm_stale_report(s, c, line, way);
            }
            mem = k->l1_data[set][way];
        }
    } else {
        a = tm_transact(s, c, tile, tm_core_timing(c)->mpb_ps, true,
                        &k->n.stall_mpb_read);
        k->n.mpb_line_reads++;
        if (mpbt) {
            k->n.l1_mpbt_misses++;
            way = k->l1_lru[set];
            k->l1_lru[set] = !way;
            cpu_env(c->cs)->timing_mpb.line[set][way].tag = 0;
            k->l1_tag[set][way] = line + 1;
            memcpy(k->l1_data[set][way], mem, SCC_LINE);
            k->l1_time[set][way] = a;
        }
    }
    memcpy(out, mem + off, len);
    tm_wcb_forward(c, line, off, len, out);
    return way;
}

/* Write bytes to the MPB at @a (their arrival): visible from then on. */
static void tm_apply(SCCMachineState *s, SCCCore *c, uint32_t line,
                     uint32_t mask, const uint8_t *data, int64_t a)
{
    uint8_t *mem = tm_mpb_ram(s, line);
    int i;

    for (i = 0; i < SCC_LINE; i++) {
        if (mask & (1u << i)) {
            mem[i] = data[i];
        }
    }
    s->tm->line_writer[line] = c->id;
    s->tm->line_written[line] = a;
    tm_wake_pollers(s, line, a);
}

static void tm_flush_wcb(SCCMachineState *s, SCCCore *c)
{
    SCCCoreTiming *k = tm_core_timing(c);
    int64_t a;

    a = tm_transact(s, c, k->wcb_line / SCC_MPB_LINES, k->mpb_ps, true,
                    &k->n.stall_mpb_write);
    k->n.wcb_flushes++;
    k->n.mpb_line_writes++;
    k->wcb_valid = false;
    tm_core_wcb(c)->tag = 0;
    tm_apply(s, c, k->wcb_line, tm_core_wcb(c)->mask, tm_core_wcb(c)->data, a);
}

/*
 * A store of @len bytes at @off of @line; @io_tag its line tag
 * (tcg_timing_io_st_tag), for the store helper's merges into the WCB
 * (TCGTimingWCB).
 */
static void tm_write_line(SCCMachineState *s, SCCCore *c, uint32_t line,
                          unsigned off, unsigned len, const uint8_t *in,
                          bool mpbt, uint64_t io_tag)
{
    SCCCoreTiming *k = tm_core_timing(c);
    TCGTimingWCB *w = tm_core_wcb(c);
    uint32_t mask = (len == 32 ? ~0u : ((1u << len) - 1)) << off;
    int way = tm_l1_way(k, line);
    uint8_t data[SCC_LINE];
    int64_t a;

    tm_io_event(c);
    if (way >= 0) {     /* the helper's hits must see the WCB: not theirs */
        cpu_env(c->cs)->timing_mpb.line[line % SCC_L1_SETS][way].tag = 0;
    }
    if (k->wcb_valid && (k->wcb_line != line || !mpbt)) {
        tm_flush_wcb(s, c);     /* in order: the WCB goes out first */
    }
    if (!k->wcb_valid) {
        w->mask = 0;
    }
    memcpy(data, w->data, SCC_LINE);
    memcpy(data + off, in, len);
    if (!mpbt || (w->mask | mask) == ~0u) {
        /* out now: uncached, or the line is full (no state changed yet,
         * so the access can still restart) */
        a = tm_transact(s, c, line / SCC_MPB_LINES, k->mpb_ps, true,
                        &k->n.stall_mpb_write);
        k->n.mpb_line_writes++;
        if (mpbt) {
            k->n.wcb_flushes++;
            mask = ~0u;
        }
        k->wcb_valid = false;
        w->tag = 0;
        tm_apply(s, c, line, mask, data, a);
    } else {
        k->wcb_valid = true;
        k->wcb_line = line;
        w->mask |= mask;
        memcpy(w->data, data, SCC_LINE);
        /* the next stores to it may merge on their own (not in the stale
         * mode: there they write the L1's copy through too) */
        w->tag = s->timing_stale ? 0 : io_tag;
        w->gen = cpu_env(c->cs)->timing_mpb.gen;
    }
    if (way >= 0) {     /* the L1 is written through */
        memcpy(k->l1_data[line % SCC_L1_SETS][way] + off, in, len);
    }
}

/*
 * Line @line, which the core just read with line tag @io_tag
 * (tcg_timing_io_ld_tag), is in way @way of its L1 model: let the REP
 * string loads' helper take its hits (TCGTimingMPBHits). Not in the stale
 * mode (a hit returns the L1's copy there), nor while the WCB holds bytes
 * of the line, which a read must see (tm_write_line drops the entry).
 */
static void tm_mpb_hits_allow(SCCMachineState *s, SCCCore *c, uint32_t line,
                              int way, uint64_t io_tag)
{
    SCCCoreTiming *k = tm_core_timing(c);
    TCGTimingMPBHits *m = &cpu_env(c->cs)->timing_mpb;
    uint32_t vline = io_tag & -SCC_LINE;
    int set = line % SCC_L1_SETS;
    TCGTimingMPBLine *l;

    QEMU_BUILD_BUG_ON(SCC_L1_SETS != TCG_TIMING_FILTER_LINES ||
                      SCC_L1_WAYS != TCG_TIMING_MPB_WAYS);
    if (!io_tag || s->timing_stale || way < 0 ||
        (k->wcb_valid && k->wcb_line == line) ||
        vline / SCC_LINE % SCC_L1_SETS != set) {
        return;
    }
    l = &m->line[set][way];
    l->tag = io_tag;
    l->gen = m->gen;
    l->key = line / SCC_MPB_LINES * SCC_MPB_SIZE +
             line % SCC_MPB_LINES * SCC_LINE;
    l->addend = (uintptr_t)tm_mpb_ram(s, line) - vline;
}

static MemTxResult tm_mpb_read(void *opaque, hwaddr addr, uint64_t *val,
                               unsigned size, MemTxAttrs attrs)
{
    SCCTile *t = opaque;
    SCCMachineState *s = t->scc;
    SCCCore *c = tm_current_core();
    uint32_t off = addr & (SCC_MPB_SIZE - 1);
    uint8_t buf[8];
    unsigned done = 0;
    int held = -1;
    uint64_t io_tag = tcg_timing_io_ld_tag;

    tcg_timing_io_ld_tag = 0;
    if (!c || !tm_in_run(c)) {
        *val = scc_mpb_sram_read(t, off, size);
        return MEMTX_OK;
    }
    /* spinning? decide on what the read would return, before doing it */
    {
        SCCCoreTiming *k = tm_core_timing(c);
        uint32_t line = t->id * SCC_MPB_LINES + off / SCC_LINE;
        uint8_t peek[8];
        uint8_t *mem = tm_mpb_ram(s, line);
        int way = attrs.mpbt ? tm_l1_way(k, line) : -1;
        unsigned o = off % SCC_LINE;

        if (o + size <= SCC_LINE) {
            const uint8_t *src = way >= 0 && s->timing_stale ?
                k->l1_data[line % SCC_L1_SETS][way] : mem;

            /*
             * A miss goes over the mesh: wait for the other cores first,
             * so that what is decided on is what the read returns, which
             * the order the cores ran in does not change.
             */
            if (way < 0) {
                tm_check_arrival(s, c, tm_arrival(s, c, t->id,
                                                  tm_core_timing(c)->mpb_ps));
            }

            memcpy(peek, src + o, size);
            tm_wcb_forward(c, line, o, size, peek);
            tm_spin_check(s, c, (t->id * SCC_MPB_SIZE + off) | size << 28,
                          ldn_le_p(peek, size), line,
                          way >= 0 ? 0 : tm_core_timing(c)->mpb_ps +
                          tm_hops(s, c->tile, t->id) * s->tm->hop_ps);
        } else {
            tm_io_event(c);
        }
    }
    while (done < size) {
        uint32_t o = (off + done) & (SCC_MPB_SIZE - 1);
        unsigned n = MIN(size - done, SCC_LINE - o % SCC_LINE);

        held = tm_read_line(s, c, t->id * SCC_MPB_LINES + o / SCC_LINE,
                            o % SCC_LINE, n, buf + done, attrs.mpbt);
        done += n;
    }
    tm_core_timing(c)->poll_seq = tm_core_timing(c)->io_seq;
    if (off % SCC_LINE + size <= SCC_LINE) {    /* one line: @held is its */
        tm_mpb_hits_allow(s, c, t->id * SCC_MPB_LINES + off / SCC_LINE, held,
                          io_tag);
    }
    *val = ldn_le_p(buf, size);
    return MEMTX_OK;
}

static MemTxResult tm_mpb_write(void *opaque, hwaddr addr, uint64_t val,
                                unsigned size, MemTxAttrs attrs)
{
    SCCTile *t = opaque;
    SCCMachineState *s = t->scc;
    SCCCore *c = tm_current_core();
    uint32_t off = addr & (SCC_MPB_SIZE - 1);
    uint8_t buf[8];
    unsigned done = 0;
    uint64_t io_tag = tcg_timing_io_st_tag;

    tcg_timing_io_st_tag = 0;
    if (!c || !tm_in_run(c)) {
        scc_mpb_sram_write(t, off, val, size);
        return MEMTX_OK;
    }
    stn_le_p(buf, size, val);
    while (done < size) {
        uint32_t o = (off + done) & (SCC_MPB_SIZE - 1);
        unsigned n = MIN(size - done, SCC_LINE - o % SCC_LINE);

        tm_write_line(s, c, t->id * SCC_MPB_LINES + o / SCC_LINE,
                      o % SCC_LINE, n, buf + done, attrs.mpbt,
                      n == size ? io_tag : 0);
        done += n;
    }
    return MEMTX_OK;
}

const MemoryRegionOps scc_timing_mpb_ops = {
    .read_with_attrs = tm_mpb_read,
    .write_with_attrs = tm_mpb_write,
    .endianness = DEVICE_LITTLE_ENDIAN,
    .valid = { .min_access_size = 1, .max_access_size = 8 },
    .impl = { .min_access_size = 1, .max_access_size = 8 },
};

/* --- DRAM through L1 and L2 -------------------------------------------- */

/* The router (x, y) the core's LUT sends physical address @pa to. */
static void tm_lut_xy(SCCCore *c, uint64_t pa, int *x, int *y)
{
    uint32_t route = SCC_LUT_ROUTE(c->lut[pa >> SCC_PAGE_SHIFT]);

    *x = LUT_ROUTE_X(route);
    *y = LUT_ROUTE_Y(route);
}

/* Routers from the core to where its LUT sends physical address @pa. */
static int tm_hops_to(SCCMachineState *s, SCCCore *c, uint32_t pa)
{
    SCCTile *t = &s->tile[c->tile];
    int x, y;

    tm_lut_xy(c, pa, &x, &y);
    return abs(x - t->x) + abs(y - t->y) + 1;
}

/*
 * Line @vaddr (its L1 set @set) is now the most recently used of its set:
 * the only line an access can hit there without changing the L1's state.
 * If tm_ram would do nothing else for a load of it (@eligible), loads of
 * it may skip tm_ram, and stores too if its page needs nothing else of
 * QEMU's slow path (@store_ok): all tm_ram does for such a store is
 * log it, which the target's helper does (env->timing_log). They check the
 * entry (env->timing_filter, tcg_timing_filter). Every change of a set's
 * most recently used line comes through here, so the entry of each set
 * is that line or nothing, and the model's state and results are the
 * same whether or not an access takes the filter. Host time only.
 */
static void tm_filter_set(CPUState *cs, int set, bool eligible, int mmu_idx,
                          uint64_t vaddr, void *haddr, uint64_t paddr,
                          bool store_ok)
{
    TCGTimingFilterEntry *f = &cpu_env(cs)->timing_filter[set];

    QEMU_BUILD_BUG_ON(MMU_PHYS_IDX >= TCG_TIMING_TAG_STORE);
    if (!eligible || !haddr || paddr > UINT32_MAX || vaddr > UINT32_MAX) {
        f->tag = 0;
        return;
    }
    f->tag = tcg_timing_line_tag(vaddr, mmu_idx) |
             (store_ok ? TCG_TIMING_TAG_STORE : 0);
    f->pline = paddr & -(uint64_t)SCC_LINE;
    f->addend = (uintptr_t)haddr - vaddr;
}

/*
 * A store to line @vaddr, which is not in the L1, changed nothing but
 * the store log, and the next ones will not either while it stays in the
 * L2 or stays the line last written around (tm_filter_drop): let stores
 * to it skip tm_ram, loads not (they would bring it into the L1). It
 * takes the place of its set's entry, which only costs that line's
 * loads the slow path once.
 */
static void tm_filter_store_only(CPUState *cs, int set, int mmu_idx,
                                 uint64_t vaddr, void *haddr, uint64_t paddr)
{
    TCGTimingFilterEntry *f = &cpu_env(cs)->timing_filter[set];

    tm_filter_set(cs, set, true, mmu_idx, vaddr, haddr, paddr, true);
    if (f->tag) {
        f->pline |= TCG_TIMING_PLINE_NOLOAD;
    }
}

/* Line tag - 1 left the L2 or is no longer the one written around. */
static void tm_filter_drop(CPUState *cs, uint32_t tag)
{
    TCGTimingFilterEntry *f;
    uint32_t line = tag - 1;

    if (!tag) {
        return;
    }
    f = &cpu_env(cs)->timing_filter[line % SCC_L1_SETS];
    if (f->pline == (line * SCC_LINE | TCG_TIMING_PLINE_NOLOAD)) {
        f->tag = 0;
    }
}

/* Every translation may have changed: empty the filter and the MPB's. */
static void tm_filter_clear(CPUState *cs)
{
    memset(cpu_env(cs)->timing_filter, 0,
           sizeof(cpu_env(cs)->timing_filter));
    cpu_env(cs)->timing_mpb.gen++;
}

/*
 * Shared DRAM is uncached (the kernel maps it PCD), and several cores use
 * it: every load or store is a transaction of its own to the memory
 * controller the core's LUT names, o_mem_r or o_mem_w plus the trip, and
 * like an MPB access it waits until no core can act before it arrives.
 * So a core sees another's store no earlier than its modeled time.
 *
 * An instruction with several accesses (a MOVS iteration: a load, then a
 * store) restarts whole when a later one must wait. The accesses an
 * earlier attempt made were charged then, and the clock kept them, as an
 * MPB line kept in the L1 keeps its miss: they are not charged again.
 * Charged anew, two cores of one tile copying at the same time each
 * pushed its clock past the other's with every attempt and never got to
 * the store.
 */
static void tm_shared_access(SCCMachineState *s, SCCCore *c, uint64_t paddr,
                             bool store)
{
    SCCCoreTiming *k = tm_core_timing(c);
    int64_t insn = tm_insns(c);
    uint64_t key = paddr << 1 | store;
    int x, y, i;

    if (k->shared_insn != insn) {
        k->shared_insn = insn;
        k->shared_done = 0;
        k->shared_seen = 0;
    }
    i = k->shared_seen++;
    if (i < k->shared_done && k->shared_key[i] == key) {
        return;
    }
    /* not the access the earlier attempt made here: from here on, new */
    k->shared_done = MIN(i, SCC_TM_SHARED_PER_INSN);
    tm_lut_xy(c, paddr, &x, &y);
    x = MIN(x, s->mesh_x - 1);
    y = MIN(y, s->mesh_y - 1);
    tm_transact(s, c, y * s->mesh_x + x,
                store ? s->tm->mem_w_ps : s->tm->mem_r_ps, false,
                &k->n.stall_dram);
    if (store) {
        k->n.dram_line_writes++;
    } else {
        k->n.dram_line_reads++;
    }
    if (i < SCC_TM_SHARED_PER_INSN) {
        k->shared_key[i] = key;
        k->shared_done = i + 1;
    }
}

/*
 * A load or store to RAM (shared DRAM: tm_shared_access). The P54C's L1 (8 KiB,
 * 2-way) and the tile's L2 for this core (256 KiB, 4-way), 32-byte lines:
 * a read that misses both costs o_mem_r + 2 d L_hop and fills both; a
 * read that misses only the L1 costs an L2 hit, a write that hits the L2
 * nothing (the P54C's write buffers post it). Neither cache allocates on
 * a write miss (002: "write back, and do not allocate on write miss, i.e.
 * are write around"): a write that misses the L2 goes to the memory
 * controller, o_mem_w + 2 d L_hop, and the line stays uncached. 001 charges
 * o_mem_w per line, so the stores that follow to the same line go with
 * the first. Write-backs of evicted lines are not charged again. No
 * coherence is needed: private DRAM is one core's.
 */
static void tm_ram(CPUState *cs, uint64_t paddr, int size, bool store,
                   bool mpbt, int mmu_idx, uint64_t vaddr, void *haddr,
                   int tlb_flags)
{
    SCCMachineState *s = tm_machine;
    SCCCore *c = &s->core[cs->cpu_index];
    SCCCoreTiming *k = tm_core_timing(c);
    uint32_t line = paddr / SCC_LINE, tag = line + 1;
    int s1 = line % SCC_L1_SETS, s2 = line % SCC_L2_SETS, w;
    int64_t cost;
    /*
     * Whether a load of this line, once it is the most recently used of
     * its set, leaves everything here as it was: not for shared DRAM
     * (io_seq) nor for MPBT (the WCB): see tm_filter_set.
     */
    bool plain, shared;

    /*
     * Page-table walks follow QEMU's TLB, whose size QEMU tunes by host
     * time: they would make runs differ. TLB misses cost nothing here.
     */
    if (!tm_in_run(c) || mmu_idx >= MMU_PHYS_IDX) {
        return;
    }
    /*
     * The WCB combines MPBT-typed stores wherever they go: one to a DRAM
     * line pushes the MPB line it holds out, as a store to another MPB
     * line does (the kernel flushes its WCB with a store to an MPBT page
     * of its own DRAM). First, before anything here changed, since the
     * flush may restart the instruction.
     */
    if (store && mpbt && k->wcb_valid) {
        tm_flush_wcb(s, c);
    }
    if (!s->tp.dram) {
        return;     /* only the MPBT pages are reported then */
    }
    shared = (paddr >> SCC_PAGE_SHIFT) >= SCC_PAGE_SHARED &&
             (paddr >> SCC_PAGE_SHIFT) < SCC_PAGE_MPB;
    if (shared) {
        tm_shared_access(s, c, paddr, store);
        if (store) {
            tcg_timing_log_store(&cpu_env(cs)->timing_log, paddr, size);
        } else {
            tm_io_event(c); /* other cores write shared DRAM: not a spin */
        }
        return;
    }
    if (store) {
        /* for tm_loop_state: all a store to the L1 set's most recently
         * used line does here (the filter's stores log themselves) */
        tcg_timing_log_store(&cpu_env(cs)->timing_log, paddr, size);
    }
    plain = !mpbt;
    for (w = 0; w < SCC_L1_WAYS; w++) {
        if (k->d1_tag[s1][w] == tag) {
            k->d1_lru[s1] = !w;
            /* a store may take the filter if its page needs nothing else
             * of the slow path (no TLB_NOTDIRTY: no code on it) */
            tm_filter_set(cs, s1, plain, mmu_idx, vaddr, haddr, paddr,
                          store && !(tlb_flags & ~TLB_TIMED));
            return;
        }
    }
    if (!store) {
        k->n.l1_data_misses++;      /* stores never allocate: not misses */
    }
    for (w = 0; w < SCC_L2_WAYS && k->l2_tag[s2][w] != tag; w++) {
    }
    if (w < SCC_L2_WAYS) {
        cost = store ? 0 : tm_core_timing(c)->l2_ps;
    } else if (store) {
        cost = 0;
        if (k->around_tag != tag) {
            tm_filter_drop(cs, k->around_tag);
            k->around_tag = tag;
            k->n.dram_line_writes++;
            cost = s->tm->mem_w_ps + 2 * tm_hops_to(s, c, paddr) * s->tm->hop_ps;
        }
    } else {
        k->n.l2_misses++;
        w = k->l2_next[s2];
        k->l2_next[s2] = (w + 1) % SCC_L2_WAYS;
        tm_filter_drop(cs, k->l2_tag[s2][w]);
        k->l2_tag[s2][w] = tag;
        k->n.dram_line_reads++;
        cost = s->tm->mem_r_ps + 2 * tm_hops_to(s, c, paddr) * s->tm->hop_ps;
    }
    if (!store) {       /* the P54C does not allocate on a write miss */
        w = k->d1_lru[s1];
        k->d1_tag[s1][w] = tag;
        k->d1_lru[s1] = !w;
        tm_filter_set(cs, s1, plain, mmu_idx, vaddr, haddr, paddr, false);
    } else if (plain && !(tlb_flags & ~TLB_TIMED)) {
        tm_filter_store_only(cs, s1, mmu_idx, vaddr, haddr, paddr);
    }
    if (cost) {
        k->n.stall_dram += cost;
        tm_set_clock(s, c, scc_timing_now(s, c) + cost);
    }
}

/* --- CRB, SIF, instructions -------------------------------------------- */

void scc_timing_io(SCCMachineState *s, int tile, bool sif)
{
    SCCCore *c = scc_current_core();
    SCCCoreTiming *k;

    if (!s->timing || !c || !tm_in_run(c)) {
        return;
    }
    k = tm_core_timing(c);
    if (k->wcb_valid) {
        tm_flush_wcb(s, c);     /* uncached accesses are in order */
    }
    s->tm->io_arrival = tm_transact(s, c, sif ? s->tm->sif_tile : tile,
                                    sif ? k->sif_ps : k->crb_ps,
                                    false, sif ? &k->n.stall_sif
                                               : &k->n.stall_crb);
    if (sif) {
        k->n.sif_accesses++;
    } else {
        k->n.crb_accesses++;
    }
    tm_io_event(c);
}

void scc_timing_cl1invmb(SCCMachineState *s, SCCCore *c)
{
    memset(tm_core_timing(c)->l1_tag, 0, sizeof(tm_core_timing(c)->l1_tag));
    cpu_env(c->cs)->timing_mpb.gen++;
}

void scc_timing_hlt(SCCMachineState *s, SCCCore *c)
{
    tm_io_event(c);
}

void scc_timing_rdtsc(SCCMachineState *s, SCCCore *c)
{
    tm_io_event(c);
}

/* --- the scheduler ------------------------------------------------------ */

static bool tm_alive(SCCCore *c)
{
    return c->started && !c->exited && !c->held;
}

static bool tm_halted(SCCCore *c)
{
    return c->cs->halted && !cpu_has_work(c->cs);
}

/* When the core next needs the others to have reached: see the top. */
static int64_t tm_key(SCCMachineState *s, SCCCore *c)
{
    SCCCoreTiming *k = tm_core_timing(c);
    int64_t ev = tm_next_event(c);

    switch (k->state) {
    case SCC_TM_BLOCKED:
        /* an event due meanwhile is taken after the access: the core is
         * stalled in it */
        return k->blocked_arrival - s->tm->lookahead;
    case SCC_TM_POLL:
        return ev;
    default:
        return tm_halted(c) ? ev : scc_timing_now(s, c);
    }
}

static void tm_stalled(SCCMachineState *s)
{
    GString *why = g_string_new("no core can make progress in modeled time:");
    int i;

    if (s->tm->stall_reported) {
        return;
    }
    s->tm->stall_reported = true;
    trace_scc_timing_stalled();
    for (i = 0; i < s->ncores; i++) {
        SCCCore *c = &s->core[i];

        if (tm_alive(c) && c->tm->state == SCC_TM_POLL) {
            g_string_append_printf(why, " core %02d polls MPB tile %d offset "
                                   "0x%04x;", c->id,
                                   c->tm->poll_line / SCC_MPB_LINES,
                                   (c->tm->poll_line % SCC_MPB_LINES) *
                                   SCC_LINE);
        }
    }
    g_string_append(why, " no core will write those lines, and the others "
                    "are halted or have exited");
    scc_supervisor_stalled(s, why->str);
    g_string_free(why, true);
}

/*
 * A core's place in the tournament: (key, id) in one number, so that one
 * comparison orders two cores. Keys past 40 hours of modeled time (an
 * APIC timer armed that far) are all the same time here.
 */
static inline int64_t tm_rank(int64_t key, int id)
{
    const int64_t far = NEVER / SCC_TM_LEAVES - 1;

    return key == NEVER ? NEVER : MIN(key, far) * SCC_TM_LEAVES + id;
}

static void tm_play(SCCTiming *tm, int n)
{
    tm->win[n] = MIN(tm->win[2 * n], tm->win[2 * n + 1]);
}

/* Bring the keys up to date: see SCCTiming.key. */
static void tm_update_keys(SCCMachineState *s)
{
    SCCTiming *tm = s->tm;
    int i;

    QEMU_BUILD_BUG_ON(SCC_TM_LEAVES < SCC_MAX_CORES);
    if (tm->keys_stale || tm->keys_events != s->events) {
        tm->keys_stale = false;
        tm->keys_events = s->events;
        for (i = 0; i < SCC_TM_LEAVES; i++) {
            tm->key[i] = i < s->ncores && tm_alive(&s->core[i]) ?
                         tm_key(s, &s->core[i]) : NEVER;
            tm->win[SCC_TM_LEAVES + i] = tm_rank(tm->key[i], i);
        }
        for (i = SCC_TM_LEAVES - 1; i > 0; i--) {
            tm_play(tm, i);
        }
    } else if (tm->last >= 0) {
        SCCCore *c = &s->core[tm->last];

        tm->key[tm->last] = tm_alive(c) ? tm_key(s, c) : NEVER;
        tm->win[SCC_TM_LEAVES + tm->last] = tm_rank(tm->key[tm->last],
                                                    tm->last);
        for (i = (SCC_TM_LEAVES + tm->last) / 2; i > 0; i /= 2) {
            tm_play(tm, i);
        }
    }
    tm->last = -1;
}

/*
 * The core with the smallest (key, id), or -1 if every key is NEVER; in
 * @second and @second_core the next one (NEVER and -1 if none): the
 * smallest of those the first beat on its way up.
 */
static int tm_first_two(SCCTiming *tm, int64_t *second, int *second_core)
{
    int64_t first = tm->win[1], sec = NEVER;
    int n = 1;

    while (n < SCC_TM_LEAVES) {
        int l = 2 * n + (tm->win[2 * n] != first);

        sec = MIN(sec, tm->win[l ^ 1]);
        n = l;
    }
    if (sec == NEVER) {
        *second = NEVER;
        *second_core = -1;
    } else {
        *second_core = sec % SCC_TM_LEAVES;
        *second = tm->key[*second_core];
    }
    return first == NEVER ? -1 : first % SCC_TM_LEAVES;
}

/* A core a debugger lets run while the one due next is stopped. */
static SCCCore *tm_debug_runnable(SCCMachineState *s)
{
    int i;

    for (i = 0; i < s->ncores; i++) {
        SCCCore *c = &s->core[i];

        if (tm_alive(c) && cpu_can_run(c->cs) && !tm_halted(c) &&
            c->tm->state != SCC_TM_POLL) {
            return c;
        }
    }
    return NULL;
}

static CPUState *tm_next(int64_t *budget)
{
    SCCMachineState *s = tm_machine;
    SCCTiming *tm = s->tm;
    SCCCore *c;
    SCCCoreTiming *k;
    int64_t now, end, second;
    int second_core;

    for (;;) {
        int64_t best;
        int i, pick;

        tm_update_keys(s);
        pick = tm_first_two(tm, &second, &second_core);
        if (pick < 0) {
            bool polling = false;

            for (i = 0; i < s->ncores; i++) {
                polling |= tm_alive(&s->core[i]) &&
                           s->core[i].tm->state == SCC_TM_POLL;
            }
            if (polling && !s->ending) {
                tm_stalled(s);
            }
            return NULL;
        }
        best = tm->key[pick];
        c = &s->core[pick];
        k = tm_core_timing(c);
        tm->last = pick;        /* whatever happens next changes its key */
        if (k->state == SCC_TM_POLL) {
            tm_unpark(s, c, best);
        } else if (k->state == SCC_TM_BLOCKED) {
            tm_set_state(s, c, SCC_TM_RUN);
        } else if (tm_halted(c) && scc_timing_now(s, c) < best) {
            tm_set_clock(s, c, best);
        }
        tm_deliver(s, c);
        if (!tm_halted(c)) {
            break;
        }
    }
    if (!cpu_can_run(c->cs)) {
        /*
         * The core due next is stopped while another may run: only a
         * debugger does that (gdb steps one thread past a breakpoint with
         * the others stopped). Run one that may, alone and unbounded: the
         * others are frozen, so there is nobody to order its accesses
         * against. Without a debugger this never happens.
         */
        c = tm_debug_runnable(s);
        if (!c) {
            return NULL;
        }
        k = tm_core_timing(c);
        tm->keys_stale = true;
        if (k->state == SCC_TM_BLOCKED) {
            tm_set_state(s, c, SCC_TM_RUN);
        }
        tm_deliver(s, c);
        second = NEVER;
        second_core = -1;
    }
    now = scc_timing_now(s, c);
    k->limit = NEVER;
    k->limit_core = INT_MAX;
    tm_limit_to(s, k, second_core, second);
    /*
     * The accesses are held to the limit one by one, so the budget only
     * has to keep the core from passing an interrupt another core could
     * still send it: a GLCFG write's arrival plus the pin's latency. That
     * is later than the limit: fewer switches. A core whose LINT0 is
     * masked cannot take one: it runs to its next event or access.
     */
    k->listening = tm_listened(c, NEVER);
    end = tm_next_event(c);
    if (k->listening && second != NEVER) {
        end = MIN(end, second + tm->irq_lookahead);
    }
    *budget = end == NEVER ? MAX_BUDGET :
              MAX(1, MIN(MAX_BUDGET, (end - now) / k->cpi_ps));
    k->budget = *budget;
    k->end = end;
    k->running = true;
    trace_scc_timing_run(c->id, now, end, *budget, k->listening);
    return c->cs;
}

static void tm_ran(CPUState *cs, int64_t executed, int ret)
{
    SCCCore *c = &tm_machine->core[cs->cpu_index];

    tm_core_timing(c)->insns += executed;
    tm_core_timing(c)->n.instructions += executed;
    tm_core_timing(c)->running = false;
    tm_catch_up(c);
    cpu_env(cs)->timing_mpb.mark = -1;     /* a new run, new marks */
}

static const TCGTimingOps tm_ops = {
    .next = tm_next,
    .ran = tm_ran,
};

/* --- statistics --------------------------------------------------------- */

static const char *const tm_counter_names[] = {
#define SCC_TM_NAME(n) #n,
    SCC_TM_COUNTERS(SCC_TM_NAME)
#undef SCC_TM_NAME
};

/* The core's counters as of now, stalls still in ps. */
static void tm_counters_now(SCCMachineState *s, SCCCore *c, SCCTimingCounters *n)
{
    tm_catch_up(c);
    *n = c->tm->n;
    n->cycles = scc_timing_tsc(s, c);
    n->l1_mpbt_hits += c->tm->hits_pending;
    if (tm_in_run(c)) {
        /* the instructions of the current run so far */
        n->instructions += tcg_timing_executed(c->cs, c->tm->budget);
    }
}

/* Stalls are kept in ps; the CSV gives cycles of core-hz. */
static void tm_counters_csv(SCCTiming *tm, SCCTimingCounters *n)
{
    n->stall_mpb_read /= tm->core_ps;
    n->stall_mpb_write /= tm->core_ps;
    n->stall_crb /= tm->core_ps;
    n->stall_sif /= tm->core_ps;
    n->stall_contention /= tm->core_ps;
    n->stall_dram /= tm->core_ps;
}

void scc_timing_region_name(SCCMachineState *s, SCCCore *c, uint8_t byte)
{
    SCCCoreTiming *k = tm_core_timing(c);

    if (!s->timing) {
        return;
    }
    if (k->next_len >= STATS_NAME_MAX || byte < 0x21 || byte > 0x7e || byte == ',') {
        qemu_log_mask(LOG_GUEST_ERROR, "scc: core %d: region name byte 0x%02x "
                      "refused (printable, no comma, %d bytes at most)\n",
                      c->id, byte, STATS_NAME_MAX);
        return;
    }
    k->next_name[k->next_len++] = byte;
}

/*
 * Begin a region (named by the bytes since the last command) or end the
 * open one: the counters it took, summed over its calls, are written as
 * rows of their own (scope region:NAME) beside the whole run's.
 */
void scc_timing_region(SCCMachineState *s, SCCCore *c, uint32_t cmd)
{
    SCCCoreTiming *k = tm_core_timing(c);
    SCCTimingCounters now;
    uint64_t *v = (uint64_t *)&now, *b, *sum;
    int i;

    if (!s->timing) {
        return;
    }
    if (cmd == STATS_BEGIN) {
        k->next_name[k->next_len] = 0;
        k->next_len = 0;
        if (k->open_region || !k->next_name[0]) {
            qemu_log_mask(LOG_GUEST_ERROR, "scc: core %d: region '%s' not begun: "
                          "%s\n", c->id, k->next_name,
                          k->open_region ? "another is open (regions do not nest)"
                                         : "no name");
            return;
        }
        for (i = 0; i < k->nregions && strcmp(k->region[i].name, k->next_name); i++) {
        }
        if (i == k->nregions) {
            if (i == STATS_REGIONS) {
                qemu_log_mask(LOG_GUEST_ERROR, "scc: core %d: region '%s' not begun: "
                              "%d regions at most\n", c->id, k->next_name,
                              STATS_REGIONS);
                return;
            }
            pstrcpy(k->region[i].name, sizeof(k->region[i].name), k->next_name);
            k->nregions++;
        }
        tm_counters_now(s, c, &k->region[i].begin);
        k->open_region = i + 1;
    } else if (cmd == STATS_END) {
        if (!k->open_region) {
            qemu_log_mask(LOG_GUEST_ERROR, "scc: core %d: region end with none "
                          "open\n", c->id);
            return;
        }
        tm_counters_now(s, c, &now);
        b = (uint64_t *)&k->region[k->open_region - 1].begin;
        sum = (uint64_t *)&k->region[k->open_region - 1].sum;
        for (i = 0; i < ARRAY_SIZE(tm_counter_names); i++) {
            sum[i] += v[i] - b[i];
        }
        k->region[k->open_region - 1].calls++;
        k->open_region = 0;
    } else {
        qemu_log_mask(LOG_GUEST_ERROR, "scc: core %d: SIF_STATS command %u "
                      "unknown\n", c->id, cmd);
    }
}

void scc_timing_write_stats(SCCMachineState *s)
{
    const char *const *names = tm_counter_names;
    static const char dirs[] = "ESWN";
    SCCTiming *tm = s->tm;
    FILE *f;
    int64_t end = 0;
    int i, j, r;

    if (!s->timing || !s->tp.stats_file || !*s->tp.stats_file) {
        return;
    }
    f = strcmp(s->tp.stats_file, "-") ? fopen(s->tp.stats_file, "w") : stderr;
    if (!f) {
        error_report("scc: timing-stats: cannot write %s: %s",
                     s->tp.stats_file, strerror(errno));
        return;
    }
    fprintf(f, "scope,id,counter,value\n");
    for (i = 0; i < s->ncores; i++) {
        SCCCore *c = &s->core[i];
        SCCTimingCounters n;
        uint64_t *v = (uint64_t *)&n;
        int64_t now;

        if (!c->started) {
            continue;
        }
        tm_counters_now(s, c, &n);
        now = scc_timing_now(s, c);
        end = MAX(end, now);
        tm_counters_csv(tm, &n);
        for (j = 0; j < ARRAY_SIZE(tm_counter_names); j++) {
            fprintf(f, "core,%d,%s,%" PRIu64 "\n", c->id, names[j], v[j]);
        }
    }
    for (i = 0; i < s->ncores; i++) {
        SCCCoreTiming *k = s->core[i].tm;

        for (r = 0; s->core[i].started && r < k->nregions; r++) {
            SCCTimingCounters n = k->region[r].sum;
            uint64_t *v = (uint64_t *)&n;

            tm_counters_csv(tm, &n);
            fprintf(f, "region:%s,%d,calls,%" PRIu64 "\n", k->region[r].name,
                    s->core[i].id, k->region[r].calls);
            for (j = 0; j < ARRAY_SIZE(tm_counter_names); j++) {
                fprintf(f, "region:%s,%d,%s,%" PRIu64 "\n", k->region[r].name,
                        s->core[i].id, names[j], v[j]);
            }
        }
    }
    fprintf(f, "run,,modeled_ps,%" PRId64 "\n", end);
    fprintf(f, "run,,restarted_accesses,%" PRIu64 "\n", tm->blocks);
    for (i = 0; i < s->ntiles; i++) {
        for (j = 0; j < 4; j++) {
            if (tm->link[i][j]) {
                fprintf(f, "link,%d,%c,%" PRIu64 "\n", i, dirs[j],
                        tm->link[i][j]);
            }
        }
    }
    if (f != stderr) {
        fclose(f);
    }
}

/* --- set-up ------------------------------------------------------------- */

static void tm_exit_notify(Notifier *n, void *data)
{
    scc_timing_write_stats(container_of(n, SCCMachineState, timing_exit));
}

bool scc_timing_init(SCCMachineState *s, Error **errp)
{
    SCCTimingParams *p = &s->tp;
    SCCTiming *tm;
    int i;

    if (!s->timing) {
        if (s->timing_stale) {
            error_setg(errp, "scc: timing-stale=on needs timing=on");
            return false;
        }
        return true;
    }
    if (!icount_enabled() || qemu_tcg_mttcg_enabled()) {
        error_setg(errp, "scc: timing=on needs single-threaded TCG with "
                   "instruction counting: add -accel tcg,thread=single "
                   "-icount shift=0,sleep=off (scc-run --timing does)");
        return false;
    }
    if (!p->mesh_hz || !p->dram_hz || !p->cpi_milli || !p->hop_cycles ||
        !p->mpb_cycles) {
        error_setg(errp, "scc: timing-mesh-hz, timing-dram-hz, "
                   "timing-cpi-milli, timing-hop-cycles and "
                   "timing-mpb-cycles must not be 0");
        return false;
    }
    /*
     * The stale reads timing-stale=on looks for are guest errors (a
     * CL1INVMB missing): the option asks for their reports, so show them.
     */
    if (s->timing_stale && !qemu_loglevel_mask(LOG_GUEST_ERROR) &&
        !qemu_set_log(qemu_loglevel | LOG_GUEST_ERROR, errp)) {
        return false;
    }
    tm = s->tm = g_new0(SCCTiming, 1);
    tm->core_ps = tm_period_ps(s->core_hz);
    tm->cpi_ps = tm->core_ps * p->cpi_milli / 1000;
    tm->hop_ps = p->hop_cycles * tm_period_ps(p->mesh_hz);
    tm->mpb_ps = p->mpb_cycles * tm->core_ps;
    tm->crb_ps = p->crb_cycles * tm->core_ps;
    tm->sif_ps = p->sif_cycles * tm->core_ps;
    tm->irq_ps = p->irq_cycles * tm->core_ps;
    tm->mem_r_ps = p->mem_r_cycles * tm_period_ps(p->dram_hz);
    tm->mem_w_ps = p->mem_w_cycles * tm_period_ps(p->dram_hz);
    tm->lookahead = MIN(MIN(tm->mpb_ps, MIN(tm->crb_ps, tm->sif_ps)),
                        MIN(tm->mem_r_ps, tm->mem_w_ps)) + tm->hop_ps;
    /*
     * A LINT pin changes irq_ps after a GLCFG write arrives, and no access
     * of another core arrives before its key plus the lookahead (a blocked
     * one arrives exactly then).
     */
    tm->irq_lookahead = tm->lookahead + tm->irq_ps;
    tm->keys_stale = true;
    tm->last = -1;
    tm->sif_tile = s->mesh_x / 2;           /* the SIF hangs off router (3,0) */
    tm->stale_seen = g_new0(uint64_t, (s->ncores * s->ntiles * SCC_MPB_LINES +
                                       63) / 64);
    if (tm->cpi_ps < 1) {
        error_setg(errp, "scc: timing-cpi-milli is too small");
        return false;
    }
    for (i = 0; i < s->ncores; i++) {
        s->core[i].tm = g_new0(SCCCoreTiming, 1);
    }
    tm_machine = s;
    s->timing_exit.notify = tm_exit_notify;
    qemu_add_exit_notifier(&s->timing_exit);
    tcg_timing_ops = &tm_ops;
    tcg_timing_ram = tm_ram;
    tcg_timing_ram_all = p->dram;
    /* with timing-dram=off, no load of RAM reaches the L1 model */
    tcg_timing_filter = p->dram;
    tcg_timing_tlb_changed = tm_filter_clear;
    /*
     * The timed MPBs are the machine's own state, touched only from the
     * one vCPU thread (as tm_ram's is): no BQL for each of their millions
     * of accesses.
     */
    tcg_timing_unlocked_io = &scc_timing_mpb_ops;
    /* every restarted access and I/O recompile looks its host pc up */
    tcg_tb_lookup_cached = true;
    apic_timer_ops = &tm_apic_ops;
    return true;
}

void scc_timing_reset(SCCMachineState *s)
{
    int i;

    if (!s->timing) {
        return;
    }
    for (i = 0; i < s->ncores; i++) {
        memset(s->core[i].tm, 0, sizeof(SCCCoreTiming));
        s->core[i].tm->apic_deadline = -1;
        tm_set_core_clock(s, &s->core[i], s->core_hz, 0);
        tm_filter_clear(s->core[i].cs);     /* the L1 model is empty */
        memset(&cpu_env(s->core[i].cs)->timing_mpb, 0,
               sizeof(TCGTimingMPBHits));
        memset(tm_core_wcb(&s->core[i]), 0, sizeof(TCGTimingWCB));
    }
    memset(s->tm->port_busy, 0, sizeof(s->tm->port_busy));
    memset(s->tm->link, 0, sizeof(s->tm->link));
    memset(s->tm->line_written, 0, sizeof(s->tm->line_written));
    memset(s->tm->line_pollers, 0, sizeof(s->tm->line_pollers));
    s->tm->blocks = 0;
    s->tm->keys_stale = true;
    s->tm->last = -1;
}

static bool tm_get_timing(Object *obj, Error **errp)
{
    return SCC_MACHINE(obj)->timing;
}

static void tm_set_timing(Object *obj, bool v, Error **errp)
{
    SCC_MACHINE(obj)->timing = v;
}

static bool tm_get_stale(Object *obj, Error **errp)
{
    return SCC_MACHINE(obj)->timing_stale;
}

static void tm_set_stale(Object *obj, bool v, Error **errp)
{
    SCC_MACHINE(obj)->timing_stale = v;
}

static bool tm_get_dram(Object *obj, Error **errp)
{
    return SCC_MACHINE(obj)->tp.dram;
}

static void tm_set_dram(Object *obj, bool v, Error **errp)
{
    SCC_MACHINE(obj)->tp.dram = v;
}

static char *tm_get_stats(Object *obj, Error **errp)
{
    return g_strdup(SCC_MACHINE(obj)->tp.stats_file);
}

static void tm_set_stats(Object *obj, const char *v, Error **errp)
{
    g_free(SCC_MACHINE(obj)->tp.stats_file);
    SCC_MACHINE(obj)->tp.stats_file = g_strdup(v);
}

void scc_timing_set_defaults(SCCMachineState *s)
{
    SCCTimingParams *p = &s->tp;

    p->mesh_hz = 800000000;
    p->dram_hz = 800000000;
    p->hop_cycles = 4;
    p->mpb_cycles = 60;
    p->crb_cycles = 60;
    p->sif_cycles = 200;
    p->irq_cycles = 20;
    p->mpb_service_ps = 5667;
    p->cpi_milli = 2070;
    p->dram = true;
    p->l2_cycles = 18;
    p->mem_r_cycles = 156;     /* 195 ns: 104 core cycles at 533 MHz */
    p->mem_w_cycles = 360;     /* 450 ns: 240 core cycles */
}

void scc_timing_add_props(ObjectClass *oc)
{
    static const SCCFieldProp props[] = {
        { "timing-mesh-hz", "uint64", offsetof(SCCMachineState, tp.mesh_hz),
          "timing: mesh clock (default 800000000)" },
        { "timing-dram-hz", "uint64", offsetof(SCCMachineState, tp.dram_hz),
          "timing: DRAM (memory controller) clock (default 800000000)" },
        { "timing-hop-cycles", "uint32",
          offsetof(SCCMachineState, tp.hop_cycles),
          "timing: mesh cycles per router, L_hop (default 4: 5 ns, 001 "
          "Table 1)" },
        { "timing-mpb-cycles", "uint32",
          offsetof(SCCMachineState, tp.mpb_cycles),
          "timing: core cycles of overhead per MPB line access, o_mpb "
          "less the instructions' own cost (default 60)" },
        { "timing-crb-cycles", "uint32",
          offsetof(SCCMachineState, tp.crb_cycles),
          "timing: core cycles of overhead per CRB access (default 60)" },
        { "timing-sif-cycles", "uint32",
          offsetof(SCCMachineState, tp.sif_cycles),
          "timing: core cycles of overhead per system-interface access "
          "(default 200)" },
        { "timing-irq-cycles", "uint32",
          offsetof(SCCMachineState, tp.irq_cycles),
          "timing: core cycles from a GLCFG write's arrival to the LINT "
          "pin (default 20)" },
        { "timing-mpb-service-ps", "uint32",
          offsetof(SCCMachineState, tp.mpb_service_ps),
          "timing: ps an MPB port is busy per line; more than "
          "(o_mpb + 2 L_hop) / this concurrent readers queue (default 5667: "
          "24, 001 section 3.3)" },
        { "timing-cpi-milli", "uint32",
          offsetof(SCCMachineState, tp.cpi_milli),
          "timing: core cycles per instruction x 1000 (default 2070, "
          "calibrated on 001's o_get^mpb)" },
        { "timing-l2-cycles", "uint32", offsetof(SCCMachineState, tp.l2_cycles),
          "timing: core cycles of an L1 miss that hits the L2 (default 18)" },
        { "timing-mem-r-cycles", "uint32",
          offsetof(SCCMachineState, tp.mem_r_cycles),
          "timing: DRAM cycles of overhead per DRAM line read, o_mem_r "
          "less the instructions' own cost (default 156)" },
        { "timing-mem-w-cycles", "uint32",
          offsetof(SCCMachineState, tp.mem_w_cycles),
          "timing: DRAM cycles of overhead per DRAM line written, o_mem_w "
          "less the instructions' own cost (default 360)" },
    };

    scc_add_field_props(oc, props, ARRAY_SIZE(props));
    object_class_property_add_bool(oc, "timing", tm_get_timing,
                                   tm_set_timing);
    object_class_property_set_description(oc, "timing",
        "modeled SCC time: per-core clocks and mesh costs, deterministic "
        "(needs -accel tcg,thread=single -icount shift=0,sleep=off)");
    object_class_property_add_bool(oc, "timing-stale", tm_get_stale,
                                   tm_set_stale);
    object_class_property_set_description(oc, "timing-stale",
        "timing: MPBT hits return what the L1 holds, stale or not, and each "
        "stale read is reported once (core, address, writer, times)");
    object_class_property_add_bool(oc, "timing-dram", tm_get_dram,
                                   tm_set_dram);
    object_class_property_set_description(oc, "timing-dram",
        "timing: time every load and store to DRAM through an L1/L2 model "
        "(default on); off: private memory is in the cost per instruction, "
        "several times faster for programs that move much private data");
    object_class_property_add_str(oc, "timing-stats", tm_get_stats,
                                  tm_set_stats);
    object_class_property_set_description(oc, "timing-stats",
        "timing: write per-core counters and link traffic as CSV to this "
        "file at exit ('-': stderr)");
}
