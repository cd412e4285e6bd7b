/*
 * comm.c - RCCE_comm_split into odd/even ranks and into mesh rows (the y
 * of each UE's core), with barriers, broadcasts and reductions inside the
 * parts; splitting again into an initialized communicator; comm_free.
 */
#include "check.h"

static int odd_even(int ue, void *aux)
{
    (void)aux;
    return ue % 2;
}

/* Row of the mesh (6x4 tiles, two cores a tile) a UE's core sits in. */
static int row(int ue, void *aux)
{
    (void)aux;
    return RCCE_ue_core(ue) / 2 / 6;
}

static int everyone(int ue, void *aux)
{
    (void)ue;
    (void)aux;
    return 0;
}

static int thirds(int ue, void *aux)
{
    return ue % *(int *)aux;
}

/* {0, 1, 2} and the rest; {0, 1, 3} and the rest: two splits whose parts
 * have the same sizes and give UEs 0, 1 and 4.. the same ranks, but not
 * the same members. */
static int first3(int ue, void *aux)
{
    (void)aux;
    return ue >= 3;
}

static int first3_but_2(int ue, void *aux)
{
    (void)aux;
    return ue == 2 ? 1 : ue == 3 ? 0 : ue >= 3;
}

/* Broadcasts from rank 0 on @a and @b in turn, each algorithm of the
 * one-sided engine forced: what a UE caches of one communicator's tree
 * (oc_engine.c) must not serve the other, alike as they are. */
static void alternate(RCCE_COMM *a, RCCE_COMM *b, int me)
{
    static const char *algs[] = { "oc:k=2", "logp", "flat" };
    char buf[200];

    for (unsigned k = 0; k < sizeof algs / sizeof algs[0]; k++) {
        CHECK_EQ(scc_coll_set("bcast", algs[k]), 0);
        for (int i = 0; i < 6; i++) {
            RCCE_COMM *c = i % 2 ? b : a;
            uint32_t seed = (uint32_t)(1000 * k + 10 * i + c->member[0]);

            if (c->my_rank == 0)
                fill(buf, sizeof buf, seed);
            else
                memset(buf, 0, sizeof buf);
            CHECK_EQ(RCCE_bcast(buf, sizeof buf, 0, *c), RCCE_SUCCESS);
            CHECK(verify(buf, sizeof buf, seed) < 0, "%s on alike communicators, call %d, "
                  "UE %d", algs[k], i, me);
        }
    }
    CHECK_EQ(scc_coll_set("bcast", "auto"), 0);
}

static void check_comm(RCCE_COMM *c, int (*color)(int, void *), void *aux,
                       int me, int np)
{
    int size = -1, rank = -1, n = 0, myrank = -1;

    for (int ue = 0; ue < np; ue++)
        if (color(ue, aux) == color(me, aux)) {
            if (ue == me)
                myrank = n;
            CHECK(c->member[n] == ue, "member %d is %d, not %d", n, c->member[n], ue);
            n++;
        }
    CHECK_EQ(RCCE_comm_size(*c, &size), RCCE_SUCCESS);
    CHECK_EQ(RCCE_comm_rank(*c, &rank), RCCE_SUCCESS);
    CHECK_EQ(size, n);
    CHECK_EQ(rank, myrank);

    for (int i = 0; i < 5; i++)
        CHECK_EQ(RCCE_barrier(c), RCCE_SUCCESS);

    /* sum of the members' global ranks, and the members' max */
    int in[2] = { me, me }, sum[2] = { 0, 0 }, max[2] = { 0, 0 };
    int want_sum = 0, want_max = 0;
    for (int i = 0; i < n; i++) {
        want_sum += c->member[i];
        if (c->member[i] > want_max)
            want_max = c->member[i];
    }
    CHECK_EQ(RCCE_allreduce((char *)in, (char *)sum, 2, RCCE_INT, RCCE_SUM, *c),
             RCCE_SUCCESS);
    CHECK_EQ(RCCE_allreduce((char *)in, (char *)max, 2, RCCE_INT, RCCE_MAX, *c),
             RCCE_SUCCESS);
    CHECK_EQ(sum[0], want_sum);
    CHECK_EQ(sum[1], want_sum);
    CHECK_EQ(max[0], want_max);

    /* broadcast from the last member */
    char buf[3000];
    if (rank == n - 1)
        fill(buf, sizeof buf, (uint32_t)c->member[0]);
    else
        memset(buf, 0, sizeof buf);
    CHECK_EQ(RCCE_bcast(buf, sizeof buf, n - 1, *c), RCCE_SUCCESS);
    CHECK(verify(buf, sizeof buf, (uint32_t)c->member[0]) < 0, "bcast in part");
}

int RCCE_APP(int argc, char **argv)
{
    RCCE_COMM oe, rows, again;

    if (RCCE_init(&argc, &argv) != RCCE_SUCCESS) {
        printf("FAIL: RCCE_init\n");
        return 1;
    }
    int me = RCCE_ue(), np = RCCE_num_ues(), three = 3;

    memset(&oe, 0, sizeof oe);
    memset(&rows, 0, sizeof rows);
    memset(&again, 0, sizeof again);
    CHECK_EQ(RCCE_comm_split(odd_even, NULL, &oe), RCCE_SUCCESS);
    CHECK_EQ(RCCE_comm_split(row, NULL, &rows), RCCE_SUCCESS);
    check_comm(&oe, odd_even, NULL, me, np);
    check_comm(&rows, row, NULL, me, np);
    check_comm(&RCCE_COMM_WORLD, everyone, NULL, me, np);

    /* barriers of different communicators interleaved */
    for (int i = 0; i < 10; i++) {
        CHECK_EQ(RCCE_barrier(&oe), RCCE_SUCCESS);
        CHECK_EQ(RCCE_barrier(&rows), RCCE_SUCCESS);
        CHECK_EQ(RCCE_barrier(&RCCE_COMM_WORLD), RCCE_SUCCESS);
    }

    if (np >= 4) {
        RCCE_COMM a, b;

        memset(&a, 0, sizeof a);
        memset(&b, 0, sizeof b);
        CHECK_EQ(RCCE_comm_split(first3, NULL, &a), RCCE_SUCCESS);
        CHECK_EQ(RCCE_comm_split(first3_but_2, NULL, &b), RCCE_SUCCESS);
        check_comm(&a, first3, NULL, me, np);
        check_comm(&b, first3_but_2, NULL, me, np);
        alternate(&a, &b, me);
        CHECK_EQ(RCCE_comm_free(&b), RCCE_SUCCESS);
        CHECK_EQ(RCCE_comm_free(&a), RCCE_SUCCESS);
    }

    /* split again into an initialized communicator: new members, same lines */
    CHECK_EQ(RCCE_comm_split(thirds, &three, &oe), RCCE_SUCCESS);
    check_comm(&oe, thirds, &three, me, np);

    CHECK_EQ(RCCE_comm_free(&oe), RCCE_SUCCESS);
    CHECK_EQ(RCCE_comm_free(&oe), RCCE_ERROR_COMM_INITIALIZED);
    CHECK_EQ(RCCE_comm_split(odd_even, NULL, &again), RCCE_SUCCESS);
    check_comm(&again, odd_even, NULL, me, np);
    CHECK_EQ(RCCE_comm_free(&again), RCCE_SUCCESS);
    CHECK_EQ(RCCE_comm_free(&rows), RCCE_SUCCESS);
    return done("comm");
}
