// Releasing a core from reset. The core map starts core 0 and holds the
// core named by target=N (default 5) in reset with this image loaded.
// Core 0 checks that it is held, clears its GCBCFG reset bit, and waits
// for it to say it runs.
//
// With "corrupt", core 0 first maps the held core's private memory into
// its window page, checks the handoff block there and breaks its magic:
// the released core's boot stub must then give up with status 252.

#include "sync.h"

#define RUNNING ((volatile uint32_t *)SHM_DATA)
#define WINDOW  ((uintptr_t)SCC_WINDOW_PAGE << SCC_PAGE_SHIFT)

static int corrupt(const struct core *c, const struct core *t)
{
	const volatile struct scc_handoff *h;

	lut_window(c, t, 0);
	h = (const volatile struct scc_handoff *)(WINDOW + BOOT_HANDOFF);
	if (h->magic != BOOT_MAGIC || h->core_id != t->id) {
		cprintf("window: handoff magic %x core %u\n", h->magic, h->core_id);
		return 1;
	}
	write32(WINDOW + BOOT_HANDOFF, 0);
	cprintf("corrupted core %02u's handoff block\n", t->id);
	return 0;
}

static int releaser(const struct core *c, uint32_t target, int breakit)
{
	struct core t;
	uint32_t reg, v;

	core_locate(c, target, &t);
	reg = SCC_CRB(t.tile) + CRB_GCBCFG;
	v = read32(reg);
	if (!(v & GCBCFG_RESET(t.z)) || *RUNNING == SYNC_MAGIC) {
		cprintf("core %u not held in reset: GCBCFG %x\n", target, v);
		return 1;
	}
	if (breakit && corrupt(c, &t))
		return 1;
	cprintf("releasing core %02u (GCBCFG %x)\n", target, v);
	write32(reg, v & ~GCBCFG_RESET(t.z));
	if (breakit)
		return 0;	// the machine reports how the released core ends
	WAIT(*RUNNING == SYNC_MAGIC, "the released core");
	cprintf("core %02u runs\n", target);
	return 0;
}

int kmain(uint32_t magic, struct multiboot_info *mbi)
{
	struct core c;
	const char *cl = cmdline(mbi);
	uint32_t v;

	(void)magic;
	whoami(&c);
	if (c.id == 0)
		return releaser(&c, cmdline_uint(cl, "target", 5),
				cmdline_flag(cl, "corrupt"));
	v = read32(SCC_OWN_CRB + CRB_GCBCFG);
	cprintf("released (GCBCFG %x)\n", v);
	*RUNNING = SYNC_MAGIC;
	return (v & GCBCFG_RESET(c.z)) != 0;
}
