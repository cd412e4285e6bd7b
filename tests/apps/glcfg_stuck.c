/*
 * User code with the CRB page leaves a GLCFG pin of core 1 high; the
 * kernel's next pulse of that pin must end, not wait for ever for it to
 * go low (tests/test_kernel_guard.py).
 *
 *   glcfg_stuck via=mbox|ipi|panic
 *
 * Core 1 gets ready and waits: for a mailbox message (mbox), for two
 * interrupts (ipi: the edge of the pin going high, then the kernel's
 * pulse), or for ever (panic). Core 0 asks for raw CRB access, sets core
 * 1's INTR pin (NMI for panic) and leaves it set, then makes its kernel
 * pulse it: a mailbox send, SYS_ipi, or a panic (which NMIs every core).
 * Both print what they did.
 */
#include <string.h>

#include "testlib.h"

#define READY 0        /* atomic counter: core 1 waits */

int main(int argc, char **argv)
{
    int me = scc_core_id();
    const char *via = argc > 1 && !strncmp(argv[1], "via=", 4) ? argv[1] + 4 : "";
    int nmi = !strcmp(via, "panic");

    if (me == 1) {
        unsigned seen = scc_intr_count();
        struct scc_msg m;

        scc_atomic_inc(READY);
        if (!strcmp(via, "mbox")) {
            MUST(scc_mbox_recv(&m, 0));
            printf("got tag %u\n", m.tag);
        } else {
            unsigned now = seen;
            while (nmi || now - seen < 2)
                now = scc_halt_since(now);
            printf("interrupted %u times\n", now - seen);
        }
        return 0;
    }
    if (me != 0)
        return 0;

    /* -ENOSYS: a kernel that maps the CRB for every program. */
    int r = scc_crb_raw(1);
    CHECK(r >= 0 || r == -SCC_ENOSYS, "scc_crb_raw: %d", r);
    while (scc_atomic_read(READY) < 1)
        spin_gtsc(100);
    spin_gtsc(10000);               /* core 1 sleeps by now */
    volatile uint32_t *glcfg = scc_crb_reg(scc_tile_of(1), CRB_GLCFG(1 % 2));
    *glcfg |= nmi ? GLCFG_NMI : GLCFG_INTR;
    printf("left GLCFG of core 01 at 0x%lx\n", (unsigned long)*glcfg);
    if (!strcmp(via, "mbox")) {
        MUST(scc_mbox_send(1, 5, "x", 1));
    } else if (!strcmp(via, "ipi")) {
        MUST(scc_ipi(1));
    } else {
        scc_panic("on purpose");
    }
    printf("sent\n");
    return 0;
}
