// The reset vector. A released core starts in real mode at F000:FFF0
// (linear 0xFFFFFFF0), which the default LUT maps to private offset
// 0x00FFFFF0. Sixteen bytes is all there is room for: jump to the stub.

#include <scc/hw.h>

	.code16
	.section .reset, "ax"
	.globl reset
reset:
	ljmp	$(BOOT_STUB >> 4), $0
	.fill	16 - (. - reset), 1, 0xf4	// hlt, never reached
