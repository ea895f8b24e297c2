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
	$(CC) $(ALL_CFLAGS) $(DEPFLAGS) -fPIC -fvisibility=hidden $(CODE_FLAGS) $(TIER_FLAGS) -c $< -o $@

# Code alignment for every library file (sources.mk); the tiers' flags repeat it.
$(BUILD)/obj/src/%.o: CODE_FLAGS = $(UTFX_CODE_FLAGS)
$(BUILD)/obj/src/x86/avx2/%.o: TIER_FLAGS = $(AVX2_FLAGS)
$(BUILD)/obj/src/x86/avx512/%.o: TIER_FLAGS = $(AVX512_FLAGS)
# The emulated-AVX-512 test build tells dispatch (see AVX512_EMU above).
$(BUILD)/obj/src/dispatch.o: TIER_FLAGS = $(UTFX_DISPATCH_FLAGS) $(DISPATCH_FLAGS)

$(STATIC_LIB): $(LIB_OBJ)
	@rm -f $@
	$(AR) rcs $@ $^

$(SHARED_LIB): $(LIB_OBJ)
	$(CC) $(CFLAGS) $(EXTRA_FLAGS) -shared -Wl,-soname,$(SONAME) -o $@ $^
	ln -sf libutfx.so.$(VERSION) $(BUILD)/$(SONAME)
	ln -sf libutfx.so.$(VERSION) $(BUILD)/libutfx.so

# ---------------------------------------------------------------- the rest
# Each directory builds its own part, in a makefile of its own, included here
# (one make graph: a test needs the library, the CLI the bench engine) in
# this order, as later parts name earlier parts' files.
include cli/cli.mk
include tests/tests.mk
include tests/cross/cross.mk
include fuzz/fuzz.mk
include bench/bench.mk
include bindings/node/node.mk
include tools/amalgamate.mk

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
	@grep -hE '^[a-z0-9-]+:.*## ' $(MAKEFILE_LIST) | sed 's/:.*## /\t/'
