/*
 * Mailbox sends to a core that does not take them (tests/test_reliability.py).
 *
 * Core 0 sends n=N messages (default 10000) to core to=D (default 1) and
 * prints "sent K of N" and, on the first failing send, "send error E after
 * K". Core D, if started, does what recv=R says: exit (exit 0 at once)
 * or halt (sleep in the kernel forever, never receiving). Other started
 * cores exit 0.
 */
#include <string.h>

#include "testlib.h"

int main(int argc, char **argv)
{
    int me = scc_core_id();
    int to = arg_long(argc, argv, "to", 1);
    long n = arg_long(argc, argv, "n", 10000);
    const char *recv = "";

    for (int i = 1; i < argc; i++)
        if (!strncmp(argv[i], "recv=", 5))
            recv = argv[i] + 5;
    if (me == to) {
        if (!strcmp(recv, "halt"))
            for (;;)
                scc_halt();
        return 0;
    }
    if (me != 0)
        return 0;
    for (long k = 0; k < n; k++) {
        uint32_t p[2] = {0, (uint32_t)k};
        int r = scc_mbox_send(to, 1, p, sizeof p);
        if (r < 0) {
            printf("send error %d after %ld\n", r, k);
            return 0;
        }
    }
    printf("sent %ld of %ld\n", n, n);
    return 0;
}
