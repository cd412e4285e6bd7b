// The configuration register block of a tile: TILEID, the GLCFG pins that
// drive a core's LINT0 (INTR) and LINT1 (NMI), and GCBCFG, which holds a
// core in reset. 32-bit accesses only.

#include <scc/io.h>
#include "drivers.h"

static uintptr_t glcfg(const struct core *c)
{
	return SCC_CRB(c->tile) + CRB_GLCFG(c->z);
}

// Own tile's x, y and this core's z.
uint32_t crb_tileid(void)
{
	return read32(SCC_OWN_CRB + CRB_TILEID);
}

// A pin is level-sensitive: set then clear makes one edge. The other
// GLCFG bits configure the core on the chip, so they are kept. Two cores
// pulsing one pin at once make a single edge, and if its rise came before
// the later sender stored what the interrupt announces, the receiver
// could take the interrupt, look, find nothing, and sleep: that sender's
// wake-up lost. So a sender first waits for the pin to be low: the next
// rise, its own or another sender's, comes after everything it stored.
// Senders clear the pin right after setting it, so the wait is short;
// but a pin that user code set and left high never goes low: the caller
// bounds the wait (crb_try_intr, then crb_force_intr once it gives up).
static int pulse(const struct core *c, uint32_t bit, int force)
{
	uint32_t v = read32(glcfg(c));

	if (v & bit) {
		if (!force)
			return 0;
		v &= ~bit;
		write32(glcfg(c), v);	// low, so that the pulse is an edge
	}
	write32(glcfg(c), v | bit);
	write32(glcfg(c), v);
	return 1;
}

// Interrupt core c through LINT0 if its pin is low; 1 if so.
int crb_try_intr(const struct core *c)
{
	return pulse(c, GLCFG_INTR, 0);
}

// Interrupt core c through LINT0, driving its pin low first if need be.
void crb_force_intr(const struct core *c)
{
	pulse(c, GLCFG_INTR, 1);
}

// The same through LINT1 (NMI).
int crb_try_nmi(const struct core *c)
{
	return pulse(c, GLCFG_NMI, 0);
}

void crb_force_nmi(const struct core *c)
{
	pulse(c, GLCFG_NMI, 1);
}

// Whether core c has been released from reset.
int crb_running(const struct core *c)
{
	return !(read32(SCC_CRB(c->tile) + CRB_GCBCFG) & GCBCFG_RESET(c->z));
}

// Hold core c in reset (1), or release it to start at its reset vector (0).
void crb_hold(const struct core *c, int hold)
{
	uintptr_t reg = SCC_CRB(c->tile) + CRB_GCBCFG;
	uint32_t v = read32(reg);

	write32(reg, hold ? v | GCBCFG_RESET(c->z) : v & ~GCBCFG_RESET(c->z));
}

// Tile t's clock field in GCBCFG, keeping its cores' reset bits.
void crb_clock(uint32_t tile, uint32_t mhz)
{
	uintptr_t reg = SCC_CRB(tile) + CRB_GCBCFG;
	uint32_t v = read32(reg);

	write32(reg, (v & ~(uint32_t)GCBCFG_CLOCK_MASK) |
		((mhz << GCBCFG_CLOCK_SHIFT) & GCBCFG_CLOCK_MASK));
}
