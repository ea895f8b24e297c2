/* AVX2 UTF-8 and ASCII validation.
 *
 * Algorithm: lookup-based validation (Keiser and Lemire 2021) on 32-byte
 * vectors, two per step, with the stream's previous vector as context
 * (avx2_utf8_common.h); errors are OR-ed and tested once per 64 bytes.
 * Blocks of 128 ASCII bytes are skipped with one test; an ASCII block after
 * a non-ASCII one is still checked, since it may cut a character short.
 * Tail: the last n % 64 bytes are copied into a zeroed 64-byte buffer (no
 * read past the end); the zero padding exposes an unfinished character.
 * On an error, the scalar kernel runs from the character boundary before the
 * failing block, so the reported offset is the scalar kernel's. */
#ifndef __AVX2__
#error "avx2_ files must be built with the avx2 tier's flags"
#endif

#include "avx2_utf8_common.h"

utfx_result utfxi_validate_utf8_avx2(const char *src, size_t n);
utfx_result utfxi_validate_ascii_avx2(const char *src, size_t n);

static utfx_result locate_error(const unsigned char *s, size_t n, size_t p) {
  size_t q = utfxi_utf8_back_to_boundary(s, p);
  utfx_result r = utfxi_validate_utf8_scalar((const char *)s + q, n - q);
  return utfxi_result(r.status, q + r.read, 0, 0);
}

static inline int block_errors(__m256i *prev, __m256i v0, __m256i v1) {
  __m256i e = _mm256_or_si256(utfxi_avx2_utf8_errors(*prev, v0), utfxi_avx2_utf8_errors(v0, v1));
  *prev = v1;
  return !_mm256_testz_si256(e, e);
}

utfx_result utfxi_validate_utf8_avx2(const char *src, size_t n) {
  const unsigned char *s = (const unsigned char *)src;
  const __m256i high = _mm256_set1_epi8((char)0x80);
  size_t i = 0;
  __m256i prev = _mm256_setzero_si256();
  int prev_ascii = 1;
  while (n - i >= 64) {
    __m256i v0 = _mm256_loadu_si256((const __m256i *)(s + i));
    __m256i v1 = _mm256_loadu_si256((const __m256i *)(s + i + 32));
    __m256i any = _mm256_or_si256(v0, v1);
    if (prev_ascii) {
      while (n - i >= 128) {
        __m256i v2 = _mm256_loadu_si256((const __m256i *)(s + i + 64));
        __m256i v3 = _mm256_loadu_si256((const __m256i *)(s + i + 96));
        if (!_mm256_testz_si256(_mm256_or_si256(any, _mm256_or_si256(v2, v3)), high)) break;
        i += 128;
        if (n - i < 64) break;
        v0 = _mm256_loadu_si256((const __m256i *)(s + i));
        v1 = _mm256_loadu_si256((const __m256i *)(s + i + 32));
        any = _mm256_or_si256(v0, v1);
      }
      if (n - i < 64) break;
      if (_mm256_testz_si256(any, high)) {
        i += 64;
        continue;
      }
    }
    if (block_errors(&prev, v0, v1)) return locate_error(s, n, i);
    prev_ascii = _mm256_testz_si256(any, high);
    i += 64;
  }
  if (!prev_ascii || i < n) {
    /* n - i < 64: at least one zero byte follows the copied tail. */
    unsigned char tail[64] = {0};
    memcpy(tail, s + i, n - i);
    if (block_errors(&prev, _mm256_loadu_si256((const __m256i *)tail),
                     _mm256_loadu_si256((const __m256i *)(tail + 32))))
      return locate_error(s, n, i);
  }
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
