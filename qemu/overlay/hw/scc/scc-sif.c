/*
 * SCC: the system interface (FPGA) registers, page 0xF9.
 *
 * The global timestamp counter and the atomic counters are the chip's.
 * The registers from 0x1000 are the emulator's own: a console, an exit
 * register and read-only facts about the machine, all per-core (they act
 * for the core that accesses them).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "qemu/osdep.h"
#include "qemu/log.h"
#include "hw/scc/scc.h"
#include "trace.h"

#define SIF_GTSC_LO     0x8224
#define SIF_GTSC_HI     0x8228
#define SIF_ATOMIC      0xE000
#define SIF_ATOMIC_END  (SIF_ATOMIC + 8 * SCC_ATOMIC_COUNTERS)

#define SIF_CONSOLE     0x1000
#define SIF_EXIT        0x1004
#define SIF_MEMSIZE     0x1008
#define SIF_NCORES      0x100C
#define SIF_MESH        0x1010
#define SIF_CORE_HZ     0x1014
#define SIF_GTSC_HZ     0x1018
#define SIF_COREID      0x101C

static void scc_sif_bad(const char *what, hwaddr off)
{
    SCCCore *c = scc_current_core();

    qemu_log_mask(LOG_GUEST_ERROR, "scc: core %d: %s system interface "
                  "offset 0x%" HWADDR_PRIx ": no such register\n",
                  c ? c->id : -1, what, off);
}

static uint64_t scc_sif_read(void *opaque, hwaddr off, unsigned size)
{
    SCCMachineState *s = opaque;
    SCCCore *c = scc_current_core();
    uint64_t gtsc;
    uint32_t val;
    int i;

    switch (off) {
    case SIF_GTSC_LO:
        gtsc = scc_clock_gtsc(s);
        if (c) {
            c->gtsc_hi_latch = gtsc >> 32;
        }
        val = gtsc;
        break;
    case SIF_GTSC_HI:
        val = c ? c->gtsc_hi_latch : scc_clock_gtsc(s) >> 32;
        break;
    case SIF_CONSOLE:
    case SIF_EXIT:
        val = 0;
        break;
    case SIF_MEMSIZE:
        val = s->private_mem;
        break;
    case SIF_NCORES:
        val = s->ncores;
        break;
    case SIF_MESH:
        val = s->mesh_x | (s->mesh_y << 8) | (s->cores_per_tile << 16);
        break;
    case SIF_CORE_HZ:
        val = s->core_hz;
        break;
    case SIF_GTSC_HZ:
        val = s->gtsc_hz;
        break;
    case SIF_COREID:
        val = c ? c->id : 0;
        break;
    default:
        if (off >= SIF_ATOMIC && off < SIF_ATOMIC_END && !(off & 3)) {
            i = (off - SIF_ATOMIC) / 8;
            val = s->atomic[i];
            if (!(off & 4)) {
                s->atomic[i]++;     /* ATOMIC_INC: the old value is read */
            }
            break;
        }
        scc_sif_bad("read of", off);
        return 0;
    }
    trace_scc_sif_read(c ? c->id : -1, off, val);
    return val;
}

static void scc_sif_write(void *opaque, hwaddr off, uint64_t val64,
                          unsigned size)
{
    SCCMachineState *s = opaque;
    SCCCore *c = scc_current_core();
    uint32_t val = val64;

    trace_scc_sif_write(c ? c->id : -1, off, val);
    switch (off) {
    case SIF_CONSOLE:
        if (c) {
            scc_core_console_putc(s, c, val);
        }
        return;
    case SIF_EXIT:
        if (c) {
            scc_core_exit(s, c, val, NULL);
        }
        return;
    default:
        if (off >= SIF_ATOMIC && off < SIF_ATOMIC_END && (off & 7) == 4) {
            s->atomic[(off - SIF_ATOMIC) / 8] = val;
            return;
        }
        scc_sif_bad("write to", off);
    }
}

static const MemoryRegionOps scc_sif_ops = {
    .read = scc_sif_read,
    .write = scc_sif_write,
    .endianness = DEVICE_LITTLE_ENDIAN,
    .valid = { .min_access_size = 4, .max_access_size = 4 },
    .impl = { .min_access_size = 4, .max_access_size = 4 },
};

void scc_sif_init(SCCMachineState *s)
{
    memory_region_init_io(&s->sif, OBJECT(s), &scc_sif_ops, s, "scc-sif",
                          SCC_PAGE_SIZE);
}

void scc_sif_reset(SCCMachineState *s)
{
    memset(s->atomic, 0, sizeof(s->atomic));
}
