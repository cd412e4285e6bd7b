// The system interface page (0xF9): global clock, atomic counters and the
// emulator's per-core extension registers.

#ifndef SCC_SIF_H
#define SCC_SIF_H

#include <stdint.h>
#include "hw.h"
#include "io.h"

static inline uint32_t sif_read(uint32_t off)
{
	return read32(SCC_SIF + off);
}

static inline void sif_write(uint32_t off, uint32_t v)
{
	write32(SCC_SIF + off, v);
}

// LO first: the read latches the HI half this core then sees.
static inline uint64_t gtsc(void)
{
	uint32_t lo = sif_read(SIF_GTSC_LO);
	uint32_t hi = sif_read(SIF_GTSC_HI);

	return (uint64_t)hi << 32 | lo;
}

// Returns the value before the increment.
static inline uint32_t atomic_inc(int i)
{
	return sif_read(SIF_ATOMIC_INC(i));
}

static inline uint32_t atomic_get(int i)
{
	return sif_read(SIF_ATOMIC_INIT(i));
}

static inline void atomic_set(int i, uint32_t v)
{
	sif_write(SIF_ATOMIC_INIT(i), v);
}

#endif
