/*
 * SCC: the machine's numeric and boolean knobs, each a class property
 * over a field of SCCMachineState (the opaque pointer is its offset).
 * QOM sets each default when the machine is made and -M scc,help lists
 * it: the default is written once, here in the call that adds the knob.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "qemu/osdep.h"
#include "qapi/visitor.h"
#include "hw/scc/scc.h"

#define SCC_FIELD(obj, opaque, type) \
    ((type *)((char *)SCC_MACHINE(obj) + (uintptr_t)(opaque)))

static void scc_prop_uint32(Object *obj, Visitor *v, const char *name,
                            void *opaque, Error **errp)
{
    visit_type_uint32(v, name, SCC_FIELD(obj, opaque, uint32_t), errp);
}

static void scc_prop_uint64(Object *obj, Visitor *v, const char *name,
                            void *opaque, Error **errp)
{
    visit_type_uint64(v, name, SCC_FIELD(obj, opaque, uint64_t), errp);
}

static void scc_prop_size(Object *obj, Visitor *v, const char *name,
                          void *opaque, Error **errp)
{
    visit_type_size(v, name, SCC_FIELD(obj, opaque, uint64_t), errp);
}

static void scc_prop_bool(Object *obj, Visitor *v, const char *name,
                          void *opaque, Error **errp)
{
    visit_type_bool(v, name, SCC_FIELD(obj, opaque, bool), errp);
}

/* The visitor reads for a getter and writes for a setter: one serves both. */
static ObjectProperty *scc_prop_add(ObjectClass *oc, const char *name,
                                    const char *type,
                                    ObjectPropertyAccessor *access,
                                    size_t offset, const char *desc)
{
    ObjectProperty *op = object_class_property_add(oc, name, type, access,
                                                   access, NULL,
                                                   (void *)(uintptr_t)offset);

    object_class_property_set_description(oc, name, desc);
    return op;
}

void scc_prop_add_uint32(ObjectClass *oc, const char *name, size_t offset,
                         uint32_t def, const char *desc)
{
    object_property_set_default_uint(
        scc_prop_add(oc, name, "uint32", scc_prop_uint32, offset, desc), def);
}

void scc_prop_add_uint64(ObjectClass *oc, const char *name, size_t offset,
                         uint64_t def, const char *desc)
{
    object_property_set_default_uint(
        scc_prop_add(oc, name, "uint64", scc_prop_uint64, offset, desc), def);
}

void scc_prop_add_size(ObjectClass *oc, const char *name, size_t offset,
                       uint64_t def, const char *desc)
{
    object_property_set_default_uint(
        scc_prop_add(oc, name, "size", scc_prop_size, offset, desc), def);
}

void scc_prop_add_bool(ObjectClass *oc, const char *name, size_t offset,
                       bool def, const char *desc)
{
    object_property_set_default_bool(
        scc_prop_add(oc, name, "bool", scc_prop_bool, offset, desc), def);
}
