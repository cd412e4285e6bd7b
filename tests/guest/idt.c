// Vectors left unset are not present, so a stray interrupt or fault ends
// in a triple fault, which the machine reports (status 254).

#include <scc/io.h>
#include "idt.h"

struct gate {
	uint16_t off_lo;
	uint16_t sel;
	uint8_t zero;
	uint8_t type;
	uint16_t off_hi;
};

static struct gate idt[256];

void idt_set(int vector, void (*handler)(void), int dpl)
{
	uint32_t a = (uint32_t)handler;

	idt[vector].off_lo = a & 0xFFFF;
	idt[vector].sel = 0x08;
	idt[vector].zero = 0;
	idt[vector].type = 0x8E | dpl << 5;	// present 32-bit interrupt gate
	idt[vector].off_hi = a >> 16;
}

void idt_load(void)
{
	lidt(idt, sizeof(idt));
}
