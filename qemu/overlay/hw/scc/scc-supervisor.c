/*
 * SCC: supervising a run, so that every run ends by itself and says why.
 *
 * - Fail fast (default, as MPI launchers do): the first core that exits
 *   non-zero, faults or panics stops the run; on-failure=continue lets the
 *   other cores go on.
 * - Stall detection: when every started core that has not exited is in
 *   reset, or halted with nothing that could wake it (no pending
 *   interrupt, no armed APIC timer), nothing can ever happen again: the
 *   run ends instead of waiting for the host's time limit.
 * - A report of every core (state, EIP, the symbol and the application's
 *   own EIP) whenever a run ends abnormally, including on SIGTERM/SIGINT,
 *   which is how runners enforce their time limits.
 *
 * A halted core can only be woken by another core (an IPI, an NMI, a
 * release from reset) or by its own APIC timer. So if no core runs and no
 * timer is armed, the state is final. The check runs on the main loop
 * with a host-time period, but its outcome does not depend on host timing:
 * a suspected stall must persist over two checks with no wake-up event in
 * between, and is confirmed with every vCPU paused.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "qemu/osdep.h"
#include "qemu/error-report.h"
#include "qemu/main-loop.h"
#include "system/cpus.h"
#include "system/runstate.h"
#include "exec/cpu-common.h"
#include "hw/core/cpu.h"
#include "hw/i386/apic_internal.h"
#include "target/i386/cpu.h"
#include "hw/scc/scc.h"
#include "gdbstub/thread-extra.h"
#include "trace.h"

#define STALL_PERIOD_MS     100

/* What SIF_CORE_STATE(i) reads: whether core i can take messages. */
int scc_core_state(SCCMachineState *s, SCCCore *c)
{
    if (c->exited) {
        return CORE_STATE_EXITED;
    }
    if (!c->started || c->held) {
        return CORE_STATE_RESET;
    }
    return CORE_STATE_RUNNING;
}

/* The guest kernel names them the same way (one table, in the ABI). */
static const char *const exception_names[32] = SCC_EXCEPTION_NAMES;

static const char *exception_name(uint32_t v)
{
    return v < 32 && exception_names[v] ? exception_names[v] : "reserved";
}

/* "0x00101234 (sleep+0x5 in kernel.elf)", or just the address. */
static char *scc_where(SCCCore *c, bool app, uint32_t addr)
{
    const char *file = NULL;
    const char *sym;
    uint32_t off = 0;

    sym = scc_loader_symbol(c, app, addr, &off, &file);
    if (!sym) {
        return g_strdup_printf("0x%08x", addr);
    }
    return g_strdup_printf("0x%08x (%s+0x%x in %s)", addr, sym, off, file);
}

/*
 * A core in its kernel that was entered from the application has the
 * application's iret frame at the top of its kernel stack (TSS.ESP0).
 */
static bool scc_user_eip(CPUState *cs, uint32_t *eip)
{
    CPUX86State *env = cpu_env(cs);
    uint32_t esp0, frame[2];

    if ((env->hflags & HF_CPL_MASK) == 3 || !(env->cr[0] & CR0_PE_MASK) ||
        !env->tr.base) {
        return false;
    }
    if (cpu_memory_rw_debug(cs, env->tr.base + 4, &esp0, 4, false) ||
        cpu_memory_rw_debug(cs, le32_to_cpu(esp0) - 20, frame, 8, false)) {
        return false;
    }
    if ((le32_to_cpu(frame[1]) & 3) != 3 || le32_to_cpu(frame[1]) > 0xffff) {
        return false;
    }
    *eip = le32_to_cpu(frame[0]);
    return true;
}

static bool scc_apic_timer_armed(SCCCore *c)
{
    APICCommonState *apic = APIC_COMMON(X86_CPU(c->cs)->apic_state);

    return apic->timer && timer_pending(apic->timer) &&
           !(apic->lvt[APIC_LVT_TIMER] & APIC_LVT_MASKED);
}

/* Whether the core runs, or something already armed can wake it. */
static bool scc_core_can_progress(SCCCore *c)
{
    CPUState *cs = c->cs;

    if (!c->started || c->exited || c->held) {
        return false;
    }
    return !cs->halted || cpu_has_work(cs) || scc_apic_timer_armed(c);
}

/* One line of the report: the core's state and where it was. */
static char *scc_core_describe(SCCMachineState *s, SCCCore *c)
{
    g_autofree char *fat = NULL;
    bool user;

    if (c->exited && c->faulted) {
        user = c->fault_eip >= 0x40000000 && c->fault_eip < 0x80000000;
        fat = scc_where(c, user, c->fault_eip);
        return g_strdup_printf("faulted: exception %u (%s) at eip %s, "
                               "address 0x%08x; exit status %d",
                               c->fault_vector,
                               exception_name(c->fault_vector), fat,
                               c->fault_addr, c->exit_status);
    }
    if (c->exited && c->unresponsive_by >= 0) {
        return g_strdup_printf("unresponsive: core %02d gave up waiting for "
                               "it; it was %s; exit status %d",
                               c->unresponsive_by, c->unresponsive_where,
                               c->exit_status);
    }
    if (c->exited) {
        return g_strdup_printf("exited, status %d", c->exit_status);
    }
    if (!c->started) {
        return g_strdup("held in reset, never started");
    }
    if (c->held) {
        return g_strdup("held in reset (by GCBCFG) after it had started");
    }
    return scc_core_where(s, c);
}

/* What a core that runs is doing, and where: its own thread's view. */
char *scc_core_where(SCCMachineState *s, SCCCore *c)
{
    CPUState *cs = c->cs;
    CPUX86State *env = cpu_env(cs);
    g_autofree char *at = NULL, *uat = NULL;
    uint32_t eip, ueip;
    bool user;

    eip = env->eip + env->segs[R_CS].base;
    user = (env->hflags & HF_CPL_MASK) == 3;
    at = scc_where(c, user, eip);
    if (!user && scc_user_eip(cs, &ueip)) {
        g_autofree char *tmp = scc_where(c, true, ueip);
        uat = g_strdup_printf("; application at %s", tmp);
    }
    return g_strdup_printf("%s at eip %s%s",
                           cs->halted ? (env->eflags & IF_MASK ?
                               "halted, waiting for an interrupt" :
                               "halted with interrupts off") :
                               "running",
                           at, uat ? uat : "");
}

/*
 * The report: one line a core, except that runs of cores that never
 * started (a run on a few cores of 48) are folded into one line.
 */
static void scc_report(SCCMachineState *s, const char *headline)
{
    int i, j;

    error_report("scc: %s; core states:", headline);
    for (i = 0; i < s->ncores; i = j) {
        SCCCore *c = &s->core[i];
        g_autofree char *d = NULL;

        j = i + 1;
        if (!c->started) {
            while (j < s->ncores && !s->core[j].started) {
                j++;
            }
            if (j - i > 1) {
                error_report("scc:   cores %02d-%02d: held in reset, never "
                             "started", i, j - 1);
                continue;
            }
        }
        d = scc_core_describe(s, c);
        error_report("scc:   core %02d: %s", i, d);
    }
}

/*
 * The machine's exit status: the status of the lowest-numbered core that
 * failed by itself, else SCC_EXIT_STALLED if the run stalled, else 0.
 */
static int scc_exit_code(SCCMachineState *s, bool stalled)
{
    int i;

    for (i = 0; i < s->ncores; i++) {
        SCCCore *c = &s->core[i];

        if (c->started && c->exited && !c->stopped && c->exit_status) {
            return c->exit_status & 0xff ? c->exit_status & 0xff : 1;
        }
    }
    return stalled ? SCC_EXIT_STALLED : 0;
}

static int scc_failures(SCCMachineState *s)
{
    int i, n = 0;

    for (i = 0; i < s->ncores; i++) {
        n += s->core[i].started && s->core[i].exited &&
             !s->core[i].stopped && s->core[i].exit_status;
    }
    return n;
}

/* Ends the run now (main loop, BQL held): every vCPU stops where it is. */
static void scc_end_run(SCCMachineState *s, const char *why, bool stalled)
{
    int i;

    s->ending = true;
    timer_del(s->stall_timer);
    pause_all_vcpus();
    /* what a core wrote before it was stopped mid-line still reaches the
     * user, ahead of the report */
    for (i = 0; i < s->ncores; i++) {
        scc_core_console_flush(s, &s->core[i]);
    }
    scc_report(s, why);
    for (i = 0; i < s->ncores; i++) {
        SCCCore *c = &s->core[i];

        if (c->started && !c->exited) {
            c->exited = c->stopped = true;
            c->exit_status = stalled ? SCC_EXIT_STALLED : SCC_EXIT_STOPPED;
        }
    }
    qemu_system_shutdown_request_with_code(SHUTDOWN_CAUSE_GUEST_SHUTDOWN,
                                           scc_exit_code(s, stalled));
}

static char *scc_fail_fast_why(SCCMachineState *s)
{
    SCCCore *c = &s->core[s->first_failure];

    return g_strdup_printf("stopping the run: core %02d failed with status "
                           "%d (on-failure=continue would keep the other "
                           "cores running)", c->id, c->exit_status);
}

static void scc_fail_fast_bh(void *opaque)
{
    SCCMachineState *s = opaque;
    g_autofree char *why = NULL;

    if (s->ending) {
        return;
    }
    why = scc_fail_fast_why(s);
    scc_end_run(s, why, false);
}

/*
 * Every started core has exited: the normal end of a run. The last ones
 * may have exited before a failure's stop ran (it waits for the main
 * loop): the report is the one that stop would have made, not one that
 * depends on which came first in host time.
 */
void scc_supervisor_all_exited(SCCMachineState *s)
{
    int failed = scc_failures(s);

    if (s->ending) {
        return;
    }
    s->ending = true;
    timer_del(s->stall_timer);
    if (s->fail_fast) {
        g_autofree char *why = scc_fail_fast_why(s);

        scc_report(s, why);
    } else if (failed) {
        g_autofree char *h = g_strdup_printf("%d core(s) failed", failed);
        scc_report(s, h);
    }
    qemu_system_shutdown_request_with_code(SHUTDOWN_CAUSE_GUEST_SHUTDOWN,
                                           scc_exit_code(s, false));
}

/*
 * A core exited non-zero (its vCPU thread, BQL held). A kernel panic is
 * a fail-fast of its own: the panicking kernel stops every other core by
 * NMI, and each says so before it exits; the machine lets them.
 */
void scc_supervisor_core_failed(SCCMachineState *s, SCCCore *c)
{
    if (s->first_failure < 0) {
        s->first_failure = c->id;
    }
    if (s->keep_going || s->ending || c->exit_status == SCC_EXIT_PANIC ||
        c->exit_status == SCC_EXIT_STOPPED) {
        return;
    }
    /* The last core to exit ends the run anyway, with the same report. */
    s->fail_fast = true;
    aio_bh_schedule_oneshot(qemu_get_aio_context(), scc_fail_fast_bh, s);
}

static char *scc_stall_why;

static void scc_stalled_bh(void *opaque)
{
    SCCMachineState *s = opaque;

    if (!s->ending) {
        scc_end_run(s, scc_stall_why, true);
    }
}

/* The timing mode's scheduler found nothing that can ever run (vCPU
 * thread, BQL held): end the run from the main loop. */
void scc_supervisor_stalled(SCCMachineState *s, const char *why)
{
    g_free(scc_stall_why);
    scc_stall_why = g_strdup(why);
    aio_bh_schedule_oneshot(qemu_get_aio_context(), scc_stalled_bh, s);
}

static bool scc_stalled(SCCMachineState *s)
{
    int i, waiting = 0;

    for (i = 0; i < s->ncores; i++) {
        SCCCore *c = &s->core[i];

        if (!c->started || c->exited) {
            continue;
        }
        if (scc_core_can_progress(c)) {
            return false;
        }
        waiting++;
    }
    return waiting > 0;
}

static void scc_stall_check(void *opaque)
{
    SCCMachineState *s = opaque;

    if (s->ending) {
        return;
    }
    if (!runstate_is_running() || !scc_stalled(s)) {
        s->stall_checks = 0;
    } else if (s->stall_checks == 0 || s->events != s->stall_events) {
        s->stall_checks = 1;            /* suspected: look again later */
    } else {
        /* Seen twice with no wake-up in between: confirm, nothing moving. */
        pause_all_vcpus();
        if (scc_stalled(s)) {
            scc_end_run(s, "no core can make progress (every started core "
                        "has exited, is in reset, or is halted with no "
                        "interrupt that could wake it)", true);
            return;
        }
        resume_all_vcpus();
        s->stall_checks = 0;
    }
    s->stall_events = s->events;
    timer_mod(s->stall_timer,
              qemu_clock_get_ms(QEMU_CLOCK_REALTIME) + STALL_PERIOD_MS);
}

/* SIGTERM or SIGINT (a runner's time limit, Ctrl-C): say where cores were. */
static void scc_shutdown_notify(Notifier *n, void *data)
{
    SCCMachineState *s = container_of(n, SCCMachineState, shutdown_notifier);
    ShutdownCause cause = *(ShutdownCause *)data;

    if (cause != SHUTDOWN_CAUSE_HOST_SIGNAL || s->ending) {
        return;
    }
    s->ending = true;
    timer_del(s->stall_timer);
    pause_all_vcpus();
    scc_report(s, "stopped by a signal (a time limit?)");
}

/* gdb's thread list: "core 05 (held)" rather than QEMU's "CPU#5
 * [halted ]", since a held core and one waiting in HLT look alike there
 * and gdb's thread number is the core id plus one. */
static char *scc_gdb_thread_extra(CPUState *cs)
{
    SCCMachineState *s = SCC_MACHINE(qdev_get_machine());
    SCCCore *c;

    if (cs->cpu_index < 0 || cs->cpu_index >= s->ncores) {
        return NULL;
    }
    c = &s->core[cs->cpu_index];
    if (c->exited) {
        return g_strdup_printf("core %02d (exited, status %d)", c->id, c->exit_status);
    }
    return g_strdup_printf("core %02d (%s)", c->id,
                           scc_core_state(s, c) == CORE_STATE_RESET ? "held" :
                           cs->halted ? "waiting in hlt" : "running");
}

void scc_supervisor_init(SCCMachineState *s)
{
    gdb_thread_extra_hook = scc_gdb_thread_extra;
    s->stall_timer = timer_new_ms(QEMU_CLOCK_REALTIME, scc_stall_check, s);
    s->shutdown_notifier.notify = scc_shutdown_notify;
    qemu_register_shutdown_notifier(&s->shutdown_notifier);
}

void scc_supervisor_reset(SCCMachineState *s)
{
    s->ending = false;
    s->first_failure = -1;
    s->fail_fast = false;
    s->stall_checks = 0;
    timer_mod(s->stall_timer,
              qemu_clock_get_ms(QEMU_CLOCK_REALTIME) + STALL_PERIOD_MS);
}
