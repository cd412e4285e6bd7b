/*
 * Intel SCC-like many-core chip: the machine.
 *
 * Builds the mesh of tiles (MPB, CRB), the cores with their LUT-formed
 * address spaces, the memory controllers' DRAM and the system interface,
 * and boots each core from its own image. See docs/system/i386/scc.rst.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "qemu/osdep.h"
#include "qemu/error-report.h"
#include "qemu/units.h"
#include "qapi/error.h"
#include "qapi/visitor.h"
#include "migration/blocker.h"
#include "chardev/char.h"
#include "system/system.h"
#include "system/reset.h"
#include "hw/boards.h"
#include "target/i386/cpu.h"
#include "hw/scc/scc.h"

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

static bool scc_check_config(SCCMachineState *s, Error **errp)
{
    MachineState *ms = MACHINE(s);
    unsigned ncores = s->mesh_x * s->mesh_y * s->cores_per_tile;

    if (s->mesh_x < 2 || s->mesh_x > 6 || s->mesh_y < 2 || s->mesh_y > 4) {
        error_setg(errp, "scc: mesh %ux%u not supported: mesh-x must be 2-6 "
                   "and mesh-y 2-4", s->mesh_x, s->mesh_y);
        return false;
    }
    if (s->mesh_x * s->mesh_y > SCC_MAX_TILES) {
        error_setg(errp, "scc: mesh %ux%u has more than %d tiles, the "
                   "default LUT's MPB and CRB slots", s->mesh_x, s->mesh_y,
                   SCC_MAX_TILES);
        return false;
    }
    if (s->cores_per_tile < 1 || s->cores_per_tile > 2) {
        error_setg(errp, "scc: cores-per-tile must be 1 or 2, not %u",
                   s->cores_per_tile);
        return false;
    }
    if (s->private_mem < SCC_PAGE_SIZE || s->private_mem > SCC_SLOT_SIZE ||
        s->private_mem % SCC_PAGE_SIZE) {
        error_setg(errp, "scc: private-mem must be a multiple of 16 MiB "
                   "from 16 MiB to 656 MiB, not %" PRIu64 " bytes",
                   s->private_mem);
        return false;
    }
    if (s->shared_mem < SCC_PAGE_SIZE || s->shared_mem > SCC_SHARED_MAX ||
        s->shared_mem % SCC_PAGE_SIZE) {
        error_setg(errp, "scc: shared-mem must be a multiple of 16 MiB "
                   "from 16 MiB to 320 MiB, not %" PRIu64 " bytes",
                   s->shared_mem);
        return false;
    }
    if (ms->smp.max_cpus < ncores ||
        (ms->smp.cpus != SCC_MAX_CORES && ms->smp.cpus != ncores)) {
        error_setg(errp, "scc: -smp %u does not match the chip: this mesh "
                   "has %u cores, one per CPU; leave -smp out", ms->smp.cpus,
                   ncores);
        return false;
    }
    if (s->core_hz < 1000000 || s->gtsc_hz < 1000000 ||
        s->core_hz > 10000000000ULL || s->gtsc_hz > 10000000000ULL) {
        error_setg(errp, "scc: core-hz and gtsc-hz must be 1 MHz to 10 GHz");
        return false;
    }
    return true;
}

static void scc_console_init(SCCMachineState *s)
{
    Chardev *chr = NULL;

    if (s->console_id) {
        chr = qemu_chr_find(s->console_id);
        if (!chr) {
            error_report("scc: console chardev '%s' not found", s->console_id);
            exit(1);
        }
    } else {
        chr = serial_hd(0);
    }
    if (chr) {
        qemu_chr_fe_init(&s->console, chr, &error_fatal);
    } else {
        warn_report("scc: no console chardev (use -serial or console=): "
                    "core output is discarded");
    }
}

/*
 * No state of the chip is migratable: the DRAM and MPBs are RAM regions
 * outside migration, and the LUTs, locks, GLCFG pins, atomic counters and
 * the supervisor's view of the cores are in no VMState. A snapshot or a
 * migration would silently lose them, so both are refused.
 */
static Error *scc_migration_blocker;

static void scc_migration_block(Error **errp)
{
    error_setg(&scc_migration_blocker, "scc: the machine cannot be saved or "
               "migrated: its DRAM, MPBs, LUTs and locks are not part of "
               "any migration state");
    migrate_add_blocker(&scc_migration_blocker, errp);
}

static void scc_machine_init(MachineState *ms)
{
    SCCMachineState *s = SCC_MACHINE(ms);
    int i;

    scc_the_machine = s;
    if (!scc_check_config(s, &error_fatal)) {
        return;
    }
    s->ntiles = s->mesh_x * s->mesh_y;
    s->ncores = s->ntiles * s->cores_per_tile;
    if (!scc_timing_init(s, &error_fatal)) {
        return;
    }

    for (i = 0; i < s->ntiles; i++) {
        SCCTile *t = &s->tile[i];

        t->scc = s;
        t->id = i;
        t->x = i % s->mesh_x;
        t->y = i / s->mesh_x;
        scc_mpb_init(s, t);
        scc_crb_init(s, t);
    }
    memory_region_init_ram_flags_nomigrate(&s->shared_ram, OBJECT(s),
                                           "scc-shared-dram", s->shared_mem,
                                           RAM_NORESERVE, &error_fatal);
    scc_sif_init(s);
    scc_cores_init(s);
    scc_supervisor_init(s);
    scc_console_init(s);
    scc_migration_block(&error_fatal);

    /* Refuse bad images and core maps before anything runs. */
    scc_loader_plan(s, &error_fatal);
}

static void scc_machine_reset(MachineState *ms, ResetType type)
{
    SCCMachineState *s = SCC_MACHINE(ms);
    int i;

    qemu_devices_reset(type);
    scc_clock_reset(s);
    scc_timing_reset(s);
    scc_supervisor_reset(s);
    scc_sif_reset(s);
    for (i = 0; i < s->ntiles; i++) {
        scc_crb_reset(s, &s->tile[i]);
    }
    scc_cores_reset(s);
}

/*
 * Knobs are class properties (so that -M scc,help lists them); the opaque
 * pointer is the field's offset in SCCMachineState.
 */
#define SCC_FIELD(obj, opaque, type) \
    ((type *)((char *)SCC_MACHINE(obj) + (uintptr_t)(opaque)))

static void scc_get_u32(Object *obj, Visitor *v, const char *name,
                        void *opaque, Error **errp)
{
    visit_type_uint32(v, name, SCC_FIELD(obj, opaque, uint32_t), errp);
}

static void scc_set_u32(Object *obj, Visitor *v, const char *name,
                        void *opaque, Error **errp)
{
    visit_type_uint32(v, name, SCC_FIELD(obj, opaque, uint32_t), errp);
}

static void scc_get_u64(Object *obj, Visitor *v, const char *name,
                        void *opaque, Error **errp)
{
    visit_type_uint64(v, name, SCC_FIELD(obj, opaque, uint64_t), errp);
}

static void scc_set_u64(Object *obj, Visitor *v, const char *name,
                        void *opaque, Error **errp)
{
    visit_type_uint64(v, name, SCC_FIELD(obj, opaque, uint64_t), errp);
}

static void scc_get_size(Object *obj, Visitor *v, const char *name,
                         void *opaque, Error **errp)
{
    visit_type_size(v, name, SCC_FIELD(obj, opaque, uint64_t), errp);
}

static void scc_set_size(Object *obj, Visitor *v, const char *name,
                         void *opaque, Error **errp)
{
    visit_type_size(v, name, SCC_FIELD(obj, opaque, uint64_t), errp);
}

static char *scc_get_coremap(Object *obj, Error **errp)
{
    return g_strdup(SCC_MACHINE(obj)->coremap);
}

static void scc_set_coremap(Object *obj, const char *value, Error **errp)
{
    SCCMachineState *s = SCC_MACHINE(obj);

    g_free(s->coremap);
    s->coremap = g_strdup(value);
}

static char *scc_get_console(Object *obj, Error **errp)
{
    return g_strdup(SCC_MACHINE(obj)->console_id);
}

static void scc_set_console(Object *obj, const char *value, Error **errp)
{
    SCCMachineState *s = SCC_MACHINE(obj);

    g_free(s->console_id);
    s->console_id = g_strdup(value);
}

static char *scc_get_on_failure(Object *obj, Error **errp)
{
    return g_strdup(SCC_MACHINE(obj)->keep_going ? "continue" : "stop");
}

static void scc_set_on_failure(Object *obj, const char *value, Error **errp)
{
    SCCMachineState *s = SCC_MACHINE(obj);

    if (!strcmp(value, "stop")) {
        s->keep_going = false;
    } else if (!strcmp(value, "continue")) {
        s->keep_going = true;
    } else {
        error_setg(errp, "scc: on-failure must be 'stop' or 'continue', not "
                   "'%s'", value);
    }
}

static void scc_machine_instance_init(Object *obj)
{
    SCCMachineState *s = SCC_MACHINE(obj);

    s->mesh_x = 6;
    s->mesh_y = 4;
    s->cores_per_tile = 2;
    s->private_mem = 64 * MiB;
    s->shared_mem = 64 * MiB;
    s->core_hz = 533000000;
    s->gtsc_hz = 125000000;
    scc_timing_set_defaults(s);
}

/* Properties backed by fields of SCCMachineState (scc.h). */
void scc_add_field_props(ObjectClass *oc, const SCCFieldProp *props, int n)
{
    int i;

    for (i = 0; i < n; i++) {
        const char *t = props[i].type;
        ObjectPropertyAccessor *get = !strcmp(t, "size") ? scc_get_size :
                                      !strcmp(t, "uint64") ? scc_get_u64 :
                                      scc_get_u32;
        ObjectPropertyAccessor *set = !strcmp(t, "size") ? scc_set_size :
                                      !strcmp(t, "uint64") ? scc_set_u64 :
                                      scc_set_u32;

        object_class_property_add(oc, props[i].name, t, get, set, NULL,
                                  (void *)(uintptr_t)props[i].offset);
        object_class_property_set_description(oc, props[i].name,
                                              props[i].desc);
    }
}

static void scc_machine_add_props(ObjectClass *oc)
{
    static const SCCFieldProp props[] = {
        { "mesh-x", "uint32", offsetof(SCCMachineState, mesh_x),
          "tiles in x (2-6, default 6)" },
        { "mesh-y", "uint32", offsetof(SCCMachineState, mesh_y),
          "tiles in y (2-4, default 4)" },
        { "cores-per-tile", "uint32", offsetof(SCCMachineState, cores_per_tile),
          "cores on each tile (1 or 2, default 2)" },
        { "private-mem", "size", offsetof(SCCMachineState, private_mem),
          "private DRAM per core (16M-656M in steps of 16M, default 64M)" },
        { "shared-mem", "size", offsetof(SCCMachineState, shared_mem),
          "shared DRAM on MC0 (16M-320M in steps of 16M, default 64M)" },
        { "core-hz", "uint64", offsetof(SCCMachineState, core_hz),
          "core clock: TSC and APIC timer rate (default 533000000)" },
        { "gtsc-hz", "uint64", offsetof(SCCMachineState, gtsc_hz),
          "global timestamp counter rate (default 125000000)" },
    };

    scc_add_field_props(oc, props, ARRAY_SIZE(props));
    object_class_property_add_str(oc, "coremap", scc_get_coremap,
                                  scc_set_coremap);
    object_class_property_set_description(oc, "coremap",
        "core map file: which image and arguments each core gets");
    object_class_property_add_str(oc, "on-failure", scc_get_on_failure,
                                  scc_set_on_failure);
    object_class_property_set_description(oc, "on-failure",
        "when a core fails (exits non-zero, faults): 'stop' the run at once "
        "(default) or 'continue' with the other cores");
    object_class_property_add_str(oc, "console", scc_get_console,
                                  scc_set_console);
    object_class_property_set_description(oc, "console",
        "chardev id for the cores' console (default: first -serial)");
}

static void scc_machine_class_init(ObjectClass *oc, void *data)
{
    MachineClass *mc = MACHINE_CLASS(oc);
    static const char * const valid_cpu_types[] = {
        X86_CPU_TYPE_NAME("pentium"),
        NULL
    };

    mc->desc = "Intel SCC-like 48-core chip (6x4 mesh of P54C tiles)";
    mc->init = scc_machine_init;
    mc->reset = scc_machine_reset;
    mc->max_cpus = SCC_MAX_CORES;
    mc->default_cpus = SCC_MAX_CORES;
    mc->default_cpu_type = X86_CPU_TYPE_NAME("pentium");
    mc->valid_cpu_types = valid_cpu_types;
    mc->no_floppy = 1;
    mc->no_cdrom = 1;
    mc->no_parallel = 1;
    mc->default_ram_size = 0;

    scc_machine_add_props(oc);
    scc_timing_add_props(oc);
}

static const TypeInfo scc_machine_info = {
    .name = TYPE_SCC_MACHINE,
    .parent = TYPE_MACHINE,
    .instance_size = sizeof(SCCMachineState),
    .instance_init = scc_machine_instance_init,
    .class_init = scc_machine_class_init,
};

static void scc_machine_register_types(void)
{
    type_register_static(&scc_machine_info);
}

type_init(scc_machine_register_types)
