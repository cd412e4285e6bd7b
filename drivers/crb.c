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
// Senders clear the pin right after setting it, so the wait is short.
static void pulse(const struct core *c, uint32_t bit)
{
	uint32_t v;

	while ((v = read32(glcfg(c))) & bit)
		pause();
	write32(glcfg(c), v | bit);
	write32(glcfg(c), v);
}

// Interrupt core c through LINT0.
void crb_intr(const struct core *c)
{
	pulse(c, GLCFG_INTR);
}

// NMI core c through LINT1.
void crb_nmi(const struct core *c)
{
	pulse(c, GLCFG_NMI);
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
