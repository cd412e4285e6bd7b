/*
 * SCC: each core's physical address space, formed by its 256-entry LUT,
 * and the memories the LUT entries can name (MC DRAM, and the tiles' MPB
 * and CRB pages and the SIF, which their own files make).
 *
 * A core's root region is a 4 GiB container with one alias per mapped
 * 16 MiB page. A LUT write replaces that page's alias; what no entry maps
 * falls through to a background region that reads all ones and logs the
 * core, the address and the entry.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "qemu/osdep.h"
#include "qemu/log.h"
#include "qapi/error.h"
#include "hw/scc/scc.h"
#include "trace.h"

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

/* What a LUT entry names: a region and the page's offset in it, or NULL. */
static MemoryRegion *scc_lut_target(SCCMachineState *s, uint32_t e,
                                    hwaddr *offset)
{
    int x = LUT_ROUTE_X(SCC_LUT_ROUTE(e)), y = LUT_ROUTE_Y(SCC_LUT_ROUTE(e));
    int sub = SCC_LUT_SUBDEST(e);
    uint64_t sysaddr = (uint64_t)SCC_LUT_ADDRBITS(e) << SCC_PAGE_SHIFT;
    int mc, core, sx, sy, sside;
    SCCTile *t;

    *offset = 0;
    if (x >= s->mesh_x || y >= s->mesh_y) {
        return NULL;
    }
    t = &s->tile[x + s->mesh_x * y];
    switch (sub) {
    case SCC_SUB_CRB:
        return &t->crb;
    case SCC_SUB_MPB:
        return &t->mpb_window;
    case SCC_SUB_EAST:
    case SCC_SUB_WEST:
        mc = scc_mc_at(s, x, y, sub);
        if (mc < 0) {
            return NULL;
        }
        if (mc == 0 && sysaddr >= SCC_SHARED_SYSADDR &&
            sysaddr < SCC_SHARED_SYSADDR + s->shared_mem) {
            *offset = sysaddr - SCC_SHARED_SYSADDR;
            return &s->shared_ram;
        }
        core = scc_core_at_slot(s, mc, sysaddr / SCC_SLOT_SIZE);
        if (core < 0 || sysaddr % SCC_SLOT_SIZE >= s->private_mem) {
            return NULL;
        }
        *offset = sysaddr % SCC_SLOT_SIZE;
        return &s->core[core].private_ram;
    case SCC_SUB_NORTH:
        scc_sif_port(s, &sx, &sy, &sside);
        if (x == sx && y == sy && sysaddr == 0) {
            return &s->sif;
        }
        return NULL;
    default:
        return NULL;    /* core ports and the south side hold no memory */
    }
}

static void scc_lut_map(SCCMachineState *s, SCCCore *c, int page)
{
    MemoryRegion *target;
    hwaddr offset;
    g_autofree char *name = NULL;

    if (c->page_mapped[page]) {
        memory_region_del_subregion(&c->root, &c->page[page]);
        object_unparent(OBJECT(&c->page[page]));
        c->page_mapped[page] = false;
    }
    target = scc_lut_target(s, c->lut[page], &offset);
    if (!target) {
        return;
    }
    name = g_strdup_printf("scc-core%d-page%02x", c->id, page);
    memory_region_init_alias(&c->page[page], OBJECT(s), name, target, offset,
                             SCC_PAGE_SIZE);
    memory_region_add_subregion(&c->root, (hwaddr)page << SCC_PAGE_SHIFT,
                                &c->page[page]);
    c->page_mapped[page] = true;
}

void scc_lut_write(SCCMachineState *s, SCCCore *c, int page, uint32_t val)
{
    trace_scc_lut_write(c->id, page, val);
    c->lut[page] = val & SCC_LUT_VALID_BITS;
    memory_region_transaction_begin();
    scc_lut_map(s, c, page);
    memory_region_transaction_commit();
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

    memory_region_transaction_begin();
    for (p = 0; p < SCC_LUT_ENTRIES; p++) {
        scc_lut_map(s, c, p);
    }
    memory_region_transaction_commit();
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
    g_autofree char *bg = g_strdup_printf("scc-core%d-unmapped", c->id);
    g_autofree char *ram = g_strdup_printf("scc-core%d-dram", c->id);

    memory_region_init(&c->root, OBJECT(s), name, 1ULL << 32);
    memory_region_init_io(&c->unmapped, OBJECT(s), &scc_unmapped_ops, c, bg,
                          1ULL << 32);
    memory_region_add_subregion_overlap(&c->root, 0, &c->unmapped, -1);
    memory_region_init_ram_flags_nomigrate(&c->private_ram, OBJECT(s), ram,
                                           s->private_mem, RAM_NORESERVE,
                                           &error_fatal);
}
