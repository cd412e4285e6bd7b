// Idling: the core halts until an interrupt, and counts the cycles it was
// free for other work (kstat.idle_tsc: the "Free" share of S-Net's
// notification measurements) and when the waking interrupt was taken
// (kstat.intr_tsc: what the IPI benchmark times the trap against).

#include <scc/io.h>
#include "defs.h"

static uint64_t halted_at;      // 0: not halted
static int listening;		// LINT0 unmasked

// In the timing mode the kernel starts with LINT0 masked: a core that no
// other can interrupt runs ahead of the others, which costs the machine's
// host far fewer switches (docs/timing.md). It unmasks for good when the
// program first asks about interrupts (SYS_halt, SYS_kstat's counts) or
// the kernel first waits for one. An edge that came before is lost, as
// at any masked pin: the kernel's waits look again after unmasking, and
// a program's count of interrupts starts when it first reads it.
void listen_init(int timing)
{
	listening = !timing;
	lapic_lint0(T_LINT0, listening);
}

// 1 if LINT0 was masked until now.
int listen(void)
{
	if (listening)
		return 0;
	listening = 1;
	lapic_lint0(T_LINT0, 1);
	return 1;
}

// Sleep until an interrupt. sti takes effect after hlt has begun, so an
// interrupt already pending wakes it at once. A first wait only unmasks
// LINT0 and returns: its caller looks again, then waits.
void idle(void)
{
	if (listen())
		return;
	kstat.sleeps++;
	halted_at = rdtsc();
	__asm__ volatile("sti; hlt; cli" ::: "memory");
	if (halted_at) {		// woken without a handler (an NMI's return)
		kstat.idle_tsc += rdtsc() - halted_at;
		halted_at = 0;
	}
}

// First thing in an interrupt's handler: the idle time ends here, not
// when the handler returns.
void idle_end(void)
{
	uint64_t now = rdtsc();

	kstat.intr_tsc = now;
	if (halted_at) {
		kstat.idle_tsc += now - halted_at;
		halted_at = 0;
	}
}

// SYS_halt. With since, sleep only if no interrupt was taken since the
// caller saw the count seen: the check and the hlt cannot be separated
// by an interrupt (interrupts are off in the kernel until sti's shadow
// ends inside hlt), so a wake-up that came meanwhile is never lost.
uint32_t idle_halt(int since, uint32_t seen)
{
	if (!since || kstat.lint0 + kstat.ticks == seen)
		notify_current()->halt();
	return kstat.lint0 + kstat.ticks;
}

// Core cycles from now until GTSC value deadline, for a timer interrupt
// then: at least 1, at most what the timer counts, and never late (the
// whole cycles a GTSC tick has: no 64-bit division here). An early one
// only makes the caller look and sleep again.
uint32_t cycles_until(uint64_t deadline, uint64_t now)
{
	uint64_t d = deadline - now;
	uint32_t per_tick = core_hz / gtsc_hz ? core_hz / gtsc_hz : 1;
	uint64_t c = (uint64_t)(d > 0xFFFFFFFFu ? 0xFFFFFFFFu : (uint32_t)d) *
		     per_tick + 1;

	return c > 0xFFFFFFFFu ? 0xFFFFFFFFu : (uint32_t)c;
}

// SYS_sleep: halt until the GTSC reaches deadline (sleep, usleep and
// nanosleep). The LAPIC timer, one-shot, wakes the core then, unless the
// program's periodic tick (SYS_tick) is on and wakes it sooner anyway;
// any other interrupt (a message, an IPI) is taken and the core halts
// again. An armed timer tells the machine the core is not stalled.
int32_t idle_sleep(uint32_t deadline_lo, uint32_t deadline_hi)
{
	uint64_t deadline = (uint64_t)deadline_hi << 32 | deadline_lo, now;
	int armed;

	while ((now = sif_gtsc()) < deadline) {
		armed = !lapic_timer_on();
		if (armed)
			lapic_oneshot(cycles_until(deadline, now));
		idle();
		if (armed)
			lapic_oneshot(0);
	}
	return 0;
}
