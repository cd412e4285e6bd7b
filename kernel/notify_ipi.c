// ipi: every send interrupts the receiver, which sleeps while its queue is
// empty. The receiver costs nothing while it waits; every message costs
// it a trap (docs/notify.md).

#include "defs.h"

static int wait(void)
{
	idle();
	return 0;
}

const struct notify notify_ipi = {
	.interrupt = 1,
	.wait = wait,
	.halt = idle,
};
