/*
 * SCC: the loader, the machine's counterpart of sccKit's sccMerge.
 *
 * At init it plans each core's boot: the boot stub with the reset vector,
 * a kernel (-kernel, or per line of a core map: scc-coremap.c), its
 * modules placed after it, and the Multiboot information (scc-mbi.c).
 * Every image is read and checked once (scc-elf.c), and anything wrong is
 * refused before a core runs, with the file (and line) named. At every
 * reset scc-boot.c copies the plan into each core's private DRAM.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "qemu/osdep.h"
#include "qemu/datadir.h"
#include "qapi/error.h"
#include "scc-loader.h"

static SCCImage *scc_boot_stub;

SCCImage *scc_loader_stub(void)
{
    return scc_boot_stub;
}

static bool scc_plan_kernel(SCCMachineState *s, Error **errp)
{
    MachineState *ms = MACHINE(s);
    g_autofree char *cmdline = NULL;
    g_auto(GStrv) modules = NULL;
    SCCBootSpec *spec;
    int i;

    if (ms->initrd_filename && *ms->initrd_filename) {
        modules = g_strsplit(ms->initrd_filename, ",", -1);
    }
    /* Like GRUB 2, the command line holds the arguments, not the path. */
    cmdline = g_strdup(ms->kernel_cmdline ? ms->kernel_cmdline : "");
    spec = scc_spec_new(s, "scc", ms->kernel_filename, cmdline, modules,
                        modules, false, errp);
    if (!spec) {
        return false;
    }
    for (i = 0; i < s->ncores; i++) {
        s->core[i].boot = spec;
    }
    return true;
}

bool scc_loader_plan(SCCMachineState *s, Error **errp)
{
    MachineState *ms = MACHINE(s);
    const char *stub = ms->firmware ? ms->firmware : "scc-boot.elf";
    g_autofree char *stub_path = NULL;

    if (s->coremap && ms->kernel_filename) {
        error_setg(errp, "scc: give either -kernel or coremap=, not both");
        return false;
    }
    if (!s->coremap && !ms->kernel_filename) {
        error_setg(errp, "scc: no image: give -kernel FILE or "
                   "-M scc,coremap=FILE");
        return false;
    }
    stub_path = ms->firmware ? g_strdup(stub)
                             : qemu_find_file(QEMU_FILE_TYPE_BIOS, stub);
    if (!stub_path) {
        error_setg(errp, "scc: boot stub '%s' not found: give -bios FILE",
                   stub);
        return false;
    }
    scc_boot_stub = scc_image_get(s, stub_path, "scc", "boot stub", true,
                                  true, errp);
    if (!scc_boot_stub) {
        return false;
    }
    return s->coremap ? scc_coremap_plan(s, errp) : scc_plan_kernel(s, errp);
}
