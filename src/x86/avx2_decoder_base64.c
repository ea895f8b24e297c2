/* AVX2 base64 for the streaming decoder: 24 input bytes to 32 characters per
 * step. Each 128-bit lane takes 12 bytes; a byte shuffle lays out every
 * 3-byte group as the dword (s1, s0, s2, s1) so that two 16-bit multiplies
 * move the four 6-bit fields into bytes 0-3, and a 16-entry table indexed by
 * the field's range gives the offset from field value to character. */
#ifndef __AVX2__
#error "avx2_decoder_base64.c must be compiled with the AVX2 tier flags"
#endif

#include <immintrin.h>
#include <string.h>

#include "decoder_avx2.h"

size_t utfxi_base64_blocks_avx2(const unsigned char *p, size_t n, size_t blocks,
                                unsigned char *d8, char16_t *d16, int url) {
  const __m256i spread = _mm256_setr_epi8(1, 0, 2, 1, 4, 3, 5, 4, 7, 6, 8, 7, 10, 9, 11, 10,  /**/
                                          1, 0, 2, 1, 4, 3, 5, 4, 7, 6, 8, 7, 10, 9, 11, 10);
  /* Offsets by range: 0 -> 26..51 ('a' - 26), 1..10 -> 52..61 ('0' - 52),
   * 11 -> 62, 12 -> 63, 13 -> 0..25 ('A'). */
  const char c62 = url ? '-' : '+', c63 = url ? '_' : '/';
  const __m256i offsets = _mm256_setr_epi8(
      'a' - 26, '0' - 52, '0' - 52, '0' - 52, '0' - 52, '0' - 52, '0' - 52, '0' - 52, '0' - 52,
      '0' - 52, '0' - 52, (char)(c62 - 62), (char)(c63 - 63), 'A', 0, 0, 'a' - 26, '0' - 52,
      '0' - 52, '0' - 52, '0' - 52, '0' - 52, '0' - 52, '0' - 52, '0' - 52, '0' - 52, '0' - 52,
      (char)(c62 - 62), (char)(c63 - 63), 'A', 0, 0);
  size_t i = 0, w = 0;
  /* The upper lane loads p[i + 12 .. i + 28): 28 readable bytes needed. */
  for (; blocks > 0 && n - i >= 28; blocks--, i += 24, w += 32) {
    __m128i lo = _mm_loadu_si128((const __m128i *)(const void *)(p + i));
    __m128i hi = _mm_loadu_si128((const __m128i *)(const void *)(p + i + 12));
    __m256i in = _mm256_inserti128_si256(_mm256_castsi128_si256(lo), hi, 1);
    __m256i t = _mm256_shuffle_epi8(in, spread);
    /* s0 s1 / s1 s2 as 16-bit words: fields 0 and 2 by mulhi, 1 and 3 by mullo. */
    __m256i f02 = _mm256_mulhi_epu16(_mm256_and_si256(t, _mm256_set1_epi32(0x0FC0FC00)),
                                     _mm256_set1_epi32(0x04000040));
    __m256i f13 = _mm256_mullo_epi16(_mm256_and_si256(t, _mm256_set1_epi32(0x003F03F0)),
                                     _mm256_set1_epi32(0x01000010));
    __m256i idx = _mm256_or_si256(f02, f13);
    __m256i range = _mm256_subs_epu8(idx, _mm256_set1_epi8(51));
    __m256i below26 = _mm256_cmpgt_epi8(_mm256_set1_epi8(26), idx);
    __m256i chars;
    range = _mm256_or_si256(range, _mm256_and_si256(below26, _mm256_set1_epi8(13)));
    chars = _mm256_add_epi8(idx, _mm256_shuffle_epi8(offsets, range));
    if (d8) {
      _mm256_storeu_si256((__m256i *)(void *)(d8 + w), chars);
    } else {
      _mm256_storeu_si256((__m256i *)(void *)(d16 + w),
                          _mm256_cvtepu8_epi16(_mm256_castsi256_si128(chars)));
      _mm256_storeu_si256((__m256i *)(void *)(d16 + w + 16),
                          _mm256_cvtepu8_epi16(_mm256_extracti128_si256(chars, 1)));
    }
  }
  return i;
}
