/*
 * SCC: the Multiboot information the loader hands a kernel (EBX), built
 * once per boot spec at init and copied to BOOT_MBI at every reset.
 *
 * The layout: the information structure first (room for MBI_INFO_ROOM
 * bytes), then, 4-byte aligned, the memory map, the module names, the
 * module list, the command line and the loader's name. Fields are written
 * little endian at the offsets of the structures the kernel reads them
 * through (standard-headers/scc/multiboot.h), so both sides name the same
 * bytes.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "qemu/osdep.h"
#include "qapi/error.h"
#include "scc-loader.h"

/* Room kept for struct multiboot_info before the strings (it has 88 bytes). */
#define MBI_INFO_ROOM       0x80
#define MBI_LOW_KIB         640             /* mem_lower, as a PC's BIOS says */
#define MBI_FIELD(f)        offsetof(struct multiboot_info, f)
#define MOD_FIELD(f)        offsetof(struct multiboot_module, f)
#define MMAP_FIELD(f)       offsetof(struct multiboot_mmap, f)
/* The size field of a memory map entry does not count itself. */
#define MMAP_ENTRY_SIZE \
    (sizeof(struct multiboot_mmap) - MMAP_FIELD(addr_lo))

QEMU_BUILD_BUG_ON(sizeof(struct multiboot_info) > MBI_INFO_ROOM);
QEMU_BUILD_BUG_ON(sizeof(struct multiboot_mmap) != 24);
QEMU_BUILD_BUG_ON(sizeof(struct multiboot_module) != 16);

/* A growing Multiboot information area at BOOT_MBI. */
typedef struct MbiBuf {
    uint8_t buf[BOOT_MBI_END - BOOT_MBI];
    size_t len;
    bool overflow;
} MbiBuf;

/* Append data; returns its guest address (0 once the area is full). */
static uint32_t mbi_put(MbiBuf *m, const void *data, size_t len)
{
    uint32_t addr = BOOT_MBI + m->len;

    if (m->len + len > sizeof(m->buf)) {
        m->overflow = true;
        return 0;
    }
    memcpy(m->buf + m->len, data, len);
    m->len += ROUND_UP(len, 4);
    return addr;
}

static uint32_t mbi_str(MbiBuf *m, const char *str)
{
    return mbi_put(m, str, strlen(str) + 1);
}

static void mbi_set(MbiBuf *m, size_t field, uint32_t val)
{
    stl_le_p(m->buf + field, val);
}

static void mbi_mmap(MbiBuf *m, uint64_t start, uint64_t end, uint32_t type)
{
    uint8_t e[sizeof(struct multiboot_mmap)];

    if (end <= start) {
        return;
    }
    stl_le_p(e + MMAP_FIELD(size), MMAP_ENTRY_SIZE);
    stq_le_p(e + MMAP_FIELD(addr_lo), start);
    stq_le_p(e + MMAP_FIELD(len_lo), end - start);
    stl_le_p(e + MMAP_FIELD(type), type);
    mbi_put(m, e, sizeof(e));
}

/*
 * The memory map of a private slice: what a BIOS would say below 1 MiB
 * (the boot area included: a kernel reads the MBI before reusing it), the
 * reset vector's page reserved, everything else available.
 */
static void mbi_memory_map(SCCMachineState *s, MbiBuf *m)
{
    uint32_t addr = BOOT_MBI + m->len;

    mbi_mmap(m, 0, BOOT_LOW_END, MULTIBOOT_MEMORY_AVAILABLE);
    mbi_mmap(m, BOOT_LOW_END, BOOT_KERNEL_MIN, MULTIBOOT_MEMORY_RESERVED);
    mbi_mmap(m, BOOT_KERNEL_MIN, MIN(BOOT_RESET_PAGE, s->private_mem),
             MULTIBOOT_MEMORY_AVAILABLE);
    mbi_mmap(m, BOOT_RESET_PAGE, BOOT_RESET_END, MULTIBOOT_MEMORY_RESERVED);
    mbi_mmap(m, BOOT_RESET_END, s->private_mem, MULTIBOOT_MEMORY_AVAILABLE);
    mbi_set(m, MBI_FIELD(mmap_length), BOOT_MBI + m->len - addr);
    mbi_set(m, MBI_FIELD(mmap_addr), addr);
}

/* The modules, placed by the plan, with their names as the map gave them. */
static uint32_t mbi_modules(MbiBuf *m, SCCBootSpec *spec, char **names)
{
    size_t size = sizeof(struct multiboot_module) * spec->nmodules;
    g_autofree uint8_t *mods = g_malloc0(size);
    uint8_t *e;
    int i;

    if (!spec->nmodules) {
        return 0;
    }
    for (i = 0; i < spec->nmodules; i++) {
        e = mods + i * sizeof(struct multiboot_module);
        stl_le_p(e + MOD_FIELD(mod_start), spec->module_addr[i]);
        stl_le_p(e + MOD_FIELD(mod_end),
                 spec->module_addr[i] + spec->modules[i]->size);
        stl_le_p(e + MOD_FIELD(cmdline), mbi_str(m, names[i]));
    }
    return mbi_put(m, mods, size);
}

bool scc_mbi_build(SCCMachineState *s, SCCBootSpec *spec,
                   const char *cmdline, char **module_names, Error **errp)
{
    g_autofree MbiBuf *m = g_new0(MbiBuf, 1);
    uint32_t mods_addr;

    m->len = MBI_INFO_ROOM;
    mbi_memory_map(s, m);
    mods_addr = mbi_modules(m, spec, module_names);
    mbi_set(m, MBI_FIELD(flags), MULTIBOOT_INFO_MEMORY |
            MULTIBOOT_INFO_CMDLINE | MULTIBOOT_INFO_MODS |
            MULTIBOOT_INFO_MEM_MAP | MULTIBOOT_INFO_LOADER_NAME);
    mbi_set(m, MBI_FIELD(mem_lower), MBI_LOW_KIB);
    mbi_set(m, MBI_FIELD(mem_upper),
            (s->private_mem - BOOT_KERNEL_MIN) / 1024);
    mbi_set(m, MBI_FIELD(cmdline), mbi_str(m, cmdline));
    mbi_set(m, MBI_FIELD(mods_count), spec->nmodules);
    mbi_set(m, MBI_FIELD(mods_addr), mods_addr);
    mbi_set(m, MBI_FIELD(boot_loader_name), mbi_str(m, BOOT_LOADER_NAME));
    if (m->overflow) {
        error_setg(errp, "%s: command line and module names do not fit in "
                   "the %d bytes of boot information", spec->where,
                   BOOT_MBI_END - BOOT_MBI);
        return false;
    }
    spec->mbi = g_memdup2(m->buf, m->len);
    spec->mbi_len = m->len;
    return true;
}
