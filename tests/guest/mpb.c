// MPBs. Every core fills its own half of its tile's MPB through the
// own-MPB page, then, after a barrier, reads every core's half through
// that tile's MPB page. Pages repeat their 16 KiB.

#include "sync.h"

#define WORDS (SCC_MPB_HALF / 4)

static uint32_t pattern(uint32_t id, uint32_t i)
{
	return id << 16 | i;
}

static int check(uint32_t base, uint32_t id, const char *via)
{
	uint32_t i, v;

	for (i = 0; i < WORDS; i++) {
		v = read32(base + 4 * i);
		if (v != pattern(id, i)) {
			cprintf("core %u's word %u via %s %x: %x, expected %x\n",
				id, i, via, base, v, pattern(id, i));
			return 1;
		}
	}
	return 0;
}

int kmain(uint32_t magic, struct multiboot_info *mbi)
{
	struct core c, o;
	uint32_t i, id, half;
	int bad = 0;

	(void)magic;
	(void)mbi;
	whoami(&c);
	sync_start(&c);

	half = SCC_OWN_MPB + c.z * SCC_MPB_HALF;
	for (i = 0; i < WORDS; i++)
		write32(half + 4 * i, pattern(c.id, i));
	barrier(c.ncores);

	// The chip needs this before reading lines another core wrote.
	cl1invmb();
	for (id = 0; id < c.ncores && !bad; id++) {
		core_locate(&c, id, &o);
		bad |= check(SCC_MPB(o.tile) + o.z * SCC_MPB_HALF, id, "tile page");
	}
	bad |= check(SCC_MPB(c.tile) + SCC_MPB_SIZE + c.z * SCC_MPB_HALF,
		     c.id, "wrap +16K");
	bad |= check(SCC_OWN_MPB + SCC_PAGE_SIZE - SCC_MPB_SIZE + c.z * SCC_MPB_HALF,
		     c.id, "wrap at page end");
	if (!bad)
		cprintf("mpb ok %u cores\n", c.ncores);
	return bad;
}
