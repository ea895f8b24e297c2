/* Static-inline helpers of the AVX2 UTF-16 -> UTF-32 kernel
 * (avx2_utf16_to_utf32.c): UTF-16 loads in either byte order, surrogate
 * masks, and the scalar region of a block (the pair tests are the
 * vocabulary's, vec_avx2.h). */
#ifndef UTFX_X86_AVX2_UTF16_COMMON_H
#define UTFX_X86_AVX2_UTF16_COMMON_H

#ifndef __AVX2__
#error "avx2_utf16_common.h needs the avx2 tier flags (UTFX_AVX2_FLAGS, sources.mk)"
#endif

#include <immintrin.h>

#include "../../scalar/unicode.h"
#include "vec_avx2.h"

/* 16 units at p (all must be in the buffer), as host-order values; lanes of
 * v whose top bits equal `value` under `mask`; one bit per unit (bit j =
 * unit j) of two 16-lane compare results: the generic kernels' vocabulary
 * (vec_avx2.h). */
#define a2_load16 v16_load
#define a2_top_eq(v, mask, value) v16_top_eq((v), (unsigned)(mask), (unsigned)(value))
static inline uint32_t a2_unit_mask(__m256i a, __m256i b) { return (uint32_t)v16_bits2(a, b); }

/* Nonzero if some unit of v is a surrogate. */
static inline int a2_any_surrogate(__m256i v) {
  return !_mm256_testz_si256(a2_top_eq(v, 0xF800, 0xD800), a2_top_eq(v, 0xF800, 0xD800));
}

/* How many units from s[i] (a 16-unit block with surrogates) the scalar code
 * takes: the block, plus unit 16 when units 15 and 16 form a pair, so that a
 * pair is never split between scalar and vector code. */
static inline size_t a2_scalar_region(const char16_t *s, size_t n, size_t i, int be) {
  return n - i > 16 && (utfxi_load16(s + i + 15, be) & 0xFC00) == 0xD800 &&
                 (utfxi_load16(s + i + 16, be) & 0xFC00) == 0xDC00
             ? 17
             : 16;
}

#endif
