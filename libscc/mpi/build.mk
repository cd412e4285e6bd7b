# MPI on libscc (docs/mpi.md), for the chip and for the host.
#
#   build/libscc/mpi/chip/libmpi.a   MPI for the chip; link it before librcce.a
#   build/libscc/mpi/host/libmpi.a   MPI for the host: one process per rank
#                                    (host/proc.c), libscc's host objects inside
#   build/sdk/scc-mpicc.json         what scc-mpicc adds to scc-cc's flags
#   build/tests/mpi/NAME.elf         tests/mpi/NAME.c for the chip
#   build/libscc/mpi/host/tests/NAME tests/mpi/NAME.c for the host
#
# Targets: libscc-mpi (everything), libscc-mpi-host, libscc-mpi-chip;
# mpich-tests-src fetches MPICH's test suite (docs/mpi.md), not part of all
# (`make test` fetches it too, for tests/test_mpi.py, which skips it if the
# machine cannot); mpich-tests runs it (tests/mpi/mpich/run.py) on the host,
# on the chip and, ten tests, in the chip's timing mode (MPICH_ARGS=...).

ifndef LIBSCC_MPI_BUILD_MK
LIBSCC_MPI_BUILD_MK := 1

ifndef LIBSCC_BUILD_MK
-include libscc/build.mk
endif

MPI_OUT      := $(BUILD)/libscc/mpi
MPI_SRCS     := $(wildcard libscc/mpi/*.c)
MPI_HEADERS  := $(wildcard libscc/mpi/*.h libscc/mpi/include/*.h)
MPI_INCLUDES := -I libscc/mpi/include -I libscc/mpi
MPI_TESTS    := $(basename $(notdir $(wildcard tests/mpi/*.c)))

.PHONY: libscc-mpi libscc-mpi-host libscc-mpi-chip mpich-tests-src mpich-tests \
	mpich-tests-src-if-possible
all: libscc-mpi
libscc-mpi: libscc-mpi-host libscc-mpi-chip

# After the other sources fetched through apt (one apt-get update at a time).
MPICH_SRC_STAMP := $(BUILD)/src/mpich-tests/.scc-source
MPICH_ARGS ?=
$(MPICH_SRC_STAMP): | $(BUILD)/src/grub2/.scc-source $(BUILD)/src/picolibc/.scc-source \
		$(BUILD)/qemu-version.txt
	tests/mpi/mpich/fetch.sh $(BUILD)
mpich-tests-src: $(MPICH_SRC_STAMP)

test: mpich-tests-src-if-possible
mpich-tests-src-if-possible: | $(BUILD)/src/grub2/.scc-source $(BUILD)/src/picolibc/.scc-source \
		$(BUILD)/qemu-version.txt
	@tests/mpi/mpich/fetch.sh $(BUILD) || echo "warning: MPICH's test suite could not be" \
	    "fetched (above): tests/test_mpi.py skips its runs"

# Each run ends with its `N passed, N failed, N not built`; failures do not
# fail the target, a runner that cannot run does.
mpich-tests: all $(MPICH_SRC_STAMP)
	tests/mpi/mpich/run.py --host $(MPICH_ARGS); [ $$? -le 1 ]
	tests/mpi/mpich/run.py --chip $(MPICH_ARGS); [ $$? -le 1 ]
	tests/mpi/mpich/run.py --timing $(MPICH_ARGS); [ $$? -le 1 ]

# --- the host ------------------------------------------------------------------
MPI_HOST_OBJS := $(patsubst libscc/mpi/%.c,$(MPI_OUT)/host/obj/%.o,$(MPI_SRCS)) \
	$(MPI_OUT)/host/obj/host/proc.o
# libscc's own host objects, all but its thread-per-UE platform
MPI_LSC_HOST_OBJS := $(patsubst libscc/src/%.c,$(LSC_OUT)/host/obj/%.o,$(LSC_SRCS))

$(MPI_OUT)/host/obj/%.o: libscc/mpi/%.c $(MPI_HEADERS) | $(LSC_SANDEPS)
	@mkdir -p $(@D)
	$(HOST_CC) $(LSC_HOST_CFLAGS) $(LSC_CFLAGS_host) $(MPI_INCLUDES) -c -o $@ $<

$(MPI_OUT)/host/libmpi.a: $(MPI_HOST_OBJS) $(MPI_LSC_HOST_OBJS)
	@rm -f $@
	ar rcs $@ $^

$(MPI_OUT)/host/tests/%: tests/mpi/%.c $(MPI_OUT)/host/libmpi.a
	@mkdir -p $(@D)
	$(HOST_CC) $(LSC_HOST_CFLAGS) $(LSC_CFLAGS_host) -I libscc/mpi/include -o $@ $< \
		$(MPI_OUT)/host/libmpi.a -lm

libscc-mpi-host: $(MPI_OUT)/host/libmpi.a $(MPI_TESTS:%=$(MPI_OUT)/host/tests/%)

-include $(wildcard $(MPI_OUT)/host/obj/*.d $(MPI_OUT)/host/obj/host/*.d \
	$(MPI_OUT)/host/tests/*.d)

# --- the chip ------------------------------------------------------------------
ifdef LIBSCC_SYS_BUILD_MK

LIBMPI_CHIP   := $(MPI_OUT)/chip/libmpi.a
MPI_CHIP_OBJS := $(patsubst libscc/mpi/%.c,$(MPI_OUT)/chip/obj/%.o,$(MPI_SRCS))
MPI_CHIP_TESTS := $(MPI_TESTS:%=$(BUILD)/tests/mpi/%.elf)

$(MPI_OUT)/chip/obj/%.o: libscc/mpi/%.c $(MPI_HEADERS) $(PICOLIBC_STAMP)
	@mkdir -p $(@D)
	$(CC) $(APP_CFLAGS) $(LSC_INCLUDES) $(MPI_INCLUDES) -c -o $@ $<

$(LIBMPI_CHIP): $(MPI_CHIP_OBJS)
	@rm -f $@
	$(AR) rcs $@ $^

$(BUILD)/tests/mpi/%.o: tests/mpi/%.c $(PICOLIBC_STAMP)
	@mkdir -p $(@D)
	$(CC) $(APP_CFLAGS) $(LSC_INCLUDES) -I libscc/mpi/include -c -o $@ $<

$(BUILD)/tests/mpi/%.elf: $(BUILD)/tests/mpi/%.o $(LIBMPI_CHIP) $(LIBRCCE_CHIP) $(APP_RUNTIME)
	$(LD) $(APP_LDFLAGS) -o $@ $(LIBSCC_CRT0) $< $(LIBMPI_CHIP) $(LIBRCCE_CHIP) $(APP_LIBS)

libscc-mpi-chip: $(LIBMPI_CHIP) $(MPI_CHIP_TESTS)
GUEST_TARGETS += $(LIBMPI_CHIP)

.SECONDARY: $(MPI_CHIP_TESTS:.elf=.o)
-include $(wildcard $(MPI_OUT)/chip/obj/*.d $(BUILD)/tests/mpi/*.d)

# --- scc-mpicc's additions to scc-cc's flags (tools/scc/cli/mpicc.py) -------------
MPICC_JSON := $(BUILD)/sdk/scc-mpicc.json
GUEST_TARGETS += $(MPICC_JSON)
$(MPICC_JSON): libscc/mpi/build.mk | $(PICOLIBC_STAMP)
	@mkdir -p $(@D)
	@printf '%s\n' '{' \
	  '"cflags": ["-I", "libscc/mpi/include"],' \
	  '"chip_libs": ["$(LIBMPI_CHIP)"],' \
	  '"host_libs": ["$(MPI_OUT)/host/libmpi.a", "-lm"],' \
	  '"chip_needs": ["$(LIBMPI_CHIP)"],' \
	  '"host_needs": ["$(MPI_OUT)/host/libmpi.a"]' \
	  '}' > $@.tmp
	@mv $@.tmp $@

# NetPIPE 3.7.2's MPI module (Debian's netpipe source, its upstream tarball
# alone: trixie's .dsc answers 404), built unchanged with scc-mpicc; run it
# between two cores in timing mode (docs/mpi.md, "NetPIPE"):
#   build/venv/bin/scc-mpiexec -n 2 --timing build/netpipe/NPmpi.elf -o /dev/stdout
NETPIPE_SRC := $(BUILD)/src/netpipe/.scc-source
NETPIPE     := $(BUILD)/netpipe/NPmpi.elf
.PHONY: netpipe
NETPIPE_FETCH = scripts/fetch-debsrc.sh --orig-only netpipe 3.7 $(BUILD) netpipe \
	src/netpipe.c src/mpi.c
NETPIPE_CC = mkdir -p $(BUILD)/netpipe && $(PYTHON_VENV)/bin/scc-mpicc -O2 -DMPI \
	-I $(BUILD)/src/netpipe/src -o $(NETPIPE) $(BUILD)/src/netpipe/src/netpipe.c \
	$(BUILD)/src/netpipe/src/mpi.c
$(NETPIPE_SRC): | $(BUILD)/src/grub2/.scc-source $(BUILD)/src/picolibc/.scc-source \
		$(BUILD)/qemu-version.txt
	$(NETPIPE_FETCH)
$(NETPIPE): $(NETPIPE_SRC) $(MPICC_JSON) $(LIBMPI_CHIP) $(LIBSCC_SYS)
	$(NETPIPE_CC)
netpipe: $(NETPIPE)

# make test builds it too (tests/test_mpi.py runs it briefly), or says why not;
# after MPICH's fetch (each may run apt-get update: one at a time)
test: netpipe-if-possible
.PHONY: netpipe-if-possible
netpipe-if-possible: | $(BUILD)/src/grub2/.scc-source $(BUILD)/src/picolibc/.scc-source \
		$(BUILD)/qemu-version.txt $(MPICC_JSON) $(LIBMPI_CHIP) $(LIBSCC_SYS) $(VENV_STAMP) \
		mpich-tests-src-if-possible
	@{ $(NETPIPE_FETCH) && $(NETPIPE_CC); } || echo "warning: NetPIPE could not be" \
	    "fetched or built (above): tests/test_mpi.py skips its run"
endif

endif
