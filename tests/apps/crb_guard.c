/*
 * What user code may do with the CRBs (tests/test_kernel_guard.py).
 *
 *   crb_guard what=W [core=C]      (only core C acts, default 0)
 *
 *   lut     write LUT0 entry 0x84 of C's tile (C's own map on an even
 *           core, its neighbour's on an odd one) and read it back, then
 *           put the old entry back; under crb=isolated the first access
 *           faults
 *   glcfg   write the other core of the tile's GLCFG: INTR, then 0
 *   calls   the system calls that stand in for the CRB: the T&S registers
 *           (take, held, free, take again, free), and the checks of them
 *           and of SYS_tile_clock; "calls ok"
 *   raw     scc_crb_raw(1) (prints its result), then the registers
 *           themselves: the LUT entry as for lut and the own T&S
 *           register; "raw ok"
 *
 * Every action first prints "crb mode M mapped B" (the kernel's crb= and
 * whether user code has the CRB page) and the PTE of its tile's CRB page
 * (or the error SYS_vmquery gives).
 */
#include <string.h>

#include "testlib.h"

#define PAGE 0x84u          /* no default LUT entry maps it */

/* Rewrite LUT0 entry PAGE of tile t through the CRB page, read it back,
 * restore it. */
static void lut(int t)
{
    volatile uint32_t *e = scc_crb_reg(t, CRB_LUT0 + CRB_LUT_STRIDE * PAGE);
    uint32_t old = *e, want = LUT_ENTRY(SCC_SHARED_ADDRBITS, SUBDEST_WEST, LUT_ROUTE_XY(0, 0));

    *e = want;
    uint32_t got = *e;
    *e = old;
    printf("lut0 tile %d entry 0x%x: 0x%lx -> 0x%lx, back to 0x%lx\n", t, PAGE,
           (unsigned long)old, (unsigned long)got, (unsigned long)*e);
    CHECK(got == want, "the LUT entry did not take");
}

static void calls(const struct scc_info *info, int me)
{
    int ntiles = (int)(info->ncores / info->cores_per_tile);
    unsigned mhz = info->core_hz / 1000000;

    CHECK(scc_lock_try(me) == 1, "free register not taken");
    CHECK(scc_lock_try(me) == 0, "held register taken again");
    CHECK(scc_lock_release(me) == 0, "release");
    CHECK(scc_lock_try(me) == 1, "freed register not taken");
    CHECK(scc_lock_release(me) == 0, "release");
    CHECK(scc_lock_try((int)info->ncores) == -SCC_EINVAL, "core beyond the chip");
    CHECK(scc_lock_release(-1) == -SCC_EINVAL, "core -1");
    CHECK(scc_tile_clock(ntiles, mhz) == -SCC_EINVAL, "tile beyond the mesh");
    CHECK(scc_tile_clock(0, 0) == -SCC_EINVAL, "clock 0");
    CHECK(scc_tile_clock(0, mhz + 1) == -SCC_EINVAL, "clock above the core clock");
    CHECK(scc_tile_clock(scc_tile_of(me), mhz) == 0, "the core clock");
    CHECK(scc_crb_raw(2) == -SCC_EINVAL, "scc_crb_raw(2)");
    printf("calls ok\n");
}

static void raw(int me)
{
    int r = scc_crb_raw(1);

    printf("scc_crb_raw %d\n", r);
    if (r < 0)
        exit(3);
    CHECK(scc_crb_mapped(), "mapped, but libscc does not know");
    lut(scc_tile_of(me));
    volatile uint32_t *lock = scc_crb_reg(scc_tile_of(me), CRB_LOCK(me % 2));
    CHECK((*lock & 1) == 1, "own T&S register held");
    CHECK((*lock & 1) == 0, "own T&S register taken twice");
    *lock = 0;
    CHECK(scc_crb_raw(1) == 1, "scc_crb_raw does not say it was mapped");
    printf("raw ok\n");
}

int main(int argc, char **argv)
{
    struct scc_info info;
    int me = scc_core_id();
    const char *what = arg_str(argc, argv, "what");
    uint32_t pte = 0;

    if (me != arg_long(argc, argv, "core", 0))
        return 0;
    MUST(scc_info(&info));
    int q = scc_vmquery((const void *)(uintptr_t)(info.crb_base +
                                                  scc_tile_of(me) * SCC_PAGE_SIZE), &pte);
    printf("crb mode %lu mapped %d\n", (unsigned long)info.crb_mode, scc_crb_mapped());
    if (q < 0)
        printf("crb pte err %d\n", q);
    else
        printf("crb pte 0x%08lx\n", (unsigned long)pte);
    if (!strcmp(what, "lut")) {
        lut(scc_tile_of(me));
    } else if (!strcmp(what, "glcfg")) {
        volatile uint32_t *g = scc_crb_reg(scc_tile_of(me), CRB_GLCFG(1 - me % 2));
        *g = GLCFG_INTR;        /* a write first: no read-modify-write */
        *g = 0;
        printf("glcfg written\n");
    } else if (!strcmp(what, "calls")) {
        calls(&info, me);
    } else if (!strcmp(what, "raw")) {
        raw(me);
    } else {
        FAIL("what=%s?", what);
    }
    return 0;
}
