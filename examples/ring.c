/*
 * ring.c - a token passed once around a ring of UEs, the README's first
 * program. Each UE adds its rank; UE 0 prints the sum and its square root.
 *
 *     scc-cc -g -O2 -o ring.elf ring.c -lm           # for the chip
 *     scc-cc --host -g -O2 -o ring ring.c -lm        # for the host backend
 *     scc-run --rcce --app ring.elf --cores 0-7
 *     ./ring 8 0.533 0 1 2 3 4 5 6 7
 */
#include <math.h>
#include <stdio.h>

#include "RCCE.h"

/* A function of its own, to set a breakpoint on (docs/debugging.md). */
__attribute__((noinline)) static int pass(int token, int me)
{
    return token + me;
}

int RCCE_APP(int argc, char **argv)
{
    int token = 0, me, n;

    RCCE_init(&argc, &argv);
    me = RCCE_ue();
    n = RCCE_num_ues();
    if (me == 0) {
        RCCE_send((char *)&token, sizeof token, 1 % n);
        RCCE_recv((char *)&token, sizeof token, n - 1);
        printf("token %d after %d UEs, sqrt %.3f\n", token, n, sqrt((double)token));
    } else {
        RCCE_recv((char *)&token, sizeof token, me - 1);
        token = pass(token, me);
        RCCE_send((char *)&token, sizeof token, (me + 1) % n);
    }
    RCCE_finalize();
    return 0;
}
