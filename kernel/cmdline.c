// The kernel command line: words separated by spaces, "key=value" or
// bare flags.

#include "defs.h"

const char *cmdline(const struct multiboot_info *mbi)
{
	if (!(mbi->flags & MULTIBOOT_INFO_CMDLINE) || !mbi->cmdline)
		return "";
	return (const char *)mbi->cmdline;
}

// Start of the word that begins with prefix (of length n), or 0.
static const char *word(const char *cl, const char *prefix, size_t n)
{
	const char *w;

	for (w = cl; *w; ) {
		while (*w == ' ')
			w++;
		if (!*w)
			break;
		if (!strncmp(w, prefix, n))
			return w;
		while (*w && *w != ' ')
			w++;
	}
	return 0;
}

const char *cmdline_value(const char *cl, const char *key)
{
	size_t n = strlen(key);
	const char *w;

	for (w = cl; (w = word(w, key, n)); w += n)
		if (w[n] == '=')
			return w + n + 1;
	return 0;
}

int cmdline_flag(const char *cl, const char *flag)
{
	size_t n = strlen(flag);
	const char *w;

	for (w = cl; (w = word(w, flag, n)); w += n)
		if (w[n] == ' ' || w[n] == 0)
			return 1;
	return 0;
}

uint32_t cmdline_uint(const char *cl, const char *key, uint32_t dflt)
{
	const char *v = cmdline_value(cl, key);
	uint32_t n = 0;

	if (!v || *v < '0' || *v > '9')
		return dflt;
	while (*v >= '0' && *v <= '9')
		n = n * 10 + *v++ - '0';
	return n;
}
