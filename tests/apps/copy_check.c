/*
 * The copy methods and the copy-core service (docs/copy.md), for
 * tests/test_copy.py. Core 0 is the client; the cores in cores= run
 * apps/copy_core.elf (the test's core map says so).
 *
 *   copy_check exact METHOD... [cores=1,2] [max=BYTES]
 *   copy_check refuse [cores=1]
 *   copy_check fault [cores=1]     (the copy core runs with fault=2)
 *   copy_check hang [cores=1] [timeout=US]  (the copy core runs with hang=2)
 *   copy_check third [cores=1] [target=2]
 *
 * exact: for each METHOD (local:plain|mpbt_src|mpbt_dst|mpbt|lut,
 * core:plain|...|lut|auto|shm, split:METHOD, async), copies a pattern
 * over sizes and offsets (unaligned at both ends) and prints
 *   exact METHOD SIZE SOFF DOFF status=S bad=FIRST_WRONG_INDEX_OR_-1 guard=OK|BROKEN
 * refuse: prints "refuse NAME status=S untouched=1|0" per bad request.
 * Requests on the wire grant the copy core what they name, as the client
 * does (docs/copy.md, "Grants"), unless the case is about grants.
 * Every mode prints this core's LUT windows at the start and the end
 * ("client lut ..."), stops the copy cores and exits 0.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scc_copy.h"
#include "testlib.h"

#define GUARD 64
#define FILL 0xA5

static int cores[48], ncores;
static unsigned char *src_buf, *dst_buf;
static size_t buf_size;

static unsigned char pattern(size_t i)
{
    return (unsigned char)(i * 131 + (i >> 9) + 7);
}

static void print_lut(const char *when)
{
    printf("client lut %s", when);
    for (unsigned p = 0x29; p <= 0x2B; p++)
        printf(" %02x=%06lx", p, (unsigned long)scc_lut_read(p));
    printf("\n");
}

static void parse_cores(const char *s)
{
    while (*s && ncores < 48) {
        char *end;
        cores[ncores++] = (int)strtol(s, &end, 10);
        s = *end == ',' ? end + 1 : end;
        if (end == s && *s)
            FAIL("bad cores= list");
    }
}

static int method_of(const char *name)
{
    static const char *names[] = {"plain", "mpbt_src", "mpbt_dst", "mpbt", "lut", "auto"};
    for (int i = 0; i < 6; i++)
        if (!strcmp(name, names[i]))
            return i;
    FAIL("unknown method %s", name);
}

static void *big(size_t n)
{
    void *p = scc_mmap(n);
    CHECK(p, "mmap %zu failed", n);
    return p;
}

/* One copy by the named method; the status. */
static int do_copy(const char *how, void *dst, const void *src, size_t n)
{
    if (!strncmp(how, "local:", 6))
        return scc_copy_local(dst, src, n, method_of(how + 6));
    if (!strncmp(how, "core:", 5))
        return scc_copy(cores[0], dst, src, n, method_of(how + 5));
    if (!strncmp(how, "split:", 6))
        return scc_copy_split(cores, ncores, dst, src, n, method_of(how + 6));
    if (!strcmp(how, "async")) {
        /* Pieces on every core at once, waited for in reverse order, so
         * completions arrive for handles that are not being waited for. */
        struct scc_copy_handle h[48];
        size_t piece = (n + (size_t)ncores - 1) / (size_t)ncores, off = 0;
        int first = 0;
        for (int i = 0; i < ncores; i++) {
            size_t len = off >= n ? 0 : (n - off < piece ? n - off : piece);
            scc_copy_start(&h[i], cores[i], (char *)dst + off, (const char *)src + off,
                           len, SCC_COPY_AUTO);
            off += len;
        }
        for (int i = ncores - 1; i >= 0; i--) {
            int r = scc_copy_wait(&h[i]);
            if (r && !first)
                first = r;
        }
        return first;
    }
    FAIL("unknown method %s", how);
}

static const size_t cases[][3] = {
    /* size, source offset, destination offset (both ends unaligned) */
    {1, 0, 0},          {1, 4095, 4093},     {3, 1, 2},
    {33, 31, 1},        {4095, 1, 0},        {4097, 4093, 5},
    {65541, 7, 4090},   {1048579, 5, 11},    {16777216, 1, 3},
};

static void exact(int argc, char **argv, size_t max)
{
    unsigned char *shm = (unsigned char *)scc_shm();
    size_t shm_size = scc_shm_size();

    buf_size = max + 2 * 4096;
    src_buf = big(buf_size);
    dst_buf = big(buf_size);
    for (size_t i = 0; i < buf_size; i++)
        src_buf[i] = pattern(i);
    for (int a = 2; a < argc; a++) {
        const char *how = argv[a];
        if (strchr(how, '='))
            continue;
        int from_shm = !strcmp(how, "core:shm");
        for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
            size_t n = cases[c][0], so = cases[c][1], dof = cases[c][2];
            const unsigned char *src = src_buf + so;
            if (n > max)
                continue;
            if (from_shm) {
                if (so + n > shm_size)
                    continue;
                for (size_t i = 0; i < so + n; i++)
                    shm[i] = pattern(i);
                src = shm + so;
            }
            unsigned char *dst = dst_buf + GUARD + dof;
            memset(dst - GUARD, FILL, n + 2 * GUARD);
            int st = do_copy(from_shm ? "core:auto" : how, dst, src, n);
            long bad = -1;
            for (size_t i = 0; i < n; i++) {
                if (dst[i] != pattern(so + i)) {
                    bad = (long)i;
                    break;
                }
            }
            int guard = 1;
            for (size_t i = 0; i < GUARD; i++)
                guard &= dst[-1 - (long)i] == FILL && dst[n + i] == FILL;
            printf("exact %s %zu %zu %zu status=%d bad=%ld guard=%s\n", how, n, so, dof, st,
                   bad, guard ? "OK" : "BROKEN");
        }
    }
}

/* A request as sent on the wire, without the client's own checks. The
 * source is granted to core `to` with sprot and the destination with
 * dprot (0: not granted; a range the kernel refuses to grant is not
 * either), for the request's time. */
static int raw_granted(uint32_t dst, uint32_t src, uint32_t n, int method, int target,
                       int sprot, int dprot, int to)
{
    static uint32_t cookie = 0x5000;
    struct scc_copy_req q = {dst, src, n, (uint16_t)target, (uint16_t)method, ++cookie};
    struct scc_copy_handle h = {cores[0], cookie, 0, 0, 0, {0, 0}};
    int gs = sprot ? scc_grant((void *)(uintptr_t)src, n, sprot, to) : 0;
    int gd = dprot ? scc_grant((void *)(uintptr_t)dst, n, dprot, to) : 0;
    int r = scc_mbox_send(cores[0], SCC_COPY_TAG_REQ, &q, sizeof(q));

    r = r < 0 ? r : scc_copy_wait(&h);
    if (gs > 0)
        MUST(scc_revoke(gs));
    if (gd > 0)
        MUST(scc_revoke(gd));
    return r;
}

static int raw(uint32_t dst, uint32_t src, uint32_t n, int method, int target)
{
    return raw_granted(dst, src, n, method, target, SCC_GRANT_READ, SCC_GRANT_RW, cores[0]);
}

static int untouched(const unsigned char *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (p[i] != FILL)
            return 0;
    return 1;
}

static void refuse(void)
{
    /* pat first: mmap takes the lowest free stretch, so nothing follows buf. */
    unsigned char *pat = big(4096), *buf = big(2 * 4096);
    unsigned char *text = (unsigned char *)(uintptr_t)&refuse, text_before[64];
    uint32_t b = (uint32_t)(uintptr_t)buf, p = (uint32_t)(uintptr_t)pat;
    uint32_t me = (uint32_t)scc_core_id();
    struct scc_copy_done d;
    int r;

#define REFUSE(name, call, region, len)                                              \
    do {                                                                             \
        memset(buf, FILL, 2 * 4096);                                                 \
        r = (call);                                                                  \
        printf("refuse %s status=%d untouched=%d\n", name, r, untouched(region, len)); \
    } while (0)

    REFUSE("overlap", raw(b + 100, b, 4096, SCC_COPY_MPBT, me), buf, 2 * 4096);
    REFUSE("same", raw(b, b, 64, SCC_COPY_PLAIN, me), buf, 2 * 4096);
    REFUSE("too_big", raw(b, 0x40000000, SCC_COPY_MAX + 1, SCC_COPY_PLAIN, me), buf, 2 * 4096);
    REFUSE("src_unmapped", raw(b, 0x6F000000, 4096, SCC_COPY_PLAIN, me), buf, 2 * 4096);
    REFUSE("src_kernel", raw(b, 0x00100000, 4096, SCC_COPY_PLAIN, me), buf, 2 * 4096);
    REFUSE("src_mpb", raw(b, (uint32_t)(uintptr_t)scc_mpb_core(0), 64, SCC_COPY_PLAIN, me),
           buf, 2 * 4096);
    REFUSE("src_wraps", raw(b, 0xFFFFF000, 0x2000, SCC_COPY_PLAIN, me), buf, 2 * 4096);
    /* A source unlike FILL, so that a byte written shows. Half of the
     * destination is the app's: none of it may be written. */
    for (int i = 0; i < 4096; i++)
        pat[i] = pattern(i) | 1;
    REFUSE("dst_partly_unmapped", raw(b + 2 * 4096 - 100, p, 200, SCC_COPY_PLAIN, me),
           buf, 2 * 4096);
    REFUSE("bad_method", raw(b + 4096, p, 64, 9, me), buf, 2 * 4096);
    REFUSE("bad_target", raw(b + 4096, p, 64, SCC_COPY_PLAIN, 200), buf, 2 * 4096);
    /* Grants: the requester's consent, checked before any page */
    REFUSE("no_grant", raw_granted(b + 4096, p, 64, SCC_COPY_PLAIN, me, 0, 0, cores[0]),
           buf, 2 * 4096);
    REFUSE("src_not_granted", raw_granted(b + 4096, p, 64, SCC_COPY_PLAIN, me, 0,
                                          SCC_GRANT_RW, cores[0]), buf, 2 * 4096);
    REFUSE("dst_granted_read_only", raw_granted(b + 4096, p, 64, SCC_COPY_MPBT, me,
                                                SCC_GRANT_READ, SCC_GRANT_READ, cores[0]),
           buf, 2 * 4096);
    REFUSE("granted_another_core", raw_granted(b + 4096, p, 64, SCC_COPY_PLAIN, me,
                                               SCC_GRANT_READ, SCC_GRANT_RW,
                                               (cores[0] + 1) % scc_num_cores() == (int)me
                                                   ? (cores[0] + 2) % scc_num_cores()
                                                   : (cores[0] + 1) % scc_num_cores()),
           buf, 2 * 4096);
    {
        /* the destination's grant ends 32 bytes short */
        int gs = MUST(scc_grant(pat, 64, SCC_GRANT_READ, cores[0]));
        int gd = MUST(scc_grant(buf + 4096, 32, SCC_GRANT_RW, cores[0]));
        REFUSE("dst_grant_short", raw_granted(b + 4096, p, 64, SCC_COPY_PLAIN, me, 0, 0,
                                              cores[0]), buf, 2 * 4096);
        MUST(scc_revoke(gs));
        MUST(scc_revoke(gd));
    }
    memcpy(text_before, text, sizeof(text_before));
    r = raw((uint32_t)(uintptr_t)text, p, 64, SCC_COPY_PLAIN, me);
    printf("refuse dst_readonly status=%d untouched=%d\n", r,
           !memcmp(text_before, text, sizeof(text_before)));

    /* Malformed messages: each answered with an error, the core stays up. */
    char junk[5] = "junk";
    MUST(scc_mbox_send(cores[0], SCC_COPY_TAG_REQ, junk, sizeof(junk)));
    MUST(scc_copy_notice(&d, 0));
    printf("refuse short_request status=%d untouched=1\n", (int)d.status);
    MUST(scc_mbox_send(cores[0], 0xC0AF, junk, sizeof(junk)));
    MUST(scc_copy_notice(&d, 0));
    printf("refuse unknown_tag status=%d untouched=1\n", (int)d.status);

    /* Each handle gets its own completion: a refused request, then a good
     * one, to the same core (so they complete in that order), waited for
     * the other way round. */
    struct scc_copy_handle hbad, hok;
    memset(buf, FILL, 2 * 4096);
    scc_copy_start(&hbad, cores[0], buf, (void *)0x6F000000, 64, SCC_COPY_AUTO);
    scc_copy_start(&hok, cores[0], buf + 4096, pat, 4096, SCC_COPY_AUTO);
    int rok = scc_copy_wait(&hok), rbad = scc_copy_wait(&hbad);
    printf("handles ok=%d bad=%d equal=%d\n", rok, rbad, !memcmp(buf + 4096, pat, 4096));

    /* ... and serves the next request. */
    memset(buf, FILL, 2 * 4096);
    for (int i = 0; i < 4096; i++)
        buf[i] = pattern(i);
    r = scc_copy(cores[0], buf + 4096, buf, 4096, SCC_COPY_AUTO);
    printf("after_refusals status=%d equal=%d\n", r, !memcmp(buf, buf + 4096, 4096));
}

/* MPBT marks: set and cleared on the app's pages, refused elsewhere. */
static void marks(void)
{
    unsigned char *buf = big(2 * 4096);
    uint32_t pte0 = 0, pte1 = 0, pte2 = 0;

    buf[0] = 1;
    MUST(scc_copy_mark_mpbt(buf + 100, 4096, 1));   /* covers both pages */
    MUST(scc_vmquery(buf, &pte0));
    MUST(scc_vmquery(buf + 4096, &pte1));
    int on = (pte0 & SCC_PTE_MPBT) && (pte1 & SCC_PTE_MPBT) && buf[0] == 1;
    MUST(scc_copy_mark_mpbt(buf, 2 * 4096, 0));
    MUST(scc_vmquery(buf, &pte2));
    printf("marks on=%d off=%d kernel=%d zero=%d shm=%d\n", on, !(pte2 & SCC_PTE_MPBT),
           scc_copy_mark_mpbt((void *)0x00100000, 4096, 1),
           scc_copy_mark_mpbt(buf, 0, 1),
           scc_copy_mark_mpbt((void *)scc_shm(), 4096, 1));
}

static void fault(void)
{
    unsigned char *buf = big(2 * 4096);
    int r1 = scc_copy(cores[0], buf + 4096, buf, 4096, SCC_COPY_AUTO);
    int r2 = scc_copy(cores[0], buf + 4096, buf, 4096, SCC_COPY_AUTO);
    printf("fault first=%d second=%d\n", r1, r2);
}

/* The second request is never answered: the wait gives up after timeout
 * microseconds (and as many a MiB). */
static void hang(uint32_t timeout)
{
    unsigned char *buf = big(2 * 4096);

    scc_copy_set_timeout(timeout, timeout);
    int r1 = scc_copy(cores[0], buf + 4096, buf, 4096, SCC_COPY_AUTO);
    int r2 = scc_copy(cores[0], buf + 4096, buf, 4096, SCC_COPY_AUTO);
    printf("hang first=%d second=%d\n", r1, r2);
}

static void third(int target)
{
    unsigned char *buf = big(2 * 4096);
    struct scc_copy_done d;

    for (int i = 0; i < 4096; i++)
        buf[i] = pattern(i);
    memset(buf + 4096, FILL, 4096);
    /* scc_copy_post grants nothing: the requester does, for both posts
     * (the second's source is unmapped: the page check refuses it) */
    int g[3] = {
        MUST(scc_grant(buf, 4096, SCC_GRANT_READ, cores[0])),
        MUST(scc_grant(buf + 4096, 4096, SCC_GRANT_RW, cores[0])),
        MUST(scc_grant((void *)0x6F000000, 64, SCC_GRANT_READ, cores[0])),
    };
    MUST(scc_copy_post(cores[0], buf + 4096, buf, 4096, SCC_COPY_AUTO, target, 77));
    /* An error comes back here too; the copy core serves in order, so
     * once it is here the first copy is done. */
    MUST(scc_copy_post(cores[0], buf + 4096, (void *)0x6F000000, 64, SCC_COPY_AUTO, target, 78));
    MUST(scc_copy_notice(&d, 0));
    for (int i = 0; i < 3; i++)
        MUST(scc_revoke(g[i]));
    printf("third requester cookie=%u status=%d equal=%d\n", (unsigned)d.cookie,
           (int)d.status, !memcmp(buf, buf + 4096, 4096));
}

static void target_side(void)
{
    struct scc_copy_done d;

    for (int i = 0; i < 2; i++) {
        MUST(scc_copy_notice(&d, 0));
        printf("third target cookie=%u status=%d requester=%u copier=%u size=%u\n",
               (unsigned)d.cookie, (int)d.status, d.requester, d.copier, (unsigned)d.size);
    }
}

int main(int argc, char **argv)
{
    CHECK(argc >= 2, "usage: copy_check MODE ...");
    const char *mode = argv[1];
    long target = arg_long(argc, argv, "target", 2);
    size_t max = (size_t)arg_long(argc, argv, "max", 16 << 20);

    for (int i = 2; i < argc; i++)
        if (!strncmp(argv[i], "cores=", 6))
            parse_cores(argv[i] + 6);
    if (!ncores)
        parse_cores("1");
    if (!strcmp(mode, "third") && scc_core_id() == target) {
        target_side();
        return 0;
    }
    print_lut("start");
    if (!strcmp(mode, "exact"))
        exact(argc, argv, max);
    else if (!strcmp(mode, "refuse")) {
        refuse();
        marks();
    }
    else if (!strcmp(mode, "fault"))
        fault();
    else if (!strcmp(mode, "hang"))
        hang((uint32_t)arg_long(argc, argv, "timeout", 20000));
    else if (!strcmp(mode, "third"))
        third((int)target);
    else
        FAIL("unknown mode %s", mode);
    print_lut("end");
    for (int i = 0; i < ncores; i++)
        scc_copy_stop(cores[i]);
    return 0;
}
