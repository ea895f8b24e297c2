/* AVX2 base64 encoding of 24 bytes to 32 characters, for the streaming
 * decoder's blocks (avx2_decoder_base64.c) and the avx2 tier's base64
 * (avx2_base64.c). Each 128-bit lane takes 12 bytes; a byte shuffle lays out
 * every 3-byte group as the dword (s1, s0, s2, s1) so that two 16-bit
 * multiplies move the four 6-bit fields into bytes 0-3, and a 16-entry table
 * indexed by the field's range gives the offset from field value to
 * character. */
#ifndef UTFX_X86_AVX2_BASE64_ENCODE_H
#define UTFX_X86_AVX2_BASE64_ENCODE_H

#include <immintrin.h>

/* Bytes one step reads: the upper lane loads p[12 .. 28). */
#define B64_AVX2_ENCODE_READ 28

struct b64_avx2_enc {
  __m256i spread, spread_back, offsets;
};

static inline struct b64_avx2_enc b64_avx2_enc_of(int url) {
  /* Offsets by range: 0 -> 0..25 ('A'), 1 -> 26..51 ('a' - 26), 2..11 ->
   * 52..61 ('0' - 52), 12 -> 62, 13 -> 63. */
  const char c62 = url ? '-' : '+', c63 = url ? '_' : '/';
  struct b64_avx2_enc k;
  k.spread = _mm256_setr_epi8(1, 0, 2, 1, 4, 3, 5, 4, 7, 6, 8, 7, 10, 9, 11, 10, /**/
                              1, 0, 2, 1, 4, 3, 5, 4, 7, 6, 8, 7, 10, 9, 11, 10);
  /* the same from a load 4 bytes lower: the low lane's bytes 4 on */
  k.spread_back = _mm256_setr_epi8(5, 4, 6, 5, 8, 7, 9, 8, 11, 10, 12, 11, 14, 13, 15, 14, /**/
                                   1, 0, 2, 1, 4, 3, 5, 4, 7, 6, 8, 7, 10, 9, 11, 10);
  k.offsets = _mm256_setr_epi8('A', 'a' - 26, '0' - 52, '0' - 52, '0' - 52, '0' - 52, '0' - 52,
                               '0' - 52, '0' - 52, '0' - 52, '0' - 52, '0' - 52, (char)(c62 - 62),
                               (char)(c63 - 63), 0, 0, /**/
                               'A', 'a' - 26, '0' - 52, '0' - 52, '0' - 52, '0' - 52, '0' - 52,
                               '0' - 52, '0' - 52, '0' - 52, '0' - 52, '0' - 52, (char)(c62 - 62),
                               (char)(c63 - 63), 0, 0);
  return k;
}

/* The characters of 8 groups laid out s1 s0 s2 s1 per dword (t). */
static inline __m256i b64_avx2_chars(__m256i t, const struct b64_avx2_enc *k) {
  /* s0 s1 / s1 s2 as 16-bit words: fields 0 and 2 by mulhi, 1 and 3 by mullo. */
  __m256i f02 = _mm256_mulhi_epu16(_mm256_and_si256(t, _mm256_set1_epi32(0x0FC0FC00)),
                                   _mm256_set1_epi32(0x04000040));
  __m256i f13 = _mm256_mullo_epi16(_mm256_and_si256(t, _mm256_set1_epi32(0x003F03F0)),
                                   _mm256_set1_epi32(0x01000010));
  __m256i idx = _mm256_or_si256(f02, f13);
  /* the range: idx - 51 saturated (1..12 from 52), plus 1 from 26 (the
   * compare's -1 subtracted): three instructions */
  __m256i range = _mm256_sub_epi8(_mm256_subs_epu8(idx, _mm256_set1_epi8(51)),
                                  _mm256_cmpgt_epi8(idx, _mm256_set1_epi8(25)));
  return _mm256_add_epi8(idx, _mm256_shuffle_epi8(k->offsets, range));
}

/* The 32 characters of p[0..24) (reads p[0..28)). */
static inline __m256i b64_avx2_encode(const unsigned char *p, const struct b64_avx2_enc *k) {
  __m128i lo = _mm_loadu_si128((const __m128i *)(const void *)p);
  __m128i hi = _mm_loadu_si128((const __m128i *)(const void *)(p + 12));
  __m256i in = _mm256_inserti128_si256(_mm256_castsi128_si256(lo), hi, 1);
  return b64_avx2_chars(_mm256_shuffle_epi8(in, k->spread), k);
}

/* The same reading p[-4..28) in one load, where p - 4 may be read. */
static inline __m256i b64_avx2_encode_back(const unsigned char *p, const struct b64_avx2_enc *k) {
  __m256i in = _mm256_loadu_si256((const __m256i *)(const void *)(p - 4));
  return b64_avx2_chars(_mm256_shuffle_epi8(in, k->spread_back), k);
}

#endif
