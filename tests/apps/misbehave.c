/*
 * One core misbehaves while the others wait: for the machine's fail-fast,
 * stall detection and core report (tests/test_reliability.py).
 *
 * Arguments:
 *   who=C      the core that acts (default 1)
 *   act=A      what it does, once every other core is waiting:
 *              exit=S   exit with status S
 *              fault    read address 0 (a page fault)
 *              holdself hold itself in reset through its tile's GCBCFG
 *              holdall  hold every started core in reset, itself last
 *   wait=W     what the others do: halt (sleep in the kernel until an
 *              interrupt, forever), spin (a busy loop, forever), or
 *              done (spin for 1 s of GTSC, print "survived", exit 0),
 *              or partial (write "unfinished" with no newline, then spin)
 *
 * Every core prints "ready" before it starts waiting. The waiting loops
 * are functions of their own, so that the report can name them.
 */
#include <string.h>

#include "testlib.h"     /* CRB_GCBCFG: standard-headers/scc/abi.h */

static volatile uint32_t *gcbcfg(struct scc_info *info, int core)
{
    uint32_t tile = core / info->cores_per_tile;

    return (volatile uint32_t *)(info->crb_base + (tile << 24) + CRB_GCBCFG);
}

static void hold(struct scc_info *info, int core)
{
    volatile uint32_t *r = gcbcfg(info, core);

    MUST(scc_crb_raw(1));   /* resets cores on purpose: needs the CRB page */

    *r |= 1u << (core % info->cores_per_tile);
}

__attribute__((noinline, noreturn)) static void wait_halt(void)
{
    for (;;)
        scc_halt();
}

__attribute__((noinline, noreturn)) static void wait_spin(void)
{
    for (;;)
        __asm__ volatile("pause");
}

int main(int argc, char **argv)
{
    struct scc_info info;
    int me = scc_core_id();
    int who = arg_long(argc, argv, "who", 1);
    const char *act = arg_str(argc, argv, "act");
    const char *wait = arg_str(argc, argv, "wait");

    MUST(scc_info(&info));
    printf("ready\n");
    if (me != who) {
        scc_atomic_inc(0);
        if (!strcmp(wait, "halt"))
            wait_halt();
        if (!strcmp(wait, "spin"))
            wait_spin();
        if (!strcmp(wait, "partial")) {
            fputs("unfinished", stdout);
            fflush(stdout);
            wait_spin();
        }
        spin_gtsc(info.gtsc_hz);
        printf("survived\n");
        return 0;
    }
    /* The others are waiting (or about to) after they counted. */
    while (scc_atomic_read(0) < (uint32_t)arg_long(argc, argv, "cores", 2) - 1)
        ;
    spin_gtsc(info.gtsc_hz / 20);
    if (!strncmp(act, "exit=", 5))
        exit(strtol(act + 5, NULL, 0));
    if (!strcmp(act, "fault"))
        return *(volatile int *)0;
    if (!strcmp(act, "holdself")) {
        hold(&info, me);
        FAIL("still running after holding myself in reset");
    }
    if (!strcmp(act, "holdall")) {
        for (int c = 0; c < (int)info.ncores; c++)
            if (c != me)
                hold(&info, c);
        hold(&info, me);
        FAIL("still running after holding myself in reset");
    }
    FAIL("unknown act=%s", act);
}
