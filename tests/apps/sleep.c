/*
 * sleep, usleep and nanosleep on the SCC (SYS_sleep): each prints how long
 * it took on the GTSC and how much of that the core spent halted
 * (kstat.idle_tsc), so tests/test_kernel.py can check that the time passed
 * and that the core slept through it rather than spinning. Also the
 * errors: a negative or out-of-range time is EINVAL.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>

#include "testlib.h"

static uint64_t gtsc_ns(void)
{
    struct timespec ts;
    CHECK(!clock_gettime(CLOCK_MONOTONIC, &ts), "clock_gettime");
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static uint64_t idle_ns(void)
{
    struct scc_kstat k;
    struct scc_time t;
    CHECK(!scc_kstat(&k) && !scc_time(&t), "kstat");
    return k.idle_tsc * 1000000000u / t.core_hz;
}

/* name, asked ns, then: elapsed ns, halted ns */
static void report(const char *name, uint64_t asked, uint64_t t0, uint64_t i0)
{
    printf("sleep %s asked=%llu took=%llu halted=%llu\n", name, (unsigned long long)asked,
           (unsigned long long)(gtsc_ns() - t0), (unsigned long long)(idle_ns() - i0));
}

int main(void)
{
    uint64_t t0, i0;
    struct timespec ts = { 0, 50000000 };

    usleep(1);          /* the first wait only unmasks LINT0 (kernel/idle.c) */
    t0 = gtsc_ns(), i0 = idle_ns();
    CHECK(usleep(200000) == 0, "usleep");
    report("usleep", 200000000u, t0, i0);
    t0 = gtsc_ns(), i0 = idle_ns();
    CHECK(nanosleep(&ts, NULL) == 0, "nanosleep");
    report("nanosleep", 50000000u, t0, i0);
    t0 = gtsc_ns(), i0 = idle_ns();
    CHECK(sleep(1) == 0, "sleep");
    report("sleep", 1000000000u, t0, i0);
    ts.tv_nsec = 1000000000L;
    printf("sleep einval %d\n", nanosleep(&ts, NULL) == -1 && errno == EINVAL);
    ts.tv_sec = -1, ts.tv_nsec = 0;
    printf("sleep negative %d\n", nanosleep(&ts, NULL) == -1 && errno == EINVAL);
    printf("sleep done\n");
    return 0;
}
