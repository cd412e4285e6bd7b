/*
 * The page-table entries of a few addresses, as SYS_vmquery reports them
 * (tests/test_kernel.py checks the bits: MPB pages MPBT (bit 7) and user,
 * heap/stack/data not MPBT, shared DRAM uncached, GTSC page read-only...).
 *
 * Lines: "pte NAME 0xADDR 0xPTE" or "pte NAME 0xADDR err -ERRNO".
 */
#include <stdint.h>
#include <string.h>

#include "testlib.h"

static volatile uint32_t data_word = 1;

static void show(const char *name, const volatile void *addr)
{
    uint32_t pte = 0;
    int r = scc_vmquery((const void *)addr, &pte);
    if (r < 0)
        printf("pte %s 0x%08lx err %d\n", name, (unsigned long)(uintptr_t)addr, r);
    else
        printf("pte %s 0x%08lx 0x%08lx\n", name, (unsigned long)(uintptr_t)addr,
               (unsigned long)pte);
}

int main(void)
{
    struct scc_info info;
    MUST(scc_info(&info));
    int me = scc_core_id();
    int ntiles = info.ncores / info.cores_per_tile;

    /* Touch what is queried, so lazily mapped pages are there. */
    volatile char *heap = malloc(100);
    CHECK(heap != NULL, "malloc");
    heap[0] = 1;
    volatile uint32_t stack_word = 2;
    volatile uint32_t *own = scc_mpb_user(me);
    own[0] = 0x5CC00000u | me;
    scc_cl1invmb();
    CHECK(own[0] == (0x5CC00000u | me), "own MPB word reads back 0x%08lx",
          (unsigned long)own[0]);
    printf("mpb rw ok\n");

    show("mpb_own_tile", (volatile void *)0xD8000000u);
    show("mpb_own_user", own);
    show("mpb_tile0", (volatile void *)(uintptr_t)info.mpb_base);
    show("mpb_last_tile",
         (volatile void *)(uintptr_t)(info.mpb_base + (ntiles - 1) * info.mpb_stride + 0x3000));
    show("heap", heap);
    show("stack", &stack_word);
    show("data", &data_word);
    show("text", (const void *)main);
    show("shm", (volatile void *)(uintptr_t)info.shm_base);
    show("gtsc", (volatile void *)0xF9008000u);
    show("atomic", (volatile void *)0xF900E000u);
    show("null", (volatile void *)0);
    show("kernel", (volatile void *)0x00100000u);
    printf("vm_query done\n");
    return 0;
}
