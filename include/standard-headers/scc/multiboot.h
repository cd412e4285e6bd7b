/*
 * Multiboot v1: the header a kernel carries and the information the boot
 * loader (here the machine plus scc-boot) hands it in EBX. Shared like
 * abi.h: the machine's loader (hw/scc/scc-mbi.c) writes what the kernel
 * reads, through the same structures.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#ifndef SCC_MULTIBOOT_H
#define SCC_MULTIBOOT_H

#define MULTIBOOT_HEADER_MAGIC     0x1BADB002
#define MULTIBOOT_BOOTLOADER_MAGIC 0x2BADB002
#define MULTIBOOT_SEARCH           8192    /* header must be in this much */

/* Header flags. */
#define MULTIBOOT_PAGE_ALIGN  (1 << 0)
#define MULTIBOOT_MEMORY_INFO (1 << 1)

/* Information flags. */
#define MULTIBOOT_INFO_MEMORY      (1 << 0)
#define MULTIBOOT_INFO_CMDLINE     (1 << 2)
#define MULTIBOOT_INFO_MODS        (1 << 3)
#define MULTIBOOT_INFO_MEM_MAP     (1 << 6)
#define MULTIBOOT_INFO_LOADER_NAME (1 << 9)

#define MULTIBOOT_MEMORY_AVAILABLE 1
#define MULTIBOOT_MEMORY_RESERVED  2

#ifndef __ASSEMBLER__
#include <stdint.h>

struct multiboot_info {
	uint32_t flags;
	uint32_t mem_lower;     /* KiB below 1 MiB */
	uint32_t mem_upper;     /* KiB above 1 MiB */
	uint32_t boot_device;
	uint32_t cmdline;
	uint32_t mods_count;
	uint32_t mods_addr;
	uint32_t syms[4];
	uint32_t mmap_length;
	uint32_t mmap_addr;
	uint32_t drives_length;
	uint32_t drives_addr;
	uint32_t config_table;
	uint32_t boot_loader_name;
	uint32_t apm_table;
	uint32_t vbe[6];
};

struct multiboot_module {
	uint32_t mod_start;
	uint32_t mod_end;
	uint32_t cmdline;
	uint32_t pad;
};

/* The size field is not part of the entry's own length: the next entry
 * starts at (char *)&entry->addr_lo + entry->size. */
struct multiboot_mmap {
	uint32_t size;
	uint32_t addr_lo, addr_hi;
	uint32_t len_lo, len_hi;
	uint32_t type;
} __attribute__((packed));
#endif

#endif
