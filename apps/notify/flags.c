/*
 * flags: the per-sender flag array of the design-space paper (002 lines
 * 6659-6669): one byte per sender in two lines of the receiver's MPB,
 * each sender writing only its own byte (the WCB writes the bytes it
 * holds, so writers of one line do not disturb each other). A receiver
 * reads 2 lines instead of 47 and looks at the double words that changed
 * first.
 */
#include <stdio.h>

#include "notify.h"
#include "scc.h"

#define FLAG_LINES 2
static volatile uint8_t *array;
static union {
    uint32_t w[FLAG_LINES * MPB_LINE / 4];
    uint8_t b[FLAG_LINES * MPB_LINE];
} seen;
static uint8_t sent_to[RCCE_MAXNP];
static int next;

static int setup(const char *params)
{
    (void)params;
    if (ncores > FLAG_LINES * MPB_LINE || !(array = RCCE_malloc(FLAG_LINES * MPB_LINE))) {
        fprintf(stderr, "notify: flags: no MPB room for the flag array\n");
        return -1;
    }
    for (int i = 0; i < FLAG_LINES * MPB_LINE; i++)
        array[i] = seen.b[i] = 0;
    mpb_flush();
    for (int i = 0; i < ncores; i++)
        sent_to[i] = 0;
    next = 0;
    return 0;
}

static void notify(int dest, uint32_t count)
{
    (void)count;
    *mpb_at(dest, array + me) = ++sent_to[dest];
    mpb_flush();
}

static int wait(int from)
{
    for (;;) {
        union {
            uint32_t w[FLAG_LINES * MPB_LINE / 4];
            uint8_t b[FLAG_LINES * MPB_LINE];
        } now;
        scc_cl1invmb();
        for (int i = 0; i < FLAG_LINES * MPB_LINE / 4; i++)
            now.w[i] = ((volatile uint32_t *)array)[i];
        if (from >= 0) {
            if (now.b[from] != seen.b[from]) {
                seen.b[from] = now.b[from];
                return from;
            }
            continue;
        }
        for (int k = 0; k < ncores; k++) {  /* round robin: no sender starves */
            int s = (next + k) % ncores;
            if (now.w[s / 4] == seen.w[s / 4])
                continue;               /* the double word is unchanged */
            if (now.b[s] != seen.b[s]) {
                seen.b[s] = now.b[s];
                next = s + 1;
                return s;
            }
        }
    }
}

static void teardown(void)
{
    RCCE_free((t_vcharp)array);
}

const struct scheme scheme_flags = {
    .name = "flags", .params = "", .setup = setup, .notify = notify, .wait = wait,
    .teardown = teardown,
};
