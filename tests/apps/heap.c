/*
 * The heap grows and shrinks (sbrk), malloc/free reuse memory, mmap and
 * munmap map and unmap zeroed pages. Prints facts for
 * tests/test_kernel.py; checks on data it wrote itself FAIL here.
 *
 *   brk0 B                         sbrk(0) at the start
 *   grow OLD NEW                   sbrk(+64 KiB): old break, sbrk(0) after
 *   grown pte P | err E            vmquery of the last grown page (written)
 *   shrink OLD NEW                 sbrk(-64 KiB): old break, sbrk(0) after
 *   shrunk pte P | err E           vmquery of that page after the shrink
 *   huge R ERRNO                   sbrk(1 GiB): (void *)-1 and ENOMEM expected
 *   malloc round R blocks N brk B  after allocating N blocks (and freeing them)
 *   big malloc 8388608 ok
 *   mmap A LEN zero Z              a 1 MiB mapping, all zero?
 *   munmap R pte P | err E         munmap's result, vmquery of its first page after
 *   mmap huge A                    scc_mmap(1.5 GiB): NULL expected
 *   heap done
 */
#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include "testlib.h"

static void query(const char *label, const void *addr)
{
    uint32_t pte;
    int r = scc_vmquery(addr, &pte);
    if (r < 0)
        printf("%s err %d\n", label, r);
    else
        printf("%s pte 0x%08lx\n", label, (unsigned long)pte);
}

static uint32_t rng = 12345;
static uint32_t next_rand(void)
{
    rng = rng * 1103515245u + 12345u;
    return rng >> 8;
}

#define NBLOCKS 2000

static unsigned malloc_round(int r)
{
    static unsigned char *blk[NBLOCKS];
    static size_t len[NBLOCKS];
    rng = 777;
    for (int i = 0; i < NBLOCKS; i++) {
        len[i] = 1 + next_rand() % 3000;
        blk[i] = malloc(len[i]);
        CHECK(blk[i] != NULL, "malloc(%u) #%d", (unsigned)len[i], i);
        memset(blk[i], (i * 7 + r) & 0xff, len[i]);
    }
    /* Free every other block, allocate again into the holes, then check all. */
    for (int i = 0; i < NBLOCKS; i += 2)
        free(blk[i]);
    for (int i = 0; i < NBLOCKS; i += 2) {
        blk[i] = malloc(len[i]);
        CHECK(blk[i] != NULL, "malloc again #%d", i);
        memset(blk[i], (i * 7 + r) & 0xff, len[i]);
    }
    for (int i = 0; i < NBLOCKS; i++)
        for (size_t k = 0; k < len[i]; k++)
            CHECK(blk[i][k] == ((i * 7 + r) & 0xff), "block %d byte %u overwritten", i,
                  (unsigned)k);
    for (int i = 0; i < NBLOCKS; i++)
        free(blk[i]);
    return NBLOCKS;
}

int main(void)
{
    const intptr_t step = 64 * 1024;
    char *b0 = sbrk(0);
    printf("brk0 0x%08lx\n", (unsigned long)(uintptr_t)b0);

    char *old = sbrk(step);
    char *now = sbrk(0);
    printf("grow 0x%08lx 0x%08lx\n", (unsigned long)(uintptr_t)old, (unsigned long)(uintptr_t)now);
    CHECK(old != (char *)-1, "sbrk(+64K) failed: errno %d", errno);
    for (intptr_t i = 0; i < step; i += 512)
        old[i] = (char)i;
    for (intptr_t i = 0; i < step; i += 512)
        CHECK(old[i] == (char)i, "grown heap byte %ld", (long)i);
    char *last_page = old + step - 4096;
    query("grown", last_page);

    char *before = sbrk(-step);
    char *after = sbrk(0);
    printf("shrink 0x%08lx 0x%08lx\n", (unsigned long)(uintptr_t)before,
           (unsigned long)(uintptr_t)after);
    query("shrunk", last_page);

    errno = 0;
    void *huge = sbrk(0x40000000);
    printf("huge 0x%08lx %d\n", (unsigned long)(uintptr_t)huge, errno);
    if (huge != (void *)-1)
        sbrk(-0x40000000);

    for (int r = 1; r <= 2; r++) {
        unsigned nb = malloc_round(r);
        printf("malloc round %d blocks %u brk 0x%08lx\n", r, nb,
               (unsigned long)(uintptr_t)sbrk(0));
    }
    size_t big = 8u << 20;
    unsigned char *bp = malloc(big);
    CHECK(bp != NULL, "malloc(8 MiB)");
    for (size_t i = 0; i < big; i += 4096)
        bp[i] = (unsigned char)(i >> 12);
    for (size_t i = 0; i < big; i += 4096)
        CHECK(bp[i] == (unsigned char)(i >> 12), "big block page %u", (unsigned)(i >> 12));
    free(bp);
    printf("big malloc %u ok\n", (unsigned)big);

    size_t mlen = 1u << 20;
    unsigned char *mp = scc_mmap(mlen);
    int zero = 1;
    if (mp) {
        for (size_t i = 0; i < mlen; i++)
            zero &= mp[i] == 0;
        for (size_t i = 0; i < mlen; i += 4096)
            mp[i] = 0xAB;
        for (size_t i = 0; i < mlen; i += 4096)
            CHECK(mp[i] == 0xAB, "mmap page %u", (unsigned)(i >> 12));
    }
    printf("mmap 0x%08lx %u zero %d\n", (unsigned long)(uintptr_t)mp, (unsigned)mlen, zero);
    CHECK(mp != NULL, "scc_mmap(1 MiB) failed");
    int ur = scc_munmap(mp, mlen);
    uint32_t pte;
    int qr = scc_vmquery(mp, &pte);
    if (qr < 0)
        printf("munmap %d err %d\n", ur, qr);
    else
        printf("munmap %d pte 0x%08lx\n", ur, (unsigned long)pte);
    void *mh = scc_mmap(0x60000000);
    printf("mmap huge 0x%08lx\n", (unsigned long)(uintptr_t)mh);
    printf("heap done\n");
    return 0;
}
