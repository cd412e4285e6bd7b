/*
 * bcast_bench.c - the bcast benchmark: see collbench.h for the
 * method, options and CSV columns. Built for the chip (build/apps/) and
 * for the host backend (build/libscc/rcce/host/).
 */
#include "collbench.h"

int RCCE_APP(int argc, char **argv)
{
    return coll_bench_main(argc, argv, "bcast");
}
