// The test-and-set register of each core (LOCK0/LOCK1 of its tile). A
// read returns 1 and takes the lock if it was free; any write frees it.
// The kernel holds at most one lock at a time, and never for long.

#include <scc/io.h>
#include "drivers.h"

// The register of the lock this core holds, so that a core that has to
// stop (panic, NMI, fatal trap) can let the others go on.
static uintptr_t held;

static uintptr_t reg(const struct core *c)
{
	return SCC_CRB(c->tile) + CRB_LOCK(c->z);
}

int lock_try(const struct core *c)
{
	if (read32(reg(c)) != 1)
		return 0;
	held = reg(c);
	return 1;
}

// Every try is a trip over the mesh (and, emulated, through QEMU's big
// lock), so the waiting cores back off, up to about a microsecond.
void lock_acquire(const struct core *c)
{
	uint32_t wait = 1, i;

	while (!lock_try(c)) {
		for (i = 0; i < wait; i++)
			pause();
		if (wait < 512)
			wait *= 2;
	}
}

void lock_release(const struct core *c)
{
	held = 0;
	write32(reg(c), 0);
}

void lock_drop_held(void)
{
	if (held) {
		write32(held, 0);
		held = 0;
	}
}

// The register's address, for the kernel's T&S path for user code
// (kernel/trapasm.S): user code's own use, not the kernel's lock.
uintptr_t lock_reg(const struct core *c)
{
	return reg(c);
}
