// The core whose command line says "fault" triple-faults on purpose: with
// an empty IDT, int3 cannot be delivered, nor the #GP, nor the #DF.

#include "defs.h"
#include <scc/io.h>

int kmain(uint32_t magic, struct multiboot_info *mbi)
{
	struct core c;

	(void)magic;
	whoami(&c);
	if (!cmdline_flag(cmdline(mbi), "fault"))
		return 0;
	cprintf("triple fault now\n");
	lidt(0, 1);	// limit 0
	__asm__ volatile("int3");
	panic("still here after int3");
}
