// Interrupt and exception entry. Every vector has a 16-byte stub at
// vectors + 16 * n that makes the stack look the same for all of them (an
// error code, 0 where the CPU pushes none, then the vector number) and
// joins alltraps, which saves the rest as a struct trapframe for trap().

#define SEL_KDATA 0x10

	.text
	.p2align 4
	.globl	vectors
vectors:
	.set	n, 0
	.rept	256
	.p2align 4
	// These exceptions push an error code of their own.
	.if	(n == 8) || (n >= 10 && n <= 14) || (n == 17)
	.else
	pushl	$0
	.endif
	pushl	$n
	jmp	alltraps
	.set	n, n + 1
	.endr

alltraps:
	cld				// user code may leave DF set
	pushl	%ds
	pushl	%es
	pushl	%fs
	pushl	%gs
	pushal
	movw	$SEL_KDATA, %ax
	movw	%ax, %ds
	movw	%ax, %es
	movw	%ax, %fs
	movw	%ax, %gs
	pushl	%esp			// the struct trapframe
	call	trap
	addl	$4, %esp
trapret:
	popal
	popl	%gs
	popl	%fs
	popl	%es
	popl	%ds
	addl	$8, %esp		// vector number and error code
	iret

// trapret_to(tf): leave the kernel through the frame tf, which is how the
// application starts.
	.globl	trapret_to
trapret_to:
	movl	4(%esp), %esp
	jmp	trapret

// The double-fault task starts here on its own stack.
	.globl	dftask
dftask:
	call	seg_df_report
1:	cli
	hlt
	jmp	1b
