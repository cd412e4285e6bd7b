/*
 * gory.c - a program written for RCCE's gory interface (-DGORY style):
 * RCCE_send/RCCE_recv with its own MPB comm buffer and flags, between UE 0
 * and every other UE, sizes around and far above the comm buffer; and
 * RCCE_recv_test.
 */
#define GORY
#include "check.h"

int RCCE_APP(int argc, char **argv)
{
    static const size_t sizes[] = { 1, 31, 32, 33, 500, 1024, 1025, 4096, 100003 };
    RCCE_FLAG ready, sent;
    size_t chunk = 0;

    if (RCCE_init(&argc, &argv) != RCCE_SUCCESS) {
        printf("FAIL: RCCE_init\n");
        return 1;
    }
    int me = RCCE_ue(), np = RCCE_num_ues();
    CHECK_EQ(RCCE_flag_alloc(&ready), RCCE_SUCCESS);
    CHECK_EQ(RCCE_flag_alloc(&sent), RCCE_SUCCESS);
    t_vcharp comm = RCCE_malloc_request(1024, &chunk);
    CHECK(comm && chunk == 1024, "comm buffer: %lu bytes", (unsigned long)chunk);
    char *buf = xmalloc(sizes[8]);
    RCCE_barrier(&RCCE_COMM_WORLD);

    for (int peer = 1; peer < np; peer++) {
        if (me != 0 && me != peer)
            continue;
        for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
            size_t n = sizes[i];
            uint32_t seed = (uint32_t)(n + (size_t)peer * 7);
            if (me == 0) {
                fill(buf, n, seed);
                CHECK_EQ(RCCE_send(buf, comm, chunk, &ready, &sent, n, peer),
                         RCCE_SUCCESS);
                CHECK_EQ(RCCE_recv(buf, comm, chunk, &ready, &sent, n, peer),
                         RCCE_SUCCESS);
                CHECK(verify(buf, n, seed + 1) < 0, "%lu bytes back from %d",
                      (unsigned long)n, peer);
            } else {
                memset(buf, 0, n);
                CHECK_EQ(RCCE_recv(buf, comm, chunk, &ready, &sent, n, 0),
                         RCCE_SUCCESS);
                CHECK(verify(buf, n, seed) < 0, "%lu bytes from 0", (unsigned long)n);
                fill(buf, n, seed + 1);
                CHECK_EQ(RCCE_send(buf, comm, chunk, &ready, &sent, n, 0),
                         RCCE_SUCCESS);
            }
        }
        /* recv_test: nothing yet, then the message */
        int test = 1;
        if (me == 0) {
            CHECK_EQ(RCCE_recv_test(buf, comm, chunk, &ready, &sent, 64, peer, &test),
                     RCCE_SUCCESS);
            CHECK_EQ(test, 0);
            char go = 1;
            RCCE_send(&go, comm, chunk, &ready, &sent, 1, peer);
            for (test = 0; !test;)
                CHECK_EQ(RCCE_recv_test(buf, comm, chunk, &ready, &sent, 64, peer,
                                        &test), RCCE_SUCCESS);
            CHECK(verify(buf, 64, 3) < 0, "recv_test data");
        } else {
            char go;
            RCCE_recv(&go, comm, chunk, &ready, &sent, 1, 0);
            fill(buf, 64, 3);
            RCCE_send(buf, comm, chunk, &ready, &sent, 64, 0);
        }
    }
    RCCE_barrier(&RCCE_COMM_WORLD);
    CHECK_EQ(RCCE_send(buf, comm, 0, &ready, &sent, 8, (me + 1) % np),
             RCCE_ERROR_MESSAGE_LENGTH);
    free(buf);
    RCCE_free(comm);
    RCCE_flag_free(&sent);
    RCCE_flag_free(&ready);
    return done("gory");
}
