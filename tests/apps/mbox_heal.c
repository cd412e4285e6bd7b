/*
 * User code writes one word of core 0's kernel mailbox ring, once; the
 * ring must heal and deliver every message (tests/test_kernel_guard.py).
 * The SCC cannot keep user code out of an MPB, so a stray store can hit
 * the kernel's lines; one word must not stop a core's mail for good.
 *
 *   mbox_heal word=W value=V [senders=S] [n=N]
 *
 * Core 0 receives, cores 1..S (default 2) send N messages each (default
 * 400), core S+1 writes value V into the ring word W of core 0's ring:
 *
 *   head, mode, sleeping,        once every core is ready, before any
 *   closed, tail                 send (sleeping: once core 0 sleeps)
 *   waiters                      word 0 of waiters, once a sender waits
 *                                for room (core 0 receives only after)
 *
 * Core 0 checks every message (sender, order, payload) and prints
 *
 *   received R of T invalid I repaired K dropped D
 *
 * (K and D: the kernel's counts of ring words it rewrote and of corrupt
 * slots it dropped).
 */
#include <string.h>

#include "testlib.h"

#define MAGIC   0x4EA1C0DEu
#define MB_OFF  0x1C00          /* the kernel's ring in the core's 8 KiB */
#define READY   0               /* atomic counters */
#define GO      1
#define RELEASE 2

static volatile uint32_t *ring_word(uint32_t off)
{
    return (volatile uint32_t *)((volatile uint8_t *)scc_mpb_core(0) + MB_OFF + off);
}

static uint32_t word_offset(const char *w)
{
    static const struct { const char *name; uint32_t off; } words[] = {
        {"head", 0x00}, {"mode", 0x04}, {"sleeping", 0x08}, {"closed", 0x0C}, {"tail", 0x20},
        {"waiters", 0x24},
    };

    for (unsigned i = 0; i < sizeof words / sizeof words[0]; i++)
        if (!strcmp(words[i].name, w))
            return words[i].off;
    FAIL("unknown word %s", w);
}

/* Until the ring word at off reads nonzero (any), or 1 (!any): what
 * other cores wrote. */
static void wait_word(uint32_t off, int any)
{
    for (;;) {
        scc_cl1invmb();
        uint32_t v = *ring_word(off);
        if (any ? v != 0 : v == 1)
            return;
        spin_gtsc(100);
    }
}

int main(int argc, char **argv)
{
    int me = scc_core_id();
    const char *word = arg_str(argc, argv, "word");
    uint32_t off = word_offset(word);
    uint32_t value = (uint32_t)strtoul(arg_str(argc, argv, "value"), NULL, 0);
    int senders = arg_long(argc, argv, "senders", 2);
    uint32_t n = arg_long(argc, argv, "n", 400);
    int late = !strcmp(word, "waiters");

    scc_atomic_inc(READY);
    while (scc_atomic_read(READY) < (uint32_t)senders + 2)
        spin_gtsc(100);

    if (me >= 1 && me <= senders) {
        while (!scc_atomic_read(GO))
            spin_gtsc(100);
        for (uint32_t i = 0; i < n; i++) {
            uint32_t p[4] = {MAGIC, (uint32_t)me, i, MAGIC ^ (i * 2654435761u) ^ me};
            int r = scc_mbox_send(0, 7, p, sizeof p);
            if (r < 0)
                FAIL("send %lu: %d", (unsigned long)i, r);
        }
        return 0;
    }
    if (me == senders + 1) {
        if (late) {
            scc_atomic_set(GO, 1);
            wait_word(off, 1);              /* a sender waits for room */
        } else if (!strcmp(word, "sleeping")) {
            wait_word(off, 0);              /* core 0 sleeps in its receive */
        }
        *ring_word(off) = value;
        /* Out of the write-combine buffer: a store to another line (of
         * our own MPB, which nobody reads). */
        *(volatile uint32_t *)scc_mpb_user(me) = 0;
        printf("wrote 0x%08lx over %s\n", (unsigned long)value, word);
        scc_atomic_set(late ? RELEASE : GO, 1);
        return 0;
    }
    if (me != 0)
        return 0;

    if (late)       /* let the ring fill up: no system call meanwhile */
        while (!scc_atomic_read(RELEASE))
            spin_gtsc(100);
    uint32_t next[48] = {0}, got = 0, invalid = 0, total = (uint32_t)senders * n;
    struct scc_msg m;
    while (got + invalid < total) {
        MUST(scc_mbox_recv(&m, 0));
        uint32_t p[4];
        memcpy(p, m.payload, sizeof p);
        if (m.size != sizeof p || p[0] != MAGIC || p[1] != m.source || m.source < 1 ||
            (int)m.source > senders || p[2] != next[m.source] ||
            p[3] != (MAGIC ^ (p[2] * 2654435761u) ^ p[1])) {
            invalid++;
            continue;
        }
        next[m.source]++;
        got++;
    }
    struct scc_kstat k;
    MUST(scc_kstat(&k));
    printf("received %lu of %lu invalid %lu repaired %lu dropped %lu\n", (unsigned long)got,
           (unsigned long)total, (unsigned long)invalid, (unsigned long)k.mbox_repaired,
           (unsigned long)k.mbox_dropped);
    return 0;
}
