/*
 * opts.h - an app's options as one table: the names its parser compares
 * the words of its command line with come from it, and the same table
 * goes into the ELF, in a section of its own (.scc_options), where the
 * tools read it without running the app (tools/scc/bench/appopts.py:
 * scc-bench and scc-report refuse an experiment that names an option the
 * app does not take, before any point runs).
 *
 * The table is an X-macro, one X(ID, "name", KIND) an option:
 *
 *   #define MY_OPTIONS(X)              \
 *       X(MY_SIZES, "sizes", value)    \
 *       X(MY_LIST, "list", flag)
 *   OPTS_TABLE(my, dashdash, rcce, regions, MY_OPTIONS);
 *
 * KIND is value (the option takes one) or flag (it takes none). STYLE is
 * how the app reads them, as an experiment file's arg_style says:
 * dashdash ("--key value": --sizes 4K, --list) or keyeq ("key=value":
 * sizes=4K, a flag as its bare name). INIT is rcce for a program that
 * calls RCCE_init (it takes the RCCE words first, and --coll SPEC
 * anywhere after them: libscc/src/coll/override.c) or none. REGIONS is
 * regions for a program that takes benchout.h's region option (it calls
 * bench_regions_arg, which takes --regions, and regions, regions=0|1,
 * before the program's own parser sees them: the table adds the flag
 * regions to what the tools see, not to the program's arrays) or none.
 * It defines
 *
 *   enum { MY_SIZES, MY_LIST, ... }     the options, in the table's order
 *   my_opt_word[ID]  the word the parser compares: "--sizes", "--list"
 *                  (dashdash); "sizes=", "list" (keyeq)
 *   my_opt_name[ID]  the bare name: "sizes", "list"
 *
 * and the parser says OPTS_IS(my, MY_LIST, arg) (arg is the option's
 * word), OPTS_HAS(my, MY_SIZES, arg) (arg begins with it: keyeq's
 * name=VALUE) and OPTS_AFTER(my, MY_SIZES, arg) (the value after it).
 *
 * Why the parsers still compare words, each as before, and do not loop
 * over a table: the timing mode's modeled times move with the code of
 * the function that times (often main, where the parser is too: GCC
 * allocates registers over the whole function) and with where libscc's
 * read-only data sit (after the app's). A table-driven parser, inline in
 * main or a function of its own, moved the modeled numbers of
 * scripts/check-modeled.sh by up to 9 % (most by under 1 %). Here GCC
 * folds my_opt_word[ID], and strlen of it, to the very string and length
 * the parser had as literals: the program's code and data are what they
 * were, byte for byte, and the arrays are left out of the program; only
 * the section is new.
 *
 * The section is a text, one line each: "scc-options 1", "style STYLE"
 * (--key value | key=value), "init INIT", then "KIND name" per option;
 * a NUL ends it. Its flags are "" (no SHF_ALLOC): the linker puts it in
 * no loadable segment (libscc/sys/app.ld names no such section), so it
 * costs the guest nothing and moves none of the program's addresses;
 * --gc-sections keeps it, as it keeps any section that is not allocated.
 * The host build (gcc for the host) carries it the same way.
 *
 * tests/test_appopts.py runs every app with every option its table
 * lists, and with one it does not.
 */
#ifndef APPS_OPTS_H
#define APPS_OPTS_H

#include <stddef.h>
#include <string.h>

#define OPTS_STYLE_dashdash "--key value"
#define OPTS_STYLE_keyeq "key=value"

#define OPTS_ID_(id, name, kind) id,
#define OPTS_NAME_(id, name, kind) name,
#define OPTS_WORD_dashdash_(id, name, kind) "--" name,
#define OPTS_WORD_keyeq_(id, name, kind) OPTS_KEYEQ_##kind(name),
#define OPTS_KEYEQ_value(name) name "="
#define OPTS_KEYEQ_flag(name) name
#define OPTS_LINE_(id, name, kind) #kind " " name "\\n"
#define OPTS_REGIONS_regions "flag regions\\n"
#define OPTS_REGIONS_none ""

#define OPTS_TABLE(var, style, init, regions, LIST)                                   \
    enum { LIST(OPTS_ID_) var##_count_ };                                             \
    __attribute__((unused)) static const char *const var##_opt_name[] = {             \
        LIST(OPTS_NAME_) NULL };                                                      \
    __attribute__((unused)) static const char *const var##_opt_word[] = {             \
        LIST(OPTS_WORD_##style##_) NULL };                                            \
    __asm__(".pushsection .scc_options,\"\",@progbits\n\t"                           \
            ".ascii \"scc-options 1\\nstyle " OPTS_STYLE_##style "\\ninit " #init "\\n" \
            LIST(OPTS_LINE_) OPTS_REGIONS_##regions "\"\n\t.byte 0\n\t.popsection")

/* Whether the word @a is option @id's word. */
#define OPTS_IS(var, id, a) (!strcmp((a), var##_opt_word[id]))
/* Whether the word @a begins with option @id's word (keyeq: name=). */
#define OPTS_HAS(var, id, a) (!strncmp((a), var##_opt_word[id], strlen(var##_opt_word[id])))
/* The rest of the word @a after option @id's word (keyeq: the value). */
#define OPTS_AFTER(var, id, a) ((a) + strlen(var##_opt_word[id]))

#endif
