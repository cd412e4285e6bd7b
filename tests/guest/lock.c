// T&S lock. All cores add 1 to a shared counter n times each under
// LOCK0 of tile 0, with a slow read-modify-write that a broken lock would
// let them interleave, losing updates.

#include "sync.h"

#define LOCK    (SCC_CRB(0) + CRB_LOCK0)
#define COUNTER ((volatile uint32_t *)SHM_DATA)

static void acquire(void)
{
	while (read32(LOCK) != 1)
		delay(50);
}

static void release(void)
{
	write32(LOCK, 0);
}

// Core 0's check of the register itself, while nobody else uses it.
static int selftest(void)
{
	uint32_t first, second, third;

	write32(LOCK, 0);
	first = read32(LOCK);
	second = read32(LOCK);
	write32(LOCK, 0);
	third = read32(LOCK);
	write32(LOCK, 0);
	if (first == 1 && second == 0 && third == 1)
		return 0;
	cprintf("LOCK0 reads %u %u %u, expected 1 0 1\n", first, second, third);
	return 1;
}

int kmain(uint32_t magic, struct multiboot_info *mbi)
{
	struct core c;
	uint32_t n = cmdline_uint(cmdline(mbi), "n", 1000), i, v;
	int bad = 0;

	(void)magic;
	whoami(&c);
	if (c.id == 0) {
		bad = selftest();
		*COUNTER = 0;
	}
	sync_start(&c);

	for (i = 0; i < n; i++) {
		acquire();
		v = *COUNTER;
		delay(20);
		*COUNTER = v + 1;
		release();
	}
	barrier(c.ncores);

	if (c.id == 0) {
		v = *COUNTER;
		cprintf("lock count %u expected %u\n", v, c.ncores * n);
		bad |= v != c.ncores * n;
	}
	return bad;
}
