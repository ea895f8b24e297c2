/* AVX2 UTF-16LE/BE validation and the well-formed repair.
 *
 * Algorithm: a surrogate test (unit & 0xF800 == 0xD800) on 64 units at a
 * time; text without surrogates never leaves that loop. A 32-unit block with
 * surrogates gets one bit per unit for high and low surrogates (vpacksswb +
 * vpermq + vpmovmskb); bad = high not followed by low | low not preceded by
 * high. A block that ends with a high surrogate leaves it to the next block,
 * so blocks start on character boundaries. Validation hands a block with an
 * error to the scalar kernel (same offsets on every tier); the repair fixes
 * the bad units of the block with scalar stores of U+FFFD (and carries a
 * block's last high surrogate to the next block as a bit, see below).
 * Block: 32 units (64 in the surrogate-free loop). Tail: the last < 32 units
 * go to the scalar kernel (no loads past the end).
 * References: Lemire & Mula 2022 (see avx2_utf16_to_utf8.c). */
#ifndef __AVX2__
#error "avx2_* files must be compiled with the avx2 tier flags (Makefile AVX2_FLAGS)"
#endif

#include "avx2_utf16_common.h"
#include "x86_prototypes.h"

/* Nonzero if some of the 64 units at s is a surrogate (tests the byte that
 * holds the top bits, so no byte swap is needed). */
static inline int any_surrogate_x64(const char16_t *s, int be) {
  const __m256i mask = _mm256_set1_epi16(be ? 0x00F8 : (short)0xF800);
  const __m256i sur = _mm256_set1_epi16(be ? 0x00D8 : (short)0xD800);
  __m256i a =
      _mm256_cmpeq_epi16(_mm256_and_si256(_mm256_loadu_si256((const __m256i *)s), mask), sur);
  __m256i b = _mm256_cmpeq_epi16(
      _mm256_and_si256(_mm256_loadu_si256((const __m256i *)(s + 16)), mask), sur);
  __m256i c = _mm256_cmpeq_epi16(
      _mm256_and_si256(_mm256_loadu_si256((const __m256i *)(s + 32)), mask), sur);
  __m256i d = _mm256_cmpeq_epi16(
      _mm256_and_si256(_mm256_loadu_si256((const __m256i *)(s + 48)), mask), sur);
  __m256i any = _mm256_or_si256(_mm256_or_si256(a, b), _mm256_or_si256(c, d));
  return !_mm256_testz_si256(any, any);
}

/* Pair analysis of the 32 units at s (all in the buffer); `more`: units
 * follow. Returns the bad-unit mask; *adv = units consumed (31 if the block
 * ends with a high surrogate that the next block must pair). */
static inline uint32_t analyse32(const char16_t *s, int be, int more, size_t *adv) {
  __m256i a = a2_load16(s, be), b = a2_load16(s + 16, be);
  uint32_t hi = a2_unit_mask(a2_top_eq(a, 0xFC00, 0xD800), a2_top_eq(b, 0xFC00, 0xD800));
  uint32_t lo = a2_unit_mask(a2_top_eq(a, 0xFC00, 0xDC00), a2_top_eq(b, 0xFC00, 0xDC00));
  *adv = 32;
  if (more && hi >> 31) {
    hi &= 0x7FFFFFFFu;
    *adv = 31;
  }
  return (hi & ~(lo >> 1)) | (lo & ~(hi << 1));
}

UTFXI_INLINE utfx_result validate_body(const char16_t *s, size_t n, int be) {
  size_t i = 0, adv;
  while (n - i >= 32) {
    if (n - i >= 64 && !any_surrogate_x64(s + i, be)) {
      i += 64;
      continue;
    }
    if (analyse32(s + i, be, n - i > 32, &adv)) break;
    i += adv;
  }
  {
    utfx_result r = be ? utfxi_validate_utf16be_scalar(s + i, n - i)
                       : utfxi_validate_utf16le_scalar(s + i, n - i);
    return utfxi_result_after(&r, i, 0, 0);
  }
}

utfx_result utfxi_validate_utf16le_avx2(const char16_t *s, size_t n) {
  return validate_body(s, n, 0);
}
utfx_result utfxi_validate_utf16be_avx2(const char16_t *s, size_t n) {
  return validate_body(s, n, 1);
}

/* Blocks of 32 units at fixed steps: a high surrogate that ends a block is
 * carried into the next one as a bit (`carry`), not by starting the next
 * block one unit earlier, so no load waits for the previous block's
 * analysis (emoji text: nearly every block has surrogates). */
UTFXI_INLINE void to_well_formed_body(const char16_t *s, size_t n, char16_t *d, int be) {
  const int copy = d != s;
  size_t i = 0;
  uint32_t carry = 0; /* unit i - 1 is a high surrogate waiting for its pair */
  while (n - i >= 32) {
    uint32_t hi, lo, bad;
    __m256i a, b;
    if (n - i >= 64 && !any_surrogate_x64(s + i, be)) {
      if (copy) {
        size_t j;
        for (j = 0; j < 64; j += 16)
          _mm256_storeu_si256((__m256i *)(d + i + j),
                              _mm256_loadu_si256((const __m256i *)(s + i + j)));
      }
      if (carry) utfxi_store16(d + i - 1, 0xFFFD, be); /* no low surrogate followed */
      carry = 0;
      i += 64;
      continue;
    }
    a = a2_load16(s + i, be);
    b = a2_load16(s + i + 16, be);
    hi = a2_unit_mask(a2_top_eq(a, 0xFC00, 0xD800), a2_top_eq(b, 0xFC00, 0xD800));
    lo = a2_unit_mask(a2_top_eq(a, 0xFC00, 0xDC00), a2_top_eq(b, 0xFC00, 0xDC00));
    if (copy) {
      _mm256_storeu_si256((__m256i *)(d + i), _mm256_loadu_si256((const __m256i *)(s + i)));
      _mm256_storeu_si256((__m256i *)(d + i + 16),
                          _mm256_loadu_si256((const __m256i *)(s + i + 16)));
    }
    if (carry && !(lo & 1)) utfxi_store16(d + i - 1, 0xFFFD, be);
    /* A high surrogate in unit 31 is judged with the next block (or the
     * scalar tail, which then restarts at it). */
    bad = (hi & ~(lo >> 1) & 0x7FFFFFFFu) | (lo & ~(hi << 1 | carry));
    carry = hi >> 31;
    while (bad) {
      utfxi_store16(d + i + (size_t)_tzcnt_u32(bad), 0xFFFD, be);
      bad &= bad - 1;
    }
    i += 32;
  }
  i -= carry; /* the scalar tail pairs that high surrogate itself */
  if (be)
    utfxi_to_well_formed_utf16be_scalar(s + i, n - i, d + i);
  else
    utfxi_to_well_formed_utf16le_scalar(s + i, n - i, d + i);
}

void utfxi_to_well_formed_utf16le_avx2(const char16_t *s, size_t n, char16_t *d) {
  to_well_formed_body(s, n, d, 0);
}
void utfxi_to_well_formed_utf16be_avx2(const char16_t *s, size_t n, char16_t *d) {
  to_well_formed_body(s, n, d, 1);
}
