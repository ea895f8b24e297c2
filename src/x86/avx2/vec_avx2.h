/* The vector vocabulary of the generic kernels (src/simd/generic.h) on AVX2:
 * 32-byte vectors, one mask bit per byte (VPMOVMSKB) and per UTF-16 unit
 * (VPACKSSWB + VPERMQ + VPMOVMSKB over two vectors). Only files compiled
 * with the avx2 tier's flags include it. */
#ifndef UTFX_X86_VEC_AVX2_H
#define UTFX_X86_VEC_AVX2_H

#ifndef __AVX2__
#error "vec_avx2.h is for files built with the avx2 tier's flags"
#endif

#include <immintrin.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <uchar.h>

#include "../../internal.h"
#include "../../simd/compress16_table.h"
#include "../../simd/utf8_pack_tables.h"
#include "avx2_compress_bytes.h"

#define V_BYTES 32
#define V_TIER avx2
#define V16_UNIT_BITS 1
#define V_BYTE_BITS 1

typedef __m256i vu8;
typedef __m256i vu16;
/* Compare results: 0x00 / 0xFF per lane, in vectors. */
typedef __m256i vm8;
typedef __m256i vm16;

static inline vu8 v_load(const void *p) { return _mm256_loadu_si256((const __m256i *)p); }
static inline void v_store(void *p, vu8 v) { _mm256_storeu_si256((__m256i *)p, v); }
static inline vu8 v_zero(void) { return _mm256_setzero_si256(); }
static inline vu8 v_splat(unsigned char c) { return _mm256_set1_epi8((char)c); }
static inline vu8 v_or(vu8 a, vu8 b) { return _mm256_or_si256(a, b); }
static inline vu8 v_and(vu8 a, vu8 b) { return _mm256_and_si256(a, b); }
static inline vu8 v_xor(vu8 a, vu8 b) { return _mm256_xor_si256(a, b); }
/* An empty asm that takes v in a register: code after it cannot be moved
 * before it (see g_utf8_errors4). */
#define V_SEQUENCE(v) __asm__("" : "+x"(v))
#define V_LOADED(v) __asm__("" : "+x"(v))
/* A constant made once before a loop, hidden from the compiler: one
 * broadcast of 64 bits from memory (one load), where gcc 12 builds a visible
 * one from an immediate (a 10-byte move to a general register, a transfer and
 * a broadcast) and, in a loop, again in every step. V_CONST8 for bytes,
 * V_CONST16 for 16-bit lanes (the pairs step's), V_CONST32 for 32-bit lanes
 * (the UTF-32 steps': ten of them set up before a short input's first
 * vector). */
#define A2_CONST64(v, bits)                                   \
  do {                                                        \
    static const uint64_t a2_c_ = (bits);                     \
    __asm__("vpbroadcastq %1, %0" : "=x"(v) : "m"(a2_c_));    \
  } while (0)
#define V_CONST8(v, c) A2_CONST64(v, (uint64_t)(unsigned char)(c) * 0x0101010101010101ull)
#define V_CONST16(v, c) A2_CONST64(v, (uint64_t)(uint16_t)(c) * 0x0001000100010001ull)
#define V_CONST32(v, c) A2_CONST64(v, (uint64_t)(uint32_t)(c) * 0x0000000100000001ull)
static inline vu8 v_or_and(vu8 a, vu8 b, vu8 m) {
  return _mm256_and_si256(_mm256_or_si256(a, b), m);
}
static inline vu8 v_subs(vu8 a, vu8 b) { return _mm256_subs_epu8(a, b); }
static inline vu8 v_shr4(vu8 v, vu8 nib) { return _mm256_and_si256(_mm256_srli_epi16(v, 4), nib); }
static inline vu8 v_add(vu8 a, vu8 b) { return _mm256_add_epi8(a, b); }
static inline vu8 v_sum_bytes(vu8 acc, vu8 v) {
  return _mm256_add_epi64(acc, _mm256_sad_epu8(v, _mm256_setzero_si256()));
}
static inline uint64_t v_sum_lanes(vu8 acc) {
  __m128i s = _mm_add_epi64(_mm256_castsi256_si128(acc), _mm256_extracti128_si256(acc, 1));
  return (uint64_t)_mm_cvtsi128_si64(s) + (uint64_t)_mm_extract_epi64(s, 1);
}
#define V_TABLE16(...) _mm256_broadcastsi128_si256(_mm_setr_epi8(__VA_ARGS__))
static inline vu8 v_lookup16(vu8 table, vu8 idx) { return _mm256_shuffle_epi8(table, idx); }
/* [high half of prev | low half of cur]: VPALIGNR then reaches across lanes. */
#define v_prev(prev, cur, k) \
  _mm256_alignr_epi8((cur), _mm256_permute2x128_si256((prev), (cur), 0x21), 16 - (k))

static inline uint64_t v_bits(vm8 m) { return (uint32_t)_mm256_movemask_epi8(m); }
static inline vm8 v_is_cont(vu8 v) { /* 0x80..0xBF: below 0xC0 as signed bytes */
  return _mm256_cmpgt_epi8(_mm256_set1_epi8(-64), v);
}
static inline vm8 v_ge(vu8 v, unsigned char c) {
  return _mm256_cmpeq_epi8(_mm256_max_epu8(v, _mm256_set1_epi8((char)c)), v);
}
static inline vm8 v_nonzero(vu8 v) {
  return _mm256_xor_si256(_mm256_cmpeq_epi8(v, _mm256_setzero_si256()), _mm256_set1_epi8(-1));
}
static inline int v_any(vu8 v) { return !_mm256_testz_si256(v, v); }
static inline int v_any_high(vu8 v) { return !_mm256_testz_si256(v, _mm256_set1_epi8((char)0x80)); }
static inline size_t v_first_high(vu8 v) {
  return (size_t)_tzcnt_u32((uint32_t)_mm256_movemask_epi8(v));
}

static inline vu16 v16_load_raw(const char16_t *p) { return v_load(p); }
static inline void v16_store(char16_t *p, vu16 v) { v_store(p, v); }
static inline vu16 v16_bswap(vu16 v) {
  const __m256i swap = _mm256_setr_epi8(1, 0, 3, 2, 5, 4, 7, 6, 9, 8, 11, 10, 13, 12, 15, 14, 1, 0,
                                        3, 2, 5, 4, 7, 6, 9, 8, 11, 10, 13, 12, 15, 14);
  return _mm256_shuffle_epi8(v, swap);
}
static inline vu16 v16_load(const char16_t *p, int be) {
  vu16 v = v_load(p);
  return be ? v16_bswap(v) : v;
}
static inline vm16 v16_top_eq(vu16 v, unsigned mask, unsigned value) {
  return _mm256_cmpeq_epi16(_mm256_and_si256(v, _mm256_set1_epi16((short)mask)),
                            _mm256_set1_epi16((short)value));
}
static inline uint64_t v16_bits2(vm16 a, vm16 b) {
  __m256i packed = _mm256_permute4x64_epi64(_mm256_packs_epi16(a, b), 0xD8);
  return (uint32_t)_mm256_movemask_epi8(packed);
}
/* Set units of two compare results (no need for their order). */
static inline size_t v16_count2(vm16 a, vm16 b) {
  return (size_t)_mm_popcnt_u32((uint32_t)_mm256_movemask_epi8(_mm256_packs_epi16(a, b)));
}
static inline int v16_any(vm16 v) { return !_mm256_testz_si256(v, v); }
static inline vm16 v16_or(vm16 a, vm16 b) { return _mm256_or_si256(a, b); }
static inline vm16 v16_and(vm16 a, vm16 b) { return _mm256_and_si256(a, b); }
static inline vm16 v16_xor(vm16 a, vm16 b) { return _mm256_xor_si256(a, b); }

/* Whether some unit of the four vectors has (unit & mask) == value. */
static inline int v16_any_top_eq4(vu16 a, vu16 b, vu16 c, vu16 d, unsigned mask, unsigned value) {
  return v16_any(v16_or(v16_or(v16_top_eq(a, mask, value), v16_top_eq(b, mask, value)),
                        v16_or(v16_top_eq(c, mask, value), v16_top_eq(d, mask, value))));
}
/* Units as values: a | b; whether some unit of v has a bit of mask set. */
static inline vu16 v16_or_units(vu16 a, vu16 b) { return _mm256_or_si256(a, b); }
static inline vu16 v16_xor_units(vu16 a, vu16 b) { return _mm256_xor_si256(a, b); }
static inline int v16_any_bits(vu16 v, unsigned mask) {
  return !_mm256_testz_si256(v, _mm256_set1_epi16((short)mask));
}
/* The bytewise maximum of two vectors of units. */
static inline vu16 v16_max_bytes(vu16 a, vu16 b) { return _mm256_max_epu8(a, b); }
/* Bytes at least c8 are those the maximum with c8 leaves unchanged. */
static inline int v16_any_byte_at_least(vu16 v, unsigned byte, unsigned c8) {
  unsigned ge = (unsigned)_mm256_movemask_epi8(
      _mm256_cmpeq_epi8(_mm256_max_epu8(v, _mm256_set1_epi8((char)c8)), v));
  return (ge & (byte == 0xFF00 ? 0xAAAAAAAAu : 0x55555555u)) != 0;
}
/* A class byte per unit: unit >> 7 as a signed 16-bit value (arithmetic
 * shift), packed with signed saturation: 0 below 0x80, 1..15 below 0x800,
 * 16..127 up to 0x7FFF, 0x80..0xFF from 0x8000 in the units' order, 0xB0 up
 * exactly from 0xD800. So the class bytes' maxima serve the ASCII test and
 * the surrogate screen too (no maxima of the raw units). Big-endian units
 * are swapped first. */
#define V16_UNIT_CLASSES 1
#define V16_CLASS_HIGH 0xB0
static inline vu8 v16_classes_by_shifts(vu16 a, vu16 b, int be) {
  if (be) a = v16_bswap(a), b = v16_bswap(b);
  return _mm256_packs_epi16(_mm256_srai_epi16(a, 7), _mm256_srai_epi16(b, 7));
}
/* Little-endian a's shift is VPMULHW by 512 (the same arithmetic shift):
 * it takes its units from memory, where a VEX shift by an immediate does
 * not, so the step issues one load fewer per two vectors (the long calls'
 * loop, which alone calls this; docs/perf-decisions.md, 'UTF-8 length of
 * UTF-16', session 32). */
static inline vu8 v16_unit_classes(vu16 a, vu16 b, int be) {
  if (be) return v16_classes_by_shifts(a, b, be);
  return _mm256_packs_epi16(_mm256_mulhi_epi16(a, _mm256_set1_epi16(512)), _mm256_srai_epi16(b, 7));
}
/* Class plus 0x70 (saturating): 0x70 for a unit below 0x80, 0x71..0x7F
 * below 0x800, 0x80 up (VPSHUFB's zero) for the rest. */
static inline vu8 v16_class_short_forms(vu8 cls) {
  const __m256i table = _mm256_setr_epi8(2, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 1, 1, 1,
                                         1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1);
  return _mm256_shuffle_epi8(table, _mm256_adds_epu8(cls, _mm256_set1_epi8(0x70)));
}
static inline vu8 v16_short_forms_bytes(vu16 a, vu16 b, int be) {
  return v16_class_short_forms(v16_classes_by_shifts(a, b, be));
}
/* ((hi ^ high) | (lo ^ low)) & top is 0 exactly at a pair, and 1 minus it
 * (saturating) the count. */
static inline vu8 v16_pair_starts(vu16 hi, vu16 lo, int be) {
  const __m256i h = _mm256_set1_epi16((short)(be ? 0x00D8 : 0xD800));
  const __m256i l = _mm256_set1_epi16((short)(be ? 0x00DC : 0xDC00));
  __m256i z = _mm256_and_si256(_mm256_or_si256(_mm256_xor_si256(hi, h), _mm256_xor_si256(lo, l)),
                               _mm256_set1_epi16((short)(be ? 0x00FC : 0xFC00)));
  return _mm256_subs_epu16(_mm256_set1_epi16(1), z);
}
/* The pairs of a long call's surrogate-dense blocks (V16_PAIR_WORDS,
 * g16_utf32_length_long), counted at their low halves: one blend of a load
 * one byte on from the other puts each unit's top byte and the unit
 * before's in one 16-bit lane (UTF-16LE: the load one byte back gives the
 * earlier top byte as the low byte; UTF-16BE: the load three bytes back,
 * as the high byte), and one compare of the lane, masked to 0xFCFC, finds
 * the pairs: no lane crossing, two loads (one of them across a cache line
 * one time in two) and 4 operations a vector, where the unit form takes 4
 * loads and 5-6 (docs/perf-decisions.md, 'UTF-32 length of UTF-16'). */
#define V16_PAIR_WORDS 1
/* Units the loads reach back before the vector. */
#define V16_PAIR_WORDS_BACK 2
struct v16_words_k {
  vu8 sel, fc, pair;
};
static inline void v16_words_k_init(struct v16_words_k *k, int be) {
  V_CONST16(k->sel, 0xFF00);
  V_CONST16(k->fc, 0xFCFC);
  if (be)
    V_CONST16(k->pair, 0xD8DC);
  else
    V_CONST16(k->pair, 0xDCD8);
}
/* acc plus 1 in a byte for each low surrogate after a high one among the
 * 2 * V16_UNITS units at p (the compare's -1 subtracted). */
static inline vu8 v16_sub_pair_lows(vu8 acc, const struct v16_words_k *k, const char16_t *p, int be) {
  const char *b = (const char *)p;
  __m256i wa = be ? _mm256_blendv_epi8(v_load(b), v_load(b - 3), k->sel)
                  : _mm256_blendv_epi8(v_load(b - 1), v_load(b), k->sel);
  __m256i wb = be ? _mm256_blendv_epi8(v_load(b + 32), v_load(b + 29), k->sel)
                  : _mm256_blendv_epi8(v_load(b + 31), v_load(b + 32), k->sel);
  return _mm256_sub_epi8(acc,
                         _mm256_packs_epi16(_mm256_cmpeq_epi16(_mm256_and_si256(wa, k->fc), k->pair),
                                            _mm256_cmpeq_epi16(_mm256_and_si256(wb, k->fc), k->pair)));
}
/* Lanes below c, a power of two (AVX2 has no unsigned 16-bit compare). */
static inline vm16 v16_below(vu16 v, unsigned c) { return v16_top_eq(v, 0x10000 - c, 0); }
/* Each unit's top byte next to the next unit's (one blend of the swapped
 * units and those one on), both bytes compared at once: a lane whose two
 * bytes disagree (0x00FF or 0xFF00) breaks a pair, 256 or 255 as absolute
 * values; a lane that agrees is 0 or 1. */
static inline vu16 v16_swapped_pair_faults(vu16 sw, vu16 nx, int be) {
  __m256i y = _mm256_blendv_epi8(sw, nx, _mm256_set1_epi16((short)(be ? 0x00FF : 0xFF00)));
  return _mm256_abs_epi16(_mm256_cmpeq_epi8(_mm256_and_si256(y, _mm256_set1_epi16((short)0xFCFC)),
                                            _mm256_set1_epi16((short)(be ? 0xD8DC : 0xDCD8))));
}

/* 32-bit lanes (UTF-32 values). */
#define V32_LANES 8
typedef __m256i vu32;
typedef __m256i vm32;
static inline vu32 v32_load(const char32_t *p) { return v_load(p); }
/* Lanes with v >= c (unsigned). */
static inline vm32 v32_ge(vu32 v, uint32_t c) {
  return _mm256_cmpeq_epi32(_mm256_max_epu32(v, _mm256_set1_epi32((int)c)), v);
}
/* Lanes with lo <= v < lo + len (unsigned, len > 0). */
static inline vm32 v32_in_range(vu32 v, uint32_t lo, uint32_t len) {
  __m256i x = _mm256_sub_epi32(v, _mm256_set1_epi32((int)lo));
  return _mm256_cmpeq_epi32(_mm256_min_epu32(x, _mm256_set1_epi32((int)(len - 1))), x);
}
/* Lanes with (v & mask) == value. */
static inline vm32 v32_top_eq(vu32 v, uint32_t mask, uint32_t value) {
  return _mm256_cmpeq_epi32(_mm256_and_si256(v, _mm256_set1_epi32((int)mask)),
                            _mm256_set1_epi32((int)value));
}
static inline vu32 v32_umax(vu32 a, vu32 b) { return _mm256_max_epu32(a, b); }
static inline vu32 v32_umin(vu32 a, vu32 b) { return _mm256_min_epu32(a, b); }
static inline vu32 v32_sub(vu32 v, uint32_t c) {
  return _mm256_sub_epi32(v, _mm256_set1_epi32((int)c));
}
static inline vm32 v32_or(vm32 a, vm32 b) { return _mm256_or_si256(a, b); }
static inline int v32_any(vm32 m) { return !_mm256_testz_si256(m, m); }
static inline size_t v32_count(vm32 m) {
  return (size_t)_mm_popcnt_u32((unsigned)_mm256_movemask_ps(_mm256_castsi256_ps(m)));
}
/* acc plus 1 in the lanes with lo <= v < lo + len (unsigned): v - lo
 * compared biased by 2^31, signed (two operations, not v32_in_range's
 * three), the -1s subtracted. The total of such counts' lanes. */
static inline vu32 v32_count_in_range(vu32 acc, vu32 v, uint32_t lo, uint32_t len) {
  __m256i x = _mm256_add_epi32(v, _mm256_set1_epi32((int)(0x80000000u - lo)));
  return _mm256_sub_epi32(acc, _mm256_cmpgt_epi32(_mm256_set1_epi32((int)(0x80000000u ^ len)), x));
}
static inline size_t v32_sum(vu32 acc) {
  __m128i s = _mm_add_epi32(_mm256_castsi256_si128(acc), _mm256_extracti128_si256(acc, 1));
  s = _mm_add_epi32(s, _mm_unpackhi_epi64(s, s));
  return (uint32_t)_mm_cvtsi128_si32(_mm_add_epi32(s, _mm_shuffle_epi32(s, 1)));
}
/* The planes (v >> 16) of the 32 values of a..d, in some order, as bytes:
 * 0 for a BMP value, 1..0x10 for an astral one, above 0x10 (saturated) or 0
 * (from 2^31 on) for the others. One 32-bit shift and one word blend make
 * the planes of two vectors one vector of words, a byte pack two of those
 * one of bytes: five operations for four vectors (g32_utf16_length). */
#define V32_PLANES4 1
static inline vu8 v32_planes4(vu32 a, vu32 b, vu32 c, vu32 d) {
  return _mm256_packus_epi16(_mm256_blend_epi16(a, _mm256_srli_epi32(b, 16), 0x55),
                             _mm256_blend_epi16(c, _mm256_srli_epi32(d, 16), 0x55));
}
static inline vu8 v_umin(vu8 a, vu8 b) { return _mm256_min_epu8(a, b); }
static inline vu8 v_umax(vu8 a, vu8 b) { return _mm256_max_epu8(a, b); }
static inline vm32 v32_and(vm32 a, vm32 b) { return _mm256_and_si256(a, b); }
static inline int v32_all(vm32 m) { return _mm256_movemask_ps(_mm256_castsi256_ps(m)) == 0xFF; }
/* Values: bytes as 32-bit lanes, shifts, and, or, stores. */
static inline vu32 v32_of_bytes(vu8 v) { return v; }
#define v32_shl(v, k) _mm256_slli_epi32(v, k)
#define v32_shr(v, k) _mm256_srli_epi32(v, k)
static inline vu32 v32_and_value(vu32 v, uint32_t c) {
  return _mm256_and_si256(v, _mm256_set1_epi32((int)c));
}
static inline vu32 v32_or_values(vu32 a, vu32 b) { return _mm256_or_si256(a, b); }
static inline vu32 v32_bswap16(vu32 v) { return v16_bswap(v); }
static inline vu32 v32_splat(uint32_t c) { return _mm256_set1_epi32((int)c); }
/* V32_LANES values to p (UTF-32, or pairs of UTF-16 units). */
static inline void v32_store(void *p, vu32 v) { v_store(p, v); }
/* The low 16 bits of each lane as 8 UTF-16 units at p (swapped for be). */
static inline void v32_store_units16(char16_t *p, vu32 v, int be) {
  __m128i u = _mm_packus_epi32(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1));
  if (be) u = _mm_shuffle_epi8(u, _mm_setr_epi8(1, 0, 3, 2, 5, 4, 7, 6, 9, 8, 11, 10, 13, 12, 15, 14));
  _mm_storeu_si128((__m128i *)(void *)p, u);
}
/* Eight 3-byte groups at p (it reads 28 bytes), each in a lane as
 * byte0 << 16 | byte1 << 8 | byte2: two 16-byte loads 12 bytes apart and a
 * byte shuffle in each 128-bit lane. */
#define V32_SPREAD3_READS 28
static inline vu32 v32_spread3(const unsigned char *p) {
  const __m256i spread = _mm256_setr_epi8(2, 1, 0, -1, 5, 4, 3, -1, 8, 7, 6, -1, 11, 10, 9, -1, 2,
                                          1, 0, -1, 5, 4, 3, -1, 8, 7, 6, -1, 11, 10, 9, -1);
  __m256i raw = _mm256_inserti128_si256(
      _mm256_castsi128_si256(_mm_loadu_si128((const __m128i *)(const void *)p)),
      _mm_loadu_si128((const __m128i *)(const void *)(p + 12)), 1);
  return _mm256_shuffle_epi8(raw, spread);
}

/* Widening and narrowing (Latin-1 <-> UTF-16 / UTF-32). v16_widen,
 * v32_widen: V16_UNITS / V32_LANES bytes at p, zero-extended (one VPMOVZX
 * from memory). v16_pack_bytes, v32_pack_bytes: the units of a then b, the
 * values of a, b, c then e, each <= 0xFF, as one vector of bytes in order
 * (the packs work within 128-bit lanes: a permute puts them back in order).
 * v32_store_bytes: the V32_LANES values of v (each <= 0xFF) as bytes at p.
 * v32_any_bits: whether some value of v has a bit of mask set. */
static inline vu16 v16_widen(const void *p) {
  return _mm256_cvtepu8_epi16(_mm_loadu_si128((const __m128i *)p));
}
static inline vu32 v32_widen(const void *p) {
  return _mm256_cvtepu8_epi32(_mm_loadl_epi64((const __m128i *)p));
}
static inline vu8 v16_pack_bytes(vu16 a, vu16 b) {
  return _mm256_permute4x64_epi64(_mm256_packus_epi16(a, b), 0xD8);
}
/* The byte holding each raw unit's value (<= 0xFF) of a then b, in order:
 * the first of the unit in LE, the second in BE (a swap: shifts measured
 * slower; docs/perf-decisions.md, 'UTF-16 -> Latin-1'). */
static inline vu8 v16_pack_latin1(vu16 a, vu16 b, int be) {
  if (be) return v16_pack_bytes(v16_bswap(a), v16_bswap(b));
  return v16_pack_bytes(a, b);
}
static inline vu8 v32_pack_bytes(vu32 a, vu32 b, vu32 c, vu32 e) {
  const __m256i order = _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7);
  return _mm256_permutevar8x32_epi32(
      _mm256_packus_epi16(_mm256_packus_epi32(a, b), _mm256_packus_epi32(c, e)), order);
}
static inline void v32_store_bytes(void *p, vu32 v) {
  __m256i b = _mm256_packus_epi16(_mm256_packus_epi32(v, v), v); /* bytes 0-3 of each lane */
  _mm_storel_epi64((__m128i *)p,
                   _mm_unpacklo_epi32(_mm256_castsi256_si128(b), _mm256_extracti128_si256(b, 1)));
}
static inline int v32_any_bits(vu32 v, uint32_t mask) {
  return !_mm256_testz_si256(v, _mm256_set1_epi32((int)mask));
}

/* Latin-1 to UTF-8 (generic_latin1.h). v_utf8_forms: the UTF-8 of each
 * byte of v in a 16-bit lane, as utfxi_pack_2byte takes it (an ASCII byte
 * itself; else the lead low, the trail high), with a bit per lane for the
 * 2-byte forms; h0 the first V16_UNITS bytes, h1 the rest. v_store_utf8:
 * those forms packed at d, one PSHUFB with a row of utfxi_pack_2byte per
 * 128-bit lane; returns the count. It writes V_BYTES bytes at d, or with
 * `exact` exactly the count. (v_utf8_form16 takes any units below 0x800.) */
typedef struct {
  __m256i f;
  unsigned two;
} vforms8;
/* Stores the first len <= 16 bytes of x at d. With `spill` the whole 16
 * bytes are stored (cheaper; the caller knows later output overwrites the
 * rest); otherwise exactly len bytes, as two overlapping stores of 8 or 4
 * (the second one's bytes moved down by a PSHUFB whose indexes are a window
 * of a table), not a memcpy call of a variable length. */
static inline void v_store_prefix16(unsigned char *d, __m128i x, size_t len, int spill) {
  static const unsigned char window[32] = {0,  1,  2,  3,  4,  5,  6,  7,  8,  9,  10,
                                           11, 12, 13, 14, 15, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80,
                                           0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80};
  if (spill) {
    _mm_storeu_si128((__m128i *)d, x);
  } else if (len >= 8) {
    __m128i tail = _mm_shuffle_epi8(x, _mm_loadu_si128((const __m128i *)(window + len - 8)));
    _mm_storel_epi64((__m128i *)d, x);
    _mm_storel_epi64((__m128i *)(d + len - 8), tail);
  } else if (len >= 4) {
    uint32_t a = (uint32_t)_mm_cvtsi128_si32(x);
    uint32_t b = (uint32_t)_mm_cvtsi128_si32(
        _mm_shuffle_epi8(x, _mm_loadu_si128((const __m128i *)(window + len - 4))));
    memcpy(d, &a, 4);
    memcpy(d + len - 4, &b, 4);
  } else {
    unsigned char tmp[16];
    size_t k;
    _mm_storeu_si128((__m128i *)tmp, x);
    for (k = 0; k < len; k++) d[k] = tmp[k];
  }
}

static inline vu16 v_utf8_form16(vu16 u) {
  __m256i two = _mm256_or_si256(
      _mm256_or_si256(_mm256_srli_epi16(u, 6),
                      _mm256_and_si256(_mm256_slli_epi16(u, 8), _mm256_set1_epi16(0x3F00))),
      _mm256_set1_epi16((short)0x80C0));
  return _mm256_blendv_epi8(u, two, _mm256_cmpgt_epi16(u, _mm256_set1_epi16(0x7F)));
}
static inline void v_utf8_forms(vu8 v, vforms8 *h0, vforms8 *h1) {
  unsigned high = (unsigned)_mm256_movemask_epi8(v);
  h0->f = v_utf8_form16(_mm256_cvtepu8_epi16(_mm256_castsi256_si128(v)));
  h1->f = v_utf8_form16(_mm256_cvtepu8_epi16(_mm256_extracti128_si256(v, 1)));
  h0->two = high & 0xFFFF;
  h1->two = high >> 16;
}
static inline size_t v_store_utf8(unsigned char *d, vforms8 h, int exact) {
  __m128i lo = _mm256_castsi256_si128(h.f), hi = _mm256_extracti128_si256(h.f, 1);
  size_t len0 = 8 + (size_t)_mm_popcnt_u32(h.two & 0xFF), len1 = 8 + (size_t)_mm_popcnt_u32(h.two >> 8);
  v_store_prefix16(
      d, _mm_shuffle_epi8(lo, _mm_loadu_si128((const __m128i *)utfxi_pack_2byte[h.two & 0xFF])),
      len0, 1);
  v_store_prefix16(
      d + len0, _mm_shuffle_epi8(hi, _mm_loadu_si128((const __m128i *)utfxi_pack_2byte[h.two >> 8])),
      len1, !exact);
  return len0 + len1;
}

/* UTF-8 to Latin-1 (generic_latin1.h). v_latin1_of_utf8: each byte of v,
 * plus 0x40 where it has bit 7 set and the byte before it (prev: the
 * vector one byte back) bit 0 (a continuation after C3; the 16-bit shifts
 * keep each byte's own bit under the 0x40 mask). v_store_without: the bytes
 * of v but those `drop` sets, packed at d (utfxi_avx2_compress_bytes16 per
 * 128-bit lane, the second lane's bytes over the first's spill); returns
 * the count. It writes up to V_BYTES bytes, or with `exact`
 * exactly the count. */
static inline vu8 v_latin1_of_utf8(vu8 v, vu8 prev) {
  return _mm256_or_si256(
      v, _mm256_and_si256(_mm256_and_si256(_mm256_slli_epi16(prev, 6), _mm256_srli_epi16(v, 1)),
                          _mm256_set1_epi8(0x40)));
}
UTFXI_INLINE size_t v_store_without(unsigned char *d, vu8 v, vm8 drop, int exact) {
  unsigned keep = ~(unsigned)_mm256_movemask_epi8(drop);
  size_t k, rest;
  __m128i a = utfxi_avx2_compress_bytes16(_mm256_castsi256_si128(v), keep & 0xFFFF, &k);
  __m128i b = utfxi_avx2_compress_bytes16(_mm256_extracti128_si256(v, 1), keep >> 16, &rest);
  /* b's bytes overwrite a's spill when there are enough of them */
  v_store_prefix16(d, a, k, !exact || k + rest >= 16);
  v_store_prefix16(d + k, b, rest, !exact);
  return k + rest;
}

/* UTF-32 to UTF-16 (generic_utf32.h). v32_select: lanes of a where m is
 * set, of b elsewhere. v32_pack_units: the values of a then b (each below
 * 0x10000) as one vector of units, in order. v32_store_utf16: each lane of
 * `units` holds a unit, or (where `astral` is set) a high then a low
 * surrogate; they go to d packed, in the byte order be asks for, and the
 * count comes back. A compress of 16-bit units is a PSHUFB table row
 * (utfxi_compress16) per 128-bit lane, each half stored whole: the 8 units
 * after the output are read first and put back last, so V32_UTF16_ROOM
 * units of room are needed. 4 lane bits go to the odd slots by a table, not
 * PDEP (microcoded on Zen 2). */
/* On vector operands (constants pinned in registers by the caller): a + b,
 * a & b, lanes with a >= b (unsigned). */
static inline vu32 v32_add(vu32 a, vu32 b) { return _mm256_add_epi32(a, b); }
static inline vu32 v32_and_values(vu32 a, vu32 b) { return _mm256_and_si256(a, b); }
static inline vm32 v32_at_least(vu32 a, vu32 b) {
  return _mm256_cmpeq_epi32(_mm256_max_epu32(a, b), a);
}
#define V32_UTF16_ROOM 24
static inline vu32 v32_select(vm32 m, vu32 a, vu32 b) { return _mm256_blendv_epi8(b, a, m); }
static inline vu16 v32_pack_units(vu32 a, vu32 b) {
  return _mm256_permute4x64_epi64(_mm256_packus_epi32(a, b), 0xD8);
}
static inline size_t v32_store_utf16(char16_t *d, vu32 units, vm32 astral, int be) {
  static const unsigned char odd[16] = {0x00, 0x02, 0x08, 0x0A, 0x20, 0x22, 0x28, 0x2A,
                                        0x80, 0x82, 0x88, 0x8A, 0xA0, 0xA2, 0xA8, 0xAA};
  unsigned m = (unsigned)_mm256_movemask_ps(_mm256_castsi256_ps(astral));
  unsigned s0 = 0x55u | odd[m & 0xF], s1 = 0x55u | odd[m >> 4];
  size_t c0 = 4 + (size_t)_mm_popcnt_u32(m & 0xF), total = c0 + 4 + (size_t)_mm_popcnt_u32(m >> 4);
  __m128i u0 = _mm_shuffle_epi8(_mm256_castsi256_si128(units),
                                _mm_loadu_si128((const __m128i *)utfxi_compress16[s0]));
  __m128i u1 = _mm_shuffle_epi8(_mm256_extracti128_si256(units, 1),
                                _mm_loadu_si128((const __m128i *)utfxi_compress16[s1]));
  __m128i keep = _mm_loadu_si128((const __m128i *)(void *)(d + total));
  if (be) {
    const __m128i sw = _mm_setr_epi8(1, 0, 3, 2, 5, 4, 7, 6, 9, 8, 11, 10, 13, 12, 15, 14);
    u0 = _mm_shuffle_epi8(u0, sw);
    u1 = _mm_shuffle_epi8(u1, sw);
  }
  _mm_storeu_si128((__m128i *)(void *)d, u0);
  _mm_storeu_si128((__m128i *)(void *)(d + c0), u1);
  _mm_storeu_si128((__m128i *)(void *)(d + total), keep);
  return total;
}


/* ---- UTF-8 encoders (the UTF-32 -> UTF-8 and UTF-16 -> UTF-8 words
 * below) ---- */

/* (RORX: a rotation copies and shifts in one instruction) */
static inline uint32_t a2_ror32(uint32_t x, unsigned n) { return x >> n | x << (32 - n); }

/* UTF-8 of 16 units below 0x800 (16-bit lanes): two 16-byte halves and
 * their lengths. mm: VPMOVMSKB of VPACKSSWB of the units' > 0x7F compare
 * with itself (bits 0-7: units 0-7 are 2 bytes, bits 16-23: units 8-15);
 * the table rows' offsets come straight from it, and each half's length
 * from its offset's bit count. */
static inline void a2_encode_2byte_x16(__m256i v, uint32_t mm, __m128i *out0, __m128i *out1,
                                       size_t *len0, size_t *len1) {
  const unsigned char *rows = (const unsigned char *)utfxi_pack_2byte;
  uint32_t r0 = a2_ror32(mm, 28) & 0xFF0, r1 = a2_ror32(mm, 12) & 0xFF0;
  __m256i words = v_utf8_form16(v);
  __m128i lo = _mm256_castsi256_si128(words), hi = _mm256_extracti128_si256(words, 1);
  *out0 = _mm_shuffle_epi8(lo, _mm_loadu_si128((const __m128i *)(const void *)(rows + r0)));
  *out1 = _mm_shuffle_epi8(hi, _mm_loadu_si128((const __m128i *)(const void *)(rows + r1)));
  *len0 = 8 + (size_t)_mm_popcnt_u64(r0);
  *len1 = 8 + (size_t)_mm_popcnt_u64(r1);
}

/* UTF-8 in 16-bit lanes (after the layout of simdutf's haswell kernel):
 * each unit's four candidate bytes (utfxi_pack_123byte) in two words,
 * first = [c, 0x80 | (c & 0x3F)] and second = [0xE0 | c >> 12, 2-byte lead
 * or middle byte], so that no byte but one XOR depends on the length; one
 * PSHUFB per 8 units packs them. Widening to 32-bit lanes and blending the
 * three forms (two VPBLENDVB) instead was slower (docs/perf-decisions.md,
 * 'UTF-16 -> UTF-8'). */
/* (the _k forms take the constants: 0x3F7F, 0x8000; 0x0FFC, 0xC0E0, 0x4000) */
UTFXI_INLINE __m256i a2_utf8_first_words_k(__m256i v, __m256i c3f7f, __m256i c8000) {
  const __m256i dup_low = _mm256_setr_epi8(0, 0, 2, 2, 4, 4, 6, 6, 8, 8, 10, 10, 12, 12, 14, 14, 0,
                                           0, 2, 2, 4, 4, 6, 6, 8, 8, 10, 10, 12, 12, 14, 14);
  return _mm256_or_si256(_mm256_and_si256(_mm256_shuffle_epi8(v, dup_low), c3f7f), c8000);
}
UTFXI_INLINE __m256i a2_utf8_first_words(__m256i v) {
  return a2_utf8_first_words_k(v, _mm256_set1_epi16(0x3F7F), _mm256_set1_epi16((short)0x8000));
}
/* lt800: the units below 0x800 (all-ones lanes) */
UTFXI_INLINE __m256i a2_utf8_second_words_k(__m256i v, __m256i lt800, __m256i c0ffc,
                                            __m256i cc0e0, __m256i c4000) {
  /* [c >> 12, c >> 6 & 0x3F] by a multiply-add of (c >> 4 & 0x0FFC)'s bytes */
  __m256i second = _mm256_maddubs_epi16(_mm256_and_si256(_mm256_srli_epi16(v, 4), c0ffc),
                                        _mm256_set1_epi16(0x0140));
  return _mm256_xor_si256(_mm256_or_si256(second, cc0e0), _mm256_andnot_si256(lt800, c4000));
}
UTFXI_INLINE __m256i a2_utf8_second_words(__m256i v, __m256i lt800) {
  return a2_utf8_second_words_k(v, lt800, _mm256_set1_epi16(0x0FFC),
                                _mm256_set1_epi16((short)0xC0E0), _mm256_set1_epi16(0x4000));
}

/* Packs the words of 16 units whose lengths are 1 + (not lt80) + (not
 * two): four 16-byte parts (units 4k..4k + 3) and where each ends (ends[k]:
 * the UTF-8 length of units 0..4k + 3). */
UTFXI_INLINE void a2_utf8_pack_x16(__m256i first, __m256i second, __m256i lt80, __m256i two,
                                   __m128i out[4], size_t ends[4]) {
  const __m256i groups = _mm256_setr_epi8(0, 1, 2, 3, 8, 9, 10, 11, 4, 5, 6, 7, 12, 13, 14, 15, 0,
                                          1, 2, 3, 8, 9, 10, 11, 4, 5, 6, 7, 12, 13, 14, 15);
  const unsigned char *rows = (const unsigned char *)utfxi_pack_123byte;
  __m256i slots0 = _mm256_unpacklo_epi16(first, second); /* units 0-3, 8-11 */
  __m256i slots1 = _mm256_unpackhi_epi16(first, second); /* units 4-7, 12-15 */
  /* byte k of m: units 4k..4k + 3, bits 0-3 >= 0x80, bits 4-7 >= 0x800 */
  __m256i idx = _mm256_shuffle_epi8(_mm256_packs_epi16(lt80, two), groups);
  uint32_t m = ~(uint32_t)_mm256_movemask_epi8(idx);
  /* table rows are 16 bytes: their byte offsets straight from m, by
   * rotations (RORX: no copy of m before each shift) */
  const unsigned char *p0 = rows + (a2_ror32(m, 28) & 0xFF0), *p1 = rows + (a2_ror32(m, 4) & 0xFF0);
  const unsigned char *p2 = rows + (a2_ror32(m, 12) & 0xFF0), *p3 = rows + (a2_ror32(m, 20) & 0xFF0);
  __m256i shuf0 = _mm256_inserti128_si256(
      _mm256_castsi128_si256(_mm_loadu_si128((const __m128i *)(const void *)p0)),
      _mm_loadu_si128((const __m128i *)(const void *)p2), 1);
  __m256i shuf1 = _mm256_inserti128_si256(
      _mm256_castsi128_si256(_mm_loadu_si128((const __m128i *)(const void *)p1)),
      _mm_loadu_si128((const __m128i *)(const void *)p3), 1);
  slots0 = _mm256_shuffle_epi8(slots0, shuf0);
  slots1 = _mm256_shuffle_epi8(slots1, shuf1);
  out[0] = _mm256_castsi256_si128(slots0);
  out[1] = _mm256_castsi256_si128(slots1);
  out[2] = _mm256_extracti128_si256(slots0, 1);
  out[3] = _mm256_extracti128_si256(slots1, 1);
  /* a part's length is its row's byte 15; the whole: 1 + two bits a unit */
  ends[0] = p0[15];
  ends[1] = ends[0] + p1[15];
  ends[2] = ends[1] + p2[15];
  ends[3] = 16 + (size_t)_mm_popcnt_u64(m);
}

/* UTF-8 of 16 BMP non-surrogate units (16-bit lanes of v, host order). */
UTFXI_INLINE void a2_encode_bmp_x16(__m256i v, __m128i out[4], size_t ends[4]) {
  __m256i lt800 = v16_top_eq(v, 0xF800, 0);
  a2_utf8_pack_x16(a2_utf8_first_words(v), a2_utf8_second_words(v, lt800),
                   v16_top_eq(v, 0xFF80, 0), lt800, out, ends);
}

/* UTF-32 to UTF-8 (generic_utf32.h; where V32_UTF8_ROOM is defined): the
 * UTF-8 of 2 * V32_LANES values below 0x800 (v32_store_utf8_below800), of
 * 2 * V32_LANES BMP values that are not surrogates (v32_store_utf8_bmp), of
 * V32_LANES scalar values (v32_store_utf8), in order at d; each returns the
 * bytes it made, and nothing after them changes (bytes a store spilled over
 * are read first and put back last: V32_UTF8_ROOM bytes of room), but for
 * the two-vector words when `spill` says the caller's next word overwrites
 * them: it stores 16 bytes at its d first, and spilled bytes are no more
 * than the least it makes (2 * V32_LANES), so that its own put-back cannot
 * bring them back (here at most 8 below 0x800, 12 for BMP values; 16
 * values make 16 bytes or more). The constants they need are built once per call (struct v32_utf8_k). On AVX2:
 * narrowed to 16 units, the UTF-16 kernels' encoders (PSHUFB tables); any
 * plane, 8 values: each lane's 1-4 bytes packed by a PSHUFB row of
 * utfxi_pack_1234byte per 128-bit lane (the row from two bits a lane). */
#define V32_UTF8_ROOM 64
/* v32_utf8_bmp2: whether a and b hold BMP scalar values only (no
 * surrogate), in one test: any bit above the low 16, or a surrogate among
 * the units of the pack (a lane above 0xFFFF saturates, but its high bits
 * are caught). 7 vector instructions where the unsigned minimum and maximum
 * of g32_bmp2 take 10 (generic_utf32.h, the UTF-8 steps). */
#define V32_UTF8_BMP_UNITS 1
static inline int v32_utf8_bmp2(__m256i a, __m256i b, __m256i f800, __m256i d800) {
  __m256i high = _mm256_and_si256(_mm256_or_si256(a, b), _mm256_set1_epi32((int)0xFFFF0000u));
  __m256i u = _mm256_packus_epi32(a, b); /* (the order does not matter here) */
  __m256i bad = _mm256_or_si256(_mm256_cmpeq_epi16(_mm256_and_si256(u, f800), d800), high);
  return _mm256_testz_si256(bad, bad);
}
struct v32_utf8_k {
  __m256i x3f, c7f, c7ff, cffff, m2, m3, m4;
};
static inline void v32_utf8_k_init(struct v32_utf8_k *k) {
  k->x3f = _mm256_set1_epi32(0x3F);
  k->c7f = _mm256_set1_epi32(0x7F);
  k->c7ff = _mm256_set1_epi32(0x7FF);
  k->cffff = _mm256_set1_epi32(0xFFFF);
  k->m2 = _mm256_set1_epi32(0x80C0);
  k->m3 = _mm256_set1_epi32(0x8080E0);
  k->m4 = _mm256_set1_epi32((int)0x808080F0u);
  V_LOADED(k->x3f);
}
/* Stores o[0..3] (parts ending at e[0..3]) whole at d; unless spill, the
 * 16 bytes after the last part's end are put back. */
UTFXI_INLINE void a2_put_parts(unsigned char *d, const __m128i *o, const size_t *e, int parts,
                               int spill) {
  __m128i keep = _mm_setzero_si128();
  int j;
  if (!spill) keep = _mm_loadu_si128((const __m128i *)(const void *)(d + e[parts - 1]));
  _mm_storeu_si128((__m128i *)(void *)d, o[0]);
  for (j = 1; j < parts; j++) _mm_storeu_si128((__m128i *)(void *)(d + e[j - 1]), o[j]);
  if (!spill) _mm_storeu_si128((__m128i *)(void *)(d + e[parts - 1]), keep);
}
UTFXI_INLINE size_t v32_store_utf8_below800(unsigned char *d, vu32 a, vu32 b,
                                            const struct v32_utf8_k *k, int spill) {
  __m256i u = v32_pack_units(a, b);
  /* the compare v_utf8_form16 makes too (one for both) */
  __m256i two_byte = _mm256_cmpgt_epi16(u, _mm256_set1_epi16(0x7F));
  uint32_t mm = (uint32_t)_mm256_movemask_epi8(_mm256_packs_epi16(two_byte, two_byte));
  __m128i o[2];
  size_t e[2], len1;
  (void)k;
  a2_encode_2byte_x16(u, mm, &o[0], &o[1], &e[0], &len1);
  e[1] = e[0] + len1;
  a2_put_parts(d, o, e, 2, spill);
  return e[1];
}
UTFXI_INLINE size_t v32_store_utf8_bmp(unsigned char *d, vu32 a, vu32 b,
                                       const struct v32_utf8_k *k, int spill) {
  __m128i o[4];
  size_t e[4];
  (void)k;
  a2_encode_bmp_x16(v32_pack_units(a, b), o, e);
  a2_put_parts(d, o, e, 4, spill);
  return e[3];
}
UTFXI_INLINE size_t v32_store_utf8(unsigned char *d, vu32 c, const struct v32_utf8_k *k) {
  __m256i ge80 = _mm256_cmpgt_epi32(c, k->c7f), ge800 = _mm256_cmpgt_epi32(c, k->c7ff);
  __m256i ge10000 = _mm256_cmpgt_epi32(c, k->cffff);
  __m256i low6 = _mm256_and_si256(c, k->x3f), mid6 = _mm256_and_si256(_mm256_srli_epi32(c, 6), k->x3f);
  __m256i hi6 = _mm256_and_si256(_mm256_srli_epi32(c, 12), k->x3f);
  /* each lane's forms, bytes in memory order, marks ORed in */
  __m256i two = _mm256_or_si256(_mm256_or_si256(_mm256_srli_epi32(c, 6), _mm256_slli_epi32(low6, 8)),
                                k->m2);
  __m256i three =
      _mm256_or_si256(_mm256_or_si256(_mm256_srli_epi32(c, 12), _mm256_slli_epi32(mid6, 8)),
                      _mm256_or_si256(_mm256_slli_epi32(low6, 16), k->m3));
  __m256i four = _mm256_or_si256(
      _mm256_or_si256(_mm256_srli_epi32(c, 18), _mm256_slli_epi32(hi6, 8)),
      _mm256_or_si256(_mm256_or_si256(_mm256_slli_epi32(mid6, 16), _mm256_slli_epi32(low6, 24)),
                      k->m4));
  __m256i bytes = _mm256_blendv_epi8(
      _mm256_blendv_epi8(_mm256_blendv_epi8(c, two, ge80), three, ge800), four, ge10000);
  /* a lane's length - 1 in two bits (utfxi_pack_1234byte): odd, >= 0x800 */
  unsigned odd = (unsigned)_mm256_movemask_ps(
      _mm256_castsi256_ps(_mm256_xor_si256(_mm256_xor_si256(ge80, ge800), ge10000)));
  unsigned big = (unsigned)_mm256_movemask_ps(_mm256_castsi256_ps(ge800));
  unsigned r0 = (odd & 0xF) | (big & 0xF) << 4, r1 = odd >> 4 | (big & 0xF0);
  __m256i packed = _mm256_shuffle_epi8(
      bytes, _mm256_inserti128_si256(
                 _mm256_castsi128_si256(_mm_loadu_si128((const __m128i *)utfxi_pack_1234byte[r0])),
                 _mm_loadu_si128((const __m128i *)utfxi_pack_1234byte[r1]), 1));
  __m128i o[2];
  size_t e[2];
  e[0] = 4 + (size_t)_mm_popcnt_u32(r0) + (size_t)_mm_popcnt_u32(r0 >> 4);
  e[1] = e[0] + 4 + (size_t)_mm_popcnt_u32(r1) + (size_t)_mm_popcnt_u32(r1 >> 4);
  o[0] = _mm256_castsi256_si128(packed);
  o[1] = _mm256_extracti128_si256(packed, 1);
  a2_put_parts(d, o, e, 2, 0);
  return e[1];
}

/* UTF-32 validation (generic_utf32.h): the values of a and b as 16-bit
 * lanes in any order, saturated (values of 2^31 and up become 0), XOR 0xD800:
 * below 0x800 exactly for the surrogates among values up to 0xFFFF. */
static inline vu16 v32_surrogate_keys(vu32 a, vu32 b) {
  return _mm256_xor_si256(_mm256_packus_epi32(a, b), _mm256_set1_epi16((short)0xD800));
}
static inline vu16 v16_umin(vu16 a, vu16 b) { return _mm256_min_epu16(a, b); }

/* ---- Widening stores: ASCII bytes to UTF-16 / UTF-32 (the UTF-8
 * transcoders), UTF-16 units to UTF-32 (generic_utf16_to_utf32.h) ---- */
#include "../../scalar/unicode.h"
/* v_put_ascii: the V_BYTES ASCII bytes of v as V_BYTES units at unit w of
 * dst, in the form t (UTF-16LE/BE: VPMOVZXBW, shifted for BE; UTF-32:
 * VPMOVZXBD). */
UTFXI_INLINE void v_put_ascii(void *dst, size_t w, vu8 v, enum utfxi_target t) {
  if (t == UTFXI_T_UTF32) {
    char32_t *d = (char32_t *)dst + w;
    __m128i lo = _mm256_castsi256_si128(v), hi = _mm256_extracti128_si256(v, 1);
    _mm256_storeu_si256((__m256i *)d, _mm256_cvtepu8_epi32(lo));
    _mm256_storeu_si256((__m256i *)(d + 8), _mm256_cvtepu8_epi32(_mm_srli_si128(lo, 8)));
    _mm256_storeu_si256((__m256i *)(d + 16), _mm256_cvtepu8_epi32(hi));
    _mm256_storeu_si256((__m256i *)(d + 24), _mm256_cvtepu8_epi32(_mm_srli_si128(hi, 8)));
  } else {
    char16_t *d = (char16_t *)dst + w;
    __m256i a = _mm256_cvtepu8_epi16(_mm256_castsi256_si128(v));
    __m256i b = _mm256_cvtepu8_epi16(_mm256_extracti128_si256(v, 1));
    if (t == UTFXI_T_UTF16BE) {
      a = _mm256_slli_epi16(a, 8);
      b = _mm256_slli_epi16(b, 8);
    }
    _mm256_storeu_si256((__m256i *)d, a);
    _mm256_storeu_si256((__m256i *)(d + 16), b);
  }
}
/* v16_as_v32: the units of v as 32-bit lanes (a pair per lane).
 * v16_store_utf32: the V16_UNITS units of v (host order) as values at d.
 * v16_store_utf32_paired: the same, but each unit where `high` is set is
 * the high half of a pair whose low half is the unit in the same lane of nx
 * (v one unit on): it becomes the pair's code point; only the units whose
 * bit is set in keep (V16_UNIT_BITS a unit) are stored, packed, and their
 * count returned. Per 8 values, a VPERMD by a row of utfxi_compress8
 * (zero-extended indices; its 0x80 pads pick lane 0), stored whole: each 8
 * keep at least 4 (a low half follows a high one), so the 4 values after
 * the output are read first and put back last (V16_UTF32_ROOM values of
 * room). */
#define v16_as_v32(v) (v)
#define V16_UTF32_ROOM 20
/* On constants made once by the caller (kept in registers): v16_top_eq_k
 * is v16_top_eq, v32_eq the lanes where a == b. */
static inline vu16 v16_splat(unsigned c) { return _mm256_set1_epi16((short)c); }
static inline vu16 v16_splat2(unsigned c0, unsigned c1) {
  return _mm256_set1_epi32((int)(c0 | c1 << 16));
}
static inline vm16 v16_top_eq_k(vu16 v, vu16 mask, vu16 value) {
  return _mm256_cmpeq_epi16(_mm256_and_si256(v, mask), value);
}
static inline vm32 v32_eq(vu32 a, vu32 b) { return _mm256_cmpeq_epi32(a, b); }
static inline void v16_store_utf32(char32_t *d, vu16 v) {
  _mm256_storeu_si256((__m256i *)(void *)d, _mm256_cvtepu16_epi32(_mm256_castsi256_si128(v)));
  _mm256_storeu_si256((__m256i *)(void *)(d + 8),
                      _mm256_cvtepu16_epi32(_mm256_extracti128_si256(v, 1)));
}
UTFXI_INLINE size_t v16_store_utf32_paired(char32_t *d, vu16 v, vu16 nx, vm16 high,
                                           uint64_t keep, vu32 offset, int exact) {
  unsigned m0 = (unsigned)keep & 0xFF, m1 = (unsigned)(keep >> 8) & 0xFF;
  size_t at = (size_t)_mm_popcnt_u32(m0), total = at + (size_t)_mm_popcnt_u32(m1);
  __m128i after = _mm_loadu_si128((const __m128i *)(const void *)(d + total));
  __m256i c0 = _mm256_cvtepu16_epi32(_mm256_castsi256_si128(v));
  __m256i c1 = _mm256_cvtepu16_epi32(_mm256_extracti128_si256(v, 1));
  __m256i p0 = _mm256_add_epi32(_mm256_add_epi32(_mm256_slli_epi32(c0, 10),
                                                 _mm256_cvtepu16_epi32(_mm256_castsi256_si128(nx))),
                                offset);
  __m256i p1 = _mm256_add_epi32(_mm256_add_epi32(_mm256_slli_epi32(c1, 10),
                                                 _mm256_cvtepu16_epi32(_mm256_extracti128_si256(nx, 1))),
                                offset);
  (void)exact;
  c0 = _mm256_blendv_epi8(c0, p0, _mm256_cvtepi16_epi32(_mm256_castsi256_si128(high)));
  c1 = _mm256_blendv_epi8(c1, p1, _mm256_cvtepi16_epi32(_mm256_extracti128_si256(high, 1)));
  _mm256_storeu_si256((__m256i *)(void *)d,
                      _mm256_permutevar8x32_epi32(c0, _mm256_cvtepu8_epi32(_mm_loadl_epi64(
                                                          (const __m128i *)(const void *)utfxi_compress8[m0]))));
  _mm256_storeu_si256((__m256i *)(void *)(d + at),
                      _mm256_permutevar8x32_epi32(c1, _mm256_cvtepu8_epi32(_mm_loadl_epi64(
                                                          (const __m128i *)(const void *)utfxi_compress8[m1]))));
  _mm_storeu_si128((__m128i *)(void *)(d + total), after);
  return total;
}

/* ---- UTF-16 to UTF-8 (generic_utf16_to_utf8.h): the words of its steps
 * on 16 units, over the encoders above ---- */
/* If the 16 units of v (host order) are 8 well-formed pairs, each in one
 * 32-bit lane (high surrogate low), returns nonzero and their code points. */
static inline int a2_aligned_pairs(__m256i v, __m256i *cp) {
  const __m256i pattern = _mm256_set1_epi32((int)0xDC00D800u);
  __m256i top = _mm256_and_si256(v, _mm256_set1_epi16((short)0xFC00));
  __m256i x = _mm256_xor_si256(top, pattern);
  __m256i c3ff = _mm256_set1_epi32(0x3FF);
  if (!_mm256_testz_si256(x, x)) return 0;
  *cp = _mm256_add_epi32(_mm256_or_si256(_mm256_slli_epi32(_mm256_and_si256(v, c3ff), 10),
                                         _mm256_and_si256(_mm256_srli_epi32(v, 16), c3ff)),
                         _mm256_set1_epi32(0x10000));
  return 1;
}

/* The same for 16 units whose surrogates are all halves of pairs inside
 * them, but for a high one at unit 15 when take is 15 (it is left out).
 * Each half of a pair makes two of its four bytes, in the slots of a
 * 2-byte form: with hh = (high & 0x3FF) + 0x40 (the code point >> 10), the
 * high half makes 0xF0 | hh >> 8 and 0x80 | (hh >> 2 & 0x3F), the low one
 * 0x80 | (high & 3) << 4 | (low >> 6 & 0xF) (the high half being the unit
 * before it) and 0x80 | (low & 0x3F). */
UTFXI_INLINE void a2_encode_paired_x16(__m256i v, size_t take, __m128i out[4], size_t ends[4]) {
  /* constants by V_CONST16: gcc built each again in every step */
  __m256i c3ff, c40, c3f00, cff00, cf000, c3000, c0f00, c8000, cf800, cfc00, cd800, cff80, c3f7f,
      c0ffc, cc0e0, c4000, lt800, sur, high, hh, prev, first_high, second_high, second_low, first,
      second, zero = _mm256_setzero_si256();
  V_CONST16(c3ff, 0x3FF);
  V_CONST16(c40, 0x40);
  V_CONST16(c3f00, 0x3F00);
  V_CONST16(cff00, 0xFF00);
  V_CONST16(cf000, 0xF000);
  V_CONST16(c3000, 0x3000);
  V_CONST16(c0f00, 0x0F00);
  V_CONST16(c8000, 0x8000);
  V_CONST16(cf800, 0xF800);
  V_CONST16(cfc00, 0xFC00);
  V_CONST16(cd800, 0xD800);
  V_CONST16(cff80, 0xFF80);
  V_CONST16(c3f7f, 0x3F7F);
  V_CONST16(c0ffc, 0x0FFC);
  V_CONST16(cc0e0, 0xC0E0);
  V_CONST16(c4000, 0x4000);
  lt800 = _mm256_cmpeq_epi16(_mm256_and_si256(v, cf800), zero);
  sur = _mm256_cmpeq_epi16(_mm256_and_si256(v, cf800), cd800);
  high = _mm256_cmpeq_epi16(_mm256_and_si256(v, cfc00), cd800);
  hh = _mm256_add_epi16(_mm256_and_si256(v, c3ff), c40);
  prev = _mm256_alignr_epi8(v, _mm256_permute2x128_si256(v, v, 0x08), 14);
  first_high = _mm256_or_si256(_mm256_and_si256(_mm256_slli_epi16(hh, 6), c3f00), c8000);
  second_high = _mm256_or_si256(_mm256_and_si256(hh, cff00), cf000);
  second_low = _mm256_or_si256(
      _mm256_or_si256(_mm256_and_si256(_mm256_slli_epi16(prev, 12), c3000),
                      _mm256_and_si256(_mm256_slli_epi16(v, 2), c0f00)),
      c8000);
  first = _mm256_blendv_epi8(a2_utf8_first_words_k(v, c3f7f, c8000), first_high, high);
  second = _mm256_blendv_epi8(a2_utf8_second_words_k(v, lt800, c0ffc, cc0e0, c4000),
                              _mm256_blendv_epi8(second_low, second_high, high), sur);
  a2_utf8_pack_x16(first, second, _mm256_cmpeq_epi16(_mm256_and_si256(v, cff80), zero),
                   _mm256_or_si256(lt800, sur), out, ends);
  if (take == 15) ends[3] -= 2; /* the high half at unit 15: its 2 bytes end the output */
}

/* Stores the four parts of a2_encode_*_x16 (ends e) at d. A part's store
 * is whole (16 bytes) where the block's later parts overwrite what it
 * spills, or where `spill` says the caller's next output will; the others
 * write exactly their bytes. */
UTFXI_INLINE void a2_store_utf8_parts(unsigned char *d, const __m128i o[4], const size_t e[4],
                                      int spill) {
  v_store_prefix16(d, o[0], e[0], spill || 16 <= e[3]);
  v_store_prefix16(d + e[0], o[1], e[1] - e[0], spill || e[0] + 16 <= e[3]);
  v_store_prefix16(d + e[1], o[2], e[2] - e[1], spill || e[1] + 16 <= e[3]);
  v_store_prefix16(d + e[2], o[3], e[3] - e[2], spill);
}

/* If every surrogate of the 16 units of v (host order) is half of a pair
 * inside the block (a high one at unit 15 is left for the next block),
 * returns how many units the block takes (15 or 16), else 0. */
UTFXI_INLINE size_t a2_paired_units(__m256i v) {
  uint32_t m = (uint32_t)v16_bits2(v16_top_eq(v, 0xFC00, 0xD800), v16_top_eq(v, 0xFC00, 0xDC00));
  uint32_t high = m & 0x7FFF, low = m >> 16;
  return low == high << 1 ? 16 - (m >> 15 & 1) : 0;
}

/* Stores are exact (v_store_prefix16), whole where a later part of the
 * same step, or with `spill` the next step, overwrites what they spill
 * (v16_store_utf8_pairs: the vector at `after`, when it has no surrogate):
 * a step needs room for its output only (48 bytes). v16_store_utf8_pairs
 * converts 8 aligned pairs (32 bytes, one store) or blocks whose
 * surrogates all pair inside them (a2_encode_paired_x16); a lone
 * surrogate is the scalar kernel's (*took = 0). */
#define V16_UTF8_ROOM 48
struct v16_utf8_k {
  __m256i ff80, f800, d800;
};
static inline void v16_utf8_k_init(struct v16_utf8_k *k) {
  k->ff80 = _mm256_set1_epi16((short)0xFF80);
  k->f800 = _mm256_set1_epi16((short)0xF800);
  k->d800 = _mm256_set1_epi16((short)0xD800);
  V_LOADED(k->ff80);
  V_LOADED(k->f800);
  V_LOADED(k->d800);
}
/* Whether the units of v are all ASCII, all below 0x800; whether some is a
 * surrogate. */
static inline int v16_utf8_ascii(vu16 v, const struct v16_utf8_k *k) {
  return _mm256_testz_si256(v, k->ff80);
}
static inline int v16_utf8_below800(vu16 v, const struct v16_utf8_k *k) {
  return _mm256_testz_si256(v, k->f800);
}
static inline int v16_utf8_surrogates(vu16 v, const struct v16_utf8_k *k) {
  __m256i x = _mm256_cmpeq_epi16(_mm256_and_si256(v, k->f800), k->d800);
  return !_mm256_testz_si256(x, x);
}
static inline void v16_store_bytes(void *p, vu16 v) {
  _mm_storeu_si128((__m128i *)p,
                   _mm_packus_epi16(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1)));
}
UTFXI_INLINE size_t v16_store_utf8_below800(unsigned char *d, vu16 v, const struct v16_utf8_k *k,
                                            int spill) {
  /* the compare v_utf8_form16 makes too (one for both: so not a pinned
   * constant) */
  __m256i two_byte = _mm256_cmpgt_epi16(v, _mm256_set1_epi16(0x7F));
  uint32_t mm = (uint32_t)_mm256_movemask_epi8(_mm256_packs_epi16(two_byte, two_byte));
  size_t len0, len1;
  __m128i out0, out1;
  (void)k;
  a2_encode_2byte_x16(v, mm, &out0, &out1, &len0, &len1);
  v_store_prefix16(d, out0, len0, 1);
  v_store_prefix16(d + len0, out1, len1, spill);
  return len0 + len1;
}
UTFXI_INLINE size_t v16_store_utf8_bmp(unsigned char *d, vu16 v, const struct v16_utf8_k *k,
                                       int spill) {
  __m128i o[4];
  size_t e[4];
  (void)k;
  a2_encode_bmp_x16(v, o, e);
  a2_store_utf8_parts(d, o, e, spill);
  return e[3];
}
UTFXI_INLINE size_t v16_store_utf8_pairs(unsigned char *d, vu16 v, int more,
                                         const char16_t *after, int be, unsigned flags,
                                         const struct v16_utf8_k *k, size_t *took,
                                         size_t *replaced) {
  __m256i cp;
  __m128i o[4];
  size_t e[4], take;
  (void)more, (void)flags, (void)replaced;
  if (a2_aligned_pairs(v, &cp)) { /* 8 pairs: 8 x 4 bytes */
    __m256i b0 = _mm256_srli_epi32(cp, 18);
    __m256i b1 = _mm256_and_si256(_mm256_srli_epi32(cp, 4), _mm256_set1_epi32(0x3F00));
    __m256i b2 = _mm256_and_si256(_mm256_slli_epi32(cp, 10), _mm256_set1_epi32(0x3F0000));
    __m256i b3 = _mm256_and_si256(_mm256_slli_epi32(cp, 24), _mm256_set1_epi32(0x3F000000));
    __m256i out = _mm256_or_si256(_mm256_or_si256(b0, b1), _mm256_or_si256(b2, b3));
    _mm256_storeu_si256((__m256i *)(void *)d,
                        _mm256_or_si256(out, _mm256_set1_epi32((int)0x808080F0u)));
    *took = 16;
    return 32;
  }
  *took = take = a2_paired_units(v);
  if (!take) return 0;
  a2_encode_paired_x16(v, take, o, e);
  a2_store_utf8_parts(d, o, e,
                      take == 16 && after && !v16_utf8_surrogates(v16_load(after, be), k));
  return e[3];
}
/* ---- UTF-8 -> UTF-16 / UTF-32 (generic_utf8_transcode.h) ---- */
#include "../../scalar/unicode.h"
static inline uint64_t v_high_bits(vu8 v) { return (uint32_t)_mm256_movemask_epi8(v); }
static inline vm8 v_at_least(vu8 v, vu8 k) { return _mm256_cmpeq_epi8(_mm256_max_epu8(v, k), v); }
static inline vm8 v_is_cont_given(vu8 v, vu8 c0) { return _mm256_cmpgt_epi8(c0, v); }
struct v_utf8_units_k {
  __m256i c0, low7, low4, high4;
};
/* Made once and hidden from the compiler (V_CONST8), so that where they do
 * not stay in registers they are memory operands: gcc would otherwise make
 * each again in every step (a GPR move, a transfer and a broadcast). */
static inline void v_utf8_units_k_init(struct v_utf8_units_k *k, enum utfxi_target t) {
  (void)t;
  V_CONST8(k->c0, 0xC0);
  V_CONST8(k->low7, 0x7F);
  V_CONST8(k->low4, 0x0F);
  V_CONST8(k->high4, 0xF0);
}
/* v_put_ascii (above) serves the ASCII run loop too. */
#define v_put_ascii_run v_put_ascii
/* v_utf8_put_units where the 8 units after the output may not be written:
 * apart, not inlined (rare: the end of the destination), so that the step's
 * own code keeps its registers. */
static __attribute__((noinline, unused)) size_t a2_u8_put_exact(__m256i u0, __m256i u1,
                                                                uint32_t ends, void *dst,
                                                                size_t w, size_t total,
                                                                enum utfxi_target t) {
  const __m256i iota = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
  size_t k = 0;
  /* Each group stores up to 8 units, but never past the block's total:
   * units past a group's own are overwritten by the next groups, and nothing
   * past the block's output is touched. A group that ends inside the total
   * is stored whole; otherwise dword masks (and one 16-bit store for an odd
   * limit) stop at the total. */
#define A2_U8_GROUP(vec, m)                                                                  \
  do {                                                                                       \
    unsigned mm = (unsigned)(m)&0xFF, c = (unsigned)_mm_popcnt_u32(mm);                     \
    int lim = (int)(total - k < 8 ? total - k : 8);                                          \
    __m128i ctl = _mm_loadu_si128((const __m128i *)utfxi_compress16[mm]);                    \
    __m128i units = _mm_shuffle_epi8((vec), ctl);                                            \
    if (k + 8 <= total) { /* the whole group lies inside the block's output */              \
      if (t == UTFXI_T_UTF32)                                                                \
        _mm256_storeu_si256((__m256i *)(void *)((char32_t *)dst + w + k),                    \
                            _mm256_cvtepu16_epi32(units));                                   \
      else                                                                                   \
        _mm_storeu_si128((__m128i *)(void *)((char16_t *)dst + w + k), units);               \
    } else if (t == UTFXI_T_UTF32) {                                                         \
      _mm256_maskstore_epi32((int *)(void *)((char32_t *)dst + w + k),                       \
                             _mm256_cmpgt_epi32(_mm256_set1_epi32(lim), iota),               \
                             _mm256_cvtepu16_epi32(units));                                  \
    } else {                                                                                 \
      char16_t *d = (char16_t *)dst + w + k;                                                 \
      _mm_maskstore_epi32((int *)(void *)d,                                                  \
                          _mm_cmpgt_epi32(_mm_set1_epi32(lim / 2),                           \
                                          _mm256_castsi256_si128(iota)),                     \
                          units);                                                            \
      if (lim & 1) {                                                                         \
        int at = 2 * (lim - 1); /* bring unit lim - 1 to unit 0 */                           \
        uint16_t u = (uint16_t)_mm_cvtsi128_si32(                                            \
            _mm_shuffle_epi8(units, _mm_set1_epi16((short)(at | (at + 1) << 8))));           \
        memcpy(d + lim - 1, &u, 2);                                                          \
      }                                                                                      \
    }                                                                                        \
    k += c;                                                                                  \
  } while (0)
  A2_U8_GROUP(_mm256_castsi256_si128(u0), ends);
  A2_U8_GROUP(_mm256_castsi256_si128(u1), ends >> 8);
  A2_U8_GROUP(_mm256_extracti128_si256(u0, 1), ends >> 16);
  A2_U8_GROUP(_mm256_extracti128_si256(u1, 1), ends >> 24);
#undef A2_U8_GROUP
  /* A function of its own that uses YMM registers leaves the upper state
   * clean, as every entry does (tests/test_amalgamation.sh checks it); the
   * caller's vectors do not live across a call anyway. */
  _mm256_zeroupper();
  return k;
}

/* The units of the characters of the well-formed block v that `ends` marks
 * (none of 4 bytes): the low byte of each code point from its last byte and
 * the one before, the high byte from the two before (p1z, p2z: those bytes
 * where they belong to the character); eight units at a time compressed by
 * a PSHUFB row of utfxi_compress16 and stored whole. Where room allows, the
 * 8 units after the output are written over and then put back as they were
 * (a caller may not write them concurrently, as for any part of dst), else
 * dword-masked stores stop at the output's end. (AVX2's dword-masked stores
 * are microcoded on AMD: docs/perf-decisions.md, 'UTF-8 -> UTF-16/UTF-32'.) */
UTFXI_INLINE size_t v_utf8_put_units(const struct v_utf8_units_k *kc, vu8 v, vm8 cont, vu8 prev1,
                                     vu8 prev2, vu8 prev3, uint64_t ends64, uint64_t lead4,
                                     void *dst, size_t w, size_t room, enum utfxi_target t) {
  const __m256i c0 = kc->c0;
  __m256i p1z = _mm256_and_si256(prev1, cont);
  __m256i p2z = _mm256_and_si256(prev2, _mm256_and_si256(cont, _mm256_cmpgt_epi8(c0, prev1)));
  __m256i lo = _mm256_or_si256(_mm256_and_si256(v, kc->low7),
                               _mm256_and_si256(_mm256_slli_epi16(p1z, 6), c0));
  __m256i hi = _mm256_or_si256(
      _mm256_and_si256(_mm256_srli_epi16(p1z, 2), kc->low4),
      _mm256_and_si256(_mm256_slli_epi16(p2z, 4), kc->high4));
  uint32_t ends = (uint32_t)ends64;
  int be = t == UTFXI_T_UTF16BE;
  /* Units 0-7 and 16-23 / 8-15 and 24-31, each unit (low, high) in memory
   * order for LE and UTF-32, (high, low) for BE. */
  __m256i u0 = be ? _mm256_unpacklo_epi8(hi, lo) : _mm256_unpacklo_epi8(lo, hi);
  __m256i u1 = be ? _mm256_unpackhi_epi8(hi, lo) : _mm256_unpackhi_epi8(lo, hi);
  size_t k = 0, total = (size_t)_mm_popcnt_u32(ends);
  (void)prev3;
  (void)lead4;
  if (total + 8 <= room) {
    /* Every group stored whole (each at most 8 units, at k <= total), so
     * nothing past unit total + 8 is touched and the units past a group's
     * own are overwritten by the next groups; the 8 units after the output
     * are read first and put back last, so they end as they were. */
    char16_t *d16 = (char16_t *)dst + w;
    char32_t *d32 = (char32_t *)dst + w;
    __m256i keep =
        t == UTFXI_T_UTF32
            ? _mm256_loadu_si256((const __m256i *)(void *)(d32 + total))
            : _mm256_castsi128_si256(_mm_loadu_si128((const __m128i *)(void *)(d16 + total)));
#define A2_U8_WHOLE(vec, bits)                                                                \
  do {                                                                                       \
    unsigned mm = (unsigned)(bits)&0xFF;                                                     \
    __m128i ctl = _mm_loadu_si128((const __m128i *)utfxi_compress16[mm]);                    \
    __m128i units = _mm_shuffle_epi8((vec), ctl);                                            \
    if (t == UTFXI_T_UTF32)                                                                  \
      _mm256_storeu_si256((__m256i *)(void *)(d32 + k), _mm256_cvtepu16_epi32(units));       \
    else                                                                                     \
      _mm_storeu_si128((__m128i *)(void *)(d16 + k), units);                                 \
    k += (size_t)_mm_popcnt_u32(mm);                                                         \
  } while (0)
    A2_U8_WHOLE(_mm256_castsi256_si128(u0), ends);
    A2_U8_WHOLE(_mm256_castsi256_si128(u1), ends >> 8);
    A2_U8_WHOLE(_mm256_extracti128_si256(u0, 1), ends >> 16);
    A2_U8_WHOLE(_mm256_extracti128_si256(u1, 1), ends >> 24);
#undef A2_U8_WHOLE
    if (t == UTFXI_T_UTF32)
      _mm256_storeu_si256((__m256i *)(void *)(d32 + total), keep);
    else
      _mm_storeu_si128((__m128i *)(void *)(d16 + total), _mm256_castsi256_si128(keep));
    return total;
  }
  return a2_u8_put_exact(u0, u1, ends, dst, w, total, t);
}

/* How the UTF-16 / UTF-32 lengths of UTF-8 count (generic_utf8_length.h;
 * docs/perf-decisions.md, 'UTF-8 lengths'). */
#define V_UTF8_COUNT16 G8_BITS
#define V_UTF8_COUNT32 G8_BITS

#endif
