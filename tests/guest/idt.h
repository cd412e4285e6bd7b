// A minimal interrupt descriptor table for the test guests.

#ifndef GUEST_IDT_H
#define GUEST_IDT_H

void idt_set(int vector, void (*handler)(void), int dpl);
void idt_load(void);

#endif
