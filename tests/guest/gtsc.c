// Clocks. The GTSC never goes back on one core, and a value read after
// seeing another core's published value is not smaller: core i publishes,
// core i+1 reads, around the ring, for a few rounds. The same for the TSC,
// which the machine also keeps monotonic across cores.

#include "sync.h"

#define ROUNDS 8
#define READS  20000

struct stamp {
	uint32_t gtsc_lo, gtsc_hi;
	uint32_t tsc_lo, tsc_hi;
	uint32_t seq;
	uint32_t pad[3];
};

#define STAMPS ((volatile struct stamp *)SHM_DATA)

static uint64_t join(uint32_t lo, uint32_t hi)
{
	return (uint64_t)hi << 32 | lo;
}

static int local(void)
{
	uint64_t first = gtsc(), last = first, t;
	uint32_t i;

	for (i = 0; i < READS; i++) {
		t = gtsc();
		if (t < last) {
			cprintf("gtsc went back: %x%08x after %x%08x\n",
				(uint32_t)(t >> 32), (uint32_t)t,
				(uint32_t)(last >> 32), (uint32_t)last);
			return 1;
		}
		last = t;
	}
	if (last == first) {
		cprintf("gtsc did not advance in %u reads\n", READS);
		return 1;
	}
	return 0;
}

int kmain(uint32_t magic, struct multiboot_info *mbi)
{
	struct core c;
	volatile struct stamp *mine, *prev;
	uint32_t r, from;
	uint64_t g, t;
	int bad = 0;

	(void)magic;
	(void)mbi;
	whoami(&c);
	if (!sif_read(SIF_GTSC_HZ) || !sif_read(SIF_CORE_HZ))
		panic("GTSC_HZ %u CORE_HZ %u", sif_read(SIF_GTSC_HZ),
		      sif_read(SIF_CORE_HZ));
	if (c.id == 0)
		memset((void *)STAMPS, 0, c.ncores * ROUNDS * sizeof(struct stamp));
	sync_start(&c);
	bad = local();

	from = (c.id + c.ncores - 1) % c.ncores;
	// All rounds even after a failure: the next core waits for our stamps.
	for (r = 1; r <= ROUNDS; r++) {
		mine = &STAMPS[(r - 1) * c.ncores + c.id];
		prev = &STAMPS[(r - 1) * c.ncores + from];
		g = gtsc();
		t = rdtsc();
		mine->gtsc_lo = g;
		mine->gtsc_hi = g >> 32;
		mine->tsc_lo = t;
		mine->tsc_hi = t >> 32;
		mine->seq = r;  // stores are seen in order: the stamp is complete

		WAIT(prev->seq == r, "the previous core's stamp");
		g = gtsc();
		t = rdtsc();
		if (g < join(prev->gtsc_lo, prev->gtsc_hi)) {
			cprintf("round %u: gtsc %x after core %u's %x (low words)\n",
				r, (uint32_t)g, from, prev->gtsc_lo);
			bad = 1;
		}
		if (t < join(prev->tsc_lo, prev->tsc_hi)) {
			cprintf("round %u: tsc %x after core %u's %x (low words)\n",
				r, (uint32_t)t, from, prev->tsc_lo);
			bad = 1;
		}
	}
	if (!bad)
		cprintf("gtsc ok after core %u\n", from);
	return bad;
}
