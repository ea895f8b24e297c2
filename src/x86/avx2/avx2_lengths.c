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
 * make one of 16-bit lanes u = min(v >> 7, 0xFFFF) (the thresholds are
 * multiples of 128: u >= 1, >= 0x10, >= 0x200; an ill-formed value above
 * 0x10FFFF gives u >= 0x2200). Two of those make one of bytes min(u, 127)
 * (a signed saturating pack: 0, 1..15, 16 and up), which after a saturating
 * add of 0x70 (0x70, 0x71..0x7F, 0x80 and up: VPSHUFB gives 0 from bit 7)
 * one lookup turns into 2 - the extra bytes of a value below 0x10000, summed
 * per byte lane for up to 127 steps of 32 values (no lane passes 254) and
 * then by one VPSADBW: 2 * 32 * steps - sum is their extra bytes. A value
 * from 0x10000 on has one byte more: a run of steps whose maximum u says it
 * may hold one (u >= 0x200) is counted again with the 16-bit compare
 * u > 0x1FF per lane added, and the runs after it are counted so until one
 * holds none (16 vector operations per 32 values instead of 12; 20 before;
 * docs/perf-decisions.md, 'UTF-8 length of UTF-32'). Surrogates count 3, the
 * length of U+FFFD, as they should; a run with a value above 0x10FFFF is
 * recounted by the scalar kernel. */
#define A2_UTF32_STEPS 127

UTFXI_INLINE __m256i a2_utf32_u7(const char32_t *s) {
  return _mm256_packus_epi32(_mm256_srli_epi32(_mm256_loadu_si256((const __m256i *)(const void *)s), 7),
                             _mm256_srli_epi32(_mm256_loadu_si256((const __m256i *)(const void *)(s + 8)), 7));
}

/* The extra bytes (beyond one a value) of `steps` steps of 32 values at s,
 * and the maximum u in *top; `astral` counts values from 0x10000 on. */
UTFXI_INLINE size_t a2_utf8_extra_of_utf32(const char32_t *s, size_t steps, int astral,
                                           __m256i *top_out) {
  const __m256i zero = _mm256_setzero_si256(), c70 = _mm256_set1_epi8(0x70),
                c1ff = _mm256_set1_epi16(0x1FF),
                table = _mm256_setr_epi8(2, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 1, 1,
                                         1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1);
  __m256i top = zero, acc8 = zero, acc = zero, acc1 = zero, sums;
  size_t k = 0;
  /* two steps a turn: eight vectors, as validate_utf32's loop, and the
   * accumulators written once a turn */
  for (; steps - k >= 2; k += 2, s += 64) {
    __m256i u = a2_utf32_u7(s), w = a2_utf32_u7(s + 16), u2 = a2_utf32_u7(s + 32),
            w2 = a2_utf32_u7(s + 48);
    top = _mm256_max_epu16(top, _mm256_max_epu16(_mm256_max_epu16(u, w), _mm256_max_epu16(u2, w2)));
    acc8 = _mm256_add_epi8(
        acc8,
        _mm256_add_epi8(
            _mm256_shuffle_epi8(table, _mm256_adds_epu8(_mm256_packs_epi16(u, w), c70)),
            _mm256_shuffle_epi8(table, _mm256_adds_epu8(_mm256_packs_epi16(u2, w2), c70))));
    if (astral) {
      acc = _mm256_sub_epi16(acc, _mm256_add_epi16(_mm256_cmpgt_epi16(u, c1ff), _mm256_cmpgt_epi16(u2, c1ff)));
      acc1 = _mm256_sub_epi16(acc1, _mm256_add_epi16(_mm256_cmpgt_epi16(w, c1ff), _mm256_cmpgt_epi16(w2, c1ff)));
    }
  }
  for (; k < steps; k++, s += 32) {
    __m256i u = a2_utf32_u7(s), w = a2_utf32_u7(s + 16);
    top = _mm256_max_epu16(top, _mm256_max_epu16(u, w));
    acc8 = _mm256_add_epi8(
        acc8, _mm256_shuffle_epi8(table, _mm256_adds_epu8(_mm256_packs_epi16(u, w), c70)));
    if (astral) {
      acc = _mm256_sub_epi16(acc, _mm256_cmpgt_epi16(u, c1ff));
      acc1 = _mm256_sub_epi16(acc1, _mm256_cmpgt_epi16(w, c1ff));
    }
  }
  *top_out = top;
  /* 2 a value less the looked-up sum, plus the 16-bit counts (at most 254 a
   * lane, so VPSADBW sums them too); size_t arithmetic wraps back. */
  sums = _mm256_sub_epi64(astral ? _mm256_sad_epu8(_mm256_add_epi16(acc, acc1), zero) : zero,
                          _mm256_sad_epu8(acc8, zero));
  return 64 * steps + (size_t)_mm256_extract_epi64(sums, 0) + (size_t)_mm256_extract_epi64(sums, 1) +
         (size_t)_mm256_extract_epi64(sums, 2) + (size_t)_mm256_extract_epi64(sums, 3);
}
#define A2_UTF32_CHUNK ((size_t)16 * 16384)
/* Whether the maximum u of a run is above 0x21FF: a value above 0x10FFFF. */
UTFXI_INLINE int a2_utf32_ill_formed(__m256i top) {
  const __m256i cmax = _mm256_set1_epi16(0x21FF);
  return !_mm256_testc_si256(_mm256_cmpeq_epi16(_mm256_max_epu16(top, cmax), cmax),
                             _mm256_set1_epi32(-1));
}

size_t utfxi_utf8_length_from_utf32_avx2(const char32_t *s, size_t n) {
  const __m256i zero = _mm256_setzero_si256(), high = _mm256_set1_epi16((short)0xFE00);
  size_t i = 0, total = 0;
  int astral;
  __m256i top;
  if (UTFXI_ALIGN_HEAD(*s, n)) {
    i = utfxi_aligning_step(s, 4, 32, 0, 1);
    total = utfxi_utf8_length_from_utf32_scalar(s, i);
  }
  /* The first step says how the first run is counted (a short input of
   * emoji would otherwise be counted twice); under three steps the test
   * costs more than the 4-byte form's compares (docs/perf-decisions.md,
   * 'UTF-8 length of UTF-32, avx2'), so those take that form at once. */
  astral = n - i < 96 ||
           !_mm256_testz_si256(_mm256_max_epu16(a2_utf32_u7(s + i), a2_utf32_u7(s + i + 16)), high);
  while (n - i >= 32) {
    size_t steps = (n - i) / 32 < A2_UTF32_STEPS ? (n - i) / 32 : A2_UTF32_STEPS, extra = 0;
    if (!astral) {
      extra = a2_utf8_extra_of_utf32(s + i, steps, 0, &top);
      astral = !_mm256_testz_si256(top, high);
    }
    if (astral) {
      extra = a2_utf8_extra_of_utf32(s + i, steps, 1, &top);
      astral = !_mm256_testz_si256(top, high);
      if (a2_utf32_ill_formed(top))
        extra = utfxi_utf8_length_from_utf32_scalar(s + i, 32 * steps) - 32 * steps;
    }
    total = utfxi_add_sat(total, 32 * steps + extra);
    i += 32 * steps;
  }
  if (n - i >= 16) {
    __m256i u = a2_utf32_u7(s + i), sums;
    __m256i c = _mm256_add_epi16(_mm256_add_epi16(_mm256_cmpgt_epi16(u, zero),
                                                  _mm256_cmpgt_epi16(u, _mm256_set1_epi16(0xF))),
                                 _mm256_cmpgt_epi16(u, _mm256_set1_epi16(0x1FF)));
    size_t count;
    sums = _mm256_sad_epu8(_mm256_sub_epi16(zero, c), zero); /* 0..3 a lane */
    count = 16 + (size_t)_mm256_extract_epi64(sums, 0) + (size_t)_mm256_extract_epi64(sums, 1) +
            (size_t)_mm256_extract_epi64(sums, 2) + (size_t)_mm256_extract_epi64(sums, 3);
    if (a2_utf32_ill_formed(u)) count = utfxi_utf8_length_from_utf32_scalar(s + i, 16);
    total = utfxi_add_sat(total, count);
    i += 16;
  }
  return utfxi_add_sat(total, utfxi_utf8_length_from_utf32_scalar(s + i, n - i));
}
