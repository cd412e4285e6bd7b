/*
 * ircce.c - iRCCE: many outstanding requests, out-of-order completion,
 * iRCCE_ANY_SOURCE from every other UE, cancel, wait lists, pipelined
 * send/recv, and iRCCE mixed with RCCE's blocking calls. Needs >= 3 UEs;
 * run it on all 48 cores to get 47 wildcard senders.
 */
#include "check.h"
#include "iRCCE.h"

static size_t size_of(int from, int to)
{
    return 1 + (size_t)((from * 977 + to * 131) % 5000);
}

static uint32_t seed_of(int from, int to, int round)
{
    return (uint32_t)(from * 1000 + to + round * 100000);
}

/* Everyone sends to and receives from everyone, all requests posted at
 * once (receives first), completed with one wait list. */
static void all_to_all(int me, int np, int round)
{
    iRCCE_SEND_REQUEST *sr = xmalloc(np * sizeof *sr);
    iRCCE_RECV_REQUEST *rr = xmalloc(np * sizeof *rr);
    char **out = xmalloc(np * sizeof *out), **in = xmalloc(np * sizeof *in);
    iRCCE_WAIT_LIST list;

    iRCCE_init_wait_list(&list);
    for (int k = 1; k < np; k++) {
        int from = (me - k + np) % np;
        in[from] = xmalloc(size_of(from, me));
        int st = iRCCE_irecv(in[from], size_of(from, me), from, &rr[from]);
        CHECK(st == iRCCE_SUCCESS || st == iRCCE_PENDING || st == iRCCE_RESERVED,
              "irecv %d", st);
        iRCCE_add_to_wait_list(&list, NULL, &rr[from]);
    }
    for (int k = 1; k < np; k++) {
        int to = (me + k) % np;
        out[to] = xmalloc(size_of(me, to));
        fill(out[to], size_of(me, to), seed_of(me, to, round));
        int st = iRCCE_isend(out[to], size_of(me, to), to, &sr[to]);
        CHECK(st == iRCCE_SUCCESS || st == iRCCE_PENDING || st == iRCCE_RESERVED,
              "isend %d", st);
        iRCCE_add_to_wait_list(&list, &sr[to], NULL);
    }
    CHECK_EQ(iRCCE_wait_all(&list), iRCCE_SUCCESS);
    CHECK(list.first == NULL, "wait list not empty");
    for (int k = 1; k < np; k++) {
        int from = (me - k + np) % np, to = (me + k) % np;
        CHECK(rr[from].finished && sr[to].finished, "not finished");
        long bad = verify(in[from], size_of(from, me), seed_of(from, me, round));
        CHECK(bad < 0, "all-to-all from %d: byte %ld", from, bad);
        free(in[from]);
        free(out[to]);
    }
    free(sr); free(rr); free(out); free(in);
}

/* UE 0 posts receives from 1 and 2; 2 sends at once, 1 only after UE 0
 * says so, which it does only when 2's message is in: completion out of
 * posting order, seen through wait_any. */
static void out_of_order(int me)
{
    size_t n = 300000;
    char *a = xmalloc(n), *b = xmalloc(n), go = 1;

    if (me == 0) {
        iRCCE_RECV_REQUEST r1, r2, *done = NULL;
        iRCCE_SEND_REQUEST *sdone = (iRCCE_SEND_REQUEST *)&r1; /* must become NULL */
        iRCCE_WAIT_LIST list;
        iRCCE_init_wait_list(&list);
        iRCCE_irecv(a, n, 1, &r1);
        iRCCE_irecv(b, n, 2, &r2);
        iRCCE_add_to_wait_list(&list, NULL, &r1);
        iRCCE_add_to_wait_list(&list, NULL, &r2);
        CHECK_EQ(iRCCE_wait_any(&list, &sdone, &done), iRCCE_SUCCESS);
        CHECK(done == &r2 && sdone == NULL, "first done is not UE 2's");
        CHECK(!r1.finished, "UE 1's message came before it was sent");
        CHECK(verify(b, n, 22) < 0, "data from 2");
        CHECK_EQ(RCCE_send(&go, 1, 1), RCCE_SUCCESS);
        CHECK_EQ(iRCCE_wait_any(&list, NULL, &done), iRCCE_SUCCESS);
        CHECK(done == &r1, "second done is not UE 1's");
        CHECK(verify(a, n, 11) < 0, "data from 1");
        CHECK_EQ(iRCCE_test_any(&list, NULL, &done), iRCCE_PENDING);
        CHECK_EQ(iRCCE_wait_any(&list, NULL, &done), iRCCE_ERROR);
    } else if (me == 1) {
        CHECK_EQ(RCCE_recv(&go, 1, 0), RCCE_SUCCESS);
        fill(a, n, 11);
        CHECK_EQ(iRCCE_send(a, n, 0), RCCE_SUCCESS);
    } else if (me == 2) {
        fill(b, n, 22);
        CHECK_EQ(iRCCE_ssend(b, n, 0), RCCE_SUCCESS);
    }
    free(a);
    free(b);
}

/* UE 0 takes one message from every other UE through wildcards: first
 * with np-1 outstanding wildcard requests, then with blocking ones. */
static void any_source(int me, int np)
{
    int msg[16];

    if (me == 0) {
        iRCCE_RECV_REQUEST *r = xmalloc(np * sizeof *r);
        int (*got)[16] = xmalloc(np * sizeof *got), *seen = xmalloc(np * sizeof *seen);
        iRCCE_WAIT_LIST list;

        for (int pass = 0; pass < 2; pass++) {
            memset(seen, 0, np * sizeof *seen);
            iRCCE_init_wait_list(&list);
            for (int i = 1; i < np; i++) {
                if (pass == 0) {
                    iRCCE_irecv((char *)got[i], sizeof got[i], iRCCE_ANY_SOURCE, &r[i]);
                    iRCCE_add_to_wait_list(&list, NULL, &r[i]);
                } else {
                    CHECK_EQ(iRCCE_recv((char *)got[i], sizeof got[i],
                                        iRCCE_ANY_SOURCE), RCCE_SUCCESS);
                    CHECK_EQ(iRCCE_get_source(NULL), got[i][0]);
                    CHECK_EQ(iRCCE_get_length(), sizeof got[i]);
                }
            }
            if (pass == 0)
                CHECK_EQ(iRCCE_wait_all(&list), iRCCE_SUCCESS);
            for (int i = 1; i < np; i++) {
                int s = got[i][0];
                CHECK(s > 0 && s < np, "bad sender %d", s);
                if (pass == 0)
                    CHECK_EQ(iRCCE_get_source(&r[i]), s);
                if (s > 0 && s < np)
                    seen[s]++;
                for (int j = 1; j < 16; j++)
                    CHECK_EQ(got[i][j], s * 100 + j + pass);
            }
            for (int s = 1; s < np; s++)
                CHECK(seen[s] == 1, "pass %d: %d messages from UE %d", pass,
                      seen[s], s);
            /* or a fast sender's next message could match this pass */
            RCCE_barrier(&RCCE_COMM_WORLD);
        }
        free(r); free(got); free(seen);
    } else {
        for (int pass = 0; pass < 2; pass++) {
            msg[0] = me;
            for (int j = 1; j < 16; j++)
                msg[j] = me * 100 + j + pass;
            CHECK_EQ(RCCE_send((char *)msg, sizeof msg, 0), RCCE_SUCCESS);
            RCCE_barrier(&RCCE_COMM_WORLD);
        }
    }
}

/* Cancel: a receive nobody sends to, a wildcard, a queued send; a send
 * whose data is already out cannot be cancelled. */
static void cancel(int me)
{
    char a[100], b[100], c[100];
    int test = -1, flag = -1;

    if (me == 0) {
        iRCCE_RECV_REQUEST r, w;
        iRCCE_SEND_REQUEST s1, s2;
        iRCCE_irecv(a, sizeof a, 1, &r);
        CHECK_EQ(iRCCE_irecv_cancel(&r, &test), iRCCE_SUCCESS);
        CHECK_EQ(test, 1);
        CHECK_EQ(iRCCE_irecv_cancel(&r, &test), iRCCE_NOT_ENQUEUED);
        CHECK_EQ(test, 0);
        iRCCE_irecv(a, sizeof a, iRCCE_ANY_SOURCE, &w);
        CHECK_EQ(iRCCE_cancel(&w, &test), iRCCE_SUCCESS);   /* generic name */
        CHECK_EQ(test, 1);

        fill(b, sizeof b, 1);
        fill(c, sizeof c, 2);
        iRCCE_isend(b, sizeof b, 1, &s1);   /* posted: UE 1 is not receiving */
        iRCCE_isend(c, sizeof c, 2, &s2);   /* queued behind s1 */
        CHECK_EQ(iRCCE_get_status(&s2, NULL), iRCCE_RESERVED);
        CHECK_EQ(iRCCE_cancel(&s2, &test), iRCCE_SUCCESS);
        CHECK_EQ(test, 1);
        CHECK_EQ(iRCCE_isend_cancel(&s1, &test), iRCCE_PENDING);
        CHECK_EQ(test, 0);
        RCCE_barrier(&RCCE_COMM_WORLD);     /* 1 and 2 may look now */
        CHECK_EQ(iRCCE_isend_wait(&s1), iRCCE_SUCCESS);
        RCCE_barrier(&RCCE_COMM_WORLD);
    } else {
        RCCE_barrier(&RCCE_COMM_WORLD);
        if (me == 2) {
            /* the cancelled send never arrives */
            CHECK_EQ(iRCCE_iprobe(0, NULL, &flag), iRCCE_SUCCESS);
            CHECK_EQ(flag, 0);
        }
        if (me == 1) {
            int rank = -1;
            CHECK_EQ(iRCCE_probe(iRCCE_ANY_SOURCE, &rank), iRCCE_SUCCESS);
            CHECK_EQ(rank, 0);
            CHECK_EQ(iRCCE_get_length(), sizeof b);
            CHECK_EQ(RCCE_recv(b, sizeof b, 0), RCCE_SUCCESS);
            CHECK(verify(b, sizeof b, 1) < 0, "the send cancel refused");
        }
        RCCE_barrier(&RCCE_COMM_WORLD);
    }
}

/* Blocking and non-blocking, pipelined and not, all match each other. */
static void mixed(int me, int np)
{
    size_t n = 1 << 20;
    char *buf = xmalloc(n);
    int right = (me + 1) % np, left = (me + np - 1) % np;
    iRCCE_SEND_REQUEST s;
    iRCCE_RECV_REQUEST r;

    fill(buf, n, 7u + (uint32_t)me);
    iRCCE_isend(buf, n, right, &s);
    if (me % 2) {
        char *in = xmalloc(n);
        CHECK_EQ(RCCE_recv(in, n, left), RCCE_SUCCESS);
        CHECK(verify(in, n, 7u + (uint32_t)left) < 0, "mixed from %d", left);
        free(in);
    } else {
        char *in = xmalloc(n);
        int test = 0;
        iRCCE_irecv(in, n, left, &r);
        while (!test)
            iRCCE_irecv_test(&r, &test);
        CHECK(verify(in, n, 7u + (uint32_t)left) < 0, "mixed from %d", left);
        free(in);
    }
    CHECK_EQ(iRCCE_isend_wait(&s), iRCCE_SUCCESS);
    CHECK_EQ(iRCCE_push(), iRCCE_SUCCESS);
    free(buf);
}

int RCCE_APP(int argc, char **argv)
{
    if (RCCE_init(&argc, &argv) != RCCE_SUCCESS || iRCCE_init() != iRCCE_SUCCESS) {
        printf("FAIL: init\n");
        return 1;
    }
    int me = RCCE_ue(), np = RCCE_num_ues();
    if (np < 3) {
        printf("FAIL: needs at least 3 UEs\n");
        return 1;
    }
    double t = RCCE_wtime();
#define PHASE(name, call) do { call; RCCE_barrier(&RCCE_COMM_WORLD); \
        if (me == 0) printf("%-12s %.2f s\n", name, RCCE_wtime() - t); \
        t = RCCE_wtime(); } while (0)
    PHASE("all-to-all", for (int round = 0; round < 3; round++) all_to_all(me, np, round));
    PHASE("out-of-order", out_of_order(me));
    PHASE("any-source", any_source(me, np));
    PHASE("cancel", cancel(me));
    PHASE("mixed", mixed(me, np));
    return done("ircce");
}
