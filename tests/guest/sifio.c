// Bad-but-harmless register accesses and console bytes
// (tests/test_reliability.py).
//
// Prints a console line holding every awkward byte (NUL, ESC, DEL, 0xFF,
// CR), then makes 8-bit, 16-bit and unaligned accesses to the system
// interface and to its tile's CRB, which read 0 and are ignored, and
// prints what each read returned, and the aligned NCORES read, so the
// machine's guest-error log can be checked against them.

#include "defs.h"
#include <scc/io.h>

static const char bytes[] = "A\0B\033[31mC\177D\377E\rF";

int kmain(uint32_t magic, struct multiboot_info *mbi)
{
	uintptr_t sif = SCC_SIF, crb = SCC_OWN_CRB;
	struct core c;
	uint32_t i;

	(void)magic;
	(void)mbi;
	whoami(&c);
	if (c.id != 0)
		return 0;
	for (i = 0; i < sizeof(bytes) - 1; i++)
		console_putc((unsigned char)bytes[i]);
	console_putc('\n');
	cprintf("r8 ncores %u\n", *(volatile uint8_t *)(sif + SIF_NCORES));
	cprintf("r16 ncores %u\n", *(volatile uint16_t *)(sif + SIF_NCORES));
	cprintf("r32+1 ncores %u\n", *(volatile uint32_t *)(sif + SIF_NCORES + 1));
	cprintf("r8 tileid %u\n", *(volatile uint8_t *)(crb + CRB_TILEID));
	*(volatile uint8_t *)(crb + CRB_GLCFG0) = GLCFG_NMI;   // ignored: no NMI
	*(volatile uint16_t *)(sif + SIF_EXIT) = 77;           // ignored: no exit
	cprintf("r32 ncores %u\n", read32(sif + SIF_NCORES));
	return 0;
}
