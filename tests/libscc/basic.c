/*
 * basic.c - RCCE_init's argument handling, ranks and cores, the clock, the
 * power API (no effect, success), fences, debug switches.
 *
 *     basic WORD NUMBER    (checks that the program sees exactly these)
 */
#include "check.h"

int RCCE_APP(int argc, char **argv)
{
    int cores[RCCE_MAXNP];

    if (RCCE_init(&argc, &argv) != RCCE_SUCCESS) {
        printf("FAIL: RCCE_init\n");
        return 1;
    }
    int me = RCCE_ue(), np = RCCE_num_ues();

    /* the program's own arguments, and nothing of the UE list */
    CHECK_EQ(argc, 3);
    CHECK(argc == 3 && strcmp(argv[1], "hello") == 0 && strcmp(argv[2], "42") == 0,
          "argv");
    CHECK(argv[0] != NULL && strstr(argv[0], "basic") != NULL, "argv[0]");

    /* ranks follow core ids */
    CHECK(me >= 0 && me < np, "rank %d of %d", me, np);
    for (int ue = 0; ue < np; ue++)
        cores[ue] = RCCE_ue_core(ue);
    for (int ue = 1; ue < np; ue++)
        CHECK(cores[ue] > cores[ue - 1], "core order");
    CHECK_EQ(RCCE_ue_core(np), -1);

    /* the clock runs forward, in seconds, and is shared */
    double t0 = RCCE_wtime(), t1;
    do
        t1 = RCCE_wtime();
    while (t1 == t0);
    CHECK(t1 > t0 && t1 - t0 < 1.0, "wtime %f -> %f", t0, t1);
    double mine = t1, lo, hi;
    RCCE_barrier(&RCCE_COMM_WORLD);
    RCCE_allreduce((char *)&mine, (char *)&lo, 1, RCCE_DOUBLE, RCCE_MIN, RCCE_COMM_WORLD);
    RCCE_allreduce((char *)&mine, (char *)&hi, 1, RCCE_DOUBLE, RCCE_MAX, RCCE_COMM_WORLD);
    CHECK(hi - lo < 30.0, "clocks %f apart", hi - lo);

    /* power management: the domain's clock (no effect on the host) */
    RCCE_REQUEST req;
    int fdiv = 0, vlevel = -1;
    int dom = RCCE_power_domain(), master = RCCE_power_domain_master();
    int dsize = RCCE_power_domain_size();
    CHECK(dom >= 0 && dom < 6, "domain %d", dom);
    CHECK(master >= 0 && master <= me, "master %d", master);
    CHECK(dsize >= 1 && dsize <= 8, "domain size %d", dsize);
    CHECK_EQ(RCCE_iset_power(4, &req, &fdiv, &vlevel), RCCE_SUCCESS);
    CHECK_EQ(RCCE_wait_power(&req), RCCE_SUCCESS);
    CHECK_EQ(RCCE_set_frequency_divider(3, &fdiv), RCCE_SUCCESS);
    CHECK_EQ(fdiv, 3);
    fdiv = 0;
    CHECK_EQ(RCCE_set_frequency_divider(1, &fdiv), RCCE_ERROR_FDIVIDER);
    CHECK_EQ(RCCE_set_frequency_divider(17, &fdiv), RCCE_ERROR_FDIVIDER);
    CHECK_EQ(fdiv, 0);
#ifndef SCC_HOST
    /* 800 MHz: faster than the chip's 533 MHz core clock */
    CHECK_EQ(RCCE_iset_power(2, &req, &fdiv, &vlevel), RCCE_ERROR_FDIVIDER);
#endif

    RCCE_fence();
    CHECK_EQ(RCCE_debug_set(RCCE_DEBUG_COMM), RCCE_SUCCESS);
    CHECK_EQ(RCCE_debug_unset(RCCE_DEBUG_COMM), RCCE_SUCCESS);
    if (me == 0)
        printf("%d UEs, cores %d..%d, %s\n", np, cores[0], cores[np - 1], _RCCE);
    return done("basic");
}
