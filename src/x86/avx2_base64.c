/* The avx2 tier's base64 (src/simd/generic_base64.h): 32 characters to 24
 * bytes per block. Characters are classified by range compares (letters,
 * digits, and the alphabet's two symbols), which also reject every byte
 * from 0x80 (negative as signed bytes); encoding is the streaming decoder's
 * block kernel (avx2_decoder_base64.c). */
#include "vec_avx2.h"

#include "x86_prototypes.h"
#include "../scalar/base64.h"

/* The characters of values 62 and 63 (two of each for both alphabets). */
struct g64_alphabet {
  __m256i c62a, c62b, c63a, c63b;
};

static inline struct g64_alphabet g64_alphabet_of(unsigned flags) {
  struct g64_alphabet a;
  unsigned which = utfxi_b64_alphabet(flags);
  a.c62a = _mm256_set1_epi8(which == 1 ? '-' : '+');
  a.c62b = _mm256_set1_epi8(which == 0 ? '+' : '-');
  a.c63a = _mm256_set1_epi8(which == 1 ? '_' : '/');
  a.c63b = _mm256_set1_epi8(which == 0 ? '/' : '_');
  return a;
}

/* Bytes in lo..hi (signed compares: bytes from 0x80 are never in). */
static inline __m256i b64_in(__m256i c, char lo, char hi) {
  return _mm256_and_si256(_mm256_cmpgt_epi8(c, _mm256_set1_epi8((char)(lo - 1))),
                          _mm256_cmpgt_epi8(_mm256_set1_epi8((char)(hi + 1)), c));
}

/* The 6-bit values of 32 characters; 0 if one is outside the alphabet. */
static inline int b64_values(__m256i c, const struct g64_alphabet *a, __m256i *values) {
  __m256i upper = b64_in(c, 'A', 'Z'), lower = b64_in(c, 'a', 'z'), digit = b64_in(c, '0', '9');
  __m256i is62 = _mm256_or_si256(_mm256_cmpeq_epi8(c, a->c62a), _mm256_cmpeq_epi8(c, a->c62b));
  __m256i is63 = _mm256_or_si256(_mm256_cmpeq_epi8(c, a->c63a), _mm256_cmpeq_epi8(c, a->c63b));
  __m256i symbol = _mm256_or_si256(is62, is63);
  __m256i valid = _mm256_or_si256(_mm256_or_si256(upper, lower), _mm256_or_si256(digit, symbol));
  __m256i offset;
  if ((uint32_t)_mm256_movemask_epi8(valid) != 0xFFFFFFFFu) return 0;
  offset = _mm256_or_si256(_mm256_and_si256(upper, _mm256_set1_epi8(-'A')),
                           _mm256_and_si256(lower, _mm256_set1_epi8(26 - 'a')));
  offset = _mm256_or_si256(offset, _mm256_and_si256(digit, _mm256_set1_epi8(52 - '0')));
  /* Symbols: 62 + (0 or 1), in place of the character. */
  *values = _mm256_blendv_epi8(_mm256_add_epi8(c, offset),
                               _mm256_sub_epi8(_mm256_set1_epi8(62), is63), symbol);
  return 1;
}

/* Four 6-bit values per dword to three bytes, 24 bytes stored at d. */
static inline void b64_pack_store(__m256i values, unsigned char *d) {
  const __m256i order = _mm256_setr_epi8(2, 1, 0, 6, 5, 4, 10, 9, 8, 14, 13, 12, -1, -1, -1, -1,
                                         2, 1, 0, 6, 5, 4, 10, 9, 8, 14, 13, 12, -1, -1, -1, -1);
  __m256i pairs = _mm256_maddubs_epi16(values, _mm256_set1_epi32(0x01400140));
  __m256i groups = _mm256_madd_epi16(pairs, _mm256_set1_epi32(0x00011000));
  __m256i bytes = _mm256_shuffle_epi8(groups, order);
  bytes = _mm256_permutevar8x32_epi32(bytes, _mm256_setr_epi32(0, 1, 2, 4, 5, 6, 3, 7));
  _mm_storeu_si128((__m128i *)(void *)d, _mm256_castsi256_si128(bytes));
  _mm_storel_epi64((__m128i *)(void *)(d + 16), _mm256_extracti128_si256(bytes, 1));
}

/* 32 characters as bytes; from UTF-16 only when every unit is below 0x100. */
static inline int b64_load(const void *src, size_t i, int wide, __m256i *c) {
  if (wide) {
    const char16_t *p = (const char16_t *)src + i;
    __m256i a = v_load(p), b = v_load(p + 16);
    if (!_mm256_testz_si256(_mm256_or_si256(a, b), _mm256_set1_epi16((short)0xFF00))) return 0;
    *c = _mm256_permute4x64_epi64(_mm256_packus_epi16(a, b), 0xD8);
    return 1;
  }
  *c = v_load((const char *)src + i);
  return 1;
}

static inline int g64_decode_block(const void *src, size_t i, int wide, unsigned char *d,
                                   const struct g64_alphabet *a) {
  __m256i c, values;
  if (!b64_load(src, i, wide, &c) || !b64_values(c, a, &values)) return 0;
  if (d) b64_pack_store(values, d);
  return 1;
}

static inline size_t g64_encode_blocks(const unsigned char *s, size_t n, size_t blocks, char *d,
                                       int url) {
  return utfxi_base64_blocks_avx2(s, n, blocks, (unsigned char *)d, NULL, url);
}

#include "../simd/generic_base64.h"
