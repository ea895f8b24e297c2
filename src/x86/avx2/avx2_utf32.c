/* AVX2 UTF-32 to UTF-8 (validation, the lengths, to UTF-16 and to Latin-1
 * are generic kernels, avx2_generic.c).
 *
 * A value is ill-formed if it is above 0x10FFFF or a surrogate. A block of
 * 8 values holding an ill-formed one goes to the scalar kernel as a region
 * (values are independent, so any cut is a character boundary), which gives
 * the exact STRICT offsets and REPLACE output. 16 ASCII
 * values narrow to 16 bytes; runs of BMP blocks of 16 narrow to 16 bits and
 * go through the UTF-16 kernel's run loops (avx2_utf16_common.h); other
 * blocks of 8 use a 1-4 byte encoder, with exact stores. SIMD
 * runs while the block surely fits; tails (< 8 values) are scalar.
 * References: Lemire & Mula 2022 (see avx2_utf16_to_utf8.c). */
#ifndef __AVX2__
#error "avx2_* files must be compiled with the avx2 tier flags (UTFX_AVX2_FLAGS, sources.mk)"
#endif

#include "avx2_compress_bytes.h"
#include "avx2_utf16_common.h"
#include "../x86_prototypes.h"

/* All-ones lanes for values above 0x10FFFF or surrogates. */
static inline __m256i invalid32(__m256i v) {
  __m256i big =
      _mm256_xor_si256(_mm256_cmpeq_epi32(_mm256_max_epu32(v, _mm256_set1_epi32(0x10FFFF)),
                                          _mm256_set1_epi32(0x10FFFF)),
                       _mm256_set1_epi32(-1));
  __m256i sur =
      _mm256_cmpeq_epi32(_mm256_and_si256(v, _mm256_set1_epi32(-0x800)), _mm256_set1_epi32(0xD800));
  return _mm256_or_si256(big, sur);
}

static inline __m256i load8(const char32_t *p) { return _mm256_loadu_si256((const __m256i *)p); }


/* Whether every lane of v is <= limit (unsigned). */
static inline int all_at_most(__m256i v, unsigned limit) {
  __m256i l = _mm256_set1_epi32((int)limit);
  return _mm256_testc_si256(_mm256_cmpeq_epi32(_mm256_max_epu32(v, l), l), _mm256_set1_epi32(-1));
}

/* Stores l0 bytes of o0 then l1 of o1 at d, both whole: the 16 bytes after
 * them are read first and put back last, so nothing past the output
 * changes (room: l0 + l1 + 16 bytes). */
static inline void put_halves(unsigned char *d, __m128i o0, size_t l0, __m128i o1, size_t l1) {
  __m128i keep = _mm_loadu_si128((const __m128i *)(void *)(d + l0 + l1));
  _mm_storeu_si128((__m128i *)(void *)d, o0);
  _mm_storeu_si128((__m128i *)(void *)(d + l0), o1);
  _mm_storeu_si128((__m128i *)(void *)(d + l0 + l1), keep);
}

/* UTF-8 of 8 valid values (any plane): each lane's 1-4 bytes in memory
 * order, compressed per 128-bit lane (room: 48 bytes). Returns the bytes
 * written (at most 32). */
UTFXI_INLINE size_t put_utf8_x8(__m256i c, unsigned char *d) {
  const __m256i x3f = _mm256_set1_epi32(0x3F);
  __m256i ge80, ge800, bytes = a2_utf8_forms_x8(c, &ge80, &ge800);
  __m256i ge10000 = _mm256_cmpgt_epi32(c, _mm256_set1_epi32(0xFFFF));
  __m256i four = _mm256_or_si256(
      _mm256_or_si256(_mm256_srli_epi32(c, 18),
                      _mm256_slli_epi32(_mm256_and_si256(_mm256_srli_epi32(c, 12), x3f), 8)),
      _mm256_or_si256(_mm256_slli_epi32(_mm256_and_si256(_mm256_srli_epi32(c, 6), x3f), 16),
                      _mm256_slli_epi32(_mm256_and_si256(c, x3f), 24)));
  /* lengths 1 + (>= 0x80) + (>= 0x800) + (>= 0x10000) */
  __m256i len = _mm256_sub_epi32(
      _mm256_sub_epi32(_mm256_sub_epi32(_mm256_set1_epi32(1), ge80), ge800), ge10000);
  size_t l0, l1;
  unsigned m;
  __m128i o0, o1;
  bytes = _mm256_blendv_epi8(bytes, _mm256_or_si256(four, _mm256_set1_epi32((int)0x808080F0u)),
                             ge10000);
  len = _mm256_shuffle_epi8(len, _mm256_setr_epi8(0, 0, 0, 0, 4, 4, 4, 4, 8, 8, 8, 8, 12, 12, 12,
                                                  12, 0, 0, 0, 0, 4, 4, 4, 4, 8, 8, 8, 8, 12, 12,
                                                  12, 12)); /* in each byte of its lane */
  m = (unsigned)_mm256_movemask_epi8(_mm256_cmpgt_epi8(len, _mm256_set1_epi32(0x03020100)));
  o0 = utfxi_avx2_compress_bytes16(_mm256_castsi256_si128(bytes), m & 0xFFFF, &l0);
  o1 = utfxi_avx2_compress_bytes16(_mm256_extracti128_si256(bytes, 1), m >> 16, &l1);
  put_halves(d, o0, l0, o1, l1);
  return l0 + l1;
}

/* Steps: 16 values at once where they are all ASCII; runs of BMP values
 * through the UTF-16 kernel's run loops; else 8 valid values through the
 * encoders above (BMP with the 3-byte encoder); a block of 8 with an
 * ill-formed value is a scalar region. Room before a step: 64 bytes, for
 * the put-backs. */
UTFXI_INLINE utfx_result utf32_to_utf8(const char32_t *s, size_t n, unsigned char *d, size_t cap,
                                       unsigned flags) {
  size_t i = 0, w = 0, replaced = 0;
  utfx_result r;
  while (n - i >= 8 && cap - w >= 64) {
    __m256i v, bad;
    /* Runs of ASCII, 32 values a step, in a loop of their own (few live
     * values, nothing spilled). */
    while (n - i >= 32 && cap - w >= 32) {
      __m256i a = load8(s + i), b = load8(s + i + 8), c = load8(s + i + 16), e = load8(s + i + 24);
      __m128i p0, p1;
      if (!all_at_most(_mm256_or_si256(_mm256_or_si256(a, b), _mm256_or_si256(c, e)), 0x7F)) break;
      p0 = _mm_packus_epi16(_mm256_castsi256_si128(a2_narrow16(a, b)),
                            _mm256_extracti128_si256(a2_narrow16(a, b), 1));
      p1 = _mm_packus_epi16(_mm256_castsi256_si128(a2_narrow16(c, e)),
                            _mm256_extracti128_si256(a2_narrow16(c, e), 1));
      _mm_storeu_si128((__m128i *)(d + w), p0);
      _mm_storeu_si128((__m128i *)(d + w + 16), p1);
      i += 32;
      w += 32;
    }
    if (n - i < 8 || cap - w < 64) break;
    v = load8(s + i);
    if (n - i >= 16) {
      __m256i v1 = load8(s + i + 8);
      if (all_at_most(_mm256_or_si256(v, v1), 0x7F)) {
        __m128i u = _mm256_castsi256_si128(a2_narrow16(v, v1));
        __m128i u1 = _mm256_extracti128_si256(a2_narrow16(v, v1), 1);
        _mm_storeu_si128((__m128i *)(d + w), _mm_packus_epi16(u, u1));
        i += 16;
        w += 16;
        continue;
      }
      if (all_at_most(_mm256_max_epu32(v, v1), 0xFFFF)) {
        /* BMP runs: the UTF-16 kernel's run loops (avx2_utf16_common.h),
         * on the values narrowed to 16 bits (surrogates stay surrogates) */
        __m256i u = a2_narrow16(v, v1);
        if (_mm256_testz_si256(u, _mm256_set1_epi16((short)0xF800))) {
          a2_utf8_run_below800(s, n, &i, d, cap, &w, u, A2_UTF32, 1, 64);
          continue;
        }
        if (!a2_any_surrogate(u)) {
          a2_utf8_run_bmp(s, n, &i, d, cap, &w, u, A2_UTF32, 1, 64);
          continue;
        }
      }
    }
    bad = invalid32(v);
    if (_mm256_testz_si256(bad, bad)) {
      if (all_at_most(v, 0xFFFF)) {
        __m128i o0, o1;
        size_t l0, l1;
        a2_encode_3byte_x8(v, &o0, &l0, &o1, &l1);
        put_halves(d + w, o0, l0, o1, l1);
        w += l0 + l1;
      } else {
        w += put_utf8_x8(v, d + w);
      }
      i += 8;
      continue;
    }
    r = utfxi_convert_utf32_to_utf8_scalar(s + i, 8, (char *)d + w, cap - w, flags);
    replaced += r.replaced;
    if (r.status != UTFX_OK) return utfxi_result(r.status, i + r.read, w + r.written, replaced);
    i += 8;
    w += r.written;
  }
  r = utfxi_convert_utf32_to_utf8_scalar(s + i, n - i, (char *)d + w, cap - w, flags);
  return utfxi_result(r.status, i + r.read, w + r.written, replaced + r.replaced);
}

/* utf32_to_utf8 after a head: a long input starts with the (at most 7)
 * values that make the source 32-byte aligned, by the scalar kernel (the
 * loops load two to four times the bytes they store, and a load across two
 * cache lines costs two; values are independent, so any cut is a character
 * boundary). Outside the kernel body: inside it, it slowed short inputs
 * (the body's registers). */
utfx_result utfxi_convert_utf32_to_utf8_avx2(const char32_t *s, size_t n, char *d, size_t cap,
                                             unsigned flags) {
  size_t k = 0;
  utfx_result h = utfxi_result(UTFX_OK, 0, 0, 0), r;
  if (UTFXI_ALIGN_HEAD(*s, n) && (uintptr_t)s % 32) {
    k = utfxi_aligning_step(s, 4, 32, 0, 1);
    h = utfxi_convert_utf32_to_utf8_scalar(s, k, d, cap, flags);
    if (h.status != UTFX_OK) return h;
  }
  r = utf32_to_utf8(s + k, n - k, (unsigned char *)d + h.written, cap - h.written, flags);
  return utfxi_result_after(&r, k, h.written, h.replaced);
}
