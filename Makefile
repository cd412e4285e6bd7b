# Top-level Makefile of the SCC project.
#
#   make          build everything: QEMU with the scc machine, the guest code
#   make run      build what the demo needs, then compare broadcasts on all 48
#                 emulated cores
#   make test     build everything, then run the tests (pytest; PYTEST_ARGS=...)
#   make report   build, then reproduce the papers' headline results in modeled
#                 time: build/report/index.md and index.html (REPORT_ARGS=--quick)
#   make clean    remove build outputs (keeps the downloaded QEMU source, venv)
#   make distclean  remove build/ entirely
#
# The build installs the Debian packages it needs (scripts/deps.sh), fetches
# QEMU's source (scripts/fetch-qemu.sh), creates build/venv, assembles
# build/src/qemu from it plus qemu/patches and qemu/overlay, and builds
# build/qemu/qemu-system-i386 (out of tree, in build/qemu). Applications get
# picolibc, fetched the same way (scripts/fetch-debsrc.sh: Debian's source
# package of the 1.8 series) and cross-built into build/picolibc
# (scripts/build-picolibc.sh), and the runtime in libscc/sys/.

BUILD := build

# Build on every host CPU unless told otherwise (make JOBS=1): the guest
# code, libscc's three host builds and the test programs are hundreds of
# small compiles, which a serial make runs one by one.
JOBS ?= $(shell nproc)
MAKEFLAGS += -j$(JOBS)

# Cross toolchain for the guest code (boot/, kernel/, tests/guest/ build.mk).
CROSS   ?= i686-linux-gnu-
CC      = $(CROSS)gcc
LD      = $(CROSS)ld
AR      = $(CROSS)ar
OBJCOPY = $(CROSS)objcopy
OBJDUMP = $(CROSS)objdump
NM      = $(CROSS)nm

# Where the QEMU machine's sources come from (override to try another tree).
QEMU_OVERLAY ?= qemu/overlay
QEMU_PATCHES ?= qemu/patches

PYTHON_VENV := $(BUILD)/venv
VENV_PY     := $(PYTHON_VENV)/bin/python
VENV_STAMP  := $(PYTHON_VENV)/.installed
DEPS_STAMP  := $(BUILD)/deps.stamp.mk
QEMU_VERSION_FILE := $(BUILD)/qemu-version.txt
QEMU_BIN    := $(BUILD)/qemu/qemu-system-i386
PICOLIBC_DIR   := $(BUILD)/picolibc
PICOLIBC_STAMP := $(BUILD)/picolibc-version.txt
PICOLIBC_SRC   := $(BUILD)/src/picolibc/.scc-source

PYTEST_ARGS ?=
RUN_ARGS    ?=
REPORT_ARGS ?=

# Guest fragments append their outputs to this.
GUEST_TARGETS :=

.DEFAULT_GOAL := all
.DELETE_ON_ERROR:
.PHONY: all demo qemu guest picolibc apps grub run test report clean distclean deps venv help FORCE

# --- Host packages ------------------------------------------------------------
# The stamp is an included makefile: GNU make brings included makefiles up to
# date (and restarts) before it builds anything else, so the packages are in
# place before any compiler runs, even with -j. Not for clean/distclean/help,
# nor for `make -n` (a dry run must not install anything).
NO_DEPS_GOALS := clean distclean help
ifneq ($(MAKECMDGOALS),)
ifeq ($(filter-out $(NO_DEPS_GOALS),$(MAKECMDGOALS)),)
SKIP_DEPS := 1
endif
endif
ifneq ($(findstring n,$(firstword -$(MAKEFLAGS))),)
SKIP_DEPS := 1
endif
ifndef SKIP_DEPS
-include $(DEPS_STAMP)
endif

$(DEPS_STAMP): scripts/deps.sh
	scripts/deps.sh $@

deps: $(DEPS_STAMP)

# --- Guest code (fragments owned by the guest code's authors) -----------------
-include boot/build.mk
-include kernel/build.mk
-include tests/guest/build.mk
-include libscc/sys/build.mk
-include libscc/build.mk
-include libscc/mpi/build.mk
-include apps/build.mk
-include libscc/sdk.mk

ifneq ($(strip $(GUEST_TARGETS)),)
$(GUEST_TARGETS): | $(DEPS_STAMP)
endif

guest: $(GUEST_TARGETS)

# --- Python virtualenv ----------------------------------------------------------
$(VENV_STAMP): requirements.txt tools/pyproject.toml scripts/venv.sh | $(DEPS_STAMP)
	scripts/venv.sh $(PYTHON_VENV) requirements.txt $@

venv: $(VENV_STAMP)

# --- picolibc (the applications' C library) ------------------------------------
# Fetched once (delete build/src/picolibc to fetch anew); rebuilt when the
# source or the build script changes. The version file is written last.
$(PICOLIBC_SRC): | $(DEPS_STAMP)
	scripts/fetch-debsrc.sh picolibc 1.8 $(BUILD) picolibc meson.build newlib

$(PICOLIBC_STAMP): $(PICOLIBC_SRC) scripts/build-picolibc.sh | $(VENV_STAMP) $(DEPS_STAMP)
	CROSS=$(CROSS) scripts/build-picolibc.sh $(BUILD)

picolibc: $(PICOLIBC_STAMP)

# --- GRUB (scc-run --grub: booting each core through GRUB 2) ------------------
# Debian's grub2 source, its upstream tarball alone (scripts/fetch-debsrc.sh
# says why), fetched once; built for i386-multiboot with our "scc" module.
GRUB_SRC   := $(BUILD)/src/grub2/.scc-source
GRUB_STAMP := $(BUILD)/grub-version.txt

$(GRUB_SRC): | $(DEPS_STAMP)
	scripts/fetch-debsrc.sh --orig-only grub2 2.12 $(BUILD) grub2 configure grub-core

$(GRUB_STAMP): $(GRUB_SRC) scripts/build-grub.sh grub/scc.c grub/scc.mk include/standard-headers/scc/abi.h | $(DEPS_STAMP)
	CROSS=$(CROSS) scripts/build-grub.sh $(BUILD)

grub: $(GRUB_STAMP)

# --- QEMU -------------------------------------------------------------------------
# Fetched once; delete $(QEMU_VERSION_FILE) (or `make distclean`) to fetch anew.
$(QEMU_VERSION_FILE): | $(DEPS_STAMP)
	scripts/fetch-qemu.sh $(BUILD)

# Always handed to the script: it re-assembles build/src/qemu only when
# qemu/ changed (hash stamp), configures only when needed, and ninja is a
# no-op when nothing changed.
$(QEMU_BIN): $(QEMU_VERSION_FILE) $(VENV_STAMP) FORCE
	scripts/build-qemu.sh $(BUILD) $(QEMU_OVERLAY) $(QEMU_PATCHES)

qemu: $(QEMU_BIN)

# The core maps, next to the images they name (their paths are relative).
CORE_MAPS := $(patsubst coremaps/%,$(BUILD)/%,$(wildcard coremaps/*.map))
$(BUILD)/%.map: coremaps/%.map
	@mkdir -p $(@D)
	cp $< $@

# --- Entry points -------------------------------------------------------------------
all: $(QEMU_BIN) $(GUEST_TARGETS) $(VENV_STAMP) $(CORE_MAPS) $(GRUB_STAMP)

# The demo: a 48-core broadcast comparison on the emulated chip. It needs
# the machine, the boot stub, the kernel and one app, not GRUB, the host
# builds of libscc or the test programs (`make test` builds those).
DEMO_TARGETS := $(QEMU_BIN) $(VENV_STAMP) $(BUILD)/boot/scc-boot.elf \
	$(BUILD)/kernel/kernel.elf $(BUILD)/apps/bcast_bench.elf
demo: $(DEMO_TARGETS)

run: demo
	tools/scc-bcast-demo $(RUN_ARGS)

# The tests run in two passes. First, on TEST_JOBS pytest-xdist workers at
# once (default: the host's CPUs; each QEMU run then counts on its share of
# them, SCC_PARALLEL_RUNS, for --tcg auto), every test but those marked
# `alone`; then those, one at a time: they measure against the host's clock,
# or look at the host's processes (tests/conftest.py). TEST_JOBS=1 runs the first pass without workers.
TEST_JOBS ?= $(shell nproc)
test: all
	SCC_TEST_PASS=shared SCC_PARALLEL_RUNS=$(TEST_JOBS) $(VENV_PY) -m pytest -v \
	    $(if $(filter-out 1,$(TEST_JOBS)),-n $(TEST_JOBS) --dist load) tests $(PYTEST_ARGS); \
	rc=$$?; [ $$rc -eq 0 ] || [ $$rc -eq 5 ] || exit $$rc; \
	SCC_TEST_PASS=alone $(VENV_PY) -m pytest -v tests $(PYTEST_ARGS); \
	rc=$$?; [ $$rc -eq 0 ] || [ $$rc -eq 5 ] || exit $$rc

# The papers' headline results, reproduced (tools/scc/report/, experiments/report/).
# NetPIPE too, if its source can be fetched: without it the report's NetPIPE
# section says MPI was not measured, and why (docs/mpi.md, "NetPIPE").
report: all
	@$(MAKE) --no-print-directory netpipe || echo "warning: NetPIPE could not be" \
	    "fetched or built (above): the report says MPI was not measured"
	$(PYTHON_VENV)/bin/scc-report $(REPORT_ARGS)

# Keeps build/dl, build/src/qemu-pristine, build/qemu-version.txt, build/venv,
# build/src/picolibc.
clean:
	rm -rf $(BUILD)/qemu $(BUILD)/src/qemu $(BUILD)/src/qemu-stage \
	       $(BUILD)/src/qemu.stamp $(BUILD)/src/qemu.manifest \
	       $(BUILD)/qemu-configure.log $(BUILD)/.qemu-unpack.* \
	       $(BUILD)/boot $(BUILD)/kernel $(BUILD)/tests $(BUILD)/libscc \
	       $(BUILD)/apps $(BUILD)/drivers $(GUEST_TARGETS) \
	       $(BUILD)/picolibc $(BUILD)/picolibc-build $(PICOLIBC_STAMP) \
	       $(BUILD)/grub $(GRUB_STAMP)

distclean:
	rm -rf $(BUILD)

help:
	@sed -n '3,9s/^# \{0,1\}//p' Makefile

FORCE:
