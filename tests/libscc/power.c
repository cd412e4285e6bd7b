/*
 * power.c - RCCE's power API changing a domain's clock while the other
 * UEs of the domain run (tests/test_libscc.py, in the chip's timing mode).
 * Every UE asks for its domain; after a barrier the master sets the
 * domain to 1600 / 6 = 266 MHz while the others time a loop. Each prints
 * "power: ue N loop cycles C gtsc G": at the new clock the same cycles
 * take twice the GTSC time. On the host the clock is not modeled and only
 * the API is exercised.
 */
#include "check.h"
#ifndef SCC_HOST
#include "scc.h"
#endif

static void spin(unsigned n)
{
    for (unsigned i = 0; i < n; i++)
        __asm__ volatile("" ::: "memory");
}

int RCCE_APP(int argc, char **argv)
{
    RCCE_REQUEST req;
    int fdiv, vlevel, master;

    RCCE_init(&argc, &argv);
    master = RCCE_power_domain_master();
    RCCE_barrier(&RCCE_COMM_WORLD);
    if (RCCE_ue() == master) {
        CHECK_EQ(RCCE_iset_power(6, &req, &fdiv, &vlevel), RCCE_SUCCESS);
        CHECK_EQ(RCCE_wait_power(&req), RCCE_SUCCESS);
    } else {
#ifndef SCC_HOST
        uint64_t g0 = scc_gtsc(), c0 = scc_tsc();

        spin(20000);
        printf("power: ue %d loop cycles %llu gtsc %llu\n", RCCE_ue(),
               (unsigned long long)(scc_tsc() - c0),
               (unsigned long long)(scc_gtsc() - g0));
#else
        spin(20000);
#endif
    }
    RCCE_barrier(&RCCE_COMM_WORLD);
    return done("power");
}
