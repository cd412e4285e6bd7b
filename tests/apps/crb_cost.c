/*
 * What crb=isolated costs the paths RCCE takes through the CRB, in core
 * cycles (modeled SCC time under tools/scc-run --timing; host speed
 * otherwise): a T&S register taken and freed, and an IPI sent, through
 * the system calls (what libscc does without the CRB page) and through
 * the registers themselves (with it). docs/kernel.md has the numbers.
 *
 *   crb_cost [n=N] [peer=P]        on cores 0 and P (default 47)
 *
 * Core 0 measures; core P sleeps in the kernel, woken by the IPIs. Each
 * kind is timed N times (default 200) with the TSC around one operation;
 * the first tenth are dropped. Rows on core 0:
 *
 *   crb_cost,PATH,TARGET,KIND,n,median,min,max,clock
 *
 * PATH syscall or raw; TARGET own (this core's register) or peer;
 * KIND lock (try that takes it, then the release), try_held (a try that
 * finds it held), ipi (send; the raw pulse waits for the pin to be low,
 * as the kernel's does). clock is modeled or emulated.
 */
#include <string.h>

#include "testlib.h"

#define MAXN 4096
#define DONE 3          /* atomic counter: core 0 is done */

static uint32_t t[MAXN];
static int n;

static inline uint32_t tsc(void)
{
    uint32_t lo, hi;
    __asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi));
    return lo;
}

static int cmp(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

static void row(const char *path, const char *target, const char *kind)
{
    int skip = n / 10, m = n - skip;

    qsort(t + skip, m, sizeof t[0], cmp);
    printf("crb_cost,%s,%s,%s,%d,%lu,%lu,%lu,%s\n", path, target, kind, m,
           (unsigned long)t[skip + m / 2], (unsigned long)t[skip],
           (unsigned long)t[n - 1], scc_timing() & TIMING_ON ? "modeled" : "emulated");
}

static volatile uint32_t *lock_reg(int core)
{
    return scc_crb_reg(scc_tile_of(core), CRB_LOCK(core % 2));
}

static void locks(int raw, int core, const char *target)
{
    const char *path = raw ? "raw" : "syscall";
    volatile uint32_t *r = lock_reg(core);
    uint32_t t0, got;

    for (int i = 0; i < n; i++) {
        t0 = tsc();
        got = raw ? (*r & 1) : (uint32_t)scc_lock_try(core);
        if (raw)
            *r = 0;
        else
            scc_lock_release(core);
        t[i] = tsc() - t0;
        CHECK(got == 1, "%s lock of core %d held", path, core);
    }
    row(path, target, "lock");
    got = raw ? (*r & 1) : (uint32_t)scc_lock_try(core);
    CHECK(got == 1, "lock");
    for (int i = 0; i < n; i++) {
        t0 = tsc();
        got = raw ? (*r & 1) : (uint32_t)scc_lock_try(core);
        t[i] = tsc() - t0;
        CHECK(got == 0, "held lock taken");
    }
    if (raw)
        *r = 0;
    else
        scc_lock_release(core);
    row(path, target, "try_held");
}

static void ipis(int raw, int peer)
{
    volatile uint32_t *g = scc_crb_reg(scc_tile_of(peer), CRB_GLCFG(peer % 2));
    uint32_t t0, v;

    for (int i = 0; i < n; i++) {
        t0 = tsc();
        if (raw) {
            while ((v = *g) & GLCFG_INTR)
                ;
            *g = v | GLCFG_INTR;
            *g = v;
        } else {
            MUST(scc_ipi(peer));
        }
        t[i] = tsc() - t0;
        spin_gtsc(50);      /* the peer's trap is over before the next */
    }
    row(raw ? "raw" : "syscall", "peer", "ipi");
}

int main(int argc, char **argv)
{
    int me = scc_core_id();
    int peer = arg_long(argc, argv, "peer", 47);

    n = arg_long(argc, argv, "n", 200);
    CHECK(n >= 10 && n <= MAXN, "n=%d", n);
    if (me == peer) {
        unsigned seen = scc_intr_count();       /* listen (timing mode) */
        scc_atomic_inc(0);
        while (!scc_atomic_read(DONE))
            seen = scc_halt_since(seen);
        return 0;
    }
    if (me != 0)
        return 0;
    while (scc_atomic_read(0) < 1)
        spin_gtsc(100);
    printf("crb_cost,path,target,kind,n,median,min,max,clock\n");
    locks(0, 0, "own");
    locks(0, peer, "peer");
    ipis(0, peer);
    int r = scc_crb_raw(1);
    if (r < 0) {
        printf("# no raw access (scc_crb_raw %d)\n", r);
    } else {
        locks(1, 0, "own");
        locks(1, peer, "peer");
        ipis(1, peer);
    }
    scc_atomic_set(DONE, 1);
    MUST(scc_ipi(peer));
    return 0;
}
