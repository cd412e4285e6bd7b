/*
 * crt0 for SCC applications (see docs/kernel.md, "Applications").
 *
 * The kernel enters ring 3 at the ELF entry with ESP pointing at the SysV
 * i386 initial stack:
 *
 *     ESP+0               argc
 *     ESP+4               argv[0] ... argv[argc-1]
 *     ESP+4+4*argc        NULL
 *     ESP+8+4*argc        envp[0] = NULL (no environment)
 *
 * _start resets the x87 (the P54C has one; picolibc's math and printf("%f")
 * use it), clears .bss, sets `environ`, runs picolibc's constructors
 * (__libc_init_array: .preinit_array and .init_array), calls
 * main(argc, argv, envp) and then exit() with main's result. exit() runs the
 * destructors (which flush stdout) and ends in _exit(), SYS_exit.
 */

    .section .text.crt0, "ax"
    .globl  _start
    .type   _start, @function
_start:
    xorl    %ebp, %ebp              /* outermost frame for debuggers */
    movl    (%esp), %esi            /* argc */
    leal    4(%esp), %edi           /* argv */
    leal    8(%esp,%esi,4), %ebx    /* envp: after argv's NULL */

    fninit                          /* x87: default control word, empty stack */

    /* Clear .bss (the kernel hands over zeroed pages; this makes no
     * assumption about it). */
    movl    $__bss_start, %eax
    movl    $__bss_end, %ecx
    subl    %eax, %ecx
    jbe     1f
    pushl   %edi
    movl    %eax, %edi
    xorl    %eax, %eax
    cld
    rep stosb
    popl    %edi
1:
    movl    %ebx, environ

    andl    $-16, %esp              /* i386 SysV: 16-byte aligned at calls */
    call    __libc_init_array

    subl    $4, %esp                /* keep the alignment: 3 args + pad */
    pushl   %ebx                    /* envp */
    pushl   %edi                    /* argv */
    pushl   %esi                    /* argc */
    call    main
    addl    $16, %esp

    subl    $12, %esp
    pushl   %eax
    call    exit
    /* not reached: exit() does not return */
2:  hlt                             /* a #GP in ring 3: reported by the kernel */
    jmp     2b
    .size   _start, . - _start

    .section .note.GNU-stack, "", @progbits
