/*
 * early_exit.c - one UE leaves before a barrier the others wait in
 * (tests/test_reliability.py: the machine must end such a run by itself).
 *
 *     early_exit STATUS    UE 1 exits with STATUS before the barrier
 */
#include "check.h"

int RCCE_APP(int argc, char **argv)
{
    if (RCCE_init(&argc, &argv) != RCCE_SUCCESS) {
        printf("FAIL: RCCE_init\n");
        return 1;
    }
    CHECK_EQ(argc, 2);
    if (RCCE_ue() == 1) {
        printf("UE 1 leaves with status %s\n", argv[1]);
        exit(atoi(argv[1]));
    }
    printf("UE %d waits in the barrier\n", RCCE_ue());
    RCCE_barrier(&RCCE_COMM_WORLD);
    printf("FAIL: UE %d passed the barrier without UE 1\n", RCCE_ue());
    return 1;
}
