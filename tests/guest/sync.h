// Coordination between the cores of a test run, through shared DRAM and
// the atomic counters. Core 0 sets things up; the others wait for it.

#ifndef GUEST_SYNC_H
#define GUEST_SYNC_H

#include <scc/sif.h>
#include "defs.h"

// Words at the start of shared DRAM; tests keep their data at SHM_DATA.
#define SHM             ((volatile uint32_t *)SCC_SHARED_BASE)
#define SHM_READY       0
#define SHM_GEN         1
#define SHM_DATA        (SCC_SHARED_BASE + 0x1000)

#define SYNC_MAGIC      0x5CC5EED5
#define BARRIER_COUNTER 0               // atomic counter the barrier uses
#define WAIT_SECONDS    40              // then give up with a message

uint64_t deadline(uint32_t seconds);
void sync_start(const struct core *me);
void barrier(uint32_t n);
void delay(uint32_t n);

// Spin until cond holds; panic with "timeout waiting for what" after
// WAIT_SECONDS. The clock is read only now and then: it is a register.
#define WAIT(cond, what) do {                                        \
	uint64_t dl_ = deadline(WAIT_SECONDS);                       \
	uint32_t n_ = 0;                                             \
	while (!(cond)) {                                            \
		pause();                                             \
		if (!(++n_ & 0x3FF) && gtsc() > dl_)                 \
			panic("timeout waiting for %s", what);       \
	}                                                            \
} while (0)

#endif
