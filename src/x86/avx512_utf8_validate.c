/* AVX-512 UTF-8 and ASCII validation.
 *
 * Algorithm: lookup-based validation (Keiser and Lemire 2021) on 64-byte
 * vectors with the stream's previous vector as context
 * (avx512_utf8_common.h). Blocks of 256 ASCII bytes are skipped with one
 * test; an ASCII vector after a non-ASCII one is still checked, since it may
 * cut a character short. Tail: one zero-masked load of the last n % 64
 * bytes (nothing past the end is read), then the zero padding (or an extra
 * zero vector) exposes a character the input ends inside of.
 * On an error, the scalar kernel runs from the character boundary before the
 * failing vector, so the reported offset is the scalar kernel's. */
#ifndef __AVX512VBMI2__
#error "avx512_ files must be built with the avx512 tier's flags"
#endif

#include "avx512_utf8_common.h"

utfx_result utfxi_validate_utf8_avx512(const char *src, size_t n);
utfx_result utfxi_validate_ascii_avx512(const char *src, size_t n);

/* The exact result once the vector at p (p <= n) has been found to hold
 * an error: rerun the scalar kernel from the boundary before it. */
static utfx_result locate_error(const unsigned char *s, size_t n, size_t p) {
  size_t q = utfxi_utf8_back_to_boundary(s, p);
  utfx_result r = utfxi_validate_utf8_scalar((const char *)s + q, n - q);
  return utfxi_result(r.status, q + r.read, 0, 0);
}

utfx_result utfxi_validate_utf8_avx512(const char *src, size_t n) {
  const unsigned char *s = (const unsigned char *)src;
  size_t i = 0;
  __m512i prev = _mm512_setzero_si512();
  int prev_ascii = 1;
  while (n - i >= 64) {
    __m512i v = _mm512_loadu_si512((const void *)(s + i));
    if (prev_ascii) {
      /* Skip ASCII four vectors at a time. */
      while (n - i >= 256) {
        __m512i v1 = _mm512_loadu_si512((const void *)(s + i + 64));
        __m512i v2 = _mm512_loadu_si512((const void *)(s + i + 128));
        __m512i v3 = _mm512_loadu_si512((const void *)(s + i + 192));
        __m512i any = _mm512_ternarylogic_epi64(v, v1, _mm512_or_si512(v2, v3), 0xFE);
        if (_mm512_movepi8_mask(any)) break;
        i += 256;
        if (n - i < 64) break;
        v = _mm512_loadu_si512((const void *)(s + i));
      }
      if (n - i < 64) break;
      if (!_mm512_movepi8_mask(v)) {
        i += 64;
        continue;
      }
    }
    if (utfxi_avx512_utf8_errors_after(prev, v)) return locate_error(s, n, i);
    prev_ascii = !_mm512_movepi8_mask(v);
    prev = v;
    i += 64;
  }
  if (!prev_ascii || i < n) {
    /* n - i < 64, so at least one zero byte follows the tail: a character
     * the input ends inside of shows as a lead without continuation. */
    __mmask64 live = _bzhi_u64(~0ull, (unsigned)(n - i));
    __m512i v = _mm512_maskz_loadu_epi8(live, s + i);
    if (utfxi_avx512_utf8_errors_after(prev, v)) return locate_error(s, n, i);
  }
  return utfxi_result(UTFX_OK, n, 0, 0);
}

utfx_result utfxi_validate_ascii_avx512(const char *src, size_t n) {
  const unsigned char *s = (const unsigned char *)src;
  size_t i = 0;
  __mmask64 high;
  for (; n - i >= 256; i += 256) {
    __m512i v0 = _mm512_loadu_si512((const void *)(s + i));
    __m512i v1 = _mm512_loadu_si512((const void *)(s + i + 64));
    __m512i v2 = _mm512_loadu_si512((const void *)(s + i + 128));
    __m512i v3 = _mm512_loadu_si512((const void *)(s + i + 192));
    __m512i any = _mm512_ternarylogic_epi64(v0, v1, _mm512_or_si512(v2, v3), 0xFE);
    if (_mm512_movepi8_mask(any)) break;
  }
  for (; n - i >= 64; i += 64) {
    high = _mm512_movepi8_mask(_mm512_loadu_si512((const void *)(s + i)));
    if (high) return utfxi_result(UTFX_INVALID, i + (size_t)_tzcnt_u64(high), 0, 0);
  }
  high = _mm512_movepi8_mask(_mm512_maskz_loadu_epi8(_bzhi_u64(~0ull, (unsigned)(n - i)), s + i));
  if (high) return utfxi_result(UTFX_INVALID, i + (size_t)_tzcnt_u64(high), 0, 0);
  return utfxi_result(UTFX_OK, n, 0, 0);
}
