/*
 * check.h - what the libscc test programs share.
 *
 * Every test is an RCCE program (RCCE_APP): it runs on the host (one
 * thread per UE) and on the chip (one core per UE). On the host the UEs
 * share the program's globals, so per-UE state is UE_LOCAL. A failed
 * CHECK prints "FAIL ue N file:line: ..." and counts; done() sums the
 * failures of all UEs, rank 0 prints "PASS name" or "FAILED name (n)",
 * and the UE's exit status says whether it saw a failure itself.
 */
#ifndef TEST_CHECK_H
#define TEST_CHECK_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "RCCE.h"

#ifdef SCC_HOST
#define UE_LOCAL __thread
#else
#define UE_LOCAL
#endif

static UE_LOCAL int fails;

#define CHECK(cond, ...) do {                                               \
        if (!(cond)) {                                                      \
            if (fails++ < 20) {                                             \
                printf("FAIL ue %d %s:%d: (%s) ", RCCE_ue(), __FILE__,      \
                       __LINE__, #cond);                                    \
                printf(__VA_ARGS__);                                        \
                printf("\n");                                               \
            }                                                               \
        }                                                                   \
    } while (0)

#define CHECK_EQ(a, b) do {                                                 \
        long long a_ = (long long)(a), b_ = (long long)(b);                 \
        CHECK(a_ == b_, "%lld != %lld", a_, b_);                            \
    } while (0)

/* Filling and checking test data is private to a UE: no need for
 * ThreadSanitizer to watch every byte of it (the library's copies are
 * still watched). */
#if defined(__SANITIZE_THREAD__)
#define NO_TSAN __attribute__((no_sanitize_thread))
#else
#define NO_TSAN
#endif

/* The byte at offset i of test message `seed`. */
static inline unsigned char pattern(uint32_t seed, size_t i)
{
    uint32_t x = seed * 2654435761u + (uint32_t)i * 40503u + (uint32_t)(i >> 8);
    return (unsigned char)(x ^ (x >> 13) ^ (x >> 24));
}

NO_TSAN static inline void fill(void *buf, size_t n, uint32_t seed)
{
    unsigned char *b = buf;
    for (size_t i = 0; i < n; i++)
        b[i] = pattern(seed, i);
}

/* Index of the first wrong byte, or -1. */
NO_TSAN static inline long verify(const void *buf, size_t n, uint32_t seed)
{
    const unsigned char *b = buf;
    for (size_t i = 0; i < n; i++)
        if (b[i] != pattern(seed, i))
            return (long)i;
    return -1;
}

static inline void *xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p) {
        printf("FAIL ue %d: out of memory (%lu bytes)\n", RCCE_ue(),
               (unsigned long)n);
        exit(3);
    }
    return p;
}

/* Sum the failures of all UEs, report, finalize. Returns the exit status. */
static inline int done(const char *name)
{
    int mine = fails, all = 0;

    if (RCCE_allreduce((char *)&mine, (char *)&all, 1, RCCE_INT, RCCE_SUM,
                       RCCE_COMM_WORLD) != RCCE_SUCCESS) {
        printf("FAIL ue %d: allreduce of the verdicts failed\n", RCCE_ue());
        all = mine + 1;
    }
    if (RCCE_ue() == 0) {
        if (all)
            printf("FAILED %s (%d failures)\n", name, all);
        else
            printf("PASS %s (%d UEs)\n", name, RCCE_num_ues());
    }
    RCCE_finalize();
    return fails ? 1 : 0;
}

#endif
