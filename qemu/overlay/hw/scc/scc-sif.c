/*
 * SCC: the system interface (FPGA) registers, page 0xF9.
 *
 * The global timestamp counter and the atomic counters are the chip's.
 * The registers from 0x1000 are the emulator's own: a console (stdout and
 * stderr), an exit register and read-only facts about the machine, all
 * per-core (they act for the core that accesses them).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "qemu/osdep.h"
#include "qemu/log.h"
#include "hw/scc/scc.h"
#include "trace.h"

/* Register offsets: include/standard-headers/scc/abi.h. The arrays: */
#define SIF_ATOMIC          SIF_ATOMIC_INC(0)
#define SIF_ATOMIC_END      SIF_ATOMIC_INC(SIF_NATOMIC)
#define SIF_CORE_STATE_END  SIF_CORE_STATE(SCC_MAX_CORES)

static void scc_sif_bad(const char *what, hwaddr off)
{
    SCCCore *c = scc_current_core();

    qemu_log_mask(LOG_GUEST_ERROR, "scc: core %d: %s system interface "
                  "offset 0x%" HWADDR_PRIx ": no such register\n",
                  c ? c->id : -1, what, off);
}

/* Registers take aligned 32-bit accesses only (the contract). */
static bool scc_sif_size_ok(const char *what, hwaddr off, unsigned size)
{
    SCCCore *c = scc_current_core();

    if (size == 4 && !(off & 3)) {
        return true;
    }
    qemu_log_mask(LOG_GUEST_ERROR, "scc: core %d: %u-byte %s system "
                  "interface offset 0x%" HWADDR_PRIx ": registers take "
                  "aligned 32-bit accesses only (%s)\n", c ? c->id : -1,
                  size, what, off, !strcmp(what, "read of") ?
                  "reads 0" : "ignored");
    return false;
}

/*
 * The GTSC and the atomic counters are the chip's (its FPGA's): in timing
 * mode they cost a trip over the mesh. The emulator's extensions (console,
 * exit, facts about the machine) cost nothing, so that printing does not
 * change what a program measures.
 */
static bool scc_sif_is_chip_register(hwaddr off)
{
    return off == SIF_GTSC_LO || off == SIF_GTSC_HI ||
           (off >= SIF_ATOMIC && off < SIF_ATOMIC_END);
}

static uint64_t scc_sif_read(void *opaque, hwaddr off, unsigned size)
{
    SCCMachineState *s = opaque;
    SCCCore *c = scc_current_core();
    uint64_t gtsc;
    uint32_t val;
    int i;

    if (!scc_sif_size_ok("read of", off, size)) {
        return 0;
    }
    if (s->timing_hooks && scc_sif_is_chip_register(off)) {
        s->timing_hooks->io(s, 0, true);
    }
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
    case SIF_CONSOLE_ERR:
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
        val = MESH(s->mesh_x, s->mesh_y, s->cores_per_tile);
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
    case SIF_FAULT_EIP:
        val = c ? c->fault_eip : 0;
        break;
    case SIF_FAULT_ADDR:
        val = c ? c->fault_addr : 0;
        break;
    case SIF_FAULT:
        val = c ? c->fault_vector : 0;
        break;
    case SIF_TIMING:
        val = (s->timing ? TIMING_ON : 0) |
              (s->timing && s->timing_stale ? TIMING_STALE : 0);
        break;
    default:
        if (off >= SIF_CORE_STATE(0) && off < SIF_CORE_STATE_END) {
            i = (off - SIF_CORE_STATE(0)) / 4;
            val = i < s->ncores ? scc_core_state(s, &s->core[i]) : 0;
            break;
        }
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
    if (!scc_sif_size_ok("write to", off, size)) {
        return;
    }
    if (s->timing_hooks && scc_sif_is_chip_register(off)) {
        s->timing_hooks->io(s, 0, true);
    }
    switch (off) {
    case SIF_CONSOLE:
    case SIF_CONSOLE_ERR:
        if (c) {
            scc_core_console_putc(s, c, off == SIF_CONSOLE_ERR ? SCC_STDERR
                                  : SCC_STDOUT, val);
        }
        return;
    case SIF_EXIT:
        if (c) {
            scc_core_exit(s, c, val, NULL);
        }
        return;
    case SIF_STATS_NAME:
        if (c && s->timing_hooks) {
            s->timing_hooks->region_name(s, c, val);
        }
        return;
    case SIF_STATS:
        if (c && s->timing_hooks) {
            s->timing_hooks->region(s, c, val);
        }
        return;
    case SIF_FAULT_EIP:
        if (c) {
            c->fault_eip = val;
        }
        return;
    case SIF_FAULT_ADDR:
        if (c) {
            c->fault_addr = val;
        }
        return;
    case SIF_FAULT:
        if (c) {
            c->fault_vector = val;
            c->faulted = true;
        }
        return;
    case SIF_UNRESPONSIVE:
        if (c) {
            scc_core_unresponsive(s, c, val);
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
    /* Every access reaches scc_sif_size_ok, so that a bad one is logged. */
    .valid = { .min_access_size = 1, .max_access_size = 4, .unaligned = true },
    .impl = { .min_access_size = 1, .max_access_size = 4, .unaligned = true },
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
