// Starting the application: the first Multiboot module, an ELF32 i386
// executable linked at 0x40000000. Its segments go into fresh pages, the
// arguments onto a fresh stack (SysV i386: argc, argv[], NULL, envp NULL,
// an empty auxiliary vector, then the strings), and the kernel leaves for
// ring 3 through the end of the trap path, as if returning from a trap.

#include "defs.h"

#define ELF_MAGIC 0x464C457Fu   // "\x7FELF"
#define PT_LOAD   1
#define PF_W      2

struct elfhdr {
	uint32_t magic;
	uint8_t class, data, version, osabi, pad[8];
	uint16_t type, machine;
	uint32_t version2, entry, phoff, shoff, flags;
	uint16_t ehsize, phentsize, phnum, shentsize, shnum, shstrndx;
};

struct proghdr {
	uint32_t type, offset, vaddr, paddr, filesz, memsz, flags, align;
};

static struct trapframe utf;

const char *task_name(void)
{
	return boot.modname[0] ? boot.modname : "kernel";
}

static void refuse(const char *why) __attribute__((noreturn));
static void refuse(const char *why)
{
	cprintf("core %02u: app %s: %s\n", self.id, task_name(), why);
	core_exit(EXIT_BADAPP);
}

static const struct proghdr *ph(const struct elfhdr *e, int i)
{
	return (const struct proghdr *)((const char *)e + e->phoff) + i;
}

// Why the image cannot run, or 0.
static const char *check(const struct elfhdr *e, uint32_t size)
{
	const struct proghdr *p;
	int i, loads = 0, entry_ok = 0;

	if (size < sizeof(*e) || e->magic != ELF_MAGIC)
		return "not an ELF file";
	if (e->class != 1 || e->data != 1)
		return "not 32-bit little-endian ELF";
	if (e->type != 2)
		return "not an executable (ET_EXEC)";
	if (e->machine != 3)
		return "not for i386";
	if (e->phentsize != sizeof(*p) || e->phnum == 0 || e->phoff > size ||
	    e->phnum * sizeof(*p) > size - e->phoff)
		return "bad program headers";
	for (i = 0; i < e->phnum; i++) {
		p = ph(e, i);
		if (p->type != PT_LOAD)
			continue;
		loads++;
		if (p->filesz > p->memsz || p->offset > size ||
		    p->filesz > size - p->offset)
			return "segment beyond the end of the file";
		// vaddr first: IMAGE_LIMIT - vaddr wraps for vaddr above it.
		if (p->vaddr < USER_BASE || p->vaddr >= IMAGE_LIMIT ||
		    p->memsz > IMAGE_LIMIT - p->vaddr)
			return "segment outside 0x40000000-0x6fffffff";
		if (e->entry >= p->vaddr && e->entry - p->vaddr < p->memsz)
			entry_ok = 1;
	}
	if (!loads)
		return "no loadable segment";
	if (!entry_ok)
		return "entry point outside the image";
	return 0;
}

// One segment, page by page. A page two segments share is writable if
// either is.
static int load(const struct elfhdr *e, const struct proghdr *p)
{
	uint32_t va, lo, hi, *pte, flags = PTE_U | ((p->flags & PF_W) ? PTE_W : 0);
	char *pg;

	for (va = PGROUNDDOWN(p->vaddr); va < p->vaddr + p->memsz; va += PGSIZE) {
		if (!(pte = vm_walk(va, 1)))
			return -1;
		if (!(*pte & PTE_P)) {
			if (!(pg = kalloc()))
				return -1;
			memset(pg, 0, PGSIZE);
			*pte = (uint32_t)pg | flags | PTE_P;
		}
		*pte |= flags;
		pg = (char *)PTE_ADDR(*pte);
		lo = va > p->vaddr ? va : p->vaddr;
		hi = va + PGSIZE < p->vaddr + p->filesz ? va + PGSIZE : p->vaddr + p->filesz;
		if (lo < hi)
			memcpy(pg + (lo - va), (const char *)e + p->offset + (lo - p->vaddr),
			       hi - lo);
	}
	return 0;
}

// The words after "--", split as Linux splits its command line: spaces
// separate words, double quotes group them (and are dropped), so that
// "two words" and "" are one argument each. Into buf, each word followed
// by a NUL; the number of words.
static uint32_t split(const char *s, char *buf)
{
	uint32_t n = 0;
	int quoted;

	for (;;) {
		while (*s == ' ')
			s++;
		if (!*s)
			return n;
		for (quoted = 0; *s && (quoted || *s != ' '); s++) {
			if (*s == '"')
				quoted = !quoted;
			else
				*buf++ = *s;
		}
		*buf++ = 0;
		n++;
	}
}

// argv[0] is the module's string, the words after "--" follow; the
// initial stack pointer.
static uint32_t stack(void)
{
	static char args[CMDLINE_MAX + 1];
	uint32_t argc, chars, n, sp, str, i, z = 0;
	const char *w;

	argc = 1 + split(boot.appargs, args);
	chars = strlen(boot.modname) + 1;
	for (i = 1, w = args; i < argc; i++, w += n) {
		n = strlen(w) + 1;
		chars += n;
	}
	str = STACK_TOP - chars;
	sp = (str - (argc + 5) * 4) & ~15u;	// argc, argv, NULL, NULL, AT_NULL
	if (sp < STACK_LOW + PGSIZE)
		refuse("arguments too long");
	if (uvm_alloc(PGROUNDDOWN(sp), STACK_TOP, PTE_W))
		refuse("out of memory for the stack");

	copyout(sp, &argc, 4);
	for (i = 0, w = boot.modname; i < argc; i++) {
		n = strlen(w) + 1;
		copyout(sp + 4 + 4 * i, &str, 4);
		copyout(str, w, n);
		str += n;
		w = i == 0 ? args : w + n;
	}
	// argv[argc], envp[0] and the auxiliary vector's AT_NULL pair
	for (i = argc + 1; i < argc + 5; i++)
		copyout(sp + 4 * i, &z, 4);
	return sp;
}

void exec_app(void)
{
	const struct elfhdr *e = (const struct elfhdr *)boot.mod_start;
	const char *why;
	uint32_t end = USER_BASE;
	int i;

	if ((why = check(e, boot.mod_end - boot.mod_start)))
		refuse(why);
	for (i = 0; i < e->phnum; i++) {
		if (ph(e, i)->type != PT_LOAD)
			continue;
		if (load(e, ph(e, i)))
			refuse("out of memory");
		if (ph(e, i)->vaddr + ph(e, i)->memsz > end)
			end = ph(e, i)->vaddr + ph(e, i)->memsz;
	}
	uvm_setbrk(PGROUNDUP(end));
	utf.esp = stack();
	utf.eip = e->entry;
	// The image is in its pages now.
	kfree_range(boot.mod_start, PGROUNDUP(boot.mod_end));

	utf.cs = SEL_UCODE;
	utf.ds = utf.es = utf.fs = utf.gs = utf.ss = SEL_UDATA;
	utf.eflags = 0x202;		// IF: interrupts on in ring 3
	trapret_to(&utf);
}
