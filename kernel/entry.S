// Multiboot header and entry. The boot stub (or any Multiboot loader)
// jumps to _start in flat 32-bit protected mode with interrupts off.

#include <scc/hw.h>

#define MB_FLAGS (MULTIBOOT_PAGE_ALIGN | MULTIBOOT_MEMORY_INFO)

	.section .multiboot, "a"
	.p2align 2
	.long	MULTIBOOT_HEADER_MAGIC
	.long	MB_FLAGS
	.long	-(MULTIBOOT_HEADER_MAGIC + MB_FLAGS)

	.text
	.globl	_start
_start:
	cli
	cld
	movl	%eax, %edx		// keep the magic for kmain

	// A Multiboot loader's GDT may be gone by now: use our own before
	// the first segment load.
	lgdt	gdtdesc
	ljmp	$0x08, $1f
1:	movw	$0x10, %ax
	movw	%ax, %ds
	movw	%ax, %es
	movw	%ax, %fs
	movw	%ax, %gs
	movw	%ax, %ss

	// Loaders are not trusted to have cleared .bss. Words, then the
	// 0-3 bytes left: byte by byte it was 10 M instructions on 48 cores.
	xorl	%eax, %eax
	movl	$__bss_start, %edi
	movl	$__bss_end, %ecx
	subl	%edi, %ecx
	movl	%ecx, %esi
	shrl	$2, %ecx
	rep stosl
	movl	%esi, %ecx
	andl	$3, %ecx
	rep stosb

	// Private DRAM: every core has its own copy of this stack.
	movl	$stack_top, %esp
	pushl	%ebx
	pushl	%edx
	call	kmain
	pushl	%eax			// kmain's result is the exit status
	call	core_exit

	.data
	.p2align 3
gdt:
	.quad	0
	.quad	0x00cf9a000000ffff	// 0x08: code, base 0, 4 GiB
	.quad	0x00cf92000000ffff	// 0x10: data, base 0, 4 GiB
gdtdesc:
	.word	gdtdesc - gdt - 1
	.long	gdt

	// The kernel leaves stack_guard unmapped, so that an overflow faults
	// (a double fault, handled on a stack of its own) instead of eating
	// whatever lies below. The kernel stack is this stack, reused.
	.bss
	.p2align 12
	.globl	stack_guard, stack, stack_top
stack_guard:
	.space	4096
stack:
	.space	16384
stack_top:
