// LUTs. Every core checks its default LUT against the reference page.
// Core 0 then points its page 0x29 (unmapped by default) at shared DRAM
// and reads what core 1 wrote there through its own default mapping;
// core 1 checks that its own page 0x29 stayed unmapped.

#include "sync.h"

#define WORDS    64
#define PATTERN  0xA5000000
#define REPLY    0x5A000000

#define WROTE    (SHM_DATA)              // core 1 wrote its pattern
#define REMAPPED (SHM_DATA + 4)          // core 0 remapped, checked, replied
#define DATA     (SHM_DATA + 0x100)      // core 1's pattern
#define ANSWER   (SHM_DATA + 0x200)      // core 0's reply
#define WINDOW   ((uint32_t)SCC_WINDOW_PAGE << SCC_PAGE_SHIFT)

static uint32_t lut_read(const struct core *c, uint32_t page)
{
	return read32(lut_own(c, page));
}

static int expect(const struct core *c, uint32_t page, uint32_t want)
{
	// bypass has no effect and no documented default: not compared
	uint32_t got = lut_read(c, page) & ~LUT_BYPASS;

	if (got == want)
		return 0;
	cprintf("LUT page %x is %x, expected %x\n", page, got, want);
	return 1;
}

static int expect_port(const struct core *c, uint32_t page, uint32_t subdest,
		       uint32_t x, uint32_t y)
{
	uint32_t got = lut_read(c, page) & LUT_PORT_MASK;
	uint32_t want = LUT_ENTRY(0, subdest, LUT_ROUTE_XY(x, y));

	if (got == want)
		return 0;
	cprintf("LUT page %x leads to %x, expected %x\n", page, got, want);
	return 1;
}

static int check_defaults(const struct core *c)
{
	uint32_t p, t, x, y;
	int bad = 0;

	for (p = 0; p < SCC_PRIVATE_PAGES; p++)
		bad |= expect(c, p, lut_private_entry(c, c, p));
	bad |= expect(c, SCC_RESET_PAGE, lut_private_entry(c, c, 0));
	for (p = 0; p < 4; p++)
		bad |= expect(c, SCC_SHARED_PAGE + p,
			      lut_mc_entry(c, 0, SCC_SHARED_ADDRBITS + p));
	// addrbits of MPB and CRB pages are not specified: where they lead only
	for (t = 0; t < c->mesh_x * c->mesh_y; t++) {
		x = t % c->mesh_x;
		y = t / c->mesh_x;
		bad |= expect_port(c, SCC_MPB_PAGE + t, SUBDEST_MPB, x, y);
		bad |= expect_port(c, SCC_CRB_PAGE + t, SUBDEST_CRB, x, y);
	}
	bad |= expect_port(c, SCC_OWN_MPB_PAGE, SUBDEST_MPB, c->x, c->y);
	bad |= expect_port(c, SCC_OWN_CRB_PAGE, SUBDEST_CRB, c->x, c->y);
	return bad;
}

static int core0(const struct core *c)
{
	uint32_t e = LUT_ENTRY(SCC_SHARED_ADDRBITS, SUBDEST_WEST, LUT_ROUTE_XY(0, 0));
	uint32_t i, v;
	int bad = 0;

	WAIT(read32(WROTE) == SYNC_MAGIC, "core 1's pattern");
	write32(lut_own(c, SCC_WINDOW_PAGE), e);
	invlpg(WINDOW);
	if ((v = lut_read(c, SCC_WINDOW_PAGE)) != e) {
		cprintf("LUT entry written %x, reads back %x\n", e, v);
		bad = 1;
	}
	for (i = 0; i < WORDS; i++) {
		v = read32(WINDOW + DATA - SCC_SHARED_BASE + 4 * i);
		if (v != (PATTERN | i)) {
			cprintf("window word %u: %x, expected %x\n", i, v, PATTERN | i);
			bad = 1;
			break;
		}
		write32(WINDOW + ANSWER - SCC_SHARED_BASE + 4 * i, REPLY | i);
	}
	write32(REMAPPED, SYNC_MAGIC);
	if (!bad)
		cprintf("lut remote read ok\n");
	return bad;
}

static int core1(const struct core *c)
{
	uint32_t before = lut_read(c, SCC_WINDOW_PAGE), i, v;
	int bad = 0;

	for (i = 0; i < WORDS; i++)
		write32(DATA + 4 * i, PATTERN | i);
	write32(WROTE, SYNC_MAGIC);
	WAIT(read32(REMAPPED) == SYNC_MAGIC, "core 0 to remap");

	if ((v = lut_read(c, SCC_WINDOW_PAGE)) != before) {
		cprintf("own LUT page 0x29 changed: %x -> %x\n", before, v);
		bad = 1;
	}
	for (i = 0; i < WORDS; i++) {
		if ((v = read32(WINDOW + 4 * i)) != 0xFFFFFFFF) {
			cprintf("own page 0x29 word %u reads %x\n", i, v);
			bad = 1;
			break;
		}
		if ((v = read32(ANSWER + 4 * i)) != (REPLY | i)) {
			cprintf("reply word %u: %x\n", i, v);
			bad = 1;
			break;
		}
	}
	if (!bad)
		cprintf("lut window unmapped ok\n");
	return bad;
}

int kmain(uint32_t magic, struct multiboot_info *mbi)
{
	struct core c;
	int bad;

	(void)magic;
	(void)mbi;
	whoami(&c);
	if (c.id == 0) {
		write32(WROTE, 0);
		write32(REMAPPED, 0);
	}
	sync_start(&c);
	bad = check_defaults(&c);
	if (!bad)
		cprintf("lut defaults ok\n");
	if (c.id == 0)
		bad |= core0(&c);
	else if (c.id == 1)
		bad |= core1(&c);
	return bad;
}
