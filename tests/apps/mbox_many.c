/*
 * Many senders, one receiver: every message arrives exactly once and in
 * each sender's order, in the kernel's mailbox mode (mbox= option).
 *
 * Arguments: recv=R (default 0), n=N messages per sender (default 1000),
 * cores=C (started cores are 0..C-1; default all), self=0|1 (default 1:
 * the receiver sends N messages to itself too, interleaved with its
 * receiving; it only sends right after it found its queue empty, so its
 * own send never waits on a ring that only it could drain).
 *
 * A message is {u32 sender, u32 seq, u32 check}, tag = seq & 0xffff. The
 * receiver prints, after everything arrived:
 *
 *   mbox from SS count K next Q            for every sender
 *   mbox total T errors E mode M received_kstat R
 *
 * and the first few anomalies as "mbox bad ...". Senders print
 *
 *   mbox sent N full_waits W kstat_sent S
 */
#include <stdint.h>
#include <string.h>

#include "testlib.h"

#define MAXC 48

struct payload {
    uint32_t sender, seq, check;
};

static uint32_t check_of(uint32_t sender, uint32_t seq)
{
    return (sender * 0x10001u) ^ (seq * 0x9E3779B1u) ^ 0xA5A5A5A5u;
}

static void send_one(int dest, uint32_t me, uint32_t seq)
{
    struct payload p = {me, seq, check_of(me, seq)};
    MUST(scc_mbox_send(dest, seq & 0xffff, &p, sizeof p));
}

static uint32_t next[MAXC], count[MAXC];
static unsigned errors;

static void take(const struct scc_msg *m)
{
    struct payload p;
    memcpy(&p, m->payload, sizeof p);
    int bad = m->size != sizeof p || p.sender >= MAXC || m->source != p.sender ||
              m->tag != (p.seq & 0xffff) || p.check != check_of(p.sender, p.seq) ||
              p.seq != next[p.sender];
    if (bad) {
        if (errors++ < 10)
            printf("mbox bad source %u size %lu tag %u payload sender %lu seq %lu check %s "
                   "expected seq %lu\n", m->source, (unsigned long)m->size, m->tag,
                   (unsigned long)p.sender, (unsigned long)p.seq,
                   p.check == check_of(p.sender, p.seq) ? "ok" : "bad",
                   p.sender < MAXC ? (unsigned long)next[p.sender] : 0ul);
        if (p.sender < MAXC && p.seq >= next[p.sender])
            next[p.sender] = p.seq + 1;
    } else {
        next[p.sender]++;
    }
    if (p.sender < MAXC)
        count[p.sender]++;
}

int main(int argc, char **argv)
{
    int me = scc_core_id();
    int recv = arg_long(argc, argv, "recv", 0);
    uint32_t n = arg_long(argc, argv, "n", 1000);
    int cores = arg_long(argc, argv, "cores", scc_num_cores());
    int self = arg_long(argc, argv, "self", 1);
    CHECK(cores <= MAXC && recv < cores, "cores=%d recv=%d", cores, recv);

    if (me != recv) {
        for (uint32_t i = 0; i < n; i++)
            send_one(recv, me, i);
        struct scc_kstat k;
        MUST(scc_kstat(&k));
        printf("mbox sent %lu full_waits %lu kstat_sent %lu\n", (unsigned long)n,
               (unsigned long)k.mbox_full_waits, (unsigned long)k.mbox_sent);
        return 0;
    }

    uint64_t want = (uint64_t)n * (cores - 1 + (self ? 1 : 0)), got = 0;
    uint32_t self_sent = self ? 0 : n;
    struct scc_msg m;
    while (got < want) {
        if (self_sent < n) {
            int r;
            while ((r = scc_mbox_recv(&m, SCC_MBOX_NONBLOCK)) == 0) {
                take(&m);
                got++;
            }
            CHECK(r == -SCC_EAGAIN, "non-blocking receive returned %d", r);
            send_one(me, me, self_sent++);
        } else {
            MUST(scc_mbox_recv(&m, 0));
            take(&m);
            got++;
        }
    }
    /* Nothing more may come. */
    int extra = 0;
    while (scc_mbox_recv(&m, SCC_MBOX_NONBLOCK) == 0) {
        take(&m);
        extra++;
    }
    for (int s = 0; s < cores; s++)
        if (s != me || self)
            printf("mbox from %02d count %lu next %lu\n", s, (unsigned long)count[s],
                   (unsigned long)next[s]);
    struct scc_kstat k;
    MUST(scc_kstat(&k));
    printf("mbox total %llu errors %u extra %d mode %s received_kstat %lu\n",
           (unsigned long long)got, errors, extra, scc_mbox_mode_name(scc_mbox_mode(-1)),
           (unsigned long)k.mbox_received);
    return 0;
}
