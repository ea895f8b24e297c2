/* AVX2 UTF-8 to UTF-16LE/BE, UTF-32 and Latin-1: the kernel body shared by
 * avx2_utf8_to_utf16.c, avx2_utf8_to_utf32.c and avx2_utf8_to_latin1.c
 * (static inline, the target form a compile-time constant in each wrapper).
 *
 * Algorithm: each step takes 32 bytes that start at a character boundary.
 *  - All ASCII: widen and store 32 units.
 *  - Otherwise check them (lookup validation, Keiser and Lemire 2021,
 *    avx2_utf8_common.h; for Latin-1 also any lead C4..FF). A block with an
 *    error goes to the scalar steps, which convert through the error and
 *    return at a character boundary.
 *  - Well-formed: the characters before the block's last character start
 *    are decoded without any checks (they are known well-formed), one at a
 *    time. AVX2 has no compress instruction; a table-driven shuffle
 *    transcoder (Lemire and Mula 2022) would be faster here and is future
 *    work. On CPUs with AVX-512 VBMI2 the avx512 tier is used instead.
 *  - Every store writes exactly the units produced.
 * Bounds: a step needs 32 readable bytes and room for 32 units; the rest of
 * the input, and the end of a destination that is too small, are done by the
 * scalar steps, which stop at a character boundary. */
#ifndef UTFX_X86_AVX2_UTF8_TRANSCODE_H
#define UTFX_X86_AVX2_UTF8_TRANSCODE_H

#include "avx2_utf8_common.h"

static inline utfx_result utfxi_avx2_from_utf8(const char *src, size_t n, void *dst, size_t cap,
                                               unsigned flags, enum utfxi_target t) {
  const unsigned char *s = (const unsigned char *)src;
  struct utfxi_u8state st = {0, 0, 0};
  int status, clean_before = 0; /* the 3 bytes before the block: read, well-formed */
  while (n - st.i >= 32 && cap - st.w >= 32) {
    const unsigned char *p = s + st.i;
    __m256i v = _mm256_loadu_si256((const __m256i *)p), err;
    size_t e, j, w;
    if (!_mm256_movemask_epi8(v)) {
      if (t == UTFXI_T_LATIN1) {
        _mm256_storeu_si256((__m256i *)((unsigned char *)dst + st.w), v);
      } else if (t == UTFXI_T_UTF32) {
        char32_t *d = (char32_t *)dst + st.w;
        __m128i lo = _mm256_castsi256_si128(v), hi = _mm256_extracti128_si256(v, 1);
        _mm256_storeu_si256((__m256i *)d, _mm256_cvtepu8_epi32(lo));
        _mm256_storeu_si256((__m256i *)(d + 8), _mm256_cvtepu8_epi32(_mm_srli_si128(lo, 8)));
        _mm256_storeu_si256((__m256i *)(d + 16), _mm256_cvtepu8_epi32(hi));
        _mm256_storeu_si256((__m256i *)(d + 24), _mm256_cvtepu8_epi32(_mm_srli_si128(hi, 8)));
      } else {
        char16_t *d = (char16_t *)dst + st.w;
        __m256i a = _mm256_cvtepu8_epi16(_mm256_castsi256_si128(v));
        __m256i b = _mm256_cvtepu8_epi16(_mm256_extracti128_si256(v, 1));
        if (t == UTFXI_T_UTF16BE) {
          a = _mm256_slli_epi16(a, 8);
          b = _mm256_slli_epi16(b, 8);
        }
        _mm256_storeu_si256((__m256i *)d, a);
        _mm256_storeu_si256((__m256i *)(d + 16), b);
      }
      st.i += 32;
      st.w += 32;
      continue;
    }
    /* After complete, well-formed characters the real bytes before the
     * block are valid context; at the start, or after the scalar steps went
     * through an error, zeros are. */
    err = clean_before ? utfxi_avx2_block_errors(p, v)
                       : utfxi_avx2_utf8_errors(_mm256_setzero_si256(), v);
    if (t == UTFXI_T_LATIN1) { /* leads of characters above U+00FF */
      __m256i c4 = _mm256_set1_epi8((char)0xC4);
      err = _mm256_or_si256(err, _mm256_cmpeq_epi8(_mm256_max_epu8(v, c4), v));
    }
    if (!_mm256_testz_si256(err, err)) {
      uint32_t bad = ~(uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(err, _mm256_setzero_si256()));
      status = utfxi_utf8_steps(s, n, st.i + (size_t)_tzcnt_u32(bad) + 1, &st, dst, cap, flags, t);
      if (status) return utfxi_result((utfx_status)status, st.i, st.w, st.replaced);
      clean_before = 0;
      continue;
    }
    clean_before = 1;
    { /* the next step starts at the last character start (or after the block) */
      uint32_t tail;
      memcpy(&tail, p + 28, 4);
      tail = (tail & 0xC0C0C0C0u) ^ 0x80808080u;
      e = 28 + (31 - (size_t)_lzcnt_u32(tail)) / 8;
      if (p[31] < 0x80) e = 32;
    }
    /* Well-formed characters: decode without checks. */
    for (j = 0, w = st.w; j < e;) {
      uint32_t c = p[j];
      if (c < 0x80) {
        j++;
      } else if (c < 0xE0) {
        c = (c & 0x1F) << 6 | (p[j + 1] & 0x3Fu);
        j += 2;
      } else if (c < 0xF0) {
        c = (c & 0x0F) << 12 | (p[j + 1] & 0x3Fu) << 6 | (p[j + 2] & 0x3Fu);
        j += 3;
      } else {
        c = (c & 0x07) << 18 | (p[j + 1] & 0x3Fu) << 12 | (p[j + 2] & 0x3Fu) << 6 |
            (p[j + 3] & 0x3Fu);
        j += 4;
      }
      utfxi_put(dst, w, c, t);
      w += utfxi_units_for(c, t);
    }
    st.i += e;
    st.w = w;
  }
  status = utfxi_utf8_steps(s, n, n, &st, dst, cap, flags, t);
  return utfxi_result(status ? (utfx_status)status : UTFX_OK, st.i, st.w, st.replaced);
}

#endif
