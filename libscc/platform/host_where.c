/*
 * host_where.c - where a waiting UE waits, in words: function, file and
 * line of the program's own call site first, then the library frame it
 * waits in (the host backend's stall report, host.c).
 *
 * A raw return address is no help to a user: the programs are position
 * independent, so `addr2line -e prog 0x55e0435ae5c3` answers `?? ??:0`.
 * Each frame's address is made relative to the object it lies in (dladdr)
 * and given to binutils' addr2line, which reads the object's debug
 * information; without it (no -g) the function's name still comes from
 * the symbol table. The report is printed once, by a process about to
 * exit, so running a program for it costs nothing that matters.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "platform.h"

int main(int argc, char **argv);

struct frame {
    char object[512];           /* the file the address lies in */
    unsigned long offset;       /* from the object's load address */
    char func[128];
    char file[256];             /* "file:line", or "??:0" */
};

/* Fills f->func and f->file from addr2line; leaves "??" when it cannot. */
static void name_frame(struct frame *f)
{
    char cmd[600], line[512];
    FILE *p;

    strcpy(f->func, "??");
    strcpy(f->file, "??:0");
    if (!f->object[0] || strchr(f->object, '\'')
        || snprintf(cmd, sizeof cmd, "addr2line -f -C -e '%s' %#lx 2>/dev/null", f->object,
                    f->offset) >= (int)sizeof cmd)
        return;
    if (!(p = popen(cmd, "r")))
        return;
    if (fgets(line, sizeof line, p)) {
        line[strcspn(line, "\n")] = 0;
        snprintf(f->func, sizeof f->func, "%.*s", (int)sizeof f->func - 1, line);
    }
    if (fgets(line, sizeof line, p)) {
        line[strcspn(line, "\n")] = 0;
        /* "file:line (discriminator N)": the discriminator helps no one */
        line[strcspn(line, " ")] = 0;
        snprintf(f->file, sizeof f->file, "%.*s", (int)sizeof f->file - 1, line);
    }
    pclose(p);
}

static int resolve(void *addr, struct frame *f);

/* Where libscc's sources were, as the debug information names them (this
 * file's folder's parent): a program's own files may lie in a folder
 * named libscc too (the project's tests do). */
static char lib_root[512];

static void find_lib_root(void)
{
    static const char self[] = "platform/host_where.c:";
    struct frame f;
    char *at;

    /* +1: resolve() takes a return address, one past the call */
    if (resolve((char *)plat_where_print + 1, &f) || !(at = strstr(f.file, self)))
        snprintf(lib_root, sizeof lib_root, "libscc/");
    else
        snprintf(lib_root, sizeof lib_root, "%.*s", (int)(at - f.file), f.file);
}

/* The file's path within libscc ("src/send.c:88"), or NULL for a file
 * that is not the library's. Without debug information to find the root,
 * any folder named libscc/ is taken for it. */
static const char *in_library(const struct frame *f)
{
    const char *at = strstr(f->file, lib_root);

    if (!at || (lib_root[0] == '/' && at != f->file))
        return NULL;
    return at + strlen(lib_root);
}

static int resolve(void *addr, struct frame *f)
{
    Dl_info info, prog;

    memset(f, 0, sizeof *f);
    if (!dladdr(addr, &info) || !info.dli_fname)
        return -1;
    /* dladdr names the program as it was started (argv[0], which may be
     * no path at all): the kernel knows its file */
    if (dladdr((void *)main, &prog) && prog.dli_fbase == info.dli_fbase) {
        ssize_t n = readlink("/proc/self/exe", f->object, sizeof f->object - 1);
        if (n <= 0)
            return -1;
        f->object[n] = 0;
    } else {
        snprintf(f->object, sizeof f->object, "%.*s", (int)sizeof f->object - 1, info.dli_fname);
    }
    /* A return address points after the call: name the call's line. */
    f->offset = (unsigned long)((char *)addr - (char *)info.dli_fbase) - 1;
    name_frame(f);
    return 0;
}

void plat_where_print(FILE *out, void *const *frames, int n)
{
    struct frame lib = { 0 }, own = { 0 }, f;
    int have_lib = 0, have_own = 0;

    if (!lib_root[0])
        find_lib_root();

    for (int i = 0; i < n && !have_own; i++) {
        if (resolve(frames[i], &f) || !strcmp(f.func, "??"))
            continue;
        if (in_library(&f)) {
            /* the outermost library frame: the call the program made */
            if (strncmp(in_library(&f), "platform/", 9)) {
                lib = f;
                have_lib = 1;
            }
        } else {
            own = f;
            have_own = 1;
        }
    }
    if (have_own)
        fprintf(out, "in %s at %s", own.func, own.file);
    if (have_lib)
        fprintf(out, "%s%s (%s)", have_own ? ", waiting in " : "waiting in ", lib.func,
                lib.file);
    if (!have_own && !have_lib)
        fprintf(out, "at an unknown place (%p)", n > 0 ? frames[0] : NULL);
}
