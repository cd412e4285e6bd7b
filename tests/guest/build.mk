# Test guests: Multiboot ELFs like the kernel, linked with the kernel's
# shared objects (KLIB_OBJS) and the helpers here.

ifndef KERNEL_BUILD_MK
include kernel/build.mk
endif

GUEST_TESTS := ids lut mpb lock atomic gtsc ipi reset cl1invmb fault hang mbi sifio
GUEST_HELPERS := $(addprefix $(BUILD)/tests/guest/,sync.o idt.o)
GUEST_TEST_ELFS := $(GUEST_TESTS:%=$(BUILD)/tests/guest/%.elf)

GUEST_TARGETS += $(GUEST_TEST_ELFS)

# Not intermediate: keep them for the next incremental build.
.SECONDARY: $(GUEST_HELPERS) $(GUEST_TEST_ELFS:.elf=.o)

$(BUILD)/tests/guest/%.o: tests/guest/%.c
	@mkdir -p $(@D)
	$(CC) $(KERNEL_CFLAGS) -I tests/guest -c -o $@ $<

$(BUILD)/tests/guest/%.elf: $(BUILD)/tests/guest/%.o $(KLIB_OBJS) $(GUEST_HELPERS) kernel/kernel.ld
	$(LD) $(KERNEL_LDFLAGS) -o $@ $(KLIB_OBJS) $(GUEST_HELPERS) $<

-include $(GUEST_TEST_ELFS:.elf=.d) $(GUEST_HELPERS:.o=.d)
