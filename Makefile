# utfx: GNU Make build. `make` builds the libraries (and the CLI), `make test`
# runs every test (plain build, then ASan+UBSan), `make bench` the benchmarks.
# Run `make help` for the list of targets.

# Sources, tier flags and warnings: sources.mk, shared with CMakeLists.txt and
# the amalgamation (tools/amalgamate.pl).
include sources.mk

VERSION_MAJOR := $(shell sed -n 's/^\#define UTFX_VERSION_MAJOR \([0-9]*\)/\1/p' include/utfx.h)
VERSION_MINOR := $(shell sed -n 's/^\#define UTFX_VERSION_MINOR \([0-9]*\)/\1/p' include/utfx.h)
VERSION_PATCH := $(shell sed -n 's/^\#define UTFX_VERSION_PATCH \([0-9]*\)/\1/p' include/utfx.h)
VERSION := $(VERSION_MAJOR).$(VERSION_MINOR).$(VERSION_PATCH)

CC ?= cc
CXX ?= c++
CFLAGS ?= -O2 -g
BUILD ?= build
# The sanitizer run uses clang when present: its UBSan also rejects NULL + 0,
# which the contract makes reachable (src may be NULL when n == 0).
SAN_CC ?= $(shell command -v clang >/dev/null 2>&1 && echo clang || echo $(CC))
SAN_FLAGS := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
WARN := $(UTFX_WARN)
WERROR ?=
ALL_CFLAGS = -std=c11 $(WARN) $(WERROR) -Iinclude $(CFLAGS) $(EXTRA_FLAGS)

PREFIX ?= /usr/local
LIBDIR ?= $(PREFIX)/lib
INCLUDEDIR ?= $(PREFIX)/include
BINDIR ?= $(PREFIX)/bin
MANDIR ?= $(PREFIX)/share/man
PKGCONFIGDIR ?= $(LIBDIR)/pkgconfig

# Library sources (sources.mk): baseline C everywhere, SIMD tiers on x86-64
# and AArch64.
# Each tier's files are compiled with exactly the features dispatch checks
# (src/cpu.h).
LIB_SRC := $(wildcard $(UTFX_SRC))
MACHINE := $(shell $(CC) -dumpmachine)
AVX2_FLAGS := $(UTFX_AVX2_FLAGS)
AVX512_FLAGS := $(UTFX_AVX512_FLAGS)
ifneq (,$(findstring x86_64,$(MACHINE)))
LIB_SRC += $(wildcard $(UTFX_SRC_AVX2) $(UTFX_SRC_AVX512))
endif
ifneq (,$(findstring aarch64-,$(MACHINE)))
LIB_SRC += $(wildcard $(UTFX_SRC_NEON))
endif
# AVX512_EMU=1 (set by test-avx512-emu only): the avx512 files are built with
# the AVX2 flags and tests/emu/avx512_emu.h, the AVX-512 intrinsics in plain C,
# and dispatch runs that tier wherever avx2 runs. A test build, never a library.
ifeq ($(AVX512_EMU),1)
AVX512_FLAGS := $(AVX2_FLAGS) -include tests/emu/avx512_emu.h
DISPATCH_FLAGS := -DUTFX_AVX512_EMULATED
endif
LIB_OBJ := $(LIB_SRC:%.c=$(BUILD)/obj/%.o)

STATIC_LIB := $(BUILD)/libutfx.a
SONAME := libutfx.so.$(VERSION_MAJOR)
SHARED_LIB := $(BUILD)/libutfx.so.$(VERSION)

.PHONY: all lib cli test check bench fuzz fuzz-smoke fuzz-campaign install uninstall clean help test-build run-tests
.SECONDARY:
all: lib cli ## build the static and shared libraries and the utfx CLI

lib: $(STATIC_LIB) $(SHARED_LIB) ## build libutfx.a and libutfx.so

# Header dependencies: every compiler run writes its object's .d file (-MMD;
# -MP: a deleted header is no error), read back here.
DEPFLAGS = -MMD -MP
-include $(shell find $(BUILD)/obj -name '*.d' 2>/dev/null)

$(BUILD)/obj/%.o: %.c Makefile sources.mk
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(DEPFLAGS) -fPIC -fvisibility=hidden $(TIER_FLAGS) -c $< -o $@

$(BUILD)/obj/src/x86/avx2_%.o: TIER_FLAGS = $(AVX2_FLAGS)
$(BUILD)/obj/src/x86/avx512_%.o: TIER_FLAGS = $(AVX512_FLAGS)
# The emulated-AVX-512 test build tells dispatch (see AVX512_EMU above).
$(BUILD)/obj/src/dispatch.o: TIER_FLAGS = $(UTFX_DISPATCH_FLAGS) $(DISPATCH_FLAGS)

$(STATIC_LIB): $(LIB_OBJ)
	@rm -f $@
	$(AR) rcs $@ $^

$(SHARED_LIB): $(LIB_OBJ)
	$(CC) $(CFLAGS) $(EXTRA_FLAGS) -shared -Wl,-soname,$(SONAME) -o $@ $^
	ln -sf libutfx.so.$(VERSION) $(BUILD)/$(SONAME)
	ln -sf libutfx.so.$(VERSION) $(BUILD)/libutfx.so

# ---------------------------------------------------------------- cli
# The utfx command (cli/*.c): sees only include/ (no -Isrc), links the static
# library, same warnings as the library. POSIX functions are allowed there;
# it converts large files on every core (cli/parallel.c): -pthread.
CLI_SRC := $(wildcard $(UTFX_CLI_SRC))
CLI_OBJ := $(CLI_SRC:%.c=$(BUILD)/obj/%.o)
CLI_BIN := $(BUILD)/utfx

$(BUILD)/obj/cli/%.o: cli/%.c Makefile
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(DEPFLAGS) -pthread -c $< -o $@

# `utfx bench` runs the benchmark engine of bench/ (BENCH_ENGINE_OBJ, below).
$(CLI_BIN): $(CLI_OBJ) $(STATIC_LIB)
	$(CC) $(CFLAGS) $(EXTRA_FLAGS) $(LDFLAGS) -o $@ $(CLI_OBJ) $(BENCH_ENGINE_OBJ) \
	    $(STATIC_LIB) -lm -pthread
$(BUILD)/obj/cli/bench.o: ALL_CFLAGS += -DUTFX_BENCH_SRC_DIR='"$(CURDIR)/bench"'

cli: $(CLI_BIN) ## build the utfx command-line tool

# ---------------------------------------------------------------- tests
# Each tests/test_*.c is one TAP-speaking program (tests/tap.h) linked with
# the shared test support code; tests/test_*.sh are TAP shell tests. `prove`
# (Perl's TAP harness, on every Debian machine) runs them all and prints the
# summary.
TEST_SUPPORT_SRC := $(wildcard tests/support/*.c)
TEST_SUPPORT_OBJ := $(TEST_SUPPORT_SRC:%.c=$(BUILD)/obj/%.o)
TEST_SRC := $(wildcard tests/test_*.c)
TEST_BIN := $(TEST_SRC:tests/%.c=$(BUILD)/tests/%)
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
	BUILD=$(BUILD) CC="$(CC)" CXX="$(CXX)" $(PROVE) -j2 --exec '' $(TEST_BIN) $(AMALG_TEST_BIN) \
	    $(TEST_SH)

test: ## build and run every test: normal build, ASan+UBSan build, test-avx512-emu (x86-64), a short fuzz run, cross-tests
	$(MAKE) run-tests WERROR=-Werror
	$(MAKE) run-tests BUILD=$(BUILD)/san-$(notdir $(SAN_CC)) CC=$(SAN_CC) WERROR=-Werror CFLAGS="-O1 -g" EXTRA_FLAGS="$(SAN_FLAGS)" UTFX_SANITIZED=1 \
	    AMALG_TESTS=
ifneq (,$(findstring x86_64,$(MACHINE)))
	$(MAKE) test-avx512-emu
endif
	$(MAKE) fuzz-smoke
	$(MAKE) cross-tests

# The C tests and the fuzz corpus replay on the avx512 tier, emulated (see
# AVX512_EMU above), so it is tested on CPUs without AVX-512 too; tests too
# slow for emulation take reduced sizes ($$UTFX_TEST_EMULATED). Only avx512
# and scalar run ($$UTFX_TEST_IMPLS): the other passes test avx2 natively.
.PHONY: test-avx512-emu run-emu-tests
test-avx512-emu: ## the C tests on the emulated avx512 tier: normal build, then ASan+UBSan
	$(MAKE) run-emu-tests BUILD=$(BUILD)/emu WERROR=-Werror AVX512_EMU=1
	$(MAKE) run-emu-tests BUILD=$(BUILD)/emu-san-$(notdir $(SAN_CC)) CC=$(SAN_CC) WERROR=-Werror CFLAGS="-O1 -g" EXTRA_FLAGS="$(SAN_FLAGS)" UTFX_SANITIZED=1 AVX512_EMU=1

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
	$(MAKE) run-tests WERROR=-Werror

# The Node.js oracle test finds tests/oracle/node_oracle.js and tests/data/
# through the source directory (it also honours $UTFX_NODE_ORACLE and $NODE).
$(BUILD)/obj/tests/test_oracle_node.o: TEST_CFLAGS += -DUTFX_SOURCE_DIR='"$(CURDIR)"'
$(BUILD)/obj/tests/test_base64.o: TEST_CFLAGS += -DUTFX_SOURCE_DIR='"$(CURDIR)"'
$(BUILD)/obj/tests/test_api_parity_node.o: TEST_CFLAGS += -DUTFX_SOURCE_DIR='"$(CURDIR)"'

# ---------------------------------------------------------------- cross
# `make cross-test CROSS=s390x-linux-gnu` (or aarch64-linux-gnu, ...) builds
# the library and the TAP test programs with $(CROSS)-gcc into
# $(BUILD)/cross-$(CROSS) and runs them under qemu-user (tests/cross/run.sh),
# to prove the portable code on a big-endian host and on AArch64. Needs
# (Debian) crossbuild-essential-<arch> and qemu-user; for test_oracle_icu also
# libicuNN:<arch> (after dpkg --add-architecture <arch>) of the host's ICU
# version, else that test is left out with a message. The node tests run the
# host's node from the emulated program. The shell tests are host-only. On
# AArch64 the tests run the neon and scalar tiers (src/arm); on s390x the
# scalar tier only (big-endian: no SIMD tier).
# `make cross-tests` (part of `make test`) runs cross-test for every target
# of CROSS_TARGETS whose compiler and qemu are installed, and says which it
# leaves out (.ci/run installs them).
CROSS_TARGETS ?= aarch64-linux-gnu s390x-linux-gnu
ICU_MAJOR := $(shell sed -n 's/^\#define U_ICU_VERSION_MAJOR_NUM \([0-9]*\).*/\1/p' \
               /usr/include/unicode/uvernum.h 2>/dev/null)
CROSS_ICU_LIBS = $(if $(ICU_MAJOR),$(wildcard /usr/lib/$(CROSS)/libicuuc.so.$(ICU_MAJOR) \
                   /usr/lib/$(CROSS)/libicudata.so.$(ICU_MAJOR)))
CROSS_SKIP = $(if $(word 2,$(CROSS_ICU_LIBS)),,test_oracle_icu test_api_parity_icu)
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
CROSS_REPLAY = $(if $(findstring s390x,$(CROSS)),,$(if $(word 2,$(ICU_LIBS)),$(FUZZ_REPLAY_BIN)))
cross-run: lib $(CROSS_TEST_BIN)
	@for t in $(CROSS_SKIP); do echo "cross-test: $$t left out: no ICU $(ICU_MAJOR) for" \
	    "$(CROSS) (dpkg --add-architecture, apt-get install libicu$(ICU_MAJOR):<arch>)"; done
	CROSS=$(CROSS) $(PROVE) -j2 --exec tests/cross/run.sh $(CROSS_TEST_BIN)
	$(if $(CROSS_REPLAY),$(MAKE) $(CROSS_REPLAY))
	$(if $(CROSS_REPLAY),CROSS=$(CROSS) BUILD=$(BUILD) FUZZ_EXEC=tests/cross/run.sh \
	    $(PROVE) tests/test_fuzz_replay.sh,@echo "cross-test: corpus replay left out" \
	    "(big-endian target, or no ICU for it)")

# ---------------------------------------------------------------- fuzz
# libFuzzer targets, one per family of input encodings (fuzz/fuzz_*.c): each
# runs its input through every kernel tier and requires scalar's exact
# results, the length functions, round trips and ICU's answers; fuzz_decoder,
# the streaming decoder under random chunkings and capacities; fuzz_whatwg,
# its WHATWG mode against the one-shot utfx_whatwg_decode, in both forms.
# `make fuzz` builds them with clang (libFuzzer + ASan + UBSan) into
# $(BUILD)/fuzz/ and runs each for FUZZ_SECONDS; new inputs go to
# $(BUILD)/fuzz/corpus-<target>/ (fuzz/corpus/<target>/ is only read), crashes
# to $(BUILD)/fuzz/. The same targets linked with fuzz/standalone_main.c
# (any compiler, no libFuzzer) replay the checked-in corpus in every test run
# (tests/test_fuzz_replay.sh), in the plain and in the sanitizer build.
FUZZ_CC ?= clang
FUZZ_SECONDS ?= 60
FUZZ_TARGETS := $(patsubst fuzz/%.c,%,$(wildcard fuzz/fuzz_*.c))
FUZZ_SAN := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
FUZZ_LIB := $(BUILD)/fuzz/lib/libutfx.a
FUZZ_BIN := $(FUZZ_TARGETS:%=$(BUILD)/fuzz/%)
FUZZ_REPLAY_BIN := $(FUZZ_TARGETS:%=$(BUILD)/fuzz-replay/%)

fuzz: $(FUZZ_BIN) ## build the libFuzzer targets with clang and run each FUZZ_SECONDS (60)
	fuzz/run.sh $(BUILD) $(FUZZ_SECONDS) $(FUZZ_TARGETS)

# Part of `make test` (after both test passes): every target fuzzed for
# FUZZ_SMOKE_SECONDS under ASan+UBSan, one after the other on one core, so
# a finding of the kind the corpus replay cannot know about yet turns the run
# red. Bounded: 5 targets x 40 s, and fuzz/run.sh prints a few lines each.
FUZZ_SMOKE_SECONDS ?= 40
fuzz-smoke: $(FUZZ_BIN) ## time-boxed fuzz run of every target (FUZZ_SMOKE_SECONDS each), fails on a finding
	fuzz/run.sh $(BUILD) $(FUZZ_SMOKE_SECONDS) $(FUZZ_TARGETS)

# A long campaign (issue 10 asked for 10^8 executions): the same targets,
# built in $(BUILD)/campaign/ at -O2 with UBSan but without ASan
# (FUZZ_CAMPAIGN_SAN; ASan makes a run 2.5-3x slower, and `make fuzz`,
# fuzz-smoke and the corpus replay keep it): out-of-bounds accesses are caught
# by the guard pages, against which half the inputs put their buffers with no
# gap (fuzz_common.h), and by the destination canaries. Also without
# comparison tracing (60 % of a run: UTF-8 has no magic values to guess, edge
# coverage finds the byte patterns), each conversion run only with the
# capacity the input's control bytes pick (FZ_CAMPAIGN in fuzz_common.h; the
# exact and exact + 3 runs stay), inputs up to FUZZ_CAMPAIGN_MAX_LEN bytes
# (1-4 SIMD blocks plus the tails and look-behinds), libFuzzer's plain
# schedule (-entropic=0 -reduce_inputs=0: a quarter more executions), a 60 s
# timeout (the machine is shared), two targets at a time (one per core).
# FUZZ_CAMPAIGN_HALF1/2: NAME=RUNS per target, 10^8 in all by default, split
# so that both halves take about as long at the rates measured on a Zen 4.
# Per-target lines go to $(BUILD)/campaign/summary.txt; new inputs to
# $(BUILD)/campaign/fuzz/corpus-<target>/ (merge them into fuzz/corpus with
# -merge=1 to keep them).
FUZZ_CAMPAIGN_HALF1 ?= fuzz_decoder=18000000 fuzz_utf8=32000000
FUZZ_CAMPAIGN_HALF2 ?= fuzz_utf16=21000000 fuzz_utf32_latin1=29000000
FUZZ_CAMPAIGN_MAX_LEN ?= 256
FUZZ_CAMPAIGN_SAN ?= -fsanitize=undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
FUZZ_CAMPAIGN_DIR = $(BUILD)/campaign
# On an x86-64 CPU without AVX-512 the avx512 tier can be fuzzed emulated
# (FUZZ_CAMPAIGN_EMU=1: AVX512_EMU, as in test-avx512-emu; about 5x slower).
FUZZ_CAMPAIGN_EMU ?=
fuzz-campaign: ## long libFuzzer campaign (10^8 executions by default), 2 targets at a time
	$(MAKE) BUILD=$(FUZZ_CAMPAIGN_DIR) FUZZ_OPT=-O2 FUZZ_COV=-fno-sanitize-coverage=trace-cmp \
	    AVX512_EMU=$(FUZZ_CAMPAIGN_EMU) FUZZ_TARGET_FLAGS=-DFZ_CAMPAIGN FUZZ_SAN="$(FUZZ_CAMPAIGN_SAN)" \
	    $(FUZZ_TARGETS:%=$(FUZZ_CAMPAIGN_DIR)/fuzz/%)
	@echo "fuzz-campaign: started $$(date -u +%FT%TZ), runs $(FUZZ_CAMPAIGN_HALF1) $(FUZZ_CAMPAIGN_HALF2)," \
	    "-max_len=$(FUZZ_CAMPAIGN_MAX_LEN), $(FUZZ_CAMPAIGN_SAN), avx512 emulated: $(or $(FUZZ_CAMPAIGN_EMU),no)," \
	    "on $$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)" >$(FUZZ_CAMPAIGN_DIR)/summary.txt
	export ASAN_OPTIONS=malloc_context_size=0 \
	    FUZZ_FLAGS="-max_len=$(FUZZ_CAMPAIGN_MAX_LEN) -entropic=0 -reduce_inputs=0 -timeout=60"; \
	  { fuzz/run.sh $(FUZZ_CAMPAIGN_DIR) 0 $(FUZZ_CAMPAIGN_HALF1) >$(FUZZ_CAMPAIGN_DIR)/half1.txt; \
	    echo $$? >$(FUZZ_CAMPAIGN_DIR)/half1.rc; } & \
	  fuzz/run.sh $(FUZZ_CAMPAIGN_DIR) 0 $(FUZZ_CAMPAIGN_HALF2) >$(FUZZ_CAMPAIGN_DIR)/half2.txt; \
	  rc2=$$?; wait; cat $(FUZZ_CAMPAIGN_DIR)/half1.txt $(FUZZ_CAMPAIGN_DIR)/half2.txt >>$(FUZZ_CAMPAIGN_DIR)/summary.txt; \
	  echo "fuzz-campaign: finished $$(date -u +%FT%TZ)" >>$(FUZZ_CAMPAIGN_DIR)/summary.txt; \
	  cat $(FUZZ_CAMPAIGN_DIR)/summary.txt; [ $$rc2 -eq 0 ] && [ "$$(cat $(FUZZ_CAMPAIGN_DIR)/half1.rc)" -eq 0 ]

# The library once more, instrumented for libFuzzer (a separate build tree).
FUZZ_OPT ?= -O1
FUZZ_COV ?=
FUZZ_TARGET_FLAGS ?=
$(FUZZ_LIB): $(LIB_SRC) $(wildcard include/*.h src/*.h src/*/*.h) Makefile
	$(MAKE) $(FUZZ_LIB) BUILD=$(BUILD)/fuzz/lib CC=$(FUZZ_CC) CFLAGS="$(FUZZ_OPT) -g" \
	    EXTRA_FLAGS="-fsanitize=fuzzer-no-link $(FUZZ_COV) $(FUZZ_SAN)"

$(BUILD)/fuzz/%: fuzz/%.c fuzz/fuzz_common.h $(FUZZ_LIB)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) -std=c11 -Wall -Wextra -Iinclude $(FUZZ_OPT) $(FUZZ_TARGET_FLAGS) -g -fsanitize=fuzzer $(FUZZ_COV) $(FUZZ_SAN) \
	    -o $@ $< $(FUZZ_LIB) $(ICU_LIBS)

$(BUILD)/obj/fuzz/%.o: fuzz/%.c
	@mkdir -p $(dir $@)
	$(CC) $(TEST_CFLAGS) $(DEPFLAGS) -c $< -o $@

$(BUILD)/fuzz-replay/%: $(BUILD)/obj/fuzz/%.o $(BUILD)/obj/fuzz/standalone_main.o $(STATIC_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(EXTRA_FLAGS) -o $@ $^ $(ICU_LIBS)

test-build run-emu-tests: $(FUZZ_REPLAY_BIN)

# ---------------------------------------------------------------- bench
# utfx-bench, the benchmark harness (bench/README.md): always -O2, linked with
# the static library, ICU, glibc iconv and, when SIMDUTF_DIR names a simdutf
# tree with a release build (SIMDUTF_DIR/include and a libsimdutf.a under
# SIMDUTF_DIR/build), simdutf. simdutf is never a dependency: without
# SIMDUTF_DIR its column is simply absent. `make bench` runs the default
# selection (well under 3 minutes), prints the tables and writes
# $(BUILD)/bench/results.csv, samples.csv, kernels.tsv and, with gnuplot,
# kernels.png. BENCH_ARGS replaces the default selection, e.g.
#   make bench BENCH_ARGS="--suite kernels --func 'convert_utf8_*' --impl utfx,icu"
# BENCH_LIB / BENCH_INCLUDE / BENCH_INTERNAL let bench/compare.sh link the
# same harness against another revision's library (this tree's include/ comes
# last: utfx_operations.h for revisions from before it).
BENCH_ENGINE_CORE := bench/registry.c bench/timing.c bench/stats.c bench/report.c bench/limit.c \
                     bench/compare.c bench/options.c
BENCH_SRC := $(BENCH_ENGINE_CORE) bench/suite_kernels.c bench/suite_decode.c bench/suite_encode.c \
             bench/suite_node.c bench/suite_base64.c bench/baselines_icu_iconv.c \
             bench/kernel_probe.c bench/main.c
BENCH_OBJ := $(BENCH_SRC:%.c=$(BUILD)/obj/%.o)
BENCH_LIB ?= $(STATIC_LIB)
BENCH_INCLUDE ?= include
BENCH_INTERNAL ?= src
BENCH_BIN := $(BUILD)/utfx-bench
BENCH_CFLAGS = -std=c11 $(WARN) $(WERROR) -I$(BENCH_INCLUDE) -O2 -g $(EXTRA_FLAGS) \
               -DUTFX_BENCH_SRC_DIR='"$(CURDIR)/bench"' $(BENCH_SIMDUTF_DEF)
BENCH_LINK := $(CC)
ifneq ($(SIMDUTF_DIR),)
SIMDUTF_LIB := $(firstword $(wildcard $(SIMDUTF_DIR)/build/src/libsimdutf.a \
                 $(SIMDUTF_DIR)/build/libsimdutf.a $(SIMDUTF_DIR)/lib/libsimdutf.a \
                 $(SIMDUTF_DIR)/libsimdutf.a))
ifeq ($(SIMDUTF_LIB),)
$(error SIMDUTF_DIR=$(SIMDUTF_DIR) has no libsimdutf.a under build/, build/src/ or lib/)
endif
BENCH_SIMDUTF_DEF := -DUTFX_BENCH_SIMDUTF
BENCH_OBJ += $(BUILD)/obj/bench/baseline_simdutf.o
BENCH_LINK := $(CXX)
endif
# The bench objects (which `utfx bench` links too) are built with or without
# simdutf: a stamp that changes with that choice rebuilds them, so a plain
# `make` after `make bench SIMDUTF_DIR=...` does not link stale objects.
BENCH_CONFIG := $(BUILD)/obj/bench/config
$(shell mkdir -p $(BUILD)/obj/bench && { echo '$(BENCH_SIMDUTF_DEF)' | cmp -s - $(BENCH_CONFIG) \
    || echo '$(BENCH_SIMDUTF_DEF)' > $(BENCH_CONFIG); })
# Default selection: Node's hot paths in the kernel suite (Buffer.toString,
# Buffer.write and byteLength, one-byte strings), all of the decode, encode
# and node grids.
BENCH_FUNCS := validate_utf8,convert_utf8_to_utf16le,convert_utf16le_to_utf8
BENCH_FUNCS := $(BENCH_FUNCS),utf16_length_from_utf8,convert_latin1_to_utf8
BENCH_FUNCS := $(BENCH_FUNCS),ascii,utf8,utf8-*,utf16le,base64,latin1,bmp,astral,lone
BENCH_ARGS ?= --func '$(BENCH_FUNCS)'

.PHONY: bench-build bench-chart
$(BUILD)/obj/bench/%.o: bench/%.c Makefile $(BENCH_CONFIG)
	@mkdir -p $(dir $@)
	$(CC) $(BENCH_CFLAGS) $(DEPFLAGS) -I$(BENCH_INTERNAL) -Iinclude -c $< -o $@

$(BUILD)/obj/bench/baseline_simdutf.o: bench/baseline_simdutf.cpp Makefile
	@mkdir -p $(dir $@)
	$(CXX) -std=c++17 -O2 -g -Wall -Wextra $(DEPFLAGS) $(EXTRA_FLAGS) -I$(SIMDUTF_DIR)/include \
	    -c $< -o $@

$(BENCH_BIN): $(BENCH_OBJ) $(BENCH_LIB)
	$(BENCH_LINK) -O2 $(EXTRA_FLAGS) -o $@ $^ $(SIMDUTF_LIB) $(ICU_LIBS) -lm

# The CLI's `utfx bench` links the same engine: these objects plus the static
# library (no main, no internal kernel probe, no ICU: baselines_none.c).
BENCH_ENGINE_OBJ := $(patsubst %.c,$(BUILD)/obj/%.o,$(wildcard $(UTFX_BENCH_ENGINE_SRC)))

$(CLI_BIN): $(BENCH_ENGINE_OBJ)

bench-build: $(BENCH_BIN) $(BENCH_ENGINE_OBJ) ## build $(BUILD)/utfx-bench only

# tests/test_bench_smoke.sh runs the harness once per suite on tiny inputs.
test-build: $(BENCH_BIN) $(BENCH_ENGINE_OBJ)

bench: $(BENCH_BIN) ## run the benchmarks: default selection, or BENCH_ARGS="..."
	@mkdir -p $(BUILD)/bench
	$(BENCH_BIN) $(BENCH_ARGS) --csv $(BUILD)/bench/results.csv \
	    --raw $(BUILD)/bench/samples.csv --plot-data $(BUILD)/bench/kernels.tsv
	@echo "results: $(BUILD)/bench/results.csv (every batch: $(BUILD)/bench/samples.csv)"
	@$(MAKE) --no-print-directory bench-chart || echo "chart: not drawn (see above)"
	@if command -v $(NODE) >/dev/null 2>&1 && [ -f "$(NODE_INCLUDE)/node_api.h" ]; then \
	  $(MAKE) --no-print-directory bench-node; \
	else \
	  echo "bench-node: skipped (needs node and its headers, node_api.h; NODE_INCLUDE=$(NODE_INCLUDE))"; \
	fi

# The charts: utfx-chart (bench/chart.c, no dependency) writes kernels.svg,
# decode.svg and encode.svg from results.csv, for the suites that ran; with
# gnuplot installed, bench/plot.gp also draws kernels.png.
CHART_BIN := $(BUILD)/utfx-chart
$(CHART_BIN): bench/chart.c Makefile sources.mk
	$(CC) -std=c11 $(WARN) $(WERROR) -O2 -g $(EXTRA_FLAGS) -o $@ bench/chart.c -lm
bench: $(CHART_BIN)
test-build: $(CHART_BIN)

bench-chart: $(CHART_BIN) ## draw the charts of the last run: $(BUILD)/bench/*.svg
	@$(CHART_BIN) $(BUILD)/bench/results.csv $(BUILD)/bench
	@if command -v gnuplot >/dev/null 2>&1 && [ -s $(BUILD)/bench/kernels.tsv ]; then \
	  gnuplot -e "datafile='$(BUILD)/bench/kernels.tsv'; outfile='$(BUILD)/bench/kernels.png'" \
	      bench/plot.gp 2>$(BUILD)/bench/gnuplot.log \
	    && echo "chart: $(BUILD)/bench/kernels.png" \
	    || { cat $(BUILD)/bench/gnuplot.log; exit 1; }; \
	fi

# ---------------------------------------------------------------- node
# The Node.js addon (bindings/node/): bindings/node/src/addon.c, N-API, linked
# with the static library into $(BUILD)/node/utfx.node, which
# bindings/node/index.js loads. Headers come from the installed Node
# (NODE_INCLUDE, default: the include/node next to node's bin/); nothing is
# downloaded. `npm install` in bindings/node runs `make node` here.
NODE ?= node
ifndef NODE_INCLUDE
NODE_INCLUDE := $(shell $(NODE) -p "require('path').join(process.execPath, '../../include/node')" \
                  2>/dev/null)
endif
NODE_ADDON := $(BUILD)/node/utfx.node
NODE_ADDON_OBJ := $(BUILD)/obj/bindings/node/src/addon.o

$(NODE_ADDON_OBJ): bindings/node/src/addon.c Makefile
	@test -f $(NODE_INCLUDE)/node_api.h || { echo "node: no node_api.h in '$(NODE_INCLUDE)'" \
	    "(install Node.js with its headers, or set NODE_INCLUDE)"; exit 1; }
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(DEPFLAGS) -isystem $(NODE_INCLUDE) -DNODE_GYP_MODULE_NAME=utfx -fPIC \
	    -fvisibility=hidden -c $< -o $@

$(NODE_ADDON): $(NODE_ADDON_OBJ) $(STATIC_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(EXTRA_FLAGS) -shared -o $@ $^

.PHONY: node bench-node
node: $(NODE_ADDON) ## build the Node.js addon $(BUILD)/node/utfx.node (bindings/node)

# tests/test_node_binding.sh runs bindings/node/test/test.js against it (and
# fails, saying why, when node's headers are missing and it could not be built).
ifneq ($(wildcard $(NODE_INCLUDE)/node_api.h),)
test-build: $(NODE_ADDON)
endif

# Node's string_decoder and buffer-write-string-utf8 grids, builtin vs utfx
# in one process, compare.R statistics, and a JSON-RPC round trip with a
# child process (bindings/node/bench/bench.js; about 2 minutes). E.g.
#   make bench-node BENCH_NODE_ARGS="--suite decoder --filter utf8 --runs 20"
BENCH_NODE_ARGS ?=
bench-node: $(NODE_ADDON) ## run the Node.js binding's benchmarks (BENCH_NODE_ARGS="...")
	UTFX_NODE_ADDON=$(CURDIR)/$(NODE_ADDON) $(NODE) bindings/node/bench/bench.js $(BENCH_NODE_ARGS)

# ---------------------------------------------------------------- amalgamation
# `make amalgamate` writes dist/utfx.c and dist/utfx.h: the whole library as
# one C file for projects that vendor it (cc -O2 -c utfx.c, no special flags;
# every tier, runtime dispatch). tools/amalgamate.pl turns the per-file flags
# of sources.mk into target pragmas. dist/ is generated, never committed. The
# tests build the same file in $(BUILD)/amalg/, compile it (with warnings as
# errors) into $(BUILD)/amalg/libutfx.a and run every C test program linked
# against that too ($(BUILD)/amalg/tests/), on every tier the CPU supports;
# tests/test_amalgamation.sh checks the rest (both compilers, no flags,
# symbols, vzeroupper).
AMALG_SRC := $(wildcard $(UTFX_SRC) $(UTFX_SRC_AVX2) $(UTFX_SRC_AVX512) $(UTFX_SRC_NEON))
AMALG := $(BUILD)/amalg
AMALG_LIB := $(AMALG)/libutfx.a
# The sanitizer pass leaves them out (AMALG_TESTS=): they would double its
# time; its clang build of the file is checked by test_amalgamation.sh.
AMALG_TESTS ?= yes
AMALG_TEST_BIN := $(if $(AMALG_TESTS),$(TEST_SRC:tests/%.c=$(AMALG)/tests/%))

.PHONY: amalgamate
amalgamate: dist/utfx.c dist/utfx.h ## write the single-file library dist/utfx.c + dist/utfx.h

dist/utfx.c $(AMALG)/utfx.c: tools/amalgamate.pl sources.mk $(AMALG_SRC) $(wildcard src/*.h src/*/*.h) \
                             include/utfx_operations.h
	@mkdir -p $(dir $@)
	perl tools/amalgamate.pl -o $@ --flags 'src/x86/avx2_*=$(UTFX_AVX2_FLAGS)' \
	    --flags 'src/x86/avx512_*=$(UTFX_AVX512_FLAGS)' \
	    --flags 'src/dispatch.c=$(UTFX_DISPATCH_FLAGS)' \
	    --instance 'src/simd/generic*.h' --instance 'src/*/vec_*.h' \
	    --if 'src/x86/*=defined(__x86_64__) && !defined(UTFX_NO_SIMD)' \
	    --if 'src/arm/*=defined(__aarch64__) && defined(__ARM_NEON) && !defined(UTFX_NO_SIMD) && (!defined(__BYTE_ORDER__) || __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__)' \
	    $(AMALG_SRC)

dist/utfx.h $(AMALG)/utfx.h: include/utfx.h
	@mkdir -p $(dir $@)
	cp include/utfx.h $@

$(AMALG_LIB): $(AMALG)/utfx.c $(AMALG)/utfx.h
	$(CC) -std=c11 $(WARN) $(WERROR) $(CFLAGS) $(EXTRA_FLAGS) -c $(AMALG)/utfx.c -o $(AMALG)/utfx.o
	@rm -f $@
	$(AR) rcs $@ $(AMALG)/utfx.o

$(AMALG)/tests/%: $(BUILD)/obj/tests/%.o $(TEST_SUPPORT_OBJ) $(AMALG_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(EXTRA_FLAGS) -o $@ $^ $(ICU_LIBS) -lpthread

test-build: $(AMALG_TEST_BIN) $(AMALG)/utfx.c $(AMALG)/utfx.h

# ---------------------------------------------------------------- install
install: lib cli ## install headers, libraries, utfx.pc, the utfx CLI and its man page
	@mkdir -p $(BUILD)
	sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@LIBDIR@|$(LIBDIR)|' -e 's|@INCLUDEDIR@|$(INCLUDEDIR)|' \
	    -e 's|@VERSION@|$(VERSION)|' utfx.pc.in > $(BUILD)/utfx.pc
	install -d $(DESTDIR)$(LIBDIR) $(DESTDIR)$(INCLUDEDIR) $(DESTDIR)$(PKGCONFIGDIR)
	install -m 644 include/utfx.h $(DESTDIR)$(INCLUDEDIR)/utfx.h
	install -m 644 include/utfx_operations.h $(DESTDIR)$(INCLUDEDIR)/utfx_operations.h
	install -m 644 $(STATIC_LIB) $(DESTDIR)$(LIBDIR)/libutfx.a
	install -m 755 $(SHARED_LIB) $(DESTDIR)$(LIBDIR)/libutfx.so.$(VERSION)
	ln -sf libutfx.so.$(VERSION) $(DESTDIR)$(LIBDIR)/$(SONAME)
	ln -sf libutfx.so.$(VERSION) $(DESTDIR)$(LIBDIR)/libutfx.so
	install -m 644 $(BUILD)/utfx.pc $(DESTDIR)$(PKGCONFIGDIR)/utfx.pc
	# ---- cli: the command and its man page
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)/man1
	install -m 755 $(CLI_BIN) $(DESTDIR)$(BINDIR)/utfx
	install -m 644 cli/utfx.1 $(DESTDIR)$(MANDIR)/man1/utfx.1

uninstall: ## remove what install put in place
	rm -f $(DESTDIR)$(INCLUDEDIR)/utfx.h $(DESTDIR)$(INCLUDEDIR)/utfx_operations.h \
	      $(DESTDIR)$(LIBDIR)/libutfx.a \
	      $(DESTDIR)$(LIBDIR)/libutfx.so.$(VERSION) $(DESTDIR)$(LIBDIR)/$(SONAME) \
	      $(DESTDIR)$(LIBDIR)/libutfx.so $(DESTDIR)$(PKGCONFIGDIR)/utfx.pc
	rm -f $(DESTDIR)$(BINDIR)/utfx $(DESTDIR)$(MANDIR)/man1/utfx.1 # ---- cli

clean: ## remove the build directory and dist/
	rm -rf $(BUILD) dist

help: ## list the targets
	@grep -E '^[a-z0-9-]+:.*## ' $(MAKEFILE_LIST) | sed 's/:.*## /\t/'
