/*
 * SCC: the loader, the machine's counterpart of sccKit's sccMerge.
 *
 * At init it reads the core map (or -kernel), checks every image and lays
 * out each core's boot: the boot stub with the reset vector, the kernel's
 * segments, its modules, the Multiboot information and the handoff block
 * the stub reads. Anything wrong is refused before a core runs, with the
 * file (and line) named. At every reset it copies the result into each
 * core's private DRAM.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "qemu/osdep.h"
#include "qemu/cutils.h"
#include "qemu/datadir.h"
#include "qapi/error.h"
#include "elf.h"
#include "hw/scc/scc.h"

/* The boot area's layout and the Multiboot fields come from the ABI
 * (standard-headers/scc/abi.h and multiboot.h). */
#define MBI_SIZE            0x80

#define MAX_PHDRS           64

struct SCCImage {
    char *path;
    uint8_t *data;
    size_t size;
    bool elf;
    uint32_t entry;
    uint32_t end;           /* highest loaded address + 1 */
};

static GHashTable *scc_images;      /* path -> SCCImage, each read once */
static SCCImage *scc_boot_stub;

static bool overlaps(uint64_t a, uint64_t a_end, uint64_t b, uint64_t b_end)
{
    return a < b_end && b < a_end;
}

static bool inside(uint64_t a, uint64_t a_end, uint64_t b, uint64_t b_end)
{
    return a >= b && a_end <= b_end;
}

/* Checks that apply to every PT_LOAD segment of a kernel or of the stub. */
static bool scc_check_segment(SCCMachineState *s, bool stub, uint64_t start,
                              uint64_t end, const char **why)
{
    if (stub) {
        if (!inside(start, end, BOOT_STUB, BOOT_STUB_END) &&
            !inside(start, end, BOOT_RESET_VECTOR, BOOT_RESET_END)) {
            *why = "lies outside 0x8000-0xEFFF and the reset vector";
            return false;
        }
        return true;
    }
    if (end > s->private_mem) {
        *why = "does not fit in the core's private memory";
        return false;
    }
    if (overlaps(start, end, 0, BOOT_STUB_END)) {
        *why = "overlaps the boot area 0x0-0xEFFF";
        return false;
    }
    if (overlaps(start, end, BOOT_RESET_PAGE, BOOT_RESET_END)) {
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
static SCCImage *scc_image_get(SCCMachineState *s, const char *path,
                               const char *where, const char *what,
                               bool elf, bool stub, Error **errp)
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

/* A growing Multiboot information area at BOOT_MBI. */
typedef struct MbiBuf {
    uint8_t buf[BOOT_MBI_END - BOOT_MBI];
    size_t len;
    bool overflow;
} MbiBuf;

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

static void mbi_mmap(MbiBuf *m, uint64_t start, uint64_t end, uint32_t type)
{
    uint8_t e[24];

    if (end <= start) {
        return;
    }
    stl_le_p(e, 20);
    stq_le_p(e + 4, start);
    stq_le_p(e + 12, end - start);
    stl_le_p(e + 20, type);
    mbi_put(m, e, sizeof(e));
}

static bool scc_spec_layout(SCCMachineState *s, SCCBootSpec *spec,
                            const char *cmdline, char **module_names,
                            Error **errp)
{
    g_autofree MbiBuf *m = g_new0(MbiBuf, 1);
    uint8_t *info = m->buf;
    uint64_t next = ROUND_UP(spec->kernel->end, 4096);
    uint32_t mmap_addr, mods_addr = 0, flags;
    int i;

    m->len = MBI_SIZE;
    spec->module_addr = g_new0(uint32_t, spec->nmodules + 1);
    for (i = 0; i < spec->nmodules; i++) {
        uint64_t size = spec->modules[i]->size;

        if (overlaps(next, next + size, BOOT_RESET_PAGE, BOOT_RESET_END)) {
            next = BOOT_RESET_END;
        }
        if (next + size > s->private_mem) {
            error_setg(errp, "%s: module '%s' does not fit in the core's "
                       "private memory (%" PRIu64 " MiB) after the kernel "
                       "and the modules before it", spec->where,
                       spec->modules[i]->path, s->private_mem >> 20);
            return false;
        }
        spec->module_addr[i] = next;
        next = ROUND_UP(next + size, 4096);
    }

    mmap_addr = BOOT_MBI + m->len;
    mbi_mmap(m, 0, 0x9F000, MULTIBOOT_MEMORY_AVAILABLE);
    mbi_mmap(m, 0x9F000, BOOT_KERNEL_MIN, MULTIBOOT_MEMORY_RESERVED);
    mbi_mmap(m, BOOT_KERNEL_MIN, MIN(BOOT_RESET_PAGE, s->private_mem), MULTIBOOT_MEMORY_AVAILABLE);
    mbi_mmap(m, BOOT_RESET_PAGE, BOOT_RESET_END, MULTIBOOT_MEMORY_RESERVED);
    mbi_mmap(m, BOOT_RESET_END, s->private_mem, MULTIBOOT_MEMORY_AVAILABLE);
    stl_le_p(info + 44, BOOT_MBI + m->len - mmap_addr);
    stl_le_p(info + 48, mmap_addr);

    if (spec->nmodules) {
        uint8_t *mods = g_malloc0(16 * spec->nmodules);

        for (i = 0; i < spec->nmodules; i++) {
            stl_le_p(mods + 16 * i, spec->module_addr[i]);
            stl_le_p(mods + 16 * i + 4,
                     spec->module_addr[i] + spec->modules[i]->size);
            stl_le_p(mods + 16 * i + 8, mbi_str(m, module_names[i]));
        }
        mods_addr = mbi_put(m, mods, 16 * spec->nmodules);
        g_free(mods);
    }
    flags = MULTIBOOT_INFO_MEMORY | MULTIBOOT_INFO_CMDLINE | MULTIBOOT_INFO_MODS | MULTIBOOT_INFO_MEM_MAP | MULTIBOOT_INFO_LOADER_NAME;
    stl_le_p(info + 0, flags);
    stl_le_p(info + 4, 640);
    stl_le_p(info + 8, (s->private_mem - BOOT_KERNEL_MIN) / 1024);
    stl_le_p(info + 16, mbi_str(m, cmdline));
    stl_le_p(info + 20, spec->nmodules);
    stl_le_p(info + 24, mods_addr);
    stl_le_p(info + 64, mbi_str(m, "qemu-scc"));
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

/* One boot spec from a kernel, its arguments and its modules. */
static SCCBootSpec *scc_spec_new(SCCMachineState *s, const char *where,
                                 const char *kernel, const char *cmdline,
                                 char **modules, char **module_names,
                                 bool hold, Error **errp)
{
    SCCBootSpec *spec = g_new0(SCCBootSpec, 1);
    int i;

    spec->where = g_strdup(where);
    spec->hold = hold;
    spec->kernel = scc_image_get(s, kernel, where, "kernel", true, false,
                                 errp);
    if (!spec->kernel) {
        return NULL;
    }
    spec->nmodules = modules ? g_strv_length(modules) : 0;
    spec->modules = g_new0(SCCImage *, spec->nmodules + 1);
    for (i = 0; i < spec->nmodules; i++) {
        spec->modules[i] = scc_image_get(s, modules[i], where, "module",
                                         false, false, errp);
        if (!spec->modules[i]) {
            return NULL;
        }
    }
    if (!scc_spec_layout(s, spec, cmdline, module_names, errp)) {
        return NULL;
    }
    return spec;
}

/* "all", or a comma-separated list of N and N-M */
static bool scc_parse_cores(SCCMachineState *s, const char *text, bool *set,
                            const char *where, Error **errp)
{
    g_auto(GStrv) parts = g_strsplit(text, ",", -1);
    int i;

    if (!strcmp(text, "all")) {
        for (i = 0; i < s->ncores; i++) {
            set[i] = true;
        }
        return true;
    }
    for (i = 0; parts[i]; i++) {
        const char *dash = strchr(parts[i], '-');
        g_autofree char *lo_s = dash ? g_strndup(parts[i], dash - parts[i])
                                     : g_strdup(parts[i]);
        const char *hi_s = dash ? dash + 1 : parts[i];
        int lo, hi, c;

        if (qemu_strtoi(lo_s, NULL, 10, &lo) ||
            qemu_strtoi(hi_s, NULL, 10, &hi) || lo < 0 || hi < lo) {
            error_setg(errp, "%s: '%s' is not a core number or range N-M",
                       where, parts[i]);
            return false;
        }
        if (hi >= s->ncores) {
            error_setg(errp, "%s: core %d out of range (this chip has cores "
                       "0-%d)", where, hi, s->ncores - 1);
            return false;
        }
        for (c = lo; c <= hi; c++) {
            if (set[c]) {
                error_setg(errp, "%s: core %d is listed twice in '%s'", where,
                           c, text);
                return false;
            }
            set[c] = true;
        }
    }
    return true;
}

static char *scc_map_path(const char *map, const char *path)
{
    g_autofree char *dir = NULL;

    if (g_path_is_absolute(path)) {
        return g_strdup(path);
    }
    dir = g_path_get_dirname(map);
    return g_build_filename(dir, path, NULL);
}

static bool scc_map_line(SCCMachineState *s, const char *map, int lineno,
                         const char *line, int *owner, Error **errp)
{
    g_autofree char *where = g_strdup_printf("scc: core map %s:%d", map,
                                             lineno);
    g_autoptr(GError) gerr = NULL;
    g_auto(GStrv) argv = NULL;
    g_autoptr(GPtrArray) modules = g_ptr_array_new_with_free_func(g_free);
    g_autoptr(GPtrArray) names = g_ptr_array_new();
    g_autoptr(GString) cmdline = g_string_new(NULL);
    g_autofree char *kernel = NULL;
    bool set[SCC_MAX_CORES] = { false };
    bool hold = false;
    SCCBootSpec *spec;
    int argc, i;

    if (!g_shell_parse_argv(line, &argc, &argv, &gerr)) {
        error_setg(errp, "%s: %s", where, gerr->message);
        return false;
    }
    if (argc < 2) {
        error_setg(errp, "%s: expected 'CORES KERNEL [ARGUMENTS...]'", where);
        return false;
    }
    if (!scc_parse_cores(s, argv[0], set, where, errp)) {
        return false;
    }
    kernel = scc_map_path(map, argv[1]);
    /* Like GRUB 2, the command line holds the arguments, not the path. */
    for (i = 2; i < argc; i++) {
        if (g_str_has_prefix(argv[i], "module=")) {
            g_ptr_array_add(modules, scc_map_path(map, argv[i] + 7));
            g_ptr_array_add(names, argv[i] + 7);
        } else if (!strcmp(argv[i], "hold")) {
            hold = true;
        } else {
            g_string_append_printf(cmdline, "%s%s", cmdline->len ? " " : "",
                                   argv[i]);
        }
    }
    g_ptr_array_add(modules, NULL);
    g_ptr_array_add(names, NULL);
    for (i = 0; i < s->ncores; i++) {
        if (set[i] && owner[i]) {
            error_setg(errp, "%s: core %d is already given at line %d",
                       where, i, owner[i]);
            return false;
        }
    }
    /* The module names in the MBI are the paths as written in the map. */
    spec = scc_spec_new(s, where, kernel, cmdline->str,
                        (char **)modules->pdata, (char **)names->pdata, hold,
                        errp);
    if (!spec) {
        return false;
    }
    for (i = 0; i < s->ncores; i++) {
        if (set[i]) {
            owner[i] = lineno;
            s->core[i].boot = spec;
        }
    }
    return true;
}

static bool scc_plan_coremap(SCCMachineState *s, Error **errp)
{
    g_autoptr(GError) gerr = NULL;
    g_autofree char *text = NULL;
    g_auto(GStrv) lines = NULL;
    int owner[SCC_MAX_CORES] = { 0 };
    int i, given = 0, started = 0;

    if (g_file_test(s->coremap, G_FILE_TEST_IS_DIR)) {
        error_setg(errp, "scc: core map '%s' is a directory, not a file",
                   s->coremap);
        return false;
    }
    if (!g_file_get_contents(s->coremap, &text, NULL, &gerr)) {
        error_setg(errp, "scc: cannot read core map '%s': %s", s->coremap,
                   gerr->message);
        return false;
    }
    lines = g_strsplit(text, "\n", -1);
    for (i = 0; lines[i]; i++) {
        g_autofree char *line = g_strstrip(g_strdup(lines[i]));

        if (!*line || *line == '#') {
            continue;
        }
        if (!scc_map_line(s, s->coremap, i + 1, line, owner, errp)) {
            return false;
        }
    }
    for (i = 0; i < s->ncores; i++) {
        given += owner[i] != 0;
        started += owner[i] && !s->core[i].boot->hold;
    }
    if (!given) {
        error_setg(errp, "scc: core map '%s' gives no core an image",
                   s->coremap);
        return false;
    }
    if (!started) {
        error_setg(errp, "scc: core map '%s' holds every core in reset "
                   "('hold' on every line): nothing would run", s->coremap);
        return false;
    }
    return true;
}

static bool scc_plan_kernel(SCCMachineState *s, Error **errp)
{
    MachineState *ms = MACHINE(s);
    g_autofree char *cmdline = NULL;
    g_auto(GStrv) modules = NULL;
    SCCBootSpec *spec;
    int i;

    if (ms->initrd_filename && *ms->initrd_filename) {
        modules = g_strsplit(ms->initrd_filename, ",", -1);
    }
    /* Like GRUB 2, the command line holds the arguments, not the path. */
    cmdline = g_strdup(ms->kernel_cmdline ? ms->kernel_cmdline : "");
    spec = scc_spec_new(s, "scc", ms->kernel_filename, cmdline, modules,
                        modules, false, errp);
    if (!spec) {
        return false;
    }
    for (i = 0; i < s->ncores; i++) {
        s->core[i].boot = spec;
    }
    return true;
}

bool scc_loader_plan(SCCMachineState *s, Error **errp)
{
    MachineState *ms = MACHINE(s);
    const char *stub = ms->firmware ? ms->firmware : "scc-boot.elf";
    g_autofree char *stub_path = NULL;

    if (s->coremap && ms->kernel_filename) {
        error_setg(errp, "scc: give either -kernel or coremap=, not both");
        return false;
    }
    if (!s->coremap && !ms->kernel_filename) {
        error_setg(errp, "scc: no image: give -kernel FILE or "
                   "-M scc,coremap=FILE");
        return false;
    }
    stub_path = ms->firmware ? g_strdup(stub)
                             : qemu_find_file(QEMU_FILE_TYPE_BIOS, stub);
    if (!stub_path) {
        error_setg(errp, "scc: boot stub '%s' not found: give -bios FILE",
                   stub);
        return false;
    }
    scc_boot_stub = scc_image_get(s, stub_path, "scc", "boot stub", true,
                                  true, errp);
    if (!scc_boot_stub) {
        return false;
    }
    return s->coremap ? scc_plan_coremap(s, errp) : scc_plan_kernel(s, errp);
}

static void scc_copy_elf(uint8_t *ram, SCCImage *img)
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

bool scc_loader_load(SCCMachineState *s, SCCCore *c, Error **errp)
{
    uint8_t *ram = memory_region_get_ram_ptr(&c->private_ram);
    SCCBootSpec *spec = c->boot;
    int i;

    memset(ram, 0, BOOT_STUB_END);
    memset(ram + BOOT_RESET_PAGE, 0, BOOT_RESET_END - BOOT_RESET_PAGE);
    scc_copy_elf(ram, scc_boot_stub);
    scc_copy_elf(ram, spec->kernel);
    for (i = 0; i < spec->nmodules; i++) {
        memcpy(ram + spec->module_addr[i], spec->modules[i]->data,
               spec->modules[i]->size);
    }
    memcpy(ram + BOOT_MBI, spec->mbi, spec->mbi_len);
    stl_le_p(ram + BOOT_HANDOFF + BOOT_HANDOFF_MAGIC, BOOT_MAGIC);
    stl_le_p(ram + BOOT_HANDOFF + BOOT_HANDOFF_VERSION, BOOT_VERSION);
    stl_le_p(ram + BOOT_HANDOFF + BOOT_HANDOFF_ENTRY, spec->kernel->entry);
    stl_le_p(ram + BOOT_HANDOFF + BOOT_HANDOFF_MBI, BOOT_MBI);
    stl_le_p(ram + BOOT_HANDOFF + BOOT_HANDOFF_COREID, c->id);
    return true;
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
