/*
 * A full mailbox makes senders wait, and nothing is lost.
 *
 * Arguments: recv=R (default 0), n=N messages per sender (default 5000,
 * more than the 4096-message kernel queue plus the 30-slot ring, so every
 * sender meets a full ring), cores=C (started cores 0..C-1, default 4),
 * quiet_ms=Q (default 500).
 *
 * Senders wait until the receiver is ready (atomic counter 1), then send
 * N messages each, counting each completed send on atomic counter 0. The
 * receiver, once ready, makes no system call (so in poll and hybrid mode
 * nothing drains its ring): it watches counter 0 until it has not moved
 * for Q ms (the senders are stuck), prints
 *
 *   mbox stalled at K
 *
 * then receives everything, checking each sender's order, and prints
 *
 *   mbox drained T errors E
 *
 * Senders print "mbox sent N full_waits W" at the end.
 */
#include <stdint.h>
#include <string.h>

#include "testlib.h"

#define MAXC 48

int main(int argc, char **argv)
{
    int me = scc_core_id();
    int recv = arg_long(argc, argv, "recv", 0);
    uint32_t n = arg_long(argc, argv, "n", 5000);
    int cores = arg_long(argc, argv, "cores", 4);
    long quiet_ms = arg_long(argc, argv, "quiet_ms", 500);
    CHECK(cores <= MAXC && recv < cores, "cores=%d recv=%d", cores, recv);

    if (me != recv) {
        while (scc_atomic_read(1) == 0)
            relax();
        for (uint32_t i = 0; i < n; i++) {
            uint32_t p[2] = {(uint32_t)me, i};
            MUST(scc_mbox_send(recv, 7, p, sizeof p));
            scc_atomic_inc(0);
        }
        struct scc_kstat k;
        MUST(scc_kstat(&k));
        printf("mbox sent %lu full_waits %lu\n", (unsigned long)n,
               (unsigned long)k.mbox_full_waits);
        return 0;
    }

    /* Watch, without entering the kernel, until the senders are stuck. */
    struct scc_info info;
    MUST(scc_info(&info));
    uint64_t quiet = (uint64_t)info.gtsc_hz * quiet_ms / 1000;
    scc_atomic_set(1, 1);
    uint32_t last = scc_atomic_read(0);
    uint64_t since = scc_gtsc();
    for (;;) {
        uint32_t now = scc_atomic_read(0);
        uint64_t t = scc_gtsc();
        if (now != last) {
            last = now;
            since = t;
        } else if (now > 0 && t - since > quiet) {
            break;
        }
        relax();
    }
    printf("mbox stalled at %lu\n", (unsigned long)last);

    uint32_t next[MAXC] = {0};
    uint64_t want = (uint64_t)n * (cores - 1), got = 0;
    unsigned errors = 0;
    struct scc_msg m;
    while (got < want) {
        MUST(scc_mbox_recv(&m, 0));
        uint32_t p[2];
        memcpy(p, m.payload, sizeof p);
        if (m.source != p[0] || p[0] >= MAXC || p[1] != next[p[0]] || m.size != sizeof p) {
            if (errors++ < 10)
                printf("mbox bad source %u sender %lu seq %lu\n", m.source,
                       (unsigned long)p[0], (unsigned long)p[1]);
        }
        if (p[0] < MAXC)
            next[p[0]] = p[1] + 1;
        got++;
    }
    int extra = 0;
    while (scc_mbox_recv(&m, SCC_MBOX_NONBLOCK) == 0)
        extra++;
    printf("mbox drained %llu errors %u extra %d\n", (unsigned long long)got, errors, extra);
    return 0;
}
