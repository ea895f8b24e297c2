/* AVX-512 UTF-8 and ASCII validation.
 *
 * Algorithm: lookup-based validation (Keiser and Lemire 2021) on 64-byte
 * vectors (avx512_utf8_common.h). The bytes one, two and three back come
 * from unaligned loads at -1, -2, -3 (cheaper than cross-lane permutes on
 * Zen 4; the first vector, with nothing before it, uses permutes with zero
 * context instead). Errors accumulate in a vector tested once per 256-byte
 * chunk; a chunk of 256 ASCII bytes is skipped with one test, after checking
 * that the previous chunk did not end inside a character.
 * Tail: zero-masked loads of the last n % 64 bytes and of the three bytes
 * before them (nothing outside [s, s + n) is read); the zero padding
 * exposes a character the input ends inside of.
 * On an error, the scalar kernel runs from the character boundary before the
 * failing chunk, so the reported offset is the scalar kernel's. */
#ifndef __AVX512VBMI2__
#error "avx512_ files must be built with the avx512 tier's flags"
#endif

#include "avx512_utf8_common.h"
#include "x86_prototypes.h"

/* The exact result once the data from p on (p <= n) is known to hold an
 * error: rerun the scalar kernel from the boundary before it. */
static utfx_result locate_error(const unsigned char *s, size_t n, size_t p) {
  size_t q = utfxi_utf8_back_to_boundary(s, p);
  utfx_result r = utfxi_validate_utf8_scalar((const char *)s + q, n - q);
  return utfxi_result(r.status, q + r.read, 0, 0);
}

utfx_result utfxi_validate_utf8_avx512(const char *src, size_t n) {
  const unsigned char *s = (const unsigned char *)src;
  size_t i, r;
  __m512i err, pending, v;
  __mmask64 live;
  if (n < 64) { /* one zero-padded vector, zero context */
    v = _mm512_maskz_loadu_epi8(_bzhi_u64(~0ull, (unsigned)n), s);
    if (utfxi_avx512_utf8_errors_first(v)) return locate_error(s, n, 0);
    return utfxi_result(UTFX_OK, n, 0, 0);
  }
  v = _mm512_loadu_si512((const void *)s);
  if (utfxi_avx512_utf8_errors_first(v)) return locate_error(s, n, 0);
  pending = utfxi_avx512_ends_inside(v);
  i = 64;
  for (; n - i >= 256; i += 256) {
    const unsigned char *p = s + i;
    __m512i v0 = _mm512_loadu_si512((const void *)p);
    __m512i v1 = _mm512_loadu_si512((const void *)(p + 64));
    __m512i v2 = _mm512_loadu_si512((const void *)(p + 128));
    __m512i v3 = _mm512_loadu_si512((const void *)(p + 192));
    if (!_mm512_movepi8_mask(_mm512_ternarylogic_epi64(v0, v1, _mm512_or_si512(v2, v3), 0xFE))) {
      if (_mm512_test_epi8_mask(pending, pending)) return locate_error(s, n, i);
      continue;
    }
    err = _mm512_ternarylogic_epi64(utfxi_avx512_block_errors(p, v0),
                                    utfxi_avx512_block_errors(p + 64, v1),
                                    utfxi_avx512_block_errors(p + 128, v2), 0xFE);
    err = _mm512_or_si512(err, utfxi_avx512_block_errors(p + 192, v3));
    if (_mm512_test_epi8_mask(err, err)) return locate_error(s, n, i);
    pending = utfxi_avx512_ends_inside(v3);
  }
  for (; n - i >= 64; i += 64) {
    err = utfxi_avx512_block_errors(s + i, _mm512_loadu_si512((const void *)(s + i)));
    if (_mm512_test_epi8_mask(err, err)) return locate_error(s, n, i);
  }
  /* n - i < 64 bytes left (maybe none): at least one zero byte follows them,
   * so a character the input ends inside of shows as a missing continuation. */
  r = n - i;
  live = _bzhi_u64(~0ull, (unsigned)r);
  v = _mm512_maskz_loadu_epi8(live, s + i);
  err = utfxi_avx512_utf8_error_bytes(
      v, _mm512_maskz_loadu_epi8(_bzhi_u64(~0ull, (unsigned)(r + 1)), s + i - 1),
      _mm512_maskz_loadu_epi8(_bzhi_u64(~0ull, (unsigned)(r + 2)), s + i - 2),
      _mm512_maskz_loadu_epi8(_bzhi_u64(~0ull, (unsigned)(r + 3)), s + i - 3));
  if (_mm512_test_epi8_mask(err, err)) return locate_error(s, n, i);
  return utfxi_result(UTFX_OK, n, 0, 0);
}

utfx_result utfxi_validate_ascii_avx512(const char *src, size_t n) {
  const unsigned char *s = (const unsigned char *)src;
  size_t i = 0;
  __mmask64 high;
  /* 512 bytes per test: one branch per eight vectors. */
  for (; n - i >= 512; i += 512) {
    const unsigned char *p = s + i;
    __m512i a = _mm512_ternarylogic_epi64(_mm512_loadu_si512((const void *)p),
                                          _mm512_loadu_si512((const void *)(p + 64)),
                                          _mm512_loadu_si512((const void *)(p + 128)), 0xFE);
    __m512i b = _mm512_ternarylogic_epi64(_mm512_loadu_si512((const void *)(p + 192)),
                                          _mm512_loadu_si512((const void *)(p + 256)),
                                          _mm512_loadu_si512((const void *)(p + 320)), 0xFE);
    __m512i c = _mm512_or_si512(_mm512_loadu_si512((const void *)(p + 384)),
                                _mm512_loadu_si512((const void *)(p + 448)));
    if (_mm512_movepi8_mask(_mm512_ternarylogic_epi64(a, b, c, 0xFE))) break;
  }
  for (; n - i >= 64; i += 64) {
    high = _mm512_movepi8_mask(_mm512_loadu_si512((const void *)(s + i)));
    if (high) return utfxi_result(UTFX_INVALID, i + (size_t)_tzcnt_u64(high), 0, 0);
  }
  high = _mm512_movepi8_mask(_mm512_maskz_loadu_epi8(_bzhi_u64(~0ull, (unsigned)(n - i)), s + i));
  if (high) return utfxi_result(UTFX_INVALID, i + (size_t)_tzcnt_u64(high), 0, 0);
  return utfxi_result(UTFX_OK, n, 0, 0);
}
