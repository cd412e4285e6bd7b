// Interrupts, exceptions and system calls all come through trap().
// The kernel runs with interrupts off: they come in while the application
// runs, or while the kernel sleeps in sti; hlt. Only the NMI can arrive
// anywhere, and it ends the core.

#include <scc/io.h>
#include "defs.h"

struct gate {
	uint16_t off_lo;
	uint16_t sel;
	uint8_t zero;
	uint8_t type;           // present, DPL, kind
	uint16_t off_hi;
};

#define GATE_INTR 0x8E          // interrupt gate: IF off on entry
#define GATE_TASK 0x85

static struct gate idtab[256];

// The machine's report names them the same way (one table, in the ABI).
static const char *const names[32] = SCC_EXCEPTION_NAMES;

const char *trap_name(uint32_t v)
{
	if (v < 32 && names[v])
		return names[v];
	return "reserved";
}

static void setgate(int v, uint8_t type, int dpl, uint16_t sel, uint32_t off)
{
	idtab[v].off_lo = off & 0xFFFF;
	idtab[v].sel = sel;
	idtab[v].zero = 0;
	idtab[v].type = type | dpl << 5;
	idtab[v].off_hi = off >> 16;
}

static void handler(int v, int dpl)
{
	setgate(v, GATE_INTR, dpl, SEL_KCODE, (uint32_t)vectors + 16 * v);
}

// Vectors not set here are not present: using one is a #GP or #NP.
void idt_init(void)
{
	int v;

	for (v = 0; v < 32; v++)
		handler(v, v == 3 || v == 4 ? 3 : 0);	// int3 and into from ring 3
	setgate(T_DOUBLE, GATE_TASK, 0, SEL_DFTSS, 0);
	handler(T_TIMER, 0);
	handler(T_LINT0, 0);
	handler(T_SPURIOUS, 0);
	handler(T_SYSCALL, 3);
	setgate(T_TAS, GATE_INTR, 3, SEL_KCODE, (uint32_t)tasentry);
	lidt(idtab, sizeof(idtab));
}

static volatile int stopping;

// Another core panicked if the reserved counter says so: stop too.
void stop_if_panicked(void)
{
	uint32_t who = sif_counter_get(PANIC_COUNTER);

	if (!who)
		return;
	stopping = 1;		// the NMI that may follow lets us finish
	lock_drop_held();
	console_endline();
	cprintf("core %02u: stopped: core %02u panicked\n", self.id, who - 1);
	core_exit(SCC_EXIT_STOPPED);
}

// LINT1. During our own panic or stop, the others' NMIs are ignored; so
// is an NMI that no panic explains (user code can pulse the pin too).
// After the core's exit, the NMI returns to the final hlt.
static void nmi(void)
{
	if (panicking || stopping || exited)
		return;
	stop_if_panicked();
	console_endline();
	cprintf("core %02u: NMI without a panic, ignored\n", self.id);
}

// A user access to a CRB that user code does not have: say why, as an
// app written for raw access (RCCE's own, say) meets it first here.
static void crb_fault(uint32_t va)
{
	static const char *const names[] = SCC_CRB_NAMES;

	cprintf("core %02u: 0x%08x is in a CRB, and ", self.id, va);
	if (va & PGSIZE)
		cprintf("its second page (LUT1) is the kernel's in every mode\n");
	else
		cprintf("crb=%s gives user code none: the T&S registers, IPIs and "
			"tile clocks have system calls (libscc uses them)%s\n",
			names[crb_mode], crb_mode == SCC_CRB_STRICT ? "" :
			", scc_crb_raw() or crb=raw map the first page");
}

// An exception the kernel cannot resolve ends the core, never the run:
// the machine reports the status, and other cores carry on.
static void fatal(struct trapframe *tf)
{
	int user = (tf->cs & 3) == 3;

	lock_drop_held();
	console_endline();
	cprintf("core %02u: exception %u (%s), error 0x%x, eip 0x%08x, "
		"cr2 0x%08x, task %s\n", self.id, tf->trapno,
		trap_name(tf->trapno), tf->err, tf->eip, read_cr2(),
		user ? task_name() : "kernel");
	if (user && tf->trapno == T_PGFLT && vm_crb_page(read_cr2()))
		crb_fault(read_cr2());
	sif_fault(tf->trapno, tf->eip, tf->trapno == T_PGFLT ? read_cr2() : 0);
	core_exit(SCC_EXIT_TRAP_BASE + tf->trapno);
}

void trap(struct trapframe *tf)
{
	switch (tf->trapno) {
	case T_SYSCALL:
		mbox_drain();
		syscall(tf);
		return;
	case T_LINT0:
		idle_end();
		// the stamp lint0entry took: now less the low words' difference
		kstat.intr_tsc -= (uint32_t)((uint32_t)kstat.intr_tsc - tf->err);
		kstat.lint0++;
		mbox_intr();
		lapic_eoi();
		return;
	case T_TIMER:
		idle_end();
		kstat.ticks++;
		lapic_eoi();
		mbox_drain();
		return;
	case T_SPURIOUS:		// no EOI for the spurious vector
		return;
	case T_NMI:
		nmi();
		return;
	case T_PGFLT:
		if ((tf->cs & 3) == 3 && uvm_grow_stack(read_cr2()) == 0) {
			mbox_drain();
			return;
		}
		break;
	}
	fatal(tf);
}
