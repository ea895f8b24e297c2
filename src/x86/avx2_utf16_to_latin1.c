/* AVX2 UTF-16LE/BE to Latin-1.
 *
 * 32 units with every unit <= 0xFF narrow with vpackuswb + vpermq into 32
 * exact bytes. A unit above 0xFF (outside Latin-1, or a surrogate: an error
 * in both modes) hands the rest to the scalar kernel, which stops there with
 * the exact offsets; so does a block that does not fit. The last < 32 units
 * are the last 32 again, overlapping, when all fit. References: Lemire &
 * Mula 2022 (see avx2_utf16_to_utf8.c). */
#ifndef __AVX2__
#error "avx2_* files must be compiled with the avx2 tier flags (UTFX_AVX2_FLAGS, sources.mk)"
#endif

#include "avx2_utf16_common.h"
#include "x86_prototypes.h"

UTFXI_INLINE utfx_result utf16_to_latin1_body(const char16_t *s, size_t n, char *d, size_t cap,
                                              unsigned flags, int be) {
  size_t i = 0;
  utfx_result r;
  /* 64 units a test while they last (the loop is load-bound) */
  while (n - i >= 64 && cap - i >= 64) {
    __m256i a = a2_load16(s + i, be), b = a2_load16(s + i + 16, be);
    __m256i c = a2_load16(s + i + 32, be), e = a2_load16(s + i + 48, be);
    if (!_mm256_testz_si256(_mm256_or_si256(_mm256_or_si256(a, b), _mm256_or_si256(c, e)),
                            _mm256_set1_epi16((short)0xFF00)))
      break;
    _mm256_storeu_si256((__m256i *)(d + i),
                        _mm256_permute4x64_epi64(_mm256_packus_epi16(a, b), 0xD8));
    _mm256_storeu_si256((__m256i *)(d + i + 32),
                        _mm256_permute4x64_epi64(_mm256_packus_epi16(c, e), 0xD8));
    i += 64;
  }
  while (n - i >= 32 && cap - i >= 32) {
    __m256i a = a2_load16(s + i, be), b = a2_load16(s + i + 16, be);
    if (!_mm256_testz_si256(_mm256_or_si256(a, b), _mm256_set1_epi16((short)0xFF00))) break;
    _mm256_storeu_si256((__m256i *)(d + i),
                        _mm256_permute4x64_epi64(_mm256_packus_epi16(a, b), 0xD8));
    i += 32;
  }
  if (i < n && n - i < 32 && n >= 32 && cap >= n) {
    /* The last 32 units, overlapping units already done (the same bytes
     * again), instead of the scalar kernel for the rest */
    __m256i a = a2_load16(s + n - 32, be), b = a2_load16(s + n - 16, be);
    if (_mm256_testz_si256(_mm256_or_si256(a, b), _mm256_set1_epi16((short)0xFF00))) {
      _mm256_storeu_si256((__m256i *)(d + n - 32),
                          _mm256_permute4x64_epi64(_mm256_packus_epi16(a, b), 0xD8));
      return utfxi_result(UTFX_OK, n, n, 0);
    }
  }
  r = be ? utfxi_convert_utf16be_to_latin1_scalar(s + i, n - i, d + i, cap - i, flags)
         : utfxi_convert_utf16le_to_latin1_scalar(s + i, n - i, d + i, cap - i, flags);
  return utfxi_result_after(&r, i, i, 0);
}

/* The body after a head: a long input starts with a step of fewer units
 * where that makes the source 32-byte aligned: the loop is load-bound, and
 * a load across two cache lines costs two (aligning the destination
 * instead, half as many bytes, was slower: docs/perf-decisions.md,
 * 'UTF-16 -> Latin-1'). Outside the body, whose short inputs it slowed (its
 * registers). */
UTFXI_INLINE utfx_result utf16_to_latin1(const char16_t *s, size_t n, char *d, size_t cap,
                                         unsigned flags, int be) {
  size_t k = 0;
  utfx_result r;
  if (UTFXI_ALIGN_HEAD(*s, n) && cap >= 256) {
    __m256i a = a2_load16(s, be), b = a2_load16(s + 16, be);
    if (_mm256_testz_si256(_mm256_or_si256(a, b), _mm256_set1_epi16((short)0xFF00))) {
      _mm256_storeu_si256((__m256i *)d, _mm256_permute4x64_epi64(_mm256_packus_epi16(a, b), 0xD8));
      k = utfxi_aligning_step(s, 2, 32, 32, 1);
    }
  }
  r = utf16_to_latin1_body(s + k, n - k, d + k, cap - k, flags, be);
  return utfxi_result_after(&r, k, k, 0);
}

utfx_result utfxi_convert_utf16le_to_latin1_avx2(const char16_t *s, size_t n, char *d, size_t cap,
                                                 unsigned flags) {
  return utf16_to_latin1(s, n, d, cap, flags, 0);
}
utfx_result utfxi_convert_utf16be_to_latin1_avx2(const char16_t *s, size_t n, char *d, size_t cap,
                                                 unsigned flags) {
  return utf16_to_latin1(s, n, d, cap, flags, 1);
}
