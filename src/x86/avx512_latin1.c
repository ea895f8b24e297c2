/* AVX-512 Latin-1 to UTF-8, UTF-16LE/BE and UTF-32.
 *
 * To UTF-8: 64 ASCII bytes are copied as they are; otherwise each half of 32
 * bytes is widened to 16-bit lanes, every byte >= 0x80 becomes its 2-byte
 * form in its lane, and vpcompressb drops the unused high bytes (as in the
 * 2-byte path of avx512_utf16_to_utf8.c). To UTF-16/UTF-32: zero extension
 * (and a byte swap for UTF-16BE). Latin-1 is always valid; only the
 * destination can stop a conversion. When cap >= 2 * n (UTF-8) the loop runs
 * unchecked; otherwise each block's length is checked before its store and
 * the first block that does not fit goes to the scalar kernel.
 * 256 ASCII bytes are copied in one step. A plain 64-byte store may spill
 * past its output only where the next store or the next 32 input bytes
 * (which make at least 32 bytes, room checked) overwrite the spill; other
 * stores are masked to the exact length. Block: 64 / 32 bytes. Tail: masked
 * loads and stores, exact to the byte.
 * References: Clausecker & Lemire 2023 (see avx512_utf16_common.h). */
#ifndef __AVX512VBMI2__
#error "avx512_* files must be compiled with the avx512 tier flags (Makefile AVX512_FLAGS)"
#endif

#include "avx512_utf16_common.h"
#include "x86_prototypes.h"

A512_BODY utfx_result latin1_to_utf8_body(const unsigned char *s, size_t n, unsigned char *d,
                                          size_t cap, int bounded) {
  __m512i c3f00 = _mm512_set1_epi16(0x3F00), c80c0 = _mm512_set1_epi16((short)0x80C0);
  size_t i = 0, w = 0, slow_until = 0;
  A512_PIN(c3f00);
  A512_PIN(c80c0);
  while (i < n) {
    size_t k = n - i < 64 ? n - i : 64, h;
    if (i >= slow_until && n - i >= 256 && (!bounded || cap - w >= 256)) {
      /* 256 ASCII bytes: a plain copy */
      __m512i a = _mm512_loadu_si512(s + i), b = _mm512_loadu_si512(s + i + 64);
      __m512i c = _mm512_loadu_si512(s + i + 128), e = _mm512_loadu_si512(s + i + 192);
      if (!_mm512_movepi8_mask(_mm512_ternarylogic_epi32(a, b, _mm512_or_si512(c, e), 0xFE))) {
        _mm512_storeu_si512(d + w, a);
        _mm512_storeu_si512(d + w + 64, b);
        _mm512_storeu_si512(d + w + 128, c);
        _mm512_storeu_si512(d + w + 192, e);
        i += 256;
        w += 256;
        continue;
      }
      slow_until = i + 256; /* not ASCII: go by 64 bytes for a while */
    }
    __mmask64 m = a512_mask64(k);
    __m512i v = a512_load8(s + i, k);
    __mmask64 high = _mm512_movepi8_mask(v);
    if (!high) {
      if (bounded && cap - w < k) break;
      if (k == 64)
        _mm512_storeu_si512(d + w, v);
      else
        _mm512_mask_storeu_epi8(d + w, m, v);
      i += k;
      w += k;
      continue;
    }
    if (k == 64 && (!bounded || cap - w >= 128)) {
      /* 64 bytes, straight-line: two halves of 32 widened to 16-bit lanes */
      __m512i u0 = _mm512_cvtepu8_epi16(_mm512_castsi512_si256(v));
      __m512i u1 = _mm512_cvtepu8_epi16(_mm512_extracti64x4_epi64(v, 1));
      __m512i w0 = _mm512_mask_mov_epi16(
          u0, (__mmask32)high,
          _mm512_ternarylogic_epi32(_mm512_srli_epi16(u0, 6),
                                    _mm512_and_si512(_mm512_slli_epi16(u0, 8), c3f00), c80c0,
                                    0xFE));
      __m512i w1 = _mm512_mask_mov_epi16(
          u1, (__mmask32)(high >> 32),
          _mm512_ternarylogic_epi32(_mm512_srli_epi16(u1, 6),
                                    _mm512_and_si512(_mm512_slli_epi16(u1, 8), c3f00), c80c0,
                                    0xFE));
      size_t len0 = 32 + (size_t)_mm_popcnt_u32((uint32_t)high);
      size_t len1 = 32 + (size_t)_mm_popcnt_u32((uint32_t)(high >> 32));
      /* first byte of every lane, and both bytes of every 2-byte form */
      __m512i out0 =
          _mm512_maskz_compress_epi8(_mm512_movepi8_mask(w0) | 0x5555555555555555ull, w0);
      __m512i out1 =
          _mm512_maskz_compress_epi8(_mm512_movepi8_mask(w1) | 0x5555555555555555ull, w1);
      /* out1's store covers what out0's spills; the next 32 input bytes
       * (at least 32 output bytes, room checked) cover what out1's spills */
      _mm512_storeu_si512(d + w, out0);
      if (n - i - 64 >= 32 && (!bounded || cap - w >= 192))
        _mm512_storeu_si512(d + w + len0, out1);
      else
        _mm512_mask_storeu_epi8(d + w + len0, a512_mask64(len1), out1);
      i += 64;
      w += len0 + len1;
      continue;
    }
    /* two halves of up to 32 bytes */
    for (h = 0; h < k; h += 32) {
      size_t kh = k - h < 32 ? k - h : 32;
      __mmask32 mh = a512_mask32(kh), hh = (__mmask32)(high >> h);
      size_t len = kh + (size_t)_mm_popcnt_u32(hh);
      __m512i u =
          _mm512_cvtepu8_epi16(h ? _mm512_extracti64x4_epi64(v, 1) : _mm512_castsi512_si256(v));
      __m512i words, out;
      if (bounded && cap - w < len) goto finish;
      words = _mm512_mask_mov_epi16(
          u, hh,
          _mm512_ternarylogic_epi32(_mm512_srli_epi16(u, 6),
                                    _mm512_and_si512(_mm512_slli_epi16(u, 8), c3f00), c80c0, 0xFE));
      /* every 2-byte form's bytes have their top bit set, ASCII bytes not */
      out = _mm512_maskz_compress_epi8(
          (__mmask64)(_mm512_movepi8_mask(words) | _pdep_u64(mh, 0x5555555555555555ull)), words);
      /* A plain store writes up to 32 bytes past the output; the next 32
       * input bytes (at least 32 output bytes, room checked) overwrite them. */
      if (n - i - kh >= 32 && (!bounded || cap - w - len >= 64))
        _mm512_storeu_si512(d + w, out);
      else
        _mm512_mask_storeu_epi8(d + w, a512_mask64(len), out);
      w += len;
      i += kh;
    }
  }
finish:
  if (i < n) {
    utfx_result r =
        utfxi_convert_latin1_to_utf8_scalar((const char *)s + i, n - i, (char *)d + w, cap - w, 0);
    r.read += i;
    r.written += w;
    return r;
  }
  return utfxi_result(UTFX_OK, n, w, 0);
}

utfx_result utfxi_convert_latin1_to_utf8_avx512(const char *s, size_t n, char *d, size_t cap,
                                                unsigned flags) {
  (void)flags;
  if (cap / 2 >= n)
    return latin1_to_utf8_body((const unsigned char *)s, n, (unsigned char *)d, cap, 0);
  return latin1_to_utf8_body((const unsigned char *)s, n, (unsigned char *)d, cap, 1);
}

/* The first kb <= 32 bytes at s, widened to UTF-16 at d (masked). */
static inline void latin1_to_utf16_x32(const char *s, size_t kb, char16_t *d, int be) {
  __mmask32 m = a512_mask32(kb);
  __m512i u = _mm512_cvtepu8_epi16(_mm256_maskz_loadu_epi8(m, s));
  if (be) u = a512_bswap16(u);
  _mm512_mask_storeu_epi16(d, m, u);
}

/* The same for kb <= 16 bytes to UTF-32. */
static inline void latin1_to_utf32_x16(const char *s, size_t kb, char32_t *d) {
  __mmask16 m = (__mmask16)_bzhi_u32(0xFFFF, (unsigned)kb);
  _mm512_mask_storeu_epi32(d, m, _mm512_cvtepu8_epi32(_mm_maskz_loadu_epi8(m, s)));
}

/* Units before d's next cache line, for a long run: widening loops are
 * store-bound, and a store across two lines costs two (malloc'd buffers sit
 * 16 bytes past a line start). */
static inline size_t units_to_line(const void *d, size_t unit, size_t k) {
  uintptr_t a = (uintptr_t)d;
  return k >= 256 && a % unit == 0 ? (size_t)(-a % 64) / unit : 0;
}

static inline utfx_result latin1_to_utf16(const char *s, size_t n, char16_t *d, size_t cap,
                                          int be) {
  size_t k = n < cap ? n : cap, i = units_to_line(d, 2, k);
  if (i) latin1_to_utf16_x32(s, i, d, be);
  for (; k - i >= 64; i += 64) {
    __m512i a = _mm512_cvtepu8_epi16(_mm256_loadu_si256((const __m256i *)(s + i)));
    __m512i b = _mm512_cvtepu8_epi16(_mm256_loadu_si256((const __m256i *)(s + i + 32)));
    if (be) {
      a = a512_bswap16(a);
      b = a512_bswap16(b);
    }
    _mm512_storeu_si512(d + i, a);
    _mm512_storeu_si512(d + i + 32, b);
  }
  for (; i < k; i += 32) latin1_to_utf16_x32(s + i, k - i < 32 ? k - i : 32, d + i, be);
  return utfxi_result(k == n ? UTFX_OK : UTFX_DST_FULL, k, k, 0);
}

utfx_result utfxi_convert_latin1_to_utf16le_avx512(const char *s, size_t n, char16_t *d, size_t cap,
                                                   unsigned flags) {
  (void)flags;
  return latin1_to_utf16(s, n, d, cap, 0);
}
utfx_result utfxi_convert_latin1_to_utf16be_avx512(const char *s, size_t n, char16_t *d, size_t cap,
                                                   unsigned flags) {
  (void)flags;
  return latin1_to_utf16(s, n, d, cap, 1);
}

utfx_result utfxi_convert_latin1_to_utf32_avx512(const char *s, size_t n, char32_t *d, size_t cap,
                                                 unsigned flags) {
  size_t k = n < cap ? n : cap, i = units_to_line(d, 4, k);
  (void)flags;
  if (i) latin1_to_utf32_x16(s, i, d);
  for (; k - i >= 32; i += 32) {
    _mm512_storeu_si512(d + i, _mm512_cvtepu8_epi32(_mm_loadu_si128((const __m128i *)(s + i))));
    _mm512_storeu_si512(d + i + 16,
                        _mm512_cvtepu8_epi32(_mm_loadu_si128((const __m128i *)(s + i + 16))));
  }
  for (; i < k; i += 16) latin1_to_utf32_x16(s + i, k - i < 16 ? k - i : 16, d + i);
  return utfxi_result(k == n ? UTFX_OK : UTFX_DST_FULL, k, k, 0);
}
