/*
 * SCC: the loader's ELF images. Every file is read once; kernels and the
 * boot stub are checked here, before any core runs, so that copying them
 * at reset (scc_elf_copy) cannot fail and touches only what was checked.
 * The symbol lookup for the machine's reports is here too: it reads the
 * same images.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "qemu/osdep.h"
#include "qapi/error.h"
#include "elf.h"
#include "scc-loader.h"

#define MAX_PHDRS           64

static GHashTable *scc_images;      /* path -> SCCImage, each read once */

/* Checks that apply to every PT_LOAD segment of a kernel or of the stub. */
static bool scc_check_segment(SCCMachineState *s, bool stub, uint64_t start,
                              uint64_t end, const char **why)
{
    if (stub) {
        if (!scc_inside(start, end, BOOT_STUB, BOOT_STUB_END) &&
            !scc_inside(start, end, BOOT_RESET_VECTOR, BOOT_RESET_END)) {
            *why = "lies outside 0x8000-0x8FFF and the reset vector";
            return false;
        }
        return true;
    }
    if (end > s->private_mem) {
        *why = "does not fit in the core's private memory";
        return false;
    }
    if (scc_overlaps(start, end, 0, BOOT_STUB_END)) {
        *why = "overlaps the boot area 0x0-0x8FFF";
        return false;
    }
    if (scc_overlaps(start, end, BOOT_RESET_PAGE, BOOT_RESET_END)) {
        *why = "overlaps the reset-vector page 0xFFF000-0xFFFFFF";
        return false;
    }
    return true;
}

static bool scc_elf_check(SCCMachineState *s, SCCImage *img, bool stub,
                          const char *what, Error **errp)
{
    Elf32_Ehdr eh;
    Elf32_Phdr ph;
    const char *why = NULL;
    bool entry_loaded = false;
    int i, loads = 0;

    if (img->size < sizeof(eh) || memcmp(img->data, ELFMAG, SELFMAG)) {
        error_setg(errp, "%s '%s' is not an ELF file", what, img->path);
        return false;
    }
    memcpy(&eh, img->data, sizeof(eh));
    if (eh.e_ident[EI_CLASS] != ELFCLASS32 ||
        eh.e_ident[EI_DATA] != ELFDATA2LSB ||
        le16_to_cpu(eh.e_machine) != EM_386) {
        error_setg(errp, "%s '%s' is not a 32-bit little-endian i386 ELF",
                   what, img->path);
        return false;
    }
    if (le16_to_cpu(eh.e_type) != ET_EXEC) {
        error_setg(errp, "%s '%s' is not an executable (ET_EXEC) ELF",
                   what, img->path);
        return false;
    }
    if (le16_to_cpu(eh.e_phentsize) != sizeof(ph) ||
        le16_to_cpu(eh.e_phnum) == 0 || le16_to_cpu(eh.e_phnum) > MAX_PHDRS ||
        (uint64_t)le32_to_cpu(eh.e_phoff) +
        (uint64_t)le16_to_cpu(eh.e_phnum) * sizeof(ph) > img->size) {
        error_setg(errp, "%s '%s': program headers are missing or truncated",
                   what, img->path);
        return false;
    }
    img->entry = le32_to_cpu(eh.e_entry);
    for (i = 0; i < le16_to_cpu(eh.e_phnum); i++) {
        uint64_t start, end;

        memcpy(&ph, img->data + le32_to_cpu(eh.e_phoff) + i * sizeof(ph),
               sizeof(ph));
        if (le32_to_cpu(ph.p_type) != PT_LOAD) {
            continue;
        }
        if (le32_to_cpu(ph.p_filesz) > le32_to_cpu(ph.p_memsz)) {
            error_setg(errp, "%s '%s': segment %d has more bytes in the file "
                       "(p_filesz %u) than in memory (p_memsz %u)", what,
                       img->path, i, le32_to_cpu(ph.p_filesz),
                       le32_to_cpu(ph.p_memsz));
            return false;
        }
        if (!le32_to_cpu(ph.p_memsz)) {
            continue;
        }
        start = le32_to_cpu(ph.p_paddr);
        end = start + le32_to_cpu(ph.p_memsz);
        if (
            (uint64_t)le32_to_cpu(ph.p_offset) + le32_to_cpu(ph.p_filesz) >
            img->size) {
            error_setg(errp, "%s '%s': segment %d is truncated", what,
                       img->path, i);
            return false;
        }
        if (!scc_check_segment(s, stub, start, end, &why)) {
            error_setg(errp, "%s '%s': segment %d at 0x%" PRIx64 "-0x%"
                       PRIx64 " %s", what, img->path, i, start, end - 1, why);
            return false;
        }
        entry_loaded |= img->entry >= start && img->entry < end;
        img->end = MAX(img->end, end);
        loads++;
    }
    if (!loads) {
        error_setg(errp, "%s '%s' has no loadable segment", what, img->path);
        return false;
    }
    if (!entry_loaded && !stub) {
        error_setg(errp, "%s '%s': entry point 0x%x is not in a loaded "
                   "segment", what, img->path, img->entry);
        return false;
    }
    return true;
}

/* Read (once) and check an image; @where prefixes every message. */
SCCImage *scc_image_get(SCCMachineState *s, const char *path,
                        const char *where, const char *what, bool elf,
                        bool stub, Error **errp)
{
    g_autoptr(GError) gerr = NULL;
    SCCImage *img;
    gchar *data;
    gsize size;

    if (!scc_images) {
        scc_images = g_hash_table_new(g_str_hash, g_str_equal);
    }
    img = g_hash_table_lookup(scc_images, path);
    if (img && img->elf == elf) {
        return img;
    }
    if (g_file_test(path, G_FILE_TEST_IS_DIR)) {
        error_setg(errp, "%s: %s '%s' is a directory, not a file", where,
                   what, path);
        return NULL;
    }
    if (!g_file_get_contents(path, &data, &size, &gerr)) {
        error_setg(errp, "%s: cannot read %s '%s': %s", where, what, path,
                   gerr->message);
        return NULL;
    }
    if (size > s->private_mem) {
        error_setg(errp, "%s: %s '%s' is larger than the core's private "
                   "memory", where, what, path);
        g_free(data);
        return NULL;
    }
    img = g_new0(SCCImage, 1);
    img->path = g_strdup(path);
    img->data = (uint8_t *)data;
    img->size = size;
    img->elf = elf;
    if (elf) {
        Error *err = NULL;

        if (!scc_elf_check(s, img, stub, what, &err)) {
            error_setg(errp, "%s: %s", where, error_get_pretty(err));
            error_free(err);
            g_free(img->data);
            g_free(img->path);
            g_free(img);
            return NULL;
        }
    }
    g_hash_table_insert(scc_images, img->path, img);
    return img;
}

/* Copy a checked image's segments into a core's private DRAM. */
void scc_elf_copy(uint8_t *ram, SCCImage *img)
{
    Elf32_Ehdr eh;
    Elf32_Phdr ph;
    int i;

    memcpy(&eh, img->data, sizeof(eh));
    for (i = 0; i < le16_to_cpu(eh.e_phnum); i++) {
        uint32_t paddr, filesz, memsz;

        memcpy(&ph, img->data + le32_to_cpu(eh.e_phoff) + i * sizeof(ph),
               sizeof(ph));
        /* Only what scc_elf_check accepted: empty segments load nothing. */
        if (le32_to_cpu(ph.p_type) != PT_LOAD || !le32_to_cpu(ph.p_memsz)) {
            continue;
        }
        paddr = le32_to_cpu(ph.p_paddr);
        filesz = le32_to_cpu(ph.p_filesz);
        memsz = le32_to_cpu(ph.p_memsz);
        memcpy(ram + paddr, img->data + le32_to_cpu(ph.p_offset), filesz);
        memset(ram + paddr + filesz, 0, memsz - filesz);
    }
}

/*
 * The function symbol that holds addr, in the core's kernel or in its
 * application (its first module), for reports. NULL if the image is not an
 * ELF with a symbol table or no symbol covers addr. The module was never
 * checked as an ELF by the machine, so every offset is checked here.
 */
const char *scc_loader_symbol(SCCCore *c, bool app, uint32_t addr,
                              uint32_t *offset, const char **file)
{
    SCCImage *img;
    Elf32_Ehdr eh;
    Elf32_Shdr sh, strsh;
    Elf32_Sym sym;
    const char *best = NULL;
    uint32_t best_addr = 0;
    uint64_t i, j;

    if (!c->boot) {
        return NULL;
    }
    img = app ? (c->boot->nmodules ? c->boot->modules[0] : NULL)
              : c->boot->kernel;
    if (!img || img->size < sizeof(eh) || memcmp(img->data, ELFMAG, SELFMAG)) {
        return NULL;
    }
    memcpy(&eh, img->data, sizeof(eh));
    if (eh.e_ident[EI_CLASS] != ELFCLASS32 ||
        le16_to_cpu(eh.e_shentsize) != sizeof(sh) ||
        (uint64_t)le32_to_cpu(eh.e_shoff) +
        (uint64_t)le16_to_cpu(eh.e_shnum) * sizeof(sh) > img->size) {
        return NULL;
    }
    for (i = 0; i < le16_to_cpu(eh.e_shnum); i++) {
        uint64_t off, size, stroff, strsize;

        memcpy(&sh, img->data + le32_to_cpu(eh.e_shoff) + i * sizeof(sh),
               sizeof(sh));
        if (le32_to_cpu(sh.sh_type) != SHT_SYMTAB ||
            le32_to_cpu(sh.sh_link) >= le16_to_cpu(eh.e_shnum)) {
            continue;
        }
        memcpy(&strsh, img->data + le32_to_cpu(eh.e_shoff) +
               le32_to_cpu(sh.sh_link) * sizeof(sh), sizeof(strsh));
        off = le32_to_cpu(sh.sh_offset);
        size = le32_to_cpu(sh.sh_size);
        stroff = le32_to_cpu(strsh.sh_offset);
        strsize = le32_to_cpu(strsh.sh_size);
        if (off + size > img->size || stroff + strsize > img->size ||
            !strsize || img->data[stroff + strsize - 1]) {
            continue;
        }
        for (j = 0; j + sizeof(sym) <= size; j += sizeof(sym)) {
            uint32_t value, symsize, name;

            memcpy(&sym, img->data + off + j, sizeof(sym));
            value = le32_to_cpu(sym.st_value);
            symsize = le32_to_cpu(sym.st_size);
            name = le32_to_cpu(sym.st_name);
            if (ELF32_ST_TYPE(sym.st_info) != STT_FUNC || !name ||
                name >= strsize || addr < value ||
                (symsize && addr - value >= symsize) ||
                (!symsize && addr - value >= 4096)) {
                continue;
            }
            if (!best || value > best_addr) {
                best = (const char *)img->data + stroff + name;
                best_addr = value;
            }
        }
    }
    if (best) {
        *offset = addr - best_addr;
        *file = strrchr(img->path, '/') ? strrchr(img->path, '/') + 1
                                        : img->path;
    }
    return best;
}
