/* AVX2 exact UTF-8 lengths of the UTFX_REPLACE conversions from Latin-1 and
 * UTF-32 (those from UTF-16 are generic kernels: avx2_generic.c).
 *
 * Latin-1: n plus the bytes >= 0x80 (vpmovmskb). UTF-32: 1 +
 * (>= 0x80) + (>= 0x800) + (in 0x10000..0x10FFFF); ill-formed values count 3.
 * Counts are summed per chunk of UTFXI_LENGTH_CHUNK units and added with
 * saturation. Block: 32 bytes / 8 values; tails in scalar code.
 * References: Lemire & Mula 2022 (see avx2_utf16_to_utf8.c). */
#ifndef __AVX2__
#error "avx2_* files must be compiled with the avx2 tier flags (Makefile AVX2_FLAGS)"
#endif

#include "avx2_utf16_common.h"
#include "x86_prototypes.h"

/* Bytes >= 0x80 take two UTF-8 bytes. They are counted per byte lane (a
 * compare gives -1, subtracted) for up to 63 steps of 128 bytes, so no lane
 * passes 252, then summed with one SAD: three instructions per 32 bytes
 * instead of a movemask and a popcount each. */
size_t utfxi_utf8_length_from_latin1_avx2(const char *s, size_t n) {
  const __m256i zero = _mm256_setzero_si256();
  size_t i = 0, high = 0;
  while (n - i >= 128) {
    size_t steps = (n - i) / 128 < 63 ? (n - i) / 128 : 63, k;
    __m256i acc = zero, sums;
    for (k = 0; k < steps; k++, i += 128) {
      const __m256i *p = (const __m256i *)(s + i);
      __m256i a = _mm256_add_epi8(_mm256_cmpgt_epi8(zero, _mm256_loadu_si256(p)),
                                  _mm256_cmpgt_epi8(zero, _mm256_loadu_si256(p + 1)));
      __m256i b = _mm256_add_epi8(_mm256_cmpgt_epi8(zero, _mm256_loadu_si256(p + 2)),
                                  _mm256_cmpgt_epi8(zero, _mm256_loadu_si256(p + 3)));
      acc = _mm256_sub_epi8(acc, _mm256_add_epi8(a, b));
    }
    sums = _mm256_sad_epu8(acc, zero);
    high += (size_t)_mm256_extract_epi64(sums, 0) + (size_t)_mm256_extract_epi64(sums, 1) +
            (size_t)_mm256_extract_epi64(sums, 2) + (size_t)_mm256_extract_epi64(sums, 3);
  }
  for (; n - i >= 32; i += 32)
    high += (size_t)_mm_popcnt_u32(
        (uint32_t)_mm256_movemask_epi8(_mm256_loadu_si256((const __m256i *)(s + i))));
  return utfxi_add_sat(utfxi_add_sat(i, high), utfxi_utf8_length_from_latin1_scalar(s + i, n - i));
}

size_t utfxi_utf8_length_from_utf32_avx2(const char32_t *s, size_t n) {
  size_t i = 0, total = 0;
  while (n - i >= 8) {
    size_t end = n - i > UTFXI_LENGTH_CHUNK ? i + UTFXI_LENGTH_CHUNK : n, count = 0;
    for (; end - i >= 8; i += 8) {
      __m256i v = _mm256_loadu_si256((const __m256i *)(s + i)), zero = _mm256_setzero_si256();
      __m256i lt80 = _mm256_cmpeq_epi32(_mm256_and_si256(v, _mm256_set1_epi32(-0x80)), zero);
      __m256i lt800 = _mm256_cmpeq_epi32(_mm256_and_si256(v, _mm256_set1_epi32(-0x800)), zero);
      __m256i astral =
          _mm256_cmpeq_epi32(_mm256_and_si256(_mm256_sub_epi32(v, _mm256_set1_epi32(0x10000)),
                                              _mm256_set1_epi32(-0x100000)),
                             zero);
      /* 3 - (< 0x80) - (< 0x800) + astral; ill-formed values (> 0x10FFFF or
       * surrogates) count 3 */
      count += 24 -
               (size_t)_mm_popcnt_u32((unsigned)_mm256_movemask_ps(_mm256_castsi256_ps(lt80))) -
               (size_t)_mm_popcnt_u32((unsigned)_mm256_movemask_ps(_mm256_castsi256_ps(lt800))) +
               (size_t)_mm_popcnt_u32((unsigned)_mm256_movemask_ps(_mm256_castsi256_ps(astral)));
    }
    total = utfxi_add_sat(total, count);
  }
  if (i < n) total = utfxi_add_sat(total, utfxi_utf8_length_from_utf32_scalar(s + i, n - i));
  return total;
}
