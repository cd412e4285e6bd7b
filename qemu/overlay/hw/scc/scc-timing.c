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
 * MPBT reads hit a per-core L1 model (16 KiB, 4-way, 32-byte lines, MPBT
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
#include "scc-timing-internal.h"

SCCMachineState *tm_machine;

/* Every change of a core's state comes here: see SCCTiming.line_pollers. */
void tm_set_state(SCCMachineState *s, SCCCore *c, int state)
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

int64_t scc_timing_now(SCCMachineState *s, SCCCore *c)
{
    SCCCoreTiming *k = tm_core_timing(c);
    int64_t mc = tm_mcycles(c);
    int64_t t = k->t0 + (tm_insns(c) - k->insn0) * k->cpi_ps;

    /* most calls come with no expensive instruction since the clock was
     * set: the two divisions would give the same number */
    return mc == k->mc0 ? t : t + tm_class_ps(k, mc) - tm_class_ps(k, k->mc0);
}

/*
 * Set the core's clock to @t now (a stall, or a jump while it waited).
 * The budget counts instructions, not stalls: a stall that takes a core
 * that listens past its run's end ends the run after this translation
 * block, so an interrupt due meanwhile is taken at most a block late;
 * so does one past the memory controllers' horizon (mc_end).
 */
void tm_set_clock(SCCMachineState *s, SCCCore *c, int64_t t)
{
    SCCCoreTiming *k = tm_core_timing(c);

    k->insn0 = tm_insns(c);
    k->mc0 = tm_mcycles(c);
    k->t0 = t;
    if (k->running && ((k->listening && t > k->end) || t > k->mc_end)) {
        cpu_exit(c->cs);
    }
}

int tm_hops(SCCMachineState *s, int from, int to)
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
void tm_catch_up(SCCCore *c)
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
void tm_io_event(SCCCore *c)
{
    tm_catch_up(c);
    tm_core_timing(c)->io_seq++;
}

/*
 * The current access must wait until every other core has caught up with
 * its arrival: undo it (the instruction restarts from scratch later).
 */
G_NORETURN void tm_restart(SCCMachineState *s, SCCCore *c)
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

bool tm_can_restart(SCCCore *c)
{
    return tm_in_run(c) && c->cs->mem_io_pc;
}

/* When a transaction of the current core to @tile would arrive there. */
int64_t tm_arrival(SCCMachineState *s, SCCCore *c, int tile,
                   int64_t overhead)
{
    return scc_timing_now(s, c) + overhead +
           tm_hops(s, c->tile, tile) * s->tm->hop_ps;
}

/*
 * An access arriving at @a must wait until no other core can act before
 * it: undo it, to be restarted once the others have caught up.
 */
void tm_check_arrival(SCCMachineState *s, SCCCore *c, int64_t a)
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
int64_t tm_transact(SCCMachineState *s, SCCCore *c, int tile,
                    int64_t overhead, bool mpb, uint64_t *stall)
{
    SCCTiming *tm = s->tm;
    int d = tm_hops(s, c->tile, tile);
    int64_t t, a, start;

    tm_bus_quiet(s, c);         /* in order behind the posted writes */
    t = scc_timing_now(s, c);
    a = start = tm_arrival(s, c, tile, overhead);
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

/* --- CRB, SIF, instructions -------------------------------------------- */

void scc_timing_io(SCCMachineState *s, int tile, bool sif)
{
    SCCCore *c = tm_current_core();
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

/*
 * CL1INVMB drops every MPBT-typed line of the L1: the MPB's and those read
 * from DRAM through an MPBT page (never dirty: MPBT stores go to the
 * write-combine buffer), so that a LUT window moved onto another core's
 * memory, or a buffer its owner rewrote, is read again.
 */
void scc_timing_cl1invmb(SCCMachineState *s, SCCCore *c)
{
    SCCCoreTiming *k = tm_core_timing(c);
    int i, set, w;

    /* only the sets that were given such lines: an RCCE get does one
     * CL1INVMB for a few lines (host time only) */
    for (i = 0; i < SCC_L1_SETS / 64; i++) {
        while (k->l1_sets[i]) {
            set = i * 64 + ctz64(k->l1_sets[i]);
            k->l1_sets[i] &= k->l1_sets[i] - 1;
            memset(k->l1_tag[set], 0, sizeof(k->l1_tag[set]));
        }
        while (k->d1_mpbt_sets[i]) {
            set = i * 64 + ctz64(k->d1_mpbt_sets[i]);
            k->d1_mpbt_sets[i] &= k->d1_mpbt_sets[i] - 1;
            for (w = 0; w < SCC_L1_WAYS; w++) {
                if (k->d1_mpbt[set] & (1u << w)) {
                    k->d1_tag[set][w] = 0;
                }
            }
            k->d1_mpbt[set] = 0;
        }
    }
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

static uint64_t tm_hook_tsc(SCCMachineState *s, SCCCore *c)
{
    scc_timing_rdtsc(s, c);
    return scc_timing_tsc(s, c);
}

static int64_t tm_hook_io_time(SCCMachineState *s)
{
    SCCCore *c = tm_current_core();

    return c && c->tm->running ? s->tm->io_arrival : 0;
}

static const SCCTimingHooks tm_hooks = {
    .io = scc_timing_io,
    .release = scc_timing_release,
    .tile_clock = scc_timing_tile_clock,
    .cl1invmb = scc_timing_cl1invmb,
    .hlt = scc_timing_hlt,
    .tsc = tm_hook_tsc,
    .io_time = tm_hook_io_time,
    .region_name = scc_timing_region_name,
    .region = scc_timing_region,
    .lint_delay = scc_timing_lint_delay,
    .mpb_ops = &scc_timing_mpb_ops,
};

/* --- set-up ------------------------------------------------------------- */

static void tm_exit_notify(Notifier *n, void *data)
{
    scc_timing_write_stats(container_of(n, SCCMachineState, timing_exit));
}

bool scc_timing_init(SCCMachineState *s,
                     void (*stalled)(SCCMachineState *s, const char *why),
                     Error **errp)
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
    tm->mpb_mesh_ps = p->mpb_mesh_cycles * tm_period_ps(p->mesh_hz);
    tm->mpb_ps = p->mpb_cycles * tm->core_ps + tm->mpb_mesh_ps;
    tm->crb_ps = p->crb_cycles * tm->core_ps;
    tm->sif_ps = p->sif_cycles * tm->core_ps;
    tm->irq_ps = p->irq_cycles * tm->core_ps;
    tm->mem_r_ps = p->mem_r_cycles * tm_period_ps(p->dram_hz);
    tm->mem_w_ps = p->mem_w_cycles * tm_period_ps(p->dram_hz);
    tm->mem_ws_ps = p->mem_ws_cycles * tm_period_ps(p->dram_hz);
    tm->lookahead = MIN(MIN(tm->mpb_ps, MIN(tm->crb_ps, tm->sif_ps)),
                        MIN(tm->mem_r_ps, tm->mem_ws_ps)) + tm->hop_ps;
    /*
     * A LINT pin changes irq_ps after a GLCFG write arrives, and no access
     * of another core arrives before its key plus the lookahead (a blocked
     * one arrives exactly then).
     */
    tm->irq_lookahead = tm->lookahead + tm->irq_ps;
    tm_mc_init(s);
    tm->keys_stale = true;
    tm->last = -1;
    tm->stalled = stalled;
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
    qemu_add_vm_change_state_handler(tm_vm_state, NULL);
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
    s->timing_hooks = &tm_hooks;
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
        cpu_env(s->core[i].cs)->timing_mcycles = 0;
        cpu_env(s->core[i].cs)->timing_classes = s->tp.insn_classes;
        cpu_env(s->core[i].cs)->timing_cpi_milli = s->tp.cpi_milli;
    }
    memset(s->tm->port_busy, 0, sizeof(s->tm->port_busy));
    memset(s->tm->link, 0, sizeof(s->tm->link));
    memset(s->tm->line_written, 0, sizeof(s->tm->line_written));
    memset(s->tm->line_pollers, 0, sizeof(s->tm->line_pollers));
    s->tm->blocks = 0;
    s->tm->keys_stale = true;
    s->tm->last = -1;
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

void scc_timing_add_props(ObjectClass *oc)
{
    scc_prop_add_bool(oc, "timing", offsetof(SCCMachineState, timing), false,
        "modeled SCC time: per-core clocks and mesh costs, deterministic "
        "(needs -accel tcg,thread=single -icount shift=0,sleep=off)");
    scc_prop_add_bool(oc, "timing-stale",
        offsetof(SCCMachineState, timing_stale), false,
        "timing: MPBT hits return what the L1 holds, stale or not, and each "
        "stale read is reported once (core, address, writer, times)");
    scc_prop_add_bool(oc, "timing-dram", offsetof(SCCMachineState, tp.dram),
        true,
        "timing: time every load and store to DRAM through an L1/L2 model; "
        "off: private memory is in the cost per instruction, several times "
        "faster for programs that move much private data");
    scc_prop_add_bool(oc, "timing-insn-classes",
        offsetof(SCCMachineState, tp.insn_classes), true,
        "timing: the P54C's expensive instructions (multiply, divide, "
        "locked exchange, segment loads, CLI/STI, CPUID, x87 arithmetic) "
        "and interrupt entry and IRET cost Intel's cycle counts; off: "
        "the average (timing-cpi-milli) like any other");
    scc_prop_add_uint64(oc, "timing-mesh-hz",
        offsetof(SCCMachineState, tp.mesh_hz), 800000000,
        "timing: mesh clock");
    scc_prop_add_uint64(oc, "timing-dram-hz",
        offsetof(SCCMachineState, tp.dram_hz), 800000000,
        "timing: DRAM (memory controller) clock");
    scc_prop_add_uint32(oc, "timing-hop-cycles",
        offsetof(SCCMachineState, tp.hop_cycles), 4,
        "timing: mesh cycles per router, L_hop (4: 5 ns, 001 Table 1)");
    /*
     * o_mpb is partly the core's and partly the mesh interface's and the
     * MPB's: 36 core and 36 mesh cycles are 001's 112.6 ns (o_mpb less
     * its instructions) at 533/800 MHz and the design-space paper's 58
     * cycles of read stall at 800/1600 MHz (002 Table I, d = 1).
     */
    scc_prop_add_uint32(oc, "timing-mpb-cycles",
        offsetof(SCCMachineState, tp.mpb_cycles), 36,
        "timing: core cycles of overhead per MPB line access (with "
        "timing-mpb-mesh-cycles: o_mpb less the instructions' own cost)");
    scc_prop_add_uint32(oc, "timing-mpb-mesh-cycles",
        offsetof(SCCMachineState, tp.mpb_mesh_cycles), 36,
        "timing: mesh cycles of overhead per MPB line access (the mesh "
        "interface's and the MPB's part of o_mpb)");
    scc_prop_add_uint32(oc, "timing-crb-cycles",
        offsetof(SCCMachineState, tp.crb_cycles), 60,
        "timing: core cycles of overhead per CRB access");
    scc_prop_add_uint32(oc, "timing-sif-cycles",
        offsetof(SCCMachineState, tp.sif_cycles), 200,
        "timing: core cycles of overhead per system-interface access");
    scc_prop_add_uint32(oc, "timing-irq-cycles",
        offsetof(SCCMachineState, tp.irq_cycles), 20,
        "timing: core cycles from a GLCFG write's arrival to the LINT pin");
    scc_prop_add_uint32(oc, "timing-mpb-service-ps",
        offsetof(SCCMachineState, tp.mpb_service_ps), 5667,
        "timing: ps an MPB port is busy per line; more than "
        "(o_mpb + 2 L_hop) / this concurrent readers queue (5667: 24, 001 "
        "section 3.3)");
    scc_prop_add_uint32(oc, "timing-cpi-milli",
        offsetof(SCCMachineState, tp.cpi_milli), 2070,
        "timing: core cycles per instruction x 1000 (2070: calibrated on "
        "001's o_get^mpb)");
    /* 18 core cycles: 002's 116 MB/s of plain stores that hit the L2,
     * one posted store every 18.4 cycles at 533 MHz */
    scc_prop_add_uint32(oc, "timing-l2-cycles",
        offsetof(SCCMachineState, tp.l2_cycles), 18,
        "timing: core cycles of an L1 miss that hits the L2, and the gap "
        "of a store posted to the L2");
    /* 156 DRAM cycles: 195 ns, 104 core cycles at 533 MHz */
    scc_prop_add_uint32(oc, "timing-mem-r-cycles",
        offsetof(SCCMachineState, tp.mem_r_cycles), 156,
        "timing: DRAM cycles of overhead per DRAM line read, o_mem_r less "
        "the instructions' own cost");
    /*
     * 197 DRAM cycles: 246 ns, and 256 ns with the trip: 002's 125 MB/s of
     * MPBT (write-combined) stores to DRAM, one line in 256 ns. 001's
     * o_mem_w, 461 ns, is a read of the line and this write (RCCE's copy
     * reads each destination line first): 195 + 10 + 246 + 10 ns.
     */
    scc_prop_add_uint32(oc, "timing-mem-w-cycles",
        offsetof(SCCMachineState, tp.mem_w_cycles), 197,
        "timing: DRAM cycles of a line written to DRAM (a write-combine "
        "buffer's line, a dirty line the L2 evicts), less the trip");
    /* 138 DRAM cycles: 172 ns, 182 with the trip: 002's 22 MB/s of plain
     * 4-byte stores to DRAM, each its own write */
    scc_prop_add_uint32(oc, "timing-mem-ws-cycles",
        offsetof(SCCMachineState, tp.mem_ws_cycles), 138,
        "timing: DRAM cycles of one store that misses both caches (or an "
        "uncached one), less the trip; the core posts it and goes on");
    /*
     * 002's saturation points at 800 MHz: a rank serves 32-byte lines at
     * 1.0 GB/s (32 ns a line: 26 cycles), a controller at 1.8 GB/s (17.8
     * ns: 14 cycles).
     */
    scc_prop_add_uint32(oc, "timing-rank-cycles",
        offsetof(SCCMachineState, tp.rank_cycles), 26,
        "timing: DRAM cycles a rank is busy with one transaction (a line "
        "read or written, a store written around)");
    scc_prop_add_uint32(oc, "timing-mc-cycles",
        offsetof(SCCMachineState, tp.mc_cycles), 14,
        "timing: DRAM cycles a memory controller is busy with one "
        "transaction, whatever its rank");
    scc_prop_add_uint32(oc, "timing-mc-window-ns",
        offsetof(SCCMachineState, tp.mc_window_ns), 1000,
        "timing: the stretch of modeled time over which a rank's and a "
        "controller's service is counted; 0: they serve without limit");
    object_class_property_add_str(oc, "timing-stats", tm_get_stats,
                                  tm_set_stats);
    object_class_property_set_description(oc, "timing-stats",
        "timing: write per-core counters and link traffic as CSV to this "
        "file at exit ('-': stderr)");
}
