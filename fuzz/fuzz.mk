# The fuzz targets. Included by the root Makefile: make runs from the
# repository root, where BUILD, CC, the flags and the library are defined.
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
# FUZZ_SMOKE_SECONDS under ASan+UBSan, two at a time (one per core), so a
# finding of the kind the corpus replay cannot know about yet turns the run
# red. Two at a time each runs slower than alone, so each gets 50 s, about
# the executions 40 s alone gave (docs/perf-decisions.md, 'make test's
# minutes'). Bounded: 6 targets x 50 s, and fuzz/run.sh prints a few lines
# each.
FUZZ_SMOKE_SECONDS ?= 50
FUZZ_SMOKE_JOBS ?= 2
fuzz-smoke: $(FUZZ_BIN) ## time-boxed fuzz run of every target (FUZZ_SMOKE_SECONDS each, FUZZ_SMOKE_JOBS at a time), fails on a finding
	FUZZ_JOBS=$(FUZZ_SMOKE_JOBS) fuzz/run.sh $(BUILD) $(FUZZ_SMOKE_SECONDS) $(FUZZ_TARGETS)

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
# FUZZ_CAMPAIGN_HALF1/2: NAME=RUNS per target, 1.2 x 10^8 in all by default, split
# so that both halves take about as long at the rates measured on a Zen 4;
# fuzz_whatwg's 1.1 x 10^7 went to half 1, which it evens out at the rates
# measured on a Xeon (model 167: half 2 ran 38 % longer; whatwg 3400/s);
# fuzz_base64's 10^7 (about 6800/s with ASan on that Xeon, under load) went
# to half 2.
# Per-target lines go to $(BUILD)/campaign/summary.txt; new inputs to
# $(BUILD)/campaign/fuzz/corpus-<target>/ (merge them into fuzz/corpus with
# -merge=1 to keep them).
FUZZ_CAMPAIGN_HALF1 ?= fuzz_decoder=18000000 fuzz_utf8=32000000 fuzz_whatwg=11000000
FUZZ_CAMPAIGN_HALF2 ?= fuzz_utf16=21000000 fuzz_utf32_latin1=29000000 fuzz_base64=10000000
FUZZ_CAMPAIGN_MAX_LEN ?= 256
FUZZ_CAMPAIGN_SAN ?= -fsanitize=undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
FUZZ_CAMPAIGN_DIR = $(BUILD)/campaign
# On an x86-64 CPU without AVX-512 the avx512 tier can be fuzzed emulated
# (FUZZ_CAMPAIGN_EMU=1: AVX512_EMU, as in test-avx512-emu; about 5x slower).
FUZZ_CAMPAIGN_EMU ?=
fuzz-campaign: ## long libFuzzer campaign (1.1 x 10^8 executions by default), 2 targets at a time
	$(MAKE) BUILD=$(FUZZ_CAMPAIGN_DIR) FUZZ_OPT=-O2 FUZZ_COV=-fno-sanitize-coverage=trace-cmp \
	    AVX512_EMU=$(FUZZ_CAMPAIGN_EMU) FUZZ_TARGET_FLAGS=-DFZ_CAMPAIGN FUZZ_SAN="$(FUZZ_CAMPAIGN_SAN)" \
	    $(FUZZ_TARGETS:%=$(FUZZ_CAMPAIGN_DIR)/fuzz/%)
	fuzz/campaign.sh $(FUZZ_CAMPAIGN_DIR) $(FUZZ_CAMPAIGN_MAX_LEN) "$(FUZZ_CAMPAIGN_HALF1)" \
	    "$(FUZZ_CAMPAIGN_HALF2)" "$(FUZZ_CAMPAIGN_SAN), avx512 emulated: $(or $(FUZZ_CAMPAIGN_EMU),no)"

# The library once more, instrumented for libFuzzer (a separate build tree).
FUZZ_OPT ?= -O1
FUZZ_COV ?=
FUZZ_TARGET_FLAGS ?=
$(FUZZ_LIB): $(LIB_SRC) $(wildcard include/*.h src/*.h src/*/*.h) Makefile fuzz/fuzz.mk
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
