// The per-core kernel: one instance on every core, sharing nothing with
// the others but what the chip shares (MPBs, T&S locks, interrupt pins,
// shared DRAM). It sets the core up, then runs the application of the
// first Multiboot module until it exits. Without a module it says which
// core it is and stops.

#include <scc/io.h>
#include <scc/sif.h>
#include "defs.h"

struct core self;
struct scc_kstat kstat;
uint32_t core_hz, gtsc_hz;

// One task a core: the application owns the FPU, and the kernel never
// uses it (-mgeneral-regs-only), so nothing is saved or switched lazily.
// NE: errors raise #MF, as picolibc's math expects of a 486 or later.
static void fpu_init(void)
{
	write_cr0((read_cr0() & ~(CR0_EM | CR0_TS)) | CR0_MP | CR0_NE);
	__asm__ volatile("fninit");
}

// Whether the option value v is the word w.
static int is(const char *v, const char *w)
{
	uint32_t n = strlen(w);

	return !strncmp(v, w, n) && (v[n] == ' ' || v[n] == 0);
}

static int mbox_option(void)
{
	const char *v = cmdline_value(boot.options, "mbox");

	if (!v || is(v, "ipi"))
		return SCC_MBOX_IPI;
	if (is(v, "poll"))
		return SCC_MBOX_POLL;
	if (is(v, "hybrid"))
		return SCC_MBOX_HYBRID;
	cprintf("core %02u: unknown mbox mode, using ipi\n", self.id);
	return SCC_MBOX_IPI;
}

int kmain(uint32_t magic, struct multiboot_info *mbi)
{
	uint32_t hz;

	if (magic != MULTIBOOT_BOOTLOADER_MAGIC)
		panic("not started by a Multiboot loader (eax %x)", magic);
	whoami(&self);
	core_hz = sif_read(SIF_CORE_HZ);
	gtsc_hz = sif_read(SIF_GTSC_HZ);
	memsize = sif_read(SIF_MEMSIZE);

	bootinfo_copy(mbi);		// before kinit hands out low memory
	kinit();
	seg_init();
	idt_init();
	fpu_init();
	vm_init();
	seg_df_cr3(read_cr3());

	lapic_init(T_TIMER, T_LINT0);
	// A panic before LINT1 was set up sent an NMI that got lost.
	stop_if_panicked();
	mbox_init(mbox_option());
	hz = cmdline_uint(boot.options, "tick", 0);
	if (hz > TICK_MAX || lapic_timer(hz, core_hz))
		cprintf("core %02u: bad tick=%u, timer off\n", self.id, hz);

	if (!boot.module) {
		cprintf("core %02u tile (%u,%u) up\n", self.id, self.x, self.y);
		return 0;
	}
	exec_app();
}
