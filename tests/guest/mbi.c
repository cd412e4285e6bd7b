// What the machine hands a kernel: the handoff block and the Multiboot
// information. Prints the command line and the modules for the test to
// compare with what it passed.

#include "defs.h"
#include <scc/sif.h>

#define INFO_LO 0x2000          // the information lives in 0x2000-0x7FFF
#define INFO_HI 0x8000
#define RESET_PAGE_LO 0x00FFF000
#define RESET_PAGE_HI 0x01000000
#define MB 0x100000

extern char _start[], _end[];

static int bad;

static void fail(const char *what, uint32_t v)
{
	cprintf("bad %s: %x\n", what, v);
	bad = 1;
}

static int in_info(uint32_t a)
{
	return a >= INFO_LO && a < INFO_HI;
}

static void handoff(const struct multiboot_info *mbi)
{
	const struct scc_handoff *h = (const struct scc_handoff *)BOOT_HANDOFF;

	if (h->magic != BOOT_MAGIC)
		fail("handoff magic", h->magic);
	if (h->version != BOOT_VERSION)
		fail("handoff version", h->version);
	if (h->entry != (uint32_t)_start)
		fail("handoff entry", h->entry);
	if (h->mbi != (uint32_t)mbi)
		fail("handoff mbi", h->mbi);
	if (h->core_id != sif_read(SIF_COREID))
		fail("handoff core_id", h->core_id);
}

static void memory(const struct multiboot_info *mbi, uint32_t memsize)
{
	const struct multiboot_mmap *m;
	uint32_t a, end, avail = 0;

	if (!(mbi->flags & MULTIBOOT_INFO_MEMORY))
		fail("flags (no MEM)", mbi->flags);
	if (mbi->mem_lower != 640)
		fail("mem_lower", mbi->mem_lower);
	if (mbi->mem_upper * 1024 + MB != memsize)
		fail("mem_upper", mbi->mem_upper);
	if (!(mbi->flags & MULTIBOOT_INFO_MEM_MAP) || !in_info(mbi->mmap_addr)) {
		fail("mmap", mbi->mmap_addr);
		return;
	}
	// Available: all of 1 MiB up to the end of the slice but the reset
	// vector's page; below 1 MiB at most the mem_lower KiB.
	for (a = mbi->mmap_addr; a < mbi->mmap_addr + mbi->mmap_length; a += m->size + 4) {
		m = (const struct multiboot_mmap *)a;
		if (m->type != MULTIBOOT_MEMORY_AVAILABLE)
			continue;
		end = m->addr_lo + m->len_lo;
		if (m->addr_hi || m->len_hi || end > memsize ||
		    (m->addr_lo < MB && end > mbi->mem_lower * 1024) ||
		    (m->addr_lo < RESET_PAGE_HI && end > RESET_PAGE_LO))
			fail("available range at", m->addr_lo);
		if (m->addr_lo >= MB)
			avail += m->len_lo;
	}
	if (avail != memsize - MB - (RESET_PAGE_HI - RESET_PAGE_LO))
		fail("available bytes", avail);
}

static void modules(const struct multiboot_info *mbi, uint32_t memsize)
{
	const struct multiboot_module *m;
	uint32_t i, above = (uint32_t)_end;

	if (!(mbi->flags & MULTIBOOT_INFO_MODS)) {
		cprintf("mods 0\n");
		return;
	}
	cprintf("mods %u\n", mbi->mods_count);
	if (mbi->mods_count && !in_info(mbi->mods_addr))
		fail("mods_addr", mbi->mods_addr);
	for (i = 0; i < mbi->mods_count; i++) {
		m = (const struct multiboot_module *)mbi->mods_addr + i;
		cprintf("mod %u size %u cmdline [%s]\n", i, m->mod_end - m->mod_start,
			m->cmdline ? (const char *)m->cmdline : "");
		// Page aligned, after the kernel and after each other.
		if (m->mod_start & 0xFFF || m->mod_start < above ||
		    m->mod_end < m->mod_start || m->mod_end > memsize ||
		    (m->mod_start < RESET_PAGE_HI && m->mod_end > RESET_PAGE_LO))
			fail("module at", m->mod_start);
		if (!in_info(m->cmdline))
			fail("module cmdline at", m->cmdline);
		above = m->mod_end;
	}
}

int kmain(uint32_t magic, struct multiboot_info *mbi)
{
	uint32_t memsize = sif_read(SIF_MEMSIZE);
	const char *name = (const char *)mbi->boot_loader_name;

	if (magic != MULTIBOOT_BOOTLOADER_MAGIC)
		fail("magic", magic);
	if (!in_info((uint32_t)mbi))
		fail("mbi address", (uint32_t)mbi);
	handoff(mbi);
	memory(mbi, memsize);
	if (!(mbi->flags & MULTIBOOT_INFO_LOADER_NAME) || !in_info((uint32_t)name) ||
	    strcmp(name, "qemu-scc"))
		fail("boot loader name at", (uint32_t)name);
	if (!(mbi->flags & MULTIBOOT_INFO_CMDLINE) || !in_info(mbi->cmdline))
		fail("cmdline at", mbi->cmdline);
	cprintf("cmdline [%s]\n", cmdline(mbi));
	modules(mbi, memsize);
	cprintf("memsize %u\n", memsize);
	if (!bad)
		cprintf("mbi ok\n");
	return bad;
}
