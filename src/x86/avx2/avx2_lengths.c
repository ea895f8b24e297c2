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


/* 1 + (>= 0x80) + (>= 0x800) + (>= 0x10000) bytes per value. Two vectors
 * make one of 16-bit lanes, u = min(v >> 7, 0xFFFF) (the thresholds are
 * multiples of 128: u >= 1, >= 0x10, >= 0x200; an ill-formed value above
 * 0x10FFFF gives u >= 0x2200), whose compare results (-1 each) are
 * subtracted per 16-bit lane: five operations a vector, not seven per 32-bit
 * lane (docs/perf-decisions.md, 'UTF-8 length of UTF-32'). Surrogates count
 * 3, the length of U+FFFD, as they should; a chunk with a value above
 * 0x10FFFF (an unsigned maximum of u spots it; the signed compares count
 * such a u wrongly) is recounted by the scalar kernel. Two steps a loop
 * pass, each with its own counts. A chunk is at most 16384 steps, so that
 * no 16-bit lane (+3 a step) wraps. */
#define A2_UTF32_CHUNK ((size_t)16 * 16384)
size_t utfxi_utf8_length_from_utf32_avx2(const char32_t *s, size_t n) {
  const __m256i zero = _mm256_setzero_si256(), c0f = _mm256_set1_epi16(0xF),
                c1ff = _mm256_set1_epi16(0x1FF), cmax = _mm256_set1_epi16(0x21FF),
                ones = _mm256_set1_epi16(1);
  size_t i = 0, total = 0;
  if (UTFXI_ALIGN_HEAD(*s, n)) {
    i = utfxi_aligning_step(s, 4, 32, 0, 1);
    total = utfxi_utf8_length_from_utf32_scalar(s, i);
  }
  while (n - i >= 16) {
    size_t start = i, end = n - i > A2_UTF32_CHUNK ? i + A2_UTF32_CHUNK : n, count;
    __m256i top = zero, acc = zero, acc1 = zero;
    __m128i sum;
    for (; end - i >= 32; i += 32) {
      const __m256i *p = (const __m256i *)(const void *)(s + i);
      __m256i u = _mm256_packus_epi32(_mm256_srli_epi32(_mm256_loadu_si256(p), 7),
                                      _mm256_srli_epi32(_mm256_loadu_si256(p + 1), 7));
      __m256i w = _mm256_packus_epi32(_mm256_srli_epi32(_mm256_loadu_si256(p + 2), 7),
                                      _mm256_srli_epi32(_mm256_loadu_si256(p + 3), 7));
      top = _mm256_max_epu16(top, _mm256_max_epu16(u, w));
      acc = _mm256_sub_epi16(acc, _mm256_add_epi16(_mm256_add_epi16(_mm256_cmpgt_epi16(u, zero),
                                                                    _mm256_cmpgt_epi16(u, c0f)),
                                                   _mm256_cmpgt_epi16(u, c1ff)));
      acc1 = _mm256_sub_epi16(acc1, _mm256_add_epi16(_mm256_add_epi16(_mm256_cmpgt_epi16(w, zero),
                                                                      _mm256_cmpgt_epi16(w, c0f)),
                                                     _mm256_cmpgt_epi16(w, c1ff)));
    }
    for (; end - i >= 16; i += 16) {
      __m256i a = _mm256_loadu_si256((const __m256i *)(const void *)(s + i));
      __m256i b = _mm256_loadu_si256((const __m256i *)(const void *)(s + i + 8));
      __m256i u = _mm256_packus_epi32(_mm256_srli_epi32(a, 7), _mm256_srli_epi32(b, 7));
      top = _mm256_max_epu16(top, u);
      acc = _mm256_sub_epi16(acc, _mm256_add_epi16(_mm256_add_epi16(_mm256_cmpgt_epi16(u, zero),
                                                                    _mm256_cmpgt_epi16(u, c0f)),
                                                   _mm256_cmpgt_epi16(u, c1ff)));
    }
    acc = _mm256_add_epi32(_mm256_madd_epi16(acc, ones), _mm256_madd_epi16(acc1, ones));
    sum = _mm_add_epi32(_mm256_castsi256_si128(acc), _mm256_extracti128_si256(acc, 1));
    sum = _mm_add_epi32(sum, _mm_unpackhi_epi64(sum, sum));
    sum = _mm_add_epi32(sum, _mm_shuffle_epi32(sum, 1));
    count = i - start + (size_t)(uint32_t)_mm_cvtsi128_si32(sum);
    if (!_mm256_testc_si256(_mm256_cmpeq_epi16(_mm256_max_epu16(top, cmax), cmax),
                            _mm256_set1_epi32(-1)))
      count = utfxi_utf8_length_from_utf32_scalar(s + start, i - start);
    total = utfxi_add_sat(total, count);
  }
  return utfxi_add_sat(total, utfxi_utf8_length_from_utf32_scalar(s + i, n - i));
}
