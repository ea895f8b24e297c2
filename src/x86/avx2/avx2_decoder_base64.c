/* AVX2 base64 for the streaming decoder: 24 input bytes to 32 characters per
 * step (avx2_base64_encode.h). */
#ifndef __AVX2__
#error "avx2_decoder_base64.c must be compiled with the AVX2 tier flags"
#endif

#include <immintrin.h>
#include <string.h>

#include "../../scalar/base64.h"
#include "avx2_base64_encode.h"
#include "decoder_avx2.h"

/* Two blocks a step from p + i to d8 + w while the loads stay in p[0..n),
 * each from 4 bytes before it; `ahead`: each step's output line asked for
 * early (utfxi_b64_ahead). Returns the blocks left. */
static inline size_t b64_avx2_pairs(const unsigned char *p, size_t n, size_t blocks,
                                    unsigned char *d8, const struct b64_avx2_enc *k, size_t *pi,
                                    size_t *pw, const int ahead) {
  size_t i = *pi, w = *pw;
  for (; blocks >= 2 && n - i >= 24 + B64_AVX2_ENCODE_READ; blocks -= 2, i += 48, w += 64) {
    __m256i c0 = b64_avx2_encode_back(p + i, k), c1 = b64_avx2_encode_back(p + i + 24, k);
    if (ahead) utfxi_b64_ahead(d8 + w);
    _mm256_storeu_si256((__m256i *)(void *)(d8 + w), c0);
    _mm256_storeu_si256((__m256i *)(void *)(d8 + w + 32), c1);
  }
  *pi = i;
  *pw = w;
  return blocks;
}

size_t utfxi_base64_blocks_avx2(const unsigned char *p, size_t n, size_t blocks,
                                unsigned char *d8, char16_t *d16, int url) {
  const struct b64_avx2_enc k = b64_avx2_enc_of(url);
  size_t i = 0, w = 0;
  /* byte output: the first block as two loads, the rest as one each, from 4
   * bytes before it (the insert saved), two blocks a step */
  if (d8 && blocks >= 3 && n >= 24 + B64_AVX2_ENCODE_READ) {
    _mm256_storeu_si256((__m256i *)(void *)d8, b64_avx2_encode(p, &k));
    i = 24, w = 32, blocks--;
    blocks = 24 * blocks >= UTFXI_B64_AHEAD_FROM ? b64_avx2_pairs(p, n, blocks, d8, &k, &i, &w, 1)
                                                 : b64_avx2_pairs(p, n, blocks, d8, &k, &i, &w, 0);
  }
  for (; blocks > 0 && n - i >= B64_AVX2_ENCODE_READ; blocks--, i += 24, w += 32) {
    __m256i chars = b64_avx2_encode(p + i, &k);
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
