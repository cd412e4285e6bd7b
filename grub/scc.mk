# The "scc" GRUB module (grub/scc.c), built inside GRUB's configured
# grub-core directory with GRUB's own compile, link and genmod rules, so
# that it is a module exactly like GRUB's. Read with
#   make -C BUILD/grub/grub-core -f Makefile -f grub/scc.mk \
#        SCC_MODULE_SRC=... SCC_INCLUDE=... scc.mod
# by scripts/build-grub.sh; GRUB's Makefile.core.def is not touched.

scc_module_CPPFLAGS = $(AM_CPPFLAGS) $(CPPFLAGS_MODULE) -I$(SCC_INCLUDE)
scc_module_CFLAGS = $(AM_CFLAGS) $(CFLAGS_MODULE)
scc_module_LDFLAGS = $(AM_LDFLAGS) $(LDFLAGS_MODULE)

scc/scc_module-scc.o: $(SCC_MODULE_SRC)
	@mkdir -p scc
	$(CC) $(DEFS) $(DEFAULT_INCLUDES) $(INCLUDES) $(scc_module_CPPFLAGS) \
	  $(CPPFLAGS) $(scc_module_CFLAGS) $(CFLAGS) -c -o $@ $<

scc.module: scc/scc_module-scc.o
	$(CCLD) $(scc_module_CFLAGS) $(CFLAGS) $(scc_module_LDFLAGS) $(LDFLAGS) \
	  -o $@ $^

# The module uses only symbols of GRUB's kernel: no dependencies. genmod.sh
# wants its line in a moddep list; GRUB's own moddep.lst is left as built.
scc-moddep.lst: moddep.lst
	{ cat $<; echo 'scc:'; } > $@

scc.mod: genmod.sh scc-moddep.lst scc.module build-grub-module-verifier$(BUILD_EXEEXT)
	TARGET_OBJ2ELF= sh $^ $@
