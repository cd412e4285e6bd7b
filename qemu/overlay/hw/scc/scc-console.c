/*
 * SCC: the cores' console, one chardev for all: each core's stdout and
 * stderr (SIF_CONSOLE, SIF_CONSOLE_ERR) go out in whole lines that name
 * the core.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "qemu/osdep.h"
#include "qemu/error-report.h"
#include "qapi/error.h"
#include "chardev/char.h"
#include "chardev/char-fe.h"
#include "system/system.h"
#include "hw/scc/scc.h"

void scc_console_init(SCCMachineState *s)
{
    Chardev *chr = NULL;

    if (s->console_id) {
        chr = qemu_chr_find(s->console_id);
        if (!chr) {
            error_report("scc: console chardev '%s' not found", s->console_id);
            exit(1);
        }
    } else {
        chr = serial_hd(0);
    }
    if (chr) {
        qemu_chr_fe_init(&s->console, chr, &error_fatal);
    } else {
        warn_report("scc: no console chardev (use -serial or console=): "
                    "core output is discarded");
    }
}

/*
 * A console line goes out whole, in one write: "[NN] text" for stdout,
 * "[NN!] text" for stderr. A line longer than the machine's buffer goes
 * out in pieces, each but the last marked "+" ("[NN+] ", "[NN!+] "), so
 * that a reader can join them: no line is ever cut.
 */
static void scc_console_emit(SCCMachineState *s, SCCCore *c, SCCStream stream,
                             bool more)
{
    SCCConsoleLine *l = &c->line[stream];
    g_autofree char *out = NULL;
    int n;

    out = g_strdup_printf("[%02d%s%s] %.*s\n", c->id,
                          stream == SCC_STDERR ? "!" : "", more ? "+" : "",
                          (int)l->len, l->buf);
    n = strlen(out);
    l->len = 0;
    if (qemu_chr_fe_backend_connected(&s->console)) {
        qemu_chr_fe_write_all(&s->console, (uint8_t *)out, n);
    }
}

/*
 * Every byte is kept: a byte that is not printable ASCII (other than tab)
 * is shown as \xNN, so a NUL or an escape sequence cannot cut or garble
 * a line, and a backslash as \\, so that a reader can undo the escapes
 * and get the bytes back. A carriage return is shown too: the console's
 * lines end at \n.
 */
void scc_core_console_putc(SCCMachineState *s, SCCCore *c, SCCStream stream,
                           uint8_t ch)
{
    SCCConsoleLine *l = &c->line[stream];
    char esc[5];
    int n = 1;

    if (ch == '\n') {
        scc_console_emit(s, c, stream, false);
        return;
    }
    if ((ch < 0x20 && ch != '\t') || ch >= 0x7f) {
        n = snprintf(esc, sizeof(esc), "\\x%02x", ch);
    } else if (ch == '\\') {
        n = snprintf(esc, sizeof(esc), "\\\\");
    } else {
        esc[0] = ch;
    }
    /* Only a byte that does not fit ends a piece: a full line that then
     * ends goes out as one line. */
    if (l->len + n > SCC_CONSOLE_LINE) {
        scc_console_emit(s, c, stream, true);
    }
    memcpy(l->buf + l->len, esc, n);
    l->len += n;
}

/* The end of a run, or of the core: its unfinished lines go out as lines. */
void scc_core_console_flush(SCCMachineState *s, SCCCore *c)
{
    int i;

    for (i = 0; i < SCC_NSTREAMS; i++) {
        if (c->line[i].len) {
            scc_console_emit(s, c, i, false);
        }
    }
}

