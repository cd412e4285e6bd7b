/* Every core says hello: `hello from core NN of MM`, then exits 0. */
#include <stdio.h>

#include "scc.h"

int main(void)
{
    printf("hello from core %02d of %d\n", scc_core_id(), scc_num_cores());
    return 0;
}
