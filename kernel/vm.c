// Paging: one page directory per core, the same layout on every core
// (docs/kernel.md). Private DRAM is identity-mapped for the kernel, so a
// page-table entry's address is also the kernel's pointer to the page.
// The devices are mapped at their physical addresses too, some for user
// code. The application's pages sit between 0x40000000 and 0x80000000.

#include <scc/io.h>
#include <scc/sif.h>
#include "defs.h"

#define UNCACHED (PTE_PCD | PTE_PWT)

uint32_t shm_size;
int crb_mode = SCC_CRB_ISOLATED;
static int crb_user;                    // the CRBs' first pages are user's
static uint32_t *pgdir;
static uint32_t heap_start, brk;

extern char stack_guard[];

// The entry for va; with alloc, the page table it needs is made.
uint32_t *vm_walk(uint32_t va, int alloc)
{
	uint32_t *pde = &pgdir[PDX(va)], *pt;

	if (*pde & PTE_P) {
		pt = (uint32_t *)PTE_ADDR(*pde);
	} else {
		if (!alloc || !(pt = kalloc()))
			return 0;
		memset(pt, 0, PGSIZE);
		// The entries below say who may do what.
		*pde = (uint32_t)pt | PTE_P | PTE_W | PTE_U;
	}
	return &pt[PTX(va)];
}

int vm_map(uint32_t va, uint32_t pa, uint32_t flags)
{
	uint32_t *pte = vm_walk(va, 1);

	if (!pte)
		return -1;
	// The TLB keeps only present entries.
	if (*pte & PTE_P)
		invlpg(va);
	*pte = PTE_ADDR(pa) | flags | PTE_P;
	return 0;
}

// [va, va + size) onto the same physical addresses.
// A page table at a time: a walk per page made the 32 K pages of private
// DRAM a million instructions per core at every boot.
static void identity(uint32_t va, uint32_t size, uint32_t flags)
{
	uint32_t a = va, *pte;

	while (a - va < size) {
		if (!(pte = vm_walk(a, 1)))
			panic("no memory for the page tables");
		do {
			if (*pte & PTE_P)
				invlpg(a);
			*pte++ = PTE_ADDR(a) | flags | PTE_P;
			a += PGSIZE;
		} while (a - va < size && PTX(a) != 0);
	}
}

// Shared DRAM is as large as the run of LUT entries from page 0x80 that
// lead to MC0's shared range. No register tells its size.
static uint32_t shared_pages(void)
{
	uint32_t p, e;

	for (p = 0; SCC_SHARED_PAGE + p < SCC_MPB_PAGE; p++) {
		e = lut_get(&self, SCC_SHARED_PAGE + p) & ~LUT_BYPASS;
		if (e != lut_mc_entry(&self, 0, SCC_SHARED_ADDRBITS + p))
			break;
	}
	return p;
}

void vm_init(void)
{
	uint32_t t, ntiles = self.mesh_x * self.mesh_y, *pte;

	if (!(pgdir = kalloc()))
		panic("no memory for the page directory");
	memset(pgdir, 0, PGSIZE);

	// Private DRAM for the kernel; page 0 stays out to catch NULL.
	identity(PGSIZE, memsize - PGSIZE, PTE_W);
	*vm_walk((uint32_t)stack_guard, 0) = 0;
	*vm_walk(mpb_flush_page(), 0) |= PTE_MPBT;

	// MPBs: cached as MPBT lines, for the kernel and user code.
	for (t = 0; t < ntiles; t++)
		identity(SCC_MPB(t), SCC_MPB_SIZE, PTE_W | PTE_U | PTE_MPBT);
	identity(SCC_OWN_MPB, SCC_MPB_SIZE, PTE_W | PTE_U | PTE_MPBT);

	// CRBs: both pages for the kernel. The first (GLCFG, GCBCFG, TILEID,
	// locks, LUT0) is user code's too only if the option crb= or the
	// program asks (uvm_crb); LUT1's page never is.
	for (t = 0; t < ntiles; t++)
		identity(SCC_CRB(t), 2 * PGSIZE, PTE_W | UNCACHED);
	identity(SCC_OWN_CRB, 2 * PGSIZE, PTE_W | UNCACHED);

	// System interface: console, exit and facts for the kernel, the
	// clock read-only and the atomic counters for user code too.
	identity(SCC_SIF + (SIF_CONSOLE & ~0xFFF), PGSIZE, PTE_W | UNCACHED);
	identity(SCC_SIF + (SIF_GTSC_LO & ~0xFFF), PGSIZE, PTE_U | UNCACHED);
	identity(SCC_SIF + (SIF_ATOMIC_INC(0) & ~0xFFF), PGSIZE,
		 PTE_W | PTE_U | UNCACHED);
	identity(SCC_LAPIC, PGSIZE, PTE_W | UNCACHED);

	// Shared DRAM: no cache, as nothing keeps the cores' caches coherent.
	shm_size = shared_pages() << SCC_PAGE_SHIFT;
	identity(SCC_SHARED_BASE, shm_size, PTE_W | PTE_U | PTE_PCD);

	// MBE and PSE exclude each other: bit 7 of an entry means MPBT.
	write_cr3((uint32_t)pgdir);
	write_cr4((read_cr4() & ~CR4_PSE) | CR4_MBE);
	write_cr0(read_cr0() | CR0_PG | CR0_WP);
	pte = vm_walk(SCC_OWN_MPB, 0);
	if (!pte || !(*pte & PTE_MPBT))
		panic("own MPB not mapped MPBT");
}

// Whether va is in a CRB's pages (tile t's or the own tile's).
int vm_crb_page(uint32_t va)
{
	uint32_t t = (va - SCC_CRB_BASE) >> SCC_PAGE_SHIFT;

	if ((va & (SCC_PAGE_SIZE - 1)) >= 2 * PGSIZE)
		return 0;
	return (va >= SCC_CRB_BASE && t < self.mesh_x * self.mesh_y) ||
	       va >> SCC_PAGE_SHIFT == SCC_OWN_CRB_PAGE;
}

// Give user code the CRBs' first pages (on), or take them back; whether
// it had them. They hold the T&S registers and GLCFG, which RCCE used
// directly on the chip, but also LUT0, through which user code on an even
// core can map any system page (other cores' memory and kernels) and on
// an odd core rewrite its neighbour's map: paging cannot give one without
// the other, so only a program that asks gets the page (docs/kernel.md).
int32_t uvm_crb(uint32_t on)
{
	uint32_t t, ntiles = self.mesh_x * self.mesh_y, *pte, was = crb_user;

	if (on > 1)
		return -SCC_EINVAL;
	if (on && crb_mode == SCC_CRB_STRICT)
		return -SCC_EPERM;
	for (t = 0; t <= ntiles; t++) {
		pte = vm_walk(t < ntiles ? SCC_CRB(t) : SCC_OWN_CRB, 0);
		*pte = on ? *pte | PTE_U : *pte & ~PTE_U;
		invlpg(t < ntiles ? SCC_CRB(t) : SCC_OWN_CRB);
	}
	crb_user = on;
	return was;
}

// --- the application's pages ---

// Fresh zeroed pages for [lo, hi), all or none.
int uvm_alloc(uint32_t lo, uint32_t hi, uint32_t flags)
{
	uint32_t a, *pte;
	void *pg;

	for (a = lo; a < hi; a += PGSIZE) {
		pte = vm_walk(a, 1);
		pg = pte ? kalloc() : 0;
		if (!pg) {
			uvm_free(lo, a);
			return -1;
		}
		if (*pte & PTE_P)
			panic("uvm_alloc: %x is mapped", a);
		memset(pg, 0, PGSIZE);
		*pte = (uint32_t)pg | flags | PTE_U | PTE_P;
	}
	return 0;
}

// Unmap [lo, hi) and free its pages; holes are fine.
void uvm_free(uint32_t lo, uint32_t hi)
{
	uint32_t a, *pte;

	for (a = lo; a < hi; a += PGSIZE) {
		pte = vm_walk(a, 0);
		if (pte && (*pte & PTE_P)) {
			kfree((void *)PTE_ADDR(*pte));
			*pte = 0;
			invlpg(a);
		}
	}
}

// The stack grows on a fault anywhere in its 1 MiB; 0 if it did.
int uvm_grow_stack(uint32_t va)
{
	uint32_t *pte;

	if (va < STACK_LOW || va >= STACK_TOP)
		return -1;
	pte = vm_walk(va, 0);
	if (pte && (*pte & PTE_P))
		return -1;
	return uvm_alloc(PGROUNDDOWN(va), PGROUNDDOWN(va) + PGSIZE, PTE_W);
}

// The kernel's pointer to user byte uva, if user code may read (or write)
// it. Registers (CRB, SIF) are not memory and are refused. An untouched
// stack page is made, as a user access would have made it.
static char *uaddr(uint32_t uva, int write)
{
	uint32_t *pte;

	if (uva >= SCC_CRB_BASE)
		return 0;
	pte = vm_walk(uva, 0);
	if ((!pte || !(*pte & PTE_P)) && uvm_grow_stack(uva) == 0)
		pte = vm_walk(uva, 0);
	if (!pte || (*pte & (PTE_P | PTE_U)) != (PTE_P | PTE_U))
		return 0;
	if (write && !(*pte & PTE_W))
		return 0;
	return (char *)(PTE_ADDR(*pte) | (uva & 0xFFF));
}

// Copy between a user buffer and the kernel through the kernel's own
// mapping of each page, so that read-only user pages can be filled
// (CR0.WP). -EFAULT if any byte is not the user's. Without k, only check.
static int ucopy(uint32_t uva, void *k, uint32_t n, int out)
{
	uint32_t chunk;
	char *p, *kp = k;

	if (uva + n < uva)
		return -SCC_EFAULT;
	while (n > 0) {
		if (!(p = uaddr(uva, out)))
			return -SCC_EFAULT;
		chunk = PGSIZE - (uva & 0xFFF);
		if (chunk > n)
			chunk = n;
		if (!kp)
			;
		else if (out)
			memcpy(p, kp, chunk);
		else
			memcpy(kp, p, chunk);
		uva += chunk;
		if (kp)
			kp += chunk;
		n -= chunk;
	}
	return 0;
}

int copyin(void *dst, uint32_t uva, uint32_t n)
{
	return ucopy(uva, dst, n, 0);
}

int copyout(uint32_t uva, const void *src, uint32_t n)
{
	return ucopy(uva, (void *)src, n, 1);
}

// Whether user code may write (or read) all of [uva, uva + n).
int uvalid(uint32_t uva, uint32_t n, int write)
{
	return ucopy(uva, 0, n, write);
}

// A NUL-terminated user string of at most max - 1 bytes; its length.
int copyinstr(char *dst, uint32_t uva, uint32_t max)
{
	uint32_t i;
	char *p = 0;

	for (i = 0; i < max; i++, uva++) {
		if (i == 0 || !(uva & 0xFFF))
			if (!(p = uaddr(uva, 0)))
				return -SCC_EFAULT;
		if (!(dst[i] = *p++))
			return i;
	}
	return -SCC_EINVAL;
}

// SYS_vmquery: the entry of a page user code may touch.
int32_t uvm_query(uint32_t va)
{
	uint32_t *pte = vm_walk(va, 0);

	if (!pte || (*pte & (PTE_P | PTE_U)) != (PTE_P | PTE_U))
		return -SCC_EFAULT;
	return (int32_t)*pte;
}

// The heap starts on the page after the application's image.
void uvm_setbrk(uint32_t b)
{
	heap_start = brk = b;
}

// SYS_sbrk: the old break. Growth gets zeroed pages; shrinking frees
// the pages wholly above the new break.
int32_t uvm_sbrk(int32_t incr)
{
	uint32_t old = brk, nb = brk + (uint32_t)incr;

	if (incr > 0) {
		if (nb < old || nb > HEAP_LIMIT)
			return -SCC_ENOMEM;
		if (uvm_alloc(PGROUNDUP(old), PGROUNDUP(nb), PTE_W))
			return -SCC_ENOMEM;
	} else if (incr < 0) {
		if (nb > old || nb < heap_start)
			return -SCC_EINVAL;
		uvm_free(PGROUNDUP(nb), PGROUNDUP(old));
	}
	brk = nb;
	return (int32_t)old;
}

// SYS_mmap: zeroed pages at the lowest free stretch of the mmap area.
int32_t uvm_mmap(uint32_t len)
{
	uint32_t a, b, n, *pte;

	if (len == 0 || len > MMAP_LIMIT - MMAP_BASE)
		return -SCC_EINVAL;
	n = PGROUNDUP(len);
	for (a = MMAP_BASE; n <= MMAP_LIMIT - a; a = b + PGSIZE) {
		for (b = a; b < a + n; b += PGSIZE) {
			pte = vm_walk(b, 0);
			if (pte && (*pte & PTE_P))
				break;
		}
		if (b == a + n)
			return uvm_alloc(a, a + n, PTE_W) ? -SCC_ENOMEM : (int32_t)a;
	}
	return -SCC_ENOMEM;
}

// SYS_munmap: whole pages of the mmap area; unmapped holes are fine.
int32_t uvm_munmap(uint32_t va, uint32_t len)
{
	if (va % PGSIZE || len == 0 || va < MMAP_BASE || va >= MMAP_LIMIT ||
	    len > MMAP_LIMIT - va)
		return -SCC_EINVAL;
	uvm_free(va, va + PGROUNDUP(len));
	return 0;
}
