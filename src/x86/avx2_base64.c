/* The avx2 tier's base64 (src/simd/generic_base64.h): 32 characters to 24
 * bytes per block. Characters are checked by two nibble lookups (PSHUFB) and
 * mapped by a delta per high nibble, the alphabet's two symbols apart;
 * VPMADDUBSW / VPMADDWD join four 6-bit values into 24 bits. Encoding is the
 * streaming decoder's block kernel (avx2_decoder_base64.c). */
#include "vec_avx2.h"

#include "x86_prototypes.h"
#include "../scalar/base64.h"

/* Validity by nibbles: bit h of b64_invalid_lo[alphabet][lo] is set when
 * the character (h << 4 | lo), h < 8, is not in the alphabet (whitespace and
 * '=' included: they are for the scalar steps); b64_hi_bit[h] is that bit,
 * and for h >= 8 (bytes from 0x80) bit 0, set in every entry (no character
 * below 0x10 is in an alphabet). A byte is valid iff the two lookups share
 * no bit. */
static const uint8_t b64_invalid_lo[3][16] = {
    {0x57, 0x07, 0x07, 0x07, 0x07, 0x07, 0x07, 0x07, 0x07, 0x07, 0x0F, 0xAB, 0xAF, 0xAF, 0xAF, 0xAB},
    {0x57, 0x07, 0x07, 0x07, 0x07, 0x07, 0x07, 0x07, 0x07, 0x07, 0x0F, 0xAF, 0xAF, 0xAB, 0xAF, 0x8F},
    {0x57, 0x07, 0x07, 0x07, 0x07, 0x07, 0x07, 0x07, 0x07, 0x07, 0x0F, 0xAB, 0xAF, 0xAB, 0xAF, 0x8B},
};

/* The alphabet's constants, each a whole vector (loaded, not rebuilt in the
 * loop): the nibble tables, value - character by high nibble for letters
 * and digits, and the characters of values 62 and 63 (two of each, for
 * both alphabets at once). */
struct g64_alphabet {
  __m256i invalid_lo, hi_bit, delta, c62a, c62b, c63a, c63b;
};

static inline struct g64_alphabet g64_alphabet_of(unsigned flags) {
  struct g64_alphabet a;
  unsigned which = utfxi_b64_alphabet(flags);
  a.invalid_lo = _mm256_broadcastsi128_si256(
      _mm_loadu_si128((const __m128i *)(const void *)b64_invalid_lo[which]));
  a.hi_bit = V_TABLE16(1, 2, 4, 8, 16, 32, 64, -128, 1, 1, 1, 1, 1, 1, 1, 1);
  a.delta = V_TABLE16(0, 0, 0, 52 - '0', -'A', -'A', 26 - 'a', 26 - 'a', 0, 0, 0, 0, 0, 0, 0, 0);
  a.c62a = _mm256_set1_epi8(which == 1 ? '-' : '+');
  a.c62b = _mm256_set1_epi8(which == 0 ? '+' : '-');
  a.c63a = _mm256_set1_epi8(which == 1 ? '_' : '/');
  a.c63b = _mm256_set1_epi8(which == 0 ? '/' : '_');
  return a;
}

/* The 6-bit values of 32 characters; 0 if one is outside the alphabet. */
static inline int b64_values(__m256i c, const struct g64_alphabet *a, __m256i *values) {
  const __m256i nib = _mm256_set1_epi8(0x0F);
  __m256i hi = _mm256_and_si256(_mm256_srli_epi16(c, 4), nib);
  __m256i bad = _mm256_and_si256(_mm256_shuffle_epi8(a->invalid_lo, _mm256_and_si256(c, nib)),
                                 _mm256_shuffle_epi8(a->hi_bit, hi));
  __m256i is62, is63;
  if (!_mm256_testz_si256(bad, bad)) return 0;
  is62 = _mm256_or_si256(_mm256_cmpeq_epi8(c, a->c62a), _mm256_cmpeq_epi8(c, a->c62b));
  is63 = _mm256_or_si256(_mm256_cmpeq_epi8(c, a->c63a), _mm256_cmpeq_epi8(c, a->c63b));
  /* Symbols: 62 + (0 or 1), in place of the letters' and digits' delta. */
  *values = _mm256_blendv_epi8(_mm256_add_epi8(c, _mm256_shuffle_epi8(a->delta, hi)),
                               _mm256_sub_epi8(_mm256_set1_epi8(62), is63),
                               _mm256_or_si256(is62, is63));
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

/* Clean blocks only: anything else goes to the scalar steps. */
static inline size_t g64_decode_block(const void *src, size_t i, int wide, unsigned char *d,
                                      const struct g64_alphabet *a, size_t *bytes) {
  __m256i c, values;
  if (!b64_load(src, i, wide, &c) || !b64_values(c, a, &values)) return 0;
  if (d) b64_pack_store(values, d);
  *bytes = 24;
  return 32;
}

static inline size_t g64_encode_blocks(const unsigned char *s, size_t n, size_t blocks, char *d,
                                       int url) {
  return utfxi_base64_blocks_avx2(s, n, blocks, (unsigned char *)d, NULL, url);
}

#include "../simd/generic_base64.h"
