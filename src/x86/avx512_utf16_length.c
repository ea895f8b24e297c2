/* AVX-512 exact UTF-8 lengths of the UTFX_REPLACE conversions from UTF-16LE/BE,
 * Latin-1 and UTF-32.
 *
 * UTF-16: each unit counts 1 + (unit >= 0x80) + (unit >= 0x800) bytes, which
 * is right for everything except a well-formed pair (3 + 3 counted, 4
 * written): a block with surrogates subtracts 2 per pair found by the pair
 * analysis (a lone surrogate is U+FFFD, 3 bytes, as counted). Latin-1: n plus
 * the number of bytes >= 0x80. UTF-32: 1 + (>= 0x80) + (>= 0x800) +
 * (>= 0x10000 and <= 0x10FFFF); surrogates and values above U+10FFFF count 3
 * (U+FFFD). Counts are mask popcounts, summed per chunk of UTFXI_LENGTH_CHUNK
 * units and added with saturation, so results never wrap.
 * Block: 32 units / 64 bytes / 16 code points, 2-4 blocks per iteration on
 * surrogate-free text. Tail: masked loads.
 * References: Lemire & Mula 2022 (see avx512_utf16_validate.c). */
#ifndef __AVX512VBMI2__
#error "avx512_* files must be compiled with the avx512 tier flags (Makefile AVX512_FLAGS)"
#endif

#include "avx512_utf16_common.h"
#include "x86_prototypes.h"

/* Extra bytes of a block of 16-bit units beyond one per unit (surrogates
 * counted as 3-byte units). */
static inline size_t extra16(__m512i v, __m512i c80, __m512i c800) {
  __mmask32 a = _mm512_cmpge_epu16_mask(v, c80);
  __mmask32 b = _mm512_cmpge_epu16_mask(v, c800);
  return (size_t)_mm_popcnt_u32(a) + (size_t)_mm_popcnt_u32(b);
}

A512_BODY size_t utf8_length_from_utf16_body(const char16_t *s, size_t n, int be) {
  __m512i c80 = _mm512_set1_epi16(0x80), c800 = _mm512_set1_epi16(0x800);
  __m512i bias = _mm512_set1_epi16(0x2800); /* maps surrogates, only them, below 0x800 */
  struct a512_u16_consts uc;
  /* after a group with surrogates, go block by block for `backoff` units,
   * doubled after each failed group (surrogate-dense text) */
  size_t i = 0, total = 0, slow_until = 0, backoff = 128;
  uint32_t carry = 0;
  const __m512i pairs_even = _mm512_set1_epi32((int)0xDC00D800u);
  const __m512i pairs_odd = _mm512_set1_epi32((int)0xD800DC00u);
  a512_u16_consts_init(&uc);
  A512_PIN(c80);
  A512_PIN(c800);
  A512_PIN(bias);
  while (i < n) {
    size_t end = n - i > UTFXI_LENGTH_CHUNK ? i + UTFXI_LENGTH_CHUNK : n, count = 0;
    while (i < end) {
      size_t k;
      __m512i v;
      if (!carry && i >= slow_until && end - i >= 128) {
        __m512i a = _mm512_loadu_si512(s + i), b = _mm512_loadu_si512(s + i + 32);
        __m512i c = _mm512_loadu_si512(s + i + 64), d = _mm512_loadu_si512(s + i + 96);
        __m512i low;
        if (be) {
          a = a512_bswap16(a);
          b = a512_bswap16(b);
          c = a512_bswap16(c);
          d = a512_bswap16(d);
        }
        low = _mm512_min_epu16(
            _mm512_min_epu16(_mm512_add_epi16(a, bias), _mm512_add_epi16(b, bias)),
            _mm512_min_epu16(_mm512_add_epi16(c, bias), _mm512_add_epi16(d, bias)));
        if (!_mm512_cmplt_epu16_mask(low, c800)) {
          count += 128 + extra16(a, c80, c800) + extra16(b, c80, c800) + extra16(c, c80, c800) +
                   extra16(d, c80, c800);
          i += 128;
          backoff = 128;
          continue;
        }
        slow_until = i + backoff;
        backoff = backoff < 4096 ? 2 * backoff : backoff;
      }
      k = n - i < 32 ? n - i : 32;
      v = a512_load16(s + i, k, be);
      {
        /* whole blocks always; a pair split by the block boundary is found
         * through `carry` (the unit before i is a high surrogate) */
        __m512i top = _mm512_and_si512(v, uc.fc00);
        uint32_t hi, lo, pairs;
        /* 16 whole pairs in step with the block, or shifted by one unit
         * after a carried high (then the block ends with a high again):
         * 64 bytes either way, carry unchanged */
        if (k == 32 && !_mm512_cmpneq_epi16_mask(top, carry ? pairs_odd : pairs_even) &&
            (!carry || n - i > 32)) {
          count += 64;
          i += 32;
          continue;
        }
        hi = _mm512_cmpeq_epi16_mask(top, uc.d800);
        lo = _mm512_cmpeq_epi16_mask(top, uc.dc00);
        pairs = (hi & (lo >> 1)) | (carry & lo);
        count += k + extra16(v, c80, c800) - 2 * (size_t)_mm_popcnt_u32(pairs);
        carry = hi >> 31;
        i += k;
      }
    }
    total = utfxi_add_sat(total, count);
  }
  return total;
}

size_t utfxi_utf8_length_from_utf16le_avx512(const char16_t *s, size_t n) {
  return utf8_length_from_utf16_body(s, n, 0);
}
size_t utfxi_utf8_length_from_utf16be_avx512(const char16_t *s, size_t n) {
  return utf8_length_from_utf16_body(s, n, 1);
}

size_t utfxi_utf8_length_from_latin1_avx512(const char *s, size_t n) {
  /* n plus the bytes >= 0x80: vpsadbw sums the top bits (0 or 0x80 per byte)
   * into 64-bit lanes, all in vector registers; the sum is 0x80 per byte. */
  __m512i c80 = _mm512_set1_epi8((char)0x80), zero = _mm512_setzero_si512();
  __m512i acc0 = zero, acc1 = zero;
  size_t i = 0, high;
  A512_PIN(c80);
  for (; n - i >= 256; i += 256) {
    __m512i a = _mm512_and_si512(_mm512_loadu_si512(s + i), c80);
    __m512i b = _mm512_and_si512(_mm512_loadu_si512(s + i + 64), c80);
    __m512i c = _mm512_and_si512(_mm512_loadu_si512(s + i + 128), c80);
    __m512i d = _mm512_and_si512(_mm512_loadu_si512(s + i + 192), c80);
    acc0 = _mm512_add_epi64(acc0,
                            _mm512_add_epi64(_mm512_sad_epu8(a, zero), _mm512_sad_epu8(b, zero)));
    acc1 = _mm512_add_epi64(acc1,
                            _mm512_add_epi64(_mm512_sad_epu8(c, zero), _mm512_sad_epu8(d, zero)));
  }
  high = (size_t)_mm512_reduce_add_epi64(_mm512_add_epi64(acc0, acc1)) >> 7;
  for (; i < n; i += 64) {
    size_t k = n - i < 64 ? n - i : 64;
    __m512i v = a512_load8(s + i, k);
    high += (size_t)_mm_popcnt_u64(_mm512_movepi8_mask(v));
  }
  return utfxi_add_sat(n, high);
}

size_t utfxi_utf8_length_from_utf32_avx512(const char32_t *s, size_t n) {
  /* Bytes beyond the first, from the float exponent: a code point v <= 2^24
   * converts exactly, its exponent field is 127 + floor(log2 v) (0 for
   * v = 0), and vpermb looks the extra bytes up by the low 6 bits of that
   * field: 0 for exponents <= 6, 1 for 7..10, 2 for 11..15, 3 for 16..20.
   * Values above 0x10FFFF would count wrongly: a maximum kept per chunk
   * spots them, and such a (rare) chunk is recounted by the scalar kernel. */
  __m512i table = _mm512_setr_epi32(0, 0x01010000, 0x02020101, 0x03020202, 0x03030303, 0, 0, 0, 0,
                                    0, 0, 0, 0, 0, 0, 0);
  __m512i cmax = _mm512_set1_epi32(0x10FFFF);
  size_t i = 0, total = 0;
  A512_PIN(table);
  A512_PIN(cmax);
  while (i < n) {
    size_t start = i, end = n - i > UTFXI_LENGTH_CHUNK ? i + UTFXI_LENGTH_CHUNK : n;
    __m512i top = _mm512_setzero_si512(), acc0 = top, acc1 = top;
    size_t count = end - i;
    for (; end - i >= 32; i += 32) {
      __m512i a = _mm512_loadu_si512(s + i), b = _mm512_loadu_si512(s + i + 16);
      __m512i ea = _mm512_srli_epi32(_mm512_castps_si512(_mm512_cvtepu32_ps(a)), 23);
      __m512i eb = _mm512_srli_epi32(_mm512_castps_si512(_mm512_cvtepu32_ps(b)), 23);
      top = _mm512_max_epu32(top, _mm512_max_epu32(a, b));
      acc0 = _mm512_add_epi32(acc0, _mm512_permutexvar_epi8(ea, table));
      acc1 = _mm512_add_epi32(acc1, _mm512_permutexvar_epi8(eb, table));
    }
    for (; i < end; i += 16) {
      size_t k = end - i < 16 ? end - i : 16;
      __m512i a = a512_load32(s + i, k);
      __m512i ea = _mm512_srli_epi32(_mm512_castps_si512(_mm512_cvtepu32_ps(a)), 23);
      top = _mm512_max_epu32(top, a);
      acc0 = _mm512_add_epi32(acc0, _mm512_permutexvar_epi8(ea, table));
    }
    count += (size_t)(uint32_t)_mm512_reduce_add_epi32(_mm512_add_epi32(acc0, acc1));
    if (_mm512_cmpgt_epu32_mask(top, cmax))
      count = utfxi_utf8_length_from_utf32_scalar(s + start, end - start);
    total = utfxi_add_sat(total, count);
  }
  return total;
}
