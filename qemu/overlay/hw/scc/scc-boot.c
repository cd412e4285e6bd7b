/*
 * SCC: the reset copy. At every machine reset, each core that has a boot
 * spec gets it copied into its private DRAM: the boot area and the reset
 * vector's page cleared (nothing of a previous run survives there), the
 * boot stub, the kernel's segments, the modules, the Multiboot information
 * and the handoff block the stub reads (standard-headers/scc/abi.h). The
 * plan was checked at init, so nothing here can fail.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "qemu/osdep.h"
#include "scc-loader.h"

static void scc_write_handoff(uint8_t *ram, SCCCore *c)
{
    uint8_t *h = ram + BOOT_HANDOFF;

    stl_le_p(h + BOOT_HANDOFF_MAGIC, BOOT_MAGIC);
    stl_le_p(h + BOOT_HANDOFF_VERSION, BOOT_VERSION);
    stl_le_p(h + BOOT_HANDOFF_ENTRY, c->boot->kernel->entry);
    stl_le_p(h + BOOT_HANDOFF_MBI, BOOT_MBI);
    stl_le_p(h + BOOT_HANDOFF_COREID, c->id);
}

bool scc_loader_load(SCCMachineState *s, SCCCore *c, Error **errp)
{
    uint8_t *ram = memory_region_get_ram_ptr(&c->private_ram);
    SCCBootSpec *spec = c->boot;
    int i;

    memset(ram, 0, BOOT_STUB_END);
    memset(ram + BOOT_RESET_PAGE, 0, BOOT_RESET_END - BOOT_RESET_PAGE);
    scc_elf_copy(ram, scc_loader_stub());
    scc_elf_copy(ram, spec->kernel);
    for (i = 0; i < spec->nmodules; i++) {
        memcpy(ram + spec->module_addr[i], spec->modules[i]->data,
               spec->modules[i]->size);
    }
    memcpy(ram + BOOT_MBI, spec->mbi, spec->mbi_len);
    scc_write_handoff(ram, c);
    return true;
}
