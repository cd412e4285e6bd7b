/* One core (core=N, default 5) reads an unmapped user address (addr=,
 * default 0xDEAD0000); the others exit 0. The kernel must report the page
 * fault and end that core with 128 + 14. */
#include <stdint.h>

#include "testlib.h"

int main(int argc, char **argv)
{
    int victim = arg_long(argc, argv, "core", 5);
    uintptr_t addr = (uintptr_t)arg_long(argc, argv, "addr", (long)0xDEAD0000u);
    if (scc_core_id() != victim)
        return 0;
    printf("core %02d reads 0x%08lx\n", victim, (unsigned long)addr);
    fflush(stdout);
    uint32_t v = *(volatile uint32_t *)addr;
    printf("read 0x%08lx: 0x%08lx, no fault\n", (unsigned long)addr, (unsigned long)v);
    return 3;
}
