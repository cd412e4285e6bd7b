/*
 * nb.c - RCCEnb, the lightweight non-blocking primitives: rounds of a
 * ring exchange (send right, receive from the left, wait for both) as a
 * collective would do them, sizes from a byte to pipelined, and RCCEnb
 * matched against RCCE_send/RCCE_recv and iRCCE.
 */
#include "check.h"
#include "iRCCE.h"
#include "RCCEnb.h"

int RCCE_APP(int argc, char **argv)
{
    static const size_t sizes[] = { 1, 100, 2048, 2049, 5000, 65536 };

    if (RCCE_init(&argc, &argv) != RCCE_SUCCESS) {
        printf("FAIL: RCCE_init\n");
        return 1;
    }
    int me = RCCE_ue(), np = RCCE_num_ues();
    int right = (me + 1) % np, left = (me + np - 1) % np;
    char *out = xmalloc(65536), *in = xmalloc(65536);

    if (np < 2) {
        printf("FAIL: needs 2 UEs\n");
        return 1;
    }
    /* a ring: every round passes a different size; repeated rounds */
    for (int round = 0; round < 30; round++) {
        size_t n = sizes[round % 6];
        fill(out, n, (uint32_t)(me * 100 + round));
        memset(in, 0, n);
        CHECK_EQ(RCCEnb_isend(out, n, right), RCCE_SUCCESS);
        CHECK_EQ(RCCEnb_irecv(in, n, left), RCCE_SUCCESS);
        if (round % 2) {
            int s = 0, r = 0;
            while (RCCEnb_test(&s, &r) != RCCE_SUCCESS)
                ;
            CHECK(s && r, "test says done but %d %d", s, r);
        } else {
            CHECK_EQ(RCCEnb_wait(), RCCE_SUCCESS);
        }
        CHECK(verify(in, n, (uint32_t)(left * 100 + round)) < 0,
              "round %d: %lu bytes from %d", round, (unsigned long)n, left);
    }

    /* RCCEnb against the blocking and iRCCE calls */
    fill(out, 5000, 77u + (uint32_t)me);
    if (me % 2 == 0) {
        CHECK_EQ(RCCEnb_isend(out, 5000, right), RCCE_SUCCESS);
        CHECK_EQ(RCCEnb_send_wait(), RCCE_SUCCESS);
        CHECK_EQ(iRCCE_recv(in, 5000, left), RCCE_SUCCESS);
    } else {
        CHECK_EQ(RCCE_recv(in, 5000, left), RCCE_SUCCESS);
        CHECK_EQ(RCCE_send(out, 5000, right), RCCE_SUCCESS);
    }
    if (np % 2 == 0)
        CHECK(verify(in, 5000, 77u + (uint32_t)left) < 0, "mixed from %d", left);
    RCCE_barrier(&RCCE_COMM_WORLD);

    /* an iRCCE request holds the send direction: RCCEnb must wait its turn.
     * The receiver starts only once the sender has checked, on a flag: a
     * receiver that took chunks as fast as they were posted could let the
     * whole send finish within iRCCE_isend. */
    RCCE_FLAG go;
    CHECK_EQ(RCCE_flag_alloc(&go), RCCE_SUCCESS);
    CHECK_EQ(RCCE_flag_write(&go, RCCE_FLAG_UNSET, me), RCCE_SUCCESS);
    RCCE_barrier(&RCCE_COMM_WORLD);
    if (me == 0) {
        iRCCE_SEND_REQUEST s;
        iRCCE_isend(out, 20000, 1, &s);
        CHECK_EQ(RCCEnb_isend(out, 10, 1), RCCE_REJECTED);
        CHECK_EQ(RCCE_flag_write(&go, RCCE_FLAG_SET, 1), RCCE_SUCCESS);
        CHECK_EQ(iRCCE_isend_wait(&s), iRCCE_SUCCESS);
        CHECK_EQ(RCCEnb_isend(out, 10, 1), RCCE_SUCCESS);
        CHECK_EQ(RCCEnb_send_wait(), RCCE_SUCCESS);
    } else if (me == 1) {
        CHECK_EQ(RCCE_wait_until(go, RCCE_FLAG_SET), RCCE_SUCCESS);
        CHECK_EQ(RCCEnb_irecv(in, 20000, 0), RCCE_SUCCESS);
        CHECK_EQ(RCCEnb_recv_wait(), RCCE_SUCCESS);
        CHECK_EQ(RCCEnb_irecv(in, 20, 0), RCCE_SUCCESS);
        CHECK_EQ(RCCEnb_recv_wait(), RCCE_ERROR_MESSAGE_LENGTH);
    }
    RCCE_barrier(&RCCE_COMM_WORLD);
    CHECK_EQ(RCCE_flag_free(&go), RCCE_SUCCESS);
    free(out);
    free(in);
    return done("nb");
}
