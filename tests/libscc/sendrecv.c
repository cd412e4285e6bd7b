/*
 * sendrecv.c - RCCE_send/RCCE_recv between UE 0 and every other UE, one
 * pair at a time: every size from LO to HI bytes and a few large ones,
 * there and back, checked byte by byte, with guard bytes behind each
 * receive buffer. Run it on cores 0 1 2 47 to cover a tile mate (1), the
 * neighbour tile (2) and the far corner (47).
 *
 *     sendrecv [LO HI [LARGE...]]     default 1 9000 16389 1048579 4194304
 *
 * Then the sizes around the channel's chunks once more with the two ends
 * in different copy styles (RCCE_copy_style): a sender in RCCE 1.x's
 * style cuts a message into whole-buffer chunks sent in lockstep, and
 * the receiver, in libscc's, must cut it the same way; then the reverse.
 */
#include "check.h"
#include "scc_mpb.h"             /* SCC_MPB_PAYLOAD_SIZE: the chunks */

#define GUARD 64

static size_t sizes_default[] = { 16389, 1048579, 4194304 };

/* one and two whole buffers, half of one, each give or take a byte */
static const size_t sizes_mixed[] = {
    SCC_MPB_PAYLOAD_SIZE / 2 + 1, SCC_MPB_PAYLOAD_SIZE, SCC_MPB_PAYLOAD_SIZE + 1,
    2 * SCC_MPB_PAYLOAD_SIZE - 1, 2 * SCC_MPB_PAYLOAD_SIZE + 1, 16389,
};

static void one(char *buf, size_t n, int peer, int me, int pass)
{
    uint32_t there = (uint32_t)(n * 97 + (size_t)peer * 2 + (size_t)pass * 131071);
    uint32_t back = there + 1;
    long bad;

    if (me == 0) {
        fill(buf, n, there);
        CHECK_EQ(RCCE_send(buf, n, peer), RCCE_SUCCESS);
        memset(buf, 0xEE, n + GUARD);
        CHECK_EQ(RCCE_recv(buf, n, peer), RCCE_SUCCESS);
        bad = verify(buf, n, back);
        CHECK(bad < 0, "%lu bytes from UE %d: byte %ld wrong", (unsigned long)n,
              peer, bad);
    } else {
        memset(buf, 0xEE, n + GUARD);
        CHECK_EQ(RCCE_recv(buf, n, 0), RCCE_SUCCESS);
        bad = verify(buf, n, there);
        CHECK(bad < 0, "%lu bytes from UE 0: byte %ld wrong", (unsigned long)n, bad);
        fill(buf, n, back);
        CHECK_EQ(RCCE_send(buf, n, 0), RCCE_SUCCESS);
    }
    for (size_t i = n; i < n + GUARD; i++)
        if ((unsigned char)buf[i] != 0xEE && me == 0) {
            CHECK(0, "%lu bytes: guard byte %lu overwritten", (unsigned long)n,
                  (unsigned long)(i - n));
            break;
        }
}

static void mixed(char *buf, int peer, int me)
{
    for (int sender_rcce1 = 1; sender_rcce1 >= 0; sender_rcce1--) {
        /* UE 0 sends first: its style is the sender's going out */
        int rcce1 = me == 0 ? sender_rcce1 : !sender_rcce1;

        CHECK_EQ(RCCE_copy_style(rcce1 ? RCCE_COPY_RCCE1 : RCCE_COPY_LIBSCC),
                 RCCE_COPY_LIBSCC);
        for (size_t i = 0; i < sizeof sizes_mixed / sizeof *sizes_mixed; i++)
            one(buf, sizes_mixed[i], peer, me, 2 + sender_rcce1);
        RCCE_copy_style(RCCE_COPY_LIBSCC);
    }
}

int RCCE_APP(int argc, char **argv)
{
    size_t lo = 1, hi = 9000, *large = sizes_default, nlarge = 3, max = 0;

    if (RCCE_init(&argc, &argv) != RCCE_SUCCESS) {
        printf("FAIL: RCCE_init\n");
        return 1;
    }
    int me = RCCE_ue(), np = RCCE_num_ues();
    if (argc >= 3) {
        lo = strtoul(argv[1], NULL, 0);
        hi = strtoul(argv[2], NULL, 0);
        nlarge = (size_t)argc - 3;
        large = xmalloc(nlarge * sizeof *large);
        for (size_t i = 0; i < nlarge; i++)
            large[i] = strtoul(argv[3 + i], NULL, 0);
    }
    max = hi > 16389 ? hi : 16389;         /* and sizes_mixed */
    for (size_t i = 0; i < nlarge; i++)
        if (large[i] > max)
            max = large[i];
    char *buf = xmalloc(max + GUARD);

    for (int peer = 1; peer < np; peer++) {
        if (me == 0 || me == peer) {
            double t = RCCE_wtime();
            for (size_t n = lo; n <= hi; n++)
                one(buf, n, peer, me, 0);
            for (size_t i = 0; i < nlarge; i++)
                one(buf, large[i], peer, me, 1);
            mixed(buf, peer, me);

            /* RCCE_recv_test: nothing there, then the message */
            int test = 1;
            if (me == peer) {
                CHECK_EQ(RCCE_recv_test(buf, 100, 0, &test), RCCE_SUCCESS);
                CHECK_EQ(test, 0);
                CHECK_EQ(RCCE_send(buf, 1, 0), RCCE_SUCCESS);
                for (test = 0; !test;)
                    CHECK_EQ(RCCE_recv_test(buf, 100, 0, &test), RCCE_SUCCESS);
                CHECK(verify(buf, 100, 5) < 0, "recv_test data");
            } else {
                CHECK_EQ(RCCE_recv(buf, 1, peer), RCCE_SUCCESS);
                fill(buf, 100, 5);
                CHECK_EQ(RCCE_send(buf, 100, peer), RCCE_SUCCESS);
            }
            if (me == 0)
                printf("pair UE 0 (core %d) - UE %d (core %d): %lu sizes in %.2f s\n",
                       RCCE_ue_core(0), peer, RCCE_ue_core(peer),
                       (unsigned long)(hi - lo + 1 + nlarge), RCCE_wtime() - t);
        }
        RCCE_barrier(&RCCE_COMM_WORLD);
    }
    free(buf);
    if (large != sizes_default)
        free(large);
    return done("sendrecv");
}
