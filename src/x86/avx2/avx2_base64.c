/* The avx2 tier's base64 (src/simd/generic_base64.h): 32 characters to 24
 * bytes per block. Characters are checked by two nibble lookups (PSHUFB) and
 * mapped by a delta per high nibble, the alphabet's two symbols apart;
 * VPMADDUBSW / VPMADDWD join four 6-bit values into 24 bits; whitespace in a
 * block is squeezed out with the PSHUFB compression of avx2_compress_bytes.h.
 * Encoding is the streaming decoder's block kernel (avx2_decoder_base64.c). */
#include "vec_avx2.h"

#include <string.h>

#include "../../scalar/base64.h"
#include "../../scalar/base64_tables.h"
#include "avx2_base64_encode.h"
#include "avx2_compress_bytes.h"
#include "../x86_prototypes.h"

/* Validity by nibbles: bit h of valid_lo[lo] is set when the character
 * (h << 4 | lo), h < 8, is in the alphabet (whitespace and '=' are not:
 * they are for the scalar steps); B64_HI_BIT[h] is that bit, and for h >= 8
 * (bytes from 0x80) bit 0, clear in every entry (no character below 0x10
 * is in an alphabet). A byte is valid iff the two lookups share a bit.
 * roll: value - character by high nibble, and at 0 (no character of
 * 0x00..0x0F is in an alphabet) the character of 63, which shares its high
 * nibble with others ('/' with '+', '_' with P-Z): its index is the high
 * nibble with the compare's -1 cleared out of it (VPANDN), one instruction
 * for either alphabet. For both alphabets at once (`both`) the symbols are
 * compared instead. The tables are static, each vector whole (both lanes),
 * so a call only picks its row: nothing is built on the stack. */
#define B64_LANES(...) {__VA_ARGS__, __VA_ARGS__}
struct b64_alphabet_tables {
  _Alignas(32) uint8_t valid_lo[32];
  int8_t roll[32];
  char c62a, c62b, c63a, c63b;
  int both;
};
#define B64_VALID(x11, x13, x15) \
  B64_LANES(0xA8, 0xF8, 0xF8, 0xF8, 0xF8, 0xF8, 0xF8, 0xF8, 0xF8, 0xF8, 0xF0, x11, 0x50, x13, 0x50, x15)
#define B64_ROLL(c62, c63) \
  B64_LANES(63 - c63, 0, 62 - c62, 52 - '0', -'A', -'A', 26 - 'a', 26 - 'a', 0, 0, 0, 0, 0, 0, 0, 0)
static const struct b64_alphabet_tables b64_alphabets[3] = {
    {B64_VALID(0x54, 0x50, 0x54), B64_ROLL('+', '/'), '+', '+', '/', '/', 0},
    {B64_VALID(0x50, 0x54, 0x70), B64_ROLL('-', '_'), '-', '-', '_', '_', 0},
    {B64_VALID(0x54, 0x54, 0x74), B64_LANES(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0), '+', '-', '/', '_',
     1},
};
#define B64_HI_BIT V_TABLE16(1, 2, 4, 8, 16, 32, 64, -128, 1, 1, 1, 1, 1, 1, 1, 1)

/* The tier's alphabet (generic_base64.h): its row of the tables. */
struct g64_alphabet {
  const struct b64_alphabet_tables *t;
};

static inline struct g64_alphabet g64_alphabet_of(unsigned flags) {
  struct g64_alphabet a = {&b64_alphabets[utfxi_b64_alphabet(flags)]};
  return a;
}

static inline __m256i b64_table(const void *row) {
  return _mm256_load_si256((const __m256i *)row);
}

static inline __m256i b64_high_nibbles(__m256i c) {
  return _mm256_and_si256(_mm256_srli_epi16(c, 4), _mm256_set1_epi8(0x0F));
}

/* Nonzero in the bytes of c outside the alphabet. */
static inline __m256i b64_invalid(__m256i c, __m256i hi, const struct g64_alphabet *a) {
  __m256i lo = _mm256_and_si256(c, _mm256_set1_epi8(0x0F));
  return _mm256_andnot_si256(_mm256_shuffle_epi8(b64_table(a->t->valid_lo), lo),
                             _mm256_shuffle_epi8(B64_HI_BIT, hi));
}

/* The 6-bit values of 32 alphabet characters. */
static inline __m256i b64_values(__m256i c, __m256i hi, const struct g64_alphabet *a) {
  __m256i is62, is63;
  const __m256i c63a = _mm256_set1_epi8(a->t->c63a);
  const __m256i delta =
      V_TABLE16(0, 0, 0, 52 - '0', -'A', -'A', 26 - 'a', 26 - 'a', 0, 0, 0, 0, 0, 0, 0, 0);
  if (!a->t->both) /* a delta by high nibble, the character of 63 moved to 0 */
    return _mm256_add_epi8(c, _mm256_shuffle_epi8(b64_table(a->t->roll),
                                                  _mm256_andnot_si256(_mm256_cmpeq_epi8(c, c63a), hi)));
  is62 = _mm256_or_si256(_mm256_cmpeq_epi8(c, _mm256_set1_epi8(a->t->c62a)),
                         _mm256_cmpeq_epi8(c, _mm256_set1_epi8(a->t->c62b)));
  is63 = _mm256_or_si256(_mm256_cmpeq_epi8(c, c63a), _mm256_cmpeq_epi8(c, _mm256_set1_epi8(a->t->c63b)));
  /* Symbols: 62 + (0 or 1), in place of the letters' and digits' delta. */
  return _mm256_blendv_epi8(_mm256_add_epi8(c, _mm256_shuffle_epi8(delta, hi)),
                            _mm256_sub_epi8(_mm256_set1_epi8(62), is63),
                            _mm256_or_si256(is62, is63));
}

/* The ASCII whitespace bytes of c, one bit each (only on the slow path:
 * five compares). */
static inline uint32_t b64_space_bits(__m256i c) {
  __m256i s = _mm256_or_si256(_mm256_cmpeq_epi8(c, _mm256_set1_epi8(' ')),
                              _mm256_cmpeq_epi8(c, _mm256_set1_epi8('\n')));
  s = _mm256_or_si256(s, _mm256_cmpeq_epi8(c, _mm256_set1_epi8('\r')));
  s = _mm256_or_si256(s, _mm256_or_si256(_mm256_cmpeq_epi8(c, _mm256_set1_epi8('\t')),
                                         _mm256_cmpeq_epi8(c, _mm256_set1_epi8('\f'))));
  return (uint32_t)_mm256_movemask_epi8(s);
}

/* Four 6-bit values per dword to three bytes: 24 bytes, in the low 24 of
 * the result. */
static inline __m256i b64_pack(__m256i values) {
  const __m256i order = _mm256_setr_epi8(2, 1, 0, 6, 5, 4, 10, 9, 8, 14, 13, 12, -1, -1, -1, -1,
                                         2, 1, 0, 6, 5, 4, 10, 9, 8, 14, 13, 12, -1, -1, -1, -1);
  __m256i pairs = _mm256_maddubs_epi16(values, _mm256_set1_epi32(0x01400140));
  __m256i groups = _mm256_madd_epi16(pairs, _mm256_set1_epi32(0x00011000));
  __m256i bytes = _mm256_shuffle_epi8(groups, order);
  return _mm256_permutevar8x32_epi32(bytes, _mm256_setr_epi32(0, 1, 2, 4, 5, 6, 3, 7));
}

static inline void b64_store24(unsigned char *d, __m256i bytes) {
  _mm_storeu_si128((__m128i *)(void *)d, _mm256_castsi256_si128(bytes));
  _mm_storel_epi64((__m128i *)(void *)(d + 16), _mm256_extracti128_si256(bytes, 1));
}

/* The first len <= 24 bytes of `bytes` to d, from registers (a copy through
 * memory would wait for the vector stores: a store-forwarding stall). */
static inline void b64_store_prefix(unsigned char *d, __m256i bytes, size_t len) {
  uint64_t w[3], t;
  size_t k = 0;
  w[0] = (uint64_t)_mm256_extract_epi64(bytes, 0);
  w[1] = (uint64_t)_mm256_extract_epi64(bytes, 1);
  w[2] = (uint64_t)_mm256_extract_epi64(bytes, 2);
  for (; len - k >= 8; k += 8) memcpy(d + k, &w[k / 8], 8);
  if (k == len) return;
  t = w[k / 8];
  if (len - k >= 4) {
    uint32_t x = (uint32_t)t;
    memcpy(d + k, &x, 4);
    k += 4, t >>= 32;
  }
  if (len - k >= 2) {
    uint16_t x = (uint16_t)t;
    memcpy(d + k, &x, 2);
    k += 2, t >>= 16;
  }
  if (len - k) d[k] = (unsigned char)t;
}

/* PSHUFB controls from byte 16 - k: bytes moved up by k (zeros below them);
 * utfxi_avx2_iota from byte 16 - k: the top k bytes moved down to 0. */
static const unsigned char b64_up[32] = {
    0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80,
    0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15};

/* first's k bytes then second's, as one vector (k <= 16). */
static inline __m256i b64_join(__m128i first, __m128i second, size_t k) {
  __m128i lo = _mm_or_si128(
      first, _mm_shuffle_epi8(second, _mm_loadu_si128((const __m128i *)(const void *)(b64_up + 16 - k))));
  __m128i hi = _mm_shuffle_epi8(
      second, _mm_loadu_si128((const __m128i *)(const void *)(utfxi_avx2_iota + 16 - k)));
  return _mm256_inserti128_si256(_mm256_castsi128_si256(lo), hi, 1);
}

/* 32 characters as bytes; from UTF-16 only when every unit is below 0x100. */
static inline int b64_load(const void *src, size_t i, int wide, __m256i *c) {
  if (wide) {
    const char16_t *p = (const char16_t *)src + i;
    __m256i a = v_load(p), b = v_load(p + 16);
    *c = _mm256_permute4x64_epi64(_mm256_packus_epi16(a, b), 0xD8);
    return _mm256_testz_si256(_mm256_or_si256(a, b), _mm256_set1_epi16((short)0xFF00));
  }
  *c = v_load((const char *)src + i);
  return 1;
}

/* A block with whitespace besides alphabet characters (a line break): the
 * characters to keep compressed to the front (two 16-byte halves, a table
 * PSHUFB each, then joined), their whole groups decoded and stored (nothing
 * past them), up to the last group's last character. Anything else
 * goes to the scalar steps. */
#if defined(__GNUC__) || defined(__clang__)
#define B64_OUT_OF_LINE __attribute__((noinline))
#else
#define B64_OUT_OF_LINE
#endif
/* (Out of line, so the clean path's loop stays small; it loads the block
 * again rather than take vectors, so it returns with a VZEROUPPER of its
 * own like every function of the tier.) */
static B64_OUT_OF_LINE size_t b64_decode_spaced(const void *src, size_t i, int wide,
                                                unsigned char *d, const struct g64_alphabet *a,
                                                size_t *bytes) {
  __m256i c, k, invalid_bytes;
  uint32_t invalid, keep;
  unsigned groups;
  size_t low, high;
  __m128i first, second;
  if (!b64_load(src, i, wide, &c)) return 0;
  invalid_bytes = b64_invalid(c, b64_high_nibbles(c), a);
  invalid = ~(uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(invalid_bytes, _mm256_setzero_si256()));
  keep = ~invalid;
  groups = (unsigned)_mm_popcnt_u32(keep) / 4;
  if ((invalid & ~b64_space_bits(c)) || groups == 0) return 0;
  first = utfxi_avx2_compress_bytes16(_mm256_castsi256_si128(c), keep & 0xFFFF, &low);
  second = utfxi_avx2_compress_bytes16(_mm256_extracti128_si256(c, 1), keep >> 16, &high);
  k = b64_join(first, second, low);
  if (d) b64_store_prefix(d, b64_pack(b64_values(k, b64_high_nibbles(k), a)), 3 * (size_t)groups);
  *bytes = 3 * (size_t)groups;
  return (size_t)_tzcnt_u32(_pdep_u32(1u << (4 * groups - 1), keep)) + 1;
}

UTFXI_INLINE size_t g64_decode_block(const void *src, size_t i, int wide, unsigned char *d,
                                     const struct g64_alphabet *a, size_t *bytes) {
  __m256i c, hi, invalid;
  if (!b64_load(src, i, wide, &c)) return 0;
  hi = b64_high_nibbles(c);
  invalid = b64_invalid(c, hi, a);
  if (!_mm256_testz_si256(invalid, invalid)) return b64_decode_spaced(src, i, wide, d, a, bytes);
  if (d) b64_store24(d, b64_pack(b64_values(c, hi, a)));
  *bytes = 24;
  return 32;
}

/* Lines of one shape (generic_base64.h). */
#define G64_CLEAN_VALUES 1
UTFXI_INLINE int g64_clean_values(const void *src, size_t i, int wide,
                                  const struct g64_alphabet *a, __m256i *v) {
  __m256i c, hi, invalid;
  if (!b64_load(src, i, wide, &c)) return 0;
  hi = b64_high_nibbles(c);
  invalid = b64_invalid(c, hi, a);
  if (!_mm256_testz_si256(invalid, invalid)) return 0;
  *v = b64_values(c, hi, a);
  return 1;
}
UTFXI_INLINE void g64_store_values(unsigned char *d, __m256i v) { b64_store24(d, b64_pack(v)); }

/* Runs of clean blocks: four share one check (their invalid bytes ORed, one
 * VPTEST) and are stored only once all four are clean, the first three
 * whole (the next block's store rewrites the extra bytes). */
#define G64_CLEAN_RUN 1
/* One alphabet (the common case), every constant in a register of its own:
 * the four blocks' values are made before the check, so that only they
 * stay live (no spills), and each block is stored as its two lanes of 12
 * bytes (VEXTRACTI128 to memory is a store alone, where VPERMD would take
 * the shuffle port): the fourth block's only once the next run is checked,
 * its 4 spare bytes then the next run's; the last run's fourth block
 * exactly, after the loop. A character is valid when the bits
 * its low nibble allows (valid_lo, looked up by the character itself: 0 from
 * 0x80) and its high nibble's bit share one: its high nibble's bit ANDNOT
 * valid_lo is nonzero when it is not (from 0x80 that bit is 1), which is
 * what VPTEST's carry tests, so each block takes one VPTEST (no VPANDN, no
 * OR chain; the flags are ANDed in general registers). The delta's index is
 * the high nibble with the compare for the character of 63 cleared out
 * (VPANDN; roll). That is 12 vector instructions a block for both
 * alphabets, where the class check with masked nibbles took 15
 * (docs/perf-decisions.md, 'Base64 avx2 decode: 13 instructions a block',
 * 'Base64 avx2 decode: a VPTEST a block (session 29)'). */
UTFXI_INLINE size_t b64_clean_run_one(const void *src, size_t i, int wide, unsigned char *d,
                                      size_t blocks, const struct g64_alphabet *a,
                                      const int count) {
  const __m256i m0f = _mm256_set1_epi8(0x0F), valid_lo = b64_table(a->t->valid_lo), hi_bit = B64_HI_BIT;
  const __m256i roll = b64_table(a->t->roll), c63 = _mm256_set1_epi8(a->t->c63a);
  const __m256i pair = _mm256_set1_epi32(0x01400140), quad = _mm256_set1_epi32(0x00011000);
  const __m256i order = _mm256_setr_epi8(2, 1, 0, 6, 5, 4, 10, 9, 8, 14, 13, 12, -1, -1, -1, -1,
                                         2, 1, 0, 6, 5, 4, 10, 9, 8, 14, 13, 12, -1, -1, -1, -1);
  size_t k;
  __m256i last = _mm256_setzero_si256();
  for (k = 0; k + 4 <= blocks; k += 4) {
    __m256i v[4];
    unsigned j, ok = 1;
#pragma GCC unroll 4
    for (j = 0; j < 4; j++) {
      __m256i c, hi, eq;
      /* (a UTF-16 unit above 0xFF packs to 0x00 or 0xFF, neither valid) */
      b64_load(src, i + 32 * (k + j), wide, &c);
      hi = _mm256_and_si256(_mm256_srli_epi16(c, 4), m0f);
      ok &= (unsigned)_mm256_testc_si256(_mm256_shuffle_epi8(valid_lo, c),
                                         _mm256_shuffle_epi8(hi_bit, hi));
      eq = _mm256_cmpeq_epi8(c, c63);
      hi = _mm256_andnot_si256(eq, hi);
      v[j] = _mm256_shuffle_epi8(
          _mm256_madd_epi16(_mm256_maddubs_epi16(_mm256_add_epi8(c, _mm256_shuffle_epi8(roll, hi)), pair),
                            quad),
          order);
    }
    if (!ok) break;
    if (count) continue;
    if (k) { /* the last run's fourth block: its spare bytes are this run's */
      _mm_storeu_si128((__m128i *)(void *)(d + 24 * k - 24), _mm256_castsi256_si128(last));
      _mm_storeu_si128((__m128i *)(void *)(d + 24 * k - 12), _mm256_extracti128_si256(last, 1));
    }
#pragma GCC unroll 4
    for (j = 0; j < 3; j++) {
      _mm_storeu_si128((__m128i *)(void *)(d + 24 * (k + j)), _mm256_castsi256_si128(v[j]));
      _mm_storeu_si128((__m128i *)(void *)(d + 24 * (k + j) + 12), _mm256_extracti128_si256(v[j], 1));
    }
    last = v[3];
  }
  if (!count && k)
    b64_store24(d + 24 * k - 24, _mm256_permutevar8x32_epi32(last, _mm256_setr_epi32(0, 1, 2, 4, 5, 6, 3, 7)));
  return k;
}

UTFXI_INLINE size_t g64_clean_run(const void *src, size_t i, int wide, unsigned char *d,
                                  size_t blocks, const struct g64_alphabet *a, const int count) {
  size_t k;
  if (!a->t->both) return b64_clean_run_one(src, i, wide, d, blocks, a, count);
  for (k = 0; k + 4 <= blocks; k += 4) {
    __m256i c[4], hi[4], bad = _mm256_setzero_si256();
    unsigned j;
    int ok = 1;
#pragma GCC unroll 4
    for (j = 0; j < 4; j++) {
      ok &= b64_load(src, i + 32 * (k + j), wide, &c[j]);
      hi[j] = b64_high_nibbles(c[j]);
      bad = _mm256_or_si256(bad, b64_invalid(c[j], hi[j], a));
    }
    if (!ok || !_mm256_testz_si256(bad, bad)) break;
    if (count) continue;
#pragma GCC unroll 4
    for (j = 0; j < 3; j++)
      _mm256_storeu_si256((__m256i *)(void *)(d + 24 * (k + j)), b64_pack(b64_values(c[j], hi[j], a)));
    b64_store24(d + 24 * (k + 3), b64_pack(b64_values(c[3], hi[3], a)));
  }
  return k;
}

/* Lines of 76 from bytes, two a step: each line's characters 0-63 as two
 * blocks, both lines' last 12 as one block (a 16-byte load each, their
 * last 4 lanes, the separator and the next line's start, made 'A'), all five
 * under one check and the separators compared as integers; the values'
 * bytes stored in 12-byte lanes whose spare bytes the next store replaces,
 * the last 9 exactly. One alphabet only (roll as in the clean runs). */
UTFXI_INLINE size_t b64_lines76_as(const unsigned char *s, size_t n, unsigned char *dst,
                                   size_t cap, const struct g64_alphabet *a, size_t S,
                                   unsigned sep, size_t p, size_t *pw) {
  const __m256i m0f = _mm256_set1_epi8(0x0F), valid_lo = b64_table(a->t->valid_lo), hi_bit = B64_HI_BIT;
  const __m256i roll = b64_table(a->t->roll), c63 = _mm256_set1_epi8(a->t->c63a);
  const __m256i pair = _mm256_set1_epi32(0x01400140), quad = _mm256_set1_epi32(0x00011000);
  const __m256i order = _mm256_setr_epi8(2, 1, 0, 6, 5, 4, 10, 9, 8, 14, 13, 12, -1, -1, -1, -1,
                                         2, 1, 0, 6, 5, 4, 10, 9, 8, 14, 13, 12, -1, -1, -1, -1);
  const __m256i filler = _mm256_set1_epi8('A');
  const size_t step = 76 + S;
  size_t w = *pw;
  while (n - p >= step + 80 && (!dst || cap - w > 2 * 57)) {
    const unsigned char *q = s + p;
    __m256i c[5], v[5], bad = _mm256_setzero_si256();
    unsigned x, j;
    if (S == 2) {
      uint16_t u0, u1;
      memcpy(&u0, q + 76, 2);
      memcpy(&u1, q + step + 76, 2);
      x = (unsigned)(u0 ^ sep) | (unsigned)(u1 ^ sep);
    } else {
      x = (unsigned)(q[76] ^ sep) | (unsigned)(q[step + 76] ^ sep);
    }
    c[0] = _mm256_loadu_si256((const __m256i *)(const void *)q);
    c[1] = _mm256_loadu_si256((const __m256i *)(const void *)(q + 32));
    c[2] = _mm256_loadu_si256((const __m256i *)(const void *)(q + step));
    c[3] = _mm256_loadu_si256((const __m256i *)(const void *)(q + step + 32));
    c[4] = _mm256_blend_epi32(
        _mm256_inserti128_si256(
            _mm256_castsi128_si256(_mm_loadu_si128((const __m128i *)(const void *)(q + 64))),
            _mm_loadu_si128((const __m128i *)(const void *)(q + step + 64)), 1),
        filler, 0x88);
#pragma GCC unroll 5
    for (j = 0; j < 5; j++) {
      __m256i hi = _mm256_and_si256(_mm256_srli_epi16(c[j], 4), m0f), eq;
      bad = _mm256_or_si256(bad, _mm256_andnot_si256(_mm256_shuffle_epi8(valid_lo, c[j]),
                                                     _mm256_shuffle_epi8(hi_bit, hi)));
      /* (one chain, block by block: gcc otherwise ORs the five as a tree,
       * keeping more values live, and spilled the blocks' values) */
      __asm__("" : "+x"(bad));
      eq = _mm256_cmpeq_epi8(c[j], c63);
      hi = _mm256_andnot_si256(eq, hi);
      v[j] = _mm256_shuffle_epi8(
          _mm256_madd_epi16(
              _mm256_maddubs_epi16(_mm256_add_epi8(c[j], _mm256_shuffle_epi8(roll, hi)), pair),
              quad),
          order);
    }
    if (x || !_mm256_testz_si256(bad, bad)) break;
    if (dst) {
      unsigned char *d = dst + w;
      _mm_storeu_si128((__m128i *)(void *)d, _mm256_castsi256_si128(v[0]));
      _mm_storeu_si128((__m128i *)(void *)(d + 12), _mm256_extracti128_si256(v[0], 1));
      _mm_storeu_si128((__m128i *)(void *)(d + 24), _mm256_castsi256_si128(v[1]));
      _mm_storeu_si128((__m128i *)(void *)(d + 36), _mm256_extracti128_si256(v[1], 1));
      _mm_storeu_si128((__m128i *)(void *)(d + 48), _mm256_castsi256_si128(v[4]));
      d += 57;
      _mm_storeu_si128((__m128i *)(void *)d, _mm256_castsi256_si128(v[2]));
      _mm_storeu_si128((__m128i *)(void *)(d + 12), _mm256_extracti128_si256(v[2], 1));
      _mm_storeu_si128((__m128i *)(void *)(d + 24), _mm256_castsi256_si128(v[3]));
      _mm_storeu_si128((__m128i *)(void *)(d + 36), _mm256_extracti128_si256(v[3], 1));
      {
        __m128i t = _mm256_extracti128_si256(v[4], 1);
        _mm_storel_epi64((__m128i *)(void *)(d + 48), t);
        d[56] = (unsigned char)_mm_extract_epi8(t, 8);
      }
    }
    w += 2 * 57;
    p += 2 * step;
  }
  *pw = w;
  return p;
}

#define G64_DECODE_LINES76 1
UTFXI_INLINE size_t g64_decode_lines76(const void *src, size_t n, unsigned char *dst, size_t cap,
                                       const struct g64_alphabet *a, size_t S, unsigned sep,
                                       size_t p, size_t *pw) {
  const unsigned char *s = (const unsigned char *)src;
  if (a->t->both) return p;
  if (S == 2) return b64_lines76_as(s, n, dst, cap, a, 2, sep, p, pw);
  return b64_lines76_as(s, n, dst, cap, a, 1, sep & 0xFF, p, pw);
}

/* The end of a text, n - at->i <= 32 characters from a group start: its
 * whole groups as the one block of the 32 characters before the final group
 * (the characters before at->i in it decoded already, to the bytes just
 * before at->w: the block's bytes rewrite them), and the final group (2-4
 * alphabet characters, then padding to 4 or, where the flags take it, none)
 * from the class table. Anything else (whitespace, a bad character or UTF-16
 * unit, strict's nonzero bits, a dst without room for it all) is the scalar
 * steps' (0, nothing written). Ending this way leaves out the scalar call,
 * as on avx512 (docs/perf-decisions.md, 'Base64 avx2 decode: the end of a
 * call without the scalar code'). */
UTFXI_INLINE unsigned b64_unit_at(const void *src, size_t k, int wide) {
  return wide ? ((const char16_t *)src)[k] : ((const unsigned char *)src)[k];
}
#define G64_DECODE_END 1
UTFXI_INLINE int g64_decode_end(const void *src, size_t n, int wide, unsigned char *dst,
                                size_t cap, unsigned flags, const struct g64_alphabet *a,
                                struct utfxi_b64_at *at) {
  const uint8_t *cls = utfxi_b64_class[utfxi_b64_alphabet(flags)];
  const size_t i = at->i, r = n - i, tail = r % 4 ? r % 4 : 4, f = n - tail;
  unsigned char *d = dst + at->w;
  uint32_t acc = 0, bad = 0;
  size_t j, pad = 0, k, whole = (f - i) / 4 * 3;
  if (r == 0) return 1;
  if (n < 32 + 4) return 0;
  if (tail == 4 && b64_unit_at(src, n - 1, wide) == '=')
    pad = b64_unit_at(src, n - 2, wide) == '=' ? 2 : 1;
  k = tail - pad;
  if (k < 2 || (tail < 4 && (flags & (UTFX_BASE64_STRICT | UTFX_BASE64_STOP_BEFORE_PARTIAL))))
    return 0;
  for (j = 0; j < k; j++) {
    unsigned u = b64_unit_at(src, f + j, wide);
    uint32_t v = u > 0xFF ? UTFXI_B64_BAD : cls[u];
    bad |= v;
    acc = acc << 6 | v;
  }
  if ((bad & 0x80) || cap - at->w < whole + k - 1) return 0;
  if (k < 4 && (flags & UTFX_BASE64_STRICT) && (acc & (k == 2 ? 0xF : 0x3))) return 0;
  if (f > i) {
    __m256i c, hi, invalid;
    if (!b64_load(src, f - 32, wide, &c)) return 0;
    hi = b64_high_nibbles(c);
    invalid = b64_invalid(c, hi, a);
    if (!_mm256_testz_si256(invalid, invalid)) return 0;
    b64_store24(d + whole - 24, b64_pack(b64_values(c, hi, a)));
  }
  acc <<= 6 * (4 - k);
  d += whole;
  d[0] = (unsigned char)(acc >> 16);
  if (k > 2) d[1] = (unsigned char)(acc >> 8);
  if (k > 3) d[2] = (unsigned char)acc;
  at->i = n;
  at->w += whole + k - 1;
  return 1;
}

static inline size_t g64_encode_blocks(const unsigned char *s, size_t n, size_t blocks, char *d,
                                       int url) {
  return utfxi_base64_blocks_avx2(s, n, blocks, (unsigned char *)d, NULL, url);
}

/* Encoding in lines (generic_base64.h). */
#define G64_ENCODE_VEC 1
#define G64_ENCODE_READ B64_AVX2_ENCODE_READ
#define g64_enc b64_avx2_enc
#define g64_enc_of b64_avx2_enc_of
#define g64_encode_vec b64_avx2_encode
/* The block one byte on at o + 1, then over it at o the first q characters,
 * the line feed and the block moved up a byte (the last character is the
 * first store's). */
static inline void g64_store_break(char *o, __m256i v, size_t q) {
  const __m256i iota = _mm256_setr_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16,
                                        17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31);
  __m256i at = _mm256_set1_epi8((char)q);
  __m256i up = _mm256_alignr_epi8(v, _mm256_permute2x128_si256(v, v, 0x08), 15);
  __m256i w = _mm256_blendv_epi8(v, up, _mm256_cmpgt_epi8(iota, at));
  w = _mm256_blendv_epi8(w, _mm256_set1_epi8('\n'), _mm256_cmpeq_epi8(iota, at));
  _mm256_storeu_si256((__m256i *)(void *)(o + 1), v);
  _mm256_storeu_si256((__m256i *)(void *)o, w);
}

/* Lines of 76 characters (MIME, coreutils) from a line start, two at a
 * time, each with its separator: each line's first 64 characters as two
 * blocks, and the last 12 of both lines as one block (a lane each, from two
 * 16-byte loads), stored as 16 bytes whose last 4 the separator and the
 * next line's first store replace. Five blocks for two lines, where the
 * block-by-block way takes nearly five and a line break's blend for each.
 * Runs while more text follows (so the second line's separator is due). */
#define G64_ENCODE_LINES76 1
#define G64_LINES76_READ 121 /* the second line's tail: 57 + 48 + 16 bytes */
UTFXI_INLINE size_t b64_avx2_lines76(const unsigned char *src, size_t take, int url, size_t sep,
                                     char **po, const int ahead) {
  const struct b64_avx2_enc k = b64_avx2_enc_of(url);
  const uint16_t crlf = '\r' | '\n' << 8;
  const size_t step = 76 + sep;
  size_t i = 0;
  char *o = *po;
  for (; take - i >= G64_LINES76_READ; i += 2 * 57, o += 2 * step) {
    const unsigned char *p = src + i;
    if (ahead) utfxi_b64_ahead3(o); /* the two lines' 154-156 bytes */
    __m256i tails = b64_avx2_chars(
        _mm256_shuffle_epi8(
            _mm256_inserti128_si256(
                _mm256_castsi128_si256(_mm_loadu_si128((const __m128i *)(const void *)(p + 48))),
                _mm_loadu_si128((const __m128i *)(const void *)(p + 57 + 48)), 1),
            k.spread),
        &k);
    _mm256_storeu_si256((__m256i *)(void *)o, b64_avx2_encode(p, &k));
    _mm256_storeu_si256((__m256i *)(void *)(o + 32), b64_avx2_encode(p + 24, &k));
    _mm_storeu_si128((__m128i *)(void *)(o + 64), _mm256_castsi256_si128(tails));
    if (sep == 2)
      memcpy(o + 76, &crlf, 2);
    else
      o[76] = '\n';
    _mm256_storeu_si256((__m256i *)(void *)(o + step), b64_avx2_encode(p + 57, &k));
    _mm256_storeu_si256((__m256i *)(void *)(o + step + 32), b64_avx2_encode(p + 57 + 24, &k));
    _mm_storeu_si128((__m128i *)(void *)(o + step + 64), _mm256_extracti128_si256(tails, 1));
    if (sep == 2)
      memcpy(o + step + 76, &crlf, 2);
    else
      o[step + 76] = '\n';
  }
  *po = o;
  return i;
}
/* (the lines asked for early only beyond L2: from L2, this slower path
 * leaves L2 time to fetch the lines, and the prefetches cost more than they
 * saved: docs/perf-decisions.md, 'Base64 encode: the output's lines fetched
 * ahead') */
#define B64_AVX2_LINES76_AHEAD_FROM (256 * 1024)
UTFXI_INLINE size_t g64_lines76(const unsigned char *src, size_t take, int url, size_t sep,
                                char **po) {
  return take >= B64_AVX2_LINES76_AHEAD_FROM ? b64_avx2_lines76(src, take, url, sep, po, 1)
                                             : b64_avx2_lines76(src, take, url, sep, po, 0);
}

#include "../../simd/generic_base64.h"
