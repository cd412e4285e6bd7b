/*
 * scratch.c - temporary buffers the collectives keep from call to call.
 *
 * picolibc's malloc clears every block it returns, a byte at a time. On
 * the chip each of those stores misses the caches and is written around
 * them (about 100 core cycles: docs/timing.md), so a collective that took
 * its temporaries from malloc paid about 0.8 ms of modeled time for 4 KiB
 * in every call, inside the time it was measured by. The C libraries RCCE
 * ran on did not: glibc hands a freed block back uncleared. A slot keeps
 * its buffer, growing it when a call needs more, until RCCE_finalize.
 */
#include <stdlib.h>

#include "internal.h"

void *scc_scratch(int slot, size_t n)
{
    void **p;
    size_t *have;

    if (slot < 0 || slot >= SCC_SCRATCH_SLOTS)
        return NULL;
    p = &scc_self.scratch[slot].p;
    have = &scc_self.scratch[slot].n;
    if (n == 0)
        n = 1;
    if (*p && *have >= n)
        return *p;
    free(*p);
    /* at least double: a sweep of growing sizes clears O(largest) bytes */
    if (n < 2 * *have)
        n = 2 * *have;
    *have = (*p = malloc(n)) ? n : 0;
    return *p;
}

void scc_scratch_release(void)
{
    for (int i = 0; i < SCC_SCRATCH_SLOTS; i++) {
        free(scc_self.scratch[i].p);
        scc_self.scratch[i].p = NULL;
        scc_self.scratch[i].n = 0;
    }
}
