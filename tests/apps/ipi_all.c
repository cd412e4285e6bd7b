/*
 * Every core interrupts every other core, one pulse (SYS_ipi) per pair,
 * and each pulse arrives exactly once (kstat.lint0).
 *
 * The senders take turns in core order (shared DRAM word `turn`). The
 * sender pulses one target at a time and waits until that target has
 * acknowledged through shared DRAM (ack[t] = the number of LINT0
 * interrupts the target has taken since it started) before the next.
 * Everyone else waits in scc_halt(); an IPI ends the halt. A pulse that
 * lands between a waiter's check and its halt would leave it asleep, so
 * the app also runs the LAPIC timer (tick=, default 200 Hz) to end such a
 * halt within a tick; timer interrupts do not count as LINT0.
 *
 * Arguments: cores=N (the number of started cores, which must be 0..N-1;
 * default: all of the chip's), tick=HZ. Each core finally prints
 *
 *   ipi received R sent S
 *
 * and the sender side prints "ipi extra T GOT" if a target acknowledged
 * more interrupts than were sent to it.
 */
#include <stdint.h>

#include "testlib.h"

#define MAXC 48

struct shared {
    volatile uint32_t turn;
    volatile uint32_t pad[15];
    volatile uint32_t ack[MAXC];
};

static uint32_t lint0_base;

static uint32_t lint0_since_start(void)
{
    struct scc_info info;
    MUST(scc_info(&info));
    struct scc_kstat k;
    MUST(scc_kstat(&k));
    return k.lint0 - lint0_base;
}

int main(int argc, char **argv)
{
    int me = scc_core_id();
    int n = arg_long(argc, argv, "cores", scc_num_cores());
    long hz = arg_long(argc, argv, "tick", 200);
    CHECK(n >= 2 && n <= MAXC && me < n, "cores=%d, me %d", n, me);
    struct shared *sh = (struct shared *)scc_shm();

    struct scc_info info;
    MUST(scc_info(&info));
    struct scc_kstat k;
    MUST(scc_kstat(&k));
    lint0_base = k.lint0;
    if (hz > 0)
        MUST(scc_tick(hz));

    /* Everyone is up (and has its lint0 base) before the first pulse. */
    unsigned round = 0;
    barrier(0, n, &round);

    unsigned sent = 0, received_at_ack = 0;
    for (;;) {
        uint32_t turn = sh->turn;
        uint32_t got = lint0_since_start();
        if (got != received_at_ack) {
            sh->ack[me] = got;
            received_at_ack = got;
        }
        if (turn == (uint32_t)n)
            break;
        if (turn != (uint32_t)me) {
            scc_halt();
            continue;
        }
        for (int t = 0; t < n; t++) {
            if (t == me)
                continue;
            /* Senders before us each pulsed t once (t itself excepted). */
            uint32_t expect = (uint32_t)me - (t < me ? 1 : 0) + 1;
            MUST(scc_ipi(t));
            sent++;
            uint64_t give_up = scc_gtsc() + 10ull * info.gtsc_hz;
            while (sh->ack[t] < expect && scc_gtsc() < give_up)
                relax();
            if (sh->ack[t] != expect)
                printf("ipi target %02d acknowledged %lu, expected %lu\n", t,
                       (unsigned long)sh->ack[t], (unsigned long)expect);
            if (sh->ack[t] > expect)
                printf("ipi extra %02d %lu\n", t, (unsigned long)sh->ack[t]);
        }
        sh->turn = me + 1;
    }
    /* Late pulses would show here: wait for all, then count once more. */
    barrier(0, n, &round);
    if (hz > 0)
        MUST(scc_tick(0));
    printf("ipi received %lu sent %u\n", (unsigned long)lint0_since_start(), sent);
    return 0;
}
