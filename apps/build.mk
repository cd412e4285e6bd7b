# The benchmarks and applications of apps/, for the chip and the host.
#
#   build/apps/lib/libbench.a            apps/lib/ for the chip: options,
#                                        start-up, CSV preamble, sizes, regions
#   build/apps/NAME.elf                  apps/NAME.c for the chip
#   build/libscc/rcce/VARIANT/libbench.a apps/lib/ for a host build of libscc
#   build/libscc/rcce/VARIANT/NAME       apps/NAME.c on the host (APPS_BOTH)
#
# A program is apps/NAME.c, linked with the benchmark library, libscc's
# RCCE library and the runtime; the three collective benchmarks share
# apps/coll/, the notification benchmarks apps/notify/.
#
# Needs libscc/sys/build.mk (the runtime: APP_CFLAGS, APP_LDFLAGS, APP_LIBS,
# APP_RUNTIME, LIBSCC_CRT0) and libscc/build.mk (LIBRCCE_CHIP, LSC_OUT,
# LSC_INCLUDES, LSC_HOST_CFLAGS, LSC_VARIANTS, SCC_BUILD_H) first.

ifndef APPS_BUILD_MK
APPS_BUILD_MK := 1

# Programs for both backends, and for the chip only (MPBs by address, the
# kernel's memory and mailbox calls, copy cores).
APPS_BOTH := pingpong bcast_bench allreduce_bench coll_bench calibrate
APPS_CHIP := mem_bench mpb_contention ipi_latency notify_pingpong many_to_one \
	copy_bench copy_core mbox_bench hello
APPS_COLL := bcast_bench allreduce_bench coll_bench
APPS_NOTIFY := notify_pingpong many_to_one

# The build's commit, which the benchmarks print above their CSV
# (apps/lib/out.c). apps/commit.sh runs on every make but rewrites the
# header only when the commit (or -dirty) changes: then, and only then,
# the benchmarks are rebuilt.
SCC_BUILD_H := $(SCC_BUILD_DIR)/scc_build.h
$(SCC_BUILD_H): apps/commit.sh FORCE
	@apps/commit.sh $@

BENCH_SRCS  := $(wildcard apps/lib/*.c)
COLL_SRCS   := $(wildcard apps/coll/*.c)
NOTIFY_SRCS := $(wildcard apps/notify/*.c)
APPS_INCLUDES = $(LSC_INCLUDES) -I apps/lib -I $(SCC_BUILD_DIR)

# --- the chip -----------------------------------------------------------------------
APPS_OUT  := $(BUILD)/apps
BENCH_LIB := $(APPS_OUT)/lib/libbench.a
APPS_CHIP_ELFS := $(patsubst %,$(APPS_OUT)/%.elf,$(APPS_BOTH) $(APPS_CHIP))
# On the chip every UE has memory of its own: `omp threadprivate` has
# nothing to do, and is ignored.
APPS_CHIP_CFLAGS = $(APP_CFLAGS) $(APPS_INCLUDES) -Wno-unknown-pragmas

$(APPS_OUT)/%.o: apps/%.c $(SCC_BUILD_H) $(PICOLIBC_STAMP)
	@mkdir -p $(@D)
	$(CC) $(APPS_CHIP_CFLAGS) -c -o $@ $<

$(BENCH_LIB): $(BENCH_SRCS:apps/%.c=$(APPS_OUT)/%.o)
	@rm -f $@
	$(AR) rcs $@ $^

# What each program links besides its own object.
apps_objs = $(if $(filter $(1),$(APPS_COLL)),$(COLL_SRCS:apps/%.c=$(APPS_OUT)/%.o)) \
	$(if $(filter $(1),$(APPS_NOTIFY)),$(NOTIFY_SRCS:apps/%.c=$(APPS_OUT)/%.o))

define apps_chip_elf
$(APPS_OUT)/$(1).elf: $(APPS_OUT)/$(1).o $(call apps_objs,$(1)) $(BENCH_LIB) $(LIBRCCE_CHIP) \
		$(APP_RUNTIME)
	$$(LD) $$(APP_LDFLAGS) -o $$@ $$(LIBSCC_CRT0) $(APPS_OUT)/$(1).o $(call apps_objs,$(1)) \
		$(BENCH_LIB) $(LIBRCCE_CHIP) $$(APP_LIBS)
endef
$(foreach a,$(APPS_BOTH) $(APPS_CHIP),$(eval $(call apps_chip_elf,$(a))))

GUEST_TARGETS += $(APPS_CHIP_ELFS)
.SECONDARY: $(patsubst %,$(APPS_OUT)/%.o,$(APPS_BOTH) $(APPS_CHIP)) \
	$(BENCH_SRCS:apps/%.c=$(APPS_OUT)/%.o) $(COLL_SRCS:apps/%.c=$(APPS_OUT)/%.o) \
	$(NOTIFY_SRCS:apps/%.c=$(APPS_OUT)/%.o)
-include $(wildcard $(APPS_OUT)/*.d $(APPS_OUT)/*/*.d)

# --- the host (a thread per UE; libscc/build.mk's variants) ------------------------
# $(call apps_host_bin,VARIANT,NAME)
define apps_host_bin
$(LSC_OUT)/$(1)/$(2): $(LSC_OUT)/$(1)/apps/$(2).o \
		$(subst $(APPS_OUT)/,$(LSC_OUT)/$(1)/apps/,$(call apps_objs,$(2))) \
		$(LSC_OUT)/$(1)/libbench.a $(LSC_OUT)/$(1)/librcce.a
	$(HOST_CC) $(LSC_HOST_CFLAGS) $(LSC_CFLAGS_$(1)) -o $$@ $$(filter %.o,$$^) \
		$(LSC_OUT)/$(1)/libbench.a $(LSC_OUT)/$(1)/librcce.a -lm
endef

define apps_host
$(LSC_OUT)/$(1)/apps/%.o: apps/%.c $(SCC_BUILD_H) | $(LSC_SANDEPS)
	@mkdir -p $$(@D)
	$(HOST_CC) $(LSC_HOST_CFLAGS) $(LSC_CFLAGS_$(1)) -I apps/lib -c -o $$@ $$<

$(LSC_OUT)/$(1)/libbench.a: $(BENCH_SRCS:apps/%.c=$(LSC_OUT)/$(1)/apps/%.o)
	@rm -f $$@
	ar rcs $$@ $$^

$(foreach a,$(APPS_BOTH),$(eval $(call apps_host_bin,$(1),$(a))))

libscc-host: $(APPS_BOTH:%=$(LSC_OUT)/$(1)/%)
.SECONDARY: $(patsubst %,$(LSC_OUT)/$(1)/apps/%.o,$(APPS_BOTH)) \
	$(BENCH_SRCS:apps/%.c=$(LSC_OUT)/$(1)/apps/%.o) \
	$(COLL_SRCS:apps/%.c=$(LSC_OUT)/$(1)/apps/%.o)
-include $(wildcard $(LSC_OUT)/$(1)/apps/*.d $(LSC_OUT)/$(1)/apps/*/*.d)
endef

$(foreach v,$(LSC_VARIANTS),$(eval $(call apps_host,$(v))))

.PHONY: apps
apps: $(APPS_CHIP_ELFS)

endif
