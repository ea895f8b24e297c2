/* AVX2 UTF-8 and ASCII validation.
 *
 * Algorithm: lookup-based validation (Keiser and Lemire 2021) on 32-byte
 * vectors (avx2_utf8_common.h). The bytes one, two and three back come from
 * unaligned loads at -1, -2, -3 (the first vector, with nothing before it,
 * shifts in zeros in registers instead). Errors accumulate in a vector
 * tested once per 128-byte chunk; a chunk of 128 ASCII bytes is skipped with
 * one test, after checking that the previous chunk did not end inside a
 * character.
 * Tail: the last n % 32 bytes and the three before them are copied into a
 * zeroed local buffer (nothing outside [s, s + n) is read); the zero padding
 * exposes a character the input ends inside of.
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
  if (n < 32) {
    if (utfxi_avx2_tail_errors(s, n, 0, 0, &v)) return locate_error(s, n, 0);
    return utfxi_result(UTFX_OK, n, 0, 0);
  }
  v = _mm256_loadu_si256((const __m256i *)s);
  err = utfxi_avx2_utf8_errors(_mm256_setzero_si256(), v);
  if (!_mm256_testz_si256(err, err)) return locate_error(s, n, 0);
  pending = utfxi_avx2_ends_inside(v);
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
    err = utfxi_avx2_block_errors(s + i, _mm256_loadu_si256((const __m256i *)(s + i)));
    if (!_mm256_testz_si256(err, err)) return locate_error(s, n, i);
  }
  if (utfxi_avx2_tail_errors(s, n, i, 1, &v)) return locate_error(s, n, i);
  return utfxi_result(UTFX_OK, n, 0, 0);
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
  for (; i < n; i++)
    if (s[i] >= 0x80) return utfxi_result(UTFX_INVALID, i, 0, 0);
  return utfxi_result(UTFX_OK, n, 0, 0);
}
