/*
 * coll_override.c - the run's choice of algorithms without recompiling
 * (libscc/src/coll/core/override.c): SCC_COLL in the environment and --coll
 * among the program's words. An unmodified RCCE program that broadcasts
 * and reduces; the words left after RCCE_init are the algorithms it
 * expects to have been used:
 *
 *     coll_override [--coll bcast=X] BCAST_ALG [--coll allreduce=Y] ALLREDUCE_ALG
 */
#include "check.h"

#include "scc_coll.h"

#define BYTES 100

/* The name part of scc_coll_used's "name:k=v,...". */
static int used_is(const char *op, const char *want)
{
    const char *used = scc_coll_used(op);
    size_t n = strlen(want);

    return used && !strncmp(used, want, n) && (used[n] == 0 || used[n] == ':');
}

int RCCE_APP(int argc, char **argv)
{
    char buf[BYTES];
    double mine[3], sum[3];

    /* the errors' test wants every UE's refusal said, and this program
     * checks the result */
    RCCE_init_refusal(RCCE_INIT_RETURN);
    if (RCCE_init(&argc, &argv) != RCCE_SUCCESS) {
        printf("FAIL: RCCE_init\n");
        return 1;
    }
    int me = RCCE_ue(), np = RCCE_num_ues();

    /* the --coll words are gone, the program's own stay, in order */
    CHECK_EQ(argc, 3);
    if (argc != 3)
        return done("coll_override");

    for (int i = 0; i < BYTES; i++)
        buf[i] = me == 0 ? (char)pattern(7, i) : 0;
    CHECK_EQ(RCCE_bcast(buf, BYTES, 0, RCCE_COMM_WORLD), RCCE_SUCCESS);
    for (int i = 0; i < BYTES; i++)
        CHECK(buf[i] == (char)pattern(7, i), "byte %d", i);
    for (int i = 0; i < 3; i++)
        mine[i] = me + i;
    CHECK_EQ(RCCE_allreduce((char *)mine, (char *)sum, 3, RCCE_DOUBLE, RCCE_SUM,
                            RCCE_COMM_WORLD), RCCE_SUCCESS);
    for (int i = 0; i < 3; i++)
        CHECK(sum[i] == np * (np - 1) / 2.0 + np * i, "sum %d: %g", i, sum[i]);

    CHECK(used_is("bcast", argv[1]), "bcast used %s, not %s", scc_coll_used("bcast"),
          argv[1]);
    CHECK(used_is("allreduce", argv[2]), "allreduce used %s, not %s",
          scc_coll_used("allreduce"), argv[2]);
    return done("coll_override");
}
