/* AVX-512 helpers shared by the avx512_utf8_*.c kernels (static inline; only
 * files compiled with the avx512 tier's flags include this header).
 *
 * Lookup-based UTF-8 checking of one 64-byte vector (Keiser and Lemire
 * 2021, tables in utf8_lookup_tables.h): three nibble lookups per byte pair,
 * plus the "must be a 2nd/3rd continuation" expectation from the bytes two
 * and three back. The bytes before the vector come from `prev` (the previous
 * 64 bytes of the stream) through one cross-lane byte permute each. */
#ifndef UTFX_X86_AVX512_UTF8_COMMON_H
#define UTFX_X86_AVX512_UTF8_COMMON_H

#ifndef __AVX512VBMI2__
#error "avx512_utf8_common.h is for files built with the avx512 tier's flags"
/* Byte j of the result is byte j - k of v where mask bit j is set, else 0
 * (one in-register permute; j - k wraps, hence the mask). */
static inline __m512i utfxi_avx512_back(__mmask64 keep, __m512i v, int k) {
  const __m512i iota = _mm512_set_epi8(
      63, 62, 61, 60, 59, 58, 57, 56, 55, 54, 53, 52, 51, 50, 49, 48, 47, 46, 45, 44, 43, 42,
      41, 40, 39, 38, 37, 36, 35, 34, 33, 32, 31, 30, 29, 28, 27, 26, 25, 24, 23, 22, 21, 20,
      19, 18, 17, 16, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0);
  return _mm512_maskz_permutexvar_epi8(keep, _mm512_sub_epi8(iota, _mm512_set1_epi8((char)k)),
                                       v);
}

/* The payload bits of every byte: ASCII 7, continuation 6, lead 5/4/3. */
static inline __m512i utfxi_avx512_payload(__m512i v) {
  const __m512i keep_t = _mm512_broadcast_i32x4(_mm_setr_epi8(
      0x7F, 0x7F, 0x7F, 0x7F, 0x7F, 0x7F, 0x7F, 0x7F, 0x3F, 0x3F, 0x3F, 0x3F, 0x1F, 0x1F, 0x0F, 0x07));
  __m512i hi = _mm512_and_si512(_mm512_srli_epi16(v, 4), _mm512_set1_epi8(0x0F));
  return _mm512_and_si512(v, _mm512_shuffle_epi8(keep_t, hi));
}

/* The bytes 0x80..0xBF (as signed bytes, those below -64). */
static inline __mmask64 utfxi_avx512_continuations(__m512i v) {
  return _mm512_cmplt_epi8_mask(v, _mm512_set1_epi8((char)0xC0));
}

#endif

#include <immintrin.h>

#include "utf8_lookup_tables.h"
#include "utf8_steps.h"

/* Byte j of the result is byte j - k of the stream prev:cur (k = 1..3). */
static inline __m512i utfxi_avx512_prev(__m512i prev, __m512i cur, int k) {
  const __m512i iota = _mm512_set_epi8(
      63, 62, 61, 60, 59, 58, 57, 56, 55, 54, 53, 52, 51, 50, 49, 48, 47, 46, 45, 44, 43, 42,
      41, 40, 39, 38, 37, 36, 35, 34, 33, 32, 31, 30, 29, 28, 27, 26, 25, 24, 23, 22, 21, 20,
      19, 18, 17, 16, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0);
  /* Index 64 + j - k: bit 6 set picks cur, clear picks the end of prev. */
  const __m512i idx = _mm512_add_epi8(iota, _mm512_set1_epi8((char)(64 - k)));
  return _mm512_permutex2var_epi8(prev, idx, cur);
}

/* Mask of the bytes of cur that end an ill-formed pair or break the
 * continuation count, given the three bytes before each. */
static inline __mmask64 utfxi_avx512_utf8_errors(__m512i cur, __m512i prev1, __m512i prev2,
                                                 __m512i prev3) {
  const __m512i nibble = _mm512_set1_epi8(0x0F);
  const __m512i prev_hi_t = _mm512_broadcast_i32x4(_mm_setr_epi8(UTFXI_LK_PREV_HI_ARGS));
  const __m512i prev_lo_t = _mm512_broadcast_i32x4(_mm_setr_epi8(UTFXI_LK_PREV_LO_ARGS));
  const __m512i cur_hi_t = _mm512_broadcast_i32x4(_mm_setr_epi8(UTFXI_LK_CUR_HI_ARGS));
  __m512i a = _mm512_shuffle_epi8(prev_hi_t, _mm512_and_si512(_mm512_srli_epi16(prev1, 4), nibble));
  __m512i b = _mm512_shuffle_epi8(prev_lo_t, _mm512_and_si512(prev1, nibble));
  __m512i c = _mm512_shuffle_epi8(cur_hi_t, _mm512_and_si512(_mm512_srli_epi16(cur, 4), nibble));
  __m512i special = _mm512_ternarylogic_epi64(a, b, c, 0x80); /* a & b & c */
  __mmask64 must23 = _mm512_cmpge_epu8_mask(prev2, _mm512_set1_epi8((char)0xE0)) |
                     _mm512_cmpge_epu8_mask(prev3, _mm512_set1_epi8((char)0xF0));
  /* Flip bit 7 where a 2nd/3rd continuation is expected: what is left set
   * is an error (a missing or a surplus continuation, or a class bit). */
  special = _mm512_mask_sub_epi8(special, must23, special, _mm512_set1_epi8((char)0x80));
  return _mm512_test_epi8_mask(special, special);
}

/* Errors of a 64-byte vector that follows the vector prev in the stream. */
static inline __mmask64 utfxi_avx512_utf8_errors_after(__m512i prev, __m512i cur) {
  return utfxi_avx512_utf8_errors(cur, utfxi_avx512_prev(prev, cur, 1),
                                  utfxi_avx512_prev(prev, cur, 2),
                                  utfxi_avx512_prev(prev, cur, 3));
}

/* Byte j of the result is byte j - k of v where mask bit j is set, else 0
 * (one in-register permute; j - k wraps, hence the mask). */
static inline __m512i utfxi_avx512_back(__mmask64 keep, __m512i v, int k) {
  const __m512i iota = _mm512_set_epi8(
      63, 62, 61, 60, 59, 58, 57, 56, 55, 54, 53, 52, 51, 50, 49, 48, 47, 46, 45, 44, 43, 42,
      41, 40, 39, 38, 37, 36, 35, 34, 33, 32, 31, 30, 29, 28, 27, 26, 25, 24, 23, 22, 21, 20,
      19, 18, 17, 16, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0);
  return _mm512_maskz_permutexvar_epi8(keep, _mm512_sub_epi8(iota, _mm512_set1_epi8((char)k)),
                                       v);
}

/* The payload bits of every byte: ASCII 7, continuation 6, lead 5/4/3. */
static inline __m512i utfxi_avx512_payload(__m512i v) {
  const __m512i keep_t = _mm512_broadcast_i32x4(_mm_setr_epi8(
      0x7F, 0x7F, 0x7F, 0x7F, 0x7F, 0x7F, 0x7F, 0x7F, 0x3F, 0x3F, 0x3F, 0x3F, 0x1F, 0x1F, 0x0F, 0x07));
  __m512i hi = _mm512_and_si512(_mm512_srli_epi16(v, 4), _mm512_set1_epi8(0x0F));
  return _mm512_and_si512(v, _mm512_shuffle_epi8(keep_t, hi));
}

/* The bytes 0x80..0xBF (as signed bytes, those below -64). */
static inline __mmask64 utfxi_avx512_continuations(__m512i v) {
  return _mm512_cmplt_epi8_mask(v, _mm512_set1_epi8((char)0xC0));
}

#endif
