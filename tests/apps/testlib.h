/*
 * Helpers shared by the kernel's test applications (tests/apps/NAME.c, run by
 * tests/test_kernel.py). The apps print facts; the Python side holds the
 * expectations. A check that fails inside an app prints a line starting
 * with "FAIL" and exits 1.
 */
#ifndef TESTLIB_H
#define TESTLIB_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scc.h"

#define FAIL(...)                                                                  \
    do {                                                                           \
        printf("FAIL %s:%d: ", __FILE__, __LINE__);                                \
        printf(__VA_ARGS__);                                                       \
        printf("\n");                                                              \
        exit(1);                                                                   \
    } while (0)

#define CHECK(cond, ...)                                                           \
    do {                                                                           \
        if (!(cond))                                                               \
            FAIL(__VA_ARGS__);                                                     \
    } while (0)

/* A system call that must succeed. */
#define MUST(call)                                                                 \
    ({                                                                             \
        long _r = (call);                                                          \
        if (_r < 0)                                                                \
            FAIL("%s returned %ld", #call, _r);                                    \
        _r;                                                                        \
    })

/* The integer after "key=" among argv[1..], or dflt. */
static inline long arg_long(int argc, char **argv, const char *key, long dflt)
{
    size_t n = 0;
    while (key[n])
        n++;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        size_t k = 0;
        while (k < n && a[k] == key[k])
            k++;
        if (k == n && a[n] == '=')
            return strtol(a + n + 1, NULL, 0);
    }
    return dflt;
}

/* The text after "key=" among argv[1..], or "". */
static inline const char *arg_str(int argc, char **argv, const char *key)
{
    size_t n = strlen(key);

    for (int i = 1; i < argc; i++)
        if (!strncmp(argv[i], key, n) && argv[i][n] == '=')
            return argv[i] + n + 1;
    return "";
}

/* A spin-wait's turn: PAUSE (rep; nop, a plain nop to the P54C). With
 * QEMU running the cores round-robin on one host thread, PAUSE ends this
 * core's turn; a loop without it keeps the thread until QEMU's 100 ms kick,
 * and a test whose cores wait on each other crawls (docs/functional-mode.md). */
static inline void relax(void)
{
    __asm__ volatile("rep; nop" ::: "memory");
}

/* scc_barrier with relax() in its wait. scc_barrier waits in scc_yield(),
 * a system call that does not end the core's turn, so under round-robin
 * TCG each waiting core kept the host thread until QEMU's kick: 48 cores
 * took about 5 s of host time to meet. */
static inline void barrier(unsigned i, unsigned n, unsigned *round)
{
    unsigned target = n * (*round + 1);

    scc_atomic_inc(i);
    while (scc_atomic_read(i) < target) {
        scc_yield();
        relax();
    }
    (*round)++;
}

/* Wait until GTSC passes `ticks` from now, without system calls. */
static inline void spin_gtsc(uint64_t ticks)
{
    uint64_t until = scc_gtsc() + ticks;
    while (scc_gtsc() < until)
        relax();
}

#endif
