// hybrid: a receiver waiting for a message spins on its ring for
// notify_spin core cycles, then publishes that it sleeps and sleeps;
// senders interrupt only a sleeping receiver. Short waits cost no trap,
// long ones no spinning.

#include <scc/io.h>
#include "defs.h"

static int wait(void)
{
	uint64_t t0 = rdtsc();

	while (rdtsc() - t0 < notify_spin) {
		if (mbox_drain())
			return 0;
		pause();
	}
	mbox_sleep();
	return 0;
}

const struct notify notify_hybrid = {
	.interrupt = 0,
	.wait = wait,
	.halt = mbox_sleep,
};
