/*
 * start.c - an RCCE benchmark's start-up.
 */
#include <stdio.h>

#include "RCCE.h"
#include "bench.h"
#include "iRCCE.h"

int bench_rcce_start(int *argc, char ***argv, const char *prog, int ircce)
{
    bench_keep_args(*argc, *argv);  /* RCCE_init rewrites argv */
    if (RCCE_init(argc, argv) != RCCE_SUCCESS)
        return 2;                   /* RCCE_init said why */
    if (ircce && iRCCE_init() != iRCCE_SUCCESS) {
        fprintf(stderr, "%s: iRCCE_init failed\n", prog);
        return 2;
    }
    return 0;
}
