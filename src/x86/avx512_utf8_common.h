/* AVX-512 helpers shared by the avx512_utf8_*.c kernels (static inline; only
 * files compiled with the avx512 tier's flags include this header).
 *
 * Lookup-based UTF-8 checking of one 64-byte vector (Keiser and Lemire
 * 2021, tables in utf8_lookup_tables.h): three nibble lookups per byte pair,
 * plus the "must be a 2nd/3rd continuation" expectation from the bytes two
 * and three back. Callers pass the bytes one to three back, from unaligned
 * loads or from in-register permutes. */
#ifndef UTFX_X86_AVX512_UTF8_COMMON_H
#define UTFX_X86_AVX512_UTF8_COMMON_H

#ifndef __AVX512VBMI2__
#error "avx512_utf8_common.h is for files built with the avx512 tier's flags"
#endif

#include <immintrin.h>

#include "../simd/utf8_lookup_tables.h"
#include "../simd/utf8_steps.h"

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

/* Nonzero bytes mark the bytes of cur that end an ill-formed pair or break
 * the continuation count, given the three bytes before each. */
static inline __m512i utfxi_avx512_utf8_error_bytes(__m512i cur, __m512i prev1, __m512i prev2,
                                                    __m512i prev3) {
  const __m512i nibble = _mm512_set1_epi8(0x0F);
  const __m512i prev_hi_t = _mm512_broadcast_i32x4(_mm_setr_epi8(UTFXI_LK_PREV_HI_ARGS));
  const __m512i prev_lo_t = _mm512_broadcast_i32x4(_mm_setr_epi8(UTFXI_LK_PREV_LO_ARGS));
  const __m512i cur_hi_t = _mm512_broadcast_i32x4(_mm_setr_epi8(UTFXI_LK_CUR_HI_ARGS));
  __m512i a = _mm512_shuffle_epi8(prev_hi_t, _mm512_and_si512(_mm512_srli_epi16(prev1, 4), nibble));
  __m512i b = _mm512_shuffle_epi8(prev_lo_t, _mm512_and_si512(prev1, nibble));
  __m512i c = _mm512_shuffle_epi8(cur_hi_t, _mm512_and_si512(_mm512_srli_epi16(cur, 4), nibble));
  __m512i special = _mm512_ternarylogic_epi64(a, b, c, 0x80); /* a & b & c */
  /* Bit 7 where the byte two back is >= E0 or the byte three back >= F0
   * (saturating subtraction leaves bit 7 set exactly then): there a
   * continuation after a continuation is expected, so XOR flips it. */
  __m512i third = _mm512_subs_epu8(prev2, _mm512_set1_epi8((char)(0xE0 - 0x80)));
  __m512i fourth = _mm512_subs_epu8(prev3, _mm512_set1_epi8((char)(0xF0 - 0x80)));
  __m512i must23 = _mm512_ternarylogic_epi64(third, fourth, _mm512_set1_epi8((char)0x80),
                                             0xA8); /* (A | B) & C */
  return _mm512_xor_si512(special, must23);
}

/* The same as a mask. */
static inline __mmask64 utfxi_avx512_utf8_errors(__m512i cur, __m512i prev1, __m512i prev2,
                                                 __m512i prev3) {
  __m512i e = utfxi_avx512_utf8_error_bytes(cur, prev1, prev2, prev3);
  return _mm512_test_epi8_mask(e, e);
}

/* Errors of a vector that starts the stream (zero bytes before it). */
static inline __mmask64 utfxi_avx512_utf8_errors_first(__m512i v) {
  return utfxi_avx512_utf8_errors(v, utfxi_avx512_back(~0ull << 1, v, 1),
                                  utfxi_avx512_back(~0ull << 2, v, 2),
                                  utfxi_avx512_back(~0ull << 3, v, 3));
}

/* The bytes 0x80..0xBF (as signed bytes, those below -64). */
static inline __mmask64 utfxi_avx512_continuations(__m512i v) {
  return _mm512_cmplt_epi8_mask(v, _mm512_set1_epi8((char)0xC0));
}

/* The bytes one, two and three before each byte of the block v at p, the
 * context of the lookup check, for a block that starts a character after
 * `known` bytes of whole characters already read and checked (0 at the
 * start of the input or after bytes the check must not see). When those
 * cover all three, unaligned loads (cheaper than permutes on Zen 4); else
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

/* Error bytes of the 64 bytes at p (p >= s + 3). */
static inline __m512i utfxi_avx512_block_errors(const unsigned char *p, __m512i v) {
  return utfxi_avx512_utf8_error_bytes(v, _mm512_loadu_si512((const void *)(p - 1)),
                                       _mm512_loadu_si512((const void *)(p - 2)),
                                       _mm512_loadu_si512((const void *)(p - 3)));
}

/* Nonzero bytes when the vector ends inside a character (a lead in its
 * last byte, a 3/4-byte lead in the one before, a 4-byte lead before that). */
static inline __m512i utfxi_avx512_ends_inside(__m512i v) {
  const __m512i limit = _mm512_set_epi8(
      (char)0xBF, (char)0xDF, (char)0xEF, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
      -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
      -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
      -1);
  return _mm512_subs_epu8(v, limit);
}

#endif
