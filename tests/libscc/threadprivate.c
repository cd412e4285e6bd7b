/*
 * threadprivate.c - per-UE globals marked `#pragma omp threadprivate`, as
 * RCCE programs written for Intel's emulator (the NPB ports) have them.
 * On the host each UE is a thread and the host build uses -fopenmp, which
 * makes such variables thread-local; on the chip every UE has its own
 * memory anyway. Either way each UE must see only its own values.
 */
#include "check.h"

static int rank_copy;
static double table[64];
#pragma omp threadprivate(rank_copy, table)

int RCCE_APP(int argc, char **argv)
{
    if (RCCE_init(&argc, &argv) != RCCE_SUCCESS) {
        printf("FAIL: RCCE_init\n");
        return 1;
    }
    int me = RCCE_ue();

    rank_copy = me;
    for (int i = 0; i < 64; i++)
        table[i] = me * 1000.0 + i;
    /* everybody has written before anybody checks */
    RCCE_barrier(&RCCE_COMM_WORLD);
    CHECK_EQ(rank_copy, me);
    for (int i = 0; i < 64; i++)
        CHECK(table[i] == me * 1000.0 + i, "table[%d] = %f", i, table[i]);
    RCCE_barrier(&RCCE_COMM_WORLD);
    return done("threadprivate");
}
