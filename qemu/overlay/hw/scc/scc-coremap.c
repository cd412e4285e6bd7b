/*
 * SCC: the core map (-M scc,coremap=FILE), sccKit's way of saying which
 * image each core boots. A line is "CORES KERNEL [ARGUMENTS...]" in shell
 * syntax; each line becomes one boot spec shared by its cores, and every
 * error names the file and the line.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "qemu/osdep.h"
#include "qemu/cutils.h"
#include "qapi/error.h"
#include "scc-loader.h"

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

bool scc_coremap_plan(SCCMachineState *s, Error **errp)
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

