// This core's physical pages: a bitmap over its private DRAM, one bit a
// page, set while the page is in use. A bitmap rather than xv6's free
// list: a list runs through every free page, and writing all of them at
// boot would make the host back every core's whole slice.

#include "defs.h"

#define MAXPAGES ((SCC_PRIVATE_PAGES << SCC_PAGE_SHIFT) / PGSIZE)

uint32_t memsize;
static uint32_t used[MAXPAGES / 32];
static uint32_t npages, next;

extern char _end[];

static int isused(uint32_t p)
{
	return used[p / 32] >> (p % 32) & 1;
}

static void mark(uint32_t p, int inuse)
{
	if (inuse)
		used[p / 32] |= 1u << (p % 32);
	else
		used[p / 32] &= ~(1u << (p % 32));
}

// Pages [start, end) become free, wholly contained ones only; whole
// words of the bitmap at a time (a page at a time was 300 K instructions
// at every boot).
void kfree_range(uint32_t start, uint32_t end)
{
	uint32_t p, e;

	if (end > memsize)
		end = memsize;
	e = end / PGSIZE;
	for (p = PGROUNDUP(start) / PGSIZE; p < e && p % 32; p++)
		mark(p, 0);
	for (; p + 32 <= e; p += 32)
		used[p / 32] = 0;
	for (; p < e; p++)
		mark(p, 0);
}

// Pages touching [start, end) are taken.
static void reserve(uint32_t start, uint32_t end)
{
	uint32_t p;

	for (p = start / PGSIZE; p < PGROUNDUP(end) / PGSIZE && p < npages; p++)
		mark(p, 1);
}

// Everything starts used; the memory map's available ranges are freed,
// then page 0 (NULL), the kernel image and the application module are
// taken back. The Multiboot information has been copied out already.
void kinit(void)
{
	int i;

	npages = memsize / PGSIZE;
	memset(used, 0xFF, sizeof(used));
	for (i = 0; i < boot.navail; i++)
		kfree_range(boot.avail[i].start, boot.avail[i].end);
	reserve(0, PGSIZE);
	reserve(0x100000, (uint32_t)_end);
	if (boot.module)
		reserve(boot.mod_start, boot.mod_end);
}

// A page, not cleared; 0 when none is left.
void *kalloc(void)
{
	uint32_t p, n;

	for (n = 0; n < npages; n++) {
		p = next++;
		if (next >= npages)
			next = 0;
		if (!isused(p)) {
			mark(p, 1);
			return (void *)(p * PGSIZE);
		}
	}
	return 0;
}

void kfree(void *pa)
{
	uint32_t p = (uint32_t)pa / PGSIZE;

	if ((uint32_t)pa % PGSIZE || p == 0 || p >= npages || !isused(p))
		panic("kfree %x", (uint32_t)pa);
	mark(p, 0);
}
