#include "sync.h"

uint64_t deadline(uint32_t seconds)
{
	return gtsc() + (uint64_t)sif_read(SIF_GTSC_HZ) * seconds;
}

// Core 0 calls this after its own setup, the others before touching any
// shared state. Shared DRAM is fresh at power-on, so only core 0's magic
// can make READY hold it.
void sync_start(const struct core *me)
{
	if (me->id == 0) {
		atomic_set(BARRIER_COUNTER, 0);
		SHM[SHM_GEN] = 0;
		SHM[SHM_READY] = SYNC_MAGIC;
	} else {
		WAIT(SHM[SHM_READY] == SYNC_MAGIC, "core 0 to start");
	}
}

// The counter only grows: barrier e completes when it reaches e * n, and
// the core that brings it there publishes e.
void barrier(uint32_t n)
{
	static uint32_t episode;
	uint32_t e = ++episode;

	if (atomic_inc(BARRIER_COUNTER) + 1 == e * n)
		SHM[SHM_GEN] = e;
	else
		WAIT(SHM[SHM_GEN] >= e, "the other cores at a barrier");
}

void delay(uint32_t n)
{
	while (n--)
		compiler_barrier();
}
