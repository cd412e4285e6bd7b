// This core's local APIC. On the SCC no APIC bus joins the cores and no
// 8259 sits on LINT0: the CRB's GLCFG pins drive LINT0 (the inter-core
// interrupt) and LINT1 (wired as NMI), and the timer is the only other
// source. The timer counts the core clock, so it needs no calibration.

#include <scc/io.h>
#include "drivers.h"

static uint32_t lapic_read(uint32_t reg)
{
	return read32(SCC_LAPIC + reg);
}

static void lapic_set(uint32_t reg, uint32_t v)
{
	write32(SCC_LAPIC + reg, v);
	lapic_read(LAPIC_ID);	// wait for the write to land
}

static uint32_t timer_vector;

// Masked, LINT0 loses the edges of the inter-core interrupt.
void lapic_lint0(uint32_t vector, int on)
{
	lapic_set(LAPIC_LINT0, on ? vector : LVT_MASKED | vector);
}

// LINT0 fixed and edge-triggered (ExtINT would wait for an 8259's
// acknowledge that never comes), LINT1 as NMI, the timer stopped.
void lapic_init(uint32_t tvec, uint32_t lint0_vector)
{
	timer_vector = tvec;
	lapic_set(LAPIC_SVR, SVR_ENABLE | LAPIC_SPURIOUS_VECTOR);
	lapic_set(LAPIC_TPR, 0);
	lapic_set(LAPIC_LVT_TIMER, LVT_MASKED | tvec);
	lapic_set(LAPIC_LVT_ERROR, LVT_MASKED | LAPIC_SPURIOUS_VECTOR);
	lapic_lint0(lint0_vector, 0);	// until the kernel listens
	lapic_set(LAPIC_LINT1, LVT_NMI);
	lapic_eoi();
}

void lapic_eoi(void)
{
	write32(SCC_LAPIC + LAPIC_EOI, 0);
}

// A periodic interrupt hz times a second; 0 stops it. The count runs at
// the core clock (divide by 1): core_hz / hz always fits its 32 bits.
int lapic_timer(uint32_t hz, uint32_t core_hz)
{
	if (hz == 0) {
		lapic_set(LAPIC_LVT_TIMER, LVT_MASKED | timer_vector);
		lapic_set(LAPIC_TIMER_INIT, 0);
		return 0;
	}
	if (hz > core_hz)
		return -1;
	lapic_set(LAPIC_TIMER_DIV, TIMER_DIV_1);
	lapic_set(LAPIC_LVT_TIMER, LVT_PERIODIC | timer_vector);
	lapic_set(LAPIC_TIMER_INIT, core_hz / hz);
	return 0;
}

// One timer interrupt after cycles core cycles (at least 1); 0 stops it.
// Not while the periodic timer runs: that one is kept.
void lapic_oneshot(uint32_t cycles)
{
	if (cycles == 0) {
		lapic_set(LAPIC_LVT_TIMER, LVT_MASKED | timer_vector);
		lapic_set(LAPIC_TIMER_INIT, 0);
		return;
	}
	lapic_set(LAPIC_TIMER_DIV, TIMER_DIV_1);
	lapic_set(LAPIC_LVT_TIMER, timer_vector);
	lapic_set(LAPIC_TIMER_INIT, cycles);
}

// Whether the periodic timer runs.
int lapic_timer_on(void)
{
	return (lapic_read(LAPIC_LVT_TIMER) & (LVT_MASKED | LVT_PERIODIC)) ==
		LVT_PERIODIC && lapic_read(LAPIC_TIMER_INIT) != 0;
}
