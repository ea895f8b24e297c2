/* AVX2 Latin-1 to UTF-8 (to UTF-16 and UTF-32: simd/generic_latin1.h).
 *
 * 64 or 32 ASCII bytes are copied as they are; otherwise 16 bytes are
 * widened to 16-bit lanes holding each byte's 1- or 2-byte form, and a pshufb
 * per 8 bytes (utfxi_pack_2byte, indexed by which bytes are >= 0x80) packs
 * them. A 16-byte store may spill past its output only when the next 16
 * input bytes (which make at least 16 more bytes) will surely be written;
 * otherwise exactly the output bytes are stored. Latin-1 is always valid;
 * only the destination can stop a conversion: SIMD runs while the block
 * surely fits, scalar code finishes. Tails (< 16 bytes) are scalar.
 * References: Lemire & Mula 2022 (see avx2_utf16_to_utf8.c). */
#ifndef __AVX2__
#error "avx2_* files must be compiled with the avx2 tier flags (UTFX_AVX2_FLAGS, sources.mk)"
#endif

#include "avx2_utf16_common.h"
#include "../x86_prototypes.h"

utfx_result utfxi_convert_latin1_to_utf8_avx2(const char *src, size_t n, char *dst, size_t cap,
                                              unsigned flags) {
  const unsigned char *s = (const unsigned char *)src;
  unsigned char *d = (unsigned char *)dst;
  size_t i = 0, w = 0;
  utfx_result r;
  (void)flags;
  while (n - i >= 16 && cap - w >= 64) {
    __m128i x;
    uint32_t high;
    if (n - i >= 64) { /* ASCII runs: 64 bytes a step (cap - w >= 64: room) */
      __m256i y0 = _mm256_loadu_si256((const __m256i *)(s + i));
      __m256i y1 = _mm256_loadu_si256((const __m256i *)(s + i + 32));
      if (!_mm256_movemask_epi8(_mm256_or_si256(y0, y1))) {
        _mm256_storeu_si256((__m256i *)(d + w), y0);
        _mm256_storeu_si256((__m256i *)(d + w + 32), y1);
        i += 64;
        w += 64;
        continue;
      }
    }
    if (n - i >= 32) {
      __m256i y = _mm256_loadu_si256((const __m256i *)(s + i));
      if (!_mm256_movemask_epi8(y)) {
        _mm256_storeu_si256((__m256i *)(d + w), y);
        i += 32;
        w += 32;
        continue;
      }
    }
    x = _mm_loadu_si128((const __m128i *)(s + i));
    high = (uint32_t)_mm_movemask_epi8(x);
    if (!high) {
      _mm_storeu_si128((__m128i *)(d + w), x);
      i += 16;
      w += 16;
      continue;
    }
    /* A run of blocks with non-ASCII bytes: a loop of its own, which loads
     * the next block ahead (one outer loop that tried the ASCII steps first
     * at every block was slower: docs/perf-decisions.md, 'Latin-1 -> UTF-8'). */
    for (;;) {
      __m256i v = _mm256_cvtepu8_epi16(x);
      __m128i out0, out1;
      size_t len0 = 8 + (size_t)_mm_popcnt_u32(high & 0xFF);
      size_t len1 = 8 + (size_t)_mm_popcnt_u32(high >> 8);
      /* the next 16 bytes exist and fit, so they overwrite any spill */
      int more = n - i >= 32 && cap - w >= 96;
      if (more) x = _mm_loadu_si128((const __m128i *)(s + i + 16));
      a2_encode_2byte_x16(v, high, &out0, &out1);
      a2_store_prefix(d + w, out0, len0, 1);
      a2_store_prefix(d + w + len0, out1, len1, more);
      i += 16;
      w += len0 + len1;
      if (!more) break;
      high = (uint32_t)_mm_movemask_epi8(x);
      if (!high) break; /* ASCII: the steps above */
    }
  }
  r = utfxi_convert_latin1_to_utf8_scalar(src + i, n - i, dst + w, cap - w, 0);
  return utfxi_result_after(&r, i, w, 0);
}
