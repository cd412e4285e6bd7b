/*
 * collbench.h - the collective benchmark (collbench.c), the main of
 * bcast_bench, allreduce_bench and coll_bench.
 */
#ifndef APPS_COLL_COLLBENCH_H
#define APPS_COLL_COLLBENCH_H

#include "RCCE.h"

/* Measures the collective --op (default @default_op); the exit status. */
int coll_bench_main(int argc, char **argv, const char *default_op);

#endif
