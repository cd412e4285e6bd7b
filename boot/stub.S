// Boot stub, loaded at BOOT_STUB and entered in real mode at 0x0800:0000.
// It does what a Multiboot loader does at the end: flat protected mode,
// EAX = 0x2BADB002, EBX = the Multiboot information, jump to the entry.
// The machine has already loaded the kernel and written the handoff block.

#include <scc/hw.h>

	.code16
	.text
	.globl stub
stub:
	cli
	cld
	// Run with CS = DS = 0, so that offsets are the link addresses.
	ljmp	$0, $real
real:
	xorw	%ax, %ax
	movw	%ax, %ds
	movw	%ax, %es
	movw	%ax, %ss
	lgdtl	gdtdesc
	movl	%cr0, %eax
	orl	$1, %eax		// PE; paging stays off
	movl	%eax, %cr0
	ljmpl	$0x08, $prot

	.code32
prot:
	movw	$0x10, %ax
	movw	%ax, %ds
	movw	%ax, %es
	movw	%ax, %fs
	movw	%ax, %gs
	movw	%ax, %ss
	movl	$0x7ff0, %esp		// only needed if something faults

	cmpl	$BOOT_MAGIC, BOOT_HANDOFF + BOOT_HANDOFF_MAGIC
	jne	bad
	cmpl	$BOOT_VERSION, BOOT_HANDOFF + BOOT_HANDOFF_VERSION
	jne	bad

	movl	$MULTIBOOT_BOOTLOADER_MAGIC, %eax
	movl	BOOT_HANDOFF + BOOT_HANDOFF_MBI, %ebx
	jmp	*BOOT_HANDOFF + BOOT_HANDOFF_ENTRY

	// Nothing to boot: say so and report it, since a silent halt would
	// look like a hung kernel.
bad:
	movl	$msg, %esi
1:	movzbl	(%esi), %eax
	testl	%eax, %eax
	jz	2f
	movl	%eax, SCC_SIF + SIF_CONSOLE
	incl	%esi
	jmp	1b
2:	movl	$EXIT_BADBOOT, SCC_SIF + SIF_EXIT
3:	cli
	hlt
	jmp	3b

	.p2align 3
gdt:
	.quad	0
	.quad	0x00cf9b000000ffff	// 0x08: code, base 0, 4 GiB, accessed
	.quad	0x00cf93000000ffff	// 0x10: data, base 0, 4 GiB, accessed
gdtdesc:
	.word	gdtdesc - gdt - 1
	.long	gdt			// linear: DS is 0 when lgdt runs

msg:
	.asciz	"scc-boot: no valid handoff block at 0x1000\n"
