# The tests. Included by the root Makefile: make runs from the
# repository root, where BUILD, CC, the flags and the library are defined.
# Each tests/test_*.c is one TAP-speaking program (tests/tap.h) linked with
# the shared test support code; tests/test_*.sh are TAP shell tests. `prove`
# (Perl's TAP harness, on every Debian machine) runs them all and prints the
# summary.
TEST_SUPPORT_SRC := $(wildcard tests/support/*.c)
TEST_SUPPORT_OBJ := $(TEST_SUPPORT_SRC:%.c=$(BUILD)/obj/%.o)
# prove -j2 starts the tests in list order and each pass is as long as its
# longest slot: the longest tests go first (their order in the passes of
# `make test`, longest first), so that both slots end about together.
TEST_FIRST := test_simd_utf8 test_exhaustive test_simd_utf16 test_consistency test_oracle_icu \
              test_guard_pages
TEST_SRC := $(TEST_FIRST:%=tests/%.c) $(filter-out $(TEST_FIRST:%=tests/%.c),$(wildcard tests/test_*.c))
TEST_BIN := $(TEST_SRC:tests/%.c=$(BUILD)/tests/%)
TEST_SH_FIRST := tests/test_node_binding.sh tests/test_cli.sh tests/test_node_package.sh \
                 tests/test_amalgamation.sh tests/test_cmake.sh
TEST_SH := $(wildcard tests/test_*.sh)
ICU_LIBS := $(shell pkg-config --libs icu-uc 2>/dev/null || echo -licuuc -licudata)
TEST_CFLAGS = -std=c11 -Wall -Wextra $(WERROR) -Iinclude -Isrc -Itests $(CFLAGS) $(EXTRA_FLAGS)

$(BUILD)/obj/tests/%.o: tests/%.c
	@mkdir -p $(dir $@)
	$(CC) $(TEST_CFLAGS) $(DEPFLAGS) -c $< -o $@

$(BUILD)/tests/%: $(BUILD)/obj/tests/%.o $(TEST_SUPPORT_OBJ) $(STATIC_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(EXTRA_FLAGS) -o $@ $^ $(ICU_LIBS) -lpthread

test-build: lib $(TEST_BIN) $(CLI_BIN)

PROVE ?= prove
run-tests: test-build
	BUILD=$(BUILD) CC="$(CC)" CXX="$(CXX)" $(PROVE) -j2 --timer --exec '' $(TEST_SH_FIRST) $(TEST_BIN) \
	    $(AMALG_TEST_BIN) $(filter-out $(TEST_SH_FIRST),$(TEST_SH))

# Each pass starts with a time stamp and prove times each test, so a CI log
# shows where its minutes go. The passes build with one job per core unless
# the caller chose (-j): a plain `make test`, as CI runs it, would compile
# its six build trees on one core. The lines that call $(TEST_MAKE) start
# with `+`: make passes its jobserver only to lines that name $(MAKE) itself,
# so without it a pass run from `make -jN test` (test-avx512-emu's two build
# trees always) would compile with one job (make: "jobserver unavailable").
TEST_JOBS ?= $(shell nproc 2>/dev/null || echo 2)
TEST_MAKE = $(MAKE) $(if $(filter -j%,$(MAKEFLAGS)),,-j$(TEST_JOBS))
test: ## build and run every test: normal build, ASan+UBSan build, test-avx512-emu (x86-64), a short fuzz run, cross-tests
	@date +'test: normal build %T'
	+$(TEST_MAKE) run-tests WERROR=-Werror
	@date +'test: ASan+UBSan build %T'
	+$(TEST_MAKE) run-tests BUILD=$(BUILD)/san-$(notdir $(SAN_CC)) CC=$(SAN_CC) WERROR=-Werror CFLAGS="-O1 -g" EXTRA_FLAGS="$(SAN_FLAGS)" UTFX_SANITIZED=1 \
	    AMALG_TESTS=
ifneq (,$(findstring x86_64,$(MACHINE)))
	@date +'test: emulated avx512 %T'
	+$(TEST_MAKE) test-avx512-emu
endif
	@date +'test: fuzz smoke %T'
	+$(TEST_MAKE) fuzz-smoke
	@date +'test: cross-tests %T'
	+$(TEST_MAKE) cross-tests
	@date +'test: done %T'

# The C tests and the fuzz corpus replay on the avx512 tier, emulated (see
# AVX512_EMU above), so it is tested on CPUs without AVX-512 too; tests too
# slow for emulation take reduced sizes ($$UTFX_TEST_EMULATED). Only avx512
# and scalar run ($$UTFX_TEST_IMPLS): the other passes test avx2 natively.
.PHONY: test-avx512-emu run-emu-tests
test-avx512-emu: ## the C tests on the emulated avx512 tier: normal build, then ASan+UBSan
	+$(TEST_MAKE) run-emu-tests BUILD=$(BUILD)/emu WERROR=-Werror AVX512_EMU=1
	+$(TEST_MAKE) run-emu-tests BUILD=$(BUILD)/emu-san-$(notdir $(SAN_CC)) CC=$(SAN_CC) WERROR=-Werror CFLAGS="-O1 -g" EXTRA_FLAGS="$(SAN_FLAGS)" UTFX_SANITIZED=1 AVX512_EMU=1

run-emu-tests: lib $(TEST_BIN) # and $(FUZZ_REPLAY_BIN), below
	BUILD=$(BUILD) UTFX_TEST_IMPLS=avx512,scalar UTFX_TEST_EMULATED=1 $(PROVE) -j2 --timer \
	    --exec '' $(TEST_BIN) tests/test_fuzz_replay.sh

# The emulation itself against SIMDe (Debian: libsimde-dev), an independent
# implementation of the same intrinsics, on random inputs. Not in `make test`:
# SIMDe is no dependency of the tests.
SIMDE_INCLUDE ?= /usr/include
EMU_CHECK_DIR := $(BUILD)/emu-check
.PHONY: check-avx512-emu-simde
check-avx512-emu-simde: ## check tests/emu/avx512_emu.h against SIMDe (needs libsimde-dev)
	@mkdir -p $(EMU_CHECK_DIR)
	$(CC) -std=c11 -O1 -Wall -Wno-psabi $(AVX2_FLAGS) -Itests/emu -DEMU -c tests/emu/simde_side.c \
	    -o $(EMU_CHECK_DIR)/emu.o
	$(CC) -std=c11 -O1 -Wall -Wno-psabi $(AVX2_FLAGS) -I$(SIMDE_INCLUDE) -c tests/emu/simde_side.c \
	    -o $(EMU_CHECK_DIR)/simde.o
	$(CC) -std=c11 -O1 -Wall -o $(EMU_CHECK_DIR)/check_simde tests/emu/check_simde.c \
	    $(EMU_CHECK_DIR)/emu.o $(EMU_CHECK_DIR)/simde.o
	$(EMU_CHECK_DIR)/check_simde

check: ## quick: the normal build's tests only
	+$(TEST_MAKE) run-tests WERROR=-Werror

# The Node.js oracle test finds tests/oracle/node_oracle.js and tests/data/
# through the source directory (it also honours $UTFX_NODE_ORACLE and $NODE).
$(BUILD)/obj/tests/test_oracle_node.o: TEST_CFLAGS += -DUTFX_SOURCE_DIR='"$(CURDIR)"'
$(BUILD)/obj/tests/test_base64.o: TEST_CFLAGS += -DUTFX_SOURCE_DIR='"$(CURDIR)"'
$(BUILD)/obj/tests/test_base64_lines.o: TEST_CFLAGS += -DUTFX_SOURCE_DIR='"$(CURDIR)"'
$(BUILD)/obj/tests/test_api_parity_node.o: TEST_CFLAGS += -DUTFX_SOURCE_DIR='"$(CURDIR)"'
