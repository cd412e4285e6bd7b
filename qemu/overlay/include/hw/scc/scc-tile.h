/*
 * SCC: a tile of the mesh as a device: its configuration register block
 * (CRB: GLCFG, GCBCFG, the test-and-set locks, the cores' LUTs) and its
 * message-passing buffer (MPB: 16 KiB of SRAM).
 *
 * The machine maps the two regions into the cores' address spaces through
 * their LUTs and wires the GPIO outputs: each core's two LINT pins
 * (GLCFG), and its reset (GCBCFG). See docs/system/i386/scc.rst.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef HW_SCC_SCC_TILE_H
#define HW_SCC_SCC_TILE_H

#include "qemu/bswap.h"
#include "hw/sysbus.h"
#include "qom/object.h"
#include "standard-headers/scc/abi.h"

#define TYPE_SCC_TILE "scc-tile"
OBJECT_DECLARE_SIMPLE_TYPE(SCCTile, SCC_TILE)

#define SCC_TILE_CORES      2
/* Named GPIO outputs. "lint" n: core n / 2's LINT pin n % 2 (0: GLCFG's
 * INTR, 1: its NMI). "reset" n: core n held in reset (GCBCFG). */
#define SCC_TILE_LINT       "lint"
#define SCC_TILE_RESET      "reset"
/* Its sysbus MMIO regions: each one page of the LUTs' 16 MiB. */
enum { SCC_TILE_MMIO_CRB, SCC_TILE_MMIO_MPB };

typedef struct SCCMachineState SCCMachineState;

struct SCCTile {
    SysBusDevice parent_obj;

    /* properties */
    SCCMachineState *scc;   /* "machine": its cores' LUTs, the model */
    uint32_t id, x, y;
    uint32_t cores;         /* on this tile: 1 or 2 */
    uint32_t core_mhz;      /* GCBCFG's clock field after reset */
    uint32_t held;          /* bit n: core n is held in reset by reset */

    MemoryRegion mpb_ram;           /* 16 KiB SRAM */
    uint8_t *mpb_host;              /* its host memory */
    MemoryRegion mpb_window;        /* 16 MiB page: the SRAM, then wrap */
    MemoryRegion mpb_wrap;
    MemoryRegion mpb_timed;         /* timing mode: the page as I/O */
    MemoryRegion crb;
    uint32_t glcfg[SCC_TILE_CORES];
    uint32_t l2cfg[SCC_TILE_CORES];
    uint32_t sensor;
    uint32_t gcbcfg;
    bool lock[SCC_TILE_CORES];

    qemu_irq lint[SCC_TILE_CORES * 2];
    qemu_irq reset[SCC_TILE_CORES];
};

/* scc-crb.c, scc-mpb.c: the tile's two regions, set up at realize */
void scc_crb_init(SCCTile *t);
void scc_crb_reset(SCCTile *t);
void scc_mpb_init(SCCTile *t);

/*
 * The tile's 16 KiB of SRAM at @addr of its MPB page: beyond 16 KiB the
 * page repeats the SRAM, byte by byte (an access across the end wraps).
 * For the MPB page's own accesses and the timing model's.
 */
static inline uint64_t scc_mpb_sram_read(SCCTile *t, hwaddr addr,
                                         unsigned size)
{
    uint8_t buf[8];
    unsigned i;

    for (i = 0; i < size; i++) {
        buf[i] = t->mpb_host[(addr + i) & (SCC_MPB_SIZE - 1)];
    }
    return ldn_le_p(buf, size);
}

static inline void scc_mpb_sram_write(SCCTile *t, hwaddr addr, uint64_t val,
                                      unsigned size)
{
    uint8_t buf[8];
    unsigned i;

    stn_le_p(buf, size, val);
    for (i = 0; i < size; i++) {
        t->mpb_host[(addr + i) & (SCC_MPB_SIZE - 1)] = buf[i];
    }
}

#endif
