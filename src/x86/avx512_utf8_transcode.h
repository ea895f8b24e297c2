/* AVX-512 UTF-8 to UTF-16LE/BE and UTF-32: the kernel body shared by
 * avx512_utf8_to_utf16.c and avx512_utf8_to_utf32.c (static inline, with the
 * target form a compile-time constant in each wrapper).
 *
 * Algorithm (in the spirit of Clausecker and Lemire, "Transcoding Unicode
 * characters with AVX-512 instructions", SPE 2023): each step loads 64
 * bytes that start at a character boundary.
 *  - All ASCII: widen and store 64 units.
 *  - Otherwise check the bytes (lookup validation, avx512_utf8_common.h). A
 *    block with an error goes to the scalar steps, which convert through the
 *    error and return at a character boundary.
 *  - Well-formed: the characters that end before the block's last character
 *    start (or all 64 bytes when the last byte is ASCII) are converted. Every
 *    byte's payload bits are computed once; for the last byte of each
 *    character, the payloads of the one to three bytes before it are brought
 *    next to it with masked permutes (zero where they belong to another
 *    character), shifted into place and OR-ed: that is the code point at the
 *    position of the character's last byte. VPCOMPRESSW/D keep those
 *    positions. Without 4-byte characters this runs on 16-bit lanes (32 per
 *    instruction); with them, on 32-bit lanes, and UTF-16 output keeps a
 *    second 16-bit word (the low surrogate) for each supplementary character.
 *  - Stores are masked to the units produced, so nothing past dst + written
 *    is ever written.
 * Bounds: a step needs 64 readable bytes and room for 64 units (it writes at
 * most one unit per input byte), so `cap` is checked once per step; the rest
 * of the input, and the end of a destination that is too small, are done by
 * the scalar steps, which stop at a character boundary. */
#ifndef UTFX_X86_AVX512_UTF8_TRANSCODE_H
#define UTFX_X86_AVX512_UTF8_TRANSCODE_H

#include "avx512_utf8_common.h"

/* Stores the low k (<= 32) 16-bit units of u at d (byte-swapped for BE). */
static inline void utfxi_avx512_put16(char16_t *d, __m512i u, unsigned k, int be) {
  if (be) {
    const __m512i swap = _mm512_broadcast_i32x4(
        _mm_setr_epi8(1, 0, 3, 2, 5, 4, 7, 6, 9, 8, 11, 10, 13, 12, 15, 14));
    u = _mm512_shuffle_epi8(u, swap);
  }
  _mm512_mask_storeu_epi16(d, _bzhi_u32(~0u, k), u);
}

/* Stores the low k (<= 32) 16-bit units of u as 32-bit units at d. */
static inline void utfxi_avx512_put16as32(char32_t *d, __m512i u, unsigned k) {
  __m512i lo = _mm512_cvtepu16_epi32(_mm512_castsi512_si256(u));
  __m512i hi = _mm512_cvtepu16_epi32(_mm512_extracti64x4_epi64(u, 1));
  _mm512_mask_storeu_epi32(d, (__mmask16)_bzhi_u32(~0u, k), lo);
  if (k > 16) _mm512_mask_storeu_epi32(d + 16, (__mmask16)_bzhi_u32(~0u, k - 16), hi);
}

static inline utfx_result utfxi_avx512_from_utf8(const char *src, size_t n, void *dst,
                                                 size_t cap, unsigned flags,
                                                 enum utfxi_target t) {
  const unsigned char *s = (const unsigned char *)src;
  const int be = t == UTFXI_T_UTF16BE;
  char16_t *d16 = (char16_t *)dst;
  char32_t *d32 = (char32_t *)dst;
  struct utfxi_u8state st = {0, 0, 0};
  int status;
  while (n - st.i >= 64 && cap - st.w >= 64) {
    const unsigned char *p = s + st.i;
    __m512i v = _mm512_loadu_si512((const void *)p);
    __mmask64 high = _mm512_movepi8_mask(v), err, cont, starts, ends, c1, c2, c3;
    __m512i m0, m1, m2, m3;
    size_t e;
    if (!high) {
      if (t == UTFXI_T_UTF32) {
        _mm512_storeu_si512((void *)(d32 + st.w), _mm512_cvtepu8_epi32(_mm512_castsi512_si128(v)));
        _mm512_storeu_si512((void *)(d32 + st.w + 16),
                            _mm512_cvtepu8_epi32(_mm512_extracti32x4_epi32(v, 1)));
        _mm512_storeu_si512((void *)(d32 + st.w + 32),
                            _mm512_cvtepu8_epi32(_mm512_extracti32x4_epi32(v, 2)));
        _mm512_storeu_si512((void *)(d32 + st.w + 48),
                            _mm512_cvtepu8_epi32(_mm512_extracti32x4_epi32(v, 3)));
      } else {
        __m512i lo = _mm512_cvtepu8_epi16(_mm512_castsi512_si256(v));
        __m512i hi = _mm512_cvtepu8_epi16(_mm512_extracti64x4_epi64(v, 1));
        if (be) {
          lo = _mm512_slli_epi16(lo, 8);
          hi = _mm512_slli_epi16(hi, 8);
        }
        _mm512_storeu_si512((void *)(d16 + st.w), lo);
        _mm512_storeu_si512((void *)(d16 + st.w + 32), hi);
      }
      st.i += 64;
      st.w += 64;
      continue;
    }
    /* The block starts at a boundary: a zero vector is valid context. */
    err = utfxi_avx512_utf8_errors_after(_mm512_setzero_si512(), v);
    if (err) {
      status = utfxi_utf8_steps(s, n, st.i + (size_t)_tzcnt_u64(err) + 1, &st, dst, cap, flags, t);
      if (status) return utfxi_result((utfx_status)status, st.i, st.w, st.replaced);
      continue;
    }
    cont = utfxi_avx512_continuations(v);
    starts = ~cont;
    if (p[63] < 0x80) { /* the block ends with a whole character */
      e = 64;
      ends = starts >> 1 | 1ull << 63;
    } else {
      e = 63 - (size_t)_lzcnt_u64(starts); /* the last character start */
      ends = (starts >> 1) & _bzhi_u64(~0ull, (unsigned)e);
    }
    /* Payload of the byte k back, where it belongs to the same character. */
    c1 = cont;
    c2 = c1 & (cont << 1);
    c3 = c2 & (cont << 2);
    m0 = utfxi_avx512_payload(v);
    m1 = utfxi_avx512_back(c1, m0, 1);
    m2 = utfxi_avx512_back(c2, m0, 2);
    if (!c3) { /* no 4-byte characters: 16-bit lanes */
      int half;
      for (half = 0; half < 2; half++) {
        __m256i b0 = half ? _mm512_extracti64x4_epi64(m0, 1) : _mm512_castsi512_si256(m0);
        __m256i b1 = half ? _mm512_extracti64x4_epi64(m1, 1) : _mm512_castsi512_si256(m1);
        __m256i b2 = half ? _mm512_extracti64x4_epi64(m2, 1) : _mm512_castsi512_si256(m2);
        __m512i u0 = _mm512_cvtepu8_epi16(b0);
        __m512i u1 = _mm512_slli_epi16(_mm512_cvtepu8_epi16(b1), 6);
        __m512i u2 = _mm512_slli_epi16(_mm512_cvtepu8_epi16(b2), 12);
        __mmask32 keep = (__mmask32)(half ? ends >> 32 : ends);
        unsigned k = (unsigned)_mm_popcnt_u32(keep);
        __m512i cp = _mm512_maskz_compress_epi16(keep, _mm512_ternarylogic_epi64(u0, u1, u2, 0xFE));
        if (t == UTFXI_T_UTF32)
          utfxi_avx512_put16as32(d32 + st.w, cp, k);
        else
          utfxi_avx512_put16(d16 + st.w, cp, k, be);
        st.w += k;
      }
    } else { /* 32-bit lanes, four groups of 16 bytes */
      int g;
      m3 = utfxi_avx512_back(c3, m0, 3);
      for (g = 0; g < 4; g++) {
        __m128i b0 = _mm512_extracti32x4_epi32(m0, 0), b1, b2, b3;
        __m512i cp;
        __mmask16 keep = (__mmask16)(ends >> (16 * g));
        unsigned k = (unsigned)_mm_popcnt_u32(keep);
        switch (g) { /* the lane index must be an immediate */
          case 0:
            b0 = _mm512_extracti32x4_epi32(m0, 0), b1 = _mm512_extracti32x4_epi32(m1, 0);
            b2 = _mm512_extracti32x4_epi32(m2, 0), b3 = _mm512_extracti32x4_epi32(m3, 0);
            break;
          case 1:
            b0 = _mm512_extracti32x4_epi32(m0, 1), b1 = _mm512_extracti32x4_epi32(m1, 1);
            b2 = _mm512_extracti32x4_epi32(m2, 1), b3 = _mm512_extracti32x4_epi32(m3, 1);
            break;
          case 2:
            b0 = _mm512_extracti32x4_epi32(m0, 2), b1 = _mm512_extracti32x4_epi32(m1, 2);
            b2 = _mm512_extracti32x4_epi32(m2, 2), b3 = _mm512_extracti32x4_epi32(m3, 2);
            break;
          default:
            b0 = _mm512_extracti32x4_epi32(m0, 3), b1 = _mm512_extracti32x4_epi32(m1, 3);
            b2 = _mm512_extracti32x4_epi32(m2, 3), b3 = _mm512_extracti32x4_epi32(m3, 3);
            break;
        }
        cp = _mm512_ternarylogic_epi64(
            _mm512_cvtepu8_epi32(b0), _mm512_slli_epi32(_mm512_cvtepu8_epi32(b1), 6),
            _mm512_or_si512(_mm512_slli_epi32(_mm512_cvtepu8_epi32(b2), 12),
                            _mm512_slli_epi32(_mm512_cvtepu8_epi32(b3), 18)),
            0xFE);
        if (t == UTFXI_T_UTF32) {
          _mm512_mask_storeu_epi32(d32 + st.w, (__mmask16)_bzhi_u32(~0u, k),
                                   _mm512_maskz_compress_epi32(keep, cp));
          st.w += k;
        } else {
          /* Supplementary: low word high surrogate, high word low surrogate. */
          __mmask16 supp = _mm512_mask_cmpge_epu32_mask(keep, cp, _mm512_set1_epi32(0x10000));
          __m512i hs = _mm512_add_epi32(_mm512_srli_epi32(cp, 10), _mm512_set1_epi32(0xD7C0));
          __m512i ls = _mm512_or_si512(_mm512_and_si512(cp, _mm512_set1_epi32(0x3FF)),
                                       _mm512_set1_epi32(0xDC00));
          __m512i pair = _mm512_or_si512(hs, _mm512_slli_epi32(ls, 16));
          __m512i units = _mm512_mask_mov_epi32(cp, supp, pair);
          __mmask32 words = (__mmask32)(_pdep_u32(keep, 0x55555555u) | _pdep_u32(supp, 0xAAAAAAAAu));
          unsigned kw = (unsigned)_mm_popcnt_u32(words);
          utfxi_avx512_put16(d16 + st.w, _mm512_maskz_compress_epi16(words, units), kw, be);
          st.w += kw;
        }
      }
    }
    st.i += e;
  }
  status = utfxi_utf8_steps(s, n, n, &st, dst, cap, flags, t);
  return utfxi_result(status ? (utfx_status)status : UTFX_OK, st.i, st.w, st.replaced);
}

#endif
