// Inter-core interrupt through the CRB. Every core takes LINT0 as vector
// 0x40 and counts; the sender pulses the INTR bit of the target's GLCFG.
// Only the target may see exactly one interrupt, everyone else none.
// Command line: sender=S target=T (default 0 and the last core).

#include "sync.h"
#include "idt.h"

#define VECTOR   0x40
#define SPURIOUS 0xFF
#define FIRED    ((volatile uint32_t *)SHM_DATA)
#define DONE     ((volatile uint32_t *)(SHM_DATA + 4))

volatile uint32_t ipi_count;
void ipi_isr(void);
void spurious_isr(void);

__asm__(
	".text\n"
	"ipi_isr:\n"
	"	lock incl ipi_count\n"
	"	movl $0, 0xFEE000B0\n"		// EOI
	"	iret\n"
	"spurious_isr:\n"			// no EOI for the spurious vector
	"	iret\n");

static void lapic_write(uint32_t reg, uint32_t v)
{
	write32(SCC_LAPIC + reg, v);
}

static void take_lint0(void)
{
	idt_set(VECTOR, ipi_isr, 0);
	idt_set(SPURIOUS, spurious_isr, 0);
	idt_load();
	lapic_write(LAPIC_SVR, SVR_ENABLE | SPURIOUS);
	lapic_write(LAPIC_TPR, 0);
	lapic_write(LAPIC_LINT0, VECTOR);	// fixed, edge, unmasked
	sti();
}

static void pulse(const struct core *me, uint32_t target)
{
	struct core t;
	uint32_t reg, v;

	core_locate(me, target, &t);
	reg = SCC_CRB(t.tile) + CRB_GLCFG(t.z);
	v = read32(reg);
	write32(reg, v | GLCFG_INTR);
	write32(reg, v & ~GLCFG_INTR);
}

int kmain(uint32_t magic, struct multiboot_info *mbi)
{
	struct core c;
	const char *cl = cmdline(mbi);
	uint32_t sender, target, got;
	uint64_t until;

	(void)magic;
	whoami(&c);
	sender = cmdline_uint(cl, "sender", 0);
	target = cmdline_uint(cl, "target", c.ncores - 1);
	if (sender >= c.ncores || target >= c.ncores || sender == target)
		panic("bad sender %u / target %u", sender, target);
	if (c.id == 0) {
		*FIRED = 0;
		*DONE = 0;
	}
	sync_start(&c);
	take_lint0();
	barrier(c.ncores);	// nobody may miss a stray interrupt

	if (c.id == sender) {
		pulse(&c, target);
		*FIRED = SYNC_MAGIC;
	}
	if (c.id == target) {
		WAIT(ipi_count > 0, "the interrupt");
		// A second interrupt would come now or never.
		until = gtsc() + sif_read(SIF_GTSC_HZ) / 20;
		while (gtsc() < until)
			pause();
		*DONE = SYNC_MAGIC;
	}
	WAIT(*DONE == SYNC_MAGIC, "the target");
	cli();
	got = ipi_count;
	cprintf("ipi count %u%s\n", got, c.id == target ? " (target)" :
		c.id == sender ? " (sender)" : "");
	return got != (c.id == target);
}
