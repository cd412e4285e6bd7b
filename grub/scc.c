/*
 * GRUB module "scc": GRUB's console on the emulated SCC, and the few things
 * a boot script needs from the machine.
 *
 * The machine has no VGA, serial port or keyboard: a core's console is the
 * system interface's console registers, so GRUB's messages (and its
 * errors) are only seen through this terminal. They go to the core's
 * stderr (SIF_CONSOLE_ERR): its stdout is the program's, whole. On load it becomes the one
 * active output and input; vga_text, which GRUB's multiboot platform
 * enables first, writes to plain private memory here and is switched off.
 *
 * There is nobody to press a key. GRUB asks for one only when its script
 * did not boot (an error dropped it to its command line, or a pager), so
 * the input terminal ends the core with SCC_EXIT_BADBOOT instead of
 * letting GRUB spin forever.
 *
 * Variables:  scc_core    this core's id (SIF_COREID), for per-core choices
 *             scc_ncores  the machine's number of cores
 * Command:    scc_exit STATUS [MESSAGE...]   print MESSAGE, end the core
 *
 * Built against GRUB's own build tree by scripts/build-grub.sh; a GRUB
 * module, so GPLv3+ like GRUB.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <grub/dl.h>
#include <grub/term.h>
#include <grub/command.h>
#include <grub/env.h>
#include <grub/misc.h>
#include <grub/list.h>
#include <grub/i18n.h>
#include <scc/abi.h>

GRUB_MOD_LICENSE ("GPLv3+");

static volatile grub_uint32_t *
sif (grub_uint32_t offset)
{
  return (volatile grub_uint32_t *) (grub_addr_t) (SCC_SIF + offset);
}

static struct grub_term_coordinate pos;

static void
scc_putbyte (int c)
{
  *sif (SIF_CONSOLE_ERR) = (grub_uint8_t) c;
}

static void
scc_puts (const char *s)
{
  while (*s)
    scc_putbyte (*s++);
}

static void __attribute__ ((noreturn))
scc_exit (int status)
{
  *sif (SIF_EXIT) = status;
  for (;;)
    asm volatile ("cli; hlt");
}

static void
scc_term_putchar (struct grub_term_output *term __attribute__ ((unused)),
		  const struct grub_unicode_glyph *c)
{
  grub_uint32_t code = c->base;

  /* GRUB ends its lines with "\n\r" and rewrites one with '\r'; the
     console is a sequence of lines, where a '\r' would only show as one. */
  if (code != '\r')
    scc_putbyte (code < 0x80 ? (int) code : '?');
  if (code == '\n')
    {
      pos.x = 0;
      pos.y++;
    }
  else if (code == '\r')
    pos.x = 0;
  else if (code == '\b')
    pos.x = pos.x ? pos.x - 1 : 0;
  else
    pos.x++;
}

static struct grub_term_coordinate
scc_term_getwh (struct grub_term_output *term __attribute__ ((unused)))
{
  /* Wide and tall enough that GRUB never wraps or pages a line itself. */
  return (struct grub_term_coordinate) { 255, 255 };
}

static struct grub_term_coordinate
scc_term_getxy (struct grub_term_output *term __attribute__ ((unused)))
{
  return pos;
}

static void
scc_term_gotoxy (struct grub_term_output *term __attribute__ ((unused)),
		 struct grub_term_coordinate p)
{
  /* A line console cannot move back; a new line is the nearest thing. */
  if (p.y != pos.y && pos.x)
    scc_putbyte ('\n');
  pos = p;
}

static void
scc_term_cls (struct grub_term_output *term __attribute__ ((unused)))
{
  if (pos.x)
    scc_putbyte ('\n');
  pos.x = pos.y = 0;
}

static int
scc_term_getkey (struct grub_term_input *term __attribute__ ((unused)))
{
  if (pos.x)
    scc_putbyte ('\n');
  scc_puts ("grub: waiting for a key, which never comes here: the boot "
	    "script did not boot (see above); ending the core\n");
  scc_exit (SCC_EXIT_BADBOOT);
}

static struct grub_term_output scc_term_output =
  {
    .name = "scc",
    .putchar = scc_term_putchar,
    .getwh = scc_term_getwh,
    .getxy = scc_term_getxy,
    .gotoxy = scc_term_gotoxy,
    .cls = scc_term_cls,
    .flags = GRUB_TERM_CODE_TYPE_ASCII,
    .progress_update_divisor = GRUB_PROGRESS_NO_UPDATE
  };

static struct grub_term_input scc_term_input =
  {
    .name = "scc",
    .getkey = scc_term_getkey
  };

static grub_err_t
grub_cmd_scc_exit (grub_command_t cmd __attribute__ ((unused)),
		   int argc, char **argv)
{
  const char *end;
  unsigned long status;
  int i;

  if (argc < 1)
    return grub_error (GRUB_ERR_BAD_ARGUMENT, N_("usage: scc_exit STATUS [MESSAGE...]"));
  status = grub_strtoul (argv[0], &end, 0);
  if (*end || status > 255)
    return grub_error (GRUB_ERR_BAD_ARGUMENT, "scc_exit: bad status '%s'", argv[0]);
  for (i = 1; i < argc; i++)
    {
      scc_puts (argv[i]);
      scc_putbyte (i + 1 < argc ? ' ' : '\n');
    }
  scc_exit ((int) status);
}

/* Move every active terminal of the list to its disabled list. */
#define DISABLE_ALL(active, disabled)					\
  do {									\
    while (active)							\
      {									\
	grub_list_t t_ = GRUB_AS_LIST (active);				\
	grub_list_remove (t_);						\
	grub_list_push (GRUB_AS_LIST_P (&disabled), t_);		\
      }									\
  } while (0)

static grub_command_t cmd_exit;

GRUB_MOD_INIT (scc)
{
  char buf[16];

  DISABLE_ALL (grub_term_outputs, grub_term_outputs_disabled);
  DISABLE_ALL (grub_term_inputs, grub_term_inputs_disabled);
  grub_term_register_output_active ("scc", &scc_term_output);
  grub_term_register_input_active ("scc", &scc_term_input);

  grub_snprintf (buf, sizeof (buf), "%u", (unsigned) *sif (SIF_COREID));
  grub_env_set ("scc_core", buf);
  grub_env_export ("scc_core");
  grub_snprintf (buf, sizeof (buf), "%u", (unsigned) *sif (SIF_NCORES));
  grub_env_set ("scc_ncores", buf);
  grub_env_export ("scc_ncores");

  cmd_exit = grub_register_command ("scc_exit", grub_cmd_scc_exit,
				    N_("STATUS [MESSAGE...]"),
				    N_("Print MESSAGE and end this core with STATUS."));
}

GRUB_MOD_FINI (scc)
{
  grub_unregister_command (cmd_exit);
  grub_term_unregister_input (&scc_term_input);
  grub_term_unregister_output (&scc_term_output);
}
