/*
 * flag: busy polling of a flag (S-Net's "Polling", 002 line 5534). Every
 * core has a flag per possible sender in its MPB, written by that sender
 * only: word 0 its count of records sent to us, word 1 its count of our
 * records it consumed (the acknowledgement, so no separate ack line). A
 * flag is half a line: 47 whole lines and the outbox would not fit the
 * symmetric heap next to RCCE's barrier lines; the two writers of a line
 * write disjoint bytes, which the WCB keeps apart. A receiver waiting for
 * any sender polls all 24 lines: 002 line 6552's "polling all one-to-one
 * queues".
 */
#include <stdio.h>

#include "notify.h"
#include "scc.h"

#define SLOT 16
static volatile uint8_t *lines;
static uint32_t seen[RCCE_MAXNP], sent_to[RCCE_MAXNP], consumed[RCCE_MAXNP];
static int next;

/* The line for writer in owner's array: no line for owner itself. */
static volatile uint8_t *line(int writer, int owner)
{
    return mpb_at(owner, lines + SLOT * (writer < owner ? writer : writer - 1));
}

static void publish(int dest)
{
    volatile uint32_t *w = (volatile uint32_t *)line(me, dest);
    w[0] = sent_to[dest];
    w[1] = consumed[dest];
    __asm__ volatile("" ::: "memory");
    mpb_flush();
}

static int setup(const char *params)
{
    (void)params;
    if (ncores < 2 || !(lines = RCCE_malloc(SLOT * (ncores - 1)))) {
        fprintf(stderr, "notify: flag: no MPB room for %d flags\n", ncores - 1);
        return -1;
    }
    for (int i = 0; i < ncores - 1; i++)
        ((volatile uint32_t *)(lines + SLOT * i))[0] =
            ((volatile uint32_t *)(lines + SLOT * i))[1] = 0;
    mpb_flush();
    for (int i = 0; i < ncores; i++)
        seen[i] = sent_to[i] = consumed[i] = 0;
    next = 0;
    return 0;
}

static void notify(int dest, uint32_t count)
{
    (void)count;
    sent_to[dest]++;
    publish(dest);
}

static int fresh(int src)
{
    uint32_t v = *(volatile uint32_t *)line(src, me);
    if (v == seen[src])
        return 0;
    seen[src] = v;
    return 1;
}

static int wait(int from)
{
    for (;;) {
        scc_cl1invmb();
        if (from >= 0) {
            if (fresh(from))
                return from;
            continue;
        }
        for (int k = 0; k < ncores; k++) {  /* round robin: no sender starves */
            int s = (next + k) % ncores;
            if (s != me && fresh(s)) {
                next = s + 1;
                return s;
            }
        }
    }
}

static void ack(int src, uint32_t count)
{
    consumed[src] = count;
    publish(src);
}

static uint32_t acked(int dest)
{
    scc_cl1invmb();
    return ((volatile uint32_t *)line(dest, me))[1];
}

static void teardown(void)
{
    RCCE_free((t_vcharp)lines);
}

const struct scheme scheme_flag = {
    .name = "flag", .params = "", .setup = setup, .notify = notify, .wait = wait,
    .ack = ack, .acked = acked, .teardown = teardown,
};
