/*
 * mismatch.c - one collective with sizes that disagree between members
 * (tests/test_coll.py): every member passes num bytes (elements for the
 * reductions) except the last rank, which passes num + delta.
 *
 *     mismatch OP:SPEC [num=N] [delta=D] [root=R]
 *
 * A member prints "RESULT ue R code C" with what its call returned. The
 * program exits 0 only if every member's call returned RCCE_SUCCESS: a
 * silent wrong answer, which the test refuses. An error on some member
 * (its partners may then wait: the stall detectors end such runs) is
 * the right outcome.
 */
#include "check.h"
#include "scc_coll.h"

int RCCE_APP(int argc, char **argv)
{
    int num = 96, delta = 32, root = 0, err;
    const char *spec = NULL;

    RCCE_init(&argc, &argv);
    int me = RCCE_ue(), np = RCCE_num_ues();
    for (int i = 1; i < argc; i++) {
        if (!strncmp(argv[i], "num=", 4))
            num = atoi(argv[i] + 4);
        else if (!strncmp(argv[i], "delta=", 6))
            delta = atoi(argv[i] + 6);
        else if (!strncmp(argv[i], "root=", 5))
            root = atoi(argv[i] + 5);
        else
            spec = argv[i];
    }
    if (!spec || !strchr(spec, ':')) {
        printf("mismatch: give OP:SPEC\n");
        return 2;
    }
    char op[32];
    snprintf(op, sizeof op, "%.*s", (int)(strchr(spec, ':') - spec), spec);
    if (scc_coll_set(op, strchr(spec, ':') + 1) < 0) {
        printf("mismatch: %s\n", scc_coll_error());
        return 2;
    }
    int n = me == np - 1 ? num + delta : num;
    size_t big = (size_t)(num + (delta > 0 ? delta : 0)) * (size_t)np * 8 + 64;
    char *in = calloc(1, big), *out = calloc(1, big);
    int src[1] = {root};
    if (!strcmp(op, "bcast"))
        err = RCCE_bcast(in, (size_t)n, root, RCCE_COMM_WORLD);
    else if (!strcmp(op, "reduce"))
        err = RCCE_reduce(in, out, n, RCCE_INT, RCCE_SUM, root, RCCE_COMM_WORLD);
    else if (!strcmp(op, "allreduce"))
        err = RCCE_allreduce(in, out, n, RCCE_INT, RCCE_SUM, RCCE_COMM_WORLD);
    else if (!strcmp(op, "reduce_scatter"))
        err = RCCE_reduce_scatter(in, out, n, RCCE_INT, RCCE_SUM, RCCE_COMM_WORLD);
    else if (!strcmp(op, "allgather"))
        err = RCCE_allgather(in, out, (size_t)n, RCCE_COMM_WORLD);
    else if (!strcmp(op, "alltoall"))
        err = RCCE_alltoall(in, out, (size_t)n, RCCE_COMM_WORLD);
    else if (!strcmp(op, "scatter"))
        err = RCCE_scatter(in, out, (size_t)n, root, RCCE_COMM_WORLD);
    else if (!strcmp(op, "gather"))
        err = RCCE_gather(in, out, (size_t)n, root, RCCE_COMM_WORLD);
    else if (!strcmp(op, "stop"))
        err = scc_stop_bcast(in, out, (size_t)n, src, 1, RCCE_COMM_WORLD);
    else {
        printf("mismatch: no sizes to mismatch in %s\n", op);
        return 2;
    }
    printf("RESULT ue %d code %d\n", me, err);
    return err == RCCE_SUCCESS ? 0 : 1;
}
