/*
 * flags.c - flags and locks under contention.
 *
 * Locks: every UE increments counters kept in the MPBs of UE 0 and of UE
 * np-1 many times, each time under that UE's lock with RCCE_get/RCCE_put,
 * and the totals must come out exact. Flags: a token goes round the ring
 * of all UEs several times (RCCE_flag_write at the next UE, RCCE_wait_until
 * at home) carrying a value in the MPB; every UE also reads remote flags.
 */
#include "check.h"

#define ROUNDS 200
#define LAPS 20

static void locks(int me, int np)
{
    t_vcharp cnt = RCCE_malloc(RCCE_LINE_SIZE);
    int owners[2] = { 0, np - 1 }, zero[RCCE_LINE_SIZE / sizeof(int)] = { 0 };

    CHECK(cnt != NULL, "RCCE_malloc");
    RCCE_put(cnt, (t_vcharp)zero, RCCE_LINE_SIZE, me);
    RCCE_barrier(&RCCE_COMM_WORLD);
    for (int i = 0; i < ROUNDS; i++) {
        int ue = owners[(i + me) % 2], v[RCCE_LINE_SIZE / sizeof(int)];
        CHECK_EQ(RCCE_acquire_lock(ue), RCCE_SUCCESS);
        CHECK_EQ(RCCE_get((t_vcharp)v, cnt, RCCE_LINE_SIZE, ue), RCCE_SUCCESS);
        v[0]++;
        v[1 + me % 7] += me;    /* a read-modify-write of a whole line */
        CHECK_EQ(RCCE_put(cnt, (t_vcharp)v, RCCE_LINE_SIZE, ue), RCCE_SUCCESS);
        CHECK_EQ(RCCE_release_lock(ue), RCCE_SUCCESS);
    }
    RCCE_barrier(&RCCE_COMM_WORLD);
    if (me == 0) {
        int total = 0, sums[7] = { 0 }, want[7] = { 0 };
        for (int k = 0; k < (np > 1 ? 2 : 1); k++) {
            int v[RCCE_LINE_SIZE / sizeof(int)];
            RCCE_get((t_vcharp)v, cnt, RCCE_LINE_SIZE, owners[k]);
            total += v[0];
            for (int j = 0; j < 7; j++)
                sums[j] += v[1 + j];
        }
        for (int ue = 0; ue < np; ue++)
            want[ue % 7] += ue * ROUNDS;
        if (np == 1)
            CHECK_EQ(total, ROUNDS);
        else
            CHECK_EQ(total, np * ROUNDS);
        for (int j = 0; j < 7 && np > 1; j++)
            CHECK_EQ(sums[j], want[j]);
    }
    RCCE_barrier(&RCCE_COMM_WORLD);
    RCCE_free(cnt);
}

static void token_ring(int me, int np)
{
    RCCE_FLAG token;
    t_vcharp box = RCCE_malloc(RCCE_LINE_SIZE);
    int next = (me + 1) % np, v[8];
    RCCE_FLAG_STATUS st;

    CHECK_EQ(RCCE_flag_alloc(&token), RCCE_SUCCESS);
    CHECK_EQ(RCCE_flag_read(token, &st, me), RCCE_SUCCESS);
    CHECK_EQ(st, RCCE_FLAG_UNSET);
    RCCE_barrier(&RCCE_COMM_WORLD);
    if (me == 0) {
        memset(v, 0, sizeof v);
        RCCE_put(box, (t_vcharp)v, sizeof v, next);
        RCCE_flag_write(&token, RCCE_FLAG_SET, next);
    }
    for (int lap = 0; lap < LAPS; lap++) {
        CHECK_EQ(RCCE_wait_until(token, RCCE_FLAG_SET), RCCE_SUCCESS);
        CHECK_EQ(RCCE_flag_write(&token, RCCE_FLAG_UNSET, me), RCCE_SUCCESS);
        RCCE_get((t_vcharp)v, box, sizeof v, me);
        CHECK_EQ(v[0], lap * np + (me ? me : np) - 1);
        v[0]++;
        if (me != 0 || lap + 1 < LAPS) {
            RCCE_put(box, (t_vcharp)v, sizeof v, next);
            RCCE_flag_write(&token, RCCE_FLAG_SET, next);
        }
    }
    RCCE_barrier(&RCCE_COMM_WORLD);
    /* everybody's token is unset now; set mine and read it from elsewhere */
    RCCE_flag_write(&token, RCCE_FLAG_SET, me);
    RCCE_barrier(&RCCE_COMM_WORLD);
    for (int ue = 0; ue < np; ue++) {
        CHECK_EQ(RCCE_flag_read(token, &st, ue), RCCE_SUCCESS);
        CHECK_EQ(st, RCCE_FLAG_SET);
    }
    int set = 0;
    CHECK_EQ(RCCE_test_flag(token, RCCE_FLAG_SET, &set), RCCE_SUCCESS);
    CHECK_EQ(set, 1);
    RCCE_barrier(&RCCE_COMM_WORLD);
    CHECK_EQ(RCCE_flag_free(&token), RCCE_SUCCESS);
    CHECK(token == NULL, "flag_free keeps the pointer");
    RCCE_free(box);
}

/* Every UE sets a flag at every other UE at once; everybody waits for all. */
static void all_flags(int me, int np)
{
    RCCE_FLAG *f = xmalloc(np * sizeof *f);

    for (int i = 0; i < np; i++)
        CHECK_EQ(RCCE_flag_alloc(&f[i]), RCCE_SUCCESS);
    RCCE_barrier(&RCCE_COMM_WORLD);
    for (int k = 1; k < np; k++)
        RCCE_flag_write(&f[me], RCCE_FLAG_SET, (me + k) % np);
    for (int i = 0; i < np; i++)
        if (i != me)
            CHECK_EQ(RCCE_wait_until(f[i], RCCE_FLAG_SET), RCCE_SUCCESS);
    RCCE_barrier(&RCCE_COMM_WORLD);
    for (int i = np - 1; i >= 0; i--)
        CHECK_EQ(RCCE_flag_free(&f[i]), RCCE_SUCCESS);
    free(f);
}

int RCCE_APP(int argc, char **argv)
{
    if (RCCE_init(&argc, &argv) != RCCE_SUCCESS) {
        printf("FAIL: RCCE_init\n");
        return 1;
    }
    int me = RCCE_ue(), np = RCCE_num_ues();
    locks(me, np);
    token_ring(me, np);
    if (np <= 48)   /* one flag per UE must fit in the heap (scc_mpb.h) */
        all_flags(me, np);
    return done("flags");
}
