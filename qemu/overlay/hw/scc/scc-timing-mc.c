/*
 * SCC timing mode, the memory controllers' service: how many DRAM
 * transactions a rank and a controller take in a stretch of time.
 *
 * Each controller has two banks of two ranks; requests to different ranks
 * interleave, but the controller does not spread addresses over them: each
 * rank is a contiguous quarter of the controller's 8 GiB (002, copy paper,
 * section II). A transaction (a line read, a line written back or out of
 * the write-combine buffer, a store written around the caches, an uncached
 * access to shared DRAM) occupies its rank for timing-rank-cycles and the
 * controller for timing-mc-cycles, at the controllers' clock: 26 and 14
 * cycles at 800 MHz are 002's saturation points, a rank at 1.0 GB/s of
 * 32-byte lines, a controller at 1.8 GB/s.
 *
 * Service is counted in windows of modeled time (timing-mc-window-ns): a
 * transaction takes room in the window its request reaches the
 * controller in, or, if the rank or the controller has no room left there,
 * waits for the first window where both have. A core that touches only
 * its own DRAM is not ordered against the others (each private DRAM
 * access would cost a scheduling switch), so requests come here out of
 * time order; windows make the result depend on how much was asked of a
 * window, not on the order it was asked in. Below saturation nothing ever
 * waits, which is 001's observation (48 cores at RCCE's rate on their
 * private memory: no measurable degradation); above it, a rank or a
 * controller serves exactly its capacity. Which core of a saturated set
 * waits most depends on the order the scheduler ran them in (fixed, so
 * runs repeat), not on who asked first in modeled time.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "qemu/osdep.h"
#include "hw/scc/scc.h"
#include "hw/scc/scc-timing.h"
#include "scc-timing-internal.h"

static TMServer *tm_server_new(int64_t svc_ps)
{
    TMServer *q = g_new0(TMServer, 1);
    int i;

    q->svc = svc_ps;
    for (i = 0; i < TM_MC_WINDOWS; i++) {
        q->w[i].tag = -1;
    }
    return q;
}

void tm_mc_init(SCCMachineState *s)
{
    SCCTimingParams *p = &s->tp;
    SCCTiming *tm = s->tm;
    int64_t ps = tm_period_ps(p->dram_hz);
    int i;

    tm->mc_window_ps = (int64_t)p->mc_window_ns * 1000;
    if (!tm->mc_window_ps) {
        return;
    }
    for (i = 0; i < SCC_NUM_MC; i++) {
        tm->mc_q[i] = tm_server_new(p->mc_cycles * ps);
    }
    for (i = 0; i < SCC_NUM_MC * SCC_MC_RANKS; i++) {
        tm->rank_q[i] = tm_server_new(p->rank_cycles * ps);
    }
}

static inline TMWindow *tm_window(TMServer *q, int64_t b)
{
    return &q->w[b & (TM_MC_WINDOWS - 1)];
}

/*
 * Whether window @b of @q has room for a transaction. A slot never used,
 * or held for a window long gone, is empty; one held for a later window
 * means this request is more than the ring behind the others (the run
 * bound, TM_MC_HORIZON, keeps that from happening): it is counted as
 * served, without taking anything.
 */
static inline bool tm_has_room(TMServer *q, int64_t b, int64_t w)
{
    TMWindow *x = tm_window(q, b);

    return x->tag != b || x->used + q->svc <= w;
}

/* The first window at or after @b where @q has room for a transaction. */
static int64_t tm_room(TMServer *q, int64_t b, int64_t w)
{
    int64_t first = b;

    while (!tm_has_room(q, b, w)) {
        b = MAX(tm_window(q, b)->next, b + 1);
    }
    if (b != first && tm_window(q, first)->tag == first) {
        tm_window(q, first)->next = b;      /* skip the full run */
    }
    return b;
}

static inline void tm_take(TMServer *q, int64_t b)
{
    TMWindow *x = tm_window(q, b);

    if (x->tag > b) {
        return;
    }
    if (x->tag != b) {
        x->tag = b;
        x->used = 0;
        x->next = b + 1;
    }
    x->used += q->svc;
}

/*
 * A transaction of core @c to its physical address @pa reaches its memory
 * controller at @t (ps): the ps it waits there for its rank and its
 * controller. 0 for an address that does not go to a controller.
 */
int64_t tm_mc_wait(SCCMachineState *s, SCCCore *c, uint64_t pa, int64_t t)
{
    SCCTiming *tm = s->tm;
    SCCCoreTiming *k = tm_core_timing(c);
    uint32_t e = c->lut[pa >> SCC_PAGE_SHIFT];
    int64_t w = tm->mc_window_ps, b, b2;
    TMServer *rank, *ctl;

    if (!w || t < 0) {
        return 0;
    }
    /* a core goes through one or two entries for long stretches */
    if (unlikely(k->mc_key != ((uint64_t)e | 1ull << 32))) {
        uint32_t route = SCC_LUT_ROUTE(e);
        int mc = scc_mc_at(s, LUT_ROUTE_X(route), LUT_ROUTE_Y(route),
                           SCC_LUT_SUBDEST(e));

        k->mc_key = (uint64_t)e | 1ull << 32;
        k->mc_ctl = mc < 0 ? NULL : tm->mc_q[mc];
        k->mc_rank = mc < 0 ? NULL :
                     tm->rank_q[mc * SCC_MC_RANKS +
                                (SCC_LUT_ADDRBITS(e) % SCC_MC_PAGES) /
                                SCC_MC_RANK_PAGES];
    }
    ctl = k->mc_ctl;
    rank = k->mc_rank;
    if (!ctl) {
        return 0;
    }
    /* a core's transactions come a few to a window: no division for most */
    if (t - k->mc_lo >= 0 && t - k->mc_lo < w) {
        b = k->mc_b;
    } else if (t - k->mc_lo >= w && t - k->mc_lo < 2 * w) {
        b = ++k->mc_b;
        k->mc_lo += w;
    } else {
        b = k->mc_b = t / w;
        k->mc_lo = b * w;
    }
    if (likely(tm_has_room(rank, b, w) && tm_has_room(ctl, b, w))) {
        tm_take(rank, b);
        tm_take(ctl, b);
        return 0;
    }
    for (;;) {
        b2 = tm_room(ctl, tm_room(rank, b, w), w);
        if (b2 == b) {
            break;
        }
        b = b2;
    }
    tm_take(rank, b);
    tm_take(ctl, b);
    if (b * w <= t) {
        return 0;
    }
    k->n.mc_waits++;
    k->n.mc_wait += b * w - t;
    return b * w - t;
}
