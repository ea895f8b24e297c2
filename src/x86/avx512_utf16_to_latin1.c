/* AVX-512 UTF-16LE/BE to Latin-1.
 *
 * A block of 32 units with every unit <= 0xFF narrows with vpmovwb. Any unit
 * above 0xFF (a character outside Latin-1, or a surrogate: an error in both
 * modes, since U+FFFD is not Latin-1 either) hands the rest to the scalar
 * kernel, which stops there with the exact offsets; so does a block that does
 * not fit in the destination. Block: 32 units. Tail: masked load and store.
 * References: Lemire & Mula 2022 (see avx512_utf16_common.h). */
#ifndef __AVX512VBMI2__
#error "avx512_* files must be compiled with the avx512 tier flags (UTFX_AVX512_FLAGS, sources.mk)"
#endif

#include "avx512_utf16_common.h"
#include "x86_prototypes.h"

UTFXI_INLINE utfx_result utf16_to_latin1_body(const char16_t *s, size_t n, char *d, size_t cap,
                                              unsigned flags, int be) {
  const __m512i qword_order = _mm512_setr_epi64(0, 2, 4, 6, 1, 3, 5, 7);
  size_t i = 0;
  /* whole 64-unit blocks: vpackuswb + vpermq (cheaper than vpmovwb:
   * docs/perf-decisions.md, 'UTF-16 -> Latin-1') */
  while (n - i >= 64 && cap - i >= 64) {
    __m512i a = _mm512_loadu_si512(s + i), b = _mm512_loadu_si512(s + i + 32);
    if (be) {
      a = a512_bswap16(a);
      b = a512_bswap16(b);
    }
    if (_mm512_test_epi16_mask(_mm512_or_si512(a, b), _mm512_set1_epi16((short)0xFF00))) break;
    _mm512_storeu_si512(d + i, _mm512_permutexvar_epi64(qword_order, _mm512_packus_epi16(a, b)));
    i += 64;
  }
  while (i < n) {
    size_t k = n - i < 32 ? n - i : 32;
    __mmask32 m = a512_mask32(k);
    __m512i v = a512_load16(s + i, k, be);
    if (_mm512_cmpgt_epu16_mask(v, _mm512_set1_epi16(0xFF)) || cap - i < k) break;
    _mm256_mask_storeu_epi8(d + i, m, _mm512_cvtepi16_epi8(v));
    i += k;
  }
  if (i < n) {
    utfx_result r =
        be ? utfxi_convert_utf16be_to_latin1_scalar(s + i, n - i, d + i, cap - i, flags)
           : utfxi_convert_utf16le_to_latin1_scalar(s + i, n - i, d + i, cap - i, flags);
    r.read += i;
    r.written += i;
    return r;
  }
  return utfxi_result(UTFX_OK, n, n, 0);
}

/* The body after a head: a long input starts with a masked step of the
 * units that make the source 64-byte aligned (the loop is load-bound, and a
 * load across two cache lines costs two); outside the body, as on avx2. */
UTFXI_INLINE utfx_result utf16_to_latin1(const char16_t *s, size_t n, char *d, size_t cap,
                                         unsigned flags, int be) {
  size_t k = 0;
  utfx_result r;
  if (UTFXI_ALIGN_HEAD(*s, n) && cap >= 256) {
    size_t h = utfxi_aligning_step(s, 2, 64, 0, 1);
    __m512i v = a512_load16(s, h, be);
    if (!_mm512_cmpgt_epu16_mask(v, _mm512_set1_epi16(0xFF))) {
      _mm256_mask_storeu_epi8(d, a512_mask32(h), _mm512_cvtepi16_epi8(v));
      k = h;
    }
  }
  r = utf16_to_latin1_body(s + k, n - k, d + k, cap - k, flags, be);
  return utfxi_result_after(&r, k, k, 0);
}

utfx_result utfxi_convert_utf16le_to_latin1_avx512(const char16_t *s, size_t n, char *d, size_t cap,
                                                   unsigned flags) {
  return utf16_to_latin1(s, n, d, cap, flags, 0);
}
utfx_result utfxi_convert_utf16be_to_latin1_avx512(const char16_t *s, size_t n, char *d, size_t cap,
                                                   unsigned flags) {
  return utf16_to_latin1(s, n, d, cap, flags, 1);
}
