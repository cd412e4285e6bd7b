/*
 * SCC: the tile device. Its registers are in scc-crb.c, its SRAM in
 * scc-mpb.c; here are its properties, GPIO lines and reset.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "qemu/osdep.h"
#include "qapi/error.h"
#include "hw/qdev-properties.h"
#include "hw/resettable.h"
#include "hw/scc/scc.h"

static void scc_tile_realize(DeviceState *dev, Error **errp)
{
    SCCTile *t = SCC_TILE(dev);

    if (!t->scc) {
        error_setg(errp, "scc-tile: property 'machine' is not set");
        return;
    }
    if (t->cores < 1 || t->cores > SCC_TILE_CORES) {
        error_setg(errp, "scc-tile: cores must be 1 or 2, not %u", t->cores);
        return;
    }
    scc_crb_init(t);
    scc_mpb_init(t);
    sysbus_init_mmio(SYS_BUS_DEVICE(dev), &t->crb);
    sysbus_init_mmio(SYS_BUS_DEVICE(dev), &t->mpb_window);
    qdev_init_gpio_out_named(dev, t->lint, SCC_TILE_LINT,
                             SCC_TILE_CORES * 2);
    qdev_init_gpio_out_named(dev, t->reset, SCC_TILE_RESET, SCC_TILE_CORES);
}

static void scc_tile_reset_hold(Object *obj, ResetType type)
{
    scc_crb_reset(SCC_TILE(obj));
}

static const Property scc_tile_properties[] = {
    DEFINE_PROP_LINK("machine", SCCTile, scc, TYPE_SCC_MACHINE,
                     SCCMachineState *),
    DEFINE_PROP_UINT32("id", SCCTile, id, 0),
    DEFINE_PROP_UINT32("x", SCCTile, x, 0),
    DEFINE_PROP_UINT32("y", SCCTile, y, 0),
    DEFINE_PROP_UINT32("cores", SCCTile, cores, SCC_TILE_CORES),
    /* the SCC's core clock at power-on, 533 MHz */
    DEFINE_PROP_UINT32("core-mhz", SCCTile, core_mhz, 533),
    DEFINE_PROP_UINT32("held", SCCTile, held, 0),
};

static void scc_tile_class_init(ObjectClass *oc, void *data)
{
    DeviceClass *dc = DEVICE_CLASS(oc);
    ResettableClass *rc = RESETTABLE_CLASS(oc);

    dc->desc = "SCC tile: configuration registers and message-passing buffer";
    dc->realize = scc_tile_realize;
    /* part of the scc machine only; its state is in no migration stream */
    dc->user_creatable = false;
    rc->phases.hold = scc_tile_reset_hold;
    device_class_set_props(dc, scc_tile_properties);
    object_class_property_set_description(oc, "machine",
        "the scc machine: its cores' LUTs, and the timing model's hooks");
    object_class_property_set_description(oc, "id", "tile id, x + mesh-x * y");
    object_class_property_set_description(oc, "x", "column in the mesh");
    object_class_property_set_description(oc, "y", "row in the mesh");
    object_class_property_set_description(oc, "cores",
        "cores on the tile (1 or 2)");
    object_class_property_set_description(oc, "core-mhz",
        "GCBCFG's clock field after reset");
    object_class_property_set_description(oc, "held",
        "bit n: GCBCFG holds core n in reset after reset");
}

static const TypeInfo scc_tile_info = {
    .name = TYPE_SCC_TILE,
    .parent = TYPE_SYS_BUS_DEVICE,
    .instance_size = sizeof(SCCTile),
    .class_init = scc_tile_class_init,
};

static void scc_tile_register_types(void)
{
    type_register_static(&scc_tile_info);
}

type_init(scc_tile_register_types)
