/*
 * SCC: the configuration register block (CRB) of a tile.
 *
 * GLCFG drives the cores' LINT pins, GCBCFG holds them in reset, LOCK0/1
 * are test-and-set registers and LUT0/1 are the cores' lookup tables.
 * Accesses run under QEMU's big lock, which makes test-and-set atomic
 * across every host thread.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "qemu/osdep.h"
#include "qemu/log.h"
#include "hw/scc/scc.h"
#include "trace.h"

/* Register offsets and fields: include/standard-headers/scc/abi.h */

/* The core at port z of tile t, or NULL on a one-core-a-tile chip. */
static SCCCore *scc_tile_core(SCCTile *t, int z)
{
    SCCMachineState *s = t->scc;

    if (z >= s->cores_per_tile) {
        return NULL;
    }
    return &s->core[t->id * s->cores_per_tile + z];
}

static void scc_crb_bad(SCCTile *t, const char *what, hwaddr off)
{
    SCCCore *c = scc_current_core();

    qemu_log_mask(LOG_GUEST_ERROR,
                  "scc: core %d: %s tile %d CRB offset 0x%" HWADDR_PRIx
                  ": no such register\n", c ? c->id : -1, what, t->id, off);
}

static uint32_t scc_crb_lut_read(SCCTile *t, hwaddr off)
{
    int z = off >= CRB_LUT1;
    SCCCore *c = scc_tile_core(t, z);
    hwaddr rel = off - (z ? CRB_LUT1 : CRB_LUT0);

    if (!c || (rel & 7)) {
        return 0;       /* the upper half of each 8-byte slot reads zero */
    }
    return c->lut[rel >> 3];
}

/* Registers take aligned 32-bit accesses only (the contract). */
static bool scc_crb_size_ok(SCCTile *t, bool write, hwaddr off, unsigned size)
{
    SCCCore *c = scc_current_core();

    if (size == 4 && !(off & 3)) {
        return true;
    }
    qemu_log_mask(LOG_GUEST_ERROR, "scc: core %d: %u-byte %s tile %d CRB "
                  "offset 0x%" HWADDR_PRIx ": registers take aligned 32-bit "
                  "accesses only (%s)\n", c ? c->id : -1, size,
                  write ? "write to" : "read of", t->id, off,
                  write ? "ignored" : "reads 0");
    return false;
}

static uint64_t scc_crb_read(void *opaque, hwaddr off, unsigned size)
{
    SCCTile *t = opaque;
    SCCCore *me = scc_current_core();
    uint32_t val = 0;
    int z;

    if (!scc_crb_size_ok(t, false, off, size)) {
        return 0;
    }
    scc_timing_io(t->scc, t->id, false);
    switch (off) {
    case CRB_GLCFG0:
    case CRB_GLCFG1:
        val = t->glcfg[off == CRB_GLCFG1];
        break;
    case CRB_L2CFG0:
    case CRB_L2CFG1:
        val = t->l2cfg[off == CRB_L2CFG1];
        break;
    case CRB_SENSOR:
        val = t->sensor;
        break;
    case CRB_SENSVAL:
        val = SENSVAL_VALUE;
        break;
    case CRB_GCBCFG:
        val = t->gcbcfg;
        break;
    case CRB_TILEID:
        val = TILEID(t->x, t->y, me ? me->z : 0);
        break;
    case CRB_LOCK0:
    case CRB_LOCK1:
        z = off == CRB_LOCK1;
        val = !t->lock[z];
        t->lock[z] = true;
        trace_scc_lock(t->id, z, me ? me->id : -1, val);
        break;
    default:
        if (off >= CRB_LUT0 && off < CRB_LUT_END) {
            val = scc_crb_lut_read(t, off);
            break;
        }
        scc_crb_bad(t, "read of", off);
        return 0;
    }
    trace_scc_crb_read(t->id, off, val);
    return val;
}

static void scc_crb_glcfg_write(SCCTile *t, int z, uint32_t val)
{
    SCCCore *c = scc_tile_core(t, z);
    uint32_t changed = t->glcfg[z] ^ val;

    t->glcfg[z] = val;
    if (!c) {
        return;
    }
    if (changed & GLCFG_INTR) {
        scc_core_set_lint(c, 0, val & GLCFG_INTR);
    }
    if (changed & GLCFG_NMI) {
        scc_core_set_lint(c, 1, val & GLCFG_NMI);
    }
}

static void scc_crb_gcbcfg_write(SCCTile *t, uint32_t val)
{
    SCCMachineState *s = t->scc;
    uint32_t changed = t->gcbcfg ^ val;
    int z;

    t->gcbcfg = val;
    if (s->timing && (changed & GCBCFG_CLOCK_MASK)) {
        scc_timing_tile_clock(s, t->id, (val & GCBCFG_CLOCK_MASK) >>
                                        GCBCFG_CLOCK_SHIFT);
    }
    for (z = 0; z < s->cores_per_tile; z++) {
        if (changed & (1u << z)) {
            scc_core_set_reset(s, scc_tile_core(t, z), val & (1u << z));
        }
    }
}

static void scc_crb_write(void *opaque, hwaddr off, uint64_t val64,
                          unsigned size)
{
    SCCTile *t = opaque;
    uint32_t val = val64;
    SCCCore *c;
    int z;

    trace_scc_crb_write(t->id, off, val);
    if (!scc_crb_size_ok(t, true, off, size)) {
        return;
    }
    scc_timing_io(t->scc, t->id, false);
    switch (off) {
    case CRB_GLCFG0:
    case CRB_GLCFG1:
        scc_crb_glcfg_write(t, off == CRB_GLCFG1, val);
        break;
    case CRB_L2CFG0:
    case CRB_L2CFG1:
        t->l2cfg[off == CRB_L2CFG1] = val;
        break;
    case CRB_SENSOR:
        t->sensor = val;
        break;
    case CRB_GCBCFG:
        scc_crb_gcbcfg_write(t, val);
        break;
    case CRB_LOCK0:
    case CRB_LOCK1:
        t->lock[off == CRB_LOCK1] = false;
        break;
    case CRB_SENSVAL:
    case CRB_TILEID:
        qemu_log_mask(LOG_GUEST_ERROR, "scc: tile %d: write to read-only "
                      "CRB register 0x%" HWADDR_PRIx "\n", t->id, off);
        break;
    default:
        if (off >= CRB_LUT0 && off < CRB_LUT_END) {
            z = off >= CRB_LUT1;
            c = scc_tile_core(t, z);
            off -= z ? CRB_LUT1 : CRB_LUT0;
            if (c && !(off & 7)) {
                scc_lut_write(t->scc, c, off >> 3, val);
            }
            break;
        }
        scc_crb_bad(t, "write to", off);
    }
}

static const MemoryRegionOps scc_crb_ops = {
    .read = scc_crb_read,
    .write = scc_crb_write,
    .endianness = DEVICE_LITTLE_ENDIAN,
    /* Every access reaches scc_crb_size_ok, so that a bad one is logged. */
    .valid = { .min_access_size = 1, .max_access_size = 4, .unaligned = true },
    .impl = { .min_access_size = 1, .max_access_size = 4, .unaligned = true },
};

void scc_crb_init(SCCMachineState *s, SCCTile *t)
{
    g_autofree char *name = g_strdup_printf("scc-tile%d-crb", t->id);

    memory_region_init_io(&t->crb, OBJECT(s), &scc_crb_ops, t, name,
                          SCC_PAGE_SIZE);
}

/* Reset bits come from the boot plan: cores without a running image wait. */
void scc_crb_reset(SCCMachineState *s, SCCTile *t)
{
    int z;

    t->glcfg[0] = t->glcfg[1] = 0;
    t->l2cfg[0] = t->l2cfg[1] = 0;
    t->sensor = 0;
    t->lock[0] = t->lock[1] = false;
    t->gcbcfg = ((s->core_hz / 1000000) << GCBCFG_CLOCK_SHIFT) &
                GCBCFG_CLOCK_MASK;
    for (z = 0; z < s->cores_per_tile; z++) {
        SCCCore *c = scc_tile_core(t, z);

        if (!c->boot || c->boot->hold) {
            t->gcbcfg |= 1u << z;
        }
    }
}
