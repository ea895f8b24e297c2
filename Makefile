# utfx: GNU Make build. `make` builds the libraries (and the CLI), `make test`
# runs every test (plain build, then ASan+UBSan), `make bench` the benchmarks.
# Run `make help` for the list of targets.

VERSION_MAJOR := $(shell sed -n 's/^\#define UTFX_VERSION_MAJOR \([0-9]*\)/\1/p' include/utfx.h)
VERSION_MINOR := $(shell sed -n 's/^\#define UTFX_VERSION_MINOR \([0-9]*\)/\1/p' include/utfx.h)
VERSION_PATCH := $(shell sed -n 's/^\#define UTFX_VERSION_PATCH \([0-9]*\)/\1/p' include/utfx.h)
VERSION := $(VERSION_MAJOR).$(VERSION_MINOR).$(VERSION_PATCH)

CC ?= cc
CXX ?= c++
CFLAGS ?= -O2 -g
BUILD ?= build
SAN_FLAGS := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
WARN := -Wall -Wextra -Wpedantic -Wshadow -Wconversion -Wcast-qual -Wstrict-prototypes \
        -Wmissing-prototypes -Wundef -Wpointer-arith -Wvla -Wformat=2 -Wwrite-strings
WERROR ?=
ALL_CFLAGS = -std=c11 $(WARN) $(WERROR) -Iinclude $(CFLAGS) $(EXTRA_FLAGS)

PREFIX ?= /usr/local
LIBDIR ?= $(PREFIX)/lib
INCLUDEDIR ?= $(PREFIX)/include
BINDIR ?= $(PREFIX)/bin
MANDIR ?= $(PREFIX)/share/man
PKGCONFIGDIR ?= $(LIBDIR)/pkgconfig

# Library sources: baseline C everywhere, SIMD tiers on x86-64. Each tier's
# files are compiled with exactly the features dispatch checks (src/cpu.h).
LIB_SRC := $(wildcard src/*.c src/scalar/*.c)
MACHINE := $(shell $(CC) -dumpmachine)
AVX2_FLAGS := -mavx2 -mbmi -mbmi2 -mlzcnt -mpopcnt
AVX512_FLAGS := $(AVX2_FLAGS) -mavx512f -mavx512bw -mavx512vl -mavx512vbmi -mavx512vbmi2
ifneq (,$(findstring x86_64,$(MACHINE)))
LIB_SRC += $(wildcard src/x86/avx2_*.c src/x86/avx512_*.c)
endif
LIB_OBJ := $(LIB_SRC:%.c=$(BUILD)/obj/%.o)

STATIC_LIB := $(BUILD)/libutfx.a
SONAME := libutfx.so.$(VERSION_MAJOR)
SHARED_LIB := $(BUILD)/libutfx.so.$(VERSION)

.PHONY: all lib test check bench fuzz install uninstall clean help test-build run-tests
.SECONDARY:
all: lib ## build the static and shared libraries (and the CLI when present)

lib: $(STATIC_LIB) $(SHARED_LIB) ## build libutfx.a and libutfx.so

$(BUILD)/obj/%.o: %.c $(wildcard include/*.h src/*.h src/*/*.h) Makefile
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -fPIC -fvisibility=hidden $(TIER_FLAGS) -c $< -o $@

$(BUILD)/obj/src/x86/avx2_%.o: TIER_FLAGS = $(AVX2_FLAGS)
$(BUILD)/obj/src/x86/avx512_%.o: TIER_FLAGS = $(AVX512_FLAGS)
# Tier tables start from the scalar entries and override some (designated
# initializers given twice on purpose).
$(BUILD)/obj/src/dispatch.o: TIER_FLAGS = -Wno-override-init

$(STATIC_LIB): $(LIB_OBJ)
	@rm -f $@
	$(AR) rcs $@ $^

$(SHARED_LIB): $(LIB_OBJ)
	$(CC) $(CFLAGS) $(EXTRA_FLAGS) -shared -Wl,-soname,$(SONAME) -o $@ $^
	ln -sf libutfx.so.$(VERSION) $(BUILD)/$(SONAME)
	ln -sf libutfx.so.$(VERSION) $(BUILD)/libutfx.so

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

$(BUILD)/obj/tests/%.o: tests/%.c $(wildcard include/*.h src/*.h src/*/*.h tests/*.h tests/*/*.h)
	@mkdir -p $(dir $@)
	$(CC) $(TEST_CFLAGS) -c $< -o $@

$(BUILD)/tests/%: $(BUILD)/obj/tests/%.o $(TEST_SUPPORT_OBJ) $(STATIC_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(EXTRA_FLAGS) -o $@ $^ $(ICU_LIBS) -lpthread

test-build: lib $(TEST_BIN)

PROVE ?= prove
run-tests: test-build
	BUILD=$(BUILD) CC="$(CC)" CXX="$(CXX)" $(PROVE) -j2 --exec '' $(TEST_BIN) $(TEST_SH)

test: ## build and run every test: normal build, then ASan+UBSan build
	$(MAKE) run-tests WERROR=-Werror
	$(MAKE) run-tests BUILD=$(BUILD)/san WERROR=-Werror CFLAGS="-O1 -g" EXTRA_FLAGS="$(SAN_FLAGS)" UTFX_SANITIZED=1

check: ## quick: the normal build's tests only
	$(MAKE) run-tests WERROR=-Werror

# The Node.js oracle test finds tests/oracle/node_oracle.js and tests/data/
# through the source directory (it also honours $UTFX_NODE_ORACLE and $NODE).
$(BUILD)/obj/tests/test_oracle_node.o: TEST_CFLAGS += -DUTFX_SOURCE_DIR='"$(CURDIR)"'

# ---------------------------------------------------------------- fuzz
# libFuzzer targets, one per family of input encodings (fuzz/fuzz_*.c): each
# runs its input through every kernel tier and requires scalar's exact
# results, the length functions, round trips and ICU's answers.
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
	@set -e; for t in $(FUZZ_TARGETS); do \
	  mkdir -p $(BUILD)/fuzz/corpus-$$t; \
	  echo "fuzz: $$t for $(FUZZ_SECONDS) s"; \
	  $(BUILD)/fuzz/$$t -max_total_time=$(FUZZ_SECONDS) -print_final_stats=1 \
	    -artifact_prefix=$(BUILD)/fuzz/$$t- $(BUILD)/fuzz/corpus-$$t fuzz/corpus/$$t; \
	done

# The library once more, instrumented for libFuzzer (a separate build tree).
$(FUZZ_LIB): $(LIB_SRC) $(wildcard include/*.h src/*.h src/*/*.h) Makefile
	$(MAKE) $(FUZZ_LIB) BUILD=$(BUILD)/fuzz/lib CC=$(FUZZ_CC) CFLAGS="-O1 -g" \
	    EXTRA_FLAGS="-fsanitize=fuzzer-no-link $(FUZZ_SAN)"

$(BUILD)/fuzz/%: fuzz/%.c fuzz/fuzz_common.h $(FUZZ_LIB)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) -std=c11 -Wall -Wextra -Iinclude -O1 -g -fsanitize=fuzzer $(FUZZ_SAN) \
	    -o $@ $< $(FUZZ_LIB) $(ICU_LIBS)

$(BUILD)/obj/fuzz/%.o: fuzz/%.c $(wildcard include/*.h fuzz/*.h)
	@mkdir -p $(dir $@)
	$(CC) $(TEST_CFLAGS) -c $< -o $@

$(BUILD)/fuzz-replay/%: $(BUILD)/obj/fuzz/%.o $(BUILD)/obj/fuzz/standalone_main.o $(STATIC_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(EXTRA_FLAGS) -o $@ $^ $(ICU_LIBS)

test-build: $(FUZZ_REPLAY_BIN)

# ---------------------------------------------------------------- bench
bench: lib ## run the benchmark harness (default selection)
	@echo "bench: not built yet"

# ---------------------------------------------------------------- install
install: lib ## install header, libraries and utfx.pc (PREFIX, DESTDIR)
	@mkdir -p $(BUILD)
	sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@LIBDIR@|$(LIBDIR)|' -e 's|@INCLUDEDIR@|$(INCLUDEDIR)|' \
	    -e 's|@VERSION@|$(VERSION)|' utfx.pc.in > $(BUILD)/utfx.pc
	install -d $(DESTDIR)$(LIBDIR) $(DESTDIR)$(INCLUDEDIR) $(DESTDIR)$(PKGCONFIGDIR)
	install -m 644 include/utfx.h $(DESTDIR)$(INCLUDEDIR)/utfx.h
	install -m 644 $(STATIC_LIB) $(DESTDIR)$(LIBDIR)/libutfx.a
	install -m 755 $(SHARED_LIB) $(DESTDIR)$(LIBDIR)/libutfx.so.$(VERSION)
	ln -sf libutfx.so.$(VERSION) $(DESTDIR)$(LIBDIR)/$(SONAME)
	ln -sf libutfx.so.$(VERSION) $(DESTDIR)$(LIBDIR)/libutfx.so
	install -m 644 $(BUILD)/utfx.pc $(DESTDIR)$(PKGCONFIGDIR)/utfx.pc

uninstall: ## remove what install put in place
	rm -f $(DESTDIR)$(INCLUDEDIR)/utfx.h $(DESTDIR)$(LIBDIR)/libutfx.a \
	      $(DESTDIR)$(LIBDIR)/libutfx.so.$(VERSION) $(DESTDIR)$(LIBDIR)/$(SONAME) \
	      $(DESTDIR)$(LIBDIR)/libutfx.so $(DESTDIR)$(PKGCONFIGDIR)/utfx.pc

clean: ## remove the build directory
	rm -rf $(BUILD)

help: ## list the targets
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | sed 's/:.*## /\t/'
