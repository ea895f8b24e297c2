/* AVX-512 UTF-32 to UTF-8 (validation, the UTF-16 length, to UTF-16 and to
 * Latin-1 are generic: avx512_generic.c).
 *
 * A value is ill-formed if it is above 0x10FFFF or a surrogate. The
 * conversion takes 16 values: an ill-formed one becomes U+FFFD in REPLACE
 * mode; in STRICT mode the rest goes to the scalar kernel (exact offsets).
 * ASCII blocks narrow with vpmovdb, others use the in-lane encoder +
 * vpcompressb of avx512_utf16_common.h. The first block that does not fit
 * in the destination goes to the scalar kernel. Block: 16 values. Tail:
 * masked.
 * References: Clausecker & Lemire 2023 (see avx512_utf16_common.h). */
#ifndef __AVX512VBMI2__
#error "avx512_* files must be compiled with the avx512 tier flags (UTFX_AVX512_FLAGS, sources.mk)"
#endif

#include "avx512_utf16_common.h"
#include "../x86_prototypes.h"

/* Constants, built once per call and pinned in registers (V_LOADED). */
struct u32c {
  __m512i d800, c800, c7f, cffff, max;
};

static inline void u32c_init(struct u32c *c) {
  c->d800 = _mm512_set1_epi32(0xD800);
  c->c800 = _mm512_set1_epi32(0x800);
  c->c7f = _mm512_set1_epi32(0x7F);
  c->cffff = _mm512_set1_epi32(0xFFFF);
  c->max = _mm512_set1_epi32(0x10FFFF);
  V_LOADED(c->d800);
  V_LOADED(c->c800);
  V_LOADED(c->c7f);
  V_LOADED(c->cffff);
  V_LOADED(c->max);
}

/* Lanes holding a surrogate (v - 0xD800 below 0x800, mod 2^32) or a value
 * above 0x10FFFF. */
static inline __mmask16 invalid32(__m512i v, const struct u32c *c) {
  return _mm512_cmpgt_epu32_mask(v, c->max) |
         _mm512_cmplt_epu32_mask(_mm512_sub_epi32(v, c->d800), c->c800);
}

static inline __mmask16 mask16(size_t k) { return (__mmask16)_bzhi_u32(0xFFFF, (unsigned)k); }

static inline utfx_result finish(const char32_t *s, size_t n, void *d, size_t cap, unsigned flags,
                                 size_t i, size_t w, size_t replaced) {
  utfx_result r = utfxi_convert_utf32_to_utf8_scalar(s + i, n - i, (char *)d + w, cap - w, flags);
  r.read += i;
  r.written += w;
  r.replaced += replaced;
  return r;
}

UTFXI_INLINE utfx_result utf32_to_utf8(const char32_t *s, size_t n, void *dst, size_t cap,
                                       unsigned flags) {
  const __m512i qword_order = _mm512_setr_epi64(0, 2, 4, 6, 1, 3, 5, 7);
  /* output dword j of the packed 64 ASCII values comes from dword
   * 4 * (j % 4) + j / 4 of the two-stage pack */
  const __m512i ascii_order =
      _mm512_setr_epi32(0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15);
  struct a512_utf8_consts uk;
  struct u32c c;
  size_t i = 0, w = 0, replaced = 0;
  __m512i c16_7f = _mm512_set1_epi16(0x7F), c16_3f00 = _mm512_set1_epi16(0x3F00);
  __m512i c16_80c0 = _mm512_set1_epi16((short)0x80C0);
  a512_utf8_consts_init(&uk);
  u32c_init(&c);
  V_LOADED(c16_7f);
  V_LOADED(c16_3f00);
  V_LOADED(c16_80c0);
  if (UTFXI_ALIGN_HEAD(*s, n) && (uintptr_t)s % 64) {
    /* A long input starts with the (at most 15) values that make the source
     * 64-byte aligned, by the scalar kernel: the loops load two to four
     * times the bytes they store, and a load across two cache lines costs
     * two. Values are independent, so any cut is a character boundary. */
    utfx_result r;
    i = utfxi_aligning_step(s, 4, 64, 0, 1);
    r = finish(s, i, dst, cap, flags, 0, 0, 0);
    if (r.status != UTFX_OK) return r;
    w = r.written;
    replaced = r.replaced;
  }
  while (i < n) {
    size_t k = n - i < 16 ? n - i : 16;
    __mmask16 m;
    if (n - i >= 64 && cap - w >= 64) {
      /* 64 ASCII values: two rounds of saturating packs, one permute */
      __m512i a = _mm512_loadu_si512(s + i), b = _mm512_loadu_si512(s + i + 16);
      __m512i x = _mm512_loadu_si512(s + i + 32), y = _mm512_loadu_si512(s + i + 48);
      __m512i hi = _mm512_max_epu32(_mm512_max_epu32(a, b), _mm512_max_epu32(x, y));
      if (!_mm512_cmpgt_epu32_mask(hi, c.c7f)) {
        __m512i bytes = _mm512_packus_epi16(_mm512_packus_epi32(a, b), _mm512_packus_epi32(x, y));
        _mm512_storeu_si512((unsigned char *)dst + w, _mm512_permutexvar_epi32(ascii_order, bytes));
        i += 64;
        w += 64;
        continue;
      }
    }
    if (n - i >= 32 && cap - w >= 64) {
      /* 32 values below 0x800: pack to 16-bit lanes (vpackusdw + vpermq),
       * then the 2-byte step of the UTF-16 encoder: each lane holds its 1-
       * or 2-byte form, vpcompressb keeps the lead bytes and the bytes with
       * the top bit set */
      __m512i a = _mm512_loadu_si512(s + i), b = _mm512_loadu_si512(s + i + 16);
      if (!_mm512_cmpge_epu32_mask(_mm512_max_epu32(a, b), c.c800)) {
        __m512i u = _mm512_permutexvar_epi64(qword_order, _mm512_packus_epi32(a, b));
        __mmask32 two = _mm512_cmpgt_epu16_mask(u, c16_7f);
        __m512i words = _mm512_mask_mov_epi16(
            u, two,
            _mm512_ternarylogic_epi32(_mm512_srli_epi16(u, 6),
                                      _mm512_and_si512(_mm512_slli_epi16(u, 8), c16_3f00), c16_80c0,
                                      0xFE));
        size_t len = 32 + (size_t)_mm_popcnt_u32(two);
        __m512i out =
            _mm512_maskz_compress_epi8(_mm512_movepi8_mask(words) | 0x5555555555555555ull, words);
        _mm512_mask_storeu_epi8((unsigned char *)dst + w, a512_mask64(len), out);
        i += 32;
        w += len;
        continue;
      }
      if (cap - w >= 96 && !(_mm512_cmpgt_epu32_mask(_mm512_max_epu32(a, b), c.cffff) |
                             _mm512_cmplt_epu32_mask(_mm512_min_epu32(_mm512_sub_epi32(a, c.d800),
                                                                      _mm512_sub_epi32(b, c.d800)),
                                                     c.c800))) {
        /* 32 BMP values, no surrogate */
        if (!_mm512_cmplt_epu32_mask(_mm512_min_epu32(a, b), c.c800)) {
          /* all 3 bytes (CJK): fixed layout, a vpermb squeezes 48 bytes
           * out of each 16 lanes, exact stores */
          const __m512i squeeze = _mm512_set_epi8(
              63, 62, 61, 60, 59, 58, 57, 56, 55, 54, 53, 52, 51, 50, 49, 48, 62, 61, 60, 58, 57,
              56, 54, 53, 52, 50, 49, 48, 46, 45, 44, 42, 41, 40, 38, 37, 36, 34, 33, 32, 30, 29,
              28, 26, 25, 24, 22, 21, 20, 18, 17, 16, 14, 13, 12, 10, 9, 8, 6, 5, 4, 2, 1, 0);
          unsigned char *d = (unsigned char *)dst + w;
          __m512i oa = _mm512_permutexvar_epi8(
              squeeze, _mm512_ternarylogic_epi32(_mm512_multishift_epi64_epi8(uk.ctrl3, a),
                                                 uk.fields, uk.mark3, 0xEA));
          __m512i ob = _mm512_permutexvar_epi8(
              squeeze, _mm512_ternarylogic_epi32(_mm512_multishift_epi64_epi8(uk.ctrl3, b),
                                                 uk.fields, uk.mark3, 0xEA));
          _mm256_storeu_si256((__m256i *)d, _mm512_castsi512_si256(oa));
          _mm_storeu_si128((__m128i *)(d + 32), _mm512_extracti32x4_epi32(oa, 2));
          _mm256_storeu_si256((__m256i *)(d + 48), _mm512_castsi512_si256(ob));
          _mm_storeu_si128((__m128i *)(d + 80), _mm512_extracti32x4_epi32(ob, 2));
          i += 32;
          w += 96;
          continue;
        } else {
          unsigned len0, len1;
          __m512i out0 = a512_encode_utf8_x16_bmp(a, 0, &len0, &uk);
          __m512i out1 = a512_encode_utf8_x16_bmp(b, 0, &len1, &uk);
          unsigned char *d = (unsigned char *)dst + w;
          /* out1's bytes cover out0's spill when there are enough of them */
          if (len0 + len1 >= 64)
            _mm512_storeu_si512(d, out0);
          else
            _mm512_mask_storeu_epi8(d, a512_mask64(len0), out0);
          _mm512_mask_storeu_epi8(d + len0, a512_mask64(len1), out1);
          i += 32;
          w += (size_t)len0 + len1;
          continue;
        }
      }
    }
    m = mask16(k);
    __m512i v = a512_load32(s + i, k);
    __mmask16 bad = invalid32(v, &c);
    if (bad) {
      if (!(flags & UTFX_REPLACE)) break;
      v = _mm512_mask_mov_epi32(v, bad, _mm512_set1_epi32(0xFFFD));
    }
    {
      unsigned char *d = (unsigned char *)dst + w;
      if (!_mm512_cmpgt_epu32_mask(v, c.c7f)) {
        if (cap - w < k) break;
        _mm_mask_storeu_epi8(d, m, _mm512_cvtepi32_epi8(v));
        w += k;
      } else {
        unsigned len;
        __m512i out = a512_encode_utf8_x16(v, (__mmask16)~m, &len, &uk);
        if (cap - w < len) break;
        _mm512_mask_storeu_epi8(d, a512_mask64(len), out);
        w += len;
      }
    }
    replaced += (size_t)_mm_popcnt_u32(bad);
    i += k;
  }
  if (i < n) return finish(s, n, dst, cap, flags, i, w, replaced);
  return utfxi_result(UTFX_OK, n, w, replaced);
}

utfx_result utfxi_convert_utf32_to_utf8_avx512(const char32_t *s, size_t n, char *d, size_t cap,
                                               unsigned flags) {
  return utf32_to_utf8(s, n, d, cap, flags);
}
