/* AVX2 exact UTF-8 lengths of the UTFX_REPLACE conversions from UTF-16LE/BE,
 * Latin-1 and UTF-32.
 *
 * UTF-16: a unit counts 3 - (unit < 0x80) - (unit < 0x800) bytes, right for
 * everything but a well-formed pair (6 counted, 4 written): a block with
 * surrogates subtracts 2 per pair (one bit per unit from vpacksswb +
 * vpmovmskb). Latin-1: n plus the bytes >= 0x80 (vpmovmskb). UTF-32: 1 +
 * (>= 0x80) + (>= 0x800) + (in 0x10000..0x10FFFF); ill-formed values count 3.
 * Counts are summed per chunk of UTFXI_LENGTH_CHUNK units and added with
 * saturation. Block: 32 units / 32 bytes / 8 values; tails in scalar code.
 * References: Lemire & Mula 2022 (see avx2_utf16_to_utf8.c). */
#ifndef __AVX2__
#error "avx2_* files must be compiled with the avx2 tier flags (Makefile AVX2_FLAGS)"
#endif

#include "avx2_utf16_common.h"
#include "x86_prototypes.h"

UTFXI_INLINE size_t utf8_length_from_utf16_body(const char16_t *s, size_t n, int be) {
  size_t i = 0, total = 0;
  while (n - i >= 32) {
    size_t end = n - i > UTFXI_LENGTH_CHUNK ? i + UTFXI_LENGTH_CHUNK : n, count = 0;
    while (end - i >= 32) {
      __m256i a = a2_load16(s + i, be), b = a2_load16(s + i + 16, be);
      __m256i sa = a2_top_eq(a, 0xF800, 0xD800), sb = a2_top_eq(b, 0xF800, 0xD800);
      __m256i asc = _mm256_packs_epi16(a2_top_eq(a, 0xFF80, 0), a2_top_eq(b, 0xFF80, 0));
      __m256i lt800 = _mm256_packs_epi16(a2_top_eq(a, 0xF800, 0), a2_top_eq(b, 0xF800, 0));
      size_t adv = 32, minus = (size_t)_mm_popcnt_u32((uint32_t)_mm256_movemask_epi8(asc)) +
                               (size_t)_mm_popcnt_u32((uint32_t)_mm256_movemask_epi8(lt800));
      __m256i any = _mm256_or_si256(sa, sb);
      if (!_mm256_testz_si256(any, any)) {
        uint32_t hi = a2_unit_mask(a2_top_eq(a, 0xFC00, 0xD800), a2_top_eq(b, 0xFC00, 0xD800));
        uint32_t lo = a2_unit_mask(a2_top_eq(a, 0xFC00, 0xDC00), a2_top_eq(b, 0xFC00, 0xDC00));
        if (hi >> 31) { /* leave a trailing high surrogate (3 bytes counted) to the next block */
          hi &= 0x7FFFFFFFu;
          adv = 31;
          count -= 3;
        }
        count -= 2 * (size_t)_mm_popcnt_u32(hi & (lo >> 1));
      }
      count += 3 * 32 - minus;
      i += adv;
    }
    total = utfxi_add_sat(total, count);
  }
  if (i < n) {
    size_t rest = be ? utfxi_utf8_length_from_utf16be_scalar(s + i, n - i)
                     : utfxi_utf8_length_from_utf16le_scalar(s + i, n - i);
    total = utfxi_add_sat(total, rest);
  }
  return total;
}

/* Code points after replacement: one per unit, less one per well-formed
 * pair, counted at its high surrogate against the units one further on
 * (a load at +1, so a pair across blocks counts once). For the tail,
 * i - pairs + its scalar count is exact: a low surrogate at i whose pair was
 * counted here is a lone unit to the scalar code, which it also is in
 * i - pairs. */
UTFXI_INLINE size_t utf32_length_from_utf16_body(const char16_t *s, size_t n, int be) {
  size_t i = 0, pairs = 0;
  for (; n - i >= 17; i += 16) {
    __m256i hi = a2_top_eq(a2_load16(s + i, be), 0xFC00, 0xD800);
    __m256i lo = a2_top_eq(a2_load16(s + i + 1, be), 0xFC00, 0xDC00);
    pairs += (size_t)_mm_popcnt_u32((uint32_t)_mm256_movemask_epi8(_mm256_and_si256(hi, lo))) / 2;
  }
  return i - pairs + (be ? utfxi_utf32_length_from_utf16be_scalar(s + i, n - i)
                         : utfxi_utf32_length_from_utf16le_scalar(s + i, n - i));
}
size_t utfxi_utf32_length_from_utf16le_avx2(const char16_t *s, size_t n) {
  return utf32_length_from_utf16_body(s, n, 0);
}
size_t utfxi_utf32_length_from_utf16be_avx2(const char16_t *s, size_t n) {
  return utf32_length_from_utf16_body(s, n, 1);
}

size_t utfxi_utf8_length_from_utf16le_avx2(const char16_t *s, size_t n) {
  return utf8_length_from_utf16_body(s, n, 0);
}
size_t utfxi_utf8_length_from_utf16be_avx2(const char16_t *s, size_t n) {
  return utf8_length_from_utf16_body(s, n, 1);
}

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
