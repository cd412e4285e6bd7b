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

// The options the kernel knows (docs/kernel.md). Anything else on the
// command line before "--" is refused: a misspelt option silently ignored
// would make an experiment measure something other than intended.
static int mbox_mode_opt = SCC_MBOX_IPI;
static uint32_t tick_opt;
static const char *const crb_names[] = SCC_CRB_NAMES;

static void bad_option(const char *w, const char *why) __attribute__((noreturn));
static void bad_option(const char *w, const char *why)
{
	uint32_t n = 0;

	while (w[n] && w[n] != ' ')
		n++;
	cprintf("core %02u: kernel option '", self.id);
	while (n--)
		console_putc(*w++);
	cprintf("': %s (known: mbox=ipi|poll|hybrid|timer, tick=HZ with HZ <= %u, "
		"crb=isolated|raw|strict, dram_view=own|any)\n", why, TICK_MAX);
	core_exit(EXIT_BADOPTION);
}

// The value of crb= (n bytes at v), or -1.
static int crb_parse(const char *v, uint32_t n)
{
	int m;

	for (m = 0; m < (int)(sizeof(crb_names) / sizeof(crb_names[0])); m++)
		if (strlen(crb_names[m]) == n && !strncmp(crb_names[m], v, n))
			return m;
	return -1;
}

static void parse_options(const char *w)
{
	const char *v;
	uint32_t hz;
	int m;

	for (;;) {
		while (*w == ' ')
			w++;
		if (!*w)
			return;
		if (!strncmp(w, "mbox=", 5)) {
			for (v = w + 5; *v && *v != ' '; v++)
				;
			mbox_mode_opt = notify_parse(w + 5, v - (w + 5));
			if (mbox_mode_opt < 0)
				bad_option(w, "unknown mailbox mode");
		} else if (!strncmp(w, "tick=", 5)) {
			for (v = w + 5, hz = 0; *v >= '0' && *v <= '9'; v++) {
				hz = hz * 10 + (*v - '0');
				if (hz > TICK_MAX)
					bad_option(w, "rate too high");
			}
			if (v == w + 5 || (*v && *v != ' '))
				bad_option(w, "not a number");
			tick_opt = hz;
		} else if (!strncmp(w, "crb=", 4)) {
			for (v = w + 4; *v && *v != ' '; v++)
				;
			if ((m = crb_parse(w + 4, v - (w + 4))) < 0)
				bad_option(w, "unknown CRB mode");
			crb_mode = m;
		} else if (!strncmp(w, "dram_view=", 10)) {
			for (v = w + 10; *v && *v != ' '; v++)
				;
			if (v - (w + 10) == 3 && !strncmp(w + 10, "own", 3))
				dram_view_any = 0;
			else if (v - (w + 10) == 3 && !strncmp(w + 10, "any", 3))
				dram_view_any = 1;
			else
				bad_option(w, "dram_view takes own or any");
		} else {
			bad_option(w, "unknown option");
		}
		while (*w && *w != ' ')
			w++;
	}
}

int kmain(uint32_t magic, struct multiboot_info *mbi)
{
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
	copy_init();

	lapic_init(T_TIMER, T_LINT0);
	listen_init(sif_read(SIF_TIMING) & TIMING_ON);
	// A panic before LINT1 was set up sent an NMI that got lost.
	stop_if_panicked();
	parse_options(boot.options);
	if (mbox_mode_opt == SCC_MBOX_TIMER && !tick_opt) {
		// Its receivers would sleep with nothing to wake them.
		cprintf("core %02u: kernel option 'mbox=timer' needs tick=HZ\n", self.id);
		core_exit(EXIT_BADOPTION);
	}
	// Only now that the options are known: crb=raw gives user code the
	// CRB pages vm_init mapped for the kernel alone.
	uvm_crb(crb_mode == SCC_CRB_RAW);
	tas_init();
	mbox_init(mbox_mode_opt);
	exit_hook = copy_exit;	// mbox_exit, then wake requesters
	if (lapic_timer(tick_opt, core_hz))
		cprintf("core %02u: bad tick=%u, timer off\n", self.id, tick_opt);

	if (!boot.module) {
		cprintf("core %02u tile (%u,%u) up\n", self.id, self.x, self.y);
		return 0;
	}
	exec_app();
}
