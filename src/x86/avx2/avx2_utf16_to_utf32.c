/* AVX2 UTF-16LE/BE to UTF-32, STRICT and REPLACE, bounded destinations.
 *
 * A block of 16 units without surrogates zero-extends (vpmovzxwd) into 16
 * exact 32-bit stores; one of 8 aligned pairs makes 8 code points in its
 * lanes; one whose surrogates are all paired otherwise (mixed text) makes a
 * code point at each high half and compresses out the low halves' lanes
 * (put_paired_x16). Any other block with a surrogate goes to the scalar kernel as
 * a bounded region (extended by one unit when it ends inside a pair), so
 * pairs and lone surrogates get the scalar semantics by construction; STRICT
 * errors and a full destination stop there with the scalar offsets. SIMD
 * runs while the block surely fits; the last < 16 units are scalar.
 * References: Lemire & Mula 2022 (see avx2_utf16_to_utf8.c). */
#ifndef __AVX2__
#error "avx2_* files must be compiled with the avx2 tier flags (UTFX_AVX2_FLAGS, sources.mk)"
#endif

#include "avx2_utf16_common.h"
#include "../x86_prototypes.h"

static inline utfx_result scalar16to32(const char16_t *s, size_t n, char32_t *d, size_t cap,
                                       unsigned flags, int be) {
  return be ? utfxi_convert_utf16be_to_utf32_scalar(s, n, d, cap, flags)
            : utfxi_convert_utf16le_to_utf32_scalar(s, n, d, cap, flags);
}

/* PSHUFB rows that keep the 32-bit lanes of a 16-byte vector whose bit is
 * set in the index, in order (0x80: zero). */
static const unsigned char keep_dwords[16][16] = {
    {128, 128, 128, 128, 128, 128, 128, 128, 128, 128, 128, 128, 128, 128, 128, 128},
    {0, 1, 2, 3, 128, 128, 128, 128, 128, 128, 128, 128, 128, 128, 128, 128},
    {4, 5, 6, 7, 128, 128, 128, 128, 128, 128, 128, 128, 128, 128, 128, 128},
    {0, 1, 2, 3, 4, 5, 6, 7, 128, 128, 128, 128, 128, 128, 128, 128},
    {8, 9, 10, 11, 128, 128, 128, 128, 128, 128, 128, 128, 128, 128, 128, 128},
    {0, 1, 2, 3, 8, 9, 10, 11, 128, 128, 128, 128, 128, 128, 128, 128},
    {4, 5, 6, 7, 8, 9, 10, 11, 128, 128, 128, 128, 128, 128, 128, 128},
    {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 128, 128, 128, 128},
    {12, 13, 14, 15, 128, 128, 128, 128, 128, 128, 128, 128, 128, 128, 128, 128},
    {0, 1, 2, 3, 12, 13, 14, 15, 128, 128, 128, 128, 128, 128, 128, 128},
    {4, 5, 6, 7, 12, 13, 14, 15, 128, 128, 128, 128, 128, 128, 128, 128},
    {0, 1, 2, 3, 4, 5, 6, 7, 12, 13, 14, 15, 128, 128, 128, 128},
    {8, 9, 10, 11, 12, 13, 14, 15, 128, 128, 128, 128, 128, 128, 128, 128},
    {0, 1, 2, 3, 8, 9, 10, 11, 12, 13, 14, 15, 128, 128, 128, 128},
    {4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 128, 128, 128, 128},
    {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15},
};

/* UTF-32 of the 16 units of v (host order) whose surrogates are all halves
 * of pairs inside them (a2_paired_units: take is 16, or 15 when unit 15 is
 * a high half left for the next block): each 32-bit lane gets its unit, or
 * at a high half the pair's code point, and the lanes of low halves (and
 * unit 15 when take is 15) are compressed out per 128-bit lane. The stores
 * are whole; the 4 values after the output are read first and put back
 * last, so nothing past it changes (room: 20 values). Returns the values
 * written. */
UTFXI_INLINE size_t put_paired_x16(__m256i v, size_t take, char32_t *d) {
  const __m256i x3ff = _mm256_set1_epi32(0x3FF), xfc00 = _mm256_set1_epi32(0xFC00);
  __m256i next = _mm256_alignr_epi8(_mm256_permute2x128_si256(v, v, 0x81), v, 2);
  __m256i c[2], lows;
  uint32_t drop = 0;
  size_t k, total, at = 0;
  __m128i keep, part[4];
  for (k = 0; k < 2; k++) {
    __m256i u = _mm256_cvtepu16_epi32(k ? _mm256_extracti128_si256(v, 1) : _mm256_castsi256_si128(v));
    __m256i nx =
        _mm256_cvtepu16_epi32(k ? _mm256_extracti128_si256(next, 1) : _mm256_castsi256_si128(next));
    __m256i top = _mm256_and_si256(u, xfc00);
    __m256i cp = _mm256_add_epi32(_mm256_or_si256(_mm256_slli_epi32(_mm256_and_si256(u, x3ff), 10),
                                                  _mm256_and_si256(nx, x3ff)),
                                  _mm256_set1_epi32(0x10000));
    c[k] = _mm256_blendv_epi8(u, cp, _mm256_cmpeq_epi32(top, _mm256_set1_epi32(0xD800)));
    lows = _mm256_cmpeq_epi32(top, _mm256_set1_epi32(0xDC00));
    drop |= (uint32_t)_mm256_movemask_ps(_mm256_castsi256_ps(lows)) << (8 * k);
  }
  if (take == 15) drop |= 0x8000;
  drop = ~drop & 0xFFFF; /* now: the lanes kept */
  total = (size_t)_mm_popcnt_u32(drop);
  keep = _mm_loadu_si128((const __m128i *)(const void *)(d + total));
  part[0] = _mm256_castsi256_si128(c[0]);
  part[1] = _mm256_extracti128_si256(c[0], 1);
  part[2] = _mm256_castsi256_si128(c[1]);
  part[3] = _mm256_extracti128_si256(c[1], 1);
  for (k = 0; k < 4; k++) {
    unsigned m = drop >> (4 * k) & 0xF;
    _mm_storeu_si128((__m128i *)(void *)(d + at),
                     _mm_shuffle_epi8(part[k], _mm_loadu_si128((const __m128i *)keep_dwords[m])));
    at += (size_t)_mm_popcnt_u32(m);
  }
  _mm_storeu_si128((__m128i *)(void *)(d + total), keep);
  return total;
}

UTFXI_INLINE utfx_result utf16_to_utf32(const char16_t *s, size_t n, char32_t *d, size_t cap,
                                        unsigned flags, int be) {
  size_t i = 0, w = 0, replaced = 0;
  utfx_result r;
  if (UTFXI_ALIGN_HEAD(*s, n) && cap >= 256) {
    /* A long input starts with a step of fewer units where that makes the
     * destination 32-byte aligned: the run loop's stores then do not
     * straddle cache lines (a store across two costs two). Only here:
     * realigning at every run cost mixed text more than it saved
     * (docs/perf-decisions.md, 'UTF-16 -> UTF-32'). */
    __m256i v = a2_load16(s, be);
    if (!a2_any_surrogate(v)) {
      _mm256_storeu_si256((__m256i *)d, _mm256_cvtepu16_epi32(_mm256_castsi256_si128(v)));
      _mm256_storeu_si256((__m256i *)(d + 8),
                          _mm256_cvtepu16_epi32(_mm256_extracti128_si256(v, 1)));
      i = w = utfxi_aligning_step(d, 4, 32, 16, 1);
    }
  }
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
      size_t len, take;
      __m256i cp;
      if (a2_aligned_pairs(v, &cp)) { /* 8 pairs: 8 code points */
        _mm256_storeu_si256((__m256i *)(d + w), cp);
        i += 16;
        w += 8;
        continue;
      }
      take = a2_paired_units(v);
      if (take && cap - w >= 20) { /* pairs among BMP units */
        w += put_paired_x16(v, take, d + w);
        i += take;
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
