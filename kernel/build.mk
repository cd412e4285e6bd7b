# kernel.elf, and the objects the test guests share with it (KLIB_OBJS).

ifndef KERNEL_BUILD_MK
KERNEL_BUILD_MK := 1

KERNEL_CFLAGS := -m32 -march=pentium -mno-mmx -mno-sse -ffreestanding \
	-fno-pic -fno-stack-protector -fno-asynchronous-unwind-tables \
	-nostdlib -O2 -Wall -Wextra -Werror -I include -I kernel -MMD -MP
KERNEL_LDFLAGS := -m elf_i386 -T kernel/kernel.ld --build-id=none \
	-z max-page-size=0x1000 -z noexecstack

KLIB_OBJS := $(addprefix $(BUILD)/kernel/,entry.o console.o exit.o core.o \
	lut.o cmdline.o string.o)
KERNEL_OBJS := $(KLIB_OBJS) $(BUILD)/kernel/main.o

GUEST_TARGETS += $(BUILD)/kernel/kernel.elf

$(BUILD)/kernel/%.o: kernel/%.c
	@mkdir -p $(@D)
	$(CC) $(KERNEL_CFLAGS) -c -o $@ $<

$(BUILD)/kernel/%.o: kernel/%.S
	@mkdir -p $(@D)
	$(CC) $(KERNEL_CFLAGS) -c -o $@ $<

$(BUILD)/kernel/kernel.elf: $(KERNEL_OBJS) kernel/kernel.ld
	$(LD) $(KERNEL_LDFLAGS) -o $@ $(KERNEL_OBJS)

-include $(KERNEL_OBJS:.o=.d)

endif
