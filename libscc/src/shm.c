/*
 * shm.c - RCCE_shmalloc: the symmetric heap in shared DRAM.
 *
 * Like the MPB heap, bookkept privately by each UE: the same calls in the
 * same order give every UE the same address. Blocks are whole 32-byte
 * lines, first fit, at most SCC_SHM_BLOCKS at a time. On the chip the
 * shared DRAM is mapped uncached, so RCCE_shflush has nothing to write back.
 */
#include "internal.h"

#define ALIGN 32

t_vcharp RCCE_shmalloc(size_t size)
{
    size_t total, off = 0;
    char *base = plat_shm(&total);
    int i;

    if (total > RCCE_SHM_SIZE_MAX)
        total = RCCE_SHM_SIZE_MAX;
    if (!base || !scc_self.up || size == 0 || size > total ||
        scc_self.nshm == SCC_SHM_BLOCKS)
        return NULL;
    size = (size + ALIGN - 1) / ALIGN * ALIGN;
    for (i = 0; i < scc_self.nshm; i++) {
        if (scc_self.shm[i].off - off >= size)
            break;
        off = scc_self.shm[i].off + scc_self.shm[i].len;
    }
    if (total - off < size)
        return NULL;
    for (int j = scc_self.nshm; j > i; j--)
        scc_self.shm[j] = scc_self.shm[j - 1];
    scc_self.shm[i].off = off;
    scc_self.shm[i].len = size;
    scc_self.nshm++;
    return (t_vcharp)(base + off);
}

void RCCE_shfree(t_vcharp p)
{
    size_t total;
    char *base = plat_shm(&total);

    for (int i = 0; base && i < scc_self.nshm; i++) {
        if ((t_vcharp)(base + scc_self.shm[i].off) != p)
            continue;
        for (int j = i + 1; j < scc_self.nshm; j++)
            scc_self.shm[j - 1] = scc_self.shm[j];
        scc_self.nshm--;
        return;
    }
}

void RCCE_shflush(void)
{
    plat_fence();
}

/*
 * Later RCCE versions: flush what this core cached of shared DRAM mapped
 * MPBT ("distributed cache memory") so other cores see it. Here shared
 * DRAM is uncached, so nothing is held in a cache; what may still sit in
 * the write-combine buffer is pushed out, and stores are ordered.
 */
int RCCE_DCMflush(void)
{
    if (!scc_self.up)
        return RCCE_ERROR_TARGET;
    plat_flush(my_mpb());
    plat_fence();
    return RCCE_SUCCESS;
}
