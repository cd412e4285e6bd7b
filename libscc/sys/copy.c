/*
 * The copy client (scc_copy.h): local copies by method, and requests to
 * copy cores over the kernel mailbox.
 *
 * Completions may arrive in any order and for any handle, and other
 * protocols' messages may arrive in between: whatever the waiting handle
 * does not need is kept (completions until their handle asks, other
 * messages for scc_copy_other), so nothing received is lost.
 */
#include <stdio.h>
#include <string.h>

#include "scc_copy.h"

#define KEEP 64

static struct scc_copy_done dones[KEEP];
static int ndones;
static struct scc_msg others[KEEP];
static int nothers, other_head;
static uint32_t next_cookie = 1;
static uint32_t timeout_base_us = 1000000, timeout_us_per_mib = 1000000;

/*
 * What this program has marked MPBT, whole pages (a table: a copy asks
 * with scc_mpbt_covers). Past SCC_MPBT_RANGES ranges a mark is not
 * recorded, and a copy into it reads its lines first as into plain
 * memory: slower, never wrong.
 */
#define SCC_MPBT_RANGES 8
static struct {
    uintptr_t lo, hi;
} mpbt_range[SCC_MPBT_RANGES];
int scc_mpbt_nranges;

int scc_copy_mark_mpbt(void *addr, size_t len, int on)
{
    uintptr_t lo = (uintptr_t)addr & ~(uintptr_t)4095, hi = (uintptr_t)addr + len;
    int r = (int)scc_syscall(SYS_copy_mpbt, (long)addr, (long)len, on, 0, 0), i;

    if (r || !len)
        return r;
    hi = (hi + 4095) & ~(uintptr_t)4095;
    for (i = 0; i < scc_mpbt_nranges; i++) {
        if (mpbt_range[i].lo < hi && lo < mpbt_range[i].hi) {
            /* unmarked, or marked again: the old range goes */
            mpbt_range[i--] = mpbt_range[--scc_mpbt_nranges];
        }
    }
    if (on && scc_mpbt_nranges < SCC_MPBT_RANGES) {
        mpbt_range[scc_mpbt_nranges].lo = lo;
        mpbt_range[scc_mpbt_nranges++].hi = hi;
    }
    return 0;
}

int scc_mpbt_covers(const void *addr, size_t len)
{
    uintptr_t a = (uintptr_t)addr;
    int i;

    for (i = 0; i < scc_mpbt_nranges; i++)
        if (mpbt_range[i].lo <= a && len <= mpbt_range[i].hi - a)
            return 1;
    return 0;
}

long scc_lut_read(unsigned page)
{
    return scc_syscall(SYS_lut_read, (long)page, 0, 0, 0, 0);
}

int scc_peer_read(int core, void *dst, const void *src, size_t n)
{
    return (int)scc_syscall(SYS_peer_read, core, (long)dst, (long)src, (long)n, 0);
}

int scc_grant_cores(const volatile void *addr, size_t len, int prot, uint64_t cores)
{
    return (int)scc_syscall(SYS_grant, (long)addr, (long)len, prot, (long)(uint32_t)cores,
                            (long)(uint32_t)(cores >> 32));
}

int scc_grant(const volatile void *addr, size_t len, int prot, int core)
{
    if (core == SCC_GRANT_ANY)
        return scc_grant_cores(addr, len, prot, ~(uint64_t)0);
    if (core < 0 || core >= 64)
        return -SCC_EINVAL;
    return scc_grant_cores(addr, len, prot, (uint64_t)1 << core);
}

int scc_revoke(int id)
{
    return (int)scc_syscall(SYS_revoke, id, 0, 0, 0, 0);
}

/* An uncached access sends the write-combine buffer's line out. */
static void wcb_flush(void)
{
    (void)scc_gtsc_lo();
}

int scc_copy_local(void *dst, const void *src, size_t n, int method)
{
    int r, mark_src, mark_dst;

    if (method < SCC_COPY_PLAIN || method > SCC_COPY_LUT)
        return -SCC_EINVAL;
    if (n == 0)
        return 0;
    if ((uintptr_t)src + n < (uintptr_t)src || (uintptr_t)dst + n < (uintptr_t)dst)
        return -SCC_EFAULT;
    if ((uintptr_t)src < (uintptr_t)dst + n && (uintptr_t)dst < (uintptr_t)src + n)
        return -SCC_EINVAL;
    if (method == SCC_COPY_LUT)
        return (int)scc_syscall(SYS_copy_lut, (long)dst, (long)src, (long)n, 0, 0);
    if (method == SCC_COPY_PLAIN) {
        scc_word_copy(dst, src, n);
        return 0;
    }
    mark_src = method & SCC_COPY_MPBT_SRC;
    mark_dst = method & SCC_COPY_MPBT_DST;
    if (mark_src && (r = scc_copy_mark_mpbt((void *)src, n, 1)))
        return r;
    if (mark_dst && (r = scc_copy_mark_mpbt(dst, n, 1))) {
        if (mark_src)
            scc_copy_mark_mpbt((void *)src, n, 0);
        return r;
    }
    scc_cl1invmb();
    scc_word_copy(dst, src, n);
    wcb_flush();
    /* The pages were checked when marked: unmarking cannot fail. */
    if (mark_src)
        scc_copy_mark_mpbt((void *)src, n, 0);
    if (mark_dst)
        scc_copy_mark_mpbt(dst, n, 0);
    return 0;
}

/* --- requests ----------------------------------------------------------------- */

static int send_req(int core, void *dst, const void *src, size_t n, int method,
                    int target, uint32_t cookie)
{
    struct scc_copy_req q;

    if (method < SCC_COPY_PLAIN || method > SCC_COPY_AUTO || n > SCC_COPY_MAX ||
        target < 0 || target >= scc_num_cores())
        return -SCC_EINVAL;
    q.dst = (uint32_t)(uintptr_t)dst;
    q.src = (uint32_t)(uintptr_t)src;
    q.size = (uint32_t)n;
    q.target = (uint16_t)target;
    q.method = (uint16_t)method;
    q.cookie = cookie;
    return scc_mbox_send(core, SCC_COPY_TAG_REQ, &q, sizeof(q));
}

int scc_copy_post(int core, void *dst, const void *src, size_t n, int method,
                  int target, uint32_t cookie)
{
    return send_req(core, dst, src, n, method, target, cookie);
}

/* The handle is done: its status is final and the copy core's grants end
 * (it answers only once it has stopped touching the buffers). */
static void finish(struct scc_copy_handle *h, int status)
{
    h->status = status;
    h->done = 1;
    for (int i = 0; i < 2; i++) {
        if (h->grant[i] > 0)
            scc_revoke(h->grant[i]);
        h->grant[i] = 0;
    }
}

int scc_copy_start(struct scc_copy_handle *h, int core, void *dst,
                   const void *src, size_t n, int method)
{
    int r = 0;

    h->core = core;
    h->cookie = next_cookie++;
    h->done = 0;
    h->status = 0;
    h->size = n;
    h->grant[0] = h->grant[1] = 0;
    /* Nothing to grant for an empty copy (nor for a core that cannot be a
     * copy core: the request's own checks answer that). */
    if (n > 0 && core >= 0 && core < scc_num_cores() && core != scc_core_id() &&
        ((r = h->grant[0] = scc_grant(src, n, SCC_GRANT_READ, core)) < 0 ||
         (r = h->grant[1] = scc_grant(dst, n, SCC_GRANT_RW, core)) < 0)) {
        finish(h, r);
        return r;
    }
    if ((r = send_req(core, dst, src, n, method, scc_core_id(), h->cookie)) < 0)
        finish(h, r);
    return r;
}

/* Take one message if there is one: 1 if it was a completion (kept). */
static int take_one(void)
{
    struct scc_msg m;

    if (scc_mbox_recv(&m, SCC_MBOX_NONBLOCK) < 0)
        return -1;
    if (m.tag == SCC_COPY_TAG_DONE && m.size == sizeof(struct scc_copy_done) &&
        ndones < KEEP) {
        memcpy(&dones[ndones++], m.payload, sizeof(struct scc_copy_done));
        return 1;
    }
    if (nothers < KEEP) {
        others[(other_head + nothers) % KEEP] = m;
        nothers++;
    } else {
        printf("copy client: core %02d: message tag %u from %u dropped (keep full)\n",
               scc_core_id(), m.tag, m.source);
    }
    return 0;
}

static int claim(struct scc_copy_handle *h)
{
    int i;

    for (i = 0; i < ndones; i++) {
        if (dones[i].cookie == h->cookie && dones[i].copier == h->core) {
            finish(h, dones[i].status);
            dones[i] = dones[--ndones];
            return 1;
        }
    }
    return 0;
}

int scc_copy_test(struct scc_copy_handle *h)
{
    if (h->done || claim(h))
        return 1;
    while (take_one() >= 0)
        if (claim(h))
            return 1;
    /* No answer yet: one that was sent before the copy core stopped is
     * in the ring already, so look once more after seeing it stopped. */
    if (scc_core_state(h->core) != CORE_STATE_RUNNING) {
        while (take_one() >= 0)
            if (claim(h))
                return 1;
        finish(h, -SCC_ESRCH);
        return 1;
    }
    return 0;
}

void scc_copy_set_timeout(uint32_t base_us, uint32_t us_per_mib)
{
    timeout_base_us = base_us;
    timeout_us_per_mib = us_per_mib;
}

/* The GTSC value by which a request of n bytes must be answered, from now;
 * 0 for none. Read only once a wait finds no answer: a requester that
 * would sleep anyway spends the time, one whose answer is there does not. */
static uint64_t deadline(size_t n)
{
    static uint64_t gtsc_hz;
    uint64_t us;
    struct scc_time t;

    if (!timeout_base_us)
        return 0;
    if (!gtsc_hz)
        gtsc_hz = scc_time(&t) == 0 && t.gtsc_hz ? t.gtsc_hz : 125000000;
    us = timeout_base_us + (uint64_t)n * timeout_us_per_mib / (1u << 20);
    return scc_gtsc() + us / 1000000 * gtsc_hz + us % 1000000 * gtsc_hz / 1000000;
}

/* Asleep in the kernel between looks (SYS_copy_wait): a spinning waiter
 * would take the host's time from the copy cores it waits for. */
int scc_copy_wait(struct scc_copy_handle *h)
{
    uint64_t by = 0;
    long r;

    while (!scc_copy_test(h)) {
        if (!by)
            by = deadline(h->size);
        r = scc_syscall(SYS_copy_wait, h->core, (long)(uint32_t)by,
                        (long)(uint32_t)(by >> 32), 0, 0);
        if (r == -SCC_ETIMEDOUT)
            finish(h, (int)r);
    }
    return h->status;
}

int scc_copy(int core, void *dst, const void *src, size_t n, int method)
{
    struct scc_copy_handle h;

    scc_copy_start(&h, core, dst, src, n, method);
    return scc_copy_wait(&h);
}

int scc_copy_split(const int *cores, int ncores, void *dst, const void *src,
                   size_t n, int method)
{
    struct scc_copy_handle h[48];
    size_t piece, off = 0, len;
    int i, r, first = 0;

    if (ncores < 1 || ncores > 48)
        return -SCC_EINVAL;
    /* Whole 32-byte lines per piece, so no two cores write one line. */
    piece = ((n + (size_t)ncores - 1) / (size_t)ncores + 31) & ~(size_t)31;
    for (i = 0; i < ncores; i++) {
        len = off >= n ? 0 : (n - off < piece ? n - off : piece);
        scc_copy_start(&h[i], cores[i], (char *)dst + off, (const char *)src + off,
                       len, method);
        off += len;
    }
    for (i = 0; i < ncores; i++)
        if ((r = scc_copy_wait(&h[i])) && !first)
            first = r;
    return first;
}

int scc_copy_notice(struct scc_copy_done *out, int flags)
{
    struct scc_msg m;
    int r;

    if (ndones > 0) {
        *out = dones[--ndones];
        return 0;
    }
    for (;;) {
        if ((r = scc_mbox_recv(&m, flags)) < 0)
            return r;
        if (m.tag == SCC_COPY_TAG_DONE && m.size == sizeof(*out)) {
            memcpy(out, m.payload, sizeof(*out));
            return 0;
        }
        if (nothers < KEEP) {
            others[(other_head + nothers) % KEEP] = m;
            nothers++;
        }
    }
}

int scc_copy_stop(int core)
{
    return scc_mbox_send(core, SCC_COPY_TAG_STOP, NULL, 0);
}

int scc_copy_other(struct scc_msg *out)
{
    if (nothers == 0)
        return 0;
    *out = others[other_head];
    other_head = (other_head + 1) % KEEP;
    nothers--;
    return 1;
}
