/*
 * malloc.c - the symmetric MPB heap: the same calls give the same offsets
 * on every UE (checked with min/max reductions and by using the blocks
 * across UEs), RCCE_malloc refuses with NULL when the MPB is full, and
 * freed space is reused.
 */
#include "check.h"

#define MAXB 64

/* The same sizes on every UE: a fixed pseudo-random sequence. */
static size_t size_at(int i)
{
    return 1 + (size_t)((i * 2654435761u) % 200);
}

/* offs[i] equal on all UEs? */
static void same_everywhere(long *offs, int n, const char *what)
{
    long *lo = xmalloc(n * sizeof *lo), *hi = xmalloc(n * sizeof *hi);

    CHECK_EQ(RCCE_allreduce((char *)offs, (char *)lo, n, RCCE_LONG, RCCE_MIN,
                            RCCE_COMM_WORLD), RCCE_SUCCESS);
    CHECK_EQ(RCCE_allreduce((char *)offs, (char *)hi, n, RCCE_LONG, RCCE_MAX,
                            RCCE_COMM_WORLD), RCCE_SUCCESS);
    for (int i = 0; i < n; i++)
        CHECK(lo[i] == offs[i] && hi[i] == offs[i], "%s %d: offset %ld, others %ld..%ld",
              what, i, offs[i], lo[i], hi[i]);
    free(lo);
    free(hi);
}

int RCCE_APP(int argc, char **argv)
{
    t_vcharp p[MAXB], base;
    long offs[MAXB];
    int n = 0;

    if (RCCE_init(&argc, &argv) != RCCE_SUCCESS) {
        printf("FAIL: RCCE_init\n");
        return 1;
    }
    int me = RCCE_ue(), np = RCCE_num_ues();

    /* offsets from the first block; then free every other block and
     * allocate again, so first fit has holes to choose from */
    base = RCCE_malloc(RCCE_LINE_SIZE);
    CHECK(base != NULL, "first RCCE_malloc");
    for (n = 0; n < 10; n++) {
        p[n] = RCCE_malloc(size_at(n));
        CHECK(p[n] != NULL, "RCCE_malloc(%lu)", (unsigned long)size_at(n));
        offs[n] = (long)(p[n] - base);
        CHECK(offs[n] % RCCE_LINE_SIZE == 0, "block %d not line aligned", n);
    }
    same_everywhere(offs, n, "block");
    for (int i = 0; i < n; i += 2)
        RCCE_free(p[i]);
    for (int i = 0; i < n; i += 2) {
        p[i] = RCCE_malloc(size_at(i + 50));
        offs[i] = p[i] ? (long)(p[i] - base) : -1;
    }
    same_everywhere(offs, n, "reused block");

    /* the blocks are really at the same place: write into the next UE's
     * copy of block 1, read it back from there and from home */
    char msg[32], back[32];
    snprintf(msg, sizeof msg, "from ue %d", me);
    RCCE_barrier(&RCCE_COMM_WORLD);
    CHECK_EQ(RCCE_put(p[1], (t_vcharp)msg, sizeof msg, (me + 1) % np), RCCE_SUCCESS);
    RCCE_barrier(&RCCE_COMM_WORLD);
    CHECK_EQ(RCCE_get((t_vcharp)back, p[1], sizeof back, me), RCCE_SUCCESS);
    snprintf(msg, sizeof msg, "from ue %d", (me + np - 1) % np);
    CHECK(strcmp(back, msg) == 0, "block 1 holds '%s'", back);
    RCCE_barrier(&RCCE_COMM_WORLD);

    for (int i = 0; i < n; i++)
        RCCE_free(p[i]);
    RCCE_free(base);

    /* fill the heap one line at a time until RCCE_malloc says no */
    t_vcharp all[128];
    long count = 0, lo, hi;
    while (count < 128 && (all[count] = RCCE_malloc(1)) != NULL)
        count++;
    CHECK(count > 16 && count < 128, "%ld lines", count);
    CHECK(RCCE_malloc(1) == NULL, "RCCE_malloc after full");
    CHECK(RCCE_malloc(0) == NULL, "RCCE_malloc(0)");
    RCCE_FLAG f;
    CHECK_EQ(RCCE_flag_alloc(&f), RCCE_ERROR_FLAG_NOT_ALLOCATED);
    RCCE_allreduce((char *)&count, (char *)&lo, 1, RCCE_LONG, RCCE_MIN, RCCE_COMM_WORLD);
    RCCE_allreduce((char *)&count, (char *)&hi, 1, RCCE_LONG, RCCE_MAX, RCCE_COMM_WORLD);
    CHECK(lo == count && hi == count, "heap lines differ: %ld..%ld", lo, hi);
    for (long i = 0; i < count; i++)
        RCCE_free(all[i]);

    /* one block as large as the whole free heap, then nothing fits */
    t_vcharp whole = RCCE_malloc((size_t)count * RCCE_LINE_SIZE);
    CHECK(whole != NULL, "RCCE_malloc of the whole heap (%ld lines)", count);
    CHECK(RCCE_malloc(1) == NULL, "RCCE_malloc with the heap taken");
    RCCE_free(whole);
    CHECK(RCCE_malloc((size_t)(count + 1) * RCCE_LINE_SIZE) == NULL, "too large");
    CHECK(RCCE_malloc((size_t)-1) == NULL, "huge");

    /* malloc_request halves until it fits */
    size_t chunk = 0;
    t_vcharp req = RCCE_malloc_request(RCCE_BUFF_SIZE_MAX, &chunk);
    CHECK(req != NULL && chunk > 0 && chunk <= (size_t)count * RCCE_LINE_SIZE,
          "malloc_request: chunk %lu", (unsigned long)chunk);
    RCCE_free(req);

    if (me == 0)
        printf("heap: %ld free lines (%ld bytes) for the program\n", count,
               count * RCCE_LINE_SIZE);
    return done("malloc");
}
