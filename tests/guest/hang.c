// Halts with interrupts off without reporting: the machine must notice
// (status 253) instead of waiting forever.

#include "defs.h"
#include <scc/io.h>

int kmain(uint32_t magic, struct multiboot_info *mbi)
{
	(void)magic;
	(void)mbi;
	cprintf("hanging\n");
	for (;;) {
		cli();
		hlt();
	}
}
