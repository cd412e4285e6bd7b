# The application runtime (crt0, system-call stubs, the SCC user API), and
# the kernel's test apps linked with it and picolibc (apps/build.mk builds
# apps/).
#
#   build/libscc/crt0.o, build/libscc/libsccsys.a     the runtime
#   build/tests/apps/NAME.elf  from tests/apps/NAME.c (the kernel's test apps)
#
# A test app is one C file; it may include headers from its own
# directory, include/ and libscc/sys/. $(call scc_app_dir,SRC,OUT) adds the
# rules and GUEST_TARGETS for another directory of them.
#
# Needs from the top-level Makefile: BUILD, CC, LD, AR, PICOLIBC_DIR and
# PICOLIBC_STAMP (picolibc installed and its version file written last).

ifndef LIBSCC_SYS_BUILD_MK
LIBSCC_SYS_BUILD_MK := 1

LIBSCC_OUT  := $(BUILD)/libscc
LIBSCC_CRT0 := $(LIBSCC_OUT)/crt0.o
LIBSCC_SYS  := $(LIBSCC_OUT)/libsccsys.a
LIBSCC_SYS_OBJS := $(addprefix $(LIBSCC_OUT)/,scc.o syscalls.o copy.o)
APP_LDSCRIPT := libscc/sys/app.ld

# The compiler's own headers (stdarg.h, stddef.h, ...), asked for once, when
# first used (the cross compiler may be installed only by the deps stamp).
APP_GCC_INCLUDE = $(eval APP_GCC_INCLUDE := $(shell $(CC) -m32 -print-file-name=include))$(APP_GCC_INCLUDE)
APP_LIBGCC = $(eval APP_LIBGCC := $(shell $(CC) -m32 -print-libgcc-file-name))$(APP_LIBGCC)

APP_ARCH_FLAGS := -m32 -march=pentium -mno-mmx -mno-sse -fno-pic -fno-PIE
# _POSIX_MONOTONIC_CLOCK: the runtime has clock_gettime(CLOCK_MONOTONIC)
# (libscc/sys/syscalls.c), which picolibc declares only where the system
# says so.
APP_CFLAGS = $(APP_ARCH_FLAGS) -D_POSIX_MONOTONIC_CLOCK=200112L -O2 -Wall -Wextra -Werror \
	-fno-stack-protector -fno-asynchronous-unwind-tables \
	-ffunction-sections -fdata-sections \
	-nostdinc -isystem $(PICOLIBC_DIR)/include -isystem $(APP_GCC_INCLUDE) \
	-I include -I libscc/sys -MMD -MP
APP_LDFLAGS := -m elf_i386 -T $(APP_LDSCRIPT) --build-id=none \
	-z max-page-size=0x1000 -z noexecstack --gc-sections
# The runtime goes in whole, so its write/sbrk/... win over picolibc's own
# fallbacks (libc.a has a static-arena sbrk, for one); libc, libm and libgcc
# as a group, since each may need the others.
APP_LIBS = --whole-archive $(LIBSCC_SYS) --no-whole-archive \
	--start-group $(PICOLIBC_DIR)/lib/libc.a $(PICOLIBC_DIR)/lib/libm.a \
	$(APP_LIBGCC) --end-group
APP_RUNTIME := $(LIBSCC_CRT0) $(LIBSCC_SYS) $(APP_LDSCRIPT)

GUEST_TARGETS += $(LIBSCC_CRT0) $(LIBSCC_SYS)

$(LIBSCC_OUT)/%.o: libscc/sys/%.c $(PICOLIBC_STAMP)
	@mkdir -p $(@D)
	$(CC) $(APP_CFLAGS) -c -o $@ $<

$(LIBSCC_OUT)/%.o: libscc/sys/%.S $(PICOLIBC_STAMP)
	@mkdir -p $(@D)
	$(CC) $(APP_ARCH_FLAGS) -I include -MMD -MP -c -o $@ $<

$(LIBSCC_SYS): $(LIBSCC_SYS_OBJS)
	@rm -f $@
	$(AR) rcs $@ $^

-include $(LIBSCC_CRT0:.o=.d) $(LIBSCC_SYS_OBJS:.o=.d)

# $(call scc_app_dir,SRC_DIR,OUT_DIR): every SRC_DIR/NAME.c is an application
# OUT_DIR/NAME.elf.
define scc_app_dir
$(2)/%.o: $(1)/%.c $$(PICOLIBC_STAMP)
	@mkdir -p $$(@D)
	$$(CC) $$(APP_CFLAGS) -I $(1) -c -o $$@ $$<

$(2)/%.elf: $(2)/%.o $$(APP_RUNTIME)
	$$(LD) $$(APP_LDFLAGS) -o $$@ $$(LIBSCC_CRT0) $$< $$(APP_LIBS)

GUEST_TARGETS += $(patsubst $(1)/%.c,$(2)/%.elf,$(wildcard $(1)/*.c))
.SECONDARY: $(patsubst $(1)/%.c,$(2)/%.o,$(wildcard $(1)/*.c))
-include $(patsubst $(1)/%.c,$(2)/%.d,$(wildcard $(1)/*.c))
endef

$(eval $(call scc_app_dir,tests/apps,$(BUILD)/tests/apps))

endif
