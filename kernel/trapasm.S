// Interrupt and exception entry. Every vector has a 16-byte stub at
// vectors + 16 * n that makes the stack look the same for all of them (an
// error code, 0 where the CPU pushes none, then the vector number) and
// joins alltraps, which saves the rest as a struct trapframe for trap().

#include "traps.h"

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
	.if	n == T_LINT0
	jmp	lint0entry
	.else
	pushl	$0
	.endif
	.endif
	pushl	$n
	jmp	alltraps
	.set	n, n + 1
	.endr

// LINT0 (an IPI): the TSC's low word first thing after the gate, in the
// error code's slot, so that the trap is timed from its start (trap()
// makes kstat.intr_tsc of it). In the frame, not a kernel variable: the
// frame's lines are the kernel stack's, in the caches, where a store to
// another line would be written around them and the next push would
// wait for it.
lint0entry:
	subl	$4, %esp
	pushl	%eax
	pushl	%edx
	rdtsc
	movl	%eax, 8(%esp)
	popl	%edx
	popl	%eax
	pushl	$T_LINT0
	jmp	alltraps

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

// int $0x81 (SCC_TAS_VECTOR): a T&S register for user code, which has no
// CRB page under crb=isolated (docs/kernel.md). EAX = core, ECX =
// SCC_TAS_TRY or SCC_TAS_RELEASE; the result in EAX. RCCE spins on these,
// so they do only the register access: no trap frame, no C, and other
// registers untouched. An interrupt gate: IF stays off. The data are
// reached through SS, the kernel's after the gate (user code chose DS).
	.globl	tasentry
tasentry:
	cmpl	%ss:tas_ncores, %eax
	jae	2f
	movl	%ss:tas_reg(,%eax,4), %eax
	cmpl	$SCC_TAS_TRY, %ecx
	jne	1f
	movl	%ss:(%eax), %eax	// the test-and-set: 1 if we took it
	iret
1:	cmpl	$SCC_TAS_RELEASE, %ecx
	jne	2f
	movl	$0, %ss:(%eax)
	xorl	%eax, %eax
	iret
2:	movl	$-SCC_EINVAL, %eax
	iret
