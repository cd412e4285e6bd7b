/*
 * SCC: the configuration register block (CRB) of a tile.
 *
 * GLCFG drives the cores' LINT pins and GCBCFG holds them in reset, each
 * through the tile's GPIO lines (scc-tile.c); LOCK0/1 are test-and-set
 * registers and LUT0/1 are the cores' lookup tables.
 * Accesses run under QEMU's big lock, which makes test-and-set atomic
 * across every host thread.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "qemu/osdep.h"
#include "qemu/log.h"
#include "hw/irq.h"
#include "hw/scc/scc.h"
#include "trace.h"

/* Register offsets and fields: include/standard-headers/scc/abi.h */

/* The core at port z of tile t, or NULL on a one-core-a-tile chip. */
static SCCCore *scc_tile_core(SCCTile *t, int z)
{
    if (z >= t->cores) {
        return NULL;
    }
    return &t->scc->core[t->id * t->cores + z];
}

/* In timing mode, the current core's access goes over the mesh. */
static void scc_crb_timed(SCCTile *t)
{
    const SCCTimingHooks *tm = t->scc->timing_hooks;

    if (tm) {
        tm->io(t->scc, t->id, false);
    }
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
    scc_crb_timed(t);
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
    uint32_t changed = t->glcfg[z] ^ val;

    t->glcfg[z] = val;
    if (z >= t->cores) {
        return;
    }
    if (changed & GLCFG_INTR) {
        qemu_set_irq(t->lint[z * 2], !!(val & GLCFG_INTR));
    }
    if (changed & GLCFG_NMI) {
        qemu_set_irq(t->lint[z * 2 + 1], !!(val & GLCFG_NMI));
    }
}

static void scc_crb_gcbcfg_write(SCCTile *t, uint32_t val)
{
    const SCCTimingHooks *tm = t->scc->timing_hooks;
    uint32_t changed = t->gcbcfg ^ val;
    int z;

    t->gcbcfg = val;
    if (tm && (changed & GCBCFG_CLOCK_MASK)) {
        tm->tile_clock(t->scc, t->id, (val & GCBCFG_CLOCK_MASK) >>
                                      GCBCFG_CLOCK_SHIFT);
    }
    for (z = 0; z < t->cores; z++) {
        if (changed & (1u << z)) {
            qemu_set_irq(t->reset[z], !!(val & (1u << z)));
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
    scc_crb_timed(t);
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

void scc_crb_init(SCCTile *t)
{
    g_autofree char *name = g_strdup_printf("scc-tile%d-crb", t->id);

    memory_region_init_io(&t->crb, OBJECT(t), &scc_crb_ops, t, name,
                          SCC_PAGE_SIZE);
    /*
     * In timing mode an access may be undone from inside the handler
     * (the model restarts it once the other cores have caught up): QEMU's
     * guard against a device's re-entrant I/O would stay engaged and
     * refuse the tile's next access. No access here re-enters the tile.
     */
    t->crb.disable_reentrancy_guard = true;
}

/*
 * The registers only: the cores are reset by the machine (the reset bits
 * are the boot plan's, property "held": cores without a running image
 * wait).
 */
void scc_crb_reset(SCCTile *t)
{
    memset(t->glcfg, 0, sizeof(t->glcfg));
    memset(t->l2cfg, 0, sizeof(t->l2cfg));
    memset(t->lock, 0, sizeof(t->lock));
    t->sensor = 0;
    t->gcbcfg = ((t->core_mhz << GCBCFG_CLOCK_SHIFT) & GCBCFG_CLOCK_MASK) |
                (t->held & MAKE_64BIT_MASK(0, t->cores));
}
