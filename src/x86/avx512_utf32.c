/* AVX-512 UTF-32 validation and UTF-32 to UTF-8 / UTF-16LE / UTF-16BE.
 *
 * A value is ill-formed if it is above 0x10FFFF or a surrogate. Validation
 * tests 4 x 16 values per iteration and hands a block with an error to the
 * scalar kernel. Conversions take 16 values: an ill-formed one becomes
 * U+FFFD in REPLACE mode; in STRICT mode the rest goes to the scalar kernel
 * (exact offsets). To UTF-8: ASCII blocks narrow with vpmovdb, others use the
 * in-lane encoder + vpcompressb of avx512_utf16_common.h. To UTF-16: BMP
 * blocks narrow with vpmovdw; otherwise each lane holds its 1 or 2 units and
 * vpcompressw packs them. The first block that does not fit in the
 * destination goes to the scalar kernel. Block: 16 values. Tail: masked.
 * References: Clausecker & Lemire 2023 (see avx512_utf16_validate.c). */
#ifndef __AVX512VBMI2__
#error "avx512_* files must be compiled with the avx512 tier flags (Makefile AVX512_FLAGS)"
#endif

#include "avx512_utf16_common.h"

/* Entry points (prototypes as in x86_kernels.h, which only dispatch.c includes). */
utfx_result utfxi_validate_utf32_avx512(const char32_t *, size_t);
utfx_result utfxi_convert_utf32_to_utf8_avx512(const char32_t *, size_t, char *, size_t, unsigned);
utfx_result utfxi_convert_utf32_to_utf16le_avx512(const char32_t *, size_t, char16_t *, size_t,
                                                  unsigned);
utfx_result utfxi_convert_utf32_to_utf16be_avx512(const char32_t *, size_t, char16_t *, size_t,
                                                  unsigned);

/* Lanes holding a surrogate or a value above 0x10FFFF. */
static inline __mmask16 invalid32(__m512i v) {
  __m512i top = _mm512_and_si512(v, _mm512_set1_epi32((int)0xFFFFF800u));
  return _mm512_cmpgt_epu32_mask(v, _mm512_set1_epi32(0x10FFFF)) |
         _mm512_cmpeq_epi32_mask(top, _mm512_set1_epi32(0xD800));
}

static inline __mmask16 mask16(size_t k) { return (__mmask16)_bzhi_u32(0xFFFF, (unsigned)k); }

utfx_result utfxi_validate_utf32_avx512(const char32_t *s, size_t n) {
  /* v - 0xD800 (mod 2^32) is below 0x800 exactly for surrogates: the
   * minimum over a group finds them, the maximum finds values > 0x10FFFF,
   * with no mask-register traffic per vector. */
  const __m512i d800 = _mm512_set1_epi32(0xD800);
  size_t i = 0;
  for (; n - i >= 64; i += 64) {
    __m512i a = _mm512_loadu_si512(s + i), b = _mm512_loadu_si512(s + i + 16);
    __m512i c = _mm512_loadu_si512(s + i + 32), d = _mm512_loadu_si512(s + i + 48);
    __m512i hi = _mm512_max_epu32(_mm512_max_epu32(a, b), _mm512_max_epu32(c, d));
    __m512i lo =
        _mm512_min_epu32(_mm512_min_epu32(_mm512_sub_epi32(a, d800), _mm512_sub_epi32(b, d800)),
                         _mm512_min_epu32(_mm512_sub_epi32(c, d800), _mm512_sub_epi32(d, d800)));
    if (_mm512_cmpgt_epu32_mask(hi, _mm512_set1_epi32(0x10FFFF)) |
        _mm512_cmplt_epu32_mask(lo, _mm512_set1_epi32(0x800)))
      break;
  }
  for (; i < n; i += 16) {
    size_t k = n - i < 16 ? n - i : 16;
    if (invalid32(a512_load32(s + i, k))) {
      utfx_result r = utfxi_validate_utf32_scalar(s + i, n - i);
      r.read += i;
      return r;
    }
  }
  return utfxi_result(UTFX_OK, n, 0, 0);
}

enum out32 { OUT_UTF8, OUT_UTF16LE, OUT_UTF16BE };

static inline utfx_result finish(const char32_t *s, size_t n, void *d, size_t cap, unsigned flags,
                                 enum out32 t, size_t i, size_t w, size_t replaced) {
  utfx_result r;
  if (t == OUT_UTF8)
    r = utfxi_convert_utf32_to_utf8_scalar(s + i, n - i, (char *)d + w, cap - w, flags);
  else if (t == OUT_UTF16LE)
    r = utfxi_convert_utf32_to_utf16le_scalar(s + i, n - i, (char16_t *)d + w, cap - w, flags);
  else
    r = utfxi_convert_utf32_to_utf16be_scalar(s + i, n - i, (char16_t *)d + w, cap - w, flags);
  r.read += i;
  r.written += w;
  r.replaced += replaced;
  return r;
}

static inline utfx_result utf32_convert(const char32_t *s, size_t n, void *dst, size_t cap,
                                        unsigned flags, enum out32 t) {
  const __m512i qword_order = _mm512_setr_epi64(0, 2, 4, 6, 1, 3, 5, 7);
  struct a512_utf8_consts uk;
  size_t i = 0, w = 0, replaced = 0;
  a512_utf8_consts_init(&uk);
  while (i < n) {
    size_t k = n - i < 16 ? n - i : 16;
    __mmask16 m;
    if (t != OUT_UTF8 && n - i >= 32 && cap - w >= 32) {
      /* 32 BMP non-surrogate values: vpackusdw + vpermq */
      __m512i a = _mm512_loadu_si512(s + i), b = _mm512_loadu_si512(s + i + 16);
      __m512i top = _mm512_or_si512(a, b);
      __m512i sa = _mm512_and_si512(a, _mm512_set1_epi32((int)0xFFFFF800u));
      __m512i sb = _mm512_and_si512(b, _mm512_set1_epi32((int)0xFFFFF800u));
      if (!(_mm512_test_epi32_mask(top, _mm512_set1_epi32((int)0xFFFF0000u)) |
            _mm512_cmpeq_epi32_mask(sa, _mm512_set1_epi32(0xD800)) |
            _mm512_cmpeq_epi32_mask(sb, _mm512_set1_epi32(0xD800)))) {
        __m512i u = _mm512_permutexvar_epi64(qword_order, _mm512_packus_epi32(a, b));
        if (t == OUT_UTF16BE) u = a512_bswap16(u);
        _mm512_storeu_si512((char16_t *)dst + w, u);
        i += 32;
        w += 32;
        continue;
      }
    }
    m = mask16(k);
    __m512i v = a512_load32(s + i, k);
    __mmask16 bad = invalid32(v);
    if (bad) {
      if (!(flags & UTFX_REPLACE)) break;
      v = _mm512_mask_mov_epi32(v, bad, _mm512_set1_epi32(0xFFFD));
    }
    if (t == OUT_UTF8) {
      unsigned char *d = (unsigned char *)dst + w;
      if (!_mm512_cmpge_epu32_mask(v, _mm512_set1_epi32(0x80))) {
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
    } else {
      char16_t *d = (char16_t *)dst + w;
      __mmask16 astral = _mm512_cmpge_epu32_mask(v, _mm512_set1_epi32(0x10000));
      if (!astral) {
        __m256i u = _mm512_cvtepi32_epi16(v);
        if (cap - w < k) break;
        if (t == OUT_UTF16BE) u = _mm512_castsi512_si256(a512_bswap16(_mm512_castsi256_si512(u)));
        _mm256_mask_storeu_epi16(d, m, u);
        w += k;
      } else {
        /* astral lanes: (high surrogate) | (low surrogate) << 16 */
        __m512i x = _mm512_sub_epi32(v, _mm512_set1_epi32(0x10000));
        __m512i hi = _mm512_add_epi32(_mm512_srli_epi32(x, 10), _mm512_set1_epi32(0xD800));
        __m512i lo = _mm512_add_epi32(_mm512_and_si512(x, _mm512_set1_epi32(0x3FF)),
                                      _mm512_set1_epi32(0xDC00));
        __m512i pair = _mm512_or_si512(hi, _mm512_slli_epi32(lo, 16));
        __m512i units = _mm512_mask_mov_epi32(v, astral, pair);
        __mmask32 keep = (__mmask32)(_pdep_u32(m, 0x55555555u) | _pdep_u32(astral, 0xAAAAAAAAu));
        size_t len = k + (size_t)_mm_popcnt_u32(astral);
        __m512i out = _mm512_maskz_compress_epi16(keep, units);
        if (cap - w < len) break;
        if (t == OUT_UTF16BE) out = a512_bswap16(out);
        _mm512_mask_storeu_epi16(d, a512_mask32(len), out);
        w += len;
      }
    }
    replaced += (size_t)_mm_popcnt_u32(bad);
    i += k;
  }
  if (i < n) return finish(s, n, dst, cap, flags, t, i, w, replaced);
  return utfxi_result(UTFX_OK, n, w, replaced);
}

utfx_result utfxi_convert_utf32_to_utf8_avx512(const char32_t *s, size_t n, char *d, size_t cap,
                                               unsigned flags) {
  return utf32_convert(s, n, d, cap, flags, OUT_UTF8);
}
utfx_result utfxi_convert_utf32_to_utf16le_avx512(const char32_t *s, size_t n, char16_t *d,
                                                  size_t cap, unsigned flags) {
  return utf32_convert(s, n, d, cap, flags, OUT_UTF16LE);
}
utfx_result utfxi_convert_utf32_to_utf16be_avx512(const char32_t *s, size_t n, char16_t *d,
                                                  size_t cap, unsigned flags) {
  return utf32_convert(s, n, d, cap, flags, OUT_UTF16BE);
}
