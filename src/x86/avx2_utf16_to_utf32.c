/* AVX2 UTF-16LE/BE to UTF-32, STRICT and REPLACE, bounded destinations.
 *
 * A block of 16 units without surrogates zero-extends (vpmovzxwd) into 16
 * exact 32-bit stores. A block with a surrogate goes to the scalar kernel as
 * a bounded region (extended by one unit when it ends inside a pair), so
 * pairs and lone surrogates get the scalar semantics by construction; STRICT
 * errors and a full destination stop there with the scalar offsets. SIMD
 * runs while the block surely fits; the last < 16 units are scalar.
 * References: Lemire & Mula 2022 (see avx2_utf16_to_utf8.c). */
#ifndef __AVX2__
#error "avx2_* files must be compiled with the avx2 tier flags (Makefile AVX2_FLAGS)"
#endif

#include "avx2_utf16_common.h"
#include "x86_prototypes.h"

static inline utfx_result scalar16to32(const char16_t *s, size_t n, char32_t *d, size_t cap,
                                       unsigned flags, int be) {
  return be ? utfxi_convert_utf16be_to_utf32_scalar(s, n, d, cap, flags)
            : utfxi_convert_utf16le_to_utf32_scalar(s, n, d, cap, flags);
}

UTFXI_INLINE utfx_result utf16_to_utf32(const char16_t *s, size_t n, char32_t *d, size_t cap,
                                        unsigned flags, int be) {
  size_t i = 0, w = 0, replaced = 0;
  utfx_result r;
  while (n - i >= 16 && cap - w >= 16) {
    __m256i v;
    /* Runs without surrogates, 32 units a step in a loop of their own: a
     * unit u is a surrogate iff u + 0x2800 (mod 2^16) < 0x800, so one
     * unsigned minimum tests both vectors. */
    while (n - i >= 32 && cap - w >= 32) {
      const __m256i off = _mm256_set1_epi16(0x2800), x800 = _mm256_set1_epi16(0x800);
      __m256i a = a2_load16(s + i, be), b = a2_load16(s + i + 16, be);
      __m256i m = _mm256_min_epu16(_mm256_add_epi16(a, off), _mm256_add_epi16(b, off));
      if (!_mm256_testc_si256(_mm256_cmpeq_epi16(_mm256_max_epu16(m, x800), m),
                              _mm256_set1_epi32(-1)))
        break;
      _mm256_storeu_si256((__m256i *)(d + w), _mm256_cvtepu16_epi32(_mm256_castsi256_si128(a)));
      _mm256_storeu_si256((__m256i *)(d + w + 8),
                          _mm256_cvtepu16_epi32(_mm256_extracti128_si256(a, 1)));
      _mm256_storeu_si256((__m256i *)(d + w + 16),
                          _mm256_cvtepu16_epi32(_mm256_castsi256_si128(b)));
      _mm256_storeu_si256((__m256i *)(d + w + 24),
                          _mm256_cvtepu16_epi32(_mm256_extracti128_si256(b, 1)));
      i += 32;
      w += 32;
    }
    if (n - i < 16 || cap - w < 16) break;
    v = a2_load16(s + i, be);
    if (a2_any_surrogate(v)) {
      size_t len;
      __m256i cp;
      if (a2_aligned_pairs(v, &cp)) { /* 8 pairs: 8 code points */
        _mm256_storeu_si256((__m256i *)(d + w), cp);
        i += 16;
        w += 8;
        continue;
      }
      len = a2_scalar_region(s, n, i, be);
      r = scalar16to32(s + i, len, d + w, cap - w, flags, be);
      replaced += r.replaced;
      if (r.status != UTFX_OK) return utfxi_result(r.status, i + r.read, w + r.written, replaced);
      i += len;
      w += r.written;
      continue;
    }
    _mm256_storeu_si256((__m256i *)(d + w), _mm256_cvtepu16_epi32(_mm256_castsi256_si128(v)));
    _mm256_storeu_si256((__m256i *)(d + w + 8),
                        _mm256_cvtepu16_epi32(_mm256_extracti128_si256(v, 1)));
    i += 16;
    w += 16;
  }
  r = scalar16to32(s + i, n - i, d + w, cap - w, flags, be);
  return utfxi_result(r.status, i + r.read, w + r.written, replaced + r.replaced);
}

utfx_result utfxi_convert_utf16le_to_utf32_avx2(const char16_t *s, size_t n, char32_t *d,
                                                size_t cap, unsigned flags) {
  return utf16_to_utf32(s, n, d, cap, flags, 0);
}
utfx_result utfxi_convert_utf16be_to_utf32_avx2(const char16_t *s, size_t n, char32_t *d,
                                                size_t cap, unsigned flags) {
  return utf16_to_utf32(s, n, d, cap, flags, 1);
}
