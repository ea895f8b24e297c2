/* AVX2 UTF-8 lengths of Latin-1 and of UTF-32 (what the conversions
 * write). The other length kernels of the avx2 tier are generic
 * (avx2_generic.c). */
#ifndef __AVX2__
#error "avx2_* files must be compiled with the avx2 tier flags (UTFX_AVX2_FLAGS, sources.mk)"
#endif

#include "vec_avx2.h"
#include "../../simd/generic_ascii.h"
#include "../x86_prototypes.h"

/* Bytes >= 0x80 take two UTF-8 bytes. They are counted per byte lane (a
 * compare gives -1, subtracted) for up to 63 steps of 128 bytes, so no lane
 * passes 252, then summed with one SAD: three instructions per 32 bytes
 * instead of a movemask and a popcount each. */
/* Leading ASCII by g_ascii_run8_apart: on ASCII text the counting steps
 * below are bound by their compares, not by the loads. */
size_t utfxi_utf8_length_from_latin1_avx2(const char *s, size_t n) {
  const __m256i zero = _mm256_setzero_si256();
  size_t i = 0, high = 0;
  if (UTFXI_ALIGN_HEAD(*s, n)) {
    /* A head makes the loads below 32-byte aligned: the loop is load-bound,
     * and a load across two cache lines costs two. */
    i = utfxi_aligning_step(s, 1, 32, 0, 1);
    high = (size_t)_mm_popcnt_u32((uint32_t)_mm256_movemask_epi8(_mm256_loadu_si256(
                                      (const __m256i *)(const void *)s)) &
                                  (uint32_t)_bzhi_u32(~0u, (unsigned)i));
    i = g_ascii_run8_apart(s, n, i); /* leading ASCII (text, markup) */
  }
  while (n - i >= 128) {
    size_t steps = (n - i) / 128 < 63 ? (n - i) / 128 : 63, k;
    __m256i acc = zero, sums;
    for (k = 0; k < steps; k++, i += 128) {
      const __m256i *p = (const __m256i *)(s + i);
      __m256i a = _mm256_add_epi8(_mm256_cmpgt_epi8(zero, _mm256_loadu_si256(p)),
                                  _mm256_cmpgt_epi8(zero, _mm256_loadu_si256(p + 1)));
      __m256i b = _mm256_add_epi8(_mm256_cmpgt_epi8(zero, _mm256_loadu_si256(p + 2)),
                                  _mm256_cmpgt_epi8(zero, _mm256_loadu_si256(p + 3)));
      acc = _mm256_sub_epi8(acc, _mm256_add_epi8(a, b));
    }
    sums = _mm256_sad_epu8(acc, zero);
    high += (size_t)_mm256_extract_epi64(sums, 0) + (size_t)_mm256_extract_epi64(sums, 1) +
            (size_t)_mm256_extract_epi64(sums, 2) + (size_t)_mm256_extract_epi64(sums, 3);
  }
  for (; n - i >= 32; i += 32)
    high += (size_t)_mm_popcnt_u32(
        (uint32_t)_mm256_movemask_epi8(_mm256_loadu_si256((const __m256i *)(s + i))));
  return utfxi_add_sat(utfxi_add_sat(i, high), utfxi_utf8_length_from_latin1_scalar(s + i, n - i));
}


/* 1 + (>= 0x80) + (>= 0x800) + (>= 0x10000) bytes per value, counted per
 * 32-bit lane (compare results, -1 each, subtracted): seven instructions per
 * 8 values, fewer than the generic kernel's movemask and popcount per
 * compare (docs/perf-decisions.md, 'UTF-8 length of UTF-32'). Surrogates count 3, the
 * length of U+FFFD, as they should; a value above 0x10FFFF would count
 * wrongly (and one of 2^31 or more not at all, the compares being signed):
 * an unsigned maximum kept per chunk spots them, and such a chunk (ill-formed
 * input) is recounted by the scalar kernel. */
size_t utfxi_utf8_length_from_utf32_avx2(const char32_t *s, size_t n) {
  const __m256i c7f = _mm256_set1_epi32(0x7F), c7ff = _mm256_set1_epi32(0x7FF),
                cffff = _mm256_set1_epi32(0xFFFF), cmax = _mm256_set1_epi32(0x10FFFF);
  size_t i = 0, total = 0;
  while (n - i >= 16) {
    size_t start = i, end = n - i > UTFXI_LENGTH_CHUNK ? i + UTFXI_LENGTH_CHUNK : n, count;
    __m256i top = _mm256_setzero_si256(), acc0 = top, acc1 = top;
    __m128i sum;
    for (; end - i >= 16; i += 16) {
      __m256i a = _mm256_loadu_si256((const __m256i *)(const void *)(s + i));
      __m256i b = _mm256_loadu_si256((const __m256i *)(const void *)(s + i + 8));
      top = _mm256_max_epu32(top, _mm256_max_epu32(a, b));
      acc0 = _mm256_sub_epi32(acc0, _mm256_add_epi32(_mm256_add_epi32(_mm256_cmpgt_epi32(a, c7f),
                                                                      _mm256_cmpgt_epi32(a, c7ff)),
                                                     _mm256_cmpgt_epi32(a, cffff)));
      acc1 = _mm256_sub_epi32(acc1, _mm256_add_epi32(_mm256_add_epi32(_mm256_cmpgt_epi32(b, c7f),
                                                                      _mm256_cmpgt_epi32(b, c7ff)),
                                                     _mm256_cmpgt_epi32(b, cffff)));
    }
    acc0 = _mm256_add_epi32(acc0, acc1);
    sum = _mm_add_epi32(_mm256_castsi256_si128(acc0), _mm256_extracti128_si256(acc0, 1));
    sum = _mm_add_epi32(sum, _mm_unpackhi_epi64(sum, sum));
    sum = _mm_add_epi32(sum, _mm_shuffle_epi32(sum, 1));
    count = i - start + (size_t)(uint32_t)_mm_cvtsi128_si32(sum);
    if (!_mm256_testc_si256(_mm256_cmpeq_epi32(_mm256_max_epu32(top, cmax), cmax),
                            _mm256_set1_epi32(-1)))
      count = utfxi_utf8_length_from_utf32_scalar(s + start, i - start);
    total = utfxi_add_sat(total, count);
  }
  return utfxi_add_sat(total, utfxi_utf8_length_from_utf32_scalar(s + i, n - i));
}
