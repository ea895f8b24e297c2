/* AVX2 UTF-32 to UTF-8 / UTF-16LE / UTF-16BE (validation and the lengths
 * are generic kernels, avx2_generic.c).
 *
 * A value is ill-formed if it is above 0x10FFFF or a surrogate. Conversions
 * take 8 values: a block holding an ill-formed or
 * (for the UTF-8 target) an astral value goes to the scalar kernel as a
 * region of 8 values (values are independent, so any cut is a character
 * boundary), which gives the exact STRICT offsets and REPLACE output. To
 * UTF-16: BMP blocks narrow with vpackusdw (astral ones: scalar region). To
 * UTF-8: ASCII blocks narrow to 8 bytes; BMP blocks use the pshufb encoder of
 * avx2_utf16_common.h with exact stores. SIMD runs while the block surely
 * fits; tails (< 8 values) are scalar.
 * References: Lemire & Mula 2022 (see avx2_utf16_to_utf8.c). */
#ifndef __AVX2__
#error "avx2_* files must be compiled with the avx2 tier flags (Makefile AVX2_FLAGS)"
#endif

#include "avx2_utf16_common.h"
#include "x86_prototypes.h"

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


enum out32 { OUT_UTF8, OUT_UTF16LE, OUT_UTF16BE };

static inline utfx_result scalar32(const char32_t *s, size_t n, void *d, size_t cap, unsigned flags,
                                   enum out32 t) {
  if (t == OUT_UTF8) return utfxi_convert_utf32_to_utf8_scalar(s, n, (char *)d, cap, flags);
  if (t == OUT_UTF16LE)
    return utfxi_convert_utf32_to_utf16le_scalar(s, n, (char16_t *)d, cap, flags);
  return utfxi_convert_utf32_to_utf16be_scalar(s, n, (char16_t *)d, cap, flags);
}

static inline utfx_result utf32_convert(const char32_t *s, size_t n, void *dst, size_t cap,
                                        unsigned flags, enum out32 t) {
  size_t unit = t == OUT_UTF8 ? 1 : 2, i = 0, w = 0, replaced = 0;
  unsigned char *d = (unsigned char *)dst;
  utfx_result r;
  while (n - i >= 8 && cap - w >= (t == OUT_UTF8 ? 24 : 8)) {
    __m256i v = load8(s + i), bad = invalid32(v);
    __m256i big = _mm256_cmpgt_epi32(v, _mm256_set1_epi32(t == OUT_UTF8 ? 0x7F : 0xFFFF));
    if (_mm256_testz_si256(bad, bad)) {
      if (_mm256_testz_si256(big, big)) {
        __m128i u = _mm_packus_epi32(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1));
        if (t == OUT_UTF8) {
          _mm_storel_epi64((__m128i *)(d + w), _mm_packus_epi16(u, u));
        } else {
          if (t == OUT_UTF16BE) u = _mm256_castsi256_si128(a2_bswap16(_mm256_castsi128_si256(u)));
          _mm_storeu_si128((__m128i *)(d + 2 * w), u);
        }
        i += 8;
        w += 8;
        continue;
      }
      if (t == OUT_UTF8 && _mm256_testz_si256(v, _mm256_set1_epi32(-0x10000))) {
        __m128i o0, o1;
        size_t l0, l1;
        a2_encode_3byte_x8(v, &o0, &l0, &o1, &l1);
        a2_store_prefix(d + w, o0, l0, l0 + l1 >= 16);
        a2_store_prefix(d + w + l0, o1, l1, 0);
        i += 8;
        w += l0 + l1;
        continue;
      }
    }
    r = scalar32(s + i, 8, d + unit * w, cap - w, flags, t);
    replaced += r.replaced;
    if (r.status != UTFX_OK) return utfxi_result(r.status, i + r.read, w + r.written, replaced);
    i += 8;
    w += r.written;
  }
  r = scalar32(s + i, n - i, d + unit * w, cap - w, flags, t);
  return utfxi_result(r.status, i + r.read, w + r.written, replaced + r.replaced);
}

utfx_result utfxi_convert_utf32_to_utf8_avx2(const char32_t *s, size_t n, char *d, size_t cap,
                                             unsigned flags) {
  return utf32_convert(s, n, d, cap, flags, OUT_UTF8);
}
utfx_result utfxi_convert_utf32_to_utf16le_avx2(const char32_t *s, size_t n, char16_t *d,
                                                size_t cap, unsigned flags) {
  return utf32_convert(s, n, d, cap, flags, OUT_UTF16LE);
}
utfx_result utfxi_convert_utf32_to_utf16be_avx2(const char32_t *s, size_t n, char16_t *d,
                                                size_t cap, unsigned flags) {
  return utf32_convert(s, n, d, cap, flags, OUT_UTF16BE);
}

