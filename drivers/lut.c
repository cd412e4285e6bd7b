// The default LUT, computed: which memory controller serves a core and
// what entries the machine gives it at reset. With these a core can map
// another core's private memory into its window page.

#include <scc/io.h>
#include "drivers.h"

// x in the east half, y in the south half: MC0 NW, MC1 NE, MC2 SW, MC3 SE.
uint32_t lut_mc(const struct core *c)
{
	return (c->x >= c->mesh_x / 2) | (c->y >= c->mesh_y / 2) << 1;
}

// An entry for system page addrbits of controller mc.
uint32_t lut_mc_entry(const struct core *me, uint32_t mc, uint32_t addrbits)
{
	uint32_t x = (mc & 1) ? me->mesh_x - 1 : 0;
	uint32_t y = (mc & 2) ? me->mesh_y / 2 : 0;
	uint32_t side = (mc & 1) ? SUBDEST_EAST : SUBDEST_WEST;

	return LUT_ENTRY(addrbits, side, LUT_ROUTE_XY(x, y));
}

// Core c's default entry for its private page: slots go to a controller's
// cores in id order, SCC_PRIVATE_PAGES pages each. A core's slot is counted
// once (a loop of divisions over the cores before it): the mesh does not
// change while the core runs, and the copy paths ask at every request.
uint32_t lut_private_entry(const struct core *me, const struct core *c, uint32_t page)
{
	static uint8_t slot[SCC_MAX_CORES];
	static uint64_t known;
	struct core o;
	uint32_t id, k = 0;

	if (known & (1ull << c->id)) {
		k = slot[c->id];
	} else {
		for (id = 0; id < c->id; id++) {
			core_locate(me, id, &o);
			k += lut_mc(&o) == lut_mc(c);
		}
		slot[c->id] = (uint8_t)k;
		known |= 1ull << c->id;
	}
	return lut_mc_entry(me, lut_mc(c), k * SCC_PRIVATE_PAGES + page);
}

// This core's own entry for page, through its own CRB.
uintptr_t lut_own(const struct core *me, uint32_t page)
{
	return SCC_OWN_CRB + CRB_LUT(me->z) + page * CRB_LUT_STRIDE;
}

// Map page of core c's private memory at the window page.
void lut_window(const struct core *me, const struct core *c, uint32_t page)
{
	lut_set(me, SCC_WINDOW_PAGE, lut_private_entry(me, c, page));
}

// Read this core's entry for page.
uint32_t lut_get(const struct core *me, uint32_t page)
{
	return read32(lut_own(me, page));
}

// Point this core's page at entry. The new entry holds from the next
// translation on, and only once the TLB forgets the old one: with paging
// on, the 16 MiB page may sit in the TLB as any of 4096 small pages.
void lut_set(const struct core *me, uint32_t page, uint32_t entry)
{
	write32(lut_own(me, page), entry);
	if (read_cr0() & CR0_PG)
		write_cr3(read_cr3());
	else
		invlpg((uintptr_t)page << SCC_PAGE_SHIFT);
}
