/*
 * SCC timing mode: what its parts share (scc-timing.c: the core clocks,
 * mesh transactions and set-up; scc-timing-events.c, -spin.c, -mpb.c,
 * -dram.c, -sched.c, -stats.c). The model is described in scc-timing.c.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef HW_SCC_SCC_TIMING_INTERNAL_H
#define HW_SCC_SCC_TIMING_INTERNAL_H

#include "hw/core/cpu.h"
#include "system/runstate.h"
#include "hw/i386/apic_internal.h"
#include "system/tcg-timing.h"
#include "target/i386/cpu.h"
#include "hw/scc/scc.h"
#include "hw/scc/scc-timing.h"

#define PS_PER_S        1000000000000LL
#define NEVER           INT64_MAX
/* instructions; a core alone stops now and then */
#define MAX_BUDGET      100000000
/* identical periodic reads before parking */
#define POLL_REPEATS    3

enum { DIR_E, DIR_S, DIR_W, DIR_N };

extern SCCMachineState *tm_machine;

/* One cycle of a clock of @hz, in ps (rounded). */
static inline int64_t tm_period_ps(uint64_t hz)
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

static inline bool tm_in_run(SCCCore *c)
{
    return c->tm->running && current_cpu == c->cs;
}

static inline int64_t tm_insns(SCCCore *c)
{
    SCCCoreTiming *k = tm_core_timing(c);

    return k->insns +
           (tm_in_run(c) ? tcg_timing_executed(c->cs, k->budget) : 0);
}

/*
 * Milli-cycles the target's instruction classes have added on @c (its
 * expensive instructions and interrupt entries: env->timing_mcycles).
 */
static inline int64_t tm_mcycles(SCCCore *c)
{
    return cpu_env(c->cs)->timing_mcycles;
}

/*
 * @mc milli-cycles in ps. Of the running sum, so that the clock's part
 * of it (tm_class_ps(now) - tm_class_ps(mc0)) does not depend on where
 * the clock was last set.
 */
static inline int64_t tm_class_ps(SCCCoreTiming *k, int64_t mc)
{
    return mc * k->core_ps / 1000;
}

/* the hooks (SCCTimingHooks), in the files of their concerns */
int64_t scc_timing_now(SCCMachineState *s, SCCCore *c);       /* ps */
void scc_timing_io(SCCMachineState *s, int tile, bool sif);
void scc_timing_lint(SCCMachineState *s, SCCCore *c, int pin, bool level);
void scc_timing_release(SCCMachineState *s, SCCCore *c);
void scc_timing_cl1invmb(SCCMachineState *s, SCCCore *c);
void scc_timing_region_name(SCCMachineState *s, SCCCore *c, uint8_t byte);
void scc_timing_region(SCCMachineState *s, SCCCore *c, uint32_t cmd);
void scc_timing_hlt(SCCMachineState *s, SCCCore *c);
void scc_timing_rdtsc(SCCMachineState *s, SCCCore *c);
int64_t scc_timing_tsc(SCCMachineState *s, SCCCore *c);  /* its own cycles */
void scc_timing_tile_clock(SCCMachineState *s, int tile, uint32_t mhz);
qemu_irq *scc_timing_lint_delay(SCCMachineState *s, SCCCore *c,
                                qemu_irq *pins);
extern const MemoryRegionOps scc_timing_mpb_ops;
void scc_timing_write_stats(SCCMachineState *s);

/* scc-timing.c */
void tm_set_state(SCCMachineState *s, SCCCore *c, int state);
void tm_set_clock(SCCMachineState *s, SCCCore *c, int64_t t);
int tm_hops(SCCMachineState *s, int from, int to);
void tm_catch_up(SCCCore *c);
void tm_io_event(SCCCore *c);
G_NORETURN void tm_restart(SCCMachineState *s, SCCCore *c);
bool tm_can_restart(SCCCore *c);
int64_t tm_arrival(SCCMachineState *s, SCCCore *c, int tile,
                   int64_t overhead);
void tm_check_arrival(SCCMachineState *s, SCCCore *c, int64_t a);
int64_t tm_transact(SCCMachineState *s, SCCCore *c, int tile,
                    int64_t overhead, bool mpb, uint64_t *stall);

/* scc-timing-events.c */
int64_t tm_next_event(SCCCore *c);
void tm_limit_to(SCCMachineState *s, SCCCoreTiming *k, int o,
                 int64_t key);
void tm_reschedule(SCCMachineState *s, SCCCore *c, int64_t key);
void tm_set_core_clock(SCCMachineState *s, SCCCore *c, uint64_t hz,
                       int64_t now);
bool tm_listened(SCCCore *c, int64_t t);
void tm_deliver(SCCMachineState *s, SCCCore *c);
extern const APICTimerOps tm_apic_ops;

/* scc-timing-spin.c */
void tm_unpark(SCCMachineState *s, SCCCore *c, int64_t t);
void tm_wake_pollers(SCCMachineState *s, uint32_t line, int64_t t);
uint64_t tm_loop_state(SCCCore *c);
void tm_spin_check(SCCMachineState *s, SCCCore *c, uint32_t key,
                   uint64_t val, uint32_t line, int64_t rlat);

/*
 * The way of an L1 set (@tags, 0: invalid) a fill replaces: an invalid
 * one if there is one, the lowest, else the one the set's pseudo-LRU
 * bits @plru point to (the Pentium family's 4-way caches do both).
 */
static inline int tm_l1_victim(const uint32_t *tags, uint8_t plru)
{
    int w;

    QEMU_BUILD_BUG_ON(SCC_L1_WAYS != 4);
    for (w = 0; w < SCC_L1_WAYS; w++) {
        if (!tags[w]) {
            return w;
        }
    }
    return tcg_timing_plru_victim(plru);
}

/* scc-timing-mpb.c */
void tm_flush_wcb(SCCMachineState *s, SCCCore *c);

/* scc-timing-dram.c */
void tm_filter_clear(CPUState *cs);
void tm_bus_quiet(SCCMachineState *s, SCCCore *c);
void tm_dram_wcb_out(SCCMachineState *s, SCCCore *c);
void tm_mc_init(SCCMachineState *s);
int64_t tm_mc_wait(SCCMachineState *s, SCCCore *c, uint64_t pa, int64_t t);
void tm_ram(CPUState *cs, uint64_t paddr, int size, bool store,
            bool mpbt, int mmu_idx, uint64_t vaddr, void *haddr,
            int tlb_flags);

/* scc-timing-sched.c */
extern const TCGTimingOps tm_ops;
void tm_vm_state(void *opaque, bool running, RunState state);

#endif
