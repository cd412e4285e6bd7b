/*
 * bcast_bench.c - the bcast benchmark: apps/coll/collbench.c has the
 * method, options and CSV columns. Built for the chip (build/apps/) and
 * for the host backend (build/libscc/rcce/host/).
 */
#include "coll/collbench.h"

int RCCE_APP(int argc, char **argv)
{
    return coll_bench_main(argc, argv, "bcast");
}
