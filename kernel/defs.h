// What the kernel's files offer each other and the test guests.

#ifndef KERNEL_DEFS_H
#define KERNEL_DEFS_H

#include <stdint.h>
#include <stddef.h>
#include <stdarg.h>
#include <scc/hw.h>

// main.c, or the test guest's own file; entry.S exits with its result
struct multiboot_info;
int kmain(uint32_t magic, struct multiboot_info *mbi);

// console.c
void console_putc(int c);
void console_puts(const char *s);
void console_dec(uint32_t v, int width);
void console_hex(uint32_t v, int width);
void vcprintf(const char *fmt, va_list ap);
void cprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

// exit.c
void core_exit(int status) __attribute__((noreturn));
void panic(const char *fmt, ...) __attribute__((noreturn, format(printf, 1, 2)));

// core.c
struct core {
	uint32_t id;        // cpt * tile + z
	uint32_t tile;      // x + mesh_x * y
	uint32_t x, y, z;
	uint32_t mesh_x, mesh_y, cpt;
	uint32_t ncores;
};
void whoami(struct core *c);
void core_locate(const struct core *me, uint32_t id, struct core *c);

// lut.c
uint32_t lut_mc(const struct core *c);
uint32_t lut_mc_entry(const struct core *me, uint32_t mc, uint32_t addrbits);
uint32_t lut_private_entry(const struct core *me, const struct core *c, uint32_t page);
uintptr_t lut_own(const struct core *me, uint32_t page);
void lut_window(const struct core *me, const struct core *c, uint32_t page);

// cmdline.c
const char *cmdline(const struct multiboot_info *mbi);
const char *cmdline_value(const char *cl, const char *key);
int cmdline_flag(const char *cl, const char *word);
uint32_t cmdline_uint(const char *cl, const char *key, uint32_t dflt);

// string.c
void *memset(void *d, int c, size_t n);
void *memcpy(void *d, const void *s, size_t n);
size_t strlen(const char *s);
int strcmp(const char *a, const char *b);
int strncmp(const char *a, const char *b, size_t n);

#endif
