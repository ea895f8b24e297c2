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

#include "utf8_lookup_tables.h"
#include "utf8_steps.h"

/* Nonzero bytes mark errors of cur, given the previous 32 bytes. */
static inline __m256i utfxi_avx2_utf8_errors(__m256i prev, __m256i cur) {
  const __m256i nibble = _mm256_set1_epi8(0x0F);
  const __m256i prev_hi_t = _mm256_broadcastsi128_si256(_mm_setr_epi8(UTFXI_LK_PREV_HI_ARGS));
  const __m256i prev_lo_t = _mm256_broadcastsi128_si256(_mm_setr_epi8(UTFXI_LK_PREV_LO_ARGS));
  const __m256i cur_hi_t = _mm256_broadcastsi128_si256(_mm_setr_epi8(UTFXI_LK_CUR_HI_ARGS));
  /* [high half of prev | low half of cur]: alignr then reaches across. */
  __m256i mid = _mm256_permute2x128_si256(prev, cur, 0x21);
  __m256i prev1 = _mm256_alignr_epi8(cur, mid, 15);
  __m256i prev2 = _mm256_alignr_epi8(cur, mid, 14);
  __m256i prev3 = _mm256_alignr_epi8(cur, mid, 13);
  __m256i a = _mm256_shuffle_epi8(prev_hi_t, _mm256_and_si256(_mm256_srli_epi16(prev1, 4), nibble));
  __m256i b = _mm256_shuffle_epi8(prev_lo_t, _mm256_and_si256(prev1, nibble));
  __m256i c = _mm256_shuffle_epi8(cur_hi_t, _mm256_and_si256(_mm256_srli_epi16(cur, 4), nibble));
  __m256i special = _mm256_and_si256(_mm256_and_si256(a, b), c);
  /* 0x80 where the byte two back is >= E0 or the byte three back >= F0
   * (saturating subtraction leaves bit 7 set exactly then). */
  __m256i third = _mm256_subs_epu8(prev2, _mm256_set1_epi8((char)(0xE0 - 0x80)));
  __m256i fourth = _mm256_subs_epu8(prev3, _mm256_set1_epi8((char)(0xF0 - 0x80)));
  __m256i must23 = _mm256_and_si256(_mm256_or_si256(third, fourth),
                                    _mm256_set1_epi8((char)0x80));
  return _mm256_xor_si256(special, must23);
}

#endif
