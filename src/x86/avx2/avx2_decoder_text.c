/* AVX2 hex and 'ascii' block kernels of the streaming decoder (the kernel
 * table's hex_blocks and ascii_blocks; src/decoder.c writes what is left
 * after the whole 16-byte blocks). Hex: each input byte widens to a 16-bit
 * lane holding its high nibble in the low byte and its low nibble in the
 * high byte, and one VPSHUFB looks the 32 nibbles up in "0123456789abcdef".
 * ASCII: the top bit cleared, then VPMOVZXBW. */
#ifndef __AVX2__
#error "avx2_decoder_text.c must be compiled with the AVX2 tier flags"
#endif

#include <immintrin.h>

#include "../x86_prototypes.h"

/* The 32 digits of the 16 bytes at p, in order. */
static inline __m256i hex_digits32(const unsigned char *p) {
  const __m256i digits = _mm256_broadcastsi128_si256(_mm_setr_epi8(
      '0', '1', '2', '3', '4', '5', '6', '7', '8', '9', 'a', 'b', 'c', 'd', 'e', 'f'));
  __m256i b = _mm256_cvtepu8_epi16(_mm_loadu_si128((const __m128i *)(const void *)p));
  __m256i nib = _mm256_or_si256(_mm256_srli_epi16(b, 4),
                                _mm256_slli_epi16(_mm256_and_si256(b, _mm256_set1_epi16(0x0F)), 8));
  return _mm256_shuffle_epi8(digits, nib);
}

size_t utfxi_hex_blocks_avx2(const unsigned char *p, size_t n, unsigned char *d8, char16_t *d16) {
  size_t i = 0;
  if (d8) {
    for (; n - i >= 16; i += 16)
      _mm256_storeu_si256((__m256i *)(void *)(d8 + 2 * i), hex_digits32(p + i));
  } else {
    for (; n - i >= 16; i += 16) {
      __m256i h = hex_digits32(p + i);
      _mm256_storeu_si256((__m256i *)(void *)(d16 + 2 * i),
                          _mm256_cvtepu8_epi16(_mm256_castsi256_si128(h)));
      _mm256_storeu_si256((__m256i *)(void *)(d16 + 2 * i + 16),
                          _mm256_cvtepu8_epi16(_mm256_extracti128_si256(h, 1)));
    }
  }
  return i;
}

size_t utfxi_ascii_blocks_avx2(const unsigned char *p, size_t n, char16_t *d) {
  const __m128i low7 = _mm_set1_epi8(0x7F);
  size_t i = 0;
  for (; n - i >= 32; i += 32) {
    __m128i a = _mm_and_si128(_mm_loadu_si128((const __m128i *)(const void *)(p + i)), low7);
    __m128i b = _mm_and_si128(_mm_loadu_si128((const __m128i *)(const void *)(p + i + 16)), low7);
    _mm256_storeu_si256((__m256i *)(void *)(d + i), _mm256_cvtepu8_epi16(a));
    _mm256_storeu_si256((__m256i *)(void *)(d + i + 16), _mm256_cvtepu8_epi16(b));
  }
  if (n - i >= 16) {
    __m128i a = _mm_and_si128(_mm_loadu_si128((const __m128i *)(const void *)(p + i)), low7);
    _mm256_storeu_si256((__m256i *)(void *)(d + i), _mm256_cvtepu8_epi16(a));
    i += 16;
  }
  return i;
}
