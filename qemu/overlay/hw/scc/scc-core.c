/*
 * SCC: the cores. Creating them, their reset and LINT inputs (which the
 * tiles' GPIO lines drive: GCBCFG and GLCFG), and their exits.
 *
 * Every core is a computer of its own: a triple fault stops that core and
 * is reported, where a PC would reset. The machine exits once every core
 * that was started has exited.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "qemu/osdep.h"
#include "qemu/error-report.h"
#include "qemu/log.h"
#include "qemu/main-loop.h"
#include "qapi/error.h"
#include "system/runstate.h"
#include "hw/irq.h"
#include "hw/i386/apic.h"
#include "hw/i386/apic_internal.h"
#include "target/i386/cpu.h"
#include "hw/scc/scc.h"
#include "trace.h"

#define APIC_PAGE       0xFEE00000
/* The P54C of the SCC: family 5, model 2, no MMX. */
#define P54C_MODEL      2

/* Set once the machine is made: device accesses ask for it all the time. */
static SCCMachineState *scc_the_machine;

SCCMachineState *scc_machine(void)
{
    return scc_the_machine ? scc_the_machine :
                             SCC_MACHINE(qdev_get_machine());
}

/* The core whose vCPU thread is running this device access, if any. */
SCCCore *scc_current_core(void)
{
    SCCMachineState *s = scc_machine();

    if (!current_cpu || current_cpu->cpu_index >= s->ncores) {
        return NULL;
    }
    return &s->core[current_cpu->cpu_index];
}

static SCCCore *scc_core_of_env(CPUX86State *env)
{
    return &scc_machine()->core[env_cpu(env)->cpu_index];
}

/* Runs on the core's own thread: a core in reset is a halted, reset CPU. */
static void scc_core_do_reset(CPUState *cs, run_on_cpu_data held)
{
    cpu_reset(cs);
    x86_cpu_after_reset(X86_CPU(cs));
    cs->halted = held.host_int;
}

static void scc_core_set_reset(SCCMachineState *s, SCCCore *c, bool held)
{
    trace_scc_core_reset(c->id, held);
    if (!held) {
        if (!c->boot) {
            qemu_log_mask(LOG_GUEST_ERROR, "scc: core %d released without "
                          "an image: it runs whatever its DRAM holds\n",
                          c->id);
        }
        c->started = true;
        c->exited = false;
        if (s->timing_hooks) {
            s->timing_hooks->release(s, c);
        }
    }
    c->held = held;
    s->events++;
    async_run_on_cpu(c->cs, scc_core_do_reset, RUN_ON_CPU_HOST_INT(held));
}

/* Machine reset: load every image, then release the cores that run. */
void scc_cores_reset(SCCMachineState *s)
{
    int i;

    memory_region_transaction_begin();
    for (i = 0; i < s->ncores; i++) {
        SCCCore *c = &s->core[i];

        x86_cpu_after_reset(X86_CPU(c->cs));
        scc_lut_reset(s, c);
        memset(c->line, 0, sizeof(c->line));
        c->exited = false;
        c->stopped = false;
        c->faulted = false;
        c->fault_vector = c->fault_eip = c->fault_addr = 0;
        c->unresponsive_by = -1;
        g_free(c->unresponsive_where);
        c->unresponsive_where = NULL;
        c->exit_status = 0;
        c->started = c->boot && !c->boot->hold;
        c->held = !c->started;
        if (c->boot) {
            scc_loader_load(s, c, &error_fatal);
        }
        c->cs->halted = !c->started;
    }
    memory_region_transaction_commit();
}

/* The reset input: its tile's GCBCFG bit (the line scc.c wires). */
static void scc_core_reset_pin(void *opaque, int n, int level)
{
    SCCCore *c = opaque;

    scc_core_set_reset(c->scc, c, level);
}

/* A LINT input (@pin 0 or 1): its tile's GLCFG, through the model's delay
 * in timing mode. */
static void scc_core_lint_pin(void *opaque, int pin, int level)
{
    SCCCore *c = opaque;
    DeviceState *apic = X86_CPU(c->cs)->apic_state;
    uint32_t lvt;

    trace_scc_core_lint(c->id, pin, level);
    c->scc->events++;
    if (pin == 0) {
        lvt = APIC_COMMON(apic)->lvt[APIC_LVT_LINT0];
        if (!(lvt & APIC_LVT_MASKED) && ((lvt >> 8) & 7) == APIC_DM_EXTINT) {
            qemu_log_mask(LOG_GUEST_ERROR, "scc: core %d: LINT0 is in ExtINT "
                          "mode, but there is no 8259: not delivered\n", c->id);
            return;
        }
        apic_deliver_pic_intr(apic, level);
    } else if (level) {
        apic_deliver_nmi(apic);
    }
}

void scc_core_exit(SCCMachineState *s, SCCCore *c, int status, const char *why)
{
    int i;

    BQL_LOCK_GUARD();
    if (c->exited || s->ending) {
        return;
    }
    trace_scc_core_exit(c->id, status);
    scc_core_console_flush(s, c);
    c->exited = true;
    c->held = true;
    c->exit_status = status;
    s->events++;
    /* Exited means stopped: nothing, not even an NMI, runs it again. */
    async_run_on_cpu(c->cs, scc_core_do_reset, RUN_ON_CPU_HOST_INT(true));
    if (why) {
        error_report("scc: core %02d failed: %s (status %d)", c->id, why,
                     status);
    } else if (status) {
        error_report("scc: core %02d failed: exit status %d", c->id, status);
    }
    for (i = 0; i < s->ncores; i++) {
        if (s->core[i].started && !s->core[i].exited) {
            if (status) {
                scc_supervisor_core_failed(s, c);
            }
            return;
        }
    }
    scc_supervisor_all_exited(s);
}

static uint64_t scc_hook_get_tsc(CPUX86State *env)
{
    return scc_clock_core_cycles(scc_machine(), scc_core_of_env(env));
}

/*
 * On core @cs's own thread, where its registers are up to date: @by gave
 * up waiting for it (SIF_UNRESPONSIVE). It ends as a faulting core does,
 * with where it was for the report.
 */
static void scc_core_do_unresponsive(CPUState *cs, run_on_cpu_data by)
{
    SCCMachineState *s = scc_machine();
    SCCCore *c = &s->core[cs->cpu_index];
    g_autofree char *why = NULL;

    if (c->exited || s->ending) {
        return;
    }
    c->unresponsive_by = by.host_int;
    c->unresponsive_where = scc_core_where(s, c);
    why = g_strdup_printf("unresponsive: core %02d gave up waiting for it "
                          "(it was %s)", c->unresponsive_by,
                          c->unresponsive_where);
    scc_core_exit(s, c, SCC_EXIT_UNRESPONSIVE, why);
}

void scc_core_unresponsive(SCCMachineState *s, SCCCore *by, uint32_t id)
{
    SCCCore *c;

    if (id >= s->ncores || id == by->id) {
        qemu_log_mask(LOG_GUEST_ERROR, "scc: core %d: SIF_UNRESPONSIVE names "
                      "core %u: not another core of the chip\n", by->id, id);
        return;
    }
    c = &s->core[id];
    trace_scc_core_unresponsive(id, by->id);
    /*
     * Synchronous: the writer goes on only once the core has ended, so
     * the run's end (fail-fast, or the writer's own exit first) does not
     * depend on which host thread gets there first.
     */
    if (c->started && !c->exited) {
        run_on_cpu(c->cs, scc_core_do_unresponsive,
                   RUN_ON_CPU_HOST_INT(by->id));
    }
}

static bool scc_hook_triple_fault(CPUX86State *env, int intno)
{
    SCCCore *c = scc_core_of_env(env);
    g_autofree char *why = g_strdup_printf(
        "triple fault (exception %d while handling a double fault) "
        "at CS:EIP %04x:%08x", intno, env->segs[R_CS].selector,
        (uint32_t)env->eip);

    /* Like a shutdown cycle: the core stays stopped until it is reset. */
    env->eflags &= ~IF_MASK;
    env_cpu(env)->halted = 1;
    scc_core_exit(scc_machine(), c, SCC_EXIT_TRIPLE_FAULT, why);
    return true;
}

static void scc_hook_cl1invmb(CPUX86State *env)
{
    SCCMachineState *s = scc_machine();

    if (s->timing_hooks) {
        s->timing_hooks->cl1invmb(s, scc_core_of_env(env));
    }
}

static void scc_hook_hlt(CPUX86State *env)
{
    SCCCore *c = scc_core_of_env(env);
    g_autofree char *why = NULL;

    if (c->scc->timing_hooks) {
        c->scc->timing_hooks->hlt(c->scc, c);
    }
    if ((env->eflags & IF_MASK) || c->exited) {
        return;
    }
    why = g_strdup_printf("halted with interrupts disabled at EIP %08x "
                          "without writing its exit register",
                          (uint32_t)env->eip);
    scc_core_exit(scc_machine(), c, SCC_EXIT_HALTED, why);
}

static const X86MachineHooks scc_x86_hooks = {
    .get_tsc = scc_hook_get_tsc,
    .triple_fault = scc_hook_triple_fault,
    .hlt = scc_hook_hlt,
    .cl1invmb = scc_hook_cl1invmb,
};

void scc_cores_init(SCCMachineState *s)
{
    MachineState *ms = MACHINE(s);
    int i;

    scc_the_machine = s;
    apic_set_max_apic_id(s->ncores);
    for (i = 0; i < s->ncores; i++) {
        SCCCore *c = &s->core[i];
        g_autofree char *apic_name = g_strdup_printf("scc-core%d-apic", i);
        APICCommonState *apic;
        Object *cpu;

        c->scc = s;
        c->id = i;
        c->tile = i / s->cores_per_tile;
        c->z = i % s->cores_per_tile;
        c->lint = qemu_allocate_irqs(scc_core_lint_pin, c, 2);
        c->reset = qemu_allocate_irq(scc_core_reset_pin, c, 0);
        scc_lut_init(s, c);

        cpu = object_new(ms->cpu_type);
        object_property_set_uint(cpu, "apic-id", i, &error_fatal);
        object_property_set_int(cpu, "model", P54C_MODEL, &error_fatal);
        object_property_set_bool(cpu, "mmx", false, &error_fatal);
        object_property_set_bool(cpu, "scc", true, &error_fatal);
        object_property_set_link(cpu, "memory", OBJECT(&c->root),
                                 &error_fatal);
        qdev_realize(DEVICE(cpu), NULL, &error_fatal);
        object_unref(cpu);
        c->cs = CPU(cpu);
        assert(c->cs->cpu_index == i);

        apic = APIC_COMMON(X86_CPU(cpu)->apic_state);
        apic->timer_hz = s->core_hz;
        apic->isolated = true;
        memory_region_init_alias(&c->apic, OBJECT(s), apic_name,
                                 &apic->io_memory, 0, 0x1000);
        memory_region_add_subregion_overlap(&c->root, APIC_PAGE, &c->apic, 1);
    }
    x86_machine_hooks = &scc_x86_hooks;
}
