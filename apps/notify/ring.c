/*
 * ring: the lock-protected ring of the design-space paper (002 lines
 * 6703-6706): senders take the receiver's T&S lock, read the ring's
 * positions, write their id into the next entry and advance the tail;
 * the receiver polls its own tail line and alone writes the head.
 */
#include <stdio.h>

#include "notify.h"
#include "scc.h"

#define ENTRIES 16
/* line 0: head (receiver); line 1: tail (senders, under the lock);
 * lines 2-3: ENTRIES sender ids (senders, under the lock) */
static volatile uint8_t *ring;
static uint32_t head;

#define HEAD(r) ((volatile uint32_t *)(r))
#define TAIL(r) ((volatile uint32_t *)((r) + MPB_LINE))
#define ENTRY(r, i) ((volatile uint32_t *)((r) + 2 * MPB_LINE) + (i) % ENTRIES)

static int setup(const char *params)
{
    (void)params;
    if (!(ring = RCCE_malloc(4 * MPB_LINE))) {
        fprintf(stderr, "notify: ring: no MPB room for the ring\n");
        return -1;
    }
    *HEAD(ring) = 0;
    *TAIL(ring) = 0;
    mpb_flush();
    head = 0;
    return 0;
}

static void notify(int dest, uint32_t count)
{
    volatile uint8_t *r = mpb_at(dest, ring);
    (void)count;
    for (;;) {
        RCCE_acquire_lock(dest);
        scc_cl1invmb();
        uint32_t tail = *TAIL(r);
        if (tail - *HEAD(r) < ENTRIES) {
            *ENTRY(r, tail) = (uint32_t)me;
            mpb_flush();
            *TAIL(r) = tail + 1;
            mpb_flush();
            RCCE_release_lock(dest);
            return;
        }
        RCCE_release_lock(dest);    /* full: let the receiver's reads in */
    }
}

static int wait(int from)
{
    for (;;) {
        scc_cl1invmb();
        if (*TAIL(ring) == head)
            continue;
        int src = (int)*ENTRY(ring, head);
        *HEAD(ring) = ++head;
        mpb_flush();
        if (from >= 0 && src != from) {
            fprintf(stderr, "notify: ring: core %02d: record from %d, expected one from %d\n",
                    me, src, from);
            RCCE_finalize();
            scc_panic("ring: unexpected sender");
        }
        return src;
    }
}

static void teardown(void)
{
    RCCE_free((t_vcharp)ring);
}

const struct scheme scheme_ring = {
    .name = "ring", .params = "", .setup = setup, .notify = notify, .wait = wait,
    .teardown = teardown,
};
