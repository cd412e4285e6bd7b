// Copies between user memories through LUT windows (docs/copy.md): the
// copy-core service's privileged half, the LUT copy an application may
// ask for on its own memory, and MPBT flags on an application's pages.
//
// A copy core reaches another core's private DRAM only by pointing one of
// its own LUT entries at it. It trusts no address the requester gives:
// it walks the requester's page tables (read through a window too) and
// copies only what the requester's user code may read, into what it may
// write. The entries it changes are put back before the call returns.

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

// Where another instance of this kernel finds this core's page directory:
// the same address in every core that runs the same kernel.elf.
volatile struct { uint32_t magic, pgdir; } copy_export;

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
	copy_export.pgdir = read_cr3();
	copy_export.magic = EXPORT_MAGIC;
}

// The exit hook. A copy core that stops (exits, faults) interrupts every
// running core, so that a requester asleep in SYS_copy_wait looks at its
// state again instead of sleeping for ever. Only copy cores do this.
void copy_exit(void)
{
	struct core c;
	uint32_t id;

	mbox_exit();
	if (!serving)
		return;
	for (id = 0; id < self.ncores; id++) {
		if (id == self.id || sif_core_state(id) != CORE_STATE_RUNNING)
			continue;
		core_locate(&self, id, &c);
		notify_core(&c);
	}
}

// Core cycles from now until GTSC value deadline, for a timer interrupt
// then: at least 1, at most what the timer counts, and never late (the
// whole cycles a GTSC tick has: no 64-bit division here). An early one
// only makes the caller look and sleep again.
static uint32_t cycles_until(uint64_t deadline, uint64_t now)
{
	uint64_t d = deadline - now;
	uint32_t per_tick = core_hz / gtsc_hz ? core_hz / gtsc_hz : 1;
	uint64_t c = (uint64_t)(d > 0xFFFFFFFFu ? 0xFFFFFFFFu : (uint32_t)d) *
		     per_tick + 1;

	return c > 0xFFFFFFFFu ? 0xFFFFFFFFu : (uint32_t)c;
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
// valid.
static int copy_run(const struct owner *o, uint32_t dst, uint32_t src,
		    uint32_t n, uint32_t method)
{
	int r;

	if (method > SCC_COPY_LUT || n > SCC_COPY_MAX)
		return -SCC_EINVAL;
	if (n == 0)
		return 0;
	if (src + n < src || dst + n < dst)
		return -SCC_EFAULT;
	if (src < dst + n && dst < src + n)
		return -SCC_EINVAL;	// overlap: no order of lines is right for both
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
// this kernel image (its page directory is where ours says). Windows open.
static int owner_of(uint32_t id, struct owner *o)
{
	uint32_t magic = 0, pgdir = 0;

	core_locate(&self, id, &o->c);
	o->lut0 = lut_private_entry(&self, &o->c, 0);
	if (read_phys(o, (uint32_t)&copy_export.magic, &magic) ||
	    read_phys(o, (uint32_t)&copy_export.pgdir, &pgdir))
		return -SCC_ESRCH;
	// Another kernel image, or one that has not booted that far.
	if (magic != EXPORT_MAGIC || pgdir % PGSIZE || pgdir >= memsize)
		return -SCC_ESRCH;
	o->pgdir = pgdir;
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
		r = copy_run(&o, dst, src, n, method);
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
// marked with SYS_copy_mpbt) or writes its caches back before. Any
// running core's user memory may be read, as with SYS_copy_serve.
int32_t peer_read(uint32_t core, uint32_t dst, uint32_t src, uint32_t n)
{
	struct owner o;
	uint32_t a, spa, chunk, slast = src + n - 1, *pte;
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
	r = copy_run(&o, dst, src, n, SCC_COPY_LUT);
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
