// Ending a core: the machine takes the status from the EXIT register,
// stops the core, and exits once every started core has done so.

#include <scc/sif.h>
#include "defs.h"

void core_exit(int status)
{
	sif_write(SIF_EXIT, (uint32_t)status);
	// The machine stops the core on the write; this is in case it does not.
	for (;;) {
		cli();
		hlt();
	}
}

void panic(const char *fmt, ...)
{
	va_list ap;

	console_puts("panic: ");
	va_start(ap, fmt);
	vcprintf(fmt, ap);
	va_end(ap);
	console_putc('\n');
	core_exit(1);
}
