// The seed kernel: find out which core this is, say so, and stop.

#include "defs.h"

int kmain(uint32_t magic, struct multiboot_info *mbi)
{
	struct core c;

	(void)mbi;
	if (magic != MULTIBOOT_BOOTLOADER_MAGIC)
		panic("not started by a Multiboot loader (eax %x)", magic);
	whoami(&c);
	cprintf("core %02u tile (%u,%u) up\n", c.id, c.x, c.y);
	core_exit(0);
}
