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
// GLCFG bits configure the core on the chip, so they are kept. The bit is
// cleared in what is written back, so two cores pulsing the same pin at
// once make one or two edges but never leave it set.
static void pulse(const struct core *c, uint32_t bit)
{
	uint32_t v = read32(glcfg(c)) & ~bit;

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
