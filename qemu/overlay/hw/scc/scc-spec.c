/*
 * SCC: one boot spec, what the loader plans for the cores of one core map
 * line (or every core, with -kernel): the kernel, its modules placed after
 * it, and the Multiboot information (scc-mbi.c).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "qemu/osdep.h"
#include "qapi/error.h"
#include "scc-loader.h"

#define MODULE_ALIGN        4096

/*
 * Modules go after the kernel, page aligned, in order; one that would
 * overlap the reset vector's page moves above it.
 */
static bool scc_place_modules(SCCMachineState *s, SCCBootSpec *spec,
                              Error **errp)
{
    uint64_t next = ROUND_UP(spec->kernel->end, MODULE_ALIGN);
    int i;

    spec->module_addr = g_new0(uint32_t, spec->nmodules + 1);
    for (i = 0; i < spec->nmodules; i++) {
        uint64_t size = spec->modules[i]->size;

        if (scc_overlaps(next, next + size, BOOT_RESET_PAGE, BOOT_RESET_END)) {
            next = BOOT_RESET_END;
        }
        if (next + size > s->private_mem) {
            error_setg(errp, "%s: module '%s' does not fit in the core's "
                       "private memory (%" PRIu64 " MiB) after the kernel "
                       "and the modules before it", spec->where,
                       spec->modules[i]->path, s->private_mem >> 20);
            return false;
        }
        spec->module_addr[i] = next;
        next = ROUND_UP(next + size, MODULE_ALIGN);
    }
    return true;
}

/* One boot spec from a kernel, its arguments and its modules. */
SCCBootSpec *scc_spec_new(SCCMachineState *s, const char *where,
                          const char *kernel, const char *cmdline,
                          char **modules, char **module_names, bool hold,
                          Error **errp)
{
    SCCBootSpec *spec = g_new0(SCCBootSpec, 1);
    int i;

    spec->where = g_strdup(where);
    spec->hold = hold;
    spec->kernel = scc_image_get(s, kernel, where, "kernel", true, false,
                                 errp);
    if (!spec->kernel) {
        return NULL;
    }
    spec->nmodules = modules ? g_strv_length(modules) : 0;
    spec->modules = g_new0(SCCImage *, spec->nmodules + 1);
    for (i = 0; i < spec->nmodules; i++) {
        spec->modules[i] = scc_image_get(s, modules[i], where, "module",
                                         false, false, errp);
        if (!spec->modules[i]) {
            return NULL;
        }
    }
    if (!scc_place_modules(s, spec, errp) ||
        !scc_mbi_build(s, spec, cmdline, module_names, errp)) {
        return NULL;
    }
    return spec;
}
