/* What the kernel made of its options (tests/test_reliability.py). */
#include "testlib.h"

int main(void)
{
    struct scc_info info;

    MUST(scc_info(&info));
    printf("mbox %s\n", scc_mbox_mode_name(info.mbox_mode));
    return 0;
}
