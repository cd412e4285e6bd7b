// SYS_dram_map: a read-only view of any DRAM page of any memory
// controller, through a LUT entry of this core's own, as sccKit's LUT
// files let the copy paper's authors put N cores' buffers on one rank or
// one controller (002, section II) to find where each saturates.
//
// Read-only: it shows shared DRAM and this core's own memory without
// letting this core change it. Another core's private memory only under
// the kernel option dram_view=any, the machine's owner's consent for the
// whole run (as Linux's /dev/mem needs root): without it a program could
// read any other program's memory, which the grants (copy.c) forbid.
// One view at a time; a new one replaces it.

#include <scc/io.h>
#include "defs.h"

// The LUT page it uses: 0x29-0x2B are copy.c's windows.
#define VIEW_PAGE       (SCC_WINDOW_PAGE + 3)
#define VIEW_VA         HEAP_LIMIT      // the heap ends below
#define VIEW_MAX        SCC_PAGE_SIZE

static uint32_t view_len;       // bytes mapped at VIEW_VA
int dram_view_any;              // dram_view=any: other cores' slots too

// Whether controller mc's system page is one of this core's own private
// pages (or shared DRAM): what a view may show without dram_view=any.
static int page_own(uint32_t mc, uint32_t page)
{
	uint32_t want = lut_mc_entry(&self, mc, page), p;

	if (mc == 0 && page >= SCC_SHARED_ADDRBITS)
		return 1;
	for (p = 0; p * SCC_PAGE_SIZE < memsize; p++)
		if (lut_private_entry(&self, &self, p) == want)
			return 1;
	return 0;
}

// Whether controller mc's system page holds memory: a slot of one of its
// cores (as much of it as this machine backs), or shared DRAM on MC0.
static int page_held(uint32_t mc, uint32_t page)
{
	uint32_t slot = page / SCC_PRIVATE_PAGES, slots = 0, id;
	struct core o;

	if (mc == 0 && page >= SCC_SHARED_ADDRBITS)
		return (page - SCC_SHARED_ADDRBITS) * SCC_PAGE_SIZE < shm_size;
	for (id = 0; id < self.ncores; id++) {
		core_locate(&self, id, &o);
		slots += lut_mc(&o) == mc;
	}
	return slot < slots && (page % SCC_PRIVATE_PAGES) * SCC_PAGE_SIZE < memsize;
}

static void view_unmap(void)
{
	uint32_t a, *pte;

	for (a = VIEW_VA; a < VIEW_VA + view_len; a += PGSIZE)
		if ((pte = vm_walk(a, 0)) && *pte) {
			*pte = 0;
			invlpg(a);
		}
	view_len = 0;
}

// (mc, page, len) -> the user address of len bytes of the page; len 0
// takes the view away (-> 0); -ENOMEM if the application's image
// reaches into the view's addresses.
int32_t dram_map(uint32_t mc, uint32_t page, uint32_t len)
{
	uint32_t a;

	if (mc >= SCC_NUM_MC || page >= SCC_MC_PAGES || len > VIEW_MAX)
		return -SCC_EINVAL;
	if (len && !page_held(mc, page))
		return -SCC_EINVAL;
	if (len && !dram_view_any && !page_own(mc, page)) {
		cprintf("core %02u: DRAM view refused: MC%u page %u is another core's "
			"private memory (kernel option dram_view=any allows it)\n",
			self.id, mc, page);
		return -SCC_EPERM;
	}
	// An image may reach up to IMAGE_LIMIT: its pages are not the view's.
	for (a = VIEW_VA + view_len; a < VIEW_VA + len; a += PGSIZE) {
		uint32_t *pte = vm_walk(a, 0);
		if (pte && (*pte & PTE_P))
			return -SCC_ENOMEM;
	}
	view_unmap();
	// Lines cached from the page seen before are not this page's.
	wbinvd();
	if (!len)
		return 0;
	lut_set(&self, VIEW_PAGE, lut_mc_entry(&self, mc, page));
	for (a = 0; a < len; a += PGSIZE)
		if (vm_map(VIEW_VA + a, (VIEW_PAGE << SCC_PAGE_SHIFT) + a,
			   PTE_U) < 0) {
			view_len = a;
			view_unmap();
			return -SCC_ENOMEM;
		}
	view_len = PGROUNDUP(len);
	return (int32_t)VIEW_VA;
}
