// The system interface page: the console and exit registers (emulator
// extensions, per core), the global timestamp counter and the atomic
// counters. 32-bit accesses only.

#include <scc/sif.h>
#include "drivers.h"

// The machine collects a line per core and prints it whole at '\n'.
void sif_putc(int c)
{
	sif_write(SIF_CONSOLE, (uint8_t)c);
}

// The machine stops the core on this write; the loop is in case it does not.
void sif_exit(uint32_t status)
{
	sif_write(SIF_EXIT, status);
	for (;;) {
		cli();
		hlt();
	}
}

// Reading LO latches HI for this core, so the pair must not be split by
// another GTSC read on the same core: the kernel reads it with interrupts
// off and never from an interrupt handler.
uint64_t sif_gtsc(void)
{
	return gtsc();
}

// Counter i (0-47): read-and-increment, returns the old value.
uint32_t sif_counter_inc(int i)
{
	return atomic_inc(i);
}

uint32_t sif_counter_get(int i)
{
	return atomic_get(i);
}

void sif_counter_set(int i, uint32_t v)
{
	atomic_set(i, v);
}

// Whether core id can run: CORE_STATE_RESET, _RUNNING or _EXITED.
uint32_t sif_core_state(uint32_t id)
{
	return sif_read(SIF_CORE_STATE(id));
}

// Core id did not answer this core in time: the machine ends it.
void sif_unresponsive(uint32_t id)
{
	sif_write(SIF_UNRESPONSIVE, id);
}

// Where an exception ended this core, for the machine's report.
void sif_fault(uint32_t vector, uint32_t eip, uint32_t addr)
{
	sif_write(SIF_FAULT_EIP, eip);
	sif_write(SIF_FAULT_ADDR, addr);
	sif_write(SIF_FAULT, vector);
}
