// poll: senders never interrupt; a receiver waiting for a message spins on
// its ring, so it sees a message one MPB read after it arrives and is
// never free for other work meanwhile.

#include <scc/io.h>
#include "defs.h"

static int wait(void)
{
	pause();
	return 0;
}

const struct notify notify_poll = {
	.interrupt = 0,
	.wait = wait,
	.halt = idle,
};
