// Copies between user memories through LUT windows (docs/copy.md): the
// copy-core service's privileged half, the LUT copy an application may
// ask for on its own memory, and MPBT flags on an application's pages.
//
// A copy core reaches another core's private DRAM only by pointing one of
// its own LUT entries at it. It trusts no address the requester gives:
// it walks the requester's page tables (read through a window too) and
// copies only what the requester's user code may read, into what it may
// write. The entries it changes are put back before the call returns.
//
// Another core's memory is used only with its owner's consent: a grant
// (SYS_grant) that names the range, the cores and read or read-write,
// kept in this kernel's export page, where other cores' kernels read it
// through the same window as the page tables.

#include <scc/io.h>
#include <scc/sif.h>
#include <scc/copy.h>
#include "defs.h"

// Three windows: source, destination and the owner's page tables, each a
// 16 MiB LUT page of which one 4 KiB page at a time is mapped at a kernel
// slot. Page 0x29 is the spec's window page; 0x2A-0x2B are unmapped too.
enum { W_SRC, W_DST, W_PT, NWIN };
#define WIN_PAGE(w)     (SCC_WINDOW_PAGE + (w))
#define SLOT_VA(w)      (0x3FFF0000u + (w) * PGSIZE)  // above any private memory
#define EXPORT_MAGIC    0x434F5059u     // "COPY"
#define UNCACHED        (PTE_PCD | PTE_PWT)

// A grant: [lo, lo + len) of this core's user memory, to the cores of
// mask (bit i: core i), with prot (SCC_GRANT_*). id 0 is a free slot; an
// id is never reused soon (a generation above the slot), so that a reader
// that finds the same id after its access knows the grant held all along,
// and a stale id revokes nothing. One line each.
struct grant {
	uint32_t id, lo, len, prot;
	uint32_t mask[2];
	uint32_t pad[2];
};

// The export page's first line.
struct export_head {
	uint32_t magic, pgdir;
	uint32_t ngrants;	// slots from here on are free: readers stop here
	uint32_t pad[5];	// the grants start on a line of their own
};

// What another instance of this kernel reads of this one, through a LUT
// window from DRAM: at the same address in every core that runs the same
// kernel.elf. A page of its own, mapped uncached (copy_init): the chip
// keeps no coherence, so a grant or a revoke must be in DRAM, not in this
// core's caches, when the system call returns. Readers take it a line at
// a time (export_line).
#define GRANT_SLOT_BITS 7	// SCC_GRANT_MAX slots fit
static volatile struct {
	struct export_head h;
	struct grant g[SCC_GRANT_MAX];
} copy_export __attribute__((aligned(PGSIZE)));
_Static_assert(sizeof(copy_export) == PGSIZE, "the export page holds nothing else");
_Static_assert(SCC_GRANT_MAX < (1 << GRANT_SLOT_BITS), "a slot fits an id's low bits");

static uint32_t grant_seq;	// the generation of the next grant's id
static uint32_t refusals;	// accesses refused for want of a grant
#define REFUSALS_TOLD	8	// told one by one; the rest only counted

static struct { uint32_t saved, cur; } win[NWIN];
static int serving;	// this core has served copies: its exit wakes requesters

// The entries of one page table of the owner, read once for a stretch
// of a request: a window moves only when the walk leaves a page table,
// not for every page.
struct ptcache {
	uint32_t pdx, first, count;	// entries [first, first + count) of table pdx
	uint32_t pte[1024];
};
static struct ptcache ptc[2];
static int any_cached;

void copy_init(void)
{
	uint32_t *pte = vm_walk((uint32_t)&copy_export, 0);

	if (!pte || !(*pte & PTE_P))
		panic("copy: export page not mapped");
	// Uncached from now on; the lines that zeroing .bss left in the
	// caches go first, or a late write-back would land over a grant.
	*pte |= UNCACHED;
	invlpg((uint32_t)&copy_export);
	wbinvd();
	memset((void *)&copy_export, 0, sizeof(copy_export));
	copy_export.h.pgdir = read_cr3();
	copy_export.h.magic = EXPORT_MAGIC;
}

// The exit hook. A copy core that stops (exits, faults) interrupts every
// running core, so that a requester asleep in SYS_copy_wait looks at its
// state again instead of sleeping for ever. Only copy cores do this.
void copy_exit(void)
{
	struct core c;
	uint32_t id;

	mbox_exit();
	if (refusals > REFUSALS_TOLD)
		cprintf("core %02u: %u cross-core accesses refused for want of a grant\n",
			self.id, refusals);
	if (!serving)
		return;
	for (id = 0; id < self.ncores; id++) {
		if (id == self.id || sif_core_state(id) != CORE_STATE_RUNNING)
			continue;
		core_locate(&self, id, &c);
		notify_core(&c);
	}
}

// SYS_copy_wait: sleep until a message is waiting, core copier stops, or
// the GTSC reaches the deadline (0: none).
// A stopping copy core closes its ring, then interrupts every core, then
// its state changes: its interrupt may come while the requester is still
// in user code, and its state may still say running. So before every
// sleep a PING (which the service ignores) asks the mailbox, which fails
// with -ESRCH once the ring is closed; and the looks are taken with
// interrupts off before sti; hlt, so a later interrupt is not missed. In
// poll mode nothing interrupts a sleeper: the caller polls, and comes
// back here for every look. A copy core that is running but never
// answers (a loop in the service) interrupts nobody: the LAPIC timer
// wakes the sleeper at the deadline, unless the program's periodic tick
// (SYS_tick) does it anyway, and the machine ends the copy core as
// unresponsive (SIF_UNRESPONSIVE) and reports where it was.
int32_t copy_wait(uint32_t copier, uint32_t deadline_lo, uint32_t deadline_hi)
{
	uint64_t deadline = (uint64_t)deadline_hi << 32 | deadline_lo;
	uint64_t now;
	int armed;

	if (copier >= self.ncores || copier == self.id)
		return -SCC_EINVAL;
	for (;;) {
		if (mbox_waiting() > 0)
			return 0;
		if (sif_core_state(copier) != CORE_STATE_RUNNING ||
		    mbox_send(copier, SCC_COPY_TAG_PING, 0, 0) == -SCC_ESRCH)
			return -SCC_ESRCH;
		now = deadline ? sif_gtsc() : 0;
		if (deadline && now >= deadline) {
			sif_unresponsive(copier);
			return -SCC_ETIMEDOUT;
		}
		if (notify_mode(-1, 0) == SCC_MBOX_POLL)
			return 0;
		armed = deadline && !lapic_timer_on();
		if (armed)
			lapic_oneshot(cycles_until(deadline, now));
		notify_current()->halt();
		if (armed)
			lapic_oneshot(0);
	}
}

static void windows_open(void)
{
	int w;

	for (w = 0; w < NWIN; w++)
		win[w].saved = win[w].cur = lut_get(&self, WIN_PAGE(w));
	ptc[0].count = ptc[1].count = 0;
	any_cached = 0;
	// Lines left from an earlier request may be older than the memory.
	cl1invmb();
}

// Point window w at entry. Lines cached under the old entry belong to the
// old memory: the write-combine buffer and the caches go out first, and
// the L1's MPBT lines are dropped after. Windows used only uncached and
// MPBT (no side_flags() said cached since windows_open) leave nothing in
// the caches to write back.
static void window_set(int w, uint32_t entry)
{
	if (win[w].cur == entry)
		return;
	mpb_flush();
	if (any_cached)
		wbinvd();
	lut_set(&self, WIN_PAGE(w), entry);
	cl1invmb();
	win[w].cur = entry;
}

static void windows_close(void)
{
	int w;
	uint32_t *pte;

	for (w = 0; w < NWIN; w++) {
		window_set(w, win[w].saved);
		if ((pte = vm_walk(SLOT_VA(w), 0)) && *pte) {
			*pte = 0;
			invlpg(SLOT_VA(w));
		}
	}
}

// A core whose user memory a copy names.
struct owner {
	struct core c;
	uint32_t lut0;          // LUT entry for its private page 0
	uint32_t pgdir;
	uint32_t ngrants;       // its export page's, read with pgdir
};

// The kernel's pointer to physical byte pa of owner (private DRAM or
// shared DRAM), through window w, mapped with flags.
static char *show(int w, const struct owner *o, uint32_t pa, uint32_t flags)
{
	uint32_t cp = pa, want, *pte;

	if (pa < SCC_SHARED_BASE) {
		// A core's private pages are consecutive system pages.
		uint32_t entry = o->lut0 + (pa >> SCC_PAGE_SHIFT), k = w;

		// A LUT write costs a CRB access (and the emulator much more):
		// a window already there is used, if it stays there until this
		// one is used. Page-table reads are over at once; the source
		// is used before the destination window moves, not after.
		for (k = 0; k < NWIN; k++)
			if (win[k].cur == entry && (w == W_PT || k != W_DST))
				break;
		if (k == NWIN)
			k = w;
		window_set(k, entry);
		cp = ((uint32_t)WIN_PAGE(k) << SCC_PAGE_SHIFT) | (pa & 0xFFFFFF);
	}
	if (!(pte = vm_walk(SLOT_VA(w), 1)))
		panic("copy: no memory for a page table");
	want = PGROUNDDOWN(cp) | flags | PTE_W | PTE_P;
	if (*pte != want) {
		*pte = want;
		invlpg(SLOT_VA(w));
	}
	return (char *)(SLOT_VA(w) | (pa & 0xFFF));
}

static int read_phys(const struct owner *o, uint32_t pa, uint32_t *v)
{
	if (pa >= memsize || (pa & 3))
		return -1;
	*v = *(volatile uint32_t *)show(W_PT, o, pa, UNCACHED);
	return 0;
}

static int owner_pte(const struct owner *o, struct ptcache *c, uint32_t va,
		     uint32_t last, uint32_t *pte)
{
	uint32_t pde, i, n, ptx = PTX(va);

	if (c->count && c->pdx == PDX(va) && ptx >= c->first && ptx < c->first + c->count) {
		*pte = c->pte[ptx];
		return 0;
	}
	c->count = 0;
	if (read_phys(o, o->pgdir + PDX(va) * 4, &pde) || !(pde & PTE_P))
		return -SCC_EFAULT;
	// Up to the request's last page or the table's end.
	n = PDX(last) == PDX(va) ? PTX(last) - ptx + 1 : 1024 - ptx;
	for (i = 0; i < n; i++)
		if (read_phys(o, PTE_ADDR(pde) + (ptx + i) * 4, &c->pte[ptx + i]))
			return -SCC_EFAULT;
	c->pdx = PDX(va);
	c->first = ptx;
	c->count = n;
	*pte = c->pte[ptx];
	return 0;
}

// Owner's physical address of user byte va (of a request ending at
// last), if its user code may read (or write) it and it is DRAM: private
// or shared. The MPBs and registers a user may touch are no memory a
// copy core serves.
static int translate(const struct owner *o, uint32_t va, uint32_t last, int write,
		     uint32_t *pa)
{
	uint32_t pte, a;

	if (owner_pte(o, &ptc[write], va, last, &pte))
		return -SCC_EFAULT;
	if ((pte & (PTE_P | PTE_U)) != (PTE_P | PTE_U) || (write && !(pte & PTE_W)))
		return -SCC_EFAULT;
	a = PTE_ADDR(pte);
	if (a >= memsize && (a < SCC_SHARED_BASE || a - SCC_SHARED_BASE >= shm_size))
		return -SCC_EFAULT;
	*pa = a | (va & 0xFFF);
	return 0;
}

static int check_range(const struct owner *o, uint32_t va, uint32_t n, int write)
{
	uint32_t a, pa;
	int r;

	for (a = PGROUNDDOWN(va); a - PGROUNDDOWN(va) < n + (va & 0xFFF); a += PGSIZE)
		if ((r = translate(o, a, va + n - 1, write, &pa)))
			return r;
	return 0;
}

// Line va of the export page of owner o (va: the address in this
// kernel's own, the same in its), as an MPBT line: one DRAM line read
// instead of a word at a time, which a peer read of a collective pays for
// every block. Through the source's slot, which the copy moves anyway; no
// LUT entry moves (the page-table window is on the owner's page 0 since
// owner_of). windows_open's CL1INVMB dropped the lines of earlier calls,
// so what is read is what DRAM holds now.
static const volatile void *export_line(const struct owner *o, const volatile void *va)
{
	return show(W_SRC, o, (uint32_t)va, PTE_MPBT);
}

// The id of a grant of owner o that lets this core use [va, va + n)
// (n > 0) with prot, and its slot; 0 if there is none. One grant must
// hold the whole range: a grant is a line, and the one grant of a
// collective costs a reader that line.
static uint32_t grant_find(const struct owner *o, uint32_t va, uint32_t n,
			   uint32_t prot, uint32_t *slot)
{
	uint32_t i, id, lo, len, word = self.id / 32, bit = 1u << self.id % 32;
	const volatile struct grant *g;

	// Whatever the owner's count says, no slot beyond the table.
	for (i = 0; i < o->ngrants && i < SCC_GRANT_MAX; i++) {
		g = export_line(o, &copy_export.g[i]);
		if (!(id = g->id) || !(g->mask[word] & bit) || (g->prot & prot) != prot)
			continue;
		lo = g->lo;
		len = g->len;
		// The same id after the fields: they are its (the owner
		// clears a slot's id first and sets it last).
		if (va >= lo && va - lo < len && n <= len - (va - lo) && g->id == id) {
			*slot = i;
			return id;
		}
	}
	return 0;
}

// Whether the grant found as id in slot still holds. Read after an
// access: if it does, any revoke came after the access, and so did
// whatever the owner put in the memory since; the fields read before
// belonged to this id too (an owner sets a slot's id last and clears it
// first).
static int grant_held(const struct owner *o, uint32_t slot, uint32_t id)
{
	uint32_t now;

	return !read_phys(o, (uint32_t)&copy_export.g[slot].id, &now) && now == id;
}

// An access refused for want of a grant: -EPERM, and a line on this
// core's console naming both cores and the range. Under fail-fast a
// program that stops on the error ends the run with its exit status
// alone; this line says why. The first few are told, the rest counted
// (copy_exit), so that a program that probes cannot flood the console.
static int refused(const char *what, uint32_t owner, uint32_t va, uint32_t n,
		   uint32_t prot, int during)
{
	const char *more = ++refusals == REFUSALS_TOLD ?
		" (further refusals only counted)" : "";

	if (refusals > REFUSALS_TOLD)
		return -SCC_EPERM;
	if (during)
		cprintf("core %02u: %s refused: core %02u revoked its grant to core %02u "
			"of %u bytes at 0x%08x while it ran%s\n", self.id, what, owner,
			self.id, n, va, more);
	else
		cprintf("core %02u: %s refused: core %02u granted core %02u no %s of "
			"%u bytes at 0x%08x%s\n", self.id, what, owner, self.id,
			prot == SCC_GRANT_RW ? "read-write" : "read", n, va, more);
	return -SCC_EPERM;
}

// Memory type of one side: MPBT (L1 only, write-combined), or cached
// (private DRAM) and uncached (shared DRAM, which nothing keeps coherent).
static uint32_t side_flags(uint32_t pa, int mpbt)
{
	if (mpbt)
		return PTE_MPBT;
	if (pa >= SCC_SHARED_BASE)
		return PTE_PCD;
	any_cached = 1;
	return 0;
}

static int copy_pages(const struct owner *o, uint32_t dst, uint32_t src,
		      uint32_t n, uint32_t method)
{
	int smpbt = method == SCC_COPY_LUT || (method & SCC_COPY_MPBT_SRC);
	int dmpbt = method == SCC_COPY_LUT || (method & SCC_COPY_MPBT_DST);
	uint32_t spa, dpa, chunk, slast = src + n - 1, dlast = dst + n - 1;
	char *s, *d;
	int r;

	while (n > 0) {
		if ((r = translate(o, src, slast, 0, &spa)) ||
		    (r = translate(o, dst, dlast, 1, &dpa)))
			return r;
		chunk = PGSIZE - (src & 0xFFF);
		if (chunk > PGSIZE - (dst & 0xFFF))
			chunk = PGSIZE - (dst & 0xFFF);
		if (chunk > n)
			chunk = n;
		s = show(W_SRC, o, spa, side_flags(spa, smpbt));
		d = show(W_DST, o, dpa, side_flags(dpa, dmpbt));
		memcpy(d, s, chunk);
		src += chunk;
		dst += chunk;
		n -= chunk;
	}
	return 0;
}

// Copy n bytes from src to dst, both addresses of owner's user space,
// with the windows open. Nothing is written unless the whole request is
// valid. For another core's memory (requester is not this core) its
// owner's grants must cover the source for reading and the destination
// for writing: asking a copy core is not consent by itself, as the
// service may run whatever image the core map gave it.
static int copy_run(const struct owner *o, uint32_t requester, uint32_t dst,
		    uint32_t src, uint32_t n, uint32_t method)
{
	uint32_t slot;
	int r;

	if (method > SCC_COPY_LUT || n > SCC_COPY_MAX)
		return -SCC_EINVAL;
	if (n == 0)
		return 0;
	if (src + n < src || dst + n < dst)
		return -SCC_EFAULT;
	if (src < dst + n && dst < src + n)
		return -SCC_EINVAL;	// overlap: no order of lines is right for both
	if (requester != self.id) {
		if (!grant_find(o, src, n, SCC_GRANT_READ, &slot))
			return refused("copy", requester, src, n, SCC_GRANT_READ, 0);
		if (!grant_find(o, dst, n, SCC_GRANT_RW, &slot))
			return refused("copy", requester, dst, n, SCC_GRANT_RW, 0);
	}
	if (method != SCC_COPY_MPBT && method != SCC_COPY_LUT)
		wbinvd();
	r = check_range(o, src, n, 0);
	if (!r)
		r = check_range(o, dst, n, 1);
	if (!r)
		r = copy_pages(o, dst, src, n, method);
	mpb_flush();
	if (any_cached)
		wbinvd();
	return r;
}

// The owner of a request from another core: -SCC_ESRCH unless it runs
// this kernel image (its page directory is where ours says). Its export
// page's first line at once (export_line). Windows open.
static int owner_of(uint32_t id, struct owner *o)
{
	const volatile struct export_head *h;
	uint32_t pgdir;

	core_locate(&self, id, &o->c);
	o->lut0 = lut_private_entry(&self, &o->c, 0);
	// The page-table window onto the owner's page 0, where its kernel
	// and export page are, so that the lines below move no other one.
	window_set(W_PT, o->lut0);
	h = export_line(o, &copy_export.h);
	pgdir = h->pgdir;
	// Another kernel image, or one that has not booted that far.
	if (h->magic != EXPORT_MAGIC || pgdir % PGSIZE || pgdir >= memsize)
		return -SCC_ESRCH;
	o->pgdir = pgdir;
	o->ngrants = h->ngrants;
	return 0;
}

// SYS_copy_serve: a copy for core requester, on its user addresses.
int32_t copy_serve(uint32_t requester, uint32_t dst, uint32_t src, uint32_t n,
		   uint32_t method)
{
	struct owner o;
	int r;

	if (requester >= self.ncores || method > SCC_COPY_LUT || n > SCC_COPY_MAX)
		return -SCC_EINVAL;
	serving = 1;
	if (sif_core_state(requester) != CORE_STATE_RUNNING)
		return -SCC_ESRCH;
	windows_open();
	r = owner_of(requester, &o);
	if (!r)
		r = copy_run(&o, requester, dst, src, n, method);
	windows_close();
	return r;
}

// Into this core's plain private memory each line is read first: a store
// into a line the caches do not hold goes to DRAM on its own (the caches
// do not allocate on a write miss), as in libscc's gets. Into MPBT pages
// the stores combine in the write-combine buffer, and a read would only
// add a DRAM read a line.
static void copy_in(char *d, const char *s, uint32_t n, int mpbt)
{
	uint32_t step;

	if (mpbt) {
		memcpy(d, s, n);
		return;
	}
	for (; n; d += step, s += step, n -= step) {
		step = SCC_CACHE_LINE - ((uint32_t)d & (SCC_CACHE_LINE - 1));
		if (step > n)
			step = n;
		(void)*(volatile char *)d;
		memcpy(d, s, step);
	}
}

// SYS_peer_read: n bytes of core's user memory at src into this core's at
// dst, as process_vm_readv does between processes. It reads DRAM through
// a LUT window mapped MPBT (the L1 only, dropped at the next call): no
// lines of the owner's pass through this core's L2, and what the owner
// still holds dirty in its own caches is not seen, as on the chip, which
// keeps no coherence. The owner writes src with MPBT stores (its pages
// marked with SYS_copy_mpbt) or writes its caches back before. Only
// what the owner granted this core for reading (SYS_grant), one grant
// for the whole range; a grant revoked while the read ran counts as none,
// and what was read is zeroed, as it may be what the owner put there
// after.
int32_t peer_read(uint32_t core, uint32_t dst, uint32_t src, uint32_t n)
{
	struct owner o;
	uint32_t a, spa, chunk, slast = src + n - 1, *pte, id = 0, slot = 0;
	uint32_t dst0 = dst, src0 = src, n0 = n;
	int r;

	if (core >= self.ncores || core == self.id || n > SCC_COPY_MAX)
		return -SCC_EINVAL;
	if (n == 0)
		return 0;
	if (src + n < src || dst < USER_BASE || dst + n < dst || dst + n > USER_LIMIT)
		return -SCC_EFAULT;
	for (a = PGROUNDDOWN(dst); a < dst + n; a += PGSIZE) {
		pte = vm_walk(a, 0);
		if (!pte || (*pte & (PTE_P | PTE_U | PTE_W)) != (PTE_P | PTE_U | PTE_W))
			return -SCC_EFAULT;
	}
	if (sif_core_state(core) != CORE_STATE_RUNNING)
		return -SCC_ESRCH;
	windows_open();
	r = owner_of(core, &o);
	if (!r && !(id = grant_find(&o, src, n, SCC_GRANT_READ, &slot)))
		r = refused("peer read", core, src, n, SCC_GRANT_READ, 0);
	if (!r)
		r = check_range(&o, src, n, 0);
	while (!r && n > 0) {
		if ((r = translate(&o, src, slast, 0, &spa)))
			break;
		chunk = PGSIZE - (src & 0xFFF);
		if (chunk > PGSIZE - (dst & 0xFFF))
			chunk = PGSIZE - (dst & 0xFFF);
		if (chunk > n)
			chunk = n;
		copy_in((char *)dst, show(W_SRC, &o, spa, PTE_MPBT), chunk,
			!!(*vm_walk(dst, 0) & PTE_MPBT));
		src += chunk;
		dst += chunk;
		n -= chunk;
	}
	if (!r && !grant_held(&o, slot, id)) {
		memset((void *)dst0, 0, n0);
		r = refused("peer read", core, src0, n0, SCC_GRANT_READ, 1);
	}
	mpb_flush();
	windows_close();
	return r;
}

// SYS_copy_lut: this core's own LUT copy, the destination (and source)
// reached through windows onto their 16 MiB system pages.
int32_t copy_lut(uint32_t dst, uint32_t src, uint32_t n)
{
	struct owner o;

	int r;

	o.c = self;
	o.lut0 = lut_private_entry(&self, &self, 0);
	o.pgdir = read_cr3();
	// The windows are other addresses for memory this core also caches
	// under its own: none of its lines may be dirty while the windows
	// read and write it, nor stale after.
	wbinvd();
	windows_open();
	r = copy_run(&o, self.id, dst, src, n, SCC_COPY_LUT);
	windows_close();
	wbinvd();
	return r;
}

// SYS_copy_mpbt: mark (or unmark) the application's private pages
// covering [va, va + n) MPBT. All or nothing.
int32_t copy_mpbt(uint32_t va, uint32_t n, uint32_t on)
{
	uint32_t a, lo = PGROUNDDOWN(va), *pte;

	if (n == 0 || on > 1)
		return -SCC_EINVAL;
	if (va < USER_BASE || va + n < va || va + n > USER_LIMIT)
		return -SCC_EFAULT;
	for (a = lo; a < va + n; a += PGSIZE) {
		pte = vm_walk(a, 0);
		if (!pte || (*pte & (PTE_P | PTE_U)) != (PTE_P | PTE_U))
			return -SCC_EFAULT;
	}
	// Dirty lines of these pages must reach DRAM before MPBT reads skip
	// the caches; MPBT lines left in the L1 must not be read as cached.
	wbinvd();
	for (a = lo; a < va + n; a += PGSIZE) {
		pte = vm_walk(a, 0);
		*pte = on ? *pte | PTE_MPBT : *pte & ~PTE_MPBT;
		invlpg(a);
	}
	cl1invmb();
	return 0;
}

// The bits of mask word w that name cores of the chip.
static uint32_t chip_cores(uint32_t w)
{
	uint32_t first = w * 32;

	if (self.ncores <= first)
		return 0;
	return self.ncores - first >= 32 ? 0xFFFFFFFFu : (1u << (self.ncores - first)) - 1;
}

// Whether [va, va + n) is all private user space or all shared DRAM, the
// memory a copy core or a peer read may reach. The pages themselves are
// checked when they are used, as for any copy: a grant is consent, not
// a mapping.
static int grantable(uint32_t va, uint32_t n)
{
	if (va + n < va)
		return 0;
	if (va >= USER_BASE && va + n <= USER_LIMIT)
		return 1;
	return va >= SCC_SHARED_BASE && va - SCC_SHARED_BASE < shm_size &&
	       n <= shm_size - (va - SCC_SHARED_BASE);
}

// SYS_grant: the cores of mask (lo, hi) may read, or read and write, this
// core's user memory [va, va + n), until revoked or this core exits (a
// reader checks that its owner runs). The lowest free slot, so that
// readers, who look up to the highest slot in use, look at few.
int32_t grant(uint32_t va, uint32_t n, uint32_t prot, uint32_t lo, uint32_t hi)
{
	volatile struct grant *g;
	uint32_t i, id;
	int any = lo == SCC_GRANT_ANY_WORD && hi == SCC_GRANT_ANY_WORD;

	if (n == 0 || (prot != SCC_GRANT_READ && prot != SCC_GRANT_RW))
		return -SCC_EINVAL;
	if (!any && (!(lo | hi) || (lo & ~chip_cores(0)) || (hi & ~chip_cores(1))))
		return -SCC_EINVAL;
	if (!grantable(va, n))
		return -SCC_EFAULT;
	for (i = 0; i < SCC_GRANT_MAX && copy_export.g[i].id; i++)
		;
	if (i == SCC_GRANT_MAX)
		return -SCC_ENOMEM;
	if (++grant_seq >> (31 - GRANT_SLOT_BITS))
		grant_seq = 1;	// ids stay positive
	id = grant_seq << GRANT_SLOT_BITS | i;
	g = &copy_export.g[i];
	g->lo = va;
	g->len = n;
	g->prot = prot;
	g->mask[0] = lo;
	g->mask[1] = hi;
	// The id last: a reader that sees it sees the fields (uncached
	// stores reach DRAM in program order).
	g->id = id;
	if (copy_export.h.ngrants <= i)
		copy_export.h.ngrants = i + 1;
	return (int32_t)id;
}

// SYS_revoke: the grant ends. The id goes first, so a reader either
// missed the grant or finds it gone when it looks again after its access
// (peer_read); a copy that passed its check before finishes.
int32_t revoke(uint32_t id)
{
	uint32_t i = id & ((1u << GRANT_SLOT_BITS) - 1);

	if (!id || i >= SCC_GRANT_MAX || copy_export.g[i].id != id)
		return -SCC_EINVAL;
	copy_export.g[i].id = 0;
	while (copy_export.h.ngrants && !copy_export.g[copy_export.h.ngrants - 1].id)
		copy_export.h.ngrants--;
	return 0;
}
