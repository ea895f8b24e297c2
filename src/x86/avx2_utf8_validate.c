/* AVX2 UTF-8 and ASCII validation.
 *
 * Algorithm: lookup-based validation (Keiser and Lemire 2021) on 32-byte
 * vectors (avx2_utf8_common.h). The bytes one, two and three back come from
 * unaligned loads at -1, -2, -3 (the first vector, with nothing before it,
 * shifts in zeros in registers instead). Errors accumulate in a vector
 * tested once per 128-byte chunk; a chunk of 128 ASCII bytes is skipped with
 * one test, after checking that the previous chunk did not end inside a
 * character.
 * Tail (the last n % 32 bytes), and inputs under 32 bytes: the scalar
 * kernel, from the character boundary before it (a copy into a local buffer
 * to check it as one more vector cost more than the scalar loop: the loads
 * of the buffer wait for its stores).
 * On an error, the scalar kernel runs from the character boundary before the
 * failing chunk, so the reported offset is the scalar kernel's. */
#ifndef __AVX2__
#error "avx2_ files must be built with the avx2 tier's flags"
#endif

#include "avx2_utf8_common.h"
#include "x86_prototypes.h"

static utfx_result locate_error(const unsigned char *s, size_t n, size_t p) {
  size_t q = utfxi_utf8_back_to_boundary(s, p);
  utfx_result r = utfxi_validate_utf8_scalar((const char *)s + q, n - q);
  return utfxi_result(r.status, q + r.read, 0, 0);
}

utfx_result utfxi_validate_utf8_avx2(const char *src, size_t n) {
  const unsigned char *s = (const unsigned char *)src;
  const __m256i high = _mm256_set1_epi8((char)0x80);
  size_t i;
  __m256i err, pending, v;
  if (n < 32) return utfxi_validate_utf8_scalar(src, n);
  v = _mm256_loadu_si256((const __m256i *)s);
  pending = _mm256_setzero_si256();
  if (!_mm256_testz_si256(v, high)) { /* not ASCII: check it */
    err = utfxi_avx2_utf8_errors(_mm256_setzero_si256(), v);
    if (!_mm256_testz_si256(err, err)) return locate_error(s, n, 0);
    pending = utfxi_avx2_ends_inside(v);
  }
  i = 32;
  for (; n - i >= 128; i += 128) {
    const unsigned char *p = s + i;
    __m256i v0 = _mm256_loadu_si256((const __m256i *)p);
    __m256i v1 = _mm256_loadu_si256((const __m256i *)(p + 32));
    __m256i v2 = _mm256_loadu_si256((const __m256i *)(p + 64));
    __m256i v3 = _mm256_loadu_si256((const __m256i *)(p + 96));
    if (_mm256_testz_si256(_mm256_or_si256(_mm256_or_si256(v0, v1), _mm256_or_si256(v2, v3)),
                           high)) {
      if (!_mm256_testz_si256(pending, pending)) return locate_error(s, n, i);
      continue;
    }
    err = _mm256_or_si256(
        _mm256_or_si256(utfxi_avx2_block_errors(p, v0), utfxi_avx2_block_errors(p + 32, v1)),
        _mm256_or_si256(utfxi_avx2_block_errors(p + 64, v2),
                        utfxi_avx2_block_errors(p + 96, v3)));
    if (!_mm256_testz_si256(err, err)) return locate_error(s, n, i);
    pending = utfxi_avx2_ends_inside(v3);
  }
  for (; n - i >= 32; i += 32) {
    v = _mm256_loadu_si256((const __m256i *)(s + i));
    if (_mm256_testz_si256(v, high) && _mm256_testz_si256(pending, pending)) continue; /* ASCII */
    err = utfxi_avx2_block_errors(s + i, v);
    if (!_mm256_testz_si256(err, err)) return locate_error(s, n, i);
    pending = utfxi_avx2_ends_inside(v);
  }
  /* The tail: ASCII after a complete character is done here (a call costs
   * more than these few bytes), the rest by the scalar kernel from the
   * character boundary before it. */
  if (_mm256_testz_si256(pending, pending)) {
    while (n - i >= 8 && !(utfxi_load64(s + i) & 0x8080808080808080ull)) i += 8;
    while (i < n && s[i] < 0x80) i++;
    if (i == n) return utfxi_result(UTFX_OK, n, 0, 0);
  }
  return locate_error(s, n, i);
}

utfx_result utfxi_validate_ascii_avx2(const char *src, size_t n) {
  const unsigned char *s = (const unsigned char *)src;
  size_t i = 0;
  for (; n - i >= 128; i += 128) {
    __m256i v0 = _mm256_loadu_si256((const __m256i *)(s + i));
    __m256i v1 = _mm256_loadu_si256((const __m256i *)(s + i + 32));
    __m256i v2 = _mm256_loadu_si256((const __m256i *)(s + i + 64));
    __m256i v3 = _mm256_loadu_si256((const __m256i *)(s + i + 96));
    __m256i any = _mm256_or_si256(_mm256_or_si256(v0, v1), _mm256_or_si256(v2, v3));
    if (_mm256_movemask_epi8(any)) break;
  }
  for (; n - i >= 32; i += 32) {
    unsigned high = (unsigned)_mm256_movemask_epi8(_mm256_loadu_si256((const __m256i *)(s + i)));
    if (high) return utfxi_result(UTFX_INVALID, i + (size_t)_tzcnt_u32(high), 0, 0);
  }
  if (i == n) return utfxi_result(UTFX_OK, n, 0, 0); /* no call for nothing */
  {
    utfx_result r = utfxi_validate_ascii_scalar(src + i, n - i);
    return utfxi_result(r.status, i + r.read, 0, 0);
  }
}
