// CL1INVMB works in ring 0 and ring 3; CR4.MBE can be set, but not
// together with PSE (#GP).

#include "defs.h"
#include "idt.h"
#include <scc/io.h>

#define KCODE 0x08
#define KDATA 0x10
#define UCODE (0x18 | 3)
#define UDATA (0x20 | 3)
#define TSSEL 0x28

static uint64_t gdt[6];
static uint32_t tss[26];
static uint8_t kstack[4096] __attribute__((aligned(16)));
static uint8_t ustack[4096] __attribute__((aligned(16)));

volatile uint32_t gp_count, ud_count, gp_resume, syscall_cs, user_cs, kernel_esp;

void gp_isr(void);
void ud_isr(void);
void syscall_isr(void);
void user_code(void);
void user_run(void (*fn)(void), void *stack);
void cr4_try(uint32_t v);

__asm__(
	".text\n"
	// #GP: count, drop the error code, resume at gp_resume.
	"gp_isr:\n"
	"	addl $4, %esp\n"
	"	incl gp_count\n"
	"	pushl %eax\n"
	"	movl gp_resume, %eax\n"
	"	movl %eax, 4(%esp)\n"
	"	popl %eax\n"
	"	iret\n"
	// #UD: count and step over the two-byte CL1INVMB.
	"ud_isr:\n"
	"	incl ud_count\n"
	"	addl $2, (%esp)\n"
	"	iret\n"
	"cr4_try:\n"
	"	movl 4(%esp), %eax\n"
	"	movl $1f, gp_resume\n"
	"	movl %eax, %cr4\n"
	"1:	ret\n"
	// user_run(fn, stack): iret to fn in ring 3; int 0x80 comes back
	// here as if user_run returned.
	"user_run:\n"
	"	pushl %ebp\n"
	"	pushl %ebx\n"
	"	pushl %esi\n"
	"	pushl %edi\n"
	"	movl %esp, kernel_esp\n"
	"	movl 20(%esp), %eax\n"
	"	movl 24(%esp), %ecx\n"
	"	movw $0x23, %dx\n"
	"	movw %dx, %ds\n"
	"	movw %dx, %es\n"
	"	movw %dx, %fs\n"
	"	movw %dx, %gs\n"
	"	pushl $0x23\n"
	"	pushl %ecx\n"
	"	pushl $0x2\n"			// eflags: IF off
	"	pushl $0x1b\n"
	"	pushl %eax\n"
	"	iret\n"
	"syscall_isr:\n"
	"	movw $0x10, %dx\n"
	"	movw %dx, %ds\n"
	"	movw %dx, %es\n"
	"	movw %dx, %fs\n"
	"	movw %dx, %gs\n"
	"	movl 4(%esp), %eax\n"		// the caller's CS
	"	movl %eax, syscall_cs\n"
	"	movl kernel_esp, %esp\n"
	"	popl %edi\n"
	"	popl %esi\n"
	"	popl %ebx\n"
	"	popl %ebp\n"
	"	ret\n"
	"user_code:\n"
	"	.byte 0x0f, 0x0a\n"		// cl1invmb
	"	movl %cs, %eax\n"
	"	movl %eax, user_cs\n"
	"	int $0x80\n"
	"	jmp .\n");

static uint64_t segment(uint32_t base, uint32_t limit, uint32_t access, uint32_t flags)
{
	return (uint64_t)(limit & 0xFFFF) | (uint64_t)(base & 0xFFFFFF) << 16 |
	       (uint64_t)access << 40 | (uint64_t)((limit >> 16) & 0xF) << 48 |
	       (uint64_t)flags << 52 | (uint64_t)(base >> 24) << 56;
}

static void tables(void)
{
	gdt[1] = segment(0, 0xFFFFF, 0x9B, 0xC);
	gdt[2] = segment(0, 0xFFFFF, 0x93, 0xC);
	gdt[3] = segment(0, 0xFFFFF, 0xFB, 0xC);
	gdt[4] = segment(0, 0xFFFFF, 0xF3, 0xC);
	gdt[5] = segment((uint32_t)tss, sizeof(tss) - 1, 0x89, 0);
	tss[1] = (uint32_t)(kstack + sizeof(kstack));	// esp0
	tss[2] = KDATA;					// ss0
	tss[25] = sizeof(tss) << 16;			// no I/O bitmap
	lgdt(gdt, sizeof(gdt));
	// Same selectors as before: the loaded segments stay valid.
	ltr(TSSEL);

	idt_set(6, ud_isr, 0);
	idt_set(13, gp_isr, 0);
	idt_set(0x80, syscall_isr, 3);
	idt_load();
}

// Write v to CR4 and say whether it faulted and what CR4 became.
static int cr4_case(uint32_t v, int should_fault, uint32_t want)
{
	uint32_t before = gp_count, got;
	int faulted;

	cr4_try(v);
	faulted = gp_count != before;
	got = read_cr4();
	if (faulted == should_fault && got == want)
		return 0;
	cprintf("CR4 <- %x: %s, reads %x (expected %s, %x)\n", v,
		faulted ? "#GP" : "no fault", got,
		should_fault ? "#GP" : "no fault", want);
	return 1;
}

int kmain(uint32_t magic, struct multiboot_info *mbi)
{
	uint32_t cr4;
	int bad = 0;

	(void)magic;
	(void)mbi;
	tables();

	cl1invmb();
	if (ud_count) {
		cprintf("cl1invmb: #UD in ring 0\n");
		bad = 1;
	}

	cr4 = read_cr4() & ~(CR4_MBE | CR4_PSE);
	bad |= cr4_case(cr4, 0, cr4);
	bad |= cr4_case(cr4 | CR4_MBE, 0, cr4 | CR4_MBE);
	bad |= cr4_case(cr4 | CR4_MBE | CR4_PSE, 1, cr4 | CR4_MBE);
	bad |= cr4_case(cr4, 0, cr4);
	bad |= cr4_case(cr4 | CR4_PSE, 0, cr4 | CR4_PSE);
	bad |= cr4_case(cr4 | CR4_PSE | CR4_MBE, 1, cr4 | CR4_PSE);
	bad |= cr4_case(cr4, 0, cr4);
	bad |= cr4_case(cr4 | CR4_PSE | CR4_MBE, 1, cr4);
	if (!bad)
		cprintf("cr4 mbe ok\n");

	user_run(user_code, ustack + sizeof(ustack));
	if (ud_count) {
		cprintf("cl1invmb: #UD in ring 3\n");
		bad = 1;
	}
	if ((syscall_cs & 3) != 3 || (user_cs & 3) != 3) {
		cprintf("user code ran with CS %x, int 0x80 from CS %x\n",
			user_cs, syscall_cs);
		bad = 1;
	}
	if (!bad)
		cprintf("cl1invmb ok ring0 ring3\n");
	return bad;
}
