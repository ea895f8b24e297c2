/* AVX-512 UTF-16LE/BE validation and the well-formed repair.
 *
 * Algorithm: a surrogate test (unit & 0xF800 == 0xD800) on 4 x 32 units at a
 * time; text without surrogates never leaves that loop. A 32-unit block with
 * surrogates gets the pair analysis of avx512_utf16_common.h: high and low
 * surrogate masks, bad = high not followed by low | low not preceded by high.
 * A block that ends with a high surrogate leaves it to the next block, so
 * blocks always start on a character boundary. Validation hands a block with
 * an error to the scalar kernel (same offsets on every tier); the repair
 * writes U+FFFD into the bad lanes with a masked store, which also makes the
 * in-place repair of clean text store nothing.
 * Block: 32 units (128 in the surrogate-free loop). Tail: masked loads and
 * stores of the last k < 32 units, never touching memory past the buffers.
 * References: Lemire & Mula, "Transcoding billions of Unicode characters per
 * second with SIMD instructions" (2022); Clausecker & Lemire, "Transcoding
 * Unicode characters with AVX-512 instructions" (2023). */
#ifndef __AVX512VBMI2__
#error "avx512_* files must be compiled with the avx512 tier flags (Makefile AVX512_FLAGS)"
#endif

#include "avx512_utf16_common.h"
#include "x86_prototypes.h"

/* Nonzero if some unit of the 128 at s is a surrogate. Adding 0x2800
 * (mod 2^16) maps D800..DFFF, and only it, below 0x800: one add and one
 * unsigned minimum per vector and a single compare per 128 units (UTF-16BE
 * is byte-swapped first). */
static inline int any_surrogate_x128(const char16_t *s, int be, __m512i bias, __m512i c800) {
  __m512i a = _mm512_loadu_si512(s), b = _mm512_loadu_si512(s + 32);
  __m512i c = _mm512_loadu_si512(s + 64), d = _mm512_loadu_si512(s + 96);
  __m512i lo;
  if (be) {
    a = a512_bswap16(a);
    b = a512_bswap16(b);
    c = a512_bswap16(c);
    d = a512_bswap16(d);
  }
  lo = _mm512_min_epu16(_mm512_min_epu16(_mm512_add_epi16(a, bias), _mm512_add_epi16(b, bias)),
                        _mm512_min_epu16(_mm512_add_epi16(c, bias), _mm512_add_epi16(d, bias)));
  return _mm512_cmplt_epu16_mask(lo, c800) != 0;
}

/* The same test on 256 units, for validation (more loads in flight). */
static inline int any_surrogate_x256(const char16_t *s, int be, __m512i bias, __m512i c800) {
  __m512i lo0 = _mm512_set1_epi16(-1), lo1 = lo0;
  size_t j;
  for (j = 0; j < 256; j += 64) { /* two chains of minima */
    __m512i a = _mm512_loadu_si512(s + j), b = _mm512_loadu_si512(s + j + 32);
    if (be) {
      a = a512_bswap16(a);
      b = a512_bswap16(b);
    }
    lo0 = _mm512_min_epu16(lo0, _mm512_add_epi16(a, bias));
    lo1 = _mm512_min_epu16(lo1, _mm512_add_epi16(b, bias));
  }
  return _mm512_cmplt_epu16_mask(_mm512_min_epu16(lo0, lo1), c800) != 0;
}

A512_BODY utfx_result validate_body(const char16_t *s, size_t n, int be) {
  struct a512_u16_consts uc;
  /* after a group with surrogates, go block by block for `backoff` units,
   * doubled after each failed group (surrogate-dense text) */
  size_t i = 0, slow_until = 0, backoff = 128;
  __m512i bias = _mm512_set1_epi16(0x2800), c800 = _mm512_set1_epi16(0x800);
  a512_u16_consts_init(&uc);
  A512_PIN(bias);
  A512_PIN(c800);
  while (i < n) {
    size_t k;
    __m512i v;
    struct a512_pairs p;
    if (i >= slow_until && n - i >= 256) {
      if (!any_surrogate_x256(s + i, be, bias, c800)) {
        i += 256;
        backoff = 128;
        continue;
      }
      slow_until = i + backoff;
      backoff = backoff < 4096 ? 2 * backoff : backoff;
    }
    if (i >= slow_until && n - i >= 128) {
      if (!any_surrogate_x128(s + i, be, bias, c800)) {
        i += 128;
        backoff = 128;
        continue;
      }
      slow_until = i + backoff;
      backoff = backoff < 4096 ? 2 * backoff : backoff;
    }
    k = n - i < 32 ? n - i : 32;
    v = a512_load16(s + i, k, be);
    if (!a512_surrogates(v, &uc)) {
      i += k;
      continue;
    }
    p = a512_analyse(v, k, n - i > k, &uc);
    if (p.bad) {
      utfx_result r = be ? utfxi_validate_utf16be_scalar(s + i, n - i)
                         : utfxi_validate_utf16le_scalar(s + i, n - i);
      r.read += i;
      return r;
    }
    i += p.adv;
  }
  return utfxi_result(UTFX_OK, n, 0, 0);
}

utfx_result utfxi_validate_utf16le_avx512(const char16_t *s, size_t n) {
  return validate_body(s, n, 0);
}
utfx_result utfxi_validate_utf16be_avx512(const char16_t *s, size_t n) {
  return validate_body(s, n, 1);
}

/* The repair always consumes whole blocks: a high surrogate in a block's
 * last unit is carried into the next block, which either finds its low
 * surrogate or writes U+FFFD over it (the unit before the block was already
 * copied, so this also works in place). */
A512_BODY void to_well_formed_body(const char16_t *s, size_t n, char16_t *d, int be) {
  /* U+FFFD as the 16-bit lane value whose bytes in memory are FFFD in the
   * chosen order. */
  const __m512i fffd = _mm512_set1_epi16(be ? (short)0xFDFF : (short)0xFFFD);
  const int copy = d != s;
  struct a512_u16_consts uc;
  /* after a group with surrogates, go block by block for `backoff` units,
   * doubled after each failed group (surrogate-dense text) */
  size_t i = 0, slow_until = 0, backoff = 128;
  uint32_t carry = 0;
  const __m512i pairs_even = _mm512_set1_epi32((int)0xDC00D800u);
  const __m512i pairs_odd =
      _mm512_set1_epi32((int)0xD800DC00u); /* the unit before i is a high surrogate */
  __m512i bias = _mm512_set1_epi16(0x2800), c800 = _mm512_set1_epi16(0x800);
  a512_u16_consts_init(&uc);
  A512_PIN(bias);
  A512_PIN(c800);
  while (i < n) {
    size_t k;
    __mmask32 m;
    __m512i raw, v, top;
    uint32_t hi, lo, bad;
    if (!carry && i >= slow_until && n - i >= 128) {
      if (!any_surrogate_x128(s + i, be, bias, c800)) {
        if (copy) {
          size_t j;
          for (j = 0; j < 128; j += 32)
            _mm512_storeu_si512(d + i + j, _mm512_loadu_si512(s + i + j));
        }
        i += 128;
        backoff = 128;
        continue;
      }
      slow_until = i + backoff;
      backoff = backoff < 4096 ? 2 * backoff : backoff;
    }
    k = n - i < 32 ? n - i : 32;
    m = a512_mask32(k);
    raw = k == 32 ? _mm512_loadu_si512(s + i) : _mm512_maskz_loadu_epi16(m, s + i);
    v = be ? a512_bswap16(raw) : raw;
    if (copy) {
      if (k == 32)
        _mm512_storeu_si512(d + i, raw);
      else
        _mm512_mask_storeu_epi16(d + i, m, raw);
    }
    top = _mm512_and_si512(v, uc.fc00);
    /* 16 whole pairs in step with the block (or, with a carried high, the
     * same shifted by one unit): well-formed, carry unchanged */
    if (k == 32 && !_mm512_cmpneq_epi16_mask(top, carry ? pairs_odd : pairs_even) &&
        (!carry || n - i > 32)) {
      i += 32;
      continue;
    }
    hi = _mm512_cmpeq_epi16_mask(top, uc.d800);
    lo = _mm512_cmpeq_epi16_mask(top, uc.dc00);
    if (carry && !(lo & 1)) utfxi_store16(d + i - 1, 0xFFFD, be);
    /* lows not preceded by a high; highs not followed by a low, except a
     * last-unit high with more input, which is carried */
    bad = (lo & ~((hi << 1) | carry)) | (hi & ~(lo >> 1));
    carry = 0;
    if (n - i > k && (hi >> 31)) {
      bad &= 0x7FFFFFFFu;
      carry = 1;
    }
    if (bad) _mm512_mask_storeu_epi16(d + i, (__mmask32)bad, fffd);
    i += k;
  }
}

void utfxi_to_well_formed_utf16le_avx512(const char16_t *s, size_t n, char16_t *d) {
  to_well_formed_body(s, n, d, 0);
}
void utfxi_to_well_formed_utf16be_avx512(const char16_t *s, size_t n, char16_t *d) {
  to_well_formed_body(s, n, d, 1);
}
