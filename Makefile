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

.PHONY: all lib cli test check bench fuzz install uninstall clean help test-build run-tests
.SECONDARY:
all: lib cli ## build the static and shared libraries and the utfx CLI

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

# ---------------------------------------------------------------- cli
# The utfx command (cli/*.c): sees only include/ (no -Isrc), links the static
# library, same warnings as the library. POSIX functions are allowed there.
CLI_SRC := $(wildcard cli/*.c)
CLI_OBJ := $(CLI_SRC:%.c=$(BUILD)/obj/%.o)
CLI_BIN := $(BUILD)/utfx

$(BUILD)/obj/cli/%.o: cli/%.c cli/cli.h include/utfx.h Makefile
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -c $< -o $@

$(CLI_BIN): $(CLI_OBJ) $(STATIC_LIB)
	$(CC) $(CFLAGS) $(EXTRA_FLAGS) $(LDFLAGS) -o $@ $(CLI_OBJ) $(STATIC_LIB)

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

$(BUILD)/obj/tests/%.o: tests/%.c $(wildcard include/*.h src/*.h src/*/*.h tests/*.h tests/*/*.h)
	@mkdir -p $(dir $@)
	$(CC) $(TEST_CFLAGS) -c $< -o $@

$(BUILD)/tests/%: $(BUILD)/obj/tests/%.o $(TEST_SUPPORT_OBJ) $(STATIC_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(EXTRA_FLAGS) -o $@ $^ $(ICU_LIBS) -lpthread

test-build: lib $(TEST_BIN) $(CLI_BIN)

PROVE ?= prove
run-tests: test-build
	BUILD=$(BUILD) CC="$(CC)" CXX="$(CXX)" $(PROVE) -j2 --exec '' $(TEST_BIN) $(TEST_SH)

test: ## build and run every test: normal build, then ASan+UBSan build
	$(MAKE) run-tests WERROR=-Werror
	$(MAKE) run-tests BUILD=$(BUILD)/san WERROR=-Werror CFLAGS="-O1 -g" EXTRA_FLAGS="$(SAN_FLAGS)" UTFX_SANITIZED=1

check: ## quick: the normal build's tests only
	$(MAKE) run-tests WERROR=-Werror

# ---------------------------------------------------------------- bench
bench: lib ## run the benchmark harness (default selection)
	@echo "bench: not built yet"

# ---------------------------------------------------------------- install
install: lib cli ## install header, libraries, utfx.pc, the utfx CLI and its man page
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
	# ---- cli: the command and its man page
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)/man1
	install -m 755 $(CLI_BIN) $(DESTDIR)$(BINDIR)/utfx
	install -m 644 cli/utfx.1 $(DESTDIR)$(MANDIR)/man1/utfx.1

uninstall: ## remove what install put in place
	rm -f $(DESTDIR)$(INCLUDEDIR)/utfx.h $(DESTDIR)$(LIBDIR)/libutfx.a \
	      $(DESTDIR)$(LIBDIR)/libutfx.so.$(VERSION) $(DESTDIR)$(LIBDIR)/$(SONAME) \
	      $(DESTDIR)$(LIBDIR)/libutfx.so $(DESTDIR)$(PKGCONFIGDIR)/utfx.pc
	rm -f $(DESTDIR)$(BINDIR)/utfx $(DESTDIR)$(MANDIR)/man1/utfx.1 # ---- cli

clean: ## remove the build directory
	rm -rf $(BUILD)

help: ## list the targets
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | sed 's/:.*## /\t/'
