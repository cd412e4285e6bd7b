/*
 * Grants (SYS_grant, SYS_revoke; scc_grant in scc_copy.h): a core reads
 * another's memory (SYS_peer_read) only as far as its owner granted it.
 * Run on two cores, `owner=ID reader=ID other=ID` (other: a third core,
 * which need not run). tests/test_grant.py holds the expectations.
 *
 * The owner fills two MPBT pages (and 1 MiB more) with a pattern, then
 * for each step sets up its grants, tells the reader the step over the
 * mailbox and waits for its answer. The reader makes the step's reads and
 * prints for each
 *   "STEP status=S data=OK|BAD|UNTOUCHED|ZERO|MIXED"
 * (OK: the owner's bytes; UNTOUCHED: the destination as it was before;
 * ZERO: all zeros). In step "during" the owner revokes its grant of the
 * 1 MiB while the reader reads them (after spinning during= GTSC ticks):
 * the read either ended before (0, OK) or fails whole (-EPERM, ZERO).
 * The owner then tries the calls that must be refused and prints
 *   "api NAME R"
 * after "owner buf 0xADDR big 0xADDR" (where its buffers are), and
 * "grant done" at the end (both cores).
 */
#include <stdint.h>

#include "scc_copy.h"
#include "testlib.h"

#define LEN (2 * 4096)
#define BIG (1u << 20)
#define FILL 0x5A

enum { NONE, READ, OTHER, ANY, CORES, RW, REVOKED, BEYOND, SPLIT, DURING, END };
static const char *const step_name[] = {
    "none", "read", "other", "any", "cores", "rw", "revoked", "beyond", "split", "during",
    "end",
};

static unsigned char pat(size_t i)
{
    return (unsigned char)(i * 11 + 3 + (i >> 8));
}

static void send(int to, uint32_t a, uint32_t b)
{
    uint32_t w[2] = {a, b};

    MUST(scc_mbox_send(to, 1, w, sizeof w));
}

static void recv(int from, uint32_t *a, uint32_t *b)
{
    struct scc_msg m;

    MUST(scc_mbox_recv(&m, 0));
    CHECK(m.source == from && m.size == 8, "message from %d, %u bytes", m.source,
          (unsigned)m.size);
    *a = ((uint32_t *)m.payload)[0];
    *b = ((uint32_t *)m.payload)[1];
}

/* One read of the owner's [off, off + n) into dst (filled with FILL
 * before, unless filled); its line. */
static void one_filled(const char *step, int owner, unsigned char *dst, uint32_t buf,
                       size_t off, size_t n, int filled)
{
    int ok = 1, same = 1, zero = 1;

    if (!filled)
        memset(dst, FILL, n);
    int r = scc_peer_read(owner, dst, (const void *)(uintptr_t)(buf + off), n);
    for (size_t i = 0; i < n; i++) {
        ok &= dst[i] == pat(off + i);
        same &= dst[i] == FILL;
        zero &= dst[i] == 0;
    }
    printf("%s status=%d data=%s\n", step, r,
           ok ? "OK" : same ? "UNTOUCHED" : zero ? "ZERO" : r ? "MIXED" : "BAD");
}

static void one(const char *step, int owner, unsigned char *dst, uint32_t buf, size_t off,
                size_t n)
{
    one_filled(step, owner, dst, buf, off, n, 0);
}

static void reader(int owner)
{
    unsigned char *dst = scc_mmap(BIG);
    uint32_t step, buf;

    CHECK(dst, "scc_mmap");
    for (;;) {
        recv(owner, &step, &buf);
        if (step == END)
            break;
        const char *name = step_name[step];
        switch (step) {
        case BEYOND:
            /* the grant is [buf + 64, buf + 4096) */
            one("beyond_end", owner, dst, buf, 4000, 200);
            one("beyond_start", owner, dst, buf, 0, 128);
            one("beyond_inside", owner, dst, buf, 64, 4096 - 64);
            break;
        case SPLIT:
            /* two grants, [buf, +4096) and [buf + 4096, +4096): one
             * grant must hold the whole range */
            one("split_across", owner, dst, buf, 4000, 200);
            one("split_first", owner, dst, buf, 100, 3000);
            break;
        case DURING:
            /* the owner's clock starts when the read is about to */
            memset(dst, FILL, BIG);
            send(owner, step, 0);
            one_filled(name, owner, dst, buf, 0, BIG, 1);
            break;
        default:
            one(name, owner, dst, buf, 100, 5000);
            break;
        }
        send(owner, step, 0);
    }
}

static void api(const char *name, long r)
{
    printf("api %s %ld\n", name, r);
}

static void owner_side(int rd, int other, long during)
{
    unsigned char *buf = scc_mmap(LEN), *big = scc_mmap(BIG);
    uint32_t b = (uint32_t)(uintptr_t)buf, s, x;
    int g[2], ids[SCC_GRANT_MAX + 1];

    CHECK(buf && big, "scc_mmap");
    MUST(scc_copy_mark_mpbt(buf, LEN, 1));
    MUST(scc_copy_mark_mpbt(big, BIG, 1));
    for (size_t i = 0; i < LEN; i++)
        buf[i] = pat(i);
    for (size_t i = 0; i < BIG; i++)
        big[i] = pat(i);
    (void)scc_gtsc();   /* the write-combine buffer's last line out */
    printf("owner buf 0x%08lx big 0x%08lx\n", (unsigned long)b, (unsigned long)(uintptr_t)big);

    for (uint32_t step = NONE; step < END; step++) {
        g[0] = g[1] = 0;
        switch (step) {
        case READ:
            g[0] = MUST(scc_grant(buf, LEN, SCC_GRANT_READ, rd));
            break;
        case OTHER:
            g[0] = MUST(scc_grant(buf, LEN, SCC_GRANT_READ, other));
            break;
        case ANY:
            g[0] = MUST(scc_grant(buf, LEN, SCC_GRANT_READ, SCC_GRANT_ANY));
            break;
        case CORES:
            g[0] = MUST(scc_grant_cores(buf, LEN, SCC_GRANT_READ,
                                        (uint64_t)1 << other | (uint64_t)1 << rd));
            break;
        case RW:
            g[0] = MUST(scc_grant(buf, LEN, SCC_GRANT_RW, rd));
            break;
        case REVOKED:
            MUST(scc_revoke(MUST(scc_grant(buf, LEN, SCC_GRANT_READ, rd))));
            break;
        case BEYOND:
            g[0] = MUST(scc_grant(buf + 64, 4096 - 64, SCC_GRANT_READ, rd));
            break;
        case SPLIT:
            g[0] = MUST(scc_grant(buf, 4096, SCC_GRANT_READ, rd));
            g[1] = MUST(scc_grant(buf + 4096, 4096, SCC_GRANT_READ, rd));
            break;
        }
        if (step == DURING) {
            g[0] = MUST(scc_grant(big, BIG, SCC_GRANT_READ, rd));
            send(rd, step, (uint32_t)(uintptr_t)big);
            recv(rd, &s, &x);
            spin_gtsc((uint64_t)during);
            MUST(scc_revoke(g[0]));
            g[0] = 0;
        } else {
            send(rd, step, b);
        }
        recv(rd, &s, &x);
        CHECK(s == step, "reader answered step %u for %u", (unsigned)s, (unsigned)step);
        for (int i = 0; i < 2; i++)
            if (g[i])
                MUST(scc_revoke(g[i]));
    }
    send(rd, END, 0);

    /* what the owner may not grant, and ids it does not hold */
    api("len0", scc_grant(buf, 0, SCC_GRANT_READ, rd));
    api("prot0", scc_grant(buf, 64, 0, rd));
    api("prot_write_only", scc_grant(buf, 64, 2, rd));
    api("prot7", scc_grant(buf, 64, 7, rd));
    api("core_beyond", scc_grant(buf, 64, SCC_GRANT_READ, scc_num_cores()));
    api("core_negative", scc_grant(buf, 64, SCC_GRANT_READ, -2));
    api("mask_empty", scc_grant_cores(buf, 64, SCC_GRANT_READ, 0));
    api("mask_beyond", scc_grant_cores(buf, 64, SCC_GRANT_READ, (uint64_t)1 << 60 | 1));
    api("kernel", scc_grant((void *)0x1000, 64, SCC_GRANT_READ, rd));
    api("mpb", scc_grant(scc_mpb_core(0), 64, SCC_GRANT_READ, rd));
    api("wraps", scc_grant((void *)0xFFFFF000u, 0x2000, SCC_GRANT_READ, rd));
    api("user_to_shared", scc_grant((void *)0x7FFFF000u, 0x2000, SCC_GRANT_READ, rd));
    int shm = scc_grant(scc_shm(), 4096, SCC_GRANT_RW, rd);
    api("shm", shm > 0);
    api("revoke_shm", scc_revoke(shm));
    api("revoke_again", scc_revoke(shm));
    api("revoke_zero", scc_revoke(0));
    api("revoke_negative", scc_revoke(-5));
    api("revoke_bogus", scc_revoke(0x12345));

    /* the table: SCC_GRANT_MAX grants, then -ENOMEM; all revoked, room
     * again, and the old ids revoke nothing */
    int n = 0, r;
    while (n <= SCC_GRANT_MAX && (r = scc_grant(buf, 64, SCC_GRANT_READ, rd)) > 0)
        ids[n++] = r;
    api("held", n);
    api("full", r);
    int bad = 0;
    for (int i = 0; i < n; i++)
        bad |= scc_revoke(ids[i]) != 0;
    api("revoked_all", bad);
    int again = scc_grant(buf, 64, SCC_GRANT_READ, rd);
    api("again", again > 0);
    api("stale", scc_revoke(ids[0]));
    api("revoke_again_ok", scc_revoke(again));
}

int main(int argc, char **argv)
{
    int own = (int)arg_long(argc, argv, "owner", -1), rd = (int)arg_long(argc, argv, "reader", -1);
    int other = (int)arg_long(argc, argv, "other", -1), me = scc_core_id();
    long during = arg_long(argc, argv, "during", 125000);

    CHECK(own >= 0 && rd >= 0 && other >= 0 && own != rd && other != own && other != rd &&
              (me == own || me == rd),
          "want owner=ID reader=ID other=ID, the first two the cores this runs on");
    if (me == own)
        owner_side(rd, other, during);
    else
        reader(own);
    printf("grant done\n");
    return 0;
}
