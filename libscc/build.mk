# libscc: the RCCE / iRCCE / RCCEnb library, for the chip and for the host.
#
#   build/libscc/rcce/chip/librcce.a         for applications on the chip
#   build/libscc/rcce/VARIANT/librcce.a      host builds (one thread per UE):
#                                            VARIANT = host, tsan, asan
#   build/libscc/rcce/VARIANT/tests/NAME     host test programs (tests/libscc)
#   build/tests/libscc/NAME.elf              the test programs for the chip
#
# A chip application that uses RCCE links $(LIBRCCE_CHIP) before the
# runtime (apps/build.mk builds the apps). Targets: libscc (everything),
# libscc-host, libscc-chip.

ifndef LIBSCC_BUILD_MK
LIBSCC_BUILD_MK := 1

ifndef LIBSCC_SYS_BUILD_MK
-include libscc/sys/build.mk
endif

LSC_OUT      := $(BUILD)/libscc/rcce
# The collectives (libscc/src/coll/README.md): core/ the framework, engine/
# what several algorithms share, one folder per operation. Their objects go
# into the archive in the order of their file names, as when the folder was
# flat: the order decides the code's layout, and the layout modeled times.
LSC_COLL_SRCS := $(wildcard libscc/src/coll/*/*.c)
LSC_SRCS     := $(wildcard libscc/src/*.c) \
	$(foreach f,$(sort $(notdir $(LSC_COLL_SRCS))),$(filter %/$(f),$(LSC_COLL_SRCS)))
LSC_HEADERS  := $(wildcard libscc/include/*.h libscc/src/*.h libscc/src/coll/*/*.h \
	libscc/platform/*.h)
LSC_TESTS    := $(basename $(notdir $(wildcard tests/libscc/*.c)))
LSC_INCLUDES := -I libscc/include -I libscc/platform -I include
LSC_VARIANTS := host tsan asan
# libscc/platform/*.c of the host backend
LSC_HOST_PLAT := host host_where
LSC_SANDEPS  := $(LSC_OUT)/sandeps.stamp

HOST_CC ?= gcc

# Generated headers: the tuning table below, the apps' commit (apps/build.mk).
SCC_BUILD_DIR := $(BUILD)/gen

# The measured defaults (libscc/src/coll/README.md, "Defaults from
# measurement"): tuning.json compiled into C for select.c, in every build,
# by the tools' tuning module run as a script: it needs only the standard
# library, so any python3 runs it, with or without build/venv.
COLL_TUNING_JSON := libscc/src/coll/tuning.json
COLL_TUNING_H    := $(SCC_BUILD_DIR)/coll_tuning.h
COLL_TUNING_PY   := tools/scc/bench/tuning.py
$(COLL_TUNING_H): $(COLL_TUNING_JSON) $(COLL_TUNING_PY)
	@mkdir -p $(@D)
	python3 $(COLL_TUNING_PY) header $< $@

# -fopenmp: RCCE programs written for Intel's emulator mark their per-UE
# globals `#pragma omp threadprivate`; with OpenMP on, GCC makes those
# variables thread-local, so each UE thread has its own (libscc/README.md).
LSC_HOST_CFLAGS := -std=gnu11 -g -Wall -Wextra -Werror -DSCC_HOST -pthread -fopenmp \
	$(LSC_INCLUDES) -I $(SCC_BUILD_DIR) -MMD -MP
LSC_CFLAGS_host := -O2
LSC_CFLAGS_tsan := -O1 -fsanitize=thread
LSC_CFLAGS_asan := -O1 -fsanitize=address,undefined -fno-omit-frame-pointer \
	-fno-sanitize-recover=undefined

.PHONY: libscc libscc-host libscc-chip
all: libscc
libscc: libscc-host libscc-chip

$(LSC_SANDEPS): libscc/host-deps.sh
	libscc/host-deps.sh $@

# $(call lsc_host,VARIANT): the library, tests and pingpong of one host build.
define lsc_host
$(LSC_OUT)/$(1)/obj/%.o: libscc/src/%.c | $(LSC_SANDEPS)
	@mkdir -p $$(@D)
	$(HOST_CC) $(LSC_HOST_CFLAGS) $(LSC_CFLAGS_$(1)) -c -o $$@ $$<

$(LSC_OUT)/$(1)/obj/coll/core/select.o: $(COLL_TUNING_H)

$(LSC_HOST_PLAT:%=$(LSC_OUT)/$(1)/obj/%.o): $(LSC_OUT)/$(1)/obj/%.o: \
		libscc/platform/%.c | $(LSC_SANDEPS)
	@mkdir -p $$(@D)
	$(HOST_CC) $(LSC_HOST_CFLAGS) $(LSC_CFLAGS_$(1)) -c -o $$@ $$<

$(LSC_OUT)/$(1)/librcce.a: $(patsubst libscc/src/%.c,$(LSC_OUT)/$(1)/obj/%.o,$(LSC_SRCS)) \
		$(LSC_HOST_PLAT:%=$(LSC_OUT)/$(1)/obj/%.o)
	@rm -f $$@
	ar rcs $$@ $$^

$(LSC_OUT)/$(1)/tests/%: tests/libscc/%.c $(LSC_OUT)/$(1)/librcce.a
	@mkdir -p $$(@D)
	$(HOST_CC) $(LSC_HOST_CFLAGS) $(LSC_CFLAGS_$(1)) -I tests/libscc -o $$@ $$< \
		$(LSC_OUT)/$(1)/librcce.a -lm

libscc-host: $(LSC_OUT)/$(1)/librcce.a $(LSC_TESTS:%=$(LSC_OUT)/$(1)/tests/%)

-include $(wildcard $(LSC_OUT)/$(1)/obj/*.d $(LSC_OUT)/$(1)/obj/coll/*/*.d \
	$(LSC_OUT)/$(1)/tests/*.d)
endef

$(foreach v,$(LSC_VARIANTS),$(eval $(call lsc_host,$(v))))

# --- the chip -------------------------------------------------------------------
# Needs the runtime's variables (libscc/sys/build.mk): APP_CFLAGS, APP_LDFLAGS,
# APP_LIBS, APP_RUNTIME, LIBSCC_CRT0, PICOLIBC_STAMP.
ifdef LIBSCC_SYS_BUILD_MK

LIBRCCE_CHIP := $(LSC_OUT)/chip/librcce.a
LSC_CHIP_OBJS := $(patsubst libscc/src/%.c,$(LSC_OUT)/chip/obj/%.o,$(LSC_SRCS)) \
	$(LSC_OUT)/chip/obj/chip.o
LSC_CHIP_TESTS := $(LSC_TESTS:%=$(BUILD)/tests/libscc/%.elf)

$(LSC_OUT)/chip/obj/%.o: libscc/src/%.c $(PICOLIBC_STAMP)
	@mkdir -p $(@D)
	$(CC) $(APP_CFLAGS) $(LSC_INCLUDES) -c -o $@ $<

$(LSC_OUT)/chip/obj/coll/core/select.o: $(COLL_TUNING_H)
$(LSC_OUT)/chip/obj/coll/core/select.o: APP_CFLAGS += -I $(SCC_BUILD_DIR)

$(LSC_OUT)/chip/obj/chip.o: libscc/platform/chip.c $(PICOLIBC_STAMP)
	@mkdir -p $(@D)
	$(CC) $(APP_CFLAGS) $(LSC_INCLUDES) -c -o $@ $<

$(LIBRCCE_CHIP): $(LSC_CHIP_OBJS)
	@rm -f $@
	$(AR) rcs $@ $^

# On the chip every UE has memory of its own: `omp threadprivate` has
# nothing to do, and is ignored.
LSC_CHIP_CFLAGS = $(APP_CFLAGS) $(LSC_INCLUDES) -Wno-unknown-pragmas

$(BUILD)/tests/libscc/%.o: tests/libscc/%.c $(PICOLIBC_STAMP)
	@mkdir -p $(@D)
	$(CC) $(LSC_CHIP_CFLAGS) -I tests/libscc -c -o $@ $<

$(BUILD)/tests/libscc/%.elf: $(BUILD)/tests/libscc/%.o $(LIBRCCE_CHIP) $(APP_RUNTIME)
	$(LD) $(APP_LDFLAGS) -o $@ $(LIBSCC_CRT0) $< $(LIBRCCE_CHIP) $(APP_LIBS)

GUEST_TARGETS += $(LIBRCCE_CHIP) $(LSC_CHIP_TESTS)
libscc-chip: $(LIBRCCE_CHIP) $(LSC_CHIP_TESTS)

.SECONDARY: $(LSC_CHIP_TESTS:.elf=.o)
-include $(wildcard $(LSC_OUT)/chip/obj/*.d $(LSC_OUT)/chip/obj/coll/*/*.d \
	$(BUILD)/tests/libscc/*.d)
endif

endif
