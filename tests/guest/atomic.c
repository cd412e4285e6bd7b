// Atomic counters. All cores increment counter 5 n times. The old values
// must all differ: each core marks the slots of the values it got, and as
// ncores * n values were handed out, all slots marked means no repeats.

#include "sync.h"

#define COUNTER 5
#define SPARE   6
#define SEEN    ((volatile uint8_t *)SHM_DATA)

// INIT writes and reads, and INC returning the old value, on a counter
// the others do not use.
static int selftest(void)
{
	uint32_t a, b, c;

	atomic_set(SPARE, 0x12345678);
	a = atomic_get(SPARE);
	b = atomic_inc(SPARE);
	c = atomic_get(SPARE);
	if (a == 0x12345678 && b == 0x12345678 && c == 0x12345679)
		return 0;
	cprintf("counter %u: %x %x %x\n", SPARE, a, b, c);
	return 1;
}

int kmain(uint32_t magic, struct multiboot_info *mbi)
{
	struct core c;
	uint32_t n = cmdline_uint(cmdline(mbi), "n", 1000), total, i, old, prev = 0;
	uint32_t missing = 0, lo = 0xFFFFFFFF, hi = 0;
	int bad = 0;

	(void)magic;
	whoami(&c);
	total = c.ncores * n;
	if (c.id == 0) {
		bad = selftest();
		atomic_set(COUNTER, 0);
		memset((void *)SEEN, 0, total);
	}
	sync_start(&c);

	for (i = 0; i < n; i++) {
		old = atomic_inc(COUNTER);
		if (old >= total || (i > 0 && old <= prev)) {
			cprintf("increment %u returned %u after %u\n", i, old, prev);
			bad = 1;
			break;
		}
		SEEN[old] = 1;
		prev = old;
		lo = old < lo ? old : lo;
		hi = old > hi ? old : hi;
	}
	barrier(c.ncores);

	if (c.id == 0) {
		for (i = 0; i < total; i++)
			missing += !SEEN[i];
		old = atomic_get(COUNTER);
		cprintf("atomic final %u expected %u missing %u\n", old, total, missing);
		bad |= old != total || missing;
	}
	if (bad)
		cprintf("atomic got %u..%u\n", lo, hi);
	return bad;
}
