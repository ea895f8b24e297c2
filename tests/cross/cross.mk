# Cross-tests under qemu-user. Included by the root Makefile: make runs from the
# repository root, where BUILD, CC, the flags and the library are defined.
# `make cross-test CROSS=s390x-linux-gnu` (or aarch64-linux-gnu, ...) builds
# the library and the TAP test programs with $(CROSS)-gcc into
# $(BUILD)/cross-$(CROSS) and runs them under qemu-user (tests/cross/run.sh),
# to prove the portable code on a big-endian host and on AArch64. Needs
# (Debian) crossbuild-essential-<arch> and qemu-user; for test_oracle_icu also
# libicuNN:<arch> (after dpkg --add-architecture <arch>) of the host's ICU
# version, else that test is left out with a message. The node tests run the
# host's node from the emulated program. The shell tests are host-only. On
# AArch64 the tests run the neon and scalar tiers (src/arm/neon; the big sweeps
# neon only: CROSS_NEON_ONLY below); on s390x the scalar tier only (big-endian:
# no SIMD tier).
# `make cross-tests` (part of `make test`) runs cross-test for every target
# of CROSS_TARGETS whose compiler and qemu are installed, and says which it
# leaves out (.ci/run installs them).
CROSS_TARGETS ?= aarch64-linux-gnu s390x-linux-gnu
ICU_MAJOR := $(shell sed -n 's/^\#define U_ICU_VERSION_MAJOR_NUM \([0-9]*\).*/\1/p' \
               /usr/include/unicode/uvernum.h 2>/dev/null)
CROSS_ICU_LIBS = $(if $(ICU_MAJOR),$(wildcard /usr/lib/$(CROSS)/libicuuc.so.$(ICU_MAJOR) \
                   /usr/lib/$(CROSS)/libicudata.so.$(ICU_MAJOR)))
CROSS_SKIP = $(if $(word 2,$(CROSS_ICU_LIBS)),,test_oracle_icu test_oracle_icu_ops test_api_parity_icu)
CROSS_TEST_BIN = $(filter-out $(CROSS_SKIP:%=$(BUILD)/tests/%),$(TEST_BIN))

.PHONY: cross-test cross-run cross-tests
cross-tests: ## cross-test for each of CROSS_TARGETS that is installed (qemu-user)
	@for t in $(CROSS_TARGETS); do \
	  arch=$${t%%-*}; \
	  if command -v $$t-gcc >/dev/null && command -v qemu-$$arch >/dev/null; then \
	    $(MAKE) cross-test CROSS=$$t || exit 1; \
	  else echo "cross-tests: $$t left out: no $$t-gcc or qemu-$$arch" \
	    "(apt-get install crossbuild-essential-<arch> qemu-user)"; fi; \
	done
cross-test: ## build and run the tests for CROSS=<triplet> under qemu-user
	@test -n "$(CROSS)" || { echo "cross-test: set CROSS, e.g. CROSS=s390x-linux-gnu"; exit 2; }
	@command -v $(CROSS)-gcc >/dev/null || { echo "cross-test: $(CROSS)-gcc not found" \
	    "(apt-get install crossbuild-essential-<arch>)"; exit 2; }
	$(MAKE) cross-run BUILD=$(BUILD)/cross-$(CROSS) CC=$(CROSS)-gcc AR=$(CROSS)-ar \
	    WERROR=-Werror ICU_LIBS="$(CROSS_ICU_LIBS)" CROSS_SKIP="$(CROSS_SKIP)"

# Run by cross-test only (BUILD, CC, ICU_LIBS, CROSS_SKIP set there). The
# fuzz corpus replay runs there too, each replay program under qemu (its
# targets compare with ICU, so it needs the target's ICU).
# Little-endian targets only: the fuzz targets' ICU comparison assumes a
# little-endian host (it asserts so), which s390x is not. (FUZZ_REPLAY_BIN is
# defined further down: the recipe makes them, as a prerequisite here would
# expand to nothing.)
# On AArch64 the big sweeps run on the neon tier alone (tests/cross/run.sh sets
# UTFX_TEST_IMPLS=neon for them): they check each tier against the reference
# (tests/support/reference.c), not against each other, and the scalar tier is
# the same portable C that these programs sweep natively on x86-64 (normal and
# ASan+UBSan builds) and under qemu on s390x (big-endian, unsigned char like
# AArch64); neon is tested nowhere else. The other programs (test_dispatch and
# the cheap ones) keep both tiers, so AArch64's scalar build still runs.
CROSS_NEON_ONLY ?= test_exhaustive test_consistency test_oracle_icu test_guard_pages
CROSS_REPLAY = $(if $(findstring s390x,$(CROSS)),,$(if $(word 2,$(ICU_LIBS)),$(FUZZ_REPLAY_BIN)))
cross-run: lib $(CROSS_TEST_BIN)
	@for t in $(CROSS_SKIP); do echo "cross-test: $$t left out: no ICU $(ICU_MAJOR) for" \
	    "$(CROSS) (dpkg --add-architecture, apt-get install libicu$(ICU_MAJOR):<arch>)"; done
	CROSS=$(CROSS) UTFX_CROSS_NEON_ONLY="$(CROSS_NEON_ONLY)" $(PROVE) -j2 --timer \
	    --exec tests/cross/run.sh $(CROSS_TEST_BIN)
	$(if $(CROSS_REPLAY),$(MAKE) $(CROSS_REPLAY))
	$(if $(CROSS_REPLAY),CROSS=$(CROSS) BUILD=$(BUILD) FUZZ_EXEC=tests/cross/run.sh \
	    $(PROVE) tests/test_fuzz_replay.sh,@echo "cross-test: corpus replay left out" \
	    "(big-endian target, or no ICU for it)")
