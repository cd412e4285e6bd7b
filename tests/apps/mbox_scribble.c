/*
 * User code scribbles over the kernel's mailbox lines while messages flow
 * (tests/test_reliability.py). The SCC cannot stop it; the kernel must
 * not deliver what no sender sent.
 *
 * Cores 1..S (S = senders=, default 3) each send n=N messages (default
 * 3000) to core 0, numbered per sender, with a payload no scribble is
 * likely to forge. Core S+1 writes pseudo-random words at random places of
 * core 0's ring (the tail line and the slots) until every sender is done.
 * Core 0 receives until the senders are done and its mailbox is empty,
 * checks every message, and prints
 *
 *   valid V invalid I dropped D
 *
 * (I: delivered messages that no sender sent, or out of a sender's
 * order; D: the kernel's count of corrupt slots it dropped).
 */
#include <string.h>

#include "testlib.h"

#define MAGIC      0x5CC0FFEEu
#define MB_OFF     0x1C00       /* the kernel's ring in the core's 8 KiB */
#define MB_TAIL    0x20
#define MB_END     0x400
#define DONE       2            /* atomic counter: senders done */

static uint32_t rnd(uint32_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 17;
    *s ^= *s << 5;
    return *s;
}

int main(int argc, char **argv)
{
    int me = scc_core_id();
    int senders = arg_long(argc, argv, "senders", 3);
    uint32_t n = arg_long(argc, argv, "n", 3000);

    if (me >= 1 && me <= senders) {
        for (uint32_t i = 0; i < n; i++) {
            uint32_t p[4] = {MAGIC, (uint32_t)me, i, MAGIC ^ (i * 2654435761u) ^ me};
            MUST(scc_mbox_send(0, 9, p, sizeof p));
        }
        scc_atomic_inc(DONE);
        return 0;
    }
    if (me == senders + 1) {
        volatile uint8_t *ring = (volatile uint8_t *)scc_mpb_core(0) + MB_OFF;
        uint32_t seed = 12345, writes = 0;

        while (scc_atomic_read(DONE) < (uint32_t)senders) {
            uint32_t off = MB_TAIL + 4 * (rnd(&seed) % ((MB_END - MB_TAIL) / 4));
            *(volatile uint32_t *)(ring + off) = rnd(&seed);
            writes++;
            spin_gtsc(200);
        }
        printf("scribbled %lu words\n", (unsigned long)writes);
        return 0;
    }
    if (me != 0)
        return 0;

    uint32_t next[48] = {0}, valid = 0, invalid = 0;
    struct scc_msg m;
    for (;;) {
        if (scc_mbox_recv(&m, SCC_MBOX_NONBLOCK) != 0) {
            if (scc_atomic_read(DONE) == (uint32_t)senders && scc_mbox_poll() == 0)
                break;
            relax();
            continue;
        }
        uint32_t p[4];
        memcpy(p, m.payload, sizeof p);
        if (m.size != sizeof p || p[0] != MAGIC || p[1] != m.source || m.source < 1 ||
            (int)m.source > senders || p[3] != (MAGIC ^ (p[2] * 2654435761u) ^ p[1]) ||
            p[2] < next[m.source] || p[2] >= n) {
            if (invalid++ < 5)
                printf("invalid: source %u tag %u size %lu words %08lx %08lx %08lx %08lx\n",
                       m.source, m.tag, (unsigned long)m.size, (unsigned long)p[0],
                       (unsigned long)p[1], (unsigned long)p[2], (unsigned long)p[3]);
            continue;
        }
        next[m.source] = p[2] + 1;
        valid++;
    }
    struct scc_kstat k;
    MUST(scc_kstat(&k));
    printf("valid %lu invalid %lu dropped %lu\n", (unsigned long)valid,
           (unsigned long)invalid, (unsigned long)k.mbox_dropped);
    return 0;
}
