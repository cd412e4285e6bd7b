/*
 * shm.c - RCCE_shmalloc: symmetric blocks in shared DRAM that every UE
 * sees. UE 0 writes, a barrier, everybody checks; then every UE writes
 * its own slice of a block and everybody checks all slices.
 */
#include "check.h"

int RCCE_APP(int argc, char **argv)
{
    if (RCCE_init(&argc, &argv) != RCCE_SUCCESS) {
        printf("FAIL: RCCE_init\n");
        return 1;
    }
    int me = RCCE_ue(), np = RCCE_num_ues();
    size_t n = 100000, slice = 4096;
    t_vcharp a = RCCE_shmalloc(n), b = RCCE_shmalloc(slice * np);
    long off[2] = { a ? (long)(b - a) : -1, 0 }, lo[2], hi[2];

    CHECK(a && b, "RCCE_shmalloc");
    if (!a || !b)
        return done("shm");
    RCCE_allreduce((char *)off, (char *)lo, 2, RCCE_LONG, RCCE_MIN, RCCE_COMM_WORLD);
    RCCE_allreduce((char *)off, (char *)hi, 2, RCCE_LONG, RCCE_MAX, RCCE_COMM_WORLD);
    CHECK(lo[0] == hi[0], "different layouts");

    if (me == 0)
        fill((void *)a, n, 99);
    RCCE_barrier(&RCCE_COMM_WORLD);
    RCCE_shflush();
    CHECK(verify((void *)a, n, 99) < 0, "block written by UE 0");

    fill((void *)(b + slice * me), slice, 1000u + (uint32_t)me);
    CHECK_EQ(RCCE_DCMflush(), RCCE_SUCCESS);     /* later RCCE's name for it */
    RCCE_barrier(&RCCE_COMM_WORLD);
    for (int ue = 0; ue < np; ue++)
        CHECK(verify((void *)(b + slice * ue), slice, 1000u + (uint32_t)ue) < 0,
              "slice of UE %d", ue);
    RCCE_barrier(&RCCE_COMM_WORLD);

    RCCE_shfree(a);
    t_vcharp c = RCCE_shmalloc(n / 2);  /* first fit: a's old place */
    CHECK(c == a, "freed space not reused");
    CHECK(RCCE_shmalloc(0) == NULL, "shmalloc(0)");
    CHECK(RCCE_shmalloc((size_t)RCCE_SHM_SIZE_MAX + 1) == NULL, "shmalloc too large");
    RCCE_shfree(c);
    RCCE_shfree(b);
    return done("shm");
}
