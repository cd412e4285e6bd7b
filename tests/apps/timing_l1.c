/*
 * The timing mode's L1 data cache (tests/test_timing.py): core 0 reads
 * private memory in a pattern and prints only what does not depend on how
 * often it did, so that two runs that differ in one repetition differ in
 * their counters (--timing-stats, l1_data_misses) by exactly what that
 * repetition missed. Nothing else runs between the repetitions (no
 * interrupt, no system call), and each leaves the L1 as it found it once
 * the pattern has settled: the runs then end alike.
 *
 *   ws kib=K passes=P   reads the first word of each line of a K KiB
 *                       buffer, P times over
 *   seq lines=S rounds=R
 *                       S: a string of digits i, each a read of line i of
 *                       a row of lines 4 KiB apart (one L1 set: the page
 *                       offset indexes it), R times over. The set is the
 *                       one 64 away from the stack's, so that the loop's
 *                       own loads and stores land in other sets.
 *   mpbt passes=P       reads the first 16 KiB of the buffer (plain: into
 *                       the L1 and the L2), marks them MPBT, reads the
 *                       next 32 KiB (out of the L1 go the 16 KiB, not out
 *                       of the L2), then reads the 16 KiB P times as MPBT
 *                       lines: MPBT reads bypass the L2 (002), so each
 *                       pass misses the L2 where the 16 KiB still are
 *
 * Prints "set N stack M" (seq) or "lines N" (ws, mpbt), then "done".
 */
#include <stdint.h>

#include "scc_copy.h"
#include "testlib.h"

#define LINE 32
#define SETS 128                /* 4 KiB of lines: the sets the offset indexes */

static uint32_t buf[16 * 1024] __attribute__((aligned(4096)));   /* 64 KiB */

static void __attribute__((noinline)) ws(unsigned kib, long passes)
{
    const volatile uint32_t *end = buf + kib * 1024 / 4;

    for (long p = 0; p < passes; p++)
        for (const volatile uint32_t *q = buf; q < end; q += LINE / 4)
            (void)*q;
}

/* reads the first word of each line of @kib KiB from @from, @passes times */
static void __attribute__((noinline)) span(const volatile uint32_t *from, unsigned kib,
                                           long passes)
{
    const volatile uint32_t *end = from + kib * 1024 / 4;

    for (long p = 0; p < passes; p++)
        for (const volatile uint32_t *q = from; q < end; q += LINE / 4)
            (void)*q;
}

/* reads line code & 15, then code >> 4 & 15 ... (n of them), rounds times */
static void __attribute__((noinline)) seq(const volatile uint32_t *base,
                                          uint32_t code, int n, long rounds)
{
    for (long r = 0; r < rounds; r++) {
        uint32_t c = code;

        for (int i = 0; i < n; i++, c >>= 4)
            (void)base[(c & 15) * (4096 / 4)];
    }
}

int main(int argc, char **argv)
{
    const char *what = argc > 1 ? argv[1] : "";

    if (scc_core_id() != 0)
        return 0;
    if (!strcmp(what, "ws")) {
        unsigned kib = (unsigned)arg_long(argc, argv, "kib", 12);

        CHECK(kib >= 1 && kib * 1024 <= sizeof(buf), "kib=%u", kib);
        printf("lines %u\n", kib * 1024 / LINE);
        ws(kib, arg_long(argc, argv, "passes", 2));
    } else if (!strcmp(what, "seq")) {
        const char *s = arg_str(argc, argv, "lines");
        volatile int here = 0;
        unsigned stack = ((uintptr_t)&here / LINE) % SETS;
        unsigned set = (stack + SETS / 2) % SETS;
        uint32_t code = 0;
        int n = 0;

        for (; s[n]; n++) {
            CHECK(n < 8 && s[n] >= '0' && s[n] <= '9' &&
                      (unsigned)(s[n] - '0') < sizeof(buf) / 4096,
                  "lines=%s: at most 8 digits, each below %u", s,
                  (unsigned)(sizeof(buf) / 4096));
            code |= (uint32_t)(s[n] - '0') << (4 * n);
        }
        CHECK(n > 0, "lines= is empty");
        printf("set %u stack %u\n", set, stack);
        seq(buf + set * LINE / 4, code, n, arg_long(argc, argv, "rounds", 10));
    } else if (!strcmp(what, "mpbt")) {
        long passes = arg_long(argc, argv, "passes", 1);

        printf("lines %u\n", 16 * 1024 / LINE);
        span(buf, 16, 1);
        CHECK(!scc_copy_mark_mpbt(buf, 16 * 1024, 1), "marking the 16 KiB MPBT failed");
        span(buf + 16 * 1024 / 4, 32, 1);
        span(buf, 16, passes);
    } else {
        FAIL("what: ws, seq or mpbt");
    }
    printf("done\n");
    return 0;
}
