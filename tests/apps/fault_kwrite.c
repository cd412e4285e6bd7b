/* One core (core=N, default 9) writes to a kernel page (addr=, default
 * 0x00100000: the kernel image); the others exit 0. The write must be
 * refused with a page fault (128 + 14). */
#include <stdint.h>

#include "testlib.h"

int main(int argc, char **argv)
{
    int victim = arg_long(argc, argv, "core", 9);
    uintptr_t addr = (uintptr_t)arg_long(argc, argv, "addr", 0x00100000);
    if (scc_core_id() != victim)
        return 0;
    printf("core %02d writes 0x%08lx\n", victim, (unsigned long)addr);
    fflush(stdout);
    *(volatile uint32_t *)addr = 0xBADC0DE;
    printf("wrote 0x%08lx, no fault\n", (unsigned long)addr);
    return 3;
}
