// Ending a core: the machine takes the status from the EXIT register,
// stops the core, and exits once every started core has done so.
//
// A panic ends the whole run (docs/kernel.md): the panicking core records
// its id (plus 1, as 0 means "no panic") in the atomic counter the kernel
// reserves, and pulses the NMI pin of every other running core. Their
// kernels stop with SCC_EXIT_STOPPED and say which core panicked.

#include <scc/io.h>
#include <scc/sif.h>
#include "defs.h"

volatile int panicking, exited;

// exit_hook (set by the kernel proper, not by test guests) runs first,
// except in a panic: the mailbox wakes senders that wait for it.
// The machine takes no more from the core after the EXIT write, but an
// NMI can still wake it from its final hlt: the NMI handler looks here.
void (*exit_hook)(void);

void core_exit(int status)
{
	if (!exited && !panicking && exit_hook)
		exit_hook();
	exited = 1;
	sif_exit((uint32_t)status);
}

// Every other core that has been released from reset. Only the mesh's
// shape is needed to find them, not whoami(): a panic can come before it.
// NMI core c. A pin still high after a second of our clock (user code
// wrote it and left it) is pulsed anyway (drivers/crb.c): a panic must
// stop the others.
static void nmi(const struct core *c, uint32_t id, uint64_t hz)
{
	uint64_t t0 = rdtsc();

	while (!crb_try_nmi(c)) {
		if (rdtsc() - t0 >= hz) {
			crb_force_nmi(c);
			cprintf("core %02u: GLCFG NMI pin of core %02u high for 1 s "
				"(user code wrote it?): pulsed anyway\n", id, c->id);
			return;
		}
		pause();
	}
}

static void stop_others(uint32_t id)
{
	struct core me, c;
	uint32_t i, hz = sif_read(SIF_CORE_HZ);

	mesh_shape(&me);
	for (i = 0; i < me.ncores; i++) {
		if (i == id)
			continue;
		core_locate(&me, i, &c);
		if (crb_running(&c))
			nmi(&c, id, hz);
	}
}

void panic(const char *fmt, ...)
{
	uint32_t id = sif_read(SIF_COREID);
	va_list ap;

	if (panicking++)	// a panic while panicking: just stop
		core_exit(SCC_EXIT_PANIC);
	lock_drop_held();
	console_endline();
	cprintf("core %02u: panic: ", id);
	va_start(ap, fmt);
	vcprintf(fmt, ap);
	va_end(ap);
	console_putc('\n');
	sif_counter_set(PANIC_COUNTER, id + 1);
	stop_others(id);
	core_exit(SCC_EXIT_PANIC);
}
