/*
 * SYS_dram_map (scc_dram_map): a read-only view of a memory controller's
 * system page. The app prints what it saw; tests/test_kernel.py holds the
 * expectations.
 *
 * Lines:
 *   "slot MC PAGE0 PRIVATE_MEM"         this core's controller, the system
 *                                       page of its private page 0, bytes
 *   "map MC PAGE LEN null|ok"           a view asked for (ok: at the address
 *                                       the kernel documents)
 *   "shared WROTE SEEN"                 a word stored to shared DRAM, and the
 *                                       word at its place in MC0's view
 *   "view pte 0xPTE" / "view pte err N" the view's first page, and after
 *                                       it was taken away
 */
#include <stdint.h>

#include "scc_copy.h"
#include "testlib.h"

#define VIEW 0x6F000000u

static void try(unsigned mc, unsigned page, unsigned long len)
{
    const void *v = scc_dram_map(mc, page, len);
    printf("map %u %u %lu %s\n", mc, page, len,
           !v ? "null" : (uintptr_t)v == VIEW ? "ok" : "elsewhere");
}

int main(void)
{
    struct scc_info info;
    MUST(scc_info(&info));
    long e = scc_lut_read(0);
    CHECK(e >= 0, "scc_lut_read(0)");
    unsigned route = LUT_ROUTE((unsigned)e);
    unsigned mc = SCC_QUADRANT_MC(LUT_ROUTE_X(route), LUT_ROUTE_Y(route), info.mesh_x,
                                  info.mesh_y);
    unsigned page0 = LUT_ADDRBITS((unsigned)e);
    printf("slot %u %u %lu\n", mc, page0, (unsigned long)info.private_mem);

    try(4, 0, 4096);                            /* no controller 4 */
    try(mc, SCC_MC_PAGES, 4096);                /* beyond the controller */
    try(mc, page0, (16ul << 20) + 4096);        /* more than a page */
    try(mc, page0 + info.private_mem / (16u << 20), 4096);  /* past the backed part */
    try(mc, 500, 4096);                         /* past 12 slots and shared DRAM */
    try(mc, page0, 8192);                       /* its own memory */
    /* the first page of the neighbouring slot: another core's memory,
     * shown only under the kernel option dram_view=any */
    try(mc, page0 ? page0 - SCC_PRIVATE_PAGES : SCC_PRIVATE_PAGES, 4096);

    unsigned word = 1024 + 8 * info.core_id;    /* a line of its own */
    volatile uint32_t *sh = (volatile uint32_t *)scc_shm() + word;
    uint32_t wrote = 0x5CC0FFEEu ^ (uint32_t)info.core_id;
    *sh = wrote;
    const volatile uint32_t *v = scc_dram_map(0, SCC_SHARED_ADDRBITS, 4 * (word + 1));
    CHECK(v != NULL, "a view of shared DRAM");
    printf("shared 0x%08lx 0x%08lx\n", (unsigned long)wrote, (unsigned long)v[word]);

    uint32_t pte = 0;
    int r = scc_vmquery((const void *)VIEW, &pte);
    if (r < 0)
        printf("view pte err %d\n", r);
    else
        printf("view pte 0x%08lx\n", (unsigned long)pte);
    printf("unmap %s\n", scc_dram_map(0, 0, 0) == NULL ? "null" : "not null");
    r = scc_vmquery((const void *)VIEW, &pte);
    printf("view pte %s %d\n", r < 0 ? "err" : "still", r);
    printf("dram_view done\n");
    return 0;
}
