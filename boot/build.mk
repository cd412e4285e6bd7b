# scc-boot.elf: the boot ELF the machine takes as -bios.

BOOT_OBJS := $(addprefix $(BUILD)/boot/,stub.o reset.o)

GUEST_TARGETS += $(BUILD)/boot/scc-boot.elf

$(BUILD)/boot/%.o: boot/%.S
	@mkdir -p $(@D)
	$(CC) -m32 -I include -MMD -MP -c -o $@ $<

$(BUILD)/boot/scc-boot.elf: $(BOOT_OBJS) boot/boot.ld
	$(LD) -m elf_i386 -T boot/boot.ld --build-id=none -z max-page-size=0x1000 -z noexecstack -o $@ $(BOOT_OBJS)

-include $(BOOT_OBJS:.o=.d)
