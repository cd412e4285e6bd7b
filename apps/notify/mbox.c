/*
 * The kernel mailbox as the notification (docs/notify.md): the sender puts
 * a one-line message into the receiver's ring in its MPB, and the
 * receiver's kernel mode decides how it learns of it:
 *   mbox-ipi     every message interrupts the receiver, which sleeps;
 *   mbox-poll    the receiver spins in its kernel on its ring;
 *   mbox-timer   the receiver sleeps; its LAPIC tick (hz) drains the ring;
 *   mbox-hybrid  the receiver spins up to spin cycles, then sleeps, and
 *                senders interrupt only a sleeper.
 */
#include <stdio.h>

#include "notify.h"
#include "scc.h"

#define TAG_RECORD 0x4E4F   /* 'NO' */

static int old_mode;
static uint32_t tick;

static int setup_mode(int mode, const char *params)
{
    uint32_t spin = 0;
    tick = 0;
    if (mode == SCC_MBOX_TIMER && param_u32(params, "hz", 10000, 1, 1000000, &tick) < 0)
        return -1;
    if (mode == SCC_MBOX_HYBRID && param_u32(params, "spin", 2000, 0, 100000000, &spin) < 0)
        return -1;
    if (tick && scc_tick(tick) < 0) {
        fprintf(stderr, "notify: core %02d: tick rate %lu refused\n", me, (unsigned long)tick);
        return -1;
    }
    old_mode = scc_mbox_setmode(mode, spin);
    if (old_mode < 0) {
        fprintf(stderr, "notify: core %02d: mailbox mode refused: %d\n", me, old_mode);
        return -1;
    }
    return 0;
}

static int setup_ipi(const char *p) { return setup_mode(SCC_MBOX_IPI, p); }
static int setup_poll(const char *p) { return setup_mode(SCC_MBOX_POLL, p); }
static int setup_timer(const char *p) { return setup_mode(SCC_MBOX_TIMER, p); }
static int setup_hybrid(const char *p) { return setup_mode(SCC_MBOX_HYBRID, p); }

static void notify(int dest, uint32_t count)
{
    int r = scc_mbox_send(RCCE_ue_core(dest), TAG_RECORD, &count, sizeof count);
    if (r < 0) {
        fprintf(stderr, "notify: core %02d: mailbox send to %d failed: %d\n", me, dest, r);
        scc_panic("mailbox send failed");
    }
}

static int wait(int from)
{
    struct scc_msg m;
    int r;
    r = scc_mbox_recv(&m, 0);
    if (r < 0 || m.tag != TAG_RECORD) {
        fprintf(stderr, "notify: core %02d: mailbox receive: %d, tag %u\n", me, r, m.tag);
        scc_panic("mailbox receive failed");
    }
    int src = -1;
    for (int u = 0; u < ncores; u++)
        if (RCCE_ue_core(u) == m.source)
            src = u;
    if (src < 0 || (from >= 0 && src != from)) {
        fprintf(stderr, "notify: core %02d: message from core %u, expected UE %d\n", me,
                m.source, from);
        scc_panic("mailbox: unexpected sender");
    }
    return src;
}

static void teardown(void)
{
    if (tick)
        scc_tick(0);
    scc_mbox_setmode(old_mode, 0);
}

const struct scheme scheme_mbox_ipi = {
    .name = "mbox-ipi", .params = "", .setup = setup_ipi, .notify = notify, .wait = wait,
    .teardown = teardown,
};
const struct scheme scheme_mbox_poll = {
    .name = "mbox-poll", .params = "", .setup = setup_poll, .notify = notify, .wait = wait,
    .teardown = teardown,
};
const struct scheme scheme_mbox_timer = {
    .name = "mbox-timer", .params = "hz=10000", .setup = setup_timer, .notify = notify,
    .wait = wait, .teardown = teardown,
};
const struct scheme scheme_mbox_hybrid = {
    .name = "mbox-hybrid", .params = "spin=2000", .setup = setup_hybrid, .notify = notify,
    .wait = wait, .teardown = teardown,
};
