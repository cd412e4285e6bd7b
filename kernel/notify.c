// The mailbox's notification schemes, by mode number (SCC_MBOX_*), and
// the receiver's current one. Senders look up the receiver's scheme by
// the mode it published in its ring, so every kernel has the same table.

#include <scc/io.h>
#include "defs.h"

static const struct notify *const schemes[SCC_MBOX_NMODES] = {
	[SCC_MBOX_IPI] = &notify_ipi,
	[SCC_MBOX_POLL] = &notify_poll,
	[SCC_MBOX_HYBRID] = &notify_hybrid,
	[SCC_MBOX_TIMER] = &notify_timer,
};
static const char *const names[SCC_MBOX_NMODES] = SCC_MBOX_NAMES;

static int mode;
uint32_t notify_spin;

// A mode read from another core's ring may be anything user code wrote
// there: an unknown one is treated as ipi, which never loses a message.
const struct notify *notify_scheme(int m)
{
	if (m < 0 || m >= SCC_MBOX_NMODES || !schemes[m])
		return &notify_ipi;
	return schemes[m];
}

// This core's scheme.
const struct notify *notify_current(void)
{
	return schemes[mode];
}

// Set the mode (-1: only ask) and hybrid's spin budget; the old mode.
int notify_mode(int m, uint32_t spin)
{
	int old = mode;

	if (m == -1)
		return old;
	if (m < 0 || m >= SCC_MBOX_NMODES || !schemes[m])
		return -SCC_EINVAL;
	mode = m;
	notify_spin = spin;
	return old;
}

// The mode called name (len bytes, not terminated), or -1.
int notify_parse(const char *name, uint32_t len)
{
	int m;

	for (m = 0; m < SCC_MBOX_NMODES; m++)
		if (strlen(names[m]) == len && !strncmp(names[m], name, len))
			return m;
	return -1;
}

// notify_core found core c's pin high: wait for it to go low, but a pin
// still high after a second of our clock is one nobody will clear (user
// code with the CRB mapped wrote it and left it); it is pulsed anyway,
// and we say so, instead of spinning until the run's time limit.
void notify_stuck(const struct core *c)
{
	uint64_t t0;

	for (t0 = rdtsc(); rdtsc() - t0 < core_hz; pause())
		if (crb_try_intr(c))
			return;
	crb_force_intr(c);
	kstat.pins_forced++;
	console_endline();
	cprintf("core %02u: GLCFG INTR pin of core %02u high for 1 s "
		"(user code wrote it?): pulsed anyway\n", self.id, c->id);
}
