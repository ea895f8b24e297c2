/* AVX2 UTF-16LE/BE to UTF-8, STRICT and REPLACE, bounded destinations.
 *
 * Algorithm, per block of 16 units (one ymm), after Lemire & Mula 2022:
 *  - all below 0x80: vpackuswb, 16 bytes (32 units, 32 bytes, where two
 *    blocks are);
 *  - all below 0x800: each 16-bit lane holds its 1- or 2-byte form and a
 *    pshufb per 8 units (table indexed by which units are 2 bytes) packs it;
 *  - other BMP blocks (CJK, Indic, Hangul text): each unit's candidate bytes
 *    are made in 16-bit lanes and widened to 32, a pshufb per 8 units packs
 *    them (a2_encode_bmp_x16; table indexed by the length classes);
 *  - 8 pairs, one per 32-bit lane: 4 bytes each, directly;
 *  - other pairs among BMP units (a high surrogate at unit 15 waits for the
 *    next block): the BMP encoder in 16-bit lanes, each half of a pair
 *    making two of its four bytes (a2_encode_paired_x16);
 *  - ASCII, below-0x800 and 3-byte runs each have a loop of their own (the
 *    next block loaded ahead says whether to stay), with their constants
 *    pinned in registers: one outer loop that tested every case per block
 *    was slower (docs/perf-decisions.md, 'UTF-16 -> UTF-8');
 *  - a block with a lone surrogate goes to the scalar kernel as a bounded
 *    region (extended by one unit when it ends inside a pair), so lone
 *    surrogates get the scalar semantics (STRICT offsets, U+FFFD) by
 *    construction.
 * Stores: AVX2 has no byte-masked store. A 16-byte store may write up to 12
 * bytes past its output only when the next block surely overwrites them (it
 * exists, has no surrogate, and the destination has room for it); otherwise
 * exactly the output bytes are written. Nothing at or after dst + written is
 * ever modified.
 * Bounded destinations: when cap >= 3 * n the loop runs unchecked; otherwise
 * SIMD runs while the block surely fits (48 bytes) and scalar code finishes,
 * so a full destination stops exactly where TextEncoder.encodeInto stops.
 * Tail: the last < 16 units go to the scalar kernel (no loads past the end).
 * References: Lemire & Mula, "Transcoding billions of Unicode characters per
 * second with SIMD instructions", Software: Practice and Experience 2022. */
#ifndef __AVX2__
#error "avx2_* files must be compiled with the avx2 tier flags (UTFX_AVX2_FLAGS, sources.mk)"
#endif

#include "avx2_utf16_common.h"
#include "../x86_prototypes.h"

static inline utfx_result scalar16to8(const char16_t *s, size_t n, unsigned char *d, size_t cap,
                                      unsigned flags, int be) {
  return be ? utfxi_convert_utf16be_to_utf8_scalar(s, n, (char *)d, cap, flags)
            : utfxi_convert_utf16le_to_utf8_scalar(s, n, (char *)d, cap, flags);
}

UTFXI_INLINE utfx_result utf16_to_utf8_body(const char16_t *s, size_t n, unsigned char *d,
                                            size_t cap, unsigned flags, int be, int bounded) {
  size_t i = 0, w = 0, replaced = 0;
  utfx_result r;
  while (n - i >= 16) {
    __m256i v = a2_load16(s + i, be), nonascii;
    if (bounded && cap - w < 48) break;
    if (n - i >= 32) { /* ASCII runs: 32 units a step, in a loop of their own */
      __m256i v1 = a2_load16(s + i + 16, be), ff80 = _mm256_set1_epi16((short)0xFF80);
      if (_mm256_testz_si256(_mm256_or_si256(v, v1), ff80)) {
        for (;;) {
          __m256i packed = _mm256_permute4x64_epi64(_mm256_packus_epi16(v, v1), 0xD8);
          _mm256_storeu_si256((__m256i *)(d + w), packed); /* 32 bytes, room: 48 checked */
          i += 32;
          w += 32;
          if (n - i < 32 || (bounded && cap - w < 48)) break;
          v = a2_load16(s + i, be);
          v1 = a2_load16(s + i + 16, be);
          if (!_mm256_testz_si256(_mm256_or_si256(v, v1), ff80)) break;
        }
        continue;
      }
    }
    if (a2_any_surrogate(v)) {
      size_t len, take;
      __m256i cp;
      if (a2_aligned_pairs(v, &cp)) { /* 8 pairs: 8 x 4 bytes, exact */
        __m256i b0 = _mm256_srli_epi32(cp, 18);
        __m256i b1 = _mm256_and_si256(_mm256_srli_epi32(cp, 4), _mm256_set1_epi32(0x3F00));
        __m256i b2 = _mm256_and_si256(_mm256_slli_epi32(cp, 10), _mm256_set1_epi32(0x3F0000));
        __m256i b3 = _mm256_and_si256(_mm256_slli_epi32(cp, 24), _mm256_set1_epi32(0x3F000000));
        __m256i out = _mm256_or_si256(_mm256_or_si256(b0, b1), _mm256_or_si256(b2, b3));
        out = _mm256_or_si256(out, _mm256_set1_epi32((int)0x808080F0u));
        _mm256_storeu_si256((__m256i *)(d + w), out);
        i += 16;
        w += 32;
        continue;
      }
      take = a2_paired_units(v);
      if (take) { /* pairs among BMP units: 2 of a pair's 4 bytes per half */
        __m128i o[4];
        size_t e[4];
        int spill_pairs = n - i >= take + 16 && (!bounded || cap - w >= 96) &&
                          !a2_any_surrogate(a2_load16(s + i + take, be));
        a2_encode_paired_x16(v, take, o, e);
        a2_store_utf8_parts(d + w, o, e, spill_pairs);
        i += take;
        w += e[3];
        continue;
      }
      len = a2_scalar_region(s, n, i, be);
      r = scalar16to8(s + i, len, d + w, cap - w, flags, be);
      replaced += r.replaced;
      if (r.status != UTFX_OK) return utfxi_result(r.status, i + r.read, w + r.written, replaced);
      i += len;
      w += r.written;
      continue;
    }
    nonascii = _mm256_and_si256(v, _mm256_set1_epi16((short)0xFF80));
    if (_mm256_testz_si256(nonascii, nonascii)) {
      __m128i packed = _mm_packus_epi16(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1));
      _mm_storeu_si128((__m128i *)(d + w), packed);
      i += 16;
      w += 16;
      continue;
    }
    if (_mm256_testz_si256(v, _mm256_set1_epi16((short)0xF800)))
      a2_utf8_run_below800(s, n, &i, d, cap, &w, v, be ? A2_UTF16BE : A2_UTF16LE, bounded, 48);
    else
      a2_utf8_run_bmp(s, n, &i, d, cap, &w, v, be ? A2_UTF16BE : A2_UTF16LE, bounded, 48);
  }
  if (i == n) return utfxi_result(UTFX_OK, n, w, replaced);
  r = scalar16to8(s + i, n - i, d + w, cap - w, flags, be);
  return utfxi_result(r.status, i + r.read, w + r.written, replaced + r.replaced);
}

UTFXI_INLINE utfx_result utf16_to_utf8(const char16_t *s, size_t n, char *dst, size_t cap,
                                       unsigned flags, int be) {
  unsigned char *d = (unsigned char *)dst;
  if (cap / 3 >= n) return utf16_to_utf8_body(s, n, d, cap, flags, be, 0);
  return utf16_to_utf8_body(s, n, d, cap, flags, be, 1);
}

utfx_result utfxi_convert_utf16le_to_utf8_avx2(const char16_t *s, size_t n, char *d, size_t cap,
                                               unsigned flags) {
  return utf16_to_utf8(s, n, d, cap, flags, 0);
}
utfx_result utfxi_convert_utf16be_to_utf8_avx2(const char16_t *s, size_t n, char *d, size_t cap,
                                               unsigned flags) {
  return utf16_to_utf8(s, n, d, cap, flags, 1);
}
