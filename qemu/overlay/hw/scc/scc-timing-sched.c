/*
 * SCC timing mode, the scheduler: which core runs next, and how far.
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
#include "hw/scc/scc.h"
#include "hw/scc/scc-timing.h"
#include "trace.h"
#include "scc-timing-internal.h"

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
    s->tm->stalled(s, why->str);
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
        if (tm->debug_stopping) {
            /*
             * The core due next hit a breakpoint: wait for the stop it
             * asked for. Another core run meanwhile would run unbounded
             * until that stop came, as far as host time let it, and gdb
             * would change modeled numbers.
             */
            return NULL;
        }
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
    /*
     * The memory controllers count service in a ring of windows: no core
     * may run further ahead of the others than half of it, or its
     * requests would take the slots of windows others have yet to reach.
     * Stalls move the clock beyond what the budget counts: tm_set_clock
     * ends the run once one passes mc_end.
     */
    k->mc_end = tm->mc_window_ps && second != NEVER ?
                second + tm->mc_window_ps * TM_MC_HORIZON : NEVER;
    end = MIN(end, k->mc_end);
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

    if (ret == EXCP_DEBUG) {
        tm_machine->tm->debug_stopping = true;
    }

    tm_core_timing(c)->insns += executed;
    tm_core_timing(c)->n.instructions += executed;
    tm_core_timing(c)->running = false;
    tm_catch_up(c);
    cpu_env(cs)->timing_mpb.mark = -1;     /* a new run, new marks */
}

/* The stop a breakpoint asked for is done (or the machine runs again). */
void tm_vm_state(void *opaque, bool running, RunState state)
{
    tm_machine->tm->debug_stopping = false;
}

const TCGTimingOps tm_ops = {
    .next = tm_next,
    .ran = tm_ran,
};
