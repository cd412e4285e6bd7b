// What the kernel keeps of the Multiboot information. The information,
// the command lines and the module list live in low memory that the page
// allocator hands out later, so everything needed is copied out first.

#include "defs.h"

struct bootinfo boot;

static void copystr(char *dst, const char *src, uint32_t max, const char *what)
{
	uint32_t n = 0;

	while (src[n] && n < max - 1) {
		dst[n] = src[n];
		n++;
	}
	dst[n] = 0;
	if (src[n])
		cprintf("core %02u: %s longer than %u bytes, cut\n",
			self.id, what, max - 1);
}

// Split the command line "options -- appargs" in place. As GRUB 2 and
// the machine's loader pass it, it holds no path of the kernel's own.
static void split(void)
{
	char *s = boot.cmdline;

	boot.options = s;
	boot.appargs = "";
	for (; *s; s++) {
		if (s[0] == '-' && s[1] == '-' && (s == boot.cmdline || s[-1] == ' ') &&
		    (s[2] == ' ' || s[2] == 0)) {
			if (s != boot.cmdline)
				s[-1] = 0;
			else
				boot.options = "";
			boot.appargs = s[2] ? s + 3 : s + 2;
			return;
		}
	}
}

// Available memory of the memory map, or 1 MiB up from mem_upper.
static void memory(const struct multiboot_info *mbi)
{
	const struct multiboot_mmap *m;
	uint32_t a, end;

	if (!(mbi->flags & MULTIBOOT_INFO_MEM_MAP)) {
		boot.avail[0].start = 0x100000;
		boot.avail[0].end = memsize;
		boot.navail = 1;
		return;
	}
	a = mbi->mmap_addr;
	end = a + mbi->mmap_length;
	for (; a < end && boot.navail < AVAIL_MAX; a += m->size + 4) {
		m = (const struct multiboot_mmap *)a;
		if (m->type != MULTIBOOT_MEMORY_AVAILABLE || m->addr_hi ||
		    m->addr_lo >= memsize)
			continue;
		boot.avail[boot.navail].start = m->addr_lo;
		if (m->len_hi || m->len_lo > memsize - m->addr_lo)
			boot.avail[boot.navail].end = memsize;
		else
			boot.avail[boot.navail].end = m->addr_lo + m->len_lo;
		boot.navail++;
	}
}

// A kernel without an app names a boot loader other than the machine's
// own (GRUB), so that such a run shows how its cores were booted. Said at
// once: the information is gone later, and an app's output stays its own.
static void loader(const struct multiboot_info *mbi)
{
	const char *name;

	if (boot.module || !(mbi->flags & MULTIBOOT_INFO_LOADER_NAME) ||
	    !mbi->boot_loader_name)
		return;
	name = (const char *)mbi->boot_loader_name;
	if (strcmp(name, BOOT_LOADER_NAME))
		cprintf("core %02u: booted by %s\n", self.id, name);
}

void bootinfo_copy(const struct multiboot_info *mbi)
{
	const struct multiboot_module *mod;

	copystr(boot.cmdline, cmdline(mbi), CMDLINE_MAX, "command line");
	split();
	if ((mbi->flags & MULTIBOOT_INFO_MODS) && mbi->mods_count > 0) {
		mod = (const struct multiboot_module *)mbi->mods_addr;
		boot.module = 1;
		boot.mod_start = mod->mod_start;
		boot.mod_end = mod->mod_end;
		copystr(boot.modname, mod->cmdline ? (const char *)mod->cmdline : "",
			MODNAME_MAX, "module name");
		if (!boot.modname[0])
			copystr(boot.modname, "app", MODNAME_MAX, "");
	}
	memory(mbi);
	loader(mbi);
}
