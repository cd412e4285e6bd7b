// The C library functions the compiler may call even in freestanding code,
// and a few the kernel uses.

#include "defs.h"

// Whole words when both ends allow it: the kernel clears and copies
// whole pages, and byte loops make that slow.
void *memset(void *d, int c, size_t n)
{
	unsigned char *p = d;
	uint32_t w;

	if (!(((uintptr_t)d | n) & 3)) {
		w = (unsigned char)c * 0x01010101u;
		n /= 4;
		__asm__ volatile("cld; rep stosl" : "+D"(p), "+c"(n)
				 : "a"(w) : "memory");
		return d;
	}
	while (n--)
		*p++ = (unsigned char)c;
	return d;
}

void *memcpy(void *d, const void *s, size_t n)
{
	unsigned char *p = d;
	const unsigned char *q = s;

	if (!(((uintptr_t)d | (uintptr_t)s | n) & 3)) {
		n /= 4;
		__asm__ volatile("cld; rep movsl" : "+D"(p), "+S"(q), "+c"(n)
				 : : "memory");
		return d;
	}
	while (n--)
		*p++ = *q++;
	return d;
}

void *memmove(void *d, const void *s, size_t n)
{
	unsigned char *p = d;
	const unsigned char *q = s;

	if (p <= q || p >= q + n)
		return memcpy(d, s, n);
	while (n--)
		p[n] = q[n];
	return d;
}

int memcmp(const void *a, const void *b, size_t n)
{
	const unsigned char *p = a, *q = b;

	for (; n; n--, p++, q++)
		if (*p != *q)
			return *p - *q;
	return 0;
}

size_t strlen(const char *s)
{
	size_t n = 0;

	while (s[n])
		n++;
	return n;
}

int strncmp(const char *a, const char *b, size_t n)
{
	for (; n && *a && *a == *b; n--, a++, b++)
		;
	return n ? (unsigned char)*a - (unsigned char)*b : 0;
}

int strcmp(const char *a, const char *b)
{
	return strncmp(a, b, (size_t)-1);
}
