// Console output through the CONSOLE extension register. The machine
// buffers each core's bytes and emits whole lines as "[NN] text".

#include "defs.h"

// Whether this core's line has bytes the machine has not printed yet.
static int midline;

// midline first: an NMI between the two then ends the line early rather
// than gluing its message to the byte just written.
void console_putc(int c)
{
	midline = c != '\n';
	sif_putc(c);
}

// End a line that someone (an app's write, or code an NMI cut short) left
// open, so that the next message gets a line of its own.
void console_endline(void)
{
	if (midline)
		console_putc('\n');
}

void console_puts(const char *s)
{
	while (*s)
		console_putc(*s++);
}

static void putnum(uint32_t v, uint32_t base, int width, char pad)
{
	char buf[32];
	int n = 0;

	do {
		buf[n++] = "0123456789abcdef"[v % base];
		v /= base;
	} while (v);
	for (; width > n; width--)
		console_putc(pad);
	while (n > 0)
		console_putc(buf[--n]);
}

void console_dec(uint32_t v, int width)
{
	putnum(v, 10, width, '0');
}

void console_hex(uint32_t v, int width)
{
	putnum(v, 16, width, '0');
}

// Enough printf for the kernel: %d %u %x %s %c %%, an optional '0' flag
// and a width.
void vcprintf(const char *fmt, va_list ap)
{
	char pad;
	int width;
	int32_t d;

	for (; *fmt; fmt++) {
		if (*fmt != '%') {
			console_putc(*fmt);
			continue;
		}
		fmt++;
		pad = ' ';
		if (*fmt == '0') {
			pad = '0';
			fmt++;
		}
		for (width = 0; *fmt >= '0' && *fmt <= '9'; fmt++)
			width = width * 10 + *fmt - '0';
		switch (*fmt) {
		case 'd':
			d = va_arg(ap, int32_t);
			if (d < 0) {
				console_putc('-');
				width--;
			}
			putnum(d < 0 ? -(uint32_t)d : (uint32_t)d, 10, width, pad);
			break;
		case 'u':
			putnum(va_arg(ap, uint32_t), 10, width, pad);
			break;
		case 'x':
			putnum(va_arg(ap, uint32_t), 16, width, pad);
			break;
		case 's':
			console_puts(va_arg(ap, const char *));
			break;
		case 'c':
			console_putc(va_arg(ap, int));
			break;
		case '%':
			console_putc('%');
			break;
		case 0:
			fmt--;
			break;
		default:
			console_putc('%');
			console_putc(*fmt);
			break;
		}
	}
}

void cprintf(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vcprintf(fmt, ap);
	va_end(ap);
}
