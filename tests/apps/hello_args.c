/* argv and envp as the app sees them (tests/test_kernel.py: test_args). */
#include <stdio.h>

#include "testlib.h"

int main(int argc, char **argv, char **envp)
{
    printf("argc %d\n", argc);
    for (int i = 0; i < argc; i++)
        printf("argv[%d] [%s]\n", i, argv[i]);
    printf("argv[argc] %s\n", argv[argc] ? "not NULL" : "NULL");
    printf("envp[0] %s\n", envp && envp[0] ? "not NULL" : "NULL");
    printf("args done\n");
    return 0;
}
