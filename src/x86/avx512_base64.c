/* The avx512 tier's base64 (src/simd/generic_base64.h) with AVX-512 VBMI:
 * 64 characters to 48 bytes per block. VPERMI2B looks every character up in
 * the 128-entry class table of its alphabet (scalar/base64_tables.h; a byte
 * from 0x80 is rejected by its own top bit); VPMADDUBSW / VPMADDWD join four
 * 6-bit values into 24 bits and VPERMB gathers the bytes. Encoding: VPERMB
 * spreads 48 bytes into 16 dwords, VPMULTISHIFTQB cuts out the 6-bit fields
 * and VPERMB maps them to characters. */
#include "vec_avx512.h"

#include "../scalar/base64.h"
#include "../scalar/base64_tables.h"
#include "x86_prototypes.h"

/* VPERMB: group g (bytes 3g..3g+2) to dword g as s1 s0 s2 s1. */
static const uint8_t b64_spread[64] = {
    1, 0, 2, 1, 4, 3, 5, 4, 7, 6, 8, 7, 10, 9, 11, 10,
    13, 12, 14, 13, 16, 15, 17, 16, 19, 18, 20, 19, 22, 21, 23, 22,
    25, 24, 26, 25, 28, 27, 29, 28, 31, 30, 32, 31, 34, 33, 35, 34,
    37, 36, 38, 37, 40, 39, 41, 40, 43, 42, 44, 43, 46, 45, 47, 46,
};

/* VPERMB: the three bytes of each dword (high first) side by side. */
static const uint8_t b64_gather[64] = {
    2, 1, 0, 6, 5, 4, 10, 9, 8, 14, 13, 12, 18, 17, 16, 22,
    21, 20, 26, 25, 24, 30, 29, 28, 34, 33, 32, 38, 37, 36, 42, 41,
    40, 46, 45, 44, 50, 49, 48, 54, 53, 52, 58, 57, 56, 62, 61, 60,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
};

/* VPERMI2B: the low byte of each of 64 UTF-16 units in two vectors. */
static const uint8_t b64_low_bytes[64] = {
    0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30,
    32, 34, 36, 38, 40, 42, 44, 46, 48, 50, 52, 54, 56, 58, 60, 62,
    64, 66, 68, 70, 72, 74, 76, 78, 80, 82, 84, 86, 88, 90, 92, 94,
    96, 98, 100, 102, 104, 106, 108, 110, 112, 114, 116, 118, 120, 122, 124, 126,
};

/* VPMULTISHIFTQB: the bit offsets of the four fields in each dword that
 * b64_spread made of a group s0 s1 s2, laid out s1 s0 s2 s1. */
static const uint8_t b64_fields[64] = {
    10, 4, 22, 16, 42, 36, 54, 48, 10, 4, 22, 16, 42, 36, 54, 48,
    10, 4, 22, 16, 42, 36, 54, 48, 10, 4, 22, 16, 42, 36, 54, 48,
    10, 4, 22, 16, 42, 36, 54, 48, 10, 4, 22, 16, 42, 36, 54, 48,
    10, 4, 22, 16, 42, 36, 54, 48, 10, 4, 22, 16, 42, 36, 54, 48,
};

#define B64_48_BYTES 0x0000FFFFFFFFFFFFull

/* The alphabet's class table, chars 0..127, in two vectors. */
struct g64_alphabet {
  __m512i lo, hi;
};

static inline struct g64_alphabet g64_alphabet_of(unsigned flags) {
  struct g64_alphabet a;
  const uint8_t *t = utfxi_b64_class[utfxi_b64_alphabet(flags)];
  a.lo = _mm512_loadu_si512(t);
  a.hi = _mm512_loadu_si512(t + 64);
  return a;
}

/* 64 characters as bytes; from UTF-16 only when every unit is below 0x100. */
static inline int b64_load(const void *src, size_t i, int wide, __m512i *c) {
  if (wide) {
    const char16_t *p = (const char16_t *)src + i;
    __m512i a = v_load(p), b = v_load(p + 32);
    if (_mm512_test_epi16_mask(_mm512_or_si512(a, b), _mm512_set1_epi16((short)0xFF00))) return 0;
    *c = _mm512_permutex2var_epi8(a, _mm512_loadu_si512(b64_low_bytes), b);
    return 1;
  }
  *c = v_load((const char *)src + i);
  return 1;
}

/* The first `groups` groups of values (4 per dword) as 3 bytes each at d. */
static inline void b64_pack_store(__m512i values, unsigned groups, unsigned char *d) {
  __m512i pairs = _mm512_maddubs_epi16(values, _mm512_set1_epi32(0x01400140));
  __m512i joined = _mm512_madd_epi16(pairs, _mm512_set1_epi32(0x00011000));
  _mm512_mask_storeu_epi8(d, _bzhi_u64(~0ull, 3 * groups),
                          _mm512_permutexvar_epi8(_mm512_loadu_si512(b64_gather), joined));
}

static const uint8_t b64_iota[64] = {
    0,  1,  2,  3,  4,  5,  6,  7,  8,  9,  10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21,
    22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43,
    44, 45, 46, 47, 48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60, 61, 62, 63};

/* The alphabet characters of a block and where whitespace was: the mask of
 * characters to keep, or 0 when the block holds anything else (or a unit
 * above 0xFF): then the scalar steps take it. */
static inline uint64_t b64_block_values(const void *src, size_t i, int wide,
                                        const struct g64_alphabet *a, __m512i *values) {
  __m512i c;
  uint64_t unusual, space;
  if (!b64_load(src, i, wide, &c)) return 0;
  *values = _mm512_permutex2var_epi8(a->lo, c, a->hi);
  unusual = _mm512_movepi8_mask(_mm512_or_si512(*values, c));
  if (!unusual) return ~0ull;
  space = _mm512_cmpeq_epi8_mask(*values, _mm512_set1_epi8((char)UTFXI_B64_SPACE)) &
          ~_mm512_movepi8_mask(c);
  if (unusual & ~space) return 0;
  *values = _mm512_maskz_compress_epi8(~unusual, *values);
  return ~unusual;
}

/* Blocks of 64 characters with whitespace anywhere (line breaks): each
 * block's alphabet characters are compressed (VPCOMPRESSB) behind the up to
 * 3 of a group begun in the blocks before, whole groups decoded, the rest
 * carried on; so every block advances 64 characters and the next load does
 * not wait for this one. Hands over at the last group's last character (the
 * carried characters and the whitespace after it are read again there). */
#define G64_OWN_BLOCKS 1
static inline void g64_decode_blocks(const void *src, size_t n, int wide, unsigned char *dst,
                                     size_t cap, const struct g64_alphabet *a,
                                     struct utfxi_b64_at *at) {
  const __m512i iota = _mm512_loadu_si512(b64_iota);
  __m512i carry = _mm512_setzero_si512();
  size_t i = at->i, w = at->w;
  unsigned held = 0;
  /* 3 carried + 64 characters make at most 16 groups, 48 bytes: room to
   * spare, so dst never fills here (TC39's early return is the scalar
   * steps'). */
  while (n - i >= 64 && (!dst || cap - w > 48)) {
    __m512i values, joined;
    uint64_t keep = b64_block_values(src, i, wide, a, &values);
    unsigned count, groups, used;
    if (!keep) break;
    if (keep == ~0ull && held == 0) { /* clean, nothing carried: the common case */
      if (dst) b64_pack_store(values, 16, dst + w);
      i += 64;
      w += 48;
      at->i = i;
      at->w = w;
      continue;
    }
    count = (unsigned)_mm_popcnt_u64(keep);
    groups = (held + count) / 4 < 16 ? (held + count) / 4 : 16;
    /* [carried | this block's first 64 - held] */
    joined = _mm512_mask_mov_epi8(
        carry, ~_bzhi_u64(~0ull, held),
        _mm512_permutexvar_epi8(_mm512_sub_epi8(iota, _mm512_set1_epi8((char)held)), values));
    if (groups) {
      used = 4 * groups - held; /* of this block's characters */
      if (dst) b64_pack_store(joined, groups, dst + w);
      w += 3 * (size_t)groups;
      at->i = i + (size_t)_tzcnt_u64(_pdep_u64(1ull << (used - 1), keep)) + 1;
      at->w = w;
      carry = _mm512_permutexvar_epi8(_mm512_add_epi8(iota, _mm512_set1_epi8((char)used)), values);
    } else {
      carry = joined; /* fewer than 4 characters so far: all carried on */
    }
    held = held + count - 4 * groups;
    i += 64;
  }
}

static const char b64_chars[2][64] = {
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/",
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"};

/* 48 bytes per block, loaded under a mask (nothing past them is read). */
static inline size_t g64_encode_blocks(const unsigned char *s, size_t n, size_t blocks, char *d,
                                       int url) {
  const __m512i spread = _mm512_loadu_si512(b64_spread), fields = _mm512_loadu_si512(b64_fields);
  const __m512i chars = _mm512_loadu_si512(b64_chars[url ? 1 : 0]);
  size_t k;
  (void)n;
  for (k = 0; k < blocks; k++) {
    __m512i in = _mm512_maskz_loadu_epi8(B64_48_BYTES, s + 48 * k);
    __m512i idx = _mm512_multishift_epi64_epi8(fields, _mm512_permutexvar_epi8(spread, in));
    _mm512_storeu_si512(d + 64 * k, _mm512_permutexvar_epi8(idx, chars));
  }
  return 48 * blocks;
}

#include "../simd/generic_base64.h"
