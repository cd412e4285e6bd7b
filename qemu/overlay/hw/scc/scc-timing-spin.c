/*
 * SCC timing mode, spin detection: a core that polls an MPB line is parked
 * and woken.
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

/* --- spinning cores ----------------------------------------------------- */

/* Jump a parked core's clock by whole iterations to the first read at or
 * after @t (a write's arrival or an event), and let it run. */
void tm_unpark(SCCMachineState *s, SCCCore *c, int64_t t)
{
    SCCCoreTiming *k = tm_core_timing(c);
    int64_t first = k->poll_t + k->poll_rlat, n = 0;

    if (t > first) {
        n = (t - first + k->poll_dt - 1) / k->poll_dt;
    }
    trace_scc_timing_unpark(c->id, t, n);
    tm_set_state(s, c, SCC_TM_RUN);
    k->n.poll_instructions += n * k->poll_dinsn;
    tm_set_clock(s, c, k->poll_t + n * k->poll_dt - k->cpi_ps);
    k->poll_repeats = 0;
}

void tm_wake_pollers(SCCMachineState *s, uint32_t line, int64_t t)
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
uint64_t tm_loop_state(SCCCore *c)
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
void tm_spin_check(SCCMachineState *s, SCCCore *c, uint32_t key,
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
