/*
 * The copy-core service (docs/copy.md): a core given this image in the
 * core map serves copy requests from its kernel mailbox until a STOP.
 *
 *   copy_core [--fault N] [--hang N]     (or fault=N hang=N: apps/lib/bench.h)
 *
 * A request {dst, src, size, target, method, cookie} (SCC_COPY_TAG_REQ)
 * names the sender's user addresses; the sender is the mailbox's source,
 * which the kernel sets, so a core can only ask for its own memory. The
 * kernel (SYS_copy_serve) checks the requester's page tables, copies
 * through LUT windows and puts the windows back. Success goes to target,
 * an error to the requester (and to target as well, so that a target
 * waiting for the data is not left waiting). A malformed message gets
 * -SCC_EINVAL back and the service goes on.
 *
 * --fault N (tests): the N-th request faults the core before it is served,
 * as a bug in the service would. --hang N (tests): the N-th request sends the
 * service into a loop that never ends, as another bug would: its requester
 * gives up at the deadline (scc_copy_set_timeout) and the machine ends
 * this core as unresponsive.
 *
 * Output: "copy_core NN: serving, lut ..." at the start and "copy_core NN:
 * stop: S served, R refused, M malformed, lut ..." at the end; the LUT
 * entries are the windows' (pages 0x29-0x2B), which every request restores.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "scc_copy.h"

#define WINDOWS 3

static void print_lut(void)
{
    for (unsigned w = 0; w < WINDOWS; w++)
        printf(" %02x=%06lx", 0x29 + w, (unsigned long)scc_lut_read(0x29 + w));
}

static void answer(int dest, uint32_t cookie, int32_t status, int requester, uint32_t size)
{
    struct scc_copy_done d = {
        .cookie = cookie, .status = status, .requester = (uint16_t)requester,
        .copier = (uint16_t)scc_core_id(), .size = size,
    };
    int r = scc_mbox_send(dest, SCC_COPY_TAG_DONE, &d, sizeof(d));
    /* A requester that has gone away cannot be told; the service goes on. */
    if (r < 0 && r != -SCC_ESRCH)
        printf("copy_core %02d: answer to core %d failed: %d\n", scc_core_id(), dest, r);
}

/* The arguments (apps/lib/bench.h). */
#define CC_OPTIONS(X)               \
    X(CC_FAULT, "fault", value)     \
    X(CC_HANG, "hang", value)
BENCH_OPTIONS(cc, none, none, CC_OPTIONS);

/* The test knobs into *fault_at and *hang_at: 0, or 2 after saying why. */
static int cc_options(int argc, char **argv, unsigned long *fault_at, unsigned long *hang_at)
{
    struct bench_args args;
    const char *v;
    int k;

    bench_args(&args, argc, argv, 1, &cc_opts);
    while ((k = bench_next(&args, &v)) != BENCH_END) {
        if (k == CC_FAULT || k == CC_HANG) {
            *(k == CC_FAULT ? fault_at : hang_at) = strtoul(v, NULL, 0);
            continue;
        }
        printf("copy_core %02d: unknown argument %s%s%s\n", scc_core_id(), bench_word(&args),
               k == BENCH_BAD ? ": " : "", k == BENCH_BAD ? bench_why() : "");
        return 2;
    }
    return 0;
}

int main(int argc, char **argv)
{
    unsigned long fault_at = 0, hang_at = 0;
    unsigned served = 0, refused = 0, malformed = 0, n = 0;
    int me = scc_core_id(), ncores = scc_num_cores();

    if (cc_options(argc, argv, &fault_at, &hang_at))
        return 2;
    /* A first, empty request makes the kernel treat this core as a copy
     * core: when it stops, waiting requesters are woken to notice. */
    scc_syscall(SYS_copy_serve, me, 0, 0, 0, SCC_COPY_PLAIN);
    printf("copy_core %02d: serving, lut", me);
    print_lut();
    printf("\n");

    for (;;) {
        struct scc_msg m;
        struct scc_copy_req q;
        int r = scc_mbox_recv(&m, 0);

        if (r < 0) {
            printf("copy_core %02d: receive failed: %d\n", me, r);
            return 1;
        }
        if (m.tag == SCC_COPY_TAG_STOP)
            break;
        if (m.tag == SCC_COPY_TAG_PING)
            continue;
        if (m.tag != SCC_COPY_TAG_REQ || m.size != sizeof(q)) {
            malformed++;
            answer(m.source, 0, -SCC_EINVAL, m.source, 0);
            continue;
        }
        memcpy(&q, m.payload, sizeof(q));
        if (n + 1 == hang_at)
            for (;;)
                __asm__ volatile("");
        if (++n == fault_at) {
            uintptr_t null_page = 0x10;
            __asm__("" : "+r"(null_page));  /* hidden from the compiler's checks */
            *(volatile uint32_t *)null_page = n;
        }
        if (q.method > SCC_COPY_AUTO || q.target >= ncores) {
            r = -SCC_EINVAL;
        } else {
            int method = q.method == SCC_COPY_AUTO ? SCC_COPY_MPBT : q.method;
            r = (int)scc_syscall(SYS_copy_serve, m.source, (long)q.dst, (long)q.src,
                                 (long)q.size, method);
        }
        if (r == 0) {
            served++;
            answer(q.target, q.cookie, 0, m.source, q.size);
            continue;
        }
        refused++;
        answer(m.source, q.cookie, r, m.source, q.size);
        if (q.target != m.source && q.target < ncores)
            answer(q.target, q.cookie, r, m.source, q.size);
    }
    printf("copy_core %02d: stop: %u served, %u refused, %u malformed, lut", me, served,
           refused, malformed);
    print_lut();
    printf("\n");
    return 0;
}
