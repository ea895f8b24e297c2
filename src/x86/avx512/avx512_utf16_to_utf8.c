/* AVX-512 UTF-16LE/BE to UTF-8, STRICT and REPLACE, bounded destinations.
 *
 * Algorithm, per block of up to 32 units (one zmm of 16-bit lanes):
 *  - all below 0x80: vpmovwb (two ASCII blocks: vpackuswb + vpermq, 64 bytes);
 *  - all below 0x800: each lane becomes its 1- or 2-byte form in place
 *    (lead byte low, trail byte high) and vpcompressb drops the unused high
 *    bytes of the ASCII lanes (the in-lane-then-compress idea of Clausecker &
 *    Lemire 2023); two such blocks per step when possible, for parallelism;
 *  - all 3 bytes, no surrogate (CJK): vpmultishiftqb pulls the 6-bit fields,
 *    a fixed vpermb packs 96 bytes, no compress;
 *  - 16 aligned pairs (emoji): one 4-byte sequence per 32-bit lane, 64 bytes;
 *  - otherwise the block is widened to 2 x 16 32-bit lanes; a valid pair is
 *    combined into one code point in the high surrogate's lane and its low
 *    surrogate's lane produces nothing; each lane is encoded in place and
 *    compressed (a512_encode_utf8_x16). A lone surrogate becomes U+FFFD in
 *    REPLACE mode (EF BF BD, in the vector code, so rare errors stay fast);
 *    in STRICT mode the rest is handed to the scalar kernel, which stops at
 *    the error with the exact offsets.
 * A block never ends inside a pair: a trailing high surrogate is left to the
 * next block (a512_analyse).
 * Bounded destinations: when cap >= 3 * n nothing can overflow and the loop
 * runs unchecked; otherwise each block's exact output length is known before
 * it is stored, and the first block that does not fit is handed, with the
 * rest of the input, to the scalar kernel (it stops within that block at a
 * whole character, never splitting a pair), so the result equals
 * TextEncoder.encodeInto exactly.
 * Stores: the last store of a step is masked to the exact output length; an
 * earlier store of the same step may be a plain 64-byte store only when the
 * later store's bytes cover what it spills (masked stores cost more:
 * docs/perf-decisions.md, 'UTF-16 -> UTF-8'). So nothing at or after
 * dst + written is ever touched. Loads are plain for whole blocks and masked
 * at the tail.
 * References: Lemire & Mula 2022; Clausecker & Lemire 2023 (see
 * avx512_utf16_common.h). */
#ifndef __AVX512VBMI2__
#error "avx512_* files must be compiled with the avx512 tier flags (UTFX_AVX512_FLAGS, sources.mk)"
#endif

#include "avx512_utf16_common.h"
#include "../x86_prototypes.h"

static inline utfx_result finish_scalar(const char16_t *s, size_t n, unsigned char *d, size_t cap,
                                        unsigned flags, int be, size_t i, size_t w,
                                        size_t replaced) {
  utfx_result r =
      be ? utfxi_convert_utf16be_to_utf8_scalar(s + i, n - i, (char *)d + w, cap - w, flags)
         : utfxi_convert_utf16le_to_utf8_scalar(s + i, n - i, (char *)d + w, cap - w, flags);
  r.read += i;
  r.written += w;
  r.replaced += replaced;
  return r;
}

UTFXI_INLINE utfx_result utf16_to_utf8_body(const char16_t *s, size_t n, unsigned char *d, size_t cap,
                                         unsigned flags, int be, int bounded) {
  const __m512i next_index =
      _mm512_set_epi16(31, 31, 30, 29, 28, 27, 26, 25, 24, 23, 22, 21, 20, 19, 18, 17, 16, 15, 14,
                       13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1);
  /* (hi << 10) + lo - pair_bias is the code point of the pair (hi, lo). */
  const __m512i qword_order = _mm512_setr_epi64(0, 2, 4, 6, 1, 3, 5, 7);
  const __m512i pair_bias = _mm512_set1_epi32((0xD800 << 10) + 0xDC00 - 0x10000);
  __m512i c80 = _mm512_set1_epi16(0x80), c800 = _mm512_set1_epi16(0x800);
  __m512i c3f00 = _mm512_set1_epi16(0x3F00), c80c0 = _mm512_set1_epi16((short)0x80C0);
  __m512i c3ff = _mm512_set1_epi32(0x3FF), c10000 = _mm512_set1_epi32(0x10000);
  struct a512_utf8_consts uk;
  struct a512_u16_consts uc;
  size_t i = 0, w = 0, replaced = 0;
  a512_utf8_consts_init(&uk);
  a512_u16_consts_init(&uc);
  V_LOADED(c3ff);
  V_LOADED(c10000);
  V_LOADED(c80);
  V_LOADED(c800);
  V_LOADED(c3f00);
  V_LOADED(c80c0);
  while (i < n) {
    size_t k = n - i < 32 ? n - i : 32;
    __mmask32 m = a512_mask32(k);
    __m512i v = a512_load16(s + i, k, be);
    __mmask32 nonascii = _mm512_cmpge_epu16_mask(v, c80);
    __mmask32 big;
    if (!nonascii) {
      if (n - i >= 64 && (!bounded || cap - w >= 64)) {
        /* two ASCII blocks: vpackuswb + vpermq, one plain 64-byte store */
        __m512i b = a512_load16(s + i + 32, 32, be);
        if (!_mm512_cmpge_epu16_mask(b, c80)) {
          _mm512_storeu_si512(d + w,
                              _mm512_permutexvar_epi64(qword_order, _mm512_packus_epi16(v, b)));
          i += 64;
          w += 64;
          continue;
        }
      }
      if (bounded && cap - w < k) break;
      _mm256_mask_storeu_epi8(d + w, m, _mm512_cvtepi16_epi8(v));
      i += k;
      w += k;
      continue;
    }
    big = _mm512_cmpge_epu16_mask(v, c800);
    if (!big && n - i >= 64 && (!bounded || cap - w >= 128)) {
      __m512i v1 = a512_load16(s + i + 32, 32, be);
      __mmask32 nonascii1 = _mm512_cmpge_epu16_mask(v1, c80);
      if (!_mm512_cmpge_epu16_mask(v1, c800)) {
        /* two blocks below 0x800: independent compresses; the second
         * block's store covers what the first one's plain store spills */
        size_t len0 = 32 + (size_t)_mm_popcnt_u32(nonascii);
        size_t len1 = 32 + (size_t)_mm_popcnt_u32(nonascii1);
        __m512i two0 = _mm512_ternarylogic_epi32(
            _mm512_srli_epi16(v, 6), _mm512_and_si512(_mm512_slli_epi16(v, 8), c3f00), c80c0, 0xFE);
        __m512i two1 = _mm512_ternarylogic_epi32(_mm512_srli_epi16(v1, 6),
                                                 _mm512_and_si512(_mm512_slli_epi16(v1, 8), c3f00),
                                                 c80c0, 0xFE);
        __m512i w0 = _mm512_mask_mov_epi16(v, nonascii, two0);
        __m512i w1 = _mm512_mask_mov_epi16(v1, nonascii1, two1);
        __m512i out0 =
            _mm512_maskz_compress_epi8(_mm512_movepi8_mask(w0) | 0x5555555555555555ull, w0);
        __m512i out1 =
            _mm512_maskz_compress_epi8(_mm512_movepi8_mask(w1) | 0x5555555555555555ull, w1);
        _mm512_storeu_si512(d + w, out0);
        _mm512_mask_storeu_epi8(d + w + len0, a512_mask64(len1), out1);
        i += 64;
        w += len0 + len1;
        continue;
      }
    }
    if (!big) {
      size_t len = k + (size_t)_mm_popcnt_u32(nonascii);
      __m512i two = _mm512_ternarylogic_epi32(
          _mm512_srli_epi16(v, 6), _mm512_and_si512(_mm512_slli_epi16(v, 8), c3f00), c80c0, 0xFE);
      __m512i words = _mm512_mask_mov_epi16(v, nonascii, two);
      /* the first byte of every lane, and every byte with its top bit set
       * (both bytes of a 2-byte form) */
      __mmask64 lanes = k == 32 ? 0x5555555555555555ull : _pdep_u64(m, 0x5555555555555555ull);
      __m512i out = _mm512_maskz_compress_epi8(_mm512_movepi8_mask(words) | lanes, words);
      if (bounded && cap - w < len) break;
      _mm512_mask_storeu_epi8(d + w, a512_mask64(len), out);
      i += k;
      w += len;
      continue;
    }
    if (big == 0xFFFFFFFFu && !a512_surrogates(v, &uc) && (!bounded || cap - w >= 96)) {
      /* 32 units of 3 bytes each: fixed layout, so no compress (CJK text) */
      const __m512i squeeze = _mm512_set_epi8(
          63, 62, 61, 60, 59, 58, 57, 56, 55, 54, 53, 52, 51, 50, 49, 48, 62, 61, 60, 58, 57, 56,
          54, 53, 52, 50, 49, 48, 46, 45, 44, 42, 41, 40, 38, 37, 36, 34, 33, 32, 30, 29, 28, 26,
          25, 24, 22, 21, 20, 18, 17, 16, 14, 13, 12, 10, 9, 8, 6, 5, 4, 2, 1, 0);
      size_t h;
      for (h = 0; h < 2; h++) {
        __m512i c =
            _mm512_cvtepu16_epi32(h ? _mm512_extracti64x4_epi64(v, 1) : _mm512_castsi512_si256(v));
        __m512i out = _mm512_permutexvar_epi8(
            squeeze, _mm512_ternarylogic_epi32(_mm512_multishift_epi64_epi8(uk.ctrl3, c), uk.fields,
                                               uk.mark3, 0xEA));
        _mm256_storeu_si256((__m256i *)(d + w), _mm512_castsi512_si256(out));
        _mm_storeu_si128((__m128i *)(d + w + 32), _mm512_extracti32x4_epi32(out, 2));
        w += 48;
      }
      i += 32;
      continue;
    }
    {
      struct a512_pairs p = {0, 0, 0, k};
      __m512i next = v, out0, out1;
      __mmask32 drop = (__mmask32)~m;
      unsigned len0, len1;
      if (a512_surrogates(v, &uc)) {
        p = a512_analyse(v, k, n - i > k, &uc);
        /* (One test of both masks in a register: GCC merged the two tests
         * into a 64-bit load of the struct just stored as two 32-bit
         * halves, a store-forwarding stall on every block with a
         * surrogate.) */
        if ((((uint64_t)p.lo << 32 | p.hi) == 0xAAAAAAAA55555555u) && (!bounded || cap - w >= 64)) {
          /* 16 pairs, each in one 32-bit lane: 64 bytes of 4-byte sequences */
          __m512i cp = _mm512_add_epi32(
              _mm512_ternarylogic_epi32(_mm512_slli_epi32(_mm512_and_si512(v, c3ff), 10),
                                        _mm512_srli_epi32(v, 16), c3ff, 0xF8),
              c10000);
          __m512i out = _mm512_ternarylogic_epi32(_mm512_multishift_epi64_epi8(uk.ctrl4, cp),
                                                  uk.fields, uk.mark4, 0xEA);
          _mm512_storeu_si512(d + w, out);
          i += 32;
          w += 64;
          continue;
        }
        if (p.bad) {
          if (!(flags & UTFX_REPLACE)) break;
          v = _mm512_mask_mov_epi16(v, p.bad, _mm512_set1_epi16((short)0xFFFD));
        }
        next = _mm512_permutexvar_epi16(next_index, v);
        drop = (__mmask32)(drop | p.lo | (p.adv < k ? 1u << (k - 1) : 0));
      }
      {
        __m512i c0 = _mm512_cvtepu16_epi32(_mm512_castsi512_si256(v));
        __m512i c1 = _mm512_cvtepu16_epi32(_mm512_extracti64x4_epi64(v, 1));
        if (p.hi) {
          __m512i n0 = _mm512_cvtepu16_epi32(_mm512_castsi512_si256(next));
          __m512i n1 = _mm512_cvtepu16_epi32(_mm512_extracti64x4_epi64(next, 1));
          __m512i cp0 =
              _mm512_sub_epi32(_mm512_add_epi32(_mm512_slli_epi32(c0, 10), n0), pair_bias);
          __m512i cp1 =
              _mm512_sub_epi32(_mm512_add_epi32(_mm512_slli_epi32(c1, 10), n1), pair_bias);
          c0 = _mm512_mask_mov_epi32(c0, (__mmask16)p.hi, cp0);
          c1 = _mm512_mask_mov_epi32(c1, (__mmask16)(p.hi >> 16), cp1);
        }
        if (drop) {
          out0 = a512_encode_utf8_x16(c0, (__mmask16)drop, &len0, &uk);
          out1 = a512_encode_utf8_x16(c1, (__mmask16)(drop >> 16), &len1, &uk);
        } else { /* whole block, no pairs: the common case, with constant masks */
          out0 = a512_encode_utf8_x16_bmp(c0, 0, &len0, &uk);
          out1 = a512_encode_utf8_x16_bmp(c1, 0, &len1, &uk);
        }
      }
      if (bounded && cap - w < (size_t)len0 + len1) break;
      /* out0 may spill when out1's bytes cover the spill (and then the
       * spill is inside the output, so inside cap) */
      if (len0 + len1 >= 64)
        _mm512_storeu_si512(d + w, out0);
      else
        _mm512_mask_storeu_epi8(d + w, a512_mask64(len0), out0);
      _mm512_mask_storeu_epi8(d + w + len0, a512_mask64(len1), out1);
      w += (size_t)len0 + len1;
      replaced += (size_t)_mm_popcnt_u32(p.bad);
      i += p.adv;
    }
  }
  if (i < n) return finish_scalar(s, n, d, cap, flags, be, i, w, replaced);
  return utfxi_result(UTFX_OK, n, w, replaced);
}

UTFXI_INLINE utfx_result utf16_to_utf8(const char16_t *s, size_t n, char *dst, size_t cap,
                                    unsigned flags, int be) {
  unsigned char *d = (unsigned char *)dst;
  if (cap / 3 >= n) return utf16_to_utf8_body(s, n, d, cap, flags, be, 0);
  return utf16_to_utf8_body(s, n, d, cap, flags, be, 1);
}

utfx_result utfxi_convert_utf16le_to_utf8_avx512(const char16_t *s, size_t n, char *d, size_t cap,
                                                 unsigned flags) {
  return utf16_to_utf8(s, n, d, cap, flags, 0);
}
utfx_result utfxi_convert_utf16be_to_utf8_avx512(const char16_t *s, size_t n, char *d, size_t cap,
                                                 unsigned flags) {
  return utf16_to_utf8(s, n, d, cap, flags, 1);
}
