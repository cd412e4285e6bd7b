// Inline access to memory-mapped registers and the few x86 instructions
// that C cannot express.

#ifndef SCC_IO_H
#define SCC_IO_H

#include <stdint.h>

// volatile: every register access must happen, in program order.
static inline uint32_t read32(uintptr_t addr)
{
	return *(volatile uint32_t *)addr;
}

static inline void write32(uintptr_t addr, uint32_t v)
{
	*(volatile uint32_t *)addr = v;
}

// Invalidate the MPBT lines of this core's L1. Spelled as bytes because
// binutils does not know the SCC's opcode 0F 0A.
static inline void cl1invmb(void)
{
	__asm__ volatile(".byte 0x0f, 0x0a" ::: "memory");
}

// Write back and drop every line of this core's caches.
static inline void wbinvd(void)
{
	__asm__ volatile("wbinvd" : : : "memory");
}

static inline uint64_t rdtsc(void)
{
	uint32_t lo, hi;

	__asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi));
	return (uint64_t)hi << 32 | lo;
}

static inline void cli(void)
{
	__asm__ volatile("cli" ::: "memory");
}

static inline void sti(void)
{
	__asm__ volatile("sti" ::: "memory");
}

static inline void hlt(void)
{
	__asm__ volatile("hlt" ::: "memory");
}

// PAUSE is encoded as rep;nop, which the P54C runs as a plain nop.
static inline void pause(void)
{
	__asm__ volatile("rep; nop" ::: "memory");
}

// Keeps the compiler from caching shared memory across a spin-loop turn.
static inline void compiler_barrier(void)
{
	__asm__ volatile("" ::: "memory");
}

static inline uint32_t read_cr4(void)
{
	uint32_t v;

	__asm__ volatile("mov %%cr4, %0" : "=r"(v));
	return v;
}

static inline void write_cr4(uint32_t v)
{
	__asm__ volatile("mov %0, %%cr4" : : "r"(v) : "memory");
}

static inline uint32_t read_cr0(void)
{
	uint32_t v;

	__asm__ volatile("mov %%cr0, %0" : "=r"(v));
	return v;
}

static inline void write_cr0(uint32_t v)
{
	__asm__ volatile("mov %0, %%cr0" : : "r"(v) : "memory");
}

// The linear address of the last page fault.
static inline uint32_t read_cr2(void)
{
	uint32_t v;

	__asm__ volatile("mov %%cr2, %0" : "=r"(v));
	return v;
}

static inline uint32_t read_cr3(void)
{
	uint32_t v;

	__asm__ volatile("mov %%cr3, %0" : "=r"(v));
	return v;
}

// Also flushes the whole TLB (the P54C has no global pages).
static inline void write_cr3(uint32_t v)
{
	__asm__ volatile("mov %0, %%cr3" : : "r"(v) : "memory");
}

#define CR0_PE (1u << 0)
#define CR0_MP (1u << 1)        // WAIT honours TS
#define CR0_EM (1u << 2)        // no FPU: trap FPU instructions
#define CR0_TS (1u << 3)        // task switched: trap the next FPU use
#define CR0_NE (1u << 5)        // FPU errors raise #MF, not FERR#
#define CR0_WP (1u << 16)       // the kernel too obeys read-only pages
#define CR0_PG (1u << 31)

// Needed after a LUT change even with paging off: it also ends QEMU's
// translation block, from which the new mapping holds.
static inline void invlpg(uintptr_t addr)
{
	__asm__ volatile("invlpg (%0)" : : "r"(addr) : "memory");
}

struct dtr {
	uint16_t limit;
	uint32_t base;
} __attribute__((packed));

static inline void lgdt(void *base, uint16_t size)
{
	struct dtr d = { (uint16_t)(size - 1), (uint32_t)base };

	__asm__ volatile("lgdt %0" : : "m"(d));
}

static inline void lidt(void *base, uint16_t size)
{
	struct dtr d = { (uint16_t)(size - 1), (uint32_t)base };

	__asm__ volatile("lidt %0" : : "m"(d));
}

static inline void ltr(uint16_t sel)
{
	__asm__ volatile("ltr %0" : : "r"(sel));
}

#endif
