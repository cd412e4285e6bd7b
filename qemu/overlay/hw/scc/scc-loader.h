/*
 * SCC: what the loader's files (scc-loader.c, scc-coremap.c, scc-spec.c,
 * scc-elf.c, scc-mbi.c, scc-boot.c) offer each other. The machine sees
 * only the scc_loader_* functions of hw/scc/scc.h.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef HW_SCC_LOADER_H
#define HW_SCC_LOADER_H

#include "hw/scc/scc.h"

/* A file given as a kernel, a module or the boot stub, read once. */
struct SCCImage {
    char *path;
    uint8_t *data;
    size_t size;
    bool elf;
    uint32_t entry;
    uint32_t end;           /* highest loaded address + 1 */
};

static inline bool scc_overlaps(uint64_t a, uint64_t a_end,
                                uint64_t b, uint64_t b_end)
{
    return a < b_end && b < a_end;
}

static inline bool scc_inside(uint64_t a, uint64_t a_end,
                              uint64_t b, uint64_t b_end)
{
    return a >= b && a_end <= b_end;
}

/* scc-spec.c: one boot spec */
SCCBootSpec *scc_spec_new(SCCMachineState *s, const char *where,
                          const char *kernel, const char *cmdline,
                          char **modules, char **module_names, bool hold,
                          Error **errp);

/* scc-loader.c: the plan */
SCCImage *scc_loader_stub(void);

/* scc-coremap.c: a core map's lines into boot specs */
bool scc_coremap_plan(SCCMachineState *s, Error **errp);

/* scc-elf.c: reading and checking images, copying their segments */
SCCImage *scc_image_get(SCCMachineState *s, const char *path,
                        const char *where, const char *what, bool elf,
                        bool stub, Error **errp);
void scc_elf_copy(uint8_t *ram, SCCImage *img);

/* scc-mbi.c: the Multiboot information of a boot spec */
bool scc_mbi_build(SCCMachineState *s, SCCBootSpec *spec,
                   const char *cmdline, char **module_names, Error **errp);

#endif
