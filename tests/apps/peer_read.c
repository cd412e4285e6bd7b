/*
 * SYS_peer_read (scc_peer_read): one core reads another's user memory
 * from DRAM. Run on the two cores `a=ID b=ID`. Each core
 * fills three pages of its own (mapped MPBT, so that the stores reach
 * DRAM) with a pattern of its id, grants the other core read of them (and
 * of the unmapped page after its second buffer, for src_tail: a grant is
 * not a mapping), tells the other over the mailbox, reads
 * a stretch of the other's that crosses a page boundary at odd offsets,
 * and checks it against the other's pattern; then the calls that must be
 * refused. Both run the same program and map the same pages in the same
 * order, so the other's buffer is at the same address as this one's
 * (checked with the address each sends). tests/test_kernel.py holds the
 * expectations.
 *
 * Lines:
 *   "read plain|mpbt OK|BAD"  5000 bytes from offset 100 into a plain /
 *                             an MPBT destination
 *   "NAME ERR"                a refused call and its result
 *   "untouched yes|no"        the destination after a refused call
 */
#include <stdint.h>

#include "scc_copy.h"
#include "testlib.h"

#define LEN (3 * 4096)
#define OFF 100
#define N 5000

static unsigned char pat(int core, size_t i)
{
    return (unsigned char)(i * 7 + (size_t)core * 13 + (i >> 8));
}

static void exchange(int peer, uint32_t word)
{
    struct scc_msg m;

    MUST(scc_mbox_send(peer, 1, &word, sizeof word));
    MUST(scc_mbox_recv(&m, 0));
    CHECK(m.source == peer && m.size == sizeof word, "message from %d", m.source);
    CHECK(*(uint32_t *)m.payload == word, "peer's buffer at %#lx, mine at %#lx",
          (unsigned long)*(uint32_t *)m.payload, (unsigned long)word);
}

static void read_into(const char *name, int peer, unsigned char *dst, const unsigned char *src)
{
    int ok;

    memset(dst, 0, N);
    MUST(scc_peer_read(peer, dst, src + OFF, N));
    ok = 1;
    for (size_t i = 0; i < N; i++)
        ok &= dst[i] == pat(peer, OFF + i);
    printf("read %s %s\n", name, ok ? "OK" : "BAD");
}

int main(int argc, char **argv)
{
    struct scc_info info;
    int a = (int)arg_long(argc, argv, "a", -1), b = (int)arg_long(argc, argv, "b", -1), peer;
    unsigned char *mine = scc_mmap(LEN), *plain = scc_mmap(LEN), *mpbt = scc_mmap(LEN);

    MUST(scc_info(&info));
    peer = (int)info.core_id == a ? b : a;
    CHECK(a >= 0 && b >= 0 && a != b && ((int)info.core_id == a || (int)info.core_id == b),
          "want a=ID b=ID, the two cores this runs on");
    CHECK(mine && plain && mpbt, "scc_mmap");
    MUST(scc_copy_mark_mpbt(mine, LEN, 1));
    MUST(scc_copy_mark_mpbt(mpbt, LEN, 1));
    for (size_t i = 0; i < LEN; i++)
        mine[i] = pat((int)info.core_id, i);
    /* an uncached access sends the write-combine buffer's last line out */
    (void)scc_gtsc();
    MUST(scc_grant(mine, LEN, SCC_GRANT_READ, peer));
    MUST(scc_grant(mpbt, LEN + 4096, SCC_GRANT_READ, peer));
    exchange(peer, (uint32_t)(uintptr_t)mine);

    read_into("plain", peer, plain, mine);
    read_into("mpbt", peer, mpbt, mine);

    memset(plain, 0xAA, N);
    printf("self %d\n", scc_peer_read((int)info.core_id, plain, mine, 64));
    printf("beyond %d\n", scc_peer_read(48, plain, mine, 64));
    int idle = 0;
    while (idle == a || idle == b)
        idle++;
    printf("idle %d\n", scc_peer_read(idle, plain, mine, 64));
    printf("toolarge %d\n", scc_peer_read(peer, plain, mine, (64u << 20) + 1));
    /* the source's last page is not mapped: nothing is written */
    printf("src_tail %d\n", scc_peer_read(peer, plain, mpbt + LEN - 64, 128));
    printf("src_kernel %d\n", scc_peer_read(peer, plain, (void *)0x1000, 64));
    printf("dst_text %d\n", scc_peer_read(peer, (void *)(uintptr_t)main, mine, 64));
    printf("dst_kernel %d\n", scc_peer_read(peer, (void *)0x1000, mine, 64));
    int same = 1;
    for (size_t i = 0; i < N; i++)
        same &= plain[i] == 0xAA;
    printf("untouched %s\n", same ? "yes" : "no");

    /* the other core must not exit while this one may still read */
    exchange(peer, (uint32_t)(uintptr_t)mine);
    printf("peer_read done\n");
    return 0;
}
