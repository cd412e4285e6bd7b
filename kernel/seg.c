// Segments: flat code and data for ring 0 and ring 3, the task state
// segment that gives the CPU the kernel stack on entry from ring 3, and a
// second TSS for double faults. A double fault (the kernel stack
// overflowed into its guard page, say) switches to that task, with a
// stack of its own, so that it can still be reported.

#include <scc/io.h>
#include "defs.h"

struct taskstate {
	uint32_t link;
	uint32_t esp0, ss0, esp1, ss1, esp2, ss2;
	uint32_t cr3, eip, eflags;
	uint32_t eax, ecx, edx, ebx, esp, ebp, esi, edi;
	uint32_t es, cs, ss, ds, fs, gs, ldt;
	uint16_t trap, iomap;
};

struct taskstate ktss;
static struct taskstate dftss;
static uint64_t segs[7];
static uint8_t dfstack[4096] __attribute__((aligned(16)));

extern char stack_top[];

// A descriptor: base, limit (in 4 KiB units when gran), access byte.
static uint64_t desc(uint32_t base, uint32_t limit, uint32_t access, int gran)
{
	uint64_t d;

	d = (limit & 0xFFFF) | (uint64_t)(base & 0xFFFFFF) << 16;
	d |= (uint64_t)access << 40;
	d |= (uint64_t)((limit >> 16) & 0xF) << 48;
	d |= (uint64_t)(gran ? 0xC : 0x4) << 52;	// 32-bit (and 4 KiB units)
	d |= (uint64_t)(base >> 24) << 56;
	return d;
}

void seg_init(void)
{
	segs[SEL_KCODE >> 3] = desc(0, 0xFFFFF, 0x9A, 1);
	segs[SEL_KDATA >> 3] = desc(0, 0xFFFFF, 0x92, 1);
	segs[SEL_UCODE >> 3] = desc(0, 0xFFFFF, 0xFA, 1);
	segs[SEL_UDATA >> 3] = desc(0, 0xFFFFF, 0xF2, 1);
	// The TSS's limit ends before the I/O map: user code gets no ports.
	ktss.ss0 = SEL_KDATA;
	ktss.esp0 = (uint32_t)stack_top;
	ktss.iomap = sizeof(ktss);
	segs[SEL_TSS >> 3] = desc((uint32_t)&ktss, sizeof(ktss) - 1, 0x89, 0);

	dftss.eip = (uint32_t)dftask;
	dftss.esp = (uint32_t)dfstack + sizeof(dfstack);
	dftss.eflags = 0x2;
	dftss.cs = SEL_KCODE;
	dftss.ds = dftss.es = dftss.ss = dftss.fs = dftss.gs = SEL_KDATA;
	dftss.iomap = sizeof(dftss);
	segs[SEL_DFTSS >> 3] = desc((uint32_t)&dftss, sizeof(dftss) - 1, 0x89, 0);

	lgdt(segs, sizeof(segs));
	__asm__ volatile(
		"ljmp %0, $1f\n"
		"1: movw %1, %%ax\n"
		"movw %%ax, %%ds\n"
		"movw %%ax, %%es\n"
		"movw %%ax, %%fs\n"
		"movw %%ax, %%gs\n"
		"movw %%ax, %%ss\n"
		: : "i"(SEL_KCODE), "i"(SEL_KDATA) : "eax", "memory");
	ltr(SEL_TSS);
}

// The double-fault task, once paging is on: it needs the page directory.
void seg_df_cr3(uint32_t cr3)
{
	dftss.cr3 = cr3;
}

// Runs as the double-fault task. The interrupted state is in ktss, where
// the task switch saved it.
void seg_df_report(void)
{
	lock_drop_held();
	console_endline();
	cprintf("core %02u: exception 8 (double fault), eip 0x%08x, esp 0x%08x, "
		"cr2 0x%08x, task %s\n", self.id, ktss.eip, ktss.esp,
		read_cr2(), (ktss.cs & 3) ? task_name() : "kernel");
	core_exit(SCC_EXIT_TRAP_BASE + T_DOUBLE);
}
