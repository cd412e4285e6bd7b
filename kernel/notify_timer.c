// timer: senders never interrupt; a receiver waiting for a message sleeps,
// and its LAPIC tick (SYS_tick, the tick= option) drains the ring. A
// message waits up to one tick period: MetalSVM's delivery by the timer
// interrupt. Without a tick the receiver would sleep for ever: refused.

#include "defs.h"

static int wait(void)
{
	if (!lapic_timer_on())
		return -SCC_EINVAL;
	idle();
	return 0;
}

const struct notify notify_timer = {
	.interrupt = 0,
	.wait = wait,
	.halt = idle,
};
