/*
 * stall.c - a program that can never end: UE 0 waits for a flag no one
 * sets, the others wait for UE 0 in a barrier. Both backends must stop
 * it and say so (tests/test_libscc.py): the host's watchdog and the
 * machine's stall detector, each with status 247.
 */
#include "check.h"

int RCCE_APP(int argc, char **argv)
{
    RCCE_FLAG flag;

    RCCE_init(&argc, &argv);
    if (RCCE_flag_alloc(&flag) != RCCE_SUCCESS) {
        printf("stall: RCCE_flag_alloc failed\n");
        return 1;
    }
    printf("stall: ue %d waits\n", RCCE_ue());
    if (RCCE_ue() == 0)
        RCCE_wait_until(flag, RCCE_FLAG_SET);
    RCCE_barrier(&RCCE_COMM_WORLD);
    printf("stall: ue %d got past the wait (wrong)\n", RCCE_ue());
    return 1;
}
