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
#include "hw/qdev-properties.h"
#include "hw/sysbus.h"
#include "migration/blocker.h"
#include "chardev/char.h"
#include "system/system.h"
#include "system/reset.h"
#include "hw/boards.h"
#include "target/i386/cpu.h"
#include "hw/scc/scc.h"

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

/* Tile @i, with its GPIO lines wired to its cores (through the model). */
static void scc_tile_create(SCCMachineState *s, int i)
{
    SCCTile *t = &s->tile[i];
    g_autofree char *name = g_strdup_printf("tile[%d]", i);
    uint32_t held = 0;
    int z;

    for (z = 0; z < s->cores_per_tile; z++) {
        SCCCore *c = &s->core[i * s->cores_per_tile + z];

        held |= (!c->boot || c->boot->hold) << z;
    }
    object_initialize_child(OBJECT(s), name, t, TYPE_SCC_TILE);
    object_property_set_link(OBJECT(t), "machine", OBJECT(s), &error_fatal);
    qdev_prop_set_uint32(DEVICE(t), "id", i);
    qdev_prop_set_uint32(DEVICE(t), "x", i % s->mesh_x);
    qdev_prop_set_uint32(DEVICE(t), "y", i / s->mesh_x);
    qdev_prop_set_uint32(DEVICE(t), "cores", s->cores_per_tile);
    qdev_prop_set_uint32(DEVICE(t), "core-mhz", s->core_hz / 1000000);
    qdev_prop_set_uint32(DEVICE(t), "held", held);
    sysbus_realize(SYS_BUS_DEVICE(t), &error_fatal);

    for (z = 0; z < s->cores_per_tile; z++) {
        SCCCore *c = &s->core[i * s->cores_per_tile + z];
        qemu_irq *lint = s->timing_hooks ?
                         s->timing_hooks->lint_delay(s, c, c->lint) : c->lint;

        qdev_connect_gpio_out_named(DEVICE(t), SCC_TILE_LINT, z * 2, lint[0]);
        qdev_connect_gpio_out_named(DEVICE(t), SCC_TILE_LINT, z * 2 + 1,
                                    lint[1]);
        qdev_connect_gpio_out_named(DEVICE(t), SCC_TILE_RESET, z, c->reset);
    }
}

static void scc_machine_init(MachineState *ms)
{
    SCCMachineState *s = SCC_MACHINE(ms);
    int i;

    if (!scc_check_config(s, &error_fatal)) {
        return;
    }
    s->ntiles = s->mesh_x * s->mesh_y;
    s->ncores = s->ntiles * s->cores_per_tile;
    if (!scc_timing_init(s, scc_supervisor_stalled, &error_fatal)) {
        return;
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
    /* The plan says which cores the tiles hold in reset. */
    for (i = 0; i < s->ntiles; i++) {
        scc_tile_create(s, i);
    }
    scc_lut_targets_init(s);
}

static void scc_machine_reset(MachineState *ms, ResetType type)
{
    SCCMachineState *s = SCC_MACHINE(ms);

    qemu_devices_reset(type);
    scc_clock_reset(s);
    scc_timing_reset(s);
    scc_supervisor_reset(s);
    scc_sif_reset(s);
    scc_cores_reset(s);
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

static void scc_machine_add_props(ObjectClass *oc)
{
    scc_prop_add_uint32(oc, "mesh-x", offsetof(SCCMachineState, mesh_x), 6,
                        "tiles in x (2-6)");
    scc_prop_add_uint32(oc, "mesh-y", offsetof(SCCMachineState, mesh_y), 4,
                        "tiles in y (2-4)");
    scc_prop_add_uint32(oc, "cores-per-tile",
                        offsetof(SCCMachineState, cores_per_tile), 2,
                        "cores on each tile (1 or 2)");
    scc_prop_add_size(oc, "private-mem", offsetof(SCCMachineState, private_mem),
                      64 * MiB, "private DRAM per core (16M-656M in steps of "
                      "16M)");
    scc_prop_add_size(oc, "shared-mem", offsetof(SCCMachineState, shared_mem),
                      64 * MiB, "shared DRAM on MC0 (16M-320M in steps of "
                      "16M)");
    scc_prop_add_uint64(oc, "core-hz", offsetof(SCCMachineState, core_hz),
                        533000000, "core clock: TSC and APIC timer rate");
    scc_prop_add_uint64(oc, "gtsc-hz", offsetof(SCCMachineState, gtsc_hz),
                        125000000, "global timestamp counter rate");
    object_class_property_add_str(oc, "coremap", scc_get_coremap,
                                  scc_set_coremap);
    object_class_property_set_description(oc, "coremap",
        "core map file: which image and arguments each core gets");
    object_property_set_default_str(
        object_class_property_add_str(oc, "on-failure", scc_get_on_failure,
                                      scc_set_on_failure), "stop");
    object_class_property_set_description(oc, "on-failure",
        "when a core fails (exits non-zero, faults): 'stop' the run at once "
        "or 'continue' with the other cores");
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
    .class_init = scc_machine_class_init,
};

static void scc_machine_register_types(void)
{
    type_register_static(&scc_machine_info);
}

type_init(scc_machine_register_types)
