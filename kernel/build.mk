# kernel.elf and its device layer (drivers/), and the objects the test
# guests share with it (KLIB_OBJS).

ifndef KERNEL_BUILD_MK
KERNEL_BUILD_MK := 1

# -mgeneral-regs-only: the kernel never touches the FPU, so the one
# application's FPU state needs no saving (see kernel/main.c).
GUEST_BASE_CFLAGS := -m32 -march=pentium -mno-mmx -mno-sse -mgeneral-regs-only \
	-ffreestanding -fno-pic -fno-stack-protector \
	-fno-asynchronous-unwind-tables -nostdlib -O2 -Wall -Wextra -Werror -MMD -MP
KERNEL_CFLAGS := $(GUEST_BASE_CFLAGS) -I include -I kernel -I drivers
# drivers/ is the layer below the kernel: it does not see kernel/ at all.
DRIVERS_CFLAGS := $(GUEST_BASE_CFLAGS) -I include -I drivers
KERNEL_LDFLAGS := -m elf_i386 -T kernel/kernel.ld --build-id=none \
	-z max-page-size=0x1000 -z noexecstack

# What a test guest needs to boot, print, find itself and stop.
KLIB_OBJS := $(addprefix $(BUILD)/kernel/,entry.o console.o exit.o core.o \
	cmdline.o string.o) \
	$(addprefix $(BUILD)/drivers/,mesh.o lut.o crb.o lock.o sif.o mpb.o)
KERNEL_OBJS := $(KLIB_OBJS) \
	$(addprefix $(BUILD)/kernel/,main.o bootinfo.o kalloc.o vm.o seg.o \
	trapasm.o trap.o syscall.o mbox.o exec.o idle.o notify.o copy.o dram_map.o) \
	$(patsubst kernel/%.c,$(BUILD)/kernel/%.o,$(wildcard kernel/notify_*.c)) \
	$(addprefix $(BUILD)/drivers/,lapic.o)

GUEST_TARGETS += $(BUILD)/kernel/kernel.elf

$(BUILD)/kernel/%.o: kernel/%.c
	@mkdir -p $(@D)
	$(CC) $(KERNEL_CFLAGS) -c -o $@ $<

$(BUILD)/kernel/%.o: kernel/%.S
	@mkdir -p $(@D)
	$(CC) $(KERNEL_CFLAGS) -c -o $@ $<

$(BUILD)/drivers/%.o: drivers/%.c
	@mkdir -p $(@D)
	$(CC) $(DRIVERS_CFLAGS) -c -o $@ $<

$(BUILD)/kernel/kernel.elf: $(KERNEL_OBJS) kernel/kernel.ld
	$(LD) $(KERNEL_LDFLAGS) -o $@ $(KERNEL_OBJS)

-include $(KERNEL_OBJS:.o=.d)

endif
