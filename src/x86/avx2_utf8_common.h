/* AVX2 helpers shared by the avx2_utf8_*.c kernels (static inline; only
 * files compiled with the avx2 tier's flags include this header).
 *
 * Lookup-based UTF-8 checking of one 32-byte vector (Keiser and Lemire
 * 2021, tables in utf8_lookup_tables.h), with the previous 32 bytes of the
 * stream as context for the bytes one to three back. */
#ifndef UTFX_X86_AVX2_UTF8_COMMON_H
#define UTFX_X86_AVX2_UTF8_COMMON_H

#ifndef __AVX2__
#error "avx2_utf8_common.h is for files built with the avx2 tier's flags"
#endif

#include <immintrin.h>

#include "../simd/utf8_lookup_tables.h"
#include "../simd/utf8_steps.h"

/* Nonzero bytes mark the bytes of cur that end an ill-formed pair or break
 * the continuation count, given the three bytes before each. */
static inline __m256i utfxi_avx2_utf8_error_bytes(__m256i cur, __m256i prev1, __m256i prev2,
                                                  __m256i prev3) {
  const __m256i nibble = _mm256_set1_epi8(0x0F);
  const __m256i prev_hi_t = _mm256_broadcastsi128_si256(_mm_setr_epi8(UTFXI_LK_PREV_HI_ARGS));
  const __m256i prev_lo_t = _mm256_broadcastsi128_si256(_mm_setr_epi8(UTFXI_LK_PREV_LO_ARGS));
  const __m256i cur_hi_t = _mm256_broadcastsi128_si256(_mm_setr_epi8(UTFXI_LK_CUR_HI_ARGS));
  __m256i a = _mm256_shuffle_epi8(prev_hi_t, _mm256_and_si256(_mm256_srli_epi16(prev1, 4), nibble));
  __m256i b = _mm256_shuffle_epi8(prev_lo_t, _mm256_and_si256(prev1, nibble));
  __m256i c = _mm256_shuffle_epi8(cur_hi_t, _mm256_and_si256(_mm256_srli_epi16(cur, 4), nibble));
  __m256i special = _mm256_and_si256(_mm256_and_si256(a, b), c);
  /* 0x80 where the byte two back is >= E0 or the byte three back >= F0
   * (saturating subtraction leaves bit 7 set exactly then): there a
   * continuation after a continuation is expected, so XOR flips it. */
  __m256i third = _mm256_subs_epu8(prev2, _mm256_set1_epi8((char)(0xE0 - 0x80)));
  __m256i fourth = _mm256_subs_epu8(prev3, _mm256_set1_epi8((char)(0xF0 - 0x80)));
  __m256i must23 = _mm256_and_si256(_mm256_or_si256(third, fourth),
                                    _mm256_set1_epi8((char)0x80));
  return _mm256_xor_si256(special, must23);
}

/* Error bytes of cur given the previous 32 bytes of the stream (in-register
 * shifts: for a vector with nothing readable before it). */
static inline __m256i utfxi_avx2_utf8_errors(__m256i prev, __m256i cur) {
  /* [high half of prev | low half of cur]: alignr then reaches across. */
  __m256i mid = _mm256_permute2x128_si256(prev, cur, 0x21);
  return utfxi_avx2_utf8_error_bytes(cur, _mm256_alignr_epi8(cur, mid, 15),
                                     _mm256_alignr_epi8(cur, mid, 14),
                                     _mm256_alignr_epi8(cur, mid, 13));
}

/* Error bytes of the 32 bytes v at p (p - 3 readable). */
static inline __m256i utfxi_avx2_block_errors(const unsigned char *p, __m256i v) {
  return utfxi_avx2_utf8_error_bytes(v, _mm256_loadu_si256((const __m256i *)(p - 1)),
                                     _mm256_loadu_si256((const __m256i *)(p - 2)),
                                     _mm256_loadu_si256((const __m256i *)(p - 3)));
}

/* Nonzero bytes when v ends inside a character. */
static inline __m256i utfxi_avx2_ends_inside(__m256i v) {
  const __m256i limit = _mm256_set_epi8((char)0xBF, (char)0xDF, (char)0xEF, -1, -1, -1, -1, -1,
                                        -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
                                        -1, -1, -1, -1, -1, -1, -1, -1, -1, -1);
  return _mm256_subs_epu8(v, limit);
}

#endif
