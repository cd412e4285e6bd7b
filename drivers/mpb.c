// The message passing buffers. Every core owns 8 KiB of its tile's 16 KiB.
// Reads go through the L1 (MPBT lines), which no one keeps coherent, and
// writes go through a one-line write-combine buffer (WCB).

#include <scc/io.h>
#include "drivers.h"

// A write to another MPBT line pushes the WCB's line out (RCCE does this
// with a dummy MPB line). The dummy has a private page of its own, which
// the kernel maps MPBT, because the kernel's MPB lines are all in use.
static volatile uint32_t wcb_dummy[1024] __attribute__((aligned(4096)));

// Core c's 8 KiB, through its tile's MPB page.
uintptr_t mpb_area(const struct core *c)
{
	return SCC_MPB(c->tile) + c->z * SCC_MPB_HALF;
}

// Before reading lines that another core may have written.
void mpb_invalidate(void)
{
	cl1invmb();
}

// After writing lines that another core will read.
void mpb_flush(void)
{
	wcb_dummy[0] = 0;
	compiler_barrier();
}

uintptr_t mpb_flush_page(void)
{
	return (uintptr_t)wcb_dummy;
}
