/*
 * SCC: a tile's message-passing buffer, 16 KiB of SRAM in a 16 MiB page.
 *
 * Functional mode: the SRAM is RAM at the start of the page, and the rest
 * of the page repeats it through an I/O region. Timing mode: the whole
 * page is I/O, handed to the model (SCCTimingHooks.mpb_ops), which times
 * every access and reads and writes the same SRAM.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "qemu/osdep.h"
#include "qapi/error.h"
#include "hw/scc/scc.h"

static uint64_t scc_mpb_wrap_read(void *opaque, hwaddr addr, unsigned size)
{
    return scc_mpb_sram_read(opaque, addr, size);
}

static void scc_mpb_wrap_write(void *opaque, hwaddr addr, uint64_t val,
                               unsigned size)
{
    scc_mpb_sram_write(opaque, addr, val, size);
}

static const MemoryRegionOps scc_mpb_wrap_ops = {
    .read = scc_mpb_wrap_read,
    .write = scc_mpb_wrap_write,
    .endianness = DEVICE_LITTLE_ENDIAN,
    .valid = { .min_access_size = 1, .max_access_size = 8 },
    .impl = { .min_access_size = 1, .max_access_size = 8 },
};

void scc_mpb_init(SCCTile *t)
{
    const SCCTimingHooks *tm = t->scc->timing_hooks;
    Object *owner = OBJECT(t);
    g_autofree char *ram = g_strdup_printf("scc-tile%d-mpb", t->id);
    g_autofree char *win = g_strdup_printf("scc-tile%d-mpb-page", t->id);
    g_autofree char *wrap = g_strdup_printf("scc-tile%d-mpb-wrap", t->id);

    memory_region_init_ram_nomigrate(&t->mpb_ram, owner, ram, SCC_MPB_SIZE,
                                     &error_fatal);
    t->mpb_host = memory_region_get_ram_ptr(&t->mpb_ram);
    memory_region_init(&t->mpb_window, owner, win, SCC_PAGE_SIZE);
    if (tm) {
        memory_region_init_io(&t->mpb_timed, owner, tm->mpb_ops, t, wrap,
                              SCC_PAGE_SIZE);
        /* as the CRB's (scc_crb_init): the model may undo an access */
        t->mpb_timed.disable_reentrancy_guard = true;
        memory_region_add_subregion(&t->mpb_window, 0, &t->mpb_timed);
        return;
    }
    memory_region_init_io(&t->mpb_wrap, owner, &scc_mpb_wrap_ops, t, wrap,
                          SCC_PAGE_SIZE);
    memory_region_add_subregion_overlap(&t->mpb_window, 0, &t->mpb_ram, 1);
    memory_region_add_subregion_overlap(&t->mpb_window, 0, &t->mpb_wrap, 0);
}
