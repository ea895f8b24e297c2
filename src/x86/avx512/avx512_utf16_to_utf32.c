/* AVX-512 UTF-16LE/BE to UTF-32, STRICT and REPLACE, bounded destinations.
 *
 * A block of 32 units without surrogates zero-extends to 2 x 16 code points.
 * With surrogates, each unit is paired against the unit after it (a second
 * load, one unit on): the high surrogate's lane gets the pair's code point,
 * the low surrogate's lane is dropped with vpcompressd, in this block or (a
 * pair across two) the next. Near the end of the input or destination the
 * pair analysis of avx512_utf16_common.h takes a block that ends in a high
 * surrogate one unit short instead. A lone surrogate is U+FFFD in REPLACE
 * mode; in STRICT mode the rest goes to the scalar kernel, as does the first
 * block that does not fit in the destination (its exact output count is
 * known before the store). Block: 32 units. Tail: masked loads and stores.
 * References: Lemire & Mula 2022; Clausecker & Lemire 2023. */
#ifndef __AVX512VBMI2__
#error "avx512_* files must be compiled with the avx512 tier flags (UTFX_AVX512_FLAGS, sources.mk)"
#endif

#include "avx512_utf16_common.h"
#include "../x86_prototypes.h"

/* Writes the 32 units v as UTF-32 at d, dropping the units not in `keep`:
 * a unit in `pair` (a high surrogate) is combined with the unit in the
 * same lane of nx (its low surrogate). Returns the code points written.
 * `whole`: keep has at least 16 units (a block of 32 drops at most 16 low
 * surrogates), so the first half's store can be a plain one of 16 values:
 * the second half's store covers what it writes past its own values. */
static inline size_t store_utf32(char32_t *d, __m512i v, __m512i nx, __mmask32 pair,
                                 __mmask32 keep, __m512i pair_bias, int whole) {
  unsigned len0 = (unsigned)_mm_popcnt_u32(keep & 0xFFFF);
  unsigned len1 = (unsigned)_mm_popcnt_u32(keep >> 16);
  __m512i c0 = _mm512_cvtepu16_epi32(_mm512_castsi512_si256(v));
  __m512i c1 = _mm512_cvtepu16_epi32(_mm512_extracti64x4_epi64(v, 1));
  __m512i n0 = _mm512_cvtepu16_epi32(_mm512_castsi512_si256(nx));
  __m512i n1 = _mm512_cvtepu16_epi32(_mm512_extracti64x4_epi64(nx, 1));
  c0 = _mm512_mask_sub_epi32(c0, (__mmask16)pair,
                             _mm512_add_epi32(_mm512_slli_epi32(c0, 10), n0), pair_bias);
  c1 = _mm512_mask_sub_epi32(c1, (__mmask16)(pair >> 16),
                             _mm512_add_epi32(_mm512_slli_epi32(c1, 10), n1), pair_bias);
  c0 = _mm512_maskz_compress_epi32((__mmask16)keep, c0);
  if (whole)
    _mm512_storeu_si512(d, c0);
  else
    _mm512_mask_storeu_epi32(d, (__mmask16)_bzhi_u32(0xFFFF, len0), c0);
  _mm512_mask_storeu_epi32(d + len0, (__mmask16)_bzhi_u32(0xFFFF, len1),
                           _mm512_maskz_compress_epi32((__mmask16)(keep >> 16), c1));
  return (size_t)len0 + len1;
}

/* The 16 units of v (host order) as 16 code points at d: two 256-bit stores,
 * kept in address order (the empty asm stops the compiler moving stores past
 * each other; stores that fill a cache line one after the other ran faster
 * than the same stores interleaved over lines: docs/perf-decisions.md,
 * 'UTF-16 -> UTF-32'). */
static inline void put_zx16(char32_t *d, __m256i v) {
  _mm256_storeu_si256((__m256i *)(void *)d, _mm256_cvtepu16_epi32(_mm256_castsi256_si128(v)));
  __asm__("" ::: "memory");
  _mm256_storeu_si256((__m256i *)(void *)(d + 8),
                      _mm256_cvtepu16_epi32(_mm256_extracti128_si256(v, 1)));
  __asm__("" ::: "memory");
}

/* v (16 units as in memory) as host-order values. */
static inline __m256i host16x16(__m256i v, int be) {
  return be ? _mm256_shuffle_epi8(v, _mm256_broadcastsi128_si256(_mm_setr_epi8(
                                         1, 0, 3, 2, 5, 4, 7, 6, 9, 8, 11, 10, 13, 12, 15, 14)))
            : v;
}

/* Loads the 64 units at p into v0..v3, bytes as in memory; returns whether
 * none is a surrogate. A unit is one iff its high byte + 0x28 (mod 2^8) is
 * below 8: bias and below hold 0x28 and 8 at the high byte of each unit as
 * it lies in memory, 0 at the other (LE: 0x2800 / 0x0800, BE: 0x0028 /
 * 0x0008), so byte adds and one unsigned byte minimum test all four
 * vectors with no byte swap (a block that fails costs no swaps). */
static inline int load64_clean(const char16_t *p, __m256i bias, __m256i below, __m256i *v0,
                               __m256i *v1, __m256i *v2, __m256i *v3) {
  *v0 = _mm256_loadu_si256((const __m256i *)(const void *)p);
  *v1 = _mm256_loadu_si256((const __m256i *)(const void *)(p + 16));
  *v2 = _mm256_loadu_si256((const __m256i *)(const void *)(p + 32));
  *v3 = _mm256_loadu_si256((const __m256i *)(const void *)(p + 48));
  return !_mm256_cmplt_epu8_mask(
      _mm256_min_epu8(_mm256_min_epu8(_mm256_add_epi8(*v0, bias), _mm256_add_epi8(*v1, bias)),
                      _mm256_min_epu8(_mm256_add_epi8(*v2, bias), _mm256_add_epi8(*v3, bias))),
      below);
}

UTFXI_INLINE utfx_result utf16_to_utf32(const char16_t *s, size_t n, char32_t *d, size_t cap,
                                     unsigned flags, int be) {
  const __m512i next_index =
      _mm512_set_epi16(31, 31, 30, 29, 28, 27, 26, 25, 24, 23, 22, 21, 20, 19, 18, 17, 16, 15, 14,
                       13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1);
  __m512i pair_bias = _mm512_set1_epi32((0xD800 << 10) + 0xDC00 - 0x10000);
  struct a512_u16_consts uc;
  __m256i bias = _mm256_set1_epi16(be ? 0x0028 : 0x2800);
  __m256i c800 = _mm256_set1_epi16(be ? 0x0008 : 0x0800);
  size_t i = 0, w = 0, replaced = 0, slow_until = 0, backoff = 64;
  uint32_t carry = 0; /* 1: the unit at i is a low surrogate whose pair is written */
  a512_u16_consts_init(&uc);
  V_LOADED(bias);
  V_LOADED(c800);
  V_LOADED(pair_bias);
  while (i < n) {
    size_t k = n - i < 32 ? n - i : 32;
    __mmask32 m;
    __m512i v, c0, c1;
    if (i >= slow_until && n - i >= 64 && cap - w >= 64) {
      size_t skew = (size_t)((uintptr_t)(d + w) % 64), start = i;
      __m256i v0, v1, v2, v3;
      int clean = load64_clean(s + i, bias, c800, &v0, &v1, &v2, &v3);
      if (clean && skew && skew % 4 == 0) {
        /* A short block (no surrogates) first, so that the stores below start
         * on a cache line: four stores per 128 input bytes make this loop
         * store-bound, and a store across two lines costs two
         * (docs/perf-decisions.md, 'UTF-16 -> UTF-32'). */
        k = (64 - skew) / 4;
      } else {
        /* 64 units without surrogates a step: zero extension, plain stores,
         * in a loop of its own that keeps nothing but i and w. 256-bit loads
         * and stores, not 512-bit ones: this store-bound loop ran faster so
         * on Intel (docs/perf-decisions.md, 'UTF-16 -> UTF-32'). */
        while (clean) {
          put_zx16(d + w, host16x16(v0, be));
          put_zx16(d + w + 16, host16x16(v1, be));
          put_zx16(d + w + 32, host16x16(v2, be));
          put_zx16(d + w + 48, host16x16(v3, be));
          i += 64;
          w += 64;
          if (n - i < 64 || cap - w < 64) break;
          clean = load64_clean(s + i, bias, c800, &v0, &v1, &v2, &v3);
        }
        if (i != start) backoff = 64;
        if (!clean) {
          /* surrogates: go block by block for a while, longer each time */
          slow_until = i + backoff;
          backoff = backoff < 4096 ? 2 * backoff : backoff;
        }
        continue;
      }
    }
    if (n - i >= 33 && cap - w >= 32 && (i < slow_until || n - i < 64 || cap - w < 64)) {
      /* Blocks of 32 units while the region with surrogates lasts (or near
       * the end), each with the unit after it and room for 32 values: plain
       * loads and stores, in a loop of its own (Mixed text: most of its
       * blocks have no surrogate). */
      int stop = 0;
      do {
        __m512i nx;
        uint32_t hi, lo, pair, paired_lo, bad, keep;
        v = a512_load16(s + i, 32, be);
        if (!a512_surrogates(v, &uc)) { /* no carry either: that is a surrogate */
          _mm512_storeu_si512(d + w, _mm512_cvtepu16_epi32(_mm512_castsi512_si256(v)));
          _mm512_storeu_si512(d + w + 16, _mm512_cvtepu16_epi32(_mm512_extracti64x4_epi64(v, 1)));
          i += 32;
          w += 32;
          continue;
        }
        /* Surrogates, at a fixed step of 32 units: each unit is paired
         * against the unit one on (a second load), so a pair across blocks
         * is seen whole and its code point made in the high surrogate's
         * lane; the next block drops the low one (`carry`). No load waits
         * for this block's analysis (emoji: every block has pairs). */
        nx = a512_load16(s + i + 1, 32, be);
        hi = _mm512_cmpeq_epi16_mask(_mm512_and_si512(v, uc.fc00), uc.d800);
        lo = _mm512_cmpeq_epi16_mask(_mm512_and_si512(v, uc.fc00), uc.dc00);
        pair = hi & _mm512_cmpeq_epi16_mask(_mm512_and_si512(nx, uc.fc00), uc.dc00);
        paired_lo = pair << 1 | carry;
        bad = (hi & ~pair) | (lo & ~paired_lo);
        if (bad) {
          if (!(flags & UTFX_REPLACE)) {
            i += carry; /* that low surrogate's pair is written */
            carry = 0;
            stop = 1;
            break;
          }
          v = _mm512_mask_mov_epi16(v, bad, _mm512_set1_epi16((short)0xFFFD));
        }
        if (!bad && pair == hi && hi == (carry ? 0xAAAAAAAAu : 0x55555555u)) {
          /* 16 pairs in the 32-bit lanes of v (of nx, one unit on, when the
           * block starts with a carried low half): each lane's code point in
           * place, one plain store, no compress (docs/perf-decisions.md,
           * 'UTF-16 -> UTF-32') */
          __m512i x = carry ? nx : v;
          __m512i cp = _mm512_sub_epi32(
              _mm512_add_epi32(_mm512_srli_epi32(_mm512_slli_epi32(x, 16), 6), /* high << 10 */
                               _mm512_srli_epi32(x, 16)),
              pair_bias);
          _mm512_storeu_si512(d + w, cp);
          w += 16;
        } else {
          keep = ~(lo & paired_lo);
          w += store_utf32(d + w, v, nx, pair, keep, pair_bias, 1);
          replaced += (size_t)_mm_popcnt_u32(bad);
        }
        carry = pair >> 31;
        i += 32;
      } while (i < slow_until && n - i >= 33 && cap - w >= 32);
      if (stop) break;
      continue;
    }
    m = a512_mask32(k);
    v = a512_load16(s + i, k, be);
    if (!a512_surrogates(v, &uc)) {
      if (cap - w < k) break;
      c0 = _mm512_cvtepu16_epi32(_mm512_castsi512_si256(v));
      c1 = _mm512_cvtepu16_epi32(_mm512_extracti64x4_epi64(v, 1));
      _mm512_mask_storeu_epi32(d + w, (__mmask16)m, c0);
      _mm512_mask_storeu_epi32(d + w + 16, (__mmask16)(m >> 16), c1);
      i += k;
      w += k;
      continue;
    }
    if (carry) { /* the low surrogate at i is written, with its pair */
      i++;
      carry = 0;
      continue;
    }
    {
      struct a512_pairs p = a512_analyse(v, k, n - i > k, &uc);
      __mmask32 keep;
      if (p.bad) {
        if (!(flags & UTFX_REPLACE)) break;
        v = _mm512_mask_mov_epi16(v, p.bad, _mm512_set1_epi16((short)0xFFFD));
      }
      keep = (__mmask32)(a512_mask32(p.adv) & ~p.lo);
      if (cap - w < (size_t)_mm_popcnt_u32(keep)) break;
      w += store_utf32(d + w, v, _mm512_permutexvar_epi16(next_index, v), p.hi, keep, pair_bias, 0);
      replaced += (size_t)_mm_popcnt_u32(p.bad);
      i += p.adv;
    }
  }
  if (i < n) {
    utfx_result r = be ? utfxi_convert_utf16be_to_utf32_scalar(s + i, n - i, d + w, cap - w, flags)
                       : utfxi_convert_utf16le_to_utf32_scalar(s + i, n - i, d + w, cap - w, flags);
    r.read += i;
    r.written += w;
    r.replaced += replaced;
    return r;
  }
  return utfxi_result(UTFX_OK, n, w, replaced);
}

utfx_result utfxi_convert_utf16le_to_utf32_avx512(const char16_t *s, size_t n, char32_t *d,
                                                  size_t cap, unsigned flags) {
  return utf16_to_utf32(s, n, d, cap, flags, 0);
}
utfx_result utfxi_convert_utf16be_to_utf32_avx512(const char16_t *s, size_t n, char32_t *d,
                                                  size_t cap, unsigned flags) {
  return utf16_to_utf32(s, n, d, cap, flags, 1);
}
