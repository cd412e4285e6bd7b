/*
 * errors.c - wrong arguments get RCCE's error codes back instead of a
 * crash or a hang: bad ranks, sizes that overflow, NULL buffers, flags
 * outside the MPB, bad types/operators/roots, uninitialized communicators,
 * unknown error codes; a receive of the wrong length reports it and
 * leaves the channel usable. Needs >= 2 UEs.
 */
#include <limits.h>

#include "check.h"
#include "iRCCE.h"
#include "RCCEnb.h"
#include "scc_coll.h"

static void ranks_and_sizes(int me, int np)
{
    char buf[64];
    iRCCE_SEND_REQUEST s;
    iRCCE_RECV_REQUEST r;

    CHECK_EQ(RCCE_send(buf, 10, -1), RCCE_ERROR_ID);
    CHECK_EQ(RCCE_send(buf, 10, np), RCCE_ERROR_ID);
    CHECK_EQ(RCCE_send(buf, 10, me), RCCE_ERROR_ID);
    CHECK_EQ(RCCE_recv(buf, 10, -1), RCCE_ERROR_ID);
    CHECK_EQ(RCCE_recv(buf, 10, 1000), RCCE_ERROR_ID);
    CHECK_EQ(RCCE_recv(buf, 10, me), RCCE_ERROR_ID);
    CHECK_EQ(RCCE_send(NULL, 10, (me + 1) % np), RCCE_ERROR_SOURCE);
    CHECK_EQ(RCCE_recv(NULL, 10, (me + 1) % np), RCCE_ERROR_TARGET);
    CHECK_EQ(RCCE_send(buf, (size_t)INT_MAX + 1, (me + 1) % np),
             RCCE_ERROR_MESSAGE_LENGTH);
    CHECK_EQ(RCCE_recv(buf, (size_t)-1, (me + 1) % np), RCCE_ERROR_MESSAGE_LENGTH);
    int test = 5;
    CHECK_EQ(RCCE_recv_test(buf, 10, np, &test), RCCE_ERROR_ID);
    CHECK_EQ(test, 0);
    CHECK_EQ(iRCCE_isend(buf, -5, (me + 1) % np, &s), RCCE_ERROR_MESSAGE_LENGTH);
    CHECK_EQ(iRCCE_irecv(buf, -1, (me + 1) % np, &r), RCCE_ERROR_MESSAGE_LENGTH);
    CHECK_EQ(iRCCE_isend(buf, 10, 99, &s), RCCE_ERROR_ID);
    CHECK_EQ(iRCCE_irecv(buf, 10, -7, &r), RCCE_ERROR_ID);
    CHECK_EQ(iRCCE_irecv(NULL, 10, iRCCE_ANY_SOURCE, &r), RCCE_ERROR_TARGET);
    CHECK_EQ(iRCCE_isend_cancel(NULL, &test), iRCCE_NOT_ENQUEUED);
    CHECK_EQ(iRCCE_get_dest(NULL), iRCCE_ERROR);
    CHECK_EQ(RCCEnb_isend(buf, 10, np), RCCE_ERROR_ID);
    CHECK_EQ(RCCEnb_irecv(NULL, 10, (me + 1) % np), RCCE_ERROR_TARGET);
    /* zero bytes: nothing to do, and no error */
    CHECK_EQ(RCCE_send(NULL, 0, (me + 1) % np), RCCE_SUCCESS);
    CHECK_EQ(RCCE_recv(NULL, 0, (me + 1) % np), RCCE_SUCCESS);
}

static void memory_and_flags(int me, int np)
{
    char priv[64];
    t_vcharp m = RCCE_malloc(64);
    RCCE_FLAG f = NULL, bogus = (RCCE_FLAG)priv;
    RCCE_FLAG_STATUS st;

    CHECK(m != NULL, "RCCE_malloc");
    CHECK_EQ(RCCE_put(m, (t_vcharp)priv, 64, np), RCCE_ERROR_ID);
    CHECK_EQ(RCCE_get((t_vcharp)priv, m, 64, -1), RCCE_ERROR_ID);
    CHECK_EQ(RCCE_put(m, (t_vcharp)priv, -1, me), RCCE_ERROR_MESSAGE_LENGTH);
    CHECK_EQ(RCCE_put((t_vcharp)priv, (t_vcharp)priv, 8, me), RCCE_ERROR_TARGET);
    CHECK_EQ(RCCE_get((t_vcharp)priv, (t_vcharp)priv, 8, me), RCCE_ERROR_SOURCE);
    CHECK_EQ(RCCE_put(m, NULL, 8, me), RCCE_ERROR_SOURCE);
    CHECK_EQ(RCCE_get(NULL, m, 8, me), RCCE_ERROR_TARGET);
    CHECK_EQ(RCCE_put(m, (t_vcharp)priv, RCCE_BUFF_SIZE_MAX, me), RCCE_ERROR_TARGET);
    CHECK_EQ(RCCE_flag_alloc(NULL), RCCE_ERROR_FLAG_UNDEFINED);
    CHECK_EQ(RCCE_flag_write(NULL, RCCE_FLAG_SET, me), RCCE_ERROR_FLAG_UNDEFINED);
    CHECK_EQ(RCCE_flag_write(&f, RCCE_FLAG_SET, me), RCCE_ERROR_FLAG_UNDEFINED);
    CHECK_EQ(RCCE_flag_write(&bogus, RCCE_FLAG_SET, me),
             RCCE_ERROR_FLAG_NOT_IN_COMM_BUFFER);
    CHECK_EQ(RCCE_flag_read(bogus, &st, me), RCCE_ERROR_FLAG_NOT_IN_COMM_BUFFER);
    CHECK_EQ(RCCE_wait_until(NULL, RCCE_FLAG_SET), RCCE_ERROR_FLAG_UNDEFINED);
    CHECK_EQ(RCCE_flag_alloc(&f), RCCE_SUCCESS);
    RCCE_FLAG odd = (RCCE_FLAG)((t_vcharp)f + 4);
    CHECK_EQ(RCCE_flag_read(odd, &st, me), RCCE_ERROR_FLAG_NOT_IN_COMM_BUFFER);
    CHECK_EQ(RCCE_flag_read(f, NULL, me), RCCE_ERROR_VAL_UNDEFINED);
    CHECK_EQ(RCCE_flag_write(&f, RCCE_FLAG_SET, np), RCCE_ERROR_ID);
    CHECK_EQ(RCCE_flag_free(&bogus), RCCE_ERROR_FLAG_NOT_IN_COMM_BUFFER);
    CHECK_EQ(RCCE_flag_free(&f), RCCE_SUCCESS);
    CHECK_EQ(RCCE_acquire_lock(-1), RCCE_ERROR_ID);
    CHECK_EQ(RCCE_release_lock(np), RCCE_ERROR_ID);
    RCCE_free(m);
    RCCE_free((t_vcharp)priv);      /* not from RCCE_malloc: ignored */
    RCCE_free(NULL);
}

static void collectives(int me, int np)
{
    int in[4] = { 1, 2, 3, 4 }, out[4];
    RCCE_COMM junk;

    CHECK_EQ(RCCE_allreduce((char *)in, (char *)out, 4, 42, RCCE_SUM, RCCE_COMM_WORLD),
             RCCE_ERROR_ILLEGAL_TYPE);
    CHECK_EQ(RCCE_allreduce((char *)in, (char *)out, 4, RCCE_INT, 7, RCCE_COMM_WORLD),
             RCCE_ERROR_ILLEGAL_OP);
    CHECK_EQ(RCCE_allreduce((char *)in, (char *)out, -1, RCCE_INT, RCCE_SUM,
                            RCCE_COMM_WORLD), RCCE_ERROR_MESSAGE_LENGTH);
    CHECK_EQ(RCCE_allreduce((char *)in, (char *)out, INT_MAX, RCCE_DOUBLE, RCCE_SUM,
                            RCCE_COMM_WORLD), RCCE_ERROR_MESSAGE_LENGTH);
    CHECK_EQ(RCCE_allreduce(NULL, (char *)out, 4, RCCE_INT, RCCE_SUM, RCCE_COMM_WORLD),
             RCCE_ERROR_SOURCE);
    CHECK_EQ(RCCE_allreduce((char *)in, NULL, 4, RCCE_INT, RCCE_SUM, RCCE_COMM_WORLD),
             RCCE_ERROR_TARGET);
    CHECK_EQ(RCCE_reduce((char *)in, (char *)out, 4, RCCE_INT, RCCE_SUM, np,
                         RCCE_COMM_WORLD), RCCE_ERROR_ID);
    CHECK_EQ(RCCE_bcast((char *)in, 16, -1, RCCE_COMM_WORLD), RCCE_ERROR_ID);
    memset(&junk, 0, sizeof junk);
    int size;
    CHECK_EQ(RCCE_comm_size(junk, &size), RCCE_ERROR_COMM_INITIALIZED);
    CHECK_EQ(RCCE_comm_rank(junk, &size), RCCE_ERROR_COMM_INITIALIZED);
    CHECK_EQ(RCCE_barrier(&junk), RCCE_ERROR_COMM_UNDEFINED);
    CHECK_EQ(RCCE_barrier(NULL), RCCE_ERROR_COMM_UNDEFINED);
    CHECK_EQ(RCCE_bcast((char *)in, 16, 0, junk), RCCE_ERROR_COMM_UNDEFINED);
    CHECK_EQ(RCCE_allreduce((char *)in, (char *)out, 4, RCCE_INT, RCCE_SUM, junk),
             RCCE_ERROR_COMM_UNDEFINED);
    CHECK_EQ(RCCE_comm_split(NULL, NULL, &junk), RCCE_ERROR_COMM_UNDEFINED);
    CHECK_EQ(RCCE_comm_free(&junk), RCCE_ERROR_COMM_INITIALIZED);
    CHECK_EQ(RCCE_comm_free(&RCCE_COMM_WORLD), RCCE_ERROR_COMM_UNDEFINED);
    (void)me;
}

/* Every collective with RCCE_comm's names: bad roots, sizes, buffers and
 * sources, and forcing an unknown algorithm or parameter, each a clear
 * error before any member communicates. */
static void every_collective(int me, int np)
{
    static const char *const ops[] = {"bcast", "reduce", "allreduce", "allgather", "alltoall",
                                      "reduce_scatter", "scatter", "gather", "barrier", "stop"};
    char in[64], out[64 * 48];
    int src[3] = {0, 0, np};

    CHECK_EQ(RCCE_allgather(NULL, out, 4, RCCE_COMM_WORLD), RCCE_ERROR_SOURCE);
    CHECK_EQ(RCCE_allgather(in, NULL, 4, RCCE_COMM_WORLD), RCCE_ERROR_TARGET);
    CHECK_EQ(RCCE_allgather(in, out, (size_t)-1 / 2, RCCE_COMM_WORLD),
             RCCE_ERROR_MESSAGE_LENGTH);
    CHECK_EQ(RCCE_alltoall(NULL, out, 4, RCCE_COMM_WORLD), RCCE_ERROR_SOURCE);
    CHECK_EQ(RCCE_alltoall(in, NULL, 4, RCCE_COMM_WORLD), RCCE_ERROR_TARGET);
    CHECK_EQ(RCCE_alltoall(in, out, (size_t)-1 / 2, RCCE_COMM_WORLD),
             RCCE_ERROR_MESSAGE_LENGTH);
    CHECK_EQ(RCCE_scatter(in, out, 4, np, RCCE_COMM_WORLD), RCCE_ERROR_ID);
    CHECK_EQ(RCCE_scatter(in, out, 4, -1, RCCE_COMM_WORLD), RCCE_ERROR_ID);
    CHECK_EQ(RCCE_scatter(in, NULL, 4, 0, RCCE_COMM_WORLD), RCCE_ERROR_TARGET);
    CHECK_EQ(RCCE_gather(in, out, 4, np, RCCE_COMM_WORLD), RCCE_ERROR_ID);
    CHECK_EQ(RCCE_gather(NULL, out, 4, 0, RCCE_COMM_WORLD), RCCE_ERROR_SOURCE);
    CHECK_EQ(RCCE_reduce_scatter(in, out, 4, 42, RCCE_SUM, RCCE_COMM_WORLD),
             RCCE_ERROR_ILLEGAL_TYPE);
    CHECK_EQ(RCCE_reduce_scatter(in, out, 4, RCCE_INT, 9, RCCE_COMM_WORLD),
             RCCE_ERROR_ILLEGAL_OP);
    CHECK_EQ(RCCE_reduce_scatter(in, out, -4, RCCE_INT, RCCE_SUM, RCCE_COMM_WORLD),
             RCCE_ERROR_MESSAGE_LENGTH);
    CHECK_EQ(RCCE_reduce_scatter(NULL, out, 4, RCCE_INT, RCCE_SUM, RCCE_COMM_WORLD),
             RCCE_ERROR_SOURCE);
    CHECK_EQ(scc_stop_bcast(in, out, 4, NULL, 1, RCCE_COMM_WORLD), RCCE_ERROR_ID);
    CHECK_EQ(scc_stop_bcast(in, out, 4, src, 0, RCCE_COMM_WORLD), RCCE_ERROR_ID);
    CHECK_EQ(scc_stop_bcast(in, out, 4, src, 2, RCCE_COMM_WORLD), RCCE_ERROR_ID);
    CHECK_EQ(scc_stop_bcast(in, out, 4, src + 1, 2, RCCE_COMM_WORLD), RCCE_ERROR_ID);
    CHECK_EQ(scc_stop_bcast(in, NULL, 4, src, 1, RCCE_COMM_WORLD), RCCE_ERROR_TARGET);
    for (unsigned i = 0; i < sizeof ops / sizeof ops[0]; i++) {
        CHECK_EQ(scc_coll_set(ops[i], "nosuch"), -1);
        CHECK(strstr(scc_coll_error(), "nosuch") != NULL, "%s: %s", ops[i], scc_coll_error());
        CHECK_EQ(scc_coll_set(ops[i], "auto:bogus=1"), -1);
        CHECK_EQ(scc_coll_set(ops[i], "auto"), 0);
    }
    CHECK_EQ(scc_coll_set("bcast", "oc:k=0"), -1);
    CHECK_EQ(scc_coll_set("bcast", "oc:k=7,chunk=100000"), -1);
    CHECK_EQ(scc_coll_set("nosuch", "auto"), -1);
    (void)me;
}

static void strings(void)
{
    char s[RCCE_MAX_ERROR_STRING];
    int len = -1;

    CHECK_EQ(RCCE_error_string(RCCE_SUCCESS, s, &len), RCCE_SUCCESS);
    CHECK(strcmp(s, "Success") == 0 && len == 7, "'%s'", s);
    for (int e = RCCE_ERROR_TARGET; e <= RCCE_ERROR_NO_MULTICAST_SUPPORT; e++) {
        CHECK_EQ(RCCE_error_string(e, s, &len), RCCE_SUCCESS);
        CHECK(len > 0 && len < RCCE_MAX_ERROR_STRING && (int)strlen(s) == len,
              "error %d: '%s'", e, s);
    }
    CHECK_EQ(RCCE_error_string(RCCE_ERROR_BASE + 99, s, &len),
             RCCE_ERROR_INVALID_ERROR_CODE);
    CHECK_EQ(RCCE_error_string(-3, s, &len), RCCE_ERROR_INVALID_ERROR_CODE);
    CHECK_EQ(len, 0);
    CHECK_EQ(RCCE_debug_set(12), RCCE_ERROR_DEBUG_FLAG);
    CHECK_EQ(RCCE_debug_unset(RCCE_DEBUG_ALL), RCCE_SUCCESS);
}

/* UE 0 sends 100 bytes three times; UE 1 receives 50, then 200, then 100. */
static void wrong_length(int me)
{
    char buf[200];

    if (me == 0) {
        for (int i = 0; i < 3; i++) {
            fill(buf, 100, (uint32_t)i);
            CHECK_EQ(RCCE_send(buf, 100, 1), RCCE_SUCCESS);
        }
    } else if (me == 1) {
        memset(buf, 0, sizeof buf);
        CHECK_EQ(RCCE_recv(buf, 50, 0), RCCE_ERROR_MESSAGE_LENGTH);
        CHECK(verify(buf, 50, 0) < 0 && buf[50] == 0, "short receive");
        CHECK_EQ(RCCE_recv(buf, 200, 0), RCCE_ERROR_MESSAGE_LENGTH);
        CHECK(verify(buf, 100, 1) < 0, "long receive");
        CHECK_EQ(RCCE_recv(buf, 100, 0), RCCE_SUCCESS);
        CHECK(verify(buf, 100, 2) < 0, "the channel after wrong lengths");
    }
}

/* RCCEnb refuses a second transfer in the same direction. The barriers
 * keep each first transfer in flight while the second one is tried
 * (barriers do not push RCCEnb transfers). */
static void nb_busy(int me)
{
    char a[10] = "abc", b[10];

    if (me == 1) {
        CHECK_EQ(RCCEnb_irecv(b, sizeof b, 0), RCCE_SUCCESS);
        CHECK_EQ(RCCEnb_irecv(b, sizeof b, 0), RCCE_REJECTED);
    }
    RCCE_barrier(&RCCE_COMM_WORLD);
    if (me == 0) {
        CHECK_EQ(RCCEnb_isend(a, sizeof a, 1), RCCE_SUCCESS);
        CHECK_EQ(RCCEnb_isend(a, sizeof a, 1), RCCE_REJECTED);
    }
    RCCE_barrier(&RCCE_COMM_WORLD);
    if (me == 0)
        CHECK_EQ(RCCEnb_send_wait(), RCCE_SUCCESS);
    if (me == 1) {
        CHECK_EQ(RCCEnb_recv_wait(), RCCE_SUCCESS);
        CHECK(strcmp(b, "abc") == 0, "nb data");
    }
}

int RCCE_APP(int argc, char **argv)
{
    if (RCCE_init(&argc, &argv) != RCCE_SUCCESS) {
        printf("FAIL: RCCE_init\n");
        return 1;
    }
    int me = RCCE_ue(), np = RCCE_num_ues();
    if (np < 2) {
        printf("FAIL: needs 2 UEs\n");
        return 1;
    }
    ranks_and_sizes(me, np);
    RCCE_barrier(&RCCE_COMM_WORLD);
    memory_and_flags(me, np);
    RCCE_barrier(&RCCE_COMM_WORLD);
    collectives(me, np);
    every_collective(me, np);
    strings();
    RCCE_barrier(&RCCE_COMM_WORLD);
    wrong_length(me);
    RCCE_barrier(&RCCE_COMM_WORLD);
    nb_busy(me);
    return done("errors");
}
