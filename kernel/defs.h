// What the kernel's files offer each other and the test guests.

#ifndef KERNEL_DEFS_H
#define KERNEL_DEFS_H

#include <stdint.h>
#include <stddef.h>
#include <stdarg.h>
#include <scc/hw.h>
#include <scc/syscall.h>
#include "drivers.h"
#include "traps.h"

// Pages and page-table entries (4 KiB pages only: CR4.PSE stays off).
#define PGSIZE          4096
#define PGROUNDUP(a)    (((uint32_t)(a) + PGSIZE - 1) & ~(uint32_t)(PGSIZE - 1))
#define PGROUNDDOWN(a)  ((uint32_t)(a) & ~(uint32_t)(PGSIZE - 1))
#define PDX(va)         ((uint32_t)(va) >> 22)
#define PTX(va)         (((uint32_t)(va) >> 12) & 0x3FF)
#define PTE_P           0x001
#define PTE_W           0x002
#define PTE_U           0x004
#define PTE_PWT         0x008
#define PTE_PCD         0x010
#define PTE_MPBT        0x080   // with CR4.MBE: a message-passing-buffer line
#define PTE_ADDR(e)     ((e) & ~0xFFFu)

// The user's part of the address space (docs/kernel.md).
#define USER_BASE       0x40000000u     // the application, then its heap
#define IMAGE_LIMIT     0x70000000u     // the application's image ends below
#define HEAP_LIMIT      0x6F000000u     // SYS_dram_map's view from here
#define MMAP_BASE       0x70000000u
#define MMAP_LIMIT      0x7FE00000u
#define STACK_TOP       0x7FFFF000u     // first byte above the stack
#define STACK_MAX       0x00100000u
#define STACK_LOW       (STACK_TOP - STACK_MAX)
#define USER_LIMIT      0x80000000u     // private user pages end here

// Exit statuses the kernel reports besides the app's own (all defined in
// include/standard-headers/scc/abi.h).
#define EXIT_BADOPTION  SCC_EXIT_BADOPTION
#define EXIT_BADAPP     SCC_EXIT_BADAPP
#define PANIC_COUNTER   (SIF_NATOMIC - 1)  // atomic counter: panicker id + 1
#define TICK_MAX        100000  // Hz; faster would leave the app no time

// main.c, or the test guest's own file; entry.S exits with its result
struct multiboot_info;
int kmain(uint32_t magic, struct multiboot_info *mbi);

// console.c
void console_putc(int c);
void console_puts(const char *s);
void console_dec(uint32_t v, int width);
void console_hex(uint32_t v, int width);
void console_endline(void);
void vcprintf(const char *fmt, va_list ap);
void cprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

// exit.c
extern volatile int panicking, exited;
extern void (*exit_hook)(void);
void core_exit(int status) __attribute__((noreturn));
void panic(const char *fmt, ...) __attribute__((noreturn, format(printf, 1, 2)));

// core.c (struct core and core_locate are the device layer's: drivers.h)
void whoami(struct core *c);

// cmdline.c
const char *cmdline(const struct multiboot_info *mbi);
const char *cmdline_value(const char *cl, const char *key);
int cmdline_flag(const char *cl, const char *word);
uint32_t cmdline_uint(const char *cl, const char *key, uint32_t dflt);

// string.c
void *memset(void *d, int c, size_t n);
void *memcpy(void *d, const void *s, size_t n);
void *memmove(void *d, const void *s, size_t n);
int memcmp(const void *a, const void *b, size_t n);
size_t strlen(const char *s);
int strcmp(const char *a, const char *b);
int strncmp(const char *a, const char *b, size_t n);

// --- the kernel proper (not in the test guests' KLIB_OBJS) ---

// main.c
extern struct core self;                // this core
extern struct scc_kstat kstat;
extern uint32_t core_hz, gtsc_hz;

// bootinfo.c: what the kernel keeps of the Multiboot information
#define CMDLINE_MAX     4096
#define MODNAME_MAX     256
#define AVAIL_MAX       16
struct bootinfo {
	char cmdline[CMDLINE_MAX];      // kernel path, options, "--", app args
	const char *options;            // the options: after the path, before "--"
	const char *appargs;            // the words after "--", or ""
	int module;                     // 1 if there is an application
	uint32_t mod_start, mod_end;    // its image in private DRAM
	char modname[MODNAME_MAX];      // its string: the app's argv[0]
	int navail;                     // available memory, from the memory map
	struct { uint32_t start, end; } avail[AVAIL_MAX];
};
extern struct bootinfo boot;
void bootinfo_copy(const struct multiboot_info *mbi);

// kalloc.c: this core's physical pages
extern uint32_t memsize;                // bytes of private DRAM
void kinit(void);
void *kalloc(void);
void kfree(void *pa);
void kfree_range(uint32_t start, uint32_t end);

// vm.c
extern uint32_t shm_size;
extern int crb_mode;                    // SCC_CRB_*: the option crb=
extern int dram_view_any;               // the option dram_view=any
int32_t uvm_crb(uint32_t on);

// dram_map.c
int32_t dram_map(uint32_t mc, uint32_t page, uint32_t len);
int vm_crb_page(uint32_t va);
void vm_init(void);
uint32_t *vm_walk(uint32_t va, int alloc);
int vm_map(uint32_t va, uint32_t pa, uint32_t flags);
int uvm_alloc(uint32_t lo, uint32_t hi, uint32_t flags);
void uvm_free(uint32_t lo, uint32_t hi);
int uvm_grow_stack(uint32_t va);
int copyin(void *dst, uint32_t uva, uint32_t n);
int copyout(uint32_t uva, const void *src, uint32_t n);
int copyinstr(char *dst, uint32_t uva, uint32_t max);
int uvalid(uint32_t uva, uint32_t n, int write);
int32_t uvm_query(uint32_t va);
int32_t uvm_sbrk(int32_t incr);
int32_t uvm_mmap(uint32_t len);
int32_t uvm_munmap(uint32_t va, uint32_t len);
void uvm_setbrk(uint32_t brk);

// seg.c
struct taskstate;
extern struct taskstate ktss;
void seg_init(void);
void seg_df_cr3(uint32_t cr3);
void seg_df_report(void) __attribute__((noreturn));

// trap.c and trapasm.S
struct trapframe {
	uint32_t edi, esi, ebp, oesp, ebx, edx, ecx, eax;  // pushal
	uint16_t gs, pad1, fs, pad2, es, pad3, ds, pad4;
	uint32_t trapno, err;           // err is 0 where the CPU pushes none
	uint32_t eip;                   // from here on pushed by the CPU
	uint16_t cs, pad5;
	uint32_t eflags;
	uint32_t esp;                   // only when coming from ring 3
	uint16_t ss, pad6;
};
extern char vectors[];          // vector n's stub at vectors + 16 * n
extern char tasentry[];         // T_TAS: the T&S registers for user code
void idt_init(void);
void trap(struct trapframe *tf);
void trapret_to(struct trapframe *tf) __attribute__((noreturn));
void dftask(void);
const char *trap_name(uint32_t vector);
void stop_if_panicked(void);

// syscall.c
void syscall(struct trapframe *tf);
void tas_init(void);

// mbox.c
void mbox_init(int mode);
int mbox_drain(void);
int mbox_intr(void);
int mbox_send(uint32_t dest, uint32_t tag, const void *payload, uint32_t size);
int mbox_recv(struct scc_msg *m, int flags);
int mbox_waiting(void);
void mbox_sleep(void);
int mbox_mode(int mode, uint32_t spin);
void mbox_exit(void);

// idle.c
void idle(void);
void listen_init(int timing);
int listen(void);
void idle_end(void);
uint32_t idle_halt(int since, uint32_t seen);
int32_t idle_sleep(uint32_t deadline_lo, uint32_t deadline_hi);
// Core cycles from now until GTSC value deadline, for a one-shot timer.
uint32_t cycles_until(uint64_t deadline, uint64_t now);

// notify.c and notify_*.c: how a mailbox's receiver learns of a message.
// A scheme is one file defining a struct notify, and its line in
// notify.c's table (docs/notify.md).
struct notify {
	int interrupt;          // senders interrupt the receiver on every send
	int (*wait)(void);      // the queue is empty: wait (0, or -errno)
	void (*halt)(void);     // SYS_halt: sleep until an interrupt or a message
};
extern const struct notify notify_ipi, notify_poll, notify_hybrid, notify_timer;
extern uint32_t notify_spin;    // hybrid mode's polling budget, core cycles
const struct notify *notify_scheme(int mode);
int notify_mode(int mode, uint32_t spin);
int notify_parse(const char *name, uint32_t len);
const struct notify *notify_current(void);
void notify_stuck(const struct core *c);

// Interrupt core c (LINT0). Its pin is pulsed only once low, so that the
// edge comes after what we stored (drivers/crb.c); it almost always is.
static inline void notify_core(const struct core *c)
{
	if (!crb_try_intr(c))
		notify_stuck(c);
}

// copy.c
void copy_init(void);
void copy_exit(void);
int32_t copy_wait(uint32_t copier, uint32_t deadline_lo, uint32_t deadline_hi);
int32_t copy_serve(uint32_t requester, uint32_t dst, uint32_t src, uint32_t n,
		   uint32_t method);
int32_t copy_lut(uint32_t dst, uint32_t src, uint32_t n);
int32_t copy_mpbt(uint32_t va, uint32_t n, uint32_t on);
int32_t peer_read(uint32_t core, uint32_t dst, uint32_t src, uint32_t n);
int32_t grant(uint32_t va, uint32_t n, uint32_t prot, uint32_t lo, uint32_t hi);
int32_t revoke(uint32_t id);

// exec.c
const char *task_name(void);
void exec_app(void) __attribute__((noreturn));

#endif
