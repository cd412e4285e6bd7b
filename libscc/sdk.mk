# The flags a program outside the tree needs, for scc-cc (tools/scc/machine/sdk.py):
# build/sdk/scc-cc.json holds this build's own compile and link commands
# for the chip and for the host backend, taken from the variables the apps
# here are built with (libscc/sys/build.mk, libscc/build.mk), so that the
# two can never differ. Paths in it are relative to the repository.

ifndef LIBSCC_SDK_MK
LIBSCC_SDK_MK := 1

SDK_JSON := $(BUILD)/sdk/scc-cc.json
GUEST_TARGETS += $(SDK_JSON)

# One JSON string list from a make word list.
sdk_list = [$(subst $(eval) ,$(comma),$(patsubst %,"%",$(strip $(1))))]
comma := ,

$(SDK_JSON): Makefile libscc/sdk.mk libscc/build.mk libscc/sys/build.mk | $(PICOLIBC_STAMP)
	@mkdir -p $(@D)
	@printf '%s\n' '{' \
	  '"chip_cc": "$(CC)", "chip_ld": "$(LD)",' \
	  '"chip_cflags": $(call sdk_list,$(APP_CFLAGS) $(LSC_INCLUDES) -Wno-unknown-pragmas),' \
	  '"chip_asflags": $(call sdk_list,$(APP_ARCH_FLAGS) -I include),' \
	  '"chip_ldflags": $(call sdk_list,$(APP_LDFLAGS)),' \
	  '"chip_start": $(call sdk_list,$(LIBSCC_CRT0)),' \
	  '"chip_libs": $(call sdk_list,$(LIBRCCE_CHIP) $(APP_LIBS)),' \
	  '"host_cc": "$(HOST_CC)",' \
	  '"host_cflags": $(call sdk_list,$(LSC_HOST_CFLAGS) $(LSC_CFLAGS_host)),' \
	  '"host_libs": $(call sdk_list,$(LSC_OUT)/host/librcce.a -lm)' \
	  '}' > $@.tmp
	@mv $@.tmp $@

endif
