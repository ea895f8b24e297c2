/* The avx512 tier's base64 (src/simd/generic_base64.h) with AVX-512 VBMI:
 * 64 characters to 48 bytes per block. VPERMI2B looks every character up in
 * the 128-entry class table of its alphabet (scalar/base64_tables.h; a byte
 * from 0x80 is rejected by its own top bit); VPMADDUBSW / VPMADDWD join four
 * 6-bit values into 24 bits and VPERMB gathers the bytes. Encoding: VPERMB
 * spreads 48 bytes into 16 dwords, VPMULTISHIFTQB cuts out the 6-bit fields
 * and VPERMB maps them to characters. */
#include "vec_avx512.h"

#include "../../scalar/base64.h"
#include "../../scalar/base64_tables.h"
#include "../x86_prototypes.h"
#include "avx512_base64_lines.h"

/* VPERMB: group g (bytes 3g..3g+2) to dword g as s1 s0 s2 s1. */
static _Alignas(64) const uint8_t b64_spread[64] = {
    1, 0, 2, 1, 4, 3, 5, 4, 7, 6, 8, 7, 10, 9, 11, 10,
    13, 12, 14, 13, 16, 15, 17, 16, 19, 18, 20, 19, 22, 21, 23, 22,
    25, 24, 26, 25, 28, 27, 29, 28, 31, 30, 32, 31, 34, 33, 35, 34,
    37, 36, 38, 37, 40, 39, 41, 40, 43, 42, 44, 43, 46, 45, 47, 46,
};

/* VPERMT2B: the 192 bytes of four blocks' dwords (three bytes each, high
 * first) as three whole vectors; store t takes bytes 64t.. of the run from
 * blocks t (index < 64) and t + 1: byte m is byte 2 - m % 3 of dword m / 3.
 * Row 0 is also one block's gather (VPERMB, which reads an index's low six
 * bits: its first 48 bytes, the rest of no meaning). */
static _Alignas(64) const uint8_t b64_gather4[3][64] = {
    {2, 1, 0, 6, 5, 4, 10, 9, 8, 14, 13, 12, 18, 17, 16, 22, 21, 20, 26, 25, 24, 30, 29, 28, 34, 33, 32, 38, 37, 36, 42, 41, 40, 46, 45, 44, 50, 49, 48, 54, 53, 52, 58, 57, 56, 62, 61, 60, 66, 65, 64, 70, 69, 68, 74, 73, 72, 78, 77, 76, 82, 81, 80, 86},
    {21, 20, 26, 25, 24, 30, 29, 28, 34, 33, 32, 38, 37, 36, 42, 41, 40, 46, 45, 44, 50, 49, 48, 54, 53, 52, 58, 57, 56, 62, 61, 60, 66, 65, 64, 70, 69, 68, 74, 73, 72, 78, 77, 76, 82, 81, 80, 86, 85, 84, 90, 89, 88, 94, 93, 92, 98, 97, 96, 102, 101, 100, 106, 105},
    {40, 46, 45, 44, 50, 49, 48, 54, 53, 52, 58, 57, 56, 62, 61, 60, 66, 65, 64, 70, 69, 68, 74, 73, 72, 78, 77, 76, 82, 81, 80, 86, 85, 84, 90, 89, 88, 94, 93, 92, 98, 97, 96, 102, 101, 100, 106, 105, 104, 110, 109, 108, 114, 113, 112, 118, 117, 116, 122, 121, 120, 126, 125, 124},
};

/* VPMULTISHIFTQB: the bit offsets of the four fields in each dword that
 * b64_spread made of a group s0 s1 s2, laid out s1 s0 s2 s1. */
static _Alignas(64) const uint8_t b64_fields[64] = {
    10, 4, 22, 16, 42, 36, 54, 48, 10, 4, 22, 16, 42, 36, 54, 48,
    10, 4, 22, 16, 42, 36, 54, 48, 10, 4, 22, 16, 42, 36, 54, 48,
    10, 4, 22, 16, 42, 36, 54, 48, 10, 4, 22, 16, 42, 36, 54, 48,
    10, 4, 22, 16, 42, 36, 54, 48, 10, 4, 22, 16, 42, 36, 54, 48,
};

#define B64_48_BYTES 0x0000FFFFFFFFFFFFull

/* The alphabet's class table, chars 0..127, in two vectors. */
#define G64_HALF __m512i
#define g64_half(t) _mm512_loadu_si512(t)
#include "../../simd/generic_base64_classes.h"

/* 64 characters as bytes. From UTF-16, VPACKUSWB makes a unit above 0xFF
 * 0xFF (or 0x00 from 0x8000 on: it reads them signed), neither of them in
 * any alphabet nor whitespace, so its block is the scalar steps'; VPERMQ
 * puts the lanes back in order. */
UTFXI_INLINE __m512i b64_bytes_of_units(__m512i x, __m512i y) {
  return _mm512_permutexvar_epi64(_mm512_setr_epi64(0, 2, 4, 6, 1, 3, 5, 7),
                                  _mm512_packus_epi16(x, y));
}
UTFXI_INLINE int b64_load(const void *src, size_t i, int wide, __m512i *c) {
  if (wide) {
    const char16_t *p = (const char16_t *)src + i;
    *c = b64_bytes_of_units(v_load(p), v_load(p + 32));
    return 1;
  }
  *c = v_load((const char *)src + i);
  return 1;
}

/* The class of each character: VPERMI2B over the 128-entry table. */
UTFXI_INLINE __m512i b64_classes(__m512i lo, __m512i c, __m512i hi) {
  return _mm512_permutex2var_epi8(lo, c, hi);
}

/* The first `bytes` bytes of the values' groups (4 values per dword, 3
 * bytes each) at d. */
UTFXI_INLINE void b64_pack_store_bytes(__m512i values, unsigned bytes, unsigned char *d) {
  __m512i pairs = _mm512_maddubs_epi16(values, _mm512_set1_epi32(0x01400140));
  __m512i joined = _mm512_madd_epi16(pairs, _mm512_set1_epi32(0x00011000));
  _mm512_mask_storeu_epi8(d, _bzhi_u64(~0ull, bytes),
                          _mm512_permutexvar_epi8(_mm512_loadu_si512(b64_gather4[0]), joined));
}
UTFXI_INLINE void b64_pack_store(__m512i values, unsigned groups, unsigned char *d) {
  b64_pack_store_bytes(values, 3 * groups, d);
}

/* The alphabet characters of a block and where whitespace was: the mask of
 * characters to keep, or 0 when the block holds anything else (or a unit
 * above 0xFF): then the scalar steps take it. */
/* (The masks stay in mask registers until the count: every move between
 * them and general registers, and every VPMOVB2M, is a port-0 instruction,
 * and port 0 also packs the groups. Whitespace is told by the characters,
 * the classes' SPACE being ambiguous for bytes from 0x80.) */
UTFXI_INLINE uint64_t b64_block_values(const void *src, size_t i, int wide,
                                        const struct g64_alphabet *a, __m512i *values) {
  /* by low nibble, the whitespace character that has it (PSHUFB gives 0 for
   * a byte from 0x80, which no byte from 0x80 equals) */
  const __m512i ws = _mm512_broadcast_i32x4(
      _mm_setr_epi8(' ', 0, 0, 0, 0, 0, 0, 0, 0, '\t', '\n', 0, '\f', '\r', 0, 0));
  __m512i c, v;
  __mmask64 keep, space;
  if (!b64_load(src, i, wide, &c)) return 0;
  v = b64_classes(a->lo, c, a->hi);
  *values = v;
  keep = _mm512_movepi8_mask(_mm512_ternarylogic_epi64(v, c, v, 0x03)); /* ~(v | c) */
  if (keep == ~0ull) return ~0ull;
  space = _mm512_cmpeq_epi8_mask(_mm512_shuffle_epi8(ws, c), c);
  if ((keep | space) != ~0ull) return 0;
  *values = _mm512_maskz_compress_epi8(keep, v);
  return keep;
}

/* Where the scalar steps take over after the vector loop: just after the
 * alphabet character that ends the last whole group, i.e. before the last
 * `left` alphabet characters of src[from..i) (all of it alphabet or
 * whitespace); `from` if that group began before it. */
static inline size_t b64_after_last_group(const void *src, size_t from, size_t i, int wide,
                                          unsigned left) {
  while (i > from) {
    unsigned c = wide ? ((const char16_t *)src)[i - 1] : ((const unsigned char *)src)[i - 1];
    int space = c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r';
    if (!space && left-- == 0) return i;
    i--;
  }
  return from;
}

/* The 48 bytes of a clean block's values to d; _OVER: and 16 bytes of no
 * meaning after them, which the next block's store replaces (a whole
 * store: cheaper than a masked one). */
#define B64_PACKED(v) \
  _mm512_permutexvar_epi8(gather, _mm512_madd_epi16(_mm512_maddubs_epi16((v), pair), quad))
#define B64_PACK_STORE(d, v) _mm512_mask_storeu_epi8((d), B64_48_BYTES, B64_PACKED(v))
#define B64_PACK_STORE_OVER(d, v) _mm512_storeu_si512((d), B64_PACKED(v))

/* Up to `blocks` clean blocks (64 alphabet characters) one after another
 * from src + i to d, in the fewest instructions; returns how many were
 * (`count`: only counted, d unused, for binary_length_from_base64).
 * Four blocks at a time share one check (their values and characters ORed
 * by VPTERNLOG, one VPMOVB2M): the check's two port-0 instructions per
 * block otherwise leave the packing (VPMADDUBSW, VPMADDWD, also port 0)
 * waiting. Nothing is stored before the four are known clean
 * (docs/perf-decisions.md, 'Base64 decode: one check for four clean
 * blocks, whole stores'). */
#define B64_RUN 4
UTFXI_INLINE size_t b64_clean_run_as(const void *src, size_t i, int wide, unsigned char *d,
                                     size_t blocks, const struct g64_alphabet *a, const int whole,
                                     const int ahead, const int count) {
  const __m512i lo = a->lo, hi = a->hi, gather = _mm512_loadu_si512(b64_gather4[0]);
  const __m512i pair = _mm512_set1_epi32(0x01400140), quad = _mm512_set1_epi32(0x00011000);
  const __m512i g4[3] = {_mm512_loadu_si512(b64_gather4[0]), _mm512_loadu_si512(b64_gather4[1]),
                         _mm512_loadu_si512(b64_gather4[2])};
  size_t k;
  for (k = 0; k + B64_RUN <= blocks; k += B64_RUN) {
    __m512i c[B64_RUN], v[B64_RUN], e = _mm512_setzero_si512();
    unsigned j;
#pragma GCC unroll 8
    for (j = 0; j < B64_RUN; j++) {
      b64_load(src, i + 64 * (k + j), wide, &c[j]);
      if (count) V_LOADED(c[j]); /* kept: gcc would load it again for the OR */
      v[j] = b64_classes(lo, c[j], hi);
      e = _mm512_ternarylogic_epi64(e, v[j], c[j], 0xFE); /* e | v | c */
    }
    if (_mm512_movepi8_mask(e)) break;
    if (count) continue;
    if (ahead) utfxi_b64_ahead3(d + 48 * k);
    if (whole) { /* three whole stores */
#pragma GCC unroll 8
      for (j = 0; j < B64_RUN; j++) v[j] = _mm512_madd_epi16(_mm512_maddubs_epi16(v[j], pair), quad);
#pragma GCC unroll 8
      for (j = 0; j + 1 < B64_RUN; j++)
        _mm512_storeu_si512(d + 48 * k + 64 * j, _mm512_permutex2var_epi8(v[j], g4[j], v[j + 1]));
    } else {
#pragma GCC unroll 8
      for (j = 0; j + 1 < B64_RUN; j++) B64_PACK_STORE_OVER(d + 48 * (k + j), v[j]);
      B64_PACK_STORE(d + 48 * (k + j), v[j]);
    }
  }
  for (; k < blocks; k++) {
    __m512i c, v;
    if (!b64_load(src, i + 64 * k, wide, &c)) break;
    v = b64_classes(lo, c, hi);
    if (_mm512_movepi8_mask(_mm512_or_si512(v, c))) break;
    if (!count)
      _mm512_mask_storeu_epi8(d + 48 * k, B64_48_BYTES,
                            _mm512_permutexvar_epi8(
                                gather, _mm512_madd_epi16(_mm512_maddubs_epi16(v, pair), quad)));
  }
  return k;
}

/* Up to text in L2 (docs/perf-decisions.md, 'Base64 avx512 decode: eight
 * blocks a check, three whole stores for four (session 32)'): eight clean
 * blocks share one check, and each four are stored as three whole vectors,
 * VPERMT2B joining two blocks' bytes, in place of four VPERMB gathers and four
 * overlapping stores: the run is bound by its vector operations, and a
 * 64-byte store off a 32-byte boundary costs more than an aligned one, so
 * three stores a step of 192 bytes where there were four, and one VPMOVB2M
 * and branch for eight blocks.
 * `ahead`: each step's six output lines asked for first. Returns how many
 * blocks. */
UTFXI_INLINE size_t b64_clean_run8(const void *src, size_t i, int wide, unsigned char *d,
                                   size_t blocks, const struct g64_alphabet *a, const int ahead) {
  const __m512i lo = a->lo, hi = a->hi;
  const __m512i pair = _mm512_set1_epi32(0x01400140), quad = _mm512_set1_epi32(0x00011000);
  const __m512i g4[3] = {_mm512_loadu_si512(b64_gather4[0]), _mm512_loadu_si512(b64_gather4[1]),
                         _mm512_loadu_si512(b64_gather4[2])};
  size_t k;
  for (k = 0; k + 8 <= blocks; k += 8) {
    __m512i c[8], v[8], e = _mm512_setzero_si512();
    unsigned j;
#pragma GCC unroll 8
    for (j = 0; j < 8; j++) {
      b64_load(src, i + 64 * (k + j), wide, &c[j]);
      v[j] = b64_classes(lo, c[j], hi);
      e = _mm512_ternarylogic_epi64(e, v[j], c[j], 0xFE); /* e | v | c */
    }
    if (_mm512_movepi8_mask(e)) break;
    if (ahead) {
      utfxi_b64_ahead3(d + 48 * k);
      utfxi_b64_ahead3(d + 48 * k + 192);
    }
#pragma GCC unroll 8
    for (j = 0; j < 8; j++) v[j] = _mm512_madd_epi16(_mm512_maddubs_epi16(v[j], pair), quad);
#pragma GCC unroll 8
    for (j = 0; j < 8; j++)
      if (j % 4 != 3)
        _mm512_storeu_si512(d + 48 * k + 192 * (j / 4) + 64 * (j % 4),
                            _mm512_permutex2var_epi8(v[j], g4[j % 4], v[j + 1]));
  }
  return k;
}

/* Runs of eight (b64_clean_run8), then of four with the same whole stores,
 * then single blocks. From B64_AHEAD_BLOCKS (12 KiB of output: beyond L1)
 * the runs ask for their output lines ahead (utfxi_b64_ahead3) where
 * utfxi_b64_store_ahead says it pays (Intel; on Zen 5 from L2 it cost:
 * 'Base64 avx512 decode on AMD: no output prefetch from L2');
 * beyond L2 (DRAM) four overlapping stores a run, asking ahead on every
 * CPU, did better ('Base64 avx512 decode: three whole stores for four
 * blocks'). */
#define B64_AHEAD_BLOCKS 256
#define B64_WHOLE_BLOCKS_MAX 8192
UTFXI_INLINE size_t b64_clean_run(const void *src, size_t i, int wide, unsigned char *d,
                                  size_t blocks, const struct g64_alphabet *a) {
  size_t k;
  if (blocks >= B64_WHOLE_BLOCKS_MAX) return b64_clean_run_as(src, i, wide, d, blocks, a, 0, 1, 0);
  k = blocks >= B64_AHEAD_BLOCKS &&
              atomic_load_explicit(&utfxi_b64_store_ahead, memory_order_relaxed)
          ? b64_clean_run8(src, i, wide, d, blocks, a, 1)
          : b64_clean_run8(src, i, wide, d, blocks, a, 0);
  return k + b64_clean_run_as(src, i + 64 * k, wide, d + 48 * k, blocks - k, a, 1, 0, 0);
}

/* The first `groups` <= 16 groups at src + i, when they are all in the
 * alphabet (dst has room for them): decoded, *pi and *pw moved on. */
/* The characters of src + i under mask as bytes (0 past it); 0 when one is
 * a UTF-16 unit above 0xFF. */
UTFXI_INLINE int b64_load_masked(const void *src, size_t i, int wide, uint64_t mask, __m512i *c) {
  if (wide) {
    const char16_t *p = (const char16_t *)src + i;
    __m512i x = _mm512_maskz_loadu_epi16((__mmask32)mask, p);
    __m512i y = _mm512_maskz_loadu_epi16((__mmask32)(mask >> 32), p + 32);
    if (_mm512_test_epi16_mask(_mm512_or_si512(x, y), _mm512_set1_epi16((short)0xFF00))) return 0;
    *c = b64_bytes_of_units(x, y);
  } else {
    *c = _mm512_maskz_loadu_epi8(mask, (const char *)src + i);
  }
  return 1;
}

UTFXI_INLINE void b64_groups(const void *src, int wide, unsigned char *dst,
                             const struct g64_alphabet *a, size_t groups, size_t *pi,
                             size_t *pw) {
  const uint64_t mask = _bzhi_u64(~0ull, (unsigned)(4 * groups));
  size_t i = *pi, w = *pw;
  __m512i c, v;
  if (!b64_load_masked(src, i, wide, mask, &c)) return;
  v = _mm512_permutex2var_epi8(a->lo, c, a->hi);
  if (_mm512_movepi8_mask(_mm512_or_si512(v, c)) & mask) return;
  if (dst) b64_pack_store(v, (unsigned)groups, dst + w);
  *pi = i + 4 * groups;
  *pw = w + 3 * groups;
}

/* Up to 16 whole groups of the characters left but the last 1-4 (the final
 * group, padding and how the last chunk ends are the scalar steps'), when
 * they are all in the alphabet and leave room to spare in dst: the last
 * block of a text decoded into a dst of its exact size is one of these. */
UTFXI_INLINE void b64_tail(const void *src, size_t n, int wide, unsigned char *dst, size_t cap,
                           const struct g64_alphabet *a, size_t *pi, size_t *pw) {
  size_t i = *pi, w = *pw, groups = n - i > 64 ? 16 : (n - i - 1) / 4;
  if (n == i) return;
  if (dst && cap - w <= 3 * groups) groups = cap > w ? (cap - w - 1) / 3 : 0;
  if (groups) b64_groups(src, wide, dst, a, groups, pi, pw);
}

/* The end of a text, n - at->i <= 64 characters from a group start, when
 * it is whole groups of alphabet characters and then at most one group of
 * 2 or 3 with its padding (or, where the flags take it unpadded, without),
 * and dst has room for all of it: decoded under masks, *at at the end, 1.
 * Anything else (whitespace, a bad character, strict's nonzero bits, a
 * full dst) is the scalar steps' (0) after b64_tail's groups. Ending this way
 * leaves out the scalar call, whose frame and result wait behind the
 * blocks' stores (docs/perf-decisions.md, 'Base64 avx512 decode: the end
 * of a call without the scalar code'). */
#define G64_DECODE_END 1
UTFXI_INLINE int g64_decode_end(const void *src, size_t n, int wide, unsigned char *dst,
                                size_t cap, unsigned flags, const struct g64_alphabet *a,
                                struct utfxi_b64_at *at) {
  const size_t i = at->i, r = n - i;
  const uint64_t all = _bzhi_u64(~0ull, (unsigned)r);
  uint64_t pad, bad, clean;
  size_t q, rem, bytes, end = n, part = 0;
  __m512i c, v;
  if (!b64_load_masked(src, i, wide, all, &c)) goto groups;
  v = _mm512_permutex2var_epi8(a->lo, c, a->hi);
  pad = _mm512_cmpeq_epi8_mask(c, _mm512_set1_epi8('=')) & all;
  bad = _mm512_movepi8_mask(_mm512_or_si512(v, c)) & all;
  q = r - (size_t)_mm_popcnt_u64(pad); /* the alphabet characters, then '=' */
  clean = _bzhi_u64(~0ull, (unsigned)q);
  if (bad != pad || (pad | clean) != all || r - q > 2) goto groups;
  rem = q % 4;
  if (rem == 1 || (r != q && rem + (r - q) != 4)) goto groups;
  if (UTFXI_UNLIKELY(rem && r == q &&
                     (flags & (UTFX_BASE64_STRICT | UTFX_BASE64_STOP_BEFORE_PARTIAL)))) {
    /* stop-before-partial: the unpadded last group stays unread (NODE and
     * STRICT override STOP), but TC39 says DST_FULL when its bytes would
     * not fit: the steps' */
    if (flags & (UTFX_BASE64_STRICT | UTFX_BASE64_NODE)) goto groups;
    part = rem - 1;
    end = n - rem;
    q -= rem;
    rem = 0;
    clean = _bzhi_u64(~0ull, (unsigned)q);
  }
  if (rem && (flags & UTFX_BASE64_STRICT) &&
      (_mm512_test_epi8_mask(v, _mm512_set1_epi8(rem == 2 ? 0xF : 0x3)) >> (q - 1) & 1))
    goto groups;
  bytes = q / 4 * 3 + (rem ? rem - 1 : 0);
  if (cap - at->w < bytes + part) goto groups;
  b64_pack_store_bytes(_mm512_maskz_mov_epi8(clean, v), (unsigned)bytes, dst + at->w);
  at->i = end;
  at->w += bytes;
  return 1;
groups: /* all but the last group, as the blocks' tail would */
  b64_tail(src, n, wide, dst, cap, a, &at->i, &at->w);
  return 0;
}

/* A long text starts with the groups up to its next 64-byte boundary, when
 * that is a whole number of groups away: then no block's loads span two
 * cache lines (docs/perf-decisions.md, 'Base64: loads (decode) and stores
 * (encode) that do not span cache lines'). */
UTFXI_INLINE void b64_align(const void *src, size_t n, int wide, unsigned char *dst, size_t cap,
                            const struct g64_alphabet *a, size_t *pi, size_t *pw) {
  const size_t unit = wide ? 2 : 1;
  const size_t off = (uintptr_t)((const char *)src + unit * *pi) % 64;
  const size_t head = off ? (64 - off) / unit : 0; /* units */
  if (head && head % 4 == 0 && off % unit == 0 && n - *pi >= 1024 && (!dst || cap - *pw > 48))
    b64_groups(src, wide, dst, a, head / 4, pi, pw);
}

/* The unit at src[k] (a byte, or a UTF-16 unit when wide). */
UTFXI_INLINE unsigned b64_unit(const void *src, size_t k, int wide) {
  return wide ? ((const char16_t *)src)[k] : ((const unsigned char *)src)[k];
}

/* Lines of a fixed length: L alphabet characters (64 <= L < 128, a multiple
 * of 4) and after each the same separator, S = 1 or 2 whitespace units
 * sep0 sep1. */
struct b64_lines {
  size_t L, S;
  unsigned sep0, sep1;
};

/* b64_fixed_lines' four lines at a time, L <= 80, from bytes; S a constant
 * at each call, the separator's bytes in sep (little-endian). */
UTFXI_INLINE size_t b64_four_lines(const void *src, size_t n, unsigned char *dst, size_t cap,
                                   const struct g64_alphabet *a, size_t L, size_t S,
                                   unsigned sep, size_t *pp, size_t *pw) {
  const __m512i lo = a->lo, hi = a->hi, gather = _mm512_loadu_si512(b64_gather4[0]);
  const __m512i pair = _mm512_set1_epi32(0x01400140), quad = _mm512_set1_epi32(0x00011000);
  const __m512i filler = _mm512_set1_epi8('A');
  const size_t step = L + S, tail = L - 64, bytes = L / 4 * 3;
  const uint64_t tmask = _bzhi_u64(~0ull, (unsigned)tail);
  const uint64_t tbytes = _bzhi_u64(~0ull, (unsigned)(tail / 4 * 3));
  const char *s = (const char *)src;
  size_t p = *pp, w = *pw, lines = 0;
  while (n - p >= 4 * step && (!dst || cap - w > 4 * bytes + 16)) {
    __m512i c[4], v[4], ct = filler, vt, e;
    unsigned k, x = 0;
#pragma GCC unroll 4
    for (k = 0; k < 4; k++) {
      const char *q = s + p + k * step;
      uint16_t u;
      c[k] = _mm512_loadu_si512(q);
      v[k] = b64_classes(lo, c[k], hi);
      ct = _mm512_mask_mov_epi8(ct, tmask << (16 * k),
                                _mm512_maskz_loadu_epi8(tmask << (16 * k), q + 64 - 16 * k));
      if (S == 2) {
        memcpy(&u, q + L, 2);
        x |= u ^ sep;
      } else {
        x |= (unsigned char)q[L] ^ sep;
      }
    }
    vt = b64_classes(lo, ct, hi);
    e = _mm512_ternarylogic_epi64(v[0], c[0], v[1], 0xFE);
    e = _mm512_ternarylogic_epi64(e, c[1], v[2], 0xFE);
    e = _mm512_ternarylogic_epi64(e, c[2], v[3], 0xFE);
    e = _mm512_ternarylogic_epi64(e, c[3], vt, 0xFE);
    if (_mm512_movepi8_mask(_mm512_or_si512(e, ct)) || x) break;
    if (dst) {
      __m512i t = B64_PACKED(vt);
#pragma GCC unroll 4
      for (k = 0; k < 3; k++) B64_PACK_STORE_OVER(dst + w + k * bytes, v[k]);
      B64_PACK_STORE(dst + w + 3 * bytes, v[3]);
#pragma GCC unroll 4
      for (k = 0; k < 4; k++)
        _mm512_mask_storeu_epi8(dst + w + k * bytes + 48 - 12 * k, tbytes << (12 * k), t);
    }
    w += 4 * bytes;
    p += 4 * step;
    lines += 4;
  }
  *pp = p;
  *pw = w;
  return lines;
}

/* From p, a line start, the lines that have exactly that shape, decoded
 * straight from src with no compaction: each line as two blocks, at 0 and
 * L - 64, whose groups coincide where they overlap (L is a multiple of 4),
 * so their bytes are stored overlapping too. One check for both blocks and
 * a compare of the separator; the first line of another shape (the last
 * one, a blank line, other whitespace) is left to the caller. Returns the
 * lines decoded; *pi after the last one's last character, *pw on. */
UTFXI_INLINE size_t b64_fixed_lines(const void *src, size_t n, int wide, unsigned char *dst,
                                    size_t cap, const struct g64_alphabet *a,
                                    const struct b64_lines *ln, size_t p, size_t *pi,
                                    size_t *pw) {
  const __m512i lo = a->lo, hi = a->hi, gather = _mm512_loadu_si512(b64_gather4[0]);
  const __m512i pair = _mm512_set1_epi32(0x01400140), quad = _mm512_set1_epi32(0x00011000);
  const size_t L = ln->L, step = ln->L + ln->S, tail = L - 64, tail_w = tail / 4 * 3;
  const size_t bytes = L / 4 * 3;
  size_t w = *pw, lines = 0;
  /* Four lines at a time when their tails (t = L - 64 <= 16 characters) fit
   * in one block, a slot of 16 lanes each (filled by masked loads over 'A'):
   * five lookups and packings for four lines instead of eight. */
  if (!wide && tail <= 16) {
    /* (MIME's and coreutils' 76 with its masks and offsets as constants;
     * not when counting, whose loop the extra code slowed by placement) */
    if (ln->S == 1 && L == 76 && dst)
      lines = b64_four_lines(src, n, dst, cap, a, 76, 1, ln->sep0, &p, &w);
    else if (L == 76 && dst)
      lines = b64_four_lines(src, n, dst, cap, a, 76, 2, ln->sep0 | ln->sep1 << 8, &p, &w);
    else if (ln->S == 1)
      lines = b64_four_lines(src, n, dst, cap, a, L, 1, ln->sep0, &p, &w);
    else
      lines = b64_four_lines(src, n, dst, cap, a, L, 2, ln->sep0 | ln->sep1 << 8, &p, &w);
  }
  while (n - p >= step && (!dst || cap - w > tail_w + 48)) {
    __m512i c0, c1, v0, v1;
    b64_load(src, p, wide, &c0);
    b64_load(src, p + tail, wide, &c1);
    v0 = b64_classes(lo, c0, hi);
    v1 = b64_classes(lo, c1, hi);
    if (_mm512_movepi8_mask(_mm512_or_si512(_mm512_ternarylogic_epi64(v0, c0, v1, 0xFE), c1)) ||
        b64_unit(src, p + L, wide) != ln->sep0 ||
        (ln->S == 2 && b64_unit(src, p + L + 1, wide) != ln->sep1))
      break;
    if (dst) {
      B64_PACK_STORE(dst + w, v0);
      B64_PACK_STORE(dst + w + tail_w, v1);
    }
    w += bytes;
    p += step;
    lines++;
  }
  if (lines) {
    *pi = p - ln->S;
    *pw = w;
  }
  return lines;
}

/* At i, a group boundary, a block of alphabet characters and whitespace
 * whose first whitespace is at i + q: whether the text from there looks like
 * lines of a fixed shape (the whitespace run at i + q is the separator, the
 * next line's length the line length); it is verified line by line. */
UTFXI_INLINE int b64_lines_shape(const void *src, size_t n, int wide, size_t at,
                                 const struct g64_alphabet *a, struct b64_lines *ln) {
  __m512i c0, c1;
  uint64_t m0, m1;
  size_t S, p, L;
  unsigned u;
  if (n - at < 3 + 128) return 0;
  u = b64_unit(src, at + 1, wide);
  S = (u == ' ' || u == '\t' || u == '\n' || u == '\f' || u == '\r') ? 2 : 1;
  u = b64_unit(src, at + S, wide);
  if (u == ' ' || u == '\t' || u == '\n' || u == '\f' || u == '\r') return 0;
  p = at + S;
  b64_load(src, p, wide, &c0);
  b64_load(src, p + 64, wide, &c1);
  m0 = _mm512_movepi8_mask(_mm512_or_si512(b64_classes(a->lo, c0, a->hi), c0));
  m1 = _mm512_movepi8_mask(_mm512_or_si512(b64_classes(a->lo, c1, a->hi), c1));
  if (m0 || !m1) return 0;
  L = 64 + (size_t)_tzcnt_u64(m1);
  if (L % 4) return 0;
  ln->L = L;
  ln->S = S;
  ln->sep0 = b64_unit(src, at, wide);
  ln->sep1 = b64_unit(src, at + 1, wide);
  return 1;
}

/* Blocks of 64 characters with whitespace anywhere (line breaks). Clean
 * blocks with nothing pending decode straight to dst. Otherwise each block's
 * alphabet characters are compressed (VPCOMPRESSB) into a ring buffer one
 * after another, and each whole 64-character chunk of it is decoded once
 * B64_LAG more characters stand after it: a load of a chunk just stored
 * (by unaligned stores it spans) waits for the stores to reach the cache
 * (docs/perf-decisions.md, 'Base64 decode with line breaks: a ring, read
 * behind'). The blocks depend on each other only through the fill count, so the next
 * load never waits for this block's work. At the end the buffer's whole
 * groups are decoded and the scalar steps take over after the last one (the
 * up to 3 characters of a group begun are read again there). */
#define G64_OWN_BLOCKS 1
#define B64_RING 512 /* bytes; a power of two, >= B64_LAG + 2 * 64 */
#define B64_LAG 320
UTFXI_INLINE void g64_decode_blocks(const void *src, size_t n, int wide, unsigned char *dst,
                                     size_t cap, const struct g64_alphabet *a,
                                     struct utfxi_b64_at *at, const int count) {
  /* 64 bytes before the ring: a store that wraps is stored again 512 lower */
  unsigned char space[64 + B64_RING + 64];
  unsigned char *const ring = space + 64;
  size_t i = at->i, w = at->w, bp = 0, rd = 0, groups, pending;
  const size_t from = at->i;
  int shapes = 1; /* whether to look for lines of a fixed shape */
  const struct g64_alphabet alpha = *a; /* in registers: dst's stores cannot change it */
  const __m512i gather = _mm512_loadu_si512(b64_gather4[0]);
  const __m512i pair = _mm512_set1_epi32(0x01400140), quad = _mm512_set1_epi32(0x00011000);
  /* pending groups plus the next block's (at most 16: 3 + 64 characters)
   * leave room to spare, so dst never fills here (TC39's early return is the
   * scalar steps'). bp and rd count characters written to and read from the
   * ring (rd a multiple of 64). */
  while (n - i >= 64 && (!dst || cap - w - 3 * ((bp - rd) / 4) > 48)) {
    __m512i values;
    uint64_t keep;
    size_t at_ring;
    /* nothing pending: clean blocks straight to dst, or, when counting, the
     * same runs without stores after the same aligning head */
    if (bp == rd && dst) {
      size_t blocks, room, done;
      if (i == from) b64_align(src, n, wide, dst, cap, &alpha, &i, &w);
      blocks = (n - i) / 64, room = (cap - w - 1) / 48;
      done = b64_clean_run(src, i, wide, dst + w, room < blocks ? room : blocks, &alpha);
      i += 64 * done;
      w += 48 * done;
      if (n - i < 64 || cap - w <= 48) break;
    } else if (count && bp == rd) {
      size_t done;
      if (i == from) b64_align(src, n, wide, dst, cap, &alpha, &i, &w);
      done = b64_clean_run_as(src, i, wide, NULL, (n - i) / 64, &alpha, 0, 0, 1);
      i += 64 * done;
      w += 48 * done;
      if (n - i < 64) break;
    }
    keep = b64_block_values(src, i, wide, &alpha, &values);
    if (!keep) break;
    if (keep == ~0ull && bp == rd) { /* clean, nothing pending */
      if (dst) b64_pack_store(values, 16, dst + w);
      i += 64;
      w += 48;
      continue;
    }
    /* nothing pending and whitespace at i + q: lines of a fixed shape from
     * there go the direct way (tried again after each such run only) */
    if (bp == rd && shapes) {
      size_t q = (size_t)_tzcnt_u64(~keep), li = i + q, lw = w + q / 4 * 3;
      struct b64_lines ln;
      shapes = 0;
      if (q % 4 == 0 && b64_lines_shape(src, n, wide, li, &alpha, &ln) &&
          b64_fixed_lines(src, n, wide, dst, cap, &alpha, &ln, li + ln.S, &li, &lw)) {
        if (dst && q) b64_pack_store(values, (unsigned)(q / 4), dst + w);
        i = li;
        w = lw;
        shapes = 1;
        continue;
      }
    }
    at_ring = bp % B64_RING; /* its alphabet characters first */
    _mm512_storeu_si512(ring + at_ring, values);
    if (at_ring > B64_RING - 64) _mm512_storeu_si512(ring + at_ring - B64_RING, values);
    bp += (size_t)_mm_popcnt_u64(keep);
    i += 64;
    /* A chunk with B64_LAG characters after it: its 48 bytes are followed
     * by more (the end decodes the rest), so a whole store may overrun. */
    if (bp - rd >= 64 + B64_LAG) {
      if (dst) B64_PACK_STORE_OVER(dst + w, _mm512_loadu_si512(ring + rd % B64_RING));
      w += 48;
      rd += 64;
    }
  }
  pending = bp - rd;
  for (groups = pending / 4; groups; rd += 64) {
    unsigned g = groups < 16 ? (unsigned)groups : 16;
    if (dst) b64_pack_store(_mm512_loadu_si512(ring + rd % B64_RING), g, dst + w);
    w += 3 * (size_t)g;
    groups -= g;
  }
  if (pending == 0) {
    /* (a text's last <= 64 characters: g64_decode_end's, which takes this
     * step itself when it cannot take them all) */
    if (count || !dst || n - i > 64) b64_tail(src, n, wide, dst, cap, &alpha, &i, &w);
    at->i = i;
  } else {
    at->i = b64_after_last_group(src, from, i, wide, (unsigned)(bp % 4));
  }
  at->w = w;
}

static _Alignas(64) const char b64_chars[2][64] = {
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/",
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"};

/* The 64 characters of the 48 bytes that `spread` takes from `in`. */
UTFXI_INLINE __m512i b64_encoded(__m512i in, __m512i spread, __m512i fields, __m512i chars) {
  return _mm512_permutexvar_epi8(
      _mm512_multishift_epi64_epi8(fields, _mm512_permutexvar_epi8(spread, in)), chars);
}

/* The characters of groups < 16 whole groups at s to d, under masks
 * (nothing past them read or written). */
UTFXI_INLINE void b64_encode_groups(const unsigned char *s, size_t groups, char *d, __m512i spread,
                                    __m512i fields, __m512i chars) {
  __m512i in = _mm512_maskz_loadu_epi8(_bzhi_u64(~0ull, (unsigned)(3 * groups)), s);
  __m512i idx = _mm512_multishift_epi64_epi8(fields, _mm512_permutexvar_epi8(spread, in));
  _mm512_mask_storeu_epi8(d, _bzhi_u64(~0ull, (unsigned)(4 * groups)),
                          _mm512_permutexvar_epi8(idx, chars));
}

/* The blocks of s to d while 64 bytes are there to read (whole loads: a
 * masked load also takes a vector port, which the three shuffles keep
 * busy); `ahead` 1: each store's line asked for early (utfxi_b64_ahead);
 * 2: non-temporal stores (d 64-byte aligned), fenced after the loop.
 * Returns how many. The count is known before the loop, which then keeps one
 * compare a block (docs/perf-decisions.md, 'Base64 avx512 encode: the
 * loop's count first'). `back` (s % 16, when that many input bytes stand
 * before s): every load starts that far before its block, `spread` taking
 * the block's bytes from there, so that loads run from 16-byte boundaries;
 * then two of every four cross no cache line ('Base64 avx512 encode: loads
 * from 16-byte boundaries'). */
UTFXI_INLINE size_t b64_encode_whole(const unsigned char *s, size_t n, size_t blocks, char *d,
                                     __m512i spread, __m512i fields, __m512i chars, size_t back,
                                     const int ahead) {
  size_t whole = n >= 64 ? (n - 16) / 48 : 0; /* blocks k with 48 k + 64 <= n */
  const unsigned char *p = s - back;
  char *o = d, *end;
  if (back) spread = _mm512_add_epi8(spread, _mm512_set1_epi8((char)back));
  if (whole > blocks) whole = blocks;
  for (end = d + 64 * whole; o != end; p += 48, o += 64) {
    __m512i v = b64_encoded(_mm512_loadu_si512(p), spread, fields, chars);
    if (ahead == 2) {
      _mm512_stream_si512((void *)o, v);
      continue;
    }
    if (ahead) utfxi_b64_ahead(o);
    _mm512_storeu_si512(o, v);
  }
  if (ahead == 2) _mm_sfence(); /* ordered before the call's later stores */
  return whole;
}

/* A long output starts with the groups up to d's next 64-byte boundary, so
 * that no block's store spans two cache lines, or, when d is on one, with a
 * block when s is not on a 16-byte boundary: either way the loads may then
 * start before s (b64_encode_whole's `back`, returned). *ps, *pn, *pd moved
 * past the head. */
UTFXI_INLINE size_t b64_encode_head(const unsigned char **ps, size_t *pn, char **pd,
                                    __m512i spread, __m512i fields, __m512i chars) {
  const unsigned char *s = *ps;
  char *d = *pd;
  size_t groups, head = 0;
  if ((uintptr_t)d % 4 == 0 && (uintptr_t)d % 64) {
    groups = (64 - (uintptr_t)d % 64) / 4;
    b64_encode_groups(s, groups, d, spread, fields, chars);
    head = 3 * groups;
  } else if ((uintptr_t)s % 16) { /* one block, so that the loads may start before s */
    _mm512_storeu_si512(d, b64_encoded(_mm512_loadu_si512(s), spread, fields, chars));
    head = 48;
  }
  *ps = s + head, *pn -= head, *pd = d + head / 3 * 4;
  return (uintptr_t)(s + head) % 16 <= head ? (uintptr_t)(s + head) % 16 : 0;
}

/* 48 bytes per block; then the whole groups after them under masks (d has
 * room for them; the final 1 or 2 bytes and the padding are the scalar
 * code's). Long outputs start with b64_encode_head. */
static inline size_t g64_encode_blocks(const unsigned char *s, size_t n, size_t blocks, char *d,
                                       int url) {
  const __m512i spread = _mm512_loadu_si512(b64_spread), fields = _mm512_loadu_si512(b64_fields);
  const __m512i chars = _mm512_loadu_si512(b64_chars[url ? 1 : 0]);
  const size_t n0 = n;
  size_t k, groups, head, back = 0;
  if (blocks >= 8) {
    back = b64_encode_head(&s, &n, &d, spread, fields, chars);
    blocks = n / 48;
  }
  head = n0 - n;
  k = utfxi_b64_ahead_here(48 * blocks)
          ? b64_encode_whole(s, n, blocks, d, spread, fields, chars, back, 1)
          : b64_encode_whole(s, n, blocks, d, spread, fields, chars, back, 0);
  for (; k < blocks; k++)
    _mm512_storeu_si512(d + 64 * k, b64_encoded(_mm512_maskz_loadu_epi8(B64_48_BYTES, s + 48 * k),
                                                spread, fields, chars));
  groups = (n - 48 * blocks) / 3;
  if (groups && groups < 16) {
    b64_encode_groups(s + 48 * k, groups, d + 64 * k, spread, fields, chars);
    return head + 48 * blocks + 3 * groups;
  }
  return head + 48 * blocks;
}

/* The whole encode when its `out` characters fit: head, blocks, then what
 * is left (< 64 bytes) as at most two masked blocks, the last with its
 * partial group and padding ('=' blended in past its characters). Only
 * this path's few values are live, so the call pushes and spills nothing,
 * and no small store follows the blocks' (docs/perf-decisions.md, 'Base64
 * avx512 encode: the call around the loop'). */
#define G64_ENCODE_ALL 1
/* g64_encode_all after its head, to `end`; `stream`: the blocks by
 * non-temporal stores (d 64-byte aligned). */
UTFXI_INLINE void b64_encode_rest(const unsigned char *s, size_t n, char *d, char *end, size_t back,
                                  __m512i spread, __m512i fields, __m512i chars, const int stream) {
  size_t k;
  __m512i v;
  if (stream)
    k = b64_encode_whole(s, n, SIZE_MAX, d, spread, fields, chars, back, 2);
  else
    k = utfxi_b64_ahead_here(n)
            ? b64_encode_whole(s, n, SIZE_MAX, d, spread, fields, chars, back, 1)
            : b64_encode_whole(s, n, SIZE_MAX, d, spread, fields, chars, back, 0);
  s += 48 * k, n -= 48 * k, d += 64 * k;
  if (n > 48) {
    _mm512_storeu_si512(d, b64_encoded(_mm512_maskz_loadu_epi8(B64_48_BYTES, s), spread, fields,
                                       chars));
    s += 48, n -= 48, d += 64;
  }
  v = b64_encoded(_mm512_maskz_loadu_epi8(_bzhi_u64(~0ull, (unsigned)n), s), spread, fields,
                  chars);
  v = _mm512_mask_mov_epi8(_mm512_set1_epi8('='), _bzhi_u64(~0ull, (unsigned)(4 * n + 2) / 3), v);
  _mm512_mask_storeu_epi8(d, _bzhi_u64(~0ull, (unsigned)(end - d)), v);
}

/* g64_encode_all from UTFXI_B64_STREAM_FROM bytes, out of line (inline, it
 * cost the shorter calls' path registers and pushes): the blocks by
 * non-temporal stores when the head leaves d on a cache line. */
__attribute__((noinline)) static void g64_encode_big(const unsigned char *s, size_t n, char *d,
                                                     size_t out, int url) {
  const __m512i spread = _mm512_loadu_si512(b64_spread), fields = _mm512_loadu_si512(b64_fields);
  const __m512i chars = _mm512_loadu_si512(b64_chars[url ? 1 : 0]);
  char *const end = d + out;
  size_t back = b64_encode_head(&s, &n, &d, spread, fields, chars);
  if ((uintptr_t)d % 64 == 0)
    b64_encode_rest(s, n, d, end, back, spread, fields, chars, 1);
  else
    b64_encode_rest(s, n, d, end, back, spread, fields, chars, 0);
}

UTFXI_INLINE void g64_encode_all(const unsigned char *s, size_t n, char *d, size_t out, int url) {
  const __m512i spread = _mm512_loadu_si512(b64_spread), fields = _mm512_loadu_si512(b64_fields);
  const __m512i chars = _mm512_loadu_si512(b64_chars[url ? 1 : 0]);
  char *const end = d + out;
  size_t back = 0;
  if (n >= 8 * 48) {
    if (n >= UTFXI_B64_STREAM_FROM) {
      g64_encode_big(s, n, d, out, url);
      return;
    }
    back = b64_encode_head(&s, &n, &d, spread, fields, chars);
  }
  b64_encode_rest(s, n, d, end, back, spread, fields, chars, 0);
}

/* Encoding in lines (generic_base64.h): a block as g64_encode_blocks does. */
#define G64_ENCODE_VEC 1
#define G64_ENCODE_READ 64 /* a whole load: see g64_encode_blocks */
struct g64_enc {
  __m512i spread, fields, chars;
};
static inline struct g64_enc g64_enc_of(int url) {
  struct g64_enc k;
  k.spread = _mm512_loadu_si512(b64_spread);
  k.fields = _mm512_loadu_si512(b64_fields);
  k.chars = _mm512_loadu_si512(b64_chars[url ? 1 : 0]);
  return k;
}
UTFXI_INLINE __m512i g64_encode_vec(const unsigned char *s, const struct g64_enc *k) {
  return b64_encoded(_mm512_loadu_si512(s), k->spread, k->fields, k->chars);
}
/* VPEXPANDB opens the gap for the line feed; the last character follows.
 * The two stores stay in address order (the barrier): with the byte first,
 * gcc's choice, output beyond L2 ran slower (docs/perf-decisions.md,
 * 'Base64 lines: encode straight from the registers'). */
UTFXI_INLINE void g64_store_break(char *o, __m512i v, size_t q) {
  _mm512_storeu_si512(o, _mm512_mask_expand_epi8(_mm512_set1_epi8('\n'), ~(1ull << q), v));
  __asm__ volatile("" ::: "memory");
  o[64] = (char)_mm_extract_epi8(_mm512_extracti32x4_epi32(v, 3), 15);
}

/* With CR LF: VPEXPANDB opens a gap of two, filled from a vector of CR LF
 * pairs in the phase of q; the last two bytes follow (the LF and the last
 * character when the gap's second byte falls beyond the vector). */
#define G64_ENCODE_VEC_CRLF 1
UTFXI_INLINE void g64_store_crlf(char *o, __m512i v, size_t q) {
  const __m512i pairs = _mm512_set1_epi16((short)(q & 1 ? 0x0D0A : 0x0A0D));
  const unsigned last2 = (unsigned)_mm_extract_epi16(_mm512_extracti32x4_epi32(v, 3), 7);
  uint16_t end = q == 63 ? (uint16_t)('\n' | (last2 & 0xFF00)) : (uint16_t)last2;
  _mm512_storeu_si512(o, _mm512_mask_expand_epi8(pairs, ~(3ull << q), v));
  __asm__ volatile("" ::: "memory");
  memcpy(o + 64, &end, 2);
}

/* Lines of 76 characters (MIME, coreutils), four at a time from a line
 * start, each with its separator: five stores, each three shuffles as a
 * block of g64_encode_blocks is, the tables (avx512_base64_lines.h) taking
 * the source bytes for every character of the store wherever the line
 * breaks fall, and the last VPERMB merging the separators in. Runs while
 * more text follows the four lines (so their last separator is due). */
#define G64_ENCODE_LINES76 1
UTFXI_INLINE size_t b64_encode_lines76(const unsigned char *src, size_t take, int url,
                                       const struct b64_lines76 *t, char **po, const int ahead) {
  const __m512i chars = _mm512_loadu_si512(b64_chars[url ? 1 : 0]);
  __m512i spread[B64_LINES76_VECS], fields[B64_LINES76_VECS], fill[B64_LINES76_VECS];
  size_t i = 0, j;
  char *o = *po;
#pragma GCC unroll 8
  for (j = 0; j < B64_LINES76_VECS; j++) {
    spread[j] = _mm512_loadu_si512(t->spread[j]);
    fields[j] = _mm512_loadu_si512(t->fields[j]);
    fill[j] = _mm512_loadu_si512(t->fill[j]);
  }
  for (; take - i >= t->read; i += 4 * 57, o += t->text) {
#pragma GCC unroll 8
    for (j = 0; j < B64_LINES76_VECS; j++) {
      __m512i in = _mm512_loadu_si512(src + i + t->base[j]);
      __m512i idx = _mm512_multishift_epi64_epi8(fields[j], _mm512_permutexvar_epi8(spread[j], in));
      if (ahead) utfxi_b64_ahead(o + t->at[j]);
      _mm512_storeu_si512(o + t->at[j], _mm512_mask_permutexvar_epi8(fill[j], t->chars[j], idx, chars));
    }
  }
  *po = o;
  return i;
}
UTFXI_INLINE size_t g64_lines76(const unsigned char *src, size_t take, int url, size_t sep,
                                char **po) {
  if (take >= UTFXI_B64_AHEAD_FROM)
    return sep == 2 ? b64_encode_lines76(src, take, url, &b64_lines76_crlf, po, 1)
                    : b64_encode_lines76(src, take, url, &b64_lines76_lf, po, 1);
  return sep == 2 ? b64_encode_lines76(src, take, url, &b64_lines76_crlf, po, 0)
                  : b64_encode_lines76(src, take, url, &b64_lines76_lf, po, 0);
}
#define G64_LINES76_READ 245 /* the larger of the two tables' read */

#include "../../simd/generic_base64.h"
