/* AVX2 UTF-16LE <-> UTF-16BE (either way it is a byte swap of each unit).
 *
 * 16 units are swapped with one PSHUFB and stored as they are (one output
 * unit per input unit, so the store is exact) when they hold no surrogate,
 * or only surrogates in pairs (checked against the units one back and one
 * on, so a pair across blocks is seen whole). A block with a lone surrogate
 * goes to the scalar kernel as a bounded region (one unit longer when it
 * ends inside a pair, a2_scalar_region), so lone surrogates (U+FFFD or
 * STRICT offsets) and full destinations follow the scalar semantics; so does
 * the tail of fewer than 17 units. */
#ifndef __AVX2__
#error "avx2_* files must be compiled with the avx2 tier flags (Makefile AVX2_FLAGS)"
#endif

#include "avx2_utf16_common.h"
#include "x86_prototypes.h"

/* i (<= n), or i - 1 when the vector code took a pair's high surrogate at i - 1 and
 * left its low one at i: the scalar code must see the pair whole. */
UTFXI_INLINE size_t pair_start(const char16_t *s, size_t n, size_t i, int be) {
  return i && i < n && (utfxi_load16(s + i, be) & 0xFC00) == 0xDC00 &&
                 (utfxi_load16(s + i - 1, be) & 0xFC00) == 0xD800
             ? i - 1
             : i;
}

/* be: the source is UTF-16BE. */
UTFXI_INLINE utfx_result swap16(const char16_t *s, size_t n, char16_t *d, size_t cap,
                                unsigned flags, int be) {
  size_t i = 0, replaced = 0;
  utfx_result r;
  while (n - i >= 17 && cap - i >= 17) { /* 17: room for the low half of a pair at 15 */
    __m256i raw = _mm256_loadu_si256((const __m256i *)(s + i));
    if (n - i >= 32 && cap - i >= 32) { /* 32 units without a surrogate: one test */
      __m256i raw2 = _mm256_loadu_si256((const __m256i *)(s + i + 16));
      const __m256i top = _mm256_set1_epi16(be ? 0x00F8 : (short)0xF800);
      const __m256i sur = _mm256_set1_epi16(be ? 0x00D8 : (short)0xD800);
      __m256i any = _mm256_or_si256(_mm256_cmpeq_epi16(_mm256_and_si256(raw, top), sur),
                                    _mm256_cmpeq_epi16(_mm256_and_si256(raw2, top), sur));
      if (_mm256_testz_si256(any, any)) {
        _mm256_storeu_si256((__m256i *)(d + i), a2_bswap16(raw));
        _mm256_storeu_si256((__m256i *)(d + i + 16), a2_bswap16(raw2));
        i += 32;
        continue;
      }
    }
    __m256i swapped = a2_bswap16(raw), v = be ? swapped : raw;
    if (a2_any_surrogate(v)) {
      /* Well-formed if every high surrogate has a low one after it and every
       * low one a high one before it (the units one back and one on). */
      __m256i next = a2_load16(s + i + 1, be);
      __m256i prev = i ? a2_load16(s + i - 1, be) : _mm256_setzero_si256();
      __m256i bad = _mm256_or_si256(
          _mm256_andnot_si256(a2_top_eq(next, 0xFC00, 0xDC00), a2_top_eq(v, 0xFC00, 0xD800)),
          _mm256_andnot_si256(a2_top_eq(prev, 0xFC00, 0xD800), a2_top_eq(v, 0xFC00, 0xDC00)));
      size_t len;
      if (_mm256_testz_si256(bad, bad)) {
        _mm256_storeu_si256((__m256i *)(d + i), swapped);
        i += 16;
        continue;
      }
      i = pair_start(s, n, i, be);
      len = a2_scalar_region(s, n, i, be);
      r = utfxi_swap_utf16_scalar(s + i, len, d + i, cap - i, flags, be);
      if (r.status != UTFX_OK) return utfxi_result_after(&r, i, i, replaced);
      replaced += r.replaced;
      i += len;
      continue;
    }
    _mm256_storeu_si256((__m256i *)(d + i), swapped);
    i += 16;
  }
  i = pair_start(s, n, i, be);
  r = utfxi_swap_utf16_scalar(s + i, n - i, d + i, cap - i, flags, be);
  return utfxi_result_after(&r, i, i, replaced);
}

utfx_result utfxi_convert_utf16le_to_utf16be_avx2(const char16_t *s, size_t n, char16_t *d,
                                                  size_t cap, unsigned flags) {
  return swap16(s, n, d, cap, flags, 0);
}
utfx_result utfxi_convert_utf16be_to_utf16le_avx2(const char16_t *s, size_t n, char16_t *d,
                                                  size_t cap, unsigned flags) {
  return swap16(s, n, d, cap, flags, 1);
}
