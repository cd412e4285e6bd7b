/*
 * One core panics (core=P, default 7) once every started core (cores=C,
 * the cores 0..C-1; default all) is up; the others wait in scc_halt()
 * until the kernel's panic broadcast (NMI) stops them.
 */
#include "testlib.h"

int main(int argc, char **argv)
{
    int me = scc_core_id();
    int victim = arg_long(argc, argv, "core", 7);
    int cores = arg_long(argc, argv, "cores", scc_num_cores());
    unsigned round = 0;
    barrier(0, cores, &round);
    if (me == victim) {
        char msg[64];
        snprintf(msg, sizeof msg, "test panic from core %02d", me);
        scc_panic(msg);
    }
    printf("core %02d waits\n", me);
    for (;;)
        scc_halt();
}
