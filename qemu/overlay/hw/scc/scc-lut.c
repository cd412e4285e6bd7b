/*
 * SCC: each core's physical address space, formed by its 256-entry LUT,
 * and the memories the LUT entries can name (MC DRAM, and the tiles' MPB
 * and CRB pages and the SIF, which their own files make).
 *
 * Every memory a LUT entry can name sits once in the targets' region, in
 * a 4 GiB slot of its own. A core's address space holds an IOMMU region
 * over its 4 GiB, whose translation of a 16 MiB page is the target its
 * LUT entry names, and above 4 GiB, out of the P54C's reach, the targets
 * themselves: TCG finds an I/O page's region by its index in the CPU's
 * own address space, so the IOMMU translates into that space. What no
 * entry names goes to the core's background slot, which reads all ones
 * and logs the core, the address and the entry.
 *
 * Why an IOMMU and not one alias per page: a LUT write then costs the
 * writing core's TLB, where replacing an alias rebuilt the flat view of
 * every core's address space and flushed every core's TLB (a peer read,
 * which moves window entries, spent most of its host time there).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "qemu/osdep.h"
#include "qemu/log.h"
#include "qemu/atomic.h"
#include "qemu/module.h"
#include "qapi/error.h"
#include "exec/cputlb.h"
#include "hw/scc/scc.h"
#include "trace.h"

#define TYPE_SCC_LUT_IOMMU "scc-lut-iommu-memory-region"

/* The targets' slots, 4 GiB each */
enum {
    SLOT_PRIVATE = 0,                   /* + core */
    SLOT_SHARED = 0x100,
    SLOT_MPB = 0x200,                   /* + tile */
    SLOT_CRB = 0x300,                   /* + tile */
    SLOT_SIF = 0x400,
    SLOT_NOTHING = 0x500,               /* + core: its background */
    SLOTS = 0x600,
};
#define SLOT_BASE(n) ((hwaddr)(n) << 32)
#define TARGETS_AT (1ULL << 32)             /* in every core's space */
QEMU_BUILD_BUG_ON(SCC_MAX_CORES > 0x100 || SCC_MAX_TILES > 0x100);

/* Memory controllers hang off the mesh's west and east edges. */
static void scc_mc_port(SCCMachineState *s, int mc, int *x, int *y, int *side)
{
    *x = (mc & 1) ? s->mesh_x - 1 : 0;
    *y = (mc & 2) ? s->mesh_y / 2 : 0;
    *side = (mc & 1) ? SCC_SUB_EAST : SCC_SUB_WEST;
}

/* The memory controller at router (@x, @y), side @side; -1 if none. */
int scc_mc_at(SCCMachineState *s, int x, int y, int side)
{
    int mc, mx, my, mside;

    for (mc = 0; mc < SCC_NUM_MC; mc++) {
        scc_mc_port(s, mc, &mx, &my, &mside);
        if (mx == x && my == y && mside == side) {
            return mc;
        }
    }
    return -1;
}

/* A core's DRAM comes from the MC of its mesh quadrant. */
static int scc_quadrant_mc(SCCMachineState *s, int core)
{
    int tile = core / s->cores_per_tile;

    return SCC_QUADRANT_MC(tile % s->mesh_x, tile / s->mesh_x, s->mesh_x,
                           s->mesh_y);
}

int scc_mc_of_core(SCCMachineState *s, int core, int *slot)
{
    int mc = scc_quadrant_mc(s, core);
    int i;

    *slot = 0;
    for (i = 0; i < core; i++) {
        *slot += scc_quadrant_mc(s, i) == mc;
    }
    return mc;
}

static int scc_core_at_slot(SCCMachineState *s, int mc, int slot)
{
    int i;

    for (i = 0; i < s->ncores; i++) {
        if (scc_quadrant_mc(s, i) == mc && slot-- == 0) {
            return i;
        }
    }
    return -1;
}

/* The system interface sits north of the middle tile of the top row. */
static void scc_sif_port(SCCMachineState *s, int *x, int *y, int *side)
{
    *x = s->mesh_x / 2;
    *y = 0;
    *side = SCC_SUB_NORTH;
}

static uint32_t scc_route(int x, int y)
{
    return LUT_ROUTE_XY(x, y);
}

/* Where in the targets' space a LUT entry's page is; false if it names
 * nothing. */
static bool scc_lut_target(SCCMachineState *s, uint32_t e, hwaddr *at)
{
    int x = LUT_ROUTE_X(SCC_LUT_ROUTE(e)), y = LUT_ROUTE_Y(SCC_LUT_ROUTE(e));
    int sub = SCC_LUT_SUBDEST(e);
    uint64_t sysaddr = (uint64_t)SCC_LUT_ADDRBITS(e) << SCC_PAGE_SHIFT;
    int mc, core, sx, sy, sside;
    SCCTile *t;

    if (x >= s->mesh_x || y >= s->mesh_y) {
        return false;
    }
    t = &s->tile[x + s->mesh_x * y];
    switch (sub) {
    case SCC_SUB_CRB:
        *at = SLOT_BASE(SLOT_CRB + t->id);
        return true;
    case SCC_SUB_MPB:
        *at = SLOT_BASE(SLOT_MPB + t->id);
        return true;
    case SCC_SUB_EAST:
    case SCC_SUB_WEST:
        mc = scc_mc_at(s, x, y, sub);
        if (mc < 0) {
            return false;
        }
        if (mc == 0 && sysaddr >= SCC_SHARED_SYSADDR &&
            sysaddr < SCC_SHARED_SYSADDR + s->shared_mem) {
            *at = SLOT_BASE(SLOT_SHARED) + sysaddr - SCC_SHARED_SYSADDR;
            return true;
        }
        core = scc_core_at_slot(s, mc, sysaddr / SCC_SLOT_SIZE);
        if (core < 0 || sysaddr % SCC_SLOT_SIZE >= s->private_mem) {
            return false;
        }
        *at = SLOT_BASE(SLOT_PRIVATE + core) + sysaddr % SCC_SLOT_SIZE;
        return true;
    case SCC_SUB_NORTH:
        scc_sif_port(s, &sx, &sy, &sside);
        if (x == sx && y == sy && sysaddr == 0) {
            *at = SLOT_BASE(SLOT_SIF);
            return true;
        }
        return false;
    default:
        return false;   /* core ports and the south side hold no memory */
    }
}

static void scc_lut_map(SCCMachineState *s, SCCCore *c, int page)
{
    hwaddr at;

    if (!scc_lut_target(s, c->lut[page], &at)) {
        at = SLOT_BASE(SLOT_NOTHING + c->id) + ((hwaddr)page << SCC_PAGE_SHIFT);
    }
    qatomic_set(&c->xlat[page], TARGETS_AT + at);
}

/* The core maps its pages anew: its TLB forgets the old targets. TCG is
 * the IOMMU's only user, and a flush of its own rather than an IOMMU
 * notification: TCG's notifier skips a CPU that filled nothing since its
 * last flush, and one filling on another thread meanwhile would keep the
 * old page. */
static void scc_lut_changed(SCCCore *c)
{
    tlb_flush(c->cs);
}

static IOMMUTLBEntry scc_lut_translate(IOMMUMemoryRegion *iommu, hwaddr addr,
                                       IOMMUAccessFlags flag, int iommu_idx)
{
    SCCCore *c = container_of(iommu, SCCCore, lut_mr);

    return (IOMMUTLBEntry) {
        .target_as = c->cs->as,
        .iova = addr & ~(hwaddr)(SCC_PAGE_SIZE - 1),
        .translated_addr = qatomic_read(&c->xlat[addr >> SCC_PAGE_SHIFT]),
        .addr_mask = SCC_PAGE_SIZE - 1,
        .perm = IOMMU_RW,
    };
}

static int scc_lut_attrs_to_index(IOMMUMemoryRegion *iommu, MemTxAttrs attrs)
{
    return 0;
}

void scc_lut_write(SCCMachineState *s, SCCCore *c, int page, uint32_t val)
{
    trace_scc_lut_write(c->id, page, val);
    c->lut[page] = val & SCC_LUT_VALID_BITS;
    scc_lut_map(s, c, page);
    scc_lut_changed(c);
}

void scc_lut_reset(SCCMachineState *s, SCCCore *c)
{
    int slot, mc = scc_mc_of_core(s, c->id, &slot);
    int mx, my, mside, sx, sy, sside;
    SCCTile *own = &s->tile[c->tile];
    int p, t;

    scc_mc_port(s, mc, &mx, &my, &mside);
    scc_sif_port(s, &sx, &sy, &sside);
    memset(c->lut, 0, sizeof(c->lut));
    for (p = 0; p <= SCC_PAGE_PRIVATE_LAST; p++) {
        c->lut[p] = SCC_LUT_ENTRY(slot * SCC_PRIVATE_PAGES + p, mside,
                                  scc_route(mx, my));
    }
    scc_mc_port(s, 0, &mx, &my, &mside);
    for (p = 0; p < s->shared_mem / SCC_PAGE_SIZE; p++) {
        c->lut[SCC_PAGE_SHARED + p] =
            SCC_LUT_ENTRY((SCC_SHARED_SYSADDR >> SCC_PAGE_SHIFT) + p, mside,
                          scc_route(mx, my));
    }
    for (t = 0; t < s->ntiles; t++) {
        uint32_t route = scc_route(s->tile[t].x, s->tile[t].y);

        c->lut[SCC_PAGE_MPB + t] = SCC_LUT_ENTRY(0, SCC_SUB_MPB, route);
        c->lut[SCC_PAGE_CRB + t] = SCC_LUT_ENTRY(0, SCC_SUB_CRB, route);
    }
    c->lut[SCC_PAGE_OWN_MPB] = c->lut[SCC_PAGE_MPB + own->id];
    c->lut[SCC_PAGE_OWN_CRB] = c->lut[SCC_PAGE_CRB + own->id];
    c->lut[SCC_PAGE_SIF] = SCC_LUT_ENTRY(0, sside, scc_route(sx, sy));
    c->lut[SCC_PAGE_RESET] = c->lut[0];

    for (p = 0; p < SCC_LUT_ENTRIES; p++) {
        scc_lut_map(s, c, p);
    }
    scc_lut_changed(c);
}

static uint64_t scc_unmapped_read(void *opaque, hwaddr addr, unsigned size)
{
    SCCCore *c = opaque;

    qemu_log_mask(LOG_GUEST_ERROR,
                  "scc: core %d: read at 0x%08" HWADDR_PRIx ": LUT entry "
                  "0x%02x = 0x%06x names nothing\n", c->id, addr,
                  (int)(addr >> SCC_PAGE_SHIFT),
                  c->lut[addr >> SCC_PAGE_SHIFT]);
    return MAKE_64BIT_MASK(0, size * 8);
}

static void scc_unmapped_write(void *opaque, hwaddr addr, uint64_t val,
                               unsigned size)
{
    SCCCore *c = opaque;

    qemu_log_mask(LOG_GUEST_ERROR,
                  "scc: core %d: write at 0x%08" HWADDR_PRIx ": LUT entry "
                  "0x%02x = 0x%06x names nothing\n", c->id, addr,
                  (int)(addr >> SCC_PAGE_SHIFT),
                  c->lut[addr >> SCC_PAGE_SHIFT]);
}

static const MemoryRegionOps scc_unmapped_ops = {
    .read = scc_unmapped_read,
    .write = scc_unmapped_write,
    .endianness = DEVICE_LITTLE_ENDIAN,
    .valid = { .min_access_size = 1, .max_access_size = 8 },
};

void scc_lut_init(SCCMachineState *s, SCCCore *c)
{
    g_autofree char *name = g_strdup_printf("scc-core%d", c->id);
    g_autofree char *lut = g_strdup_printf("scc-core%d-lut", c->id);
    g_autofree char *bg = g_strdup_printf("scc-core%d-unmapped", c->id);
    g_autofree char *ram = g_strdup_printf("scc-core%d-dram", c->id);

    memory_region_init(&c->root, OBJECT(s), name, TARGETS_AT + SLOT_BASE(SLOTS));
    memory_region_init_iommu(&c->lut_mr, sizeof(c->lut_mr), TYPE_SCC_LUT_IOMMU,
                             OBJECT(s), lut, 1ULL << 32);
    memory_region_add_subregion(&c->root, 0, MEMORY_REGION(&c->lut_mr));
    memory_region_init_io(&c->unmapped, OBJECT(s), &scc_unmapped_ops, c, bg,
                          1ULL << 32);
    memory_region_init_ram_flags_nomigrate(&c->private_ram, OBJECT(s), ram,
                                           s->private_mem, RAM_NORESERVE,
                                           &error_fatal);
}

/* Once the cores and tiles exist: every memory a LUT entry can name, in
 * its slot of the targets' space. */
void scc_lut_targets_init(SCCMachineState *s)
{
    int i;

    /* one rebuild of the cores' address spaces, not one an addition */
    memory_region_transaction_begin();
    memory_region_init(&s->lut_targets, OBJECT(s), "scc-lut-targets",
                       SLOT_BASE(SLOTS));
    for (i = 0; i < s->ncores; i++) {
        memory_region_add_subregion(&s->lut_targets, SLOT_BASE(SLOT_PRIVATE + i),
                                    &s->core[i].private_ram);
        memory_region_add_subregion(&s->lut_targets, SLOT_BASE(SLOT_NOTHING + i),
                                    &s->core[i].unmapped);
    }
    memory_region_add_subregion(&s->lut_targets, SLOT_BASE(SLOT_SHARED),
                                &s->shared_ram);
    for (i = 0; i < s->ntiles; i++) {
        memory_region_add_subregion(&s->lut_targets, SLOT_BASE(SLOT_MPB + i),
                                    &s->tile[i].mpb_window);
        memory_region_add_subregion(&s->lut_targets, SLOT_BASE(SLOT_CRB + i),
                                    &s->tile[i].crb);
    }
    memory_region_add_subregion(&s->lut_targets, SLOT_BASE(SLOT_SIF), &s->sif);
    for (i = 0; i < s->ncores; i++) {
        SCCCore *c = &s->core[i];
        g_autofree char *name = g_strdup_printf("scc-core%d-targets", c->id);

        memory_region_init_alias(&c->targets, OBJECT(s), name, &s->lut_targets,
                                 0, SLOT_BASE(SLOTS));
        memory_region_add_subregion(&c->root, TARGETS_AT, &c->targets);
    }
    memory_region_transaction_commit();
}

static void scc_lut_iommu_class_init(ObjectClass *oc, void *data)
{
    IOMMUMemoryRegionClass *imrc = IOMMU_MEMORY_REGION_CLASS(oc);

    imrc->translate = scc_lut_translate;
    imrc->attrs_to_index = scc_lut_attrs_to_index;
}

static const TypeInfo scc_lut_iommu_info = {
    .name = TYPE_SCC_LUT_IOMMU,
    .parent = TYPE_IOMMU_MEMORY_REGION,
    .class_init = scc_lut_iommu_class_init,
};

static void scc_lut_register_types(void)
{
    type_register_static(&scc_lut_iommu_info);
}

type_init(scc_lut_register_types)
