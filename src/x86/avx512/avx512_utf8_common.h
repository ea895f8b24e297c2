/* AVX-512 helpers shared by the avx512_utf8_*.c kernels (static inline; only
 * files compiled with the avx512 tier's flags include this header).
 *
 * UTF-8 checking is the generic lookup check (generic_utf8_check.h) over the
 * 64-byte vocabulary; callers pass the bytes one to three back, from
 * unaligned loads or from in-register permutes. */
#ifndef UTFX_X86_AVX512_UTF8_COMMON_H
#define UTFX_X86_AVX512_UTF8_COMMON_H

#ifndef __AVX512VBMI2__
#error "avx512_utf8_common.h is for files built with the avx512 tier's flags"
#endif

#include <immintrin.h>

#include "vec_avx512.h"
#include "../../simd/generic_utf8_check.h"
#include "../../simd/utf8_steps.h"

static inline __m512i utfxi_avx512_iota(void) {
  return _mm512_set_epi8(63, 62, 61, 60, 59, 58, 57, 56, 55, 54, 53, 52, 51, 50, 49, 48, 47, 46,
                         45, 44, 43, 42, 41, 40, 39, 38, 37, 36, 35, 34, 33, 32, 31, 30, 29, 28,
                         27, 26, 25, 24, 23, 22, 21, 20, 19, 18, 17, 16, 15, 14, 13, 12, 11, 10,
                         9, 8, 7, 6, 5, 4, 3, 2, 1, 0);
}

static inline __m512i utfxi_avx512_bytes(int b) { return _mm512_set1_epi8((char)b); }

/* Byte j of the result is byte j - k of v where mask bit j is set, else 0
 * (one in-register permute; j - k wraps, hence the mask). */
static inline __m512i utfxi_avx512_back(__mmask64 keep, __m512i v, int k) {
  return _mm512_maskz_permutexvar_epi8(
      keep, _mm512_sub_epi8(utfxi_avx512_iota(), utfxi_avx512_bytes(k)), v);
}

/* The error bytes as a mask (generic_utf8_check.h has the check; k holds
 * its constants). */
static inline __mmask64 utfxi_avx512_utf8_errors(const struct g_utf8_check_k *k, __m512i cur,
                                                 __m512i prev1, __m512i prev2, __m512i prev3) {
  __m512i e = g_utf8_error_bytes_k(k, cur, prev1, prev2, prev3);
  return _mm512_test_epi8_mask(e, e);
}

/* The bytes 0x80..0xBF (as signed bytes, those below -64; c0: 0xC0 in
 * every byte). */
static inline __mmask64 utfxi_avx512_continuations(__m512i v, __m512i c0) {
  return _mm512_cmplt_epi8_mask(v, c0);
}

/* The bytes one, two and three before each byte of the block v at p, the
 * context of the lookup check, for a block that starts a character after
 * `known` bytes of whole characters already read and checked (0 at the
 * start of the input or after bytes the check must not see). When those
 * cover all three, unaligned loads (cheaper than permutes:
 * docs/perf-decisions.md, 'AVX-512 vocabulary'); else
 * zeros shifted in from v, which is the same context: before a character
 * start, whole characters leave nothing for the bytes of the block to
 * continue. Never reads before p - known, so never before the source. */
struct utfxi_avx512_context {
  __m512i prev1, prev2, prev3;
};
static inline struct utfxi_avx512_context utfxi_avx512_lookbehind(const unsigned char *p,
                                                                  size_t known, __m512i v) {
  struct utfxi_avx512_context c;
  if (known >= 3) {
    c.prev1 = _mm512_loadu_si512((const void *)(p - 1));
    c.prev2 = _mm512_loadu_si512((const void *)(p - 2));
    c.prev3 = _mm512_loadu_si512((const void *)(p - 3));
  } else {
    c.prev1 = utfxi_avx512_back(~0ull << 1, v, 1);
    c.prev2 = utfxi_avx512_back(~0ull << 2, v, 2);
    c.prev3 = utfxi_avx512_back(~0ull << 3, v, 3);
  }
  return c;
}

#endif
