# The single-file library. Included by the root Makefile: make runs from the
# repository root, where BUILD, CC, the flags and the library are defined.
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

# Where each architecture's files (its shared headers and its tiers' folders)
# are compiled in the single file.
AMALG_IF_X86 := defined(__x86_64__) && !defined(UTFX_NO_SIMD)
AMALG_IF_ARM := defined(__aarch64__) && defined(__ARM_NEON) && !defined(UTFX_NO_SIMD) && (!defined(__BYTE_ORDER__) || __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__)

.PHONY: amalgamate
amalgamate: dist/utfx.c dist/utfx.h ## write the single-file library dist/utfx.c + dist/utfx.h

dist/utfx.c $(AMALG)/utfx.c: tools/amalgamate.pl sources.mk $(AMALG_SRC) $(wildcard src/*.h src/*/*.h src/*/*/*.h) \
                             include/utfx_operations.h
	@mkdir -p $(dir $@)
	perl tools/amalgamate.pl -o $@ --flags 'src/x86/avx2/*=$(UTFX_AVX2_FLAGS)' \
	    --flags 'src/x86/avx512/*=$(UTFX_AVX512_FLAGS)' \
	    --flags 'src/dispatch.c=$(UTFX_DISPATCH_FLAGS)' \
	    --instance 'src/simd/generic*.h' --instance 'src/*/*/vec_*.h' \
	    --instance 'src/x86/x86_entries.h' \
	    --if 'src/x86/*=$(AMALG_IF_X86)' --if 'src/x86/*/*=$(AMALG_IF_X86)' \
	    --if 'src/arm/*=$(AMALG_IF_ARM)' --if 'src/arm/*/*=$(AMALG_IF_ARM)' \
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
