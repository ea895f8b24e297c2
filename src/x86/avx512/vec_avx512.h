/* The vector vocabulary of the generic kernels (src/simd/generic.h) on
 * AVX-512 (F, BW, VL, VBMI): 64-byte vectors. Compares write mask registers,
 * so the mask types are __mmask64 / __mmask32 / __mmask16, one bit per lane,
 * and a mask of bytes or units is the register itself (no VPMOVMSKB). Tails
 * are zero-masked loads (V_MASKED_TAIL): nothing outside the buffer is read.
 * Only files compiled with the avx512 tier's flags include it. */
#ifndef UTFX_X86_VEC_AVX512_H
#define UTFX_X86_VEC_AVX512_H

#ifndef __AVX512VBMI2__
#error "vec_avx512.h is for files built with the avx512 tier's flags"
#endif

#include <immintrin.h>
#include <stddef.h>
#include <stdint.h>
#include <uchar.h>

#include "../../internal.h"

#define V_BYTES 64
#define V_TIER avx512
#define V16_UNIT_BITS 1
#define V_BYTE_BITS 1
#define V_MASKED_TAIL 1
/* Compare results are mask registers: their bits cost one move (generic.h). */
#define V_MASK_REGISTERS 1
#ifndef UTFX_TESTS_EMU_AVX512_EMU_H /* (the emulation's vectors are structs) */
#define V_LOADED(v) __asm__("" : "+v"(v))
#define V_PIN(v) __asm__("" : "+v"(v))
/* A load kept in program order with the other such loads (a volatile asm):
 * gcc otherwise issues a read loop's loads in its own order, often from the
 * top of the step down, and a step read downwards streams from L2 more
 * slowly (docs/perf-decisions.md, 'Read loops: loads in address order, eight
 * vectors a turn'). Not under AddressSanitizer, which does not check an
 * asm's memory operands: the plain loads it checks read the same bytes. */
#if defined(__SANITIZE_ADDRESS__)
#define V_NO_LOAD_SEQ 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define V_NO_LOAD_SEQ 1
#endif
#endif
#ifndef V_NO_LOAD_SEQ
#define V_LOAD_SEQ(p) v_load_seq_(p)
struct v_line_ {
  char b[64];
};
static inline __m512i v_load_seq_(const void *p) {
  __m512i v;
  __asm__ volatile("vmovdqu64 %1, %0" : "=v"(v) : "m"(*(const struct v_line_ *)p));
  return v;
}
#endif
/* A kernel's constant of 64-bit lanes, each *p, in a register: one
 * broadcast from memory (one load, 10 bytes of code) where gcc, told to keep
 * a constant in a register (V_LOADED), builds it from an immediate (a 10-byte
 * move to a general register and a broadcast on the shuffle port): kernels
 * that set up many constants spend much of a short input's time on them
 * (docs/perf-decisions.md, 'Kernel constants'). */
#define A512_CONST64(v, c)                                                   \
  do {                                                                       \
    static const uint64_t a512_c_ = (c);                                     \
    __asm__("vpbroadcastq %1, %0" : "=v"(v) : "m"(a512_c_));                 \
  } while (0)
/* The same for a table of 64 bytes (t points to the array). */
#define A512_TABLE(v, t) __asm__("vmovdqu64 %1, %0" : "=v"(v) : "m"(*(t)))
#else /* (the UTF-8 encoder's constants below use it) */
#define V_LOADED(v) ((void)0)
#define V_PIN(v) ((void)0)
#define A512_CONST64(v, c) ((v) = _mm512_set1_epi64((long long)(c)))
#define A512_TABLE(v, t) ((v) = _mm512_loadu_si512(*(t)))
#endif
#define V_CONST32(v, c) A512_CONST64(v, (uint64_t)(uint32_t)(c) * 0x100000001ull)

typedef __m512i vu8;
typedef __m512i vu16;
typedef __mmask64 vm8;
typedef __mmask32 vm16;

static inline vu8 v_load(const void *p) { return _mm512_loadu_si512(p); }
static inline void v_store(void *p, vu8 v) { _mm512_storeu_si512(p, v); }
/* The first k bytes at p (all 64 if k >= 64), zeros after them. */
static inline vu8 v_load_tail(const void *p, size_t k) {
  return _mm512_maskz_loadu_epi8(_bzhi_u64(~0ull, (unsigned)(k < 64 ? k : 64)), p);
}
static inline vu8 v_zero(void) { return _mm512_setzero_si512(); }
static inline vu8 v_splat(unsigned char c) { return _mm512_set1_epi8((char)c); }
static inline vu8 v_or(vu8 a, vu8 b) { return _mm512_or_si512(a, b); }
static inline vu8 v_and(vu8 a, vu8 b) { return _mm512_and_si512(a, b); }
static inline vu8 v_xor(vu8 a, vu8 b) { return _mm512_xor_si512(a, b); }
/* (a | b) & m in one VPTERNLOG, a its destination (a fresh value, no copy). */
static inline vu8 v_or_and(vu8 a, vu8 b, vu8 m) { return _mm512_ternarylogic_epi64(a, b, m, 0xA8); }
static inline vu8 v_subs(vu8 a, vu8 b) { return _mm512_subs_epu8(a, b); }
static inline vu8 v_shr4(vu8 v, vu8 nib) {
  return _mm512_and_si512(_mm512_srli_epi16(v, 4), nib);
}
static inline vu8 v_add(vu8 a, vu8 b) { return _mm512_add_epi8(a, b); }
static inline vu8 v_sum_bytes(vu8 acc, vu8 v) {
  return _mm512_add_epi64(acc, _mm512_sad_epu8(v, _mm512_setzero_si512()));
}
static inline uint64_t v_sum_lanes(vu8 acc) { return (uint64_t)_mm512_reduce_add_epi64(acc); }
#define V_TABLE16(...) _mm512_broadcast_i32x4(_mm_setr_epi8(__VA_ARGS__))
static inline vu8 v_lookup16(vu8 table, vu8 idx) { return _mm512_shuffle_epi8(table, idx); }
/* table (a V_TABLE16) at each byte's high / low nibble, no mask: VPERMB reads
 * 6 bits of each index, and the table repeats every 16 bytes
 * (generic_utf8_check_w.h: the long calls' check of the UTF-16 length). */
#define V_LOOKUP_NIBBLES 1
static inline vu8 v_lookup_hi4(vu8 table, vu8 v) {
  return _mm512_permutexvar_epi8(_mm512_srli_epi16(v, 4), table);
}
static inline vu8 v_lookup_lo4(vu8 table, vu8 v) { return _mm512_permutexvar_epi8(v, table); }
/* Byte j of the pair (prev, cur) at 64 + j - k: one VPERMT2B. */
static inline vu8 v_prev_bytes(vu8 prev, vu8 cur, int k) {
  const __m512i iota = _mm512_set_epi8(
      63, 62, 61, 60, 59, 58, 57, 56, 55, 54, 53, 52, 51, 50, 49, 48, 47, 46, 45, 44, 43, 42, 41,
      40, 39, 38, 37, 36, 35, 34, 33, 32, 31, 30, 29, 28, 27, 26, 25, 24, 23, 22, 21, 20, 19, 18,
      17, 16, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0);
  return _mm512_permutex2var_epi8(prev, _mm512_add_epi8(iota, _mm512_set1_epi8((char)(64 - k))),
                                  cur);
}
#define v_prev(prev, cur, k) v_prev_bytes((prev), (cur), (k))
#define V_PREV_ANY_K 1 /* (v_prev_bytes takes k at run time: UTF-16 -> Latin-1) */

static inline uint64_t v_bits(vm8 m) { return m; }
static inline vm8 v_is_cont(vu8 v) { /* 0x80..0xBF: below 0xC0 as signed bytes */
  return _mm512_cmplt_epi8_mask(v, _mm512_set1_epi8(-64));
}
static inline vm8 v_ge(vu8 v, unsigned char c) {
  return _mm512_cmpge_epu8_mask(v, _mm512_set1_epi8((char)c));
}
static inline vm8 v_nonzero(vu8 v) { return _mm512_test_epi8_mask(v, v); }
static inline int v_any(vu8 v) { return _mm512_test_epi8_mask(v, v) != 0; }
static inline int v_any_high(vu8 v) { return _mm512_movepi8_mask(v) != 0; }
static inline size_t v_first_high(vu8 v) { return (size_t)_tzcnt_u64(_mm512_movepi8_mask(v)); }

static inline vu16 v16_load_raw(const char16_t *p) { return v_load(p); }
static inline void v16_store(char16_t *p, vu16 v) { v_store(p, v); }
static inline vu16 v16_bswap(vu16 v) { return _mm512_shldi_epi16(v, v, 8); }
static inline vu16 v16_load(const char16_t *p, int be) {
  vu16 v = v_load(p);
  return be ? v16_bswap(v) : v;
}
/* The first k units at p (all 32 if k >= 32), zeros after them. */
static inline vu16 v16_load_tail_raw(const char16_t *p, size_t k) {
  return _mm512_maskz_loadu_epi16(_bzhi_u32(~0u, (unsigned)(k < 32 ? k : 32)), p);
}
static inline vu16 v16_load_tail(const char16_t *p, size_t k, int be) {
  vu16 v = v16_load_tail_raw(p, k);
  return be ? v16_bswap(v) : v;
}
/* The first k units of v to p (k <= 32): nothing after them is written. */
static inline void v16_store_tail(char16_t *p, size_t k, vu16 v) {
  _mm512_mask_storeu_epi16(p, _bzhi_u32(~0u, (unsigned)k), v);
}
static inline vm16 v16_top_eq(vu16 v, unsigned mask, unsigned value) {
  if (value == 0) return _mm512_testn_epi16_mask(v, _mm512_set1_epi16((short)mask)); /* one op */
  return _mm512_cmpeq_epi16_mask(_mm512_and_si512(v, _mm512_set1_epi16((short)mask)),
                                 _mm512_set1_epi16((short)value));
}
static inline uint64_t v16_bits2(vm16 a, vm16 b) { return (uint64_t)a | (uint64_t)b << 32; }
static inline size_t v16_count2(vm16 a, vm16 b) { return (size_t)_mm_popcnt_u64(v16_bits2(a, b)); }
static inline int v16_any(vm16 m) { return m != 0; }
/* Units as values: a | b; whether some unit of v has a bit of mask set. */
static inline vu16 v16_or_units(vu16 a, vu16 b) { return _mm512_or_si512(a, b); }
static inline vu16 v16_xor_units(vu16 a, vu16 b) { return _mm512_xor_si512(a, b); }
static inline int v16_any_bits(vu16 v, unsigned mask) {
  return _mm512_test_epi16_mask(v, _mm512_set1_epi16((short)mask)) != 0;
}
static inline vm16 v16_or(vm16 a, vm16 b) { return a | b; }
static inline vm16 v16_and(vm16 a, vm16 b) { return a & b; }
static inline vm16 v16_xor(vm16 a, vm16 b) { return a ^ b; }

/* (unit & mask) ^ value is 0 exactly where the test holds: one VPTERNLOGD
 * each, the minimum over the four, one compare. The _k form takes the
 * constants made once by the caller (v16_splat of mask and value;
 * validation's runs, where gcc built them again in every step). */
static inline int v16_any_top_eq4_k(vu16 a, vu16 b, vu16 c, vu16 d, vu16 m, vu16 x) {
  __m512i lo = _mm512_min_epu16(_mm512_min_epu16(_mm512_ternarylogic_epi32(a, m, x, 0x6A),
                                                 _mm512_ternarylogic_epi32(b, m, x, 0x6A)),
                                _mm512_min_epu16(_mm512_ternarylogic_epi32(c, m, x, 0x6A),
                                                 _mm512_ternarylogic_epi32(d, m, x, 0x6A)));
  return _mm512_testn_epi16_mask(lo, lo) != 0;
}
static inline int v16_any_top_eq4(vu16 a, vu16 b, vu16 c, vu16 d, unsigned mask, unsigned value) {
  return v16_any_top_eq4_k(a, b, c, d, _mm512_set1_epi16((short)mask),
                           _mm512_set1_epi16((short)value));
}
/* The bytewise maximum of two vectors of units. */
static inline vu16 v16_max_bytes(vu16 a, vu16 b) { return _mm512_max_epu8(a, b); }
/* One masked byte compare. */
static inline int v16_any_byte_at_least(vu16 v, unsigned byte, unsigned c8) {
  __mmask64 which = byte == 0xFF00 ? 0xAAAAAAAAAAAAAAAAull : 0x5555555555555555ull;
  return _mm512_mask_cmpge_epu8_mask(which, v, _mm512_set1_epi8((char)c8)) != 0;
}
/* A class byte per unit, signed-saturated to 0..127, looked up by a
 * two-table VPERMI2B (the second table zero): little-endian unit >> 5 (0..3
 * below 0x80, 4..63 below 0x800); big-endian (unit's high byte) | (bit 7 of
 * its low byte) (0 below 0x80, 1..7 below 0x800), one shift and one
 * VPTERNLOG, no byte swap. The table and the mask are loaded by asm: gcc
 * otherwise built them again inside the loop from general registers
 * (docs/perf-decisions.md, 'UTF-8 length of UTF-16'). */
static inline vu8 v16_short_forms_bytes(vu16 a, vu16 b, int be) {
  static const uint8_t tables[2][64] = {
      {2, 2, 2, 2, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
       1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1},
      {2, 1, 1, 1, 1, 1, 1, 1}};
  __m512i table, high;
  A512_TABLE(table, &tables[be]);
  if (be) {
    A512_CONST64(high, 0x00FF00FF00FF00FFull);
    a = _mm512_ternarylogic_epi32(_mm512_srli_epi16(a, 15), a, high, 0xF8);
    b = _mm512_ternarylogic_epi32(_mm512_srli_epi16(b, 15), b, high, 0xF8);
  } else {
    a = _mm512_srli_epi16(a, 5);
    b = _mm512_srli_epi16(b, 5);
  }
  return _mm512_permutex2var_epi8(table, _mm512_packs_epi16(a, b), _mm512_setzero_si512());
}
/* ((hi ^ high) | (lo ^ low)) & top is 0 exactly at a pair, and 1 minus it
 * (saturating) the count: no compare into a mask register. */
static inline vu8 v16_pair_starts(vu16 hi, vu16 lo, int be) {
  const __m512i h = _mm512_set1_epi16((short)(be ? 0x00D8 : 0xD800));
  const __m512i l = _mm512_set1_epi16((short)(be ? 0x00DC : 0xDC00));
  __m512i z = _mm512_ternarylogic_epi32(_mm512_xor_si512(hi, h), _mm512_xor_si512(lo, l),
                                        _mm512_set1_epi16((short)(be ? 0x00FC : 0xFC00)), 0xA8);
  return _mm512_subs_epu16(_mm512_set1_epi16(1), z);
}
static inline vm16 v16_below(vu16 v, unsigned c) {
  return _mm512_cmplt_epu16_mask(v, _mm512_set1_epi16((short)c));
}
/* The pairs of a long call's surrogate-dense blocks (V16_PAIR_TOPS,
 * g16_utf32_length_long): one VPERMT2B packs a block's 64 top bytes, an AND
 * and two byte compares make its high and low surrogates' masks, and a low
 * counts where the unit before it is a high (from the last block's top
 * bytes, carried in a register, so no second load one unit on): 2 loads and
 * 5 vector operations a block, where the units' form takes 4 loads and 8
 * (docs/perf-decisions.md, 'UTF-32 length of UTF-16'). */
#define V16_PAIR_TOPS 1
struct v16_tops_k {
  vu8 pick, fc, d8, dc;
};
static inline void v16_tops_k_init(struct v16_tops_k *k, int be) {
  /* byte 2j + 1 of a:b, the top byte (2j in UTF-16BE) */
  static const unsigned char pick[2][64] = {
    {
      0x01, 0x03, 0x05, 0x07, 0x09, 0x0B, 0x0D, 0x0F, 0x11, 0x13, 0x15, 0x17, 0x19, 0x1B, 0x1D,
      0x1F, 0x21, 0x23, 0x25, 0x27, 0x29, 0x2B, 0x2D, 0x2F, 0x31, 0x33, 0x35, 0x37, 0x39, 0x3B,
      0x3D, 0x3F, 0x41, 0x43, 0x45, 0x47, 0x49, 0x4B, 0x4D, 0x4F, 0x51, 0x53, 0x55, 0x57, 0x59,
      0x5B, 0x5D, 0x5F, 0x61, 0x63, 0x65, 0x67, 0x69, 0x6B, 0x6D, 0x6F, 0x71, 0x73, 0x75, 0x77,
      0x79, 0x7B, 0x7D, 0x7F},
    {
      0x00, 0x02, 0x04, 0x06, 0x08, 0x0A, 0x0C, 0x0E, 0x10, 0x12, 0x14, 0x16, 0x18, 0x1A, 0x1C,
      0x1E, 0x20, 0x22, 0x24, 0x26, 0x28, 0x2A, 0x2C, 0x2E, 0x30, 0x32, 0x34, 0x36, 0x38, 0x3A,
      0x3C, 0x3E, 0x40, 0x42, 0x44, 0x46, 0x48, 0x4A, 0x4C, 0x4E, 0x50, 0x52, 0x54, 0x56, 0x58,
      0x5A, 0x5C, 0x5E, 0x60, 0x62, 0x64, 0x66, 0x68, 0x6A, 0x6C, 0x6E, 0x70, 0x72, 0x74, 0x76,
      0x78, 0x7A, 0x7C, 0x7E}};
  A512_TABLE(k->pick, &pick[be ? 1 : 0]);
  k->fc = _mm512_set1_epi8((char)0xFC);
  k->d8 = _mm512_set1_epi8((char)0xD8);
  k->dc = _mm512_set1_epi8((char)0xDC);
  V_LOADED(k->fc);
  V_LOADED(k->d8);
  V_LOADED(k->dc);
}
/* How many units of the 64 raw units a, b are a low surrogate after a high
 * one; *prev: the last block's top bytes, masked (byte 63: 0xD8, the unit
 * before a is a high surrogate). The neighbour is a VPERMT2B from it, so
 * the masks stay in mask registers. */
typedef vu8 v16_tops_carry;
static inline v16_tops_carry v16_tops_carry_from(int high) {
  return high ? _mm512_set1_epi8((char)0xD8) : _mm512_setzero_si512();
}
static inline size_t v16_count_pair_tops(const struct v16_tops_k *k, vu16 a, vu16 b,
                                         v16_tops_carry *prev) {
  __m512i t = _mm512_and_si512(_mm512_permutex2var_epi8(a, k->pick, b), k->fc);
  __mmask64 hi = _mm512_cmpeq_epi8_mask(v_prev_bytes(*prev, t, 1), k->d8);
  *prev = t;
  return (size_t)_mm_popcnt_u64(_mm512_mask_cmpeq_epi8_mask(hi, t, k->dc));
}

/* 32-bit lanes (UTF-32 values). */
#define V32_LANES 16
typedef __m512i vu32;
typedef __mmask16 vm32;
static inline vu32 v32_load(const char32_t *p) { return v_load(p); }
/* The first k values at p (all 16 if k >= 16), zeros after them. */
static inline vu32 v32_load_tail(const char32_t *p, size_t k) {
  return _mm512_maskz_loadu_epi32((__mmask16)_bzhi_u32(0xFFFF, (unsigned)(k < 16 ? k : 16)), p);
}
static inline vm32 v32_ge(vu32 v, uint32_t c) {
  return _mm512_cmpge_epu32_mask(v, _mm512_set1_epi32((int)c));
}
static inline vm32 v32_in_range(vu32 v, uint32_t lo, uint32_t len) {
  return _mm512_cmplt_epu32_mask(_mm512_sub_epi32(v, _mm512_set1_epi32((int)lo)),
                                 _mm512_set1_epi32((int)len));
}
static inline vm32 v32_top_eq(vu32 v, uint32_t mask, uint32_t value) {
  return _mm512_cmpeq_epi32_mask(_mm512_and_si512(v, _mm512_set1_epi32((int)mask)),
                                 _mm512_set1_epi32((int)value));
}
static inline vu32 v32_umax(vu32 a, vu32 b) { return _mm512_max_epu32(a, b); }
static inline vu32 v32_umin(vu32 a, vu32 b) { return _mm512_min_epu32(a, b); }
static inline vu32 v32_sub(vu32 v, uint32_t c) {
  return _mm512_sub_epi32(v, _mm512_set1_epi32((int)c));
}
static inline vm32 v32_or(vm32 a, vm32 b) { return a | b; }
static inline int v32_any(vm32 m) { return m != 0; }
static inline size_t v32_count(vm32 m) { return (size_t)_mm_popcnt_u32(m); }
/* acc plus 1 in the lanes with lo <= v < lo + len (unsigned; a masked
 * addition), and the total of such counts' lanes. */
static inline vu32 v32_count_in_range(vu32 acc, vu32 v, uint32_t lo, uint32_t len) {
  return _mm512_mask_add_epi32(acc, v32_in_range(v, lo, len), acc, _mm512_set1_epi32(1));
}
static inline size_t v32_sum(vu32 acc) { return (uint32_t)_mm512_reduce_add_epi32(acc); }
/* The planes (v >> 16) of the 64 values of a..d, in some order, as bytes:
 * 0 for a BMP value, 1..0x10 for an astral one, above 0x10 (saturated) or 0
 * (from 2^31 on) for the others. A 32-bit shift of one vector and a word
 * blend (by a mask) with the other put two vectors' planes in one vector of
 * words, a byte pack two of those in one of bytes: five operations for four
 * vectors, as on avx2 (g32_utf16_length). */
#define V32_PLANES4 1
static inline vu8 v32_planes4(vu32 a, vu32 b, vu32 c, vu32 d) {
  return _mm512_packus_epi16(_mm512_mask_mov_epi16(a, 0x55555555u, _mm512_srli_epi32(b, 16)),
                             _mm512_mask_mov_epi16(c, 0x55555555u, _mm512_srli_epi32(d, 16)));
}
static inline vu8 v_umin(vu8 a, vu8 b) { return _mm512_min_epu8(a, b); }
static inline vu8 v_umax(vu8 a, vu8 b) { return _mm512_max_epu8(a, b); }
static inline vm32 v32_and(vm32 a, vm32 b) { return a & b; }
static inline int v32_all(vm32 m) { return m == 0xFFFF; }
/* Values: bytes as 32-bit lanes, shifts, and, or, stores. */
static inline vu32 v32_of_bytes(vu8 v) { return v; }
#define v32_shl(v, k) _mm512_slli_epi32(v, k)
#define v32_shr(v, k) _mm512_srli_epi32(v, k)
static inline vu32 v32_and_value(vu32 v, uint32_t c) {
  return _mm512_and_si512(v, _mm512_set1_epi32((int)c));
}
static inline vu32 v32_or_values(vu32 a, vu32 b) { return _mm512_or_si512(a, b); }
static inline vu32 v32_bswap16(vu32 v) { return v16_bswap(v); }
static inline vu32 v32_splat(uint32_t c) { return _mm512_set1_epi32((int)c); }
/* V32_LANES values to p (UTF-32, or pairs of UTF-16 units). */
static inline void v32_store(void *p, vu32 v) { v_store(p, v); }
/* The low 16 bits of each lane as 16 UTF-16 units at p (swapped for be):
 * one byte permute narrows (and swaps), cheaper than VPMOVDW on Intel. */
static inline void v32_store_units16(char16_t *p, vu32 v, int be) {
  const __m512i le = _mm512_set_epi8(
      0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
      61, 60, 57, 56, 53, 52, 49, 48, 45, 44, 41, 40, 37, 36, 33, 32, 29, 28, 25, 24, 21, 20, 17, 16,
      13, 12, 9, 8, 5, 4, 1, 0);
  const __m512i swapped = _mm512_set_epi8(
      0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
      60, 61, 56, 57, 52, 53, 48, 49, 44, 45, 40, 41, 36, 37, 32, 33, 28, 29, 24, 25, 20, 21, 16, 17,
      12, 13, 8, 9, 4, 5, 0, 1);
  __m512i u = _mm512_permutexvar_epi8(be ? swapped : le, v);
  _mm256_storeu_si256((__m256i *)(void *)p, _mm512_castsi512_si256(u));
}
/* Sixteen 3-byte groups at p (it reads 48 bytes: a masked load), each in a
 * lane as byte0 << 16 | byte1 << 8 | byte2: one byte permute. */
#define V32_SPREAD3_READS 48
static inline vu32 v32_spread3(const unsigned char *p) {
  const __m512i spread = _mm512_set_epi8(
      0, 45, 46, 47, 0, 42, 43, 44, 0, 39, 40, 41, 0, 36, 37, 38, 0, 33, 34, 35, 0, 30, 31, 32, 0,
      27, 28, 29, 0, 24, 25, 26, 0, 21, 22, 23, 0, 18, 19, 20, 0, 15, 16, 17, 0, 12, 13, 14, 0, 9,
      10, 11, 0, 6, 7, 8, 0, 3, 4, 5, 0, 0, 1, 2);
  __m512i raw = _mm512_maskz_loadu_epi8(0xFFFFFFFFFFFFull, (const void *)p);
  return _mm512_maskz_permutexvar_epi8(0x7777777777777777ull, spread, raw);
}

/* Widening and narrowing (Latin-1 <-> UTF-16 / UTF-32), as in vec_avx2.h;
 * the _tail forms read or write only the first k (<= a vector's) lanes.
 * Narrowing packs (VPACKUS + a permute), cheaper than VPMOVWB / VPMOVDB
 * (two port-5 uops each on Intel): docs/perf-decisions.md, 'UTF-16 ->
 * Latin-1' and 'UTF-32 -> Latin-1'. */
static inline vu16 v16_widen(const void *p) {
  return _mm512_cvtepu8_epi16(_mm256_loadu_si256((const __m256i *)p));
}
static inline vu32 v32_widen(const void *p) {
  return _mm512_cvtepu8_epi32(_mm_loadu_si128((const __m128i *)p));
}
static inline vu16 v16_widen_tail(const void *p, size_t k) {
  return _mm512_cvtepu8_epi16(_mm256_maskz_loadu_epi8(_bzhi_u32(~0u, (unsigned)k), p));
}
static inline vu32 v32_widen_tail(const void *p, size_t k) {
  return _mm512_cvtepu8_epi32(_mm_maskz_loadu_epi8((__mmask16)_bzhi_u32(0xFFFF, (unsigned)k), p));
}
static inline void v32_store_tail(char32_t *p, size_t k, vu32 v) {
  _mm512_mask_storeu_epi32(p, (__mmask16)_bzhi_u32(0xFFFF, (unsigned)k), v);
}
static inline vu8 v16_pack_bytes(vu16 a, vu16 b) {
  return _mm512_permutexvar_epi64(_mm512_setr_epi64(0, 2, 4, 6, 1, 3, 5, 7),
                                  _mm512_packus_epi16(a, b));
}
/* VPERMT2B indexes of the first (second = 0) or second byte of each 16-bit
 * unit of a pair of vectors, in order. */
static inline __m512i a512_unit_byte_index(int second) {
  if (second)
    return _mm512_set_epi8(127, 125, 123, 121, 119, 117, 115, 113, 111, 109, 107, 105, 103, 101,
                           99, 97, 95, 93, 91, 89, 87, 85, 83, 81, 79, 77, 75, 73, 71, 69, 67, 65,
                           63, 61, 59, 57, 55, 53, 51, 49, 47, 45, 43, 41, 39, 37, 35, 33, 31, 29,
                           27, 25, 23, 21, 19, 17, 15, 13, 11, 9, 7, 5, 3, 1);
  return _mm512_set_epi8(126, 124, 122, 120, 118, 116, 114, 112, 110, 108, 106, 104, 102, 100, 98,
                         96, 94, 92, 90, 88, 86, 84, 82, 80, 78, 76, 74, 72, 70, 68, 66, 64, 62,
                         60, 58, 56, 54, 52, 50, 48, 46, 44, 42, 40, 38, 36, 34, 32, 30, 28, 26,
                         24, 22, 20, 18, 16, 14, 12, 10, 8, 6, 4, 2, 0);
}
/* The byte holding each raw unit's value (<= 0xFF) of a then b, in order:
 * the first of the unit in LE, the second in BE (no swap first). */
static inline vu8 v16_pack_latin1(vu16 a, vu16 b, int be) {
  if (!be) return v16_pack_bytes(a, b);
  return _mm512_permutex2var_epi8(a, a512_unit_byte_index(1), b);
}
static inline vu8 v32_pack_bytes(vu32 a, vu32 b, vu32 c, vu32 e) {
  const __m512i order = _mm512_setr_epi32(0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15);
  return _mm512_permutexvar_epi32(
      order, _mm512_packus_epi16(_mm512_packus_epi32(a, b), _mm512_packus_epi32(c, e)));
}
static inline void v32_store_bytes(void *p, vu32 v) {
  _mm_storeu_si128((__m128i *)p, _mm512_cvtepi32_epi8(v));
}
static inline void v16_store_bytes_tail(void *p, size_t k, vu16 v) {
  _mm256_mask_storeu_epi8(p, _bzhi_u32(~0u, (unsigned)k), _mm512_cvtepi16_epi8(v));
}
static inline void v32_store_bytes_tail(void *p, size_t k, vu32 v) {
  _mm_mask_storeu_epi8(p, (__mmask16)_bzhi_u32(0xFFFF, (unsigned)k), _mm512_cvtepi32_epi8(v));
}
static inline int v32_any_bits(vu32 v, uint32_t mask) {
  return _mm512_test_epi32_mask(v, _mm512_set1_epi32((int)mask)) != 0;
}

/* Latin-1 to UTF-8 (generic_latin1.h), as in vec_avx2.h but for the
 * layout of a form: lane j holds a lead then its byte, so one VPERMT2B per
 * half interleaves two vectors made once a block in the bytes' own order:
 * the leads (C2 for bytes 80..BF, C3 for C0..FF: a zero-masked VPERMT2B
 * lookup whose table is chosen by bit 6; 0 for an ASCII byte) and the bytes
 * (bit 6 cleared on C0..FF: AND with BF where bit 7 is set). The store keeps
 * every lane's byte and the leads that are not 0 (a compare with a constant:
 * bytes are <= BF, never FF): VPCOMPRESSB. Each half's length comes from the
 * block's sign bits (a general register already, for the ASCII test), not
 * from the compress mask, so no mask is moved from a general register (on
 * Zen 4 every operation of the block counts, mask operations most:
 * docs/perf-decisions.md, 'avx512 Latin-1 -> UTF-8 on mostly-ASCII Latin
 * text').
 * v_store_utf8_tail stores the forms of the first k lanes, exactly. */
typedef struct {
  __m512i f;
  __mmask64 keep;
  size_t len;
} vforms8;
static inline void v_utf8_forms(vu8 v, vforms8 *h0, vforms8 *h1) {
  /* byte 2j <- lead j (index 64 + j), byte 2j+1 <- byte j, of the half */
  const __m512i first = _mm512_set_epi8(
      31, 95, 30, 94, 29, 93, 28, 92, 27, 91, 26, 90, 25, 89, 24, 88, 23, 87, 22, 86, 21, 85, 20,
      84, 19, 83, 18, 82, 17, 81, 16, 80, 15, 79, 14, 78, 13, 77, 12, 76, 11, 75, 10, 74, 9, 73,
      8, 72, 7, 71, 6, 70, 5, 69, 4, 68, 3, 67, 2, 66, 1, 65, 0, 64);
  const __m512i second = _mm512_set_epi8(
      63, 127, 62, 126, 61, 125, 60, 124, 59, 123, 58, 122, 57, 121, 56, 120, 55, 119, 54, 118,
      53, 117, 52, 116, 51, 115, 50, 114, 49, 113, 48, 112, 47, 111, 46, 110, 45, 109, 44, 108,
      43, 107, 42, 106, 41, 105, 40, 104, 39, 103, 38, 102, 37, 101, 36, 100, 35, 99, 34, 98, 33,
      97, 32, 96);
  const __m512i c2 = _mm512_set1_epi8((char)0xC2), c3 = _mm512_set1_epi8((char)0xC3);
  const __m512i bf = _mm512_set1_epi8((char)0xBF), no_lead = _mm512_set1_epi16((short)0xFF00);
  __mmask64 high = _mm512_movepi8_mask(v);
  uint64_t bits = (uint64_t)high;
  __m512i lead = _mm512_maskz_permutex2var_epi8(high, c2, v, c3);
  __m512i byte = _mm512_mask_mov_epi8(v, high, _mm512_and_si512(v, bf));
  h0->f = _mm512_permutex2var_epi8(byte, first, lead);
  h1->f = _mm512_permutex2var_epi8(byte, second, lead);
  h0->keep = _mm512_cmpneq_epi8_mask(h0->f, no_lead);
  h1->keep = _mm512_cmpneq_epi8_mask(h1->f, no_lead);
  h0->len = 32 + (size_t)_mm_popcnt_u64(bits << 32);
  h1->len = 32 + (size_t)_mm_popcnt_u64(bits >> 32);
}
static inline size_t v_store_utf8(unsigned char *d, vforms8 h, int exact) {
  __m512i out = _mm512_maskz_compress_epi8(h.keep, h.f);
  if (exact)
    _mm512_mask_storeu_epi8(d, _bzhi_u64(~0ull, (unsigned)h.len), out);
  else
    _mm512_storeu_si512(d, out);
  return h.len;
}
/* (lanes past k hold zeros, ASCII: each is one byte of h.len) */
static inline size_t v_store_utf8_tail(unsigned char *d, size_t k, vforms8 h) {
  h.keep &= _bzhi_u64(~0ull, (unsigned)(2 * k));
  h.len -= 32 - k;
  return v_store_utf8(d, h, 1);
}

/* UTF-32 to UTF-16 (generic_utf32.h), as in vec_avx2.h: the compress is
 * one VPCOMPRESSW and the store is masked to the units made (room: one
 * vector of units); 16 astral values are their pairs as they stand. A run
 * of BMP vectors goes on through the vectors with astral values, one at a
 * time (V32_UTF16_STAY_IN_RUN). */
/* On vector operands (constants pinned in registers by the caller): a + b,
 * a & b, lanes with a >= b (unsigned). */
static inline vu32 v32_add(vu32 a, vu32 b) { return _mm512_add_epi32(a, b); }
static inline vu32 v32_and_values(vu32 a, vu32 b) { return _mm512_and_si512(a, b); }
static inline vm32 v32_at_least(vu32 a, vu32 b) { return _mm512_cmpge_epu32_mask(a, b); }
#define V32_UTF16_ROOM 32
#define V32_UTF16_STAY_IN_RUN 1
static inline vu32 v32_select(vm32 m, vu32 a, vu32 b) { return _mm512_mask_mov_epi32(b, m, a); }
static inline vu16 v32_pack_units(vu32 a, vu32 b) {
  return _mm512_permutexvar_epi64(_mm512_setr_epi64(0, 2, 4, 6, 1, 3, 5, 7),
                                  _mm512_packus_epi32(a, b));
}
static inline size_t v32_store_utf16(char16_t *d, vu32 units, vm32 astral, int be) {
  size_t len;
  __m512i out;
  if (astral == 0xFFFF) { /* 16 pairs, in order */
    v_store(d, be ? v16_bswap(units) : units);
    return 32;
  }
  len = 16 + (size_t)_mm_popcnt_u32(astral);
  out = _mm512_maskz_compress_epi16((__mmask32)(0x55555555u | _pdep_u32(astral, 0xAAAAAAAAu)),
                                    units);
  _mm512_mask_storeu_epi16(d, _bzhi_u32(~0u, (unsigned)len), be ? v16_bswap(out) : out);
  return len;
}

/* ---- UTF-8 encoders (the UTF-32 -> UTF-8 and UTF-16 -> UTF-8 words
 * below) ---- */

/* UTF-8 encoding of 16 scalar values (32-bit lanes); lanes in `drop` produce
 * no bytes. vpmultishiftqb pulls each output byte's 6-bit field out of the
 * code point in one instruction (the bit offsets depend on the length class,
 * looked up per lane: a512_utf8_class_tables); an AND/OR (vpternlogd) adds the marker
 * bits; vpcompressb packs the kept bytes to the front. Every kept byte except
 * an ASCII one has its top bit set and every unused byte has it clear, so
 * the keep mask is vpmovb2m plus the first byte of each kept lane.
 * *len = number of bytes. */
struct a512_utf8_consts {
  __m512i ctrl1, ctrl3, ctrl4, mark3, mark4, c800, c10000, fields, class_ctrl[2], class_mark[2];
};
/* The encoder's class of each lane by the exponent of its value as a float
 * (exact below 2^24; values above 0x10FFFF, whose bytes no word keeps, may
 * read any entry), whose low 5 bits index 32 entries: e = floor(log2(cp))
 * sits at (127 + e) % 32, so entries 31 and 0-5 are 1 byte (e = 0-6; cp = 0
 * has exponent 0: entry 0), 6-9 2 bytes (e = 7-10), 10-14 3 bytes (e =
 * 11-15), 15-30 4 bytes. Rows: the bit offsets of an even lane (an odd
 * lane's are 32 more: ctrl1), low and high half; the marker bits, the same.
 * One conversion, one shift and two VPERMT2D instead of three compares and
 * six masked moves (docs/perf-decisions.md, 'the avx512 encoder's class by
 * table'). */
static const uint32_t a512_utf8_class_tables[4][16] __attribute__((aligned(64))) = {
    {0, 0, 0, 0, 0, 0, 0x6, 0x6, 0x6, 0x6, 0x60C, 0x60C, 0x60C, 0x60C, 0x60C, 0x60C12},
    {0x60C12, 0x60C12, 0x60C12, 0x60C12, 0x60C12, 0x60C12, 0x60C12, 0x60C12, 0x60C12, 0x60C12,
     0x60C12, 0x60C12, 0x60C12, 0x60C12, 0x60C12, 0},
    {0, 0, 0, 0, 0, 0, 0x80C0, 0x80C0, 0x80C0, 0x80C0, 0x8080E0, 0x8080E0, 0x8080E0, 0x8080E0,
     0x8080E0, 0x808080F0},
    {0x808080F0, 0x808080F0, 0x808080F0, 0x808080F0, 0x808080F0, 0x808080F0, 0x808080F0,
     0x808080F0, 0x808080F0, 0x808080F0, 0x808080F0, 0x808080F0, 0x808080F0, 0x808080F0,
     0x808080F0, 0}};

/* The encoder's constants, built once per call of a kernel and pinned in
 * registers (see V_LOADED). The fixed layouts' (3- and 4-byte forms) apart:
 * the UTF-16 words use only them (the others, loaded, were stored to the
 * stack at every call and never read). */
static inline void a512_utf8_consts_init_fixed(struct a512_utf8_consts *k) {
  /* per qword (two lanes): bit offset of each output byte's field */
  A512_CONST64(k->ctrl3, 0x2020262C0000060Cull);
  A512_CONST64(k->ctrl4, 0x20262C3200060C12ull);
  A512_CONST64(k->mark3, 0x008080E0008080E0ull);
  A512_CONST64(k->mark4, 0x808080F0808080F0ull);
  A512_CONST64(k->c10000, 0x0001000000010000ull);
  A512_CONST64(k->fields, 0x3F3F3FFF3F3F3FFFull);
}
static inline void a512_utf8_consts_init(struct a512_utf8_consts *k) {
  A512_CONST64(k->ctrl1, 0x2020202000000000ull);
  a512_utf8_consts_init_fixed(k);
  A512_CONST64(k->c800, 0x0000080000000800ull);
  A512_TABLE(k->class_ctrl[0], &a512_utf8_class_tables[0]);
  A512_TABLE(k->class_ctrl[1], &a512_utf8_class_tables[1]);
  A512_TABLE(k->class_mark[0], &a512_utf8_class_tables[2]);
  A512_TABLE(k->class_mark[1], &a512_utf8_class_tables[3]);
}

static inline __m512i a512_encode_utf8_x16(__m512i cp, __mmask16 drop, unsigned *len,
                                           const struct a512_utf8_consts *k) {
  __m512i at = _mm512_srli_epi32(_mm512_castps_si512(_mm512_cvtepu32_ps(cp)), 23);
  __m512i ctrl = _mm512_or_si512(
      _mm512_permutex2var_epi32(k->class_ctrl[0], at, k->class_ctrl[1]), k->ctrl1);
  __m512i marker = _mm512_permutex2var_epi32(k->class_mark[0], at, k->class_mark[1]);
  __m512i out;
  __mmask64 keep;
  /* (fields & 0x3F3F3FFF) | marker, zero in dropped lanes */
  out = _mm512_ternarylogic_epi32(_mm512_multishift_epi64_epi8(ctrl, cp), k->fields, marker, 0xEA);
  out = _mm512_maskz_mov_epi32((__mmask16)~drop, out);
  keep = _mm512_movepi8_mask(out) |
         (drop ? _pdep_u64((uint16_t)~drop, 0x1111111111111111ull) : 0x1111111111111111ull);
  *len = (unsigned)_mm_popcnt_u64(keep);
  return _mm512_maskz_compress_epi8(keep, out);
}

/* UTF-32 to UTF-8 (generic_utf32.h), as in vec_avx2.h: stores are masked
 * to the bytes made (room: 96 bytes, the most 32 BMP values make; spill
 * is not needed). Below
 * 0x800: packed to 16-bit lanes, each lane's 1- or 2-byte form, VPCOMPRESSB
 * keeps the lead bytes and the bytes with the top bit set. BMP: all 3-byte
 * (CJK) is a fixed layout (a VPERMB squeezes 48 bytes out of 16 lanes,
 * plain stores), else the encoder above per 16 values. */
#define V32_UTF8_ROOM 96
struct v32_utf8_k {
  struct a512_utf8_consts e;
  __m512i qword_order, c16_7f, c16_3f00, c16_80c0;
};
static inline void v32_utf8_k_init(struct v32_utf8_k *k) {
  a512_utf8_consts_init(&k->e);
  k->qword_order = _mm512_setr_epi64(0, 2, 4, 6, 1, 3, 5, 7);
  A512_CONST64(k->c16_7f, 0x007F007F007F007Full);
  A512_CONST64(k->c16_3f00, 0x3F003F003F003F00ull);
  A512_CONST64(k->c16_80c0, 0x80C080C080C080C0ull);
  V_LOADED(k->qword_order);
}
/* The 1- or 2-byte forms of the 16-bit lanes of u, all below 0x800 (two:
 * the lanes of 0x80 and up), packed: the first byte of each lane in `lanes`
 * (bit 2j: lane j) and every byte with its top bit set (both bytes of a
 * 2-byte form). (The UTF-16 -> UTF-8 words use it too.) */
static inline __m512i a512_utf8_forms800(__m512i u, __mmask32 two, __m512i c3f00, __m512i c80c0,
                                         __mmask64 lanes) {
  __m512i words = _mm512_mask_mov_epi16(
      u, two,
      _mm512_ternarylogic_epi32(_mm512_srli_epi16(u, 6),
                                _mm512_and_si512(_mm512_slli_epi16(u, 8), c3f00), c80c0, 0xFE));
  return _mm512_maskz_compress_epi8(_mm512_movepi8_mask(words) | lanes, words);
}
UTFXI_INLINE size_t v32_store_utf8_below800(unsigned char *d, vu32 a, vu32 b,
                                            const struct v32_utf8_k *k, int spill) {
  __m512i u = _mm512_permutexvar_epi64(k->qword_order, _mm512_packus_epi32(a, b));
  __mmask32 two = _mm512_cmpgt_epu16_mask(u, k->c16_7f);
  size_t len = 32 + (size_t)_mm_popcnt_u32(two);
  (void)spill;
  _mm512_mask_storeu_epi8(
      d, _bzhi_u64(~0ull, (unsigned)len),
      a512_utf8_forms800(u, two, k->c16_3f00, k->c16_80c0, 0x5555555555555555ull));
  return len;
}
/* out0 then out1 (len0, len1 bytes) at d: out0 whole where out1's bytes
 * cover its spill (masked stores cost more), the rest masked. */
UTFXI_INLINE void a512_store_utf8_two(unsigned char *d, __m512i out0, unsigned len0, __m512i out1,
                                      unsigned len1) {
  if (len0 + len1 >= 64)
    _mm512_storeu_si512(d, out0);
  else
    _mm512_mask_storeu_epi8(d, _bzhi_u64(~0ull, len0), out0);
  _mm512_mask_storeu_epi8(d + len0, _bzhi_u64(~0ull, len1), out1);
}
/* 32 values of 3-byte forms (0x800 and up, no surrogate), a and b: 96
 * bytes in a fixed layout (the UTF-16 BMP word's too) */
UTFXI_INLINE size_t a512_store_utf8_3byte(unsigned char *d, vu32 a, vu32 b,
                                          const struct a512_utf8_consts *e) {
  const __m512i squeeze = _mm512_set_epi8(
      63, 62, 61, 60, 59, 58, 57, 56, 55, 54, 53, 52, 51, 50, 49, 48, 62, 61, 60, 58, 57, 56, 54,
      53, 52, 50, 49, 48, 46, 45, 44, 42, 41, 40, 38, 37, 36, 34, 33, 32, 30, 29, 28, 26, 25, 24,
      22, 21, 20, 18, 17, 16, 14, 13, 12, 10, 9, 8, 6, 5, 4, 2, 1, 0);
  __m512i oa = _mm512_permutexvar_epi8(
      squeeze, _mm512_ternarylogic_epi32(_mm512_multishift_epi64_epi8(e->ctrl3, a), e->fields,
                                         e->mark3, 0xEA));
  __m512i ob = _mm512_permutexvar_epi8(
      squeeze, _mm512_ternarylogic_epi32(_mm512_multishift_epi64_epi8(e->ctrl3, b), e->fields,
                                         e->mark3, 0xEA));
  _mm256_storeu_si256((__m256i *)(void *)d, _mm512_castsi512_si256(oa));
  _mm_storeu_si128((__m128i *)(void *)(d + 32), _mm512_extracti32x4_epi32(oa, 2));
  _mm256_storeu_si256((__m256i *)(void *)(d + 48), _mm512_castsi512_si256(ob));
  _mm_storeu_si128((__m128i *)(void *)(d + 80), _mm512_extracti32x4_epi32(ob, 2));
  return 96;
}
UTFXI_INLINE size_t a512_store_utf8_bmp(unsigned char *d, vu32 a, vu32 b,
                                        const struct a512_utf8_consts *e) {
  unsigned len0, len1;
  __m512i out0, out1;
  if (!_mm512_cmplt_epu32_mask(_mm512_min_epu32(a, b), e->c800))
    return a512_store_utf8_3byte(d, a, b, e);
  out0 = a512_encode_utf8_x16(a, 0, &len0, e);
  out1 = a512_encode_utf8_x16(b, 0, &len1, e);
  a512_store_utf8_two(d, out0, len0, out1, len1);
  return (size_t)len0 + len1;
}
UTFXI_INLINE size_t v32_store_utf8_bmp(unsigned char *d, vu32 a, vu32 b,
                                       const struct v32_utf8_k *k, int spill) {
  (void)spill;
  return a512_store_utf8_bmp(d, a, b, &k->e);
}
UTFXI_INLINE size_t v32_store_utf8(unsigned char *d, vu32 v, const struct v32_utf8_k *k) {
  unsigned len;
  __m512i out = a512_encode_utf8_x16(v, 0, &len, &k->e);
  _mm512_mask_storeu_epi8(d, _bzhi_u64(~0ull, len), out);
  return len;
}
/* The first m (<= V32_LANES) values of v, if their UTF-8 fits in room bytes
 * (V_MASKED_TAIL): returns its length, or 0 (nothing stored). */
UTFXI_INLINE size_t v32_store_utf8_tail(unsigned char *d, vu32 v, size_t m, size_t room,
                                        const struct v32_utf8_k *k) {
  unsigned len;
  __m512i out = a512_encode_utf8_x16(v, (__mmask16)~_bzhi_u32(0xFFFF, (unsigned)m), &len, &k->e);
  if (len > room) return 0;
  _mm512_mask_storeu_epi8(d, _bzhi_u64(~0ull, len), out);
  return len;
}

/* UTF-32 validation (generic_utf32.h): the values of a and b as 16-bit
 * lanes in any order, saturated (values of 2^31 and up become 0), XOR 0xD800:
 * below 0x800 exactly for the surrogates among values up to 0xFFFF. */
static inline vu16 v32_surrogate_keys(vu32 a, vu32 b) {
  return _mm512_xor_si512(_mm512_packus_epi32(a, b), _mm512_set1_epi16((short)0xD800));
}
static inline vu16 v16_umin(vu16 a, vu16 b) { return _mm512_min_epu16(a, b); }

/* ---- Widening stores: ASCII bytes to UTF-16 / UTF-32 (the UTF-8
 * transcoders), UTF-16 units to UTF-32 (generic_utf16_to_utf32.h), as in
 * vec_avx2.h ---- */
#include "../../scalar/unicode.h"
/* The 16 units (host order) of u as 16 values at d: two 256-bit stores,
 * kept in address order (the empty asm stops the compiler moving stores
 * past each other): on the Intel CPU measured, store-bound loops ran
 * faster so than with 512-bit stores or stores that fill a cache line out
 * of order (docs/perf-decisions.md, 'UTF-16 -> UTF-32'). */
static inline void a512_put_zx16(char32_t *d, __m256i u) {
  _mm256_storeu_si256((__m256i *)(void *)d, _mm256_cvtepu16_epi32(_mm256_castsi256_si128(u)));
  __asm__("" ::: "memory");
  _mm256_storeu_si256((__m256i *)(void *)(d + 8),
                      _mm256_cvtepu16_epi32(_mm256_extracti128_si256(u, 1)));
  __asm__("" ::: "memory");
}
/* The 16 ASCII bytes of x as 16 units at unit w of dst, in the same way. */
static inline void a512_put_ascii16(void *dst, size_t w, __m128i x, enum utfxi_target t) {
  if (t == UTFXI_T_UTF32) {
    char32_t *d = (char32_t *)dst + w;
    _mm256_storeu_si256((__m256i *)(void *)d, _mm256_cvtepu8_epi32(x));
    __asm__("" ::: "memory");
    _mm256_storeu_si256((__m256i *)(void *)(d + 8), _mm256_cvtepu8_epi32(_mm_srli_si128(x, 8)));
  } else {
    __m256i u = _mm256_cvtepu8_epi16(x);
    if (t == UTFXI_T_UTF16BE) u = _mm256_slli_epi16(u, 8);
    _mm256_storeu_si256((__m256i *)(void *)((char16_t *)dst + w), u);
  }
  __asm__("" ::: "memory");
}
/* v_put_ascii_run (the ASCII run loop of the UTF-8 transcoders to UTF-32;
 * to UTF-16 v_put_ascii_run_k, below): 16 bytes at a time, as above.
 * v_put_ascii_tail: the first r <= 64 bytes of v (plain 512-bit stores for
 * r = 64, masked ones below); v_put_ascii: all 64. */
static inline void v_put_ascii_run(void *dst, size_t w, vu8 v, enum utfxi_target t) {
  a512_put_ascii16(dst, w, _mm512_castsi512_si128(v), t);
  a512_put_ascii16(dst, w + 16, _mm512_extracti32x4_epi32(v, 1), t);
  a512_put_ascii16(dst, w + 32, _mm512_extracti32x4_epi32(v, 2), t);
  a512_put_ascii16(dst, w + 48, _mm512_extracti32x4_epi32(v, 3), t);
}
static inline void v_put_ascii_tail(void *dst, size_t w, vu8 v, size_t r, enum utfxi_target t) {
  const __mmask64 m = _bzhi_u64(~0ull, (unsigned)r);
  if (t == UTFXI_T_UTF32) {
    char32_t *d = (char32_t *)dst + w;
    __m512i q[4];
    int j;
    q[0] = _mm512_cvtepu8_epi32(_mm512_castsi512_si128(v));
    q[1] = _mm512_cvtepu8_epi32(_mm512_extracti32x4_epi32(v, 1));
    q[2] = _mm512_cvtepu8_epi32(_mm512_extracti32x4_epi32(v, 2));
    q[3] = _mm512_cvtepu8_epi32(_mm512_extracti32x4_epi32(v, 3));
    for (j = 0; j < 4; j++) {
      if (r == 64)
        _mm512_storeu_si512((void *)(d + 16 * j), q[j]);
      else
        _mm512_mask_storeu_epi32(d + 16 * j, (__mmask16)(m >> 16 * j), q[j]);
    }
  } else {
    char16_t *d = (char16_t *)dst + w;
    __m512i a = _mm512_cvtepu8_epi16(_mm512_castsi512_si256(v));
    __m512i b = _mm512_cvtepu8_epi16(_mm512_extracti64x4_epi64(v, 1));
    if (t == UTFXI_T_UTF16BE) {
      a = _mm512_slli_epi16(a, 8);
      b = _mm512_slli_epi16(b, 8);
    }
    if (r == 64) {
      _mm512_storeu_si512((void *)d, a);
      _mm512_storeu_si512((void *)(d + 32), b);
    } else {
      _mm512_mask_storeu_epi16(d, (__mmask32)m, a);
      _mm512_mask_storeu_epi16(d + 32, (__mmask32)(m >> 32), b);
    }
  }
}
/* The ASCII run loop's widening to UTF-16 (V_ASCII_RUN_K,
 * generic_utf8_transcode.h): one zero-masked VPERMB per 32 units, its
 * indices loaded once a run, and 512-bit stores in address order, instead of
 * an extract, a VPMOVZXBW and for UTF-16BE a shift per 16 units (all on the
 * shuffle and shift ports, which bound the big-endian run); the same index
 * serves both byte orders (unit j takes byte j), the mask puts the byte low
 * or high (docs/perf-decisions.md, 'UTF-8 -> UTF-16 / UTF-32: the avx512
 * ASCII run by VPERMB'). UTF-32 keeps v_put_ascii_run (not faster so). */
#define V_ASCII_RUN_K 1
struct v_ascii_run_k {
  __m512i idx[2]; /* units 0-31, 32-63 */
  __mmask64 k;
};
static inline void v_ascii_run_k_init(struct v_ascii_run_k *k, enum utfxi_target t) {
  static const uint8_t idx16[2][64] = {
      {0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13,
       14, 14, 15, 15, 16, 16, 17, 17, 18, 18, 19, 19, 20, 20, 21, 21, 22, 22, 23, 23, 24, 24, 25,
       25, 26, 26, 27, 27, 28, 28, 29, 29, 30, 30, 31, 31},
      {32, 32, 33, 33, 34, 34, 35, 35, 36, 36, 37, 37, 38, 38, 39, 39, 40, 40, 41, 41, 42, 42, 43,
       43, 44, 44, 45, 45, 46, 46, 47, 47, 48, 48, 49, 49, 50, 50, 51, 51, 52, 52, 53, 53, 54, 54,
       55, 55, 56, 56, 57, 57, 58, 58, 59, 59, 60, 60, 61, 61, 62, 62, 63, 63}};
  A512_TABLE(k->idx[0], &idx16[0]);
  A512_TABLE(k->idx[1], &idx16[1]);
  k->k = (__mmask64)(t == UTFXI_T_UTF16BE ? 0xAAAAAAAAAAAAAAAAull : 0x5555555555555555ull);
}
static inline void v_put_ascii_run_k(const struct v_ascii_run_k *k, void *dst, size_t w, vu8 v,
                                     enum utfxi_target t) {
  char16_t *d = (char16_t *)dst + w;
  (void)t;
  _mm512_storeu_si512((void *)d, _mm512_maskz_permutexvar_epi8(k->k, k->idx[0], v));
  __asm__("" ::: "memory");
  _mm512_storeu_si512((void *)(d + 32), _mm512_maskz_permutexvar_epi8(k->k, k->idx[1], v));
  __asm__("" ::: "memory");
}
/* v16_store_utf32 (four stores of a512_put_zx16), v16_store_utf32_paired
 * (a VPCOMPRESSD per 16 values, stores masked to the values made; with
 * `exact` every store, else the first is whole: the caller's room is a
 * vector of units, V16_UTF32_ROOM), v16_store_utf32_tail: the first k
 * values, masked. */
#define v16_as_v32(v) (v)
#define V16_UTF32_ROOM 32
static inline vu16 v16_splat(unsigned c) { return _mm512_set1_epi16((short)c); }
static inline vu16 v16_splat2(unsigned c0, unsigned c1) {
  return _mm512_set1_epi32((int)(c0 | c1 << 16));
}
static inline vm16 v16_top_eq_k(vu16 v, vu16 mask, vu16 value) {
  return _mm512_cmpeq_epi16_mask(_mm512_and_si512(v, mask), value);
}
static inline vm32 v32_eq(vu32 a, vu32 b) { return _mm512_cmpeq_epi32_mask(a, b); }
/* The low / high 16 units of v widened to 32 bits (UTF-32 stores). */
static inline __m512i a512_widen_lo(vu16 v) {
  return _mm512_cvtepu16_epi32(_mm512_castsi512_si256(v));
}
static inline __m512i a512_widen_hi(vu16 v) {
  return _mm512_cvtepu16_epi32(_mm512_extracti64x4_epi64(v, 1));
}
static inline void v16_store_utf32(char32_t *d, vu16 v) {
  a512_put_zx16(d, _mm512_castsi512_si256(v));
  a512_put_zx16(d + 16, _mm512_extracti64x4_epi64(v, 1));
}
/* v16_store_utf32_wide (G1632_LONG): the same by two 512-bit stores. */
static inline void v16_store_utf32_wide(char32_t *d, vu16 v) {
  _mm512_storeu_si512((void *)d, a512_widen_lo(v));
  _mm512_storeu_si512((void *)(d + 16), a512_widen_hi(v));
}
static inline void v16_store_utf32_tail(char32_t *d, size_t k, vu16 v) {
  __mmask32 m = _bzhi_u32(~0u, (unsigned)k);
  _mm512_mask_storeu_epi32(d, (__mmask16)m, a512_widen_lo(v));
  _mm512_mask_storeu_epi32(d + 16, (__mmask16)(m >> 16), a512_widen_hi(v));
}
/* The paired store of units already widened: c0 / c1 the vector's first /
 * last 16 as 32-bit values, n0 / n1 the units one on. */
UTFXI_INLINE size_t a512_store_utf32_paired(char32_t *d, __m512i c0, __m512i c1, __m512i n0,
                                            __m512i n1, vm16 high, uint64_t keep, vu32 offset,
                                            int exact, unsigned len0, unsigned len1) {
  c0 = _mm512_mask_add_epi32(c0, (__mmask16)high, _mm512_add_epi32(_mm512_slli_epi32(c0, 10), n0),
                             offset);
  c1 = _mm512_mask_add_epi32(c1, (__mmask16)(high >> 16),
                             _mm512_add_epi32(_mm512_slli_epi32(c1, 10), n1), offset);
  c0 = _mm512_maskz_compress_epi32((__mmask16)keep, c0);
  if (exact)
    _mm512_mask_storeu_epi32(d, (__mmask16)_bzhi_u32(0xFFFF, len0), c0);
  else
    _mm512_storeu_si512(d, c0);
  _mm512_mask_storeu_epi32(d + len0, (__mmask16)_bzhi_u32(0xFFFF, len1),
                           _mm512_maskz_compress_epi32((__mmask16)(keep >> 16), c1));
  return (size_t)len0 + len1;
}
UTFXI_INLINE size_t v16_store_utf32_paired(char32_t *d, vu16 v, vu16 nx, vm16 high,
                                           uint64_t keep, vu32 offset, int exact) {
  unsigned len0 = (unsigned)_mm_popcnt_u32((unsigned)keep & 0xFFFF);
  unsigned len1 = (unsigned)_mm_popcnt_u32((unsigned)(keep >> 16) & 0xFFFF);
  __m512i c0 = a512_widen_lo(v);
  __m512i c1 = a512_widen_hi(v);
  __m512i n0 = a512_widen_lo(nx);
  __m512i n1 = a512_widen_hi(nx);
  return a512_store_utf32_paired(d, c0, c1, n0, n1, high, keep, offset, exact, len0, len1);
}
/* v16_store_utf32_paired_own (G1632_LONG): the same with the units one on
 * taken from v itself (VALIGND of the widened halves, no second load); the
 * last unit has none, so keep must drop it where it is a high half. Where
 * keep leaves fewer than 16 values (a carried low half, then 15 pairs) the
 * first store is masked too: nothing is written past the count. */
UTFXI_INLINE size_t a512_store_utf32_paired_own(char32_t *d, __m512i c0, __m512i c1,
                                                vm16 high, uint64_t keep, vu32 offset) {
  unsigned len0 = (unsigned)_mm_popcnt_u32((unsigned)keep & 0xFFFF);
  unsigned len1 = (unsigned)_mm_popcnt_u32((unsigned)(keep >> 16) & 0xFFFF);
  return a512_store_utf32_paired(d, c0, c1, _mm512_alignr_epi32(c1, c0, 1),
                                 _mm512_alignr_epi32(c1, c1, 1), high, keep, offset,
                                 UTFXI_UNLIKELY(len0 + len1 < 16) ? 1 : 0, len0, len1);
}
UTFXI_INLINE size_t v16_store_utf32_paired_own(char32_t *d, vu16 v, vm16 high, uint64_t keep,
                                               vu32 offset) {
  return a512_store_utf32_paired_own(d, a512_widen_lo(v), a512_widen_hi(v), high, keep, offset);
}
/* Big-endian units as they lie in memory, widened to host-order 32-bit
 * values with the byte swap in the same step: one zero-masked VPERMB per 16
 * values (V16_WIDEN_BE; the swap (VPSHLDW, slow on Zen 4) and the extracts
 * the widenings need are gone). The indices and the mask are made once per
 * call (struct v16_widen_be) and kept in registers. */
#define V16_WIDEN_BE 1
struct v16_widen_be {
  __m512i lo, hi; /* byte indices of values 0-15, 16-31 */
  __mmask64 k;    /* the two low bytes of each 32-bit lane */
};
static inline void v16_widen_be_init(struct v16_widen_be *w) {
  static const uint8_t idx[2][64] = {
      {1,  0, 0, 0, 3,  2,  0, 0, 5,  4,  0, 0, 7,  6,  0, 0, 9,  8,  0, 0, 11, 10,
       0,  0, 13, 12, 0, 0, 15, 14, 0,  0, 17, 16, 0, 0, 19, 18, 0,  0, 21, 20, 0, 0,
       23, 22, 0, 0, 25, 24, 0,  0, 27, 26, 0, 0, 29, 28, 0,  0, 31, 30, 0, 0},
      {33, 32, 0, 0, 35, 34, 0, 0, 37, 36, 0, 0, 39, 38, 0, 0, 41, 40, 0, 0, 43, 42,
       0,  0,  45, 44, 0, 0, 47, 46, 0, 0, 49, 48, 0, 0, 51, 50, 0, 0, 53, 52, 0, 0,
       55, 54, 0, 0, 57, 56, 0, 0, 59, 58, 0, 0, 61, 60, 0, 0, 63, 62, 0, 0}};
  A512_TABLE(w->lo, &idx[0]);
  A512_TABLE(w->hi, &idx[1]);
  w->k = (__mmask64)0x3333333333333333ull;
}
/* The low / high 16 big-endian units of v widened to 32 bits, in host order. */
static inline __m512i a512_widen_be_lo(vu16 v, const struct v16_widen_be *w) {
  return _mm512_maskz_permutexvar_epi8(w->k, w->lo, v);
}
static inline __m512i a512_widen_be_hi(vu16 v, const struct v16_widen_be *w) {
  return _mm512_maskz_permutexvar_epi8(w->k, w->hi, v);
}
static inline void v16_store_utf32_be(char32_t *d, vu16 v, const struct v16_widen_be *w) {
  __m512i a = a512_widen_be_lo(v, w);
  __m512i b = a512_widen_be_hi(v, w);
  _mm256_storeu_si256((__m256i *)(void *)d, _mm512_castsi512_si256(a));
  __asm__("" ::: "memory");
  _mm256_storeu_si256((__m256i *)(void *)(d + 8), _mm512_extracti64x4_epi64(a, 1));
  __asm__("" ::: "memory");
  _mm256_storeu_si256((__m256i *)(void *)(d + 16), _mm512_castsi512_si256(b));
  __asm__("" ::: "memory");
  _mm256_storeu_si256((__m256i *)(void *)(d + 24), _mm512_extracti64x4_epi64(b, 1));
  __asm__("" ::: "memory");
}
static inline void v16_store_utf32_be_wide(char32_t *d, vu16 v, const struct v16_widen_be *w) {
  _mm512_storeu_si512((void *)d, a512_widen_be_lo(v, w));
  _mm512_storeu_si512((void *)(d + 16), a512_widen_be_hi(v, w));
}
UTFXI_INLINE size_t v16_store_utf32_paired_be(char32_t *d, vu16 v, vu16 nx, vm16 high,
                                              uint64_t keep, vu32 offset, int exact,
                                              const struct v16_widen_be *w) {
  unsigned len0 = (unsigned)_mm_popcnt_u32((unsigned)keep & 0xFFFF);
  unsigned len1 = (unsigned)_mm_popcnt_u32((unsigned)(keep >> 16) & 0xFFFF);
  __m512i c0 = a512_widen_be_lo(v, w);
  __m512i c1 = a512_widen_be_hi(v, w);
  __m512i n0 = a512_widen_be_lo(nx, w);
  __m512i n1 = a512_widen_be_hi(nx, w);
  return a512_store_utf32_paired(d, c0, c1, n0, n1, high, keep, offset, exact, len0, len1);
}
UTFXI_INLINE size_t v16_store_utf32_paired_own_be(char32_t *d, vu16 v, vm16 high, uint64_t keep,
                                                  vu32 offset, const struct v16_widen_be *w) {
  return a512_store_utf32_paired_own(d, a512_widen_be_lo(v, w), a512_widen_be_hi(v, w), high,
                                     keep, offset);
}

/* ---- UTF-16 to UTF-8 (generic_utf16_to_utf8.h) ---- */
/* Constants of the surrogate tests, built once per kernel call and pinned. */
struct a512_u16_consts {
  __m512i f800, fc00, d800, dc00;
};

static inline void a512_u16_consts_init(struct a512_u16_consts *c) {
  c->f800 = _mm512_set1_epi16((short)0xF800);
  c->fc00 = _mm512_set1_epi16((short)0xFC00);
  c->d800 = _mm512_set1_epi16((short)0xD800);
  c->dc00 = _mm512_set1_epi16((short)0xDC00);
  V_LOADED(c->f800);
  V_LOADED(c->fc00);
  V_LOADED(c->d800);
  V_LOADED(c->dc00);
}

/* Surrogate analysis of a block of k units (host order, zeros after k). The block
 * never starts after an unconsumed high surrogate, so the carry into it is
 * always 0. If the block is not the last (`more`) and ends with a high
 * surrogate, that unit is left for the next block: *adv = k - 1. Returns the
 * mask of ill-formed units (lone surrogates); *hi / *lo get the high / low
 * halves of well-formed pairs inside the consumed part. */
struct a512_pairs {
  __mmask32 hi, lo, bad;
  size_t adv;
};

static inline struct a512_pairs a512_analyse(__m512i v, size_t k, int more,
                                             const struct a512_u16_consts *c) {
  struct a512_pairs p;
  __m512i top = _mm512_and_si512(v, c->fc00);
  uint32_t hi = _mm512_cmpeq_epi16_mask(top, c->d800);
  uint32_t lo = _mm512_cmpeq_epi16_mask(top, c->dc00);
  uint32_t bad;
  p.adv = k;
  if (more && (hi >> (k - 1) & 1)) {
    hi &= ~(1u << (k - 1));
    p.adv = k - 1;
  }
  bad = (hi & ~(lo >> 1)) | (lo & ~(hi << 1));
  p.hi = (__mmask32)(hi & ~bad);
  p.lo = (__mmask32)(lo & ~bad);
  p.bad = (__mmask32)bad;
  return p;
}

/* Nonzero if some unit of v is a surrogate (D800..DFFF). */
static inline __mmask32 a512_surrogates(__m512i v, const struct a512_u16_consts *c) {
  return _mm512_cmpeq_epi16_mask(_mm512_and_si512(v, c->f800), c->d800);
}

/* The words: stores are masked to the bytes made (room: 96 bytes, the
 * most 32 units make), but for a step below 0x800 with `spill` (a plain
 * 64-byte store: its spill, at most 32 bytes, is overwritten by the next
 * step's 32 or more). Below 0x800: each lane becomes its 1- or 2-byte form
 * in place (lead byte low, trail byte high) and VPCOMPRESSB drops the
 * unused high bytes of the ASCII lanes (the in-lane-then-compress idea of
 * Clausecker & Lemire 2023). BMP: a vector below 0x800 as above, all
 * 3-byte (CJK) the fixed layout of v32_store_utf8_bmp, else the encoder
 * per 16 values. Surrogates (and the tail steps, a512_utf8_any): 16
 * aligned pairs are one 4-byte sequence per 32-bit lane; otherwise the
 * block is widened to 2 x 16 32-bit lanes, a valid pair combined into one
 * code point in the high surrogate's lane and its low surrogate's lane
 * dropped; a lone surrogate is U+FFFD in REPLACE mode (in the vector code,
 * so rare errors stay fast) and the scalar kernel's in STRICT mode
 * (*took = 0). */
#define V16_UTF8_ROOM 96
/* The pairs run stays through BMP vectors that are not below 0x800 (its
 * step takes them as well-formed pairs without pairs, no branch on
 * surrogates): text that mixes emoji with CJK or other 3-byte units left
 * and re-entered the run at every vector without a pair, a mispredicted
 * branch each way (docs/perf-decisions.md, 'the pairs run through BMP
 * vectors'). */
#define V16_UTF8_PAIRS_STAY_BMP 1
struct v16_utf8_k {
  struct a512_utf8_consts e;
  struct a512_u16_consts s;
  __m512i c80, c800, c3f00, c80c0, c3ff;
  __m512i fields16, c3f3f, c80f0, hi_bias, prev_index, slots[2], keep_at, leads, marks;
};
/* a512_utf8_x32's spreads: half h's lane j to bytes 3j (a 3-byte form's
 * lead: byte 2(16h + j) of the second source), 3j + 1 and 3j + 2 (its form's
 * two bytes), the last 16 bytes a zero byte (the high byte of a lead). */
static const uint8_t a512_utf8_slots[2][64] __attribute__((aligned(64))) = {
#define A512_SLOT(h, j) 64 + 2 * (16 * (h) + (j)), 2 * (16 * (h) + (j)), 2 * (16 * (h) + (j)) + 1
#define A512_SLOTS(h)                                                                           \
  A512_SLOT(h, 0), A512_SLOT(h, 1), A512_SLOT(h, 2), A512_SLOT(h, 3), A512_SLOT(h, 4),          \
      A512_SLOT(h, 5), A512_SLOT(h, 6), A512_SLOT(h, 7), A512_SLOT(h, 8), A512_SLOT(h, 9),      \
      A512_SLOT(h, 10), A512_SLOT(h, 11), A512_SLOT(h, 12), A512_SLOT(h, 13), A512_SLOT(h, 14), \
      A512_SLOT(h, 15), 65, 65, 65, 65, 65, 65, 65, 65, 65, 65, 65, 65, 65, 65, 65, 65
    {A512_SLOTS(0)},
    {A512_SLOTS(1)}
#undef A512_SLOTS
#undef A512_SLOT
};
/* the bytes a512_utf8_x32 keeps of a spread: each lane's middle byte (any
 * value), the others if at least 0x80 */
static const uint8_t a512_utf8_keep_at[64] __attribute__((aligned(64))) = {
#define A512_KEEP3 0x80, 0, 0x80
#define A512_KEEP12 A512_KEEP3, A512_KEEP3, A512_KEEP3, A512_KEEP3
    A512_KEEP12, A512_KEEP12, A512_KEEP12, A512_KEEP12,
    0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80
#undef A512_KEEP12
#undef A512_KEEP3
};
/* a512_utf8_x32's lead byte and markers of a unit by its top 5 bits (u >>
 * 11): 0 below 0x800, a 3-byte form's lead (E0 | u >> 12) and markers 8080
 * from 0x800, none and 8080 for a surrogate (a low one's markers; a high
 * one's are set apart). Tables, not compares: a mask less per step. */
static const uint16_t a512_utf8_by_top5[2][32] __attribute__((aligned(64))) = {
    {0, 0xE0, 0xE1, 0xE1, 0xE2, 0xE2, 0xE3, 0xE3, 0xE4, 0xE4, 0xE5, 0xE5, 0xE6, 0xE6, 0xE7, 0xE7,
     0xE8, 0xE8, 0xE9, 0xE9, 0xEA, 0xEA, 0xEB, 0xEB, 0xEC, 0xEC, 0xED, 0, 0xEE, 0xEE, 0xEF, 0xEF},
    {0x80C0, 0x8080, 0x8080, 0x8080, 0x8080, 0x8080, 0x8080, 0x8080, 0x8080, 0x8080, 0x8080,
     0x8080, 0x8080, 0x8080, 0x8080, 0x8080, 0x8080, 0x8080, 0x8080, 0x8080, 0x8080, 0x8080,
     0x8080, 0x8080, 0x8080, 0x8080, 0x8080, 0x8080, 0x8080, 0x8080, 0x8080, 0x8080}};
static inline void v16_utf8_k_init(struct v16_utf8_k *k) {
  a512_utf8_consts_init_fixed(&k->e);
  a512_u16_consts_init(&k->s);
  k->c80 = _mm512_set1_epi16(0x80);
  k->c800 = _mm512_set1_epi16(0x800);
  k->c3f00 = _mm512_set1_epi16(0x3F00);
  k->c80c0 = _mm512_set1_epi16((short)0x80C0);
  k->c3ff = _mm512_set1_epi32(0x3FF);
  /* per lane: bits 6-13 to its low byte, bits 0-7 to its high byte */
  A512_CONST64(k->fields16, 0x3036202610160006ull);
  A512_CONST64(k->c3f3f, 0x3F3F3F3F3F3F3F3Full);
  A512_CONST64(k->c80f0, 0x80F080F080F080F0ull);
  A512_CONST64(k->hi_bias, 0x2840284028402840ull); /* (- 0xD7C0) */
  k->prev_index = _mm512_set_epi16(30, 29, 28, 27, 26, 25, 24, 23, 22, 21, 20, 19, 18, 17, 16, 15,
                                   14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0, 0);
  A512_TABLE(k->slots[0], &a512_utf8_slots[0]);
  A512_TABLE(k->slots[1], &a512_utf8_slots[1]);
  A512_TABLE(k->keep_at, &a512_utf8_keep_at);
  A512_TABLE(k->leads, &a512_utf8_by_top5[0]);
  A512_TABLE(k->marks, &a512_utf8_by_top5[1]);
  V_LOADED(k->c80);
  V_LOADED(k->c800);
  V_LOADED(k->c3f00);
  V_LOADED(k->c80c0);
  V_LOADED(k->c3ff);
}
/* Whether the units of v are all ASCII, all below 0x800; whether some is a
 * surrogate. */
static inline int v16_utf8_ascii(vu16 v, const struct v16_utf8_k *k) {
  return !_mm512_cmpge_epu16_mask(v, k->c80);
}
static inline int v16_utf8_below800(vu16 v, const struct v16_utf8_k *k) {
  return !_mm512_cmpge_epu16_mask(v, k->c800);
}
static inline int v16_utf8_surrogates(vu16 v, const struct v16_utf8_k *k) {
  return a512_surrogates(v, &k->s) != 0;
}
#ifdef V16_UTF8_PAIRS_STAY_BMP
static inline int v16_utf8_pairs_leave(vu16 v, const struct v16_utf8_k *k) {
  return v16_utf8_below800(v, k);
}
#endif
static inline void v16_store_bytes(void *p, vu16 v) {
  _mm256_storeu_si256((__m256i *)p, _mm512_cvtepi16_epi8(v));
}
/* The forms of the units of v below 0x800 and their bytes kept of the
 * first m lanes (m = 32: all). */
UTFXI_INLINE __m512i a512_utf8_below800(vu16 v, size_t m, const struct v16_utf8_k *k,
                                        size_t *len) {
  __mmask32 two = _mm512_cmpge_epu16_mask(v, k->c80);
  __mmask64 lanes = m == 32 ? 0x5555555555555555ull
                            : _pdep_u64(_bzhi_u32(~0u, (unsigned)m), 0x5555555555555555ull);
  *len = m + (size_t)_mm_popcnt_u32(two);
  return a512_utf8_forms800(v, two, k->c3f00, k->c80c0, lanes);
}
UTFXI_INLINE size_t v16_store_utf8_below800(unsigned char *d, vu16 v, const struct v16_utf8_k *k,
                                            int spill) {
  size_t len;
  __m512i out = a512_utf8_below800(v, 32, k, &len);
  if (spill)
    _mm512_storeu_si512(d, out);
  else
    _mm512_mask_storeu_epi8(d, _bzhi_u64(~0ull, (unsigned)len), out);
  return len;
}
/* The UTF-8 of the first `lanes` units of u in their 16-bit lanes (BMP
 * values, and pairs: hi / lo, the lanes of their halves), if it fits in room
 * bytes, without widening: each lane becomes the last two bytes of its form
 * in place (lead marker C0 for 2 bytes, 80 for 3; a high surrogate the 4-byte
 * form's first two, F0 and the plane's bits ((u - 0xD7C0) >> 2), a low one
 * its last two, with the high one's 2 low bits beside its own 10: the
 * multishift's fields) and a 3-byte form's lead byte goes to a second vector;
 * a VPERMT2B spreads each half to 3 bytes a lane (lead, then the two), and
 * VPCOMPRESSB keeps each lane's middle byte (ASCII too) and every byte with
 * its top bit set (one compare with keep_at: a mask OR after VPMOVB2M was a
 * longer chain). Half the shuffles of two 16-lane encodes (widen, class
 * tables) (docs/perf-decisions.md, 'the avx512 pairs and BMP words in 16-bit
 * lanes'). pairs: whether hi / lo may be set (a constant: the pairs' steps
 * run their lanes' forms without a branch on the masks); cut: bytes the
 * last lanes make that are not stored (a high surrogate that waits: its
 * form's first two bytes end the output); spill: the first half may be
 * stored whole (32 lanes without a cut make at least 32 bytes: its spill is
 * the next step's, as in v16_store_utf8_below800). Short chains matter more
 * than instruction counts here (docs/perf-decisions.md, 'the avx512 pairs
 * step's chains'). */
UTFXI_INLINE size_t a512_utf8_x32(unsigned char *d, __m512i u, __mmask32 hi, __mmask32 lo,
                                  int pairs, size_t lanes, unsigned cut, size_t room,
                                  int spill, const struct v16_utf8_k *k) {
  __mmask32 two = _mm512_cmpge_epu16_mask(u, k->c80);
  __m512i top5 = _mm512_srli_epi16(u, 11), t = u, words, s0, s1;
  __m512i mark = _mm512_permutexvar_epi16(top5, k->marks);
  __m512i lead = _mm512_permutexvar_epi16(top5, k->leads);
  uint64_t keep0, keep1;
  unsigned len0, len1;
  if (pairs) {
    __m512i prev = _mm512_permutexvar_epi16(k->prev_index, u);
    t = _mm512_mask_mov_epi16(u, hi, _mm512_srli_epi16(_mm512_add_epi16(u, k->hi_bias), 2));
    /* (low 10 bits of u, the 2 of prev above them; bits 12-15 unused) */
    t = _mm512_mask_mov_epi16(
        t, lo, _mm512_ternarylogic_epi32(u, _mm512_slli_epi16(prev, 10), k->s.fc00, 0xD8));
    mark = _mm512_mask_mov_epi16(mark, hi, k->c80f0);
  }
  words = _mm512_mask_mov_epi16(
      u, two,
      _mm512_ternarylogic_epi32(_mm512_multishift_epi64_epi8(k->fields16, t), k->c3f3f, mark,
                                0xEA));
  s0 = _mm512_permutex2var_epi8(words, k->slots[0], lead);
  s1 = _mm512_permutex2var_epi8(words, k->slots[1], lead);
  keep0 = _mm512_cmpge_epu8_mask(s0, k->keep_at);
  keep1 = _mm512_cmpge_epu8_mask(s1, k->keep_at);
  if (lanes < 32) {
    keep0 &= _bzhi_u64(~0ull, 3 * (unsigned)(lanes < 16 ? lanes : 16));
    keep1 &= _bzhi_u64(~0ull, 3 * (unsigned)(lanes < 16 ? 0 : lanes - 16));
  }
  len0 = (unsigned)_mm_popcnt_u64(keep0);
  len1 = (unsigned)_mm_popcnt_u64(keep1) - cut;
  if ((size_t)len0 + len1 > room) return 0;
  if (spill) { /* (the first half whole: a masked store costs more) */
    _mm512_storeu_si512(d, _mm512_maskz_compress_epi8(keep0, s0));
    _mm512_mask_storeu_epi8(d + len0, _bzhi_u64(~0ull, len1),
                            _mm512_maskz_compress_epi8(keep1, s1));
  } else
    a512_store_utf8_two(d, _mm512_maskz_compress_epi8(keep0, s0), len0,
                        _mm512_maskz_compress_epi8(keep1, s1), len1);
  return (size_t)len0 + len1;
}
UTFXI_INLINE size_t v16_store_utf8_bmp(unsigned char *d, vu16 v, const struct v16_utf8_k *k,
                                       int spill) {
  if (!_mm512_cmpge_epu16_mask(v, k->c800)) return v16_store_utf8_below800(d, v, k, spill);
  if (!_mm512_cmplt_epu16_mask(v, k->c800)) /* all 3-byte: a fixed layout */
    return a512_store_utf8_3byte(d, a512_widen_lo(v), a512_widen_hi(v), &k->e);
  return a512_utf8_x32(d, v, 0, 0, 0, 32, 0, (size_t)-1, spill, k);
}
/* 16 aligned pairs, each in one 32-bit lane: 64 bytes of 4-byte sequences */
UTFXI_INLINE size_t a512_utf8_16pairs(unsigned char *d, vu16 v, const struct v16_utf8_k *k) {
  __m512i cp = _mm512_ternarylogic_epi32(_mm512_slli_epi32(_mm512_add_epi16(v, k->hi_bias), 10),
                                         _mm512_srli_epi32(v, 16), k->c3ff, 0xF8);
  _mm512_storeu_si512(d, _mm512_ternarylogic_epi32(_mm512_multishift_epi64_epi8(k->e.ctrl4, cp),
                                                  k->e.fields, k->e.mark4, 0xEA));
  return 64;
}
/* The UTF-8 of the first m units of v (any), if it fits in room bytes;
 * more: units follow them (a high surrogate that ends them waits). */
UTFXI_INLINE size_t a512_utf8_any(unsigned char *d, vu16 v, size_t m, int more, size_t room,
                                  unsigned flags, const struct v16_utf8_k *k, size_t *took,
                                  size_t *replaced) {
  struct a512_pairs p = {0, 0, 0, m};
  size_t len;
  *took = 0;
  if (a512_surrogates(v, &k->s)) {
    /* (16 aligned pairs tested on the masks the pairs' test reads too,
     * not by a compare of their own: a mask op less a step) */
    __m512i top = _mm512_and_si512(v, k->s.fc00);
    __mmask32 hi, lo;
    hi = _mm512_cmpeq_epi16_mask(top, k->s.d800);
    lo = _mm512_cmpeq_epi16_mask(top, k->s.dc00);
    if ((uint32_t)hi == 0x55555555u && (uint32_t)lo == 0xAAAAAAAAu && room >= 64) {
      *took = 32;
      return a512_utf8_16pairs(d, v, k);
    }
    /* Well-formed pairs: the low surrogates are the high ones a lane on
     * (a high one in the last lane shifts out: it waits for the next
     * step, or the tail's, as the last vector's too). Tested on the masks,
     * no analysis. The 31 units taken after a waiting high are a branch,
     * not 32 - wait: the next vector's load then does not wait for these
     * masks (a chain through every step of the run). */
    if (m == 32 && !((uint32_t)(hi << 1) ^ lo)) {
      unsigned wait = (uint32_t)hi >> 31;
      size_t tk = 32;
      len = a512_utf8_x32(d, v, hi, lo, 1, 32, 2 * wait, room, 0, k);
      if (!len) return 0;
      if (__builtin_expect(wait, 0)) {
        tk = 31;
        __asm__ volatile("" : "+r"(tk));
      }
      *took = tk;
      return len;
    }
    p = a512_analyse(v, m, more, &k->s);
    if (p.bad) {
      if (!(flags & UTFX_REPLACE)) return 0;
      v = _mm512_mask_mov_epi16(v, p.bad, _mm512_set1_epi16((short)0xFFFD));
    }
  }
  len = a512_utf8_x32(d, v, p.hi, p.lo, (p.hi | p.lo) != 0, p.adv, 0, room, 0, k);
  if (!len) return 0;
  *replaced += (size_t)_mm_popcnt_u32(p.bad);
  *took = p.adv;
  return len;
}
UTFXI_INLINE size_t v16_store_utf8_pairs(unsigned char *d, vu16 v, int more,
                                         const char16_t *after, int be, unsigned flags,
                                         const struct v16_utf8_k *k, size_t *took,
                                         size_t *replaced) {
  (void)after, (void)be;
  { /* (a512_utf8_any's steps for 32 units, without its surrogates test:
     * the run's vectors may hold none, V16_UTF8_PAIRS_STAY_BMP) */
    __m512i top = _mm512_and_si512(v, k->s.fc00);
    __mmask32 hi, lo;
    /* 16 aligned pairs: one compare of 32-bit lanes first (after the
     * well-formed test, Emoji's steps took two more branches) */
    if (_mm512_cmpeq_epi32_mask(top, _mm512_set1_epi32((int)0xDC00D800u)) == 0xFFFF) {
      *took = 32;
      return a512_utf8_16pairs(d, v, k);
    }
    hi = _mm512_cmpeq_epi16_mask(top, k->s.d800);
    lo = _mm512_cmpeq_epi16_mask(top, k->s.dc00);
    if (!((uint32_t)(hi << 1) ^ lo)) { /* well-formed pairs, or none */
      unsigned wait = (uint32_t)hi >> 31;
      size_t tk = 32, len = a512_utf8_x32(d, v, hi, lo, 1, 32, 2 * wait, (size_t)-1, 0, k);
      if (__builtin_expect(wait, 0)) {
        tk = 31;
        __asm__ volatile("" : "+r"(tk));
      }
      *took = tk;
      return len;
    }
  }
  return a512_utf8_any(d, v, 32, more, (size_t)-1, flags, k, took, replaced);
}
UTFXI_INLINE size_t v16_store_utf8_tail(unsigned char *d, vu16 v, size_t m, int more, size_t room,
                                        unsigned flags, const struct v16_utf8_k *k, size_t *took,
                                        size_t *replaced) {
  if (!_mm512_cmpge_epu16_mask(v, k->c800)) { /* below 0x800: one compress */
    size_t len;
    __m512i out = a512_utf8_below800(v, m, k, &len);
    if (len > room) return *took = 0;
    _mm512_mask_storeu_epi8(d, _bzhi_u64(~0ull, (unsigned)len), out);
    *took = m;
    return len;
  }
  return a512_utf8_any(d, v, m, more, room, flags, k, took, replaced);
}
/* ---- UTF-8 -> UTF-16 / UTF-32 (generic_utf8_transcode.h) ---- */
#include "../../scalar/unicode.h"
/* v_utf8_put_units takes 4-byte characters: VPCOMPRESSB keeps the bytes
 * of the positions that write a unit, byte permutes interleave them. */
#define V_UTF8_UNITS_4BYTE 1
#define V_UTF8_PIN_CHECK 1
static inline uint64_t v_high_bits(vu8 v) { return _mm512_movepi8_mask(v); }
static inline vm8 v_at_least(vu8 v, vu8 k) { return _mm512_cmpge_epu8_mask(v, k); }
static inline vm8 v_is_cont_given(vu8 v, vu8 c0) { return _mm512_cmplt_epi8_mask(v, c0); }
/* The pack's constants, made once per call and pinned in registers (left
 * as constants, gcc made each again in the loop: a move to a general
 * register and a broadcast on port 5, which the permutes and compresses
 * need; docs/perf-decisions.md, 'AVX-512 vocabulary'). */
/* Byte j is j (also for avx512_utf8_to_latin1.c's permute indexes). */
static inline __m512i a512_iota(void) {
  return _mm512_set_epi8(63, 62, 61, 60, 59, 58, 57, 56, 55, 54, 53, 52, 51, 50, 49, 48, 47, 46,
                         45, 44, 43, 42, 41, 40, 39, 38, 37, 36, 35, 34, 33, 32, 31, 30, 29, 28,
                         27, 26, 25, 24, 23, 22, 21, 20, 19, 18, 17, 16, 15, 14, 13, 12, 11, 10,
                         9, 8, 7, 6, 5, 4, 3, 2, 1, 0);
}
struct v_utf8_units_k {
  __m512i one, idx16_a, idx16_b, k_c0, k_7f, k_0f;
  __m512i idx32[4]; /* UTF-32: the interleaving index of each quarter */
};
static inline void v_utf8_units_k_init(struct v_utf8_units_k *k, enum utfxi_target t) {
  const __m512i iota = a512_iota();
  __m512i word_j, odd64, from_hi16, dword_j;
  k->one = _mm512_set1_epi8(1);
  /* Interleaving indexes. UTF-16 unit j of a half: bytes (lo[j], hi[j])
   * (swapped for BE), from two 64-byte sources (index bit 6 picks hi).
   * UTF-32 unit j of a quarter: (lo[j], hi[j], b2[j], 0). */
  word_j = _mm512_and_si512(_mm512_srli_epi16(iota, 1), _mm512_set1_epi8(0x3F));
  odd64 = _mm512_slli_epi16(_mm512_and_si512(iota, k->one), 6);
  from_hi16 = t == UTFXI_T_UTF16BE ? _mm512_xor_si512(odd64, _mm512_set1_epi8(64)) : odd64;
  k->idx16_a = _mm512_or_si512(word_j, from_hi16);
  k->idx16_b = _mm512_add_epi8(k->idx16_a, _mm512_set1_epi8(32));
  dword_j = _mm512_and_si512(_mm512_srli_epi16(iota, 2), _mm512_set1_epi8(0x0F));
  k->idx32[0] = _mm512_or_si512(dword_j, odd64);
  k->idx32[1] = _mm512_add_epi8(k->idx32[0], _mm512_set1_epi8(16));
  k->idx32[2] = _mm512_add_epi8(k->idx32[0], _mm512_set1_epi8(32));
  k->idx32[3] = _mm512_add_epi8(k->idx32[0], _mm512_set1_epi8(48));
  k->k_c0 = _mm512_set1_epi8((char)0xC0);
  k->k_7f = _mm512_set1_epi8(0x7F);
  k->k_0f = _mm512_set1_epi8(0x0F);
  V_PIN(k->one);
  V_PIN(k->idx16_a);
  V_PIN(k->idx16_b);
  V_PIN(k->idx32[0]);
  V_PIN(k->idx32[1]);
  V_PIN(k->idx32[2]);
  V_PIN(k->idx32[3]);
  V_PIN(k->k_c0);
  V_PIN(k->k_7f);
  V_PIN(k->k_0f);
}
UTFXI_INLINE void v_put_ascii(void *dst, size_t w, vu8 v, enum utfxi_target t) {
  v_put_ascii_tail(dst, w, v, 64, t);
}
/* The units of the characters of the well-formed block v that `ends`
 * marks, all in the byte domain: at the last byte of each character, the
 * bytes one and two back give the low and the high byte of its code point
 * with a few shifts and bit selects. A 4-byte character (lead4) writes its
 * high surrogate at its third byte and its low surrogate at its fourth
 * (UTF-16), or a third byte of code point at its fourth (UTF-32).
 * VPCOMPRESSB keeps the bytes of the positions that write a unit; byte
 * permutes interleave them into 16- or 32-bit units. Stores are masked to
 * the units produced. */
/* The put over explicit masks (a512_u8_put_core): cont2 marks the
 * continuations that follow one, third / fourth the third and fourth bytes
 * of 4-byte characters, any4 whether there are any (v_utf8_put_units
 * derives them from the block; the fixed-stride steps carry them across
 * blocks, v_utf8_put_units_stride). */
UTFXI_INLINE size_t a512_u8_put_core(const struct v_utf8_units_k *kc, vu8 v, __mmask64 cont,
                                     __mmask64 cont2, vu8 prev1, vu8 prev2, vu8 prev3,
                                     uint64_t ends, uint64_t any4, __mmask64 third,
                                     __mmask64 fourth, void *dst, size_t w,
                                     enum utfxi_target t) {
  const int utf16 = t == UTFXI_T_UTF16LE || t == UTFXI_T_UTF16BE;
  char16_t *d16 = (char16_t *)dst;
  char32_t *d32 = (char32_t *)dst;
  __m512i p1z = _mm512_maskz_mov_epi8(cont, prev1);
  __m512i p2z = _mm512_maskz_mov_epi8(cont2, prev2);
  __m512i lo, hi, b2 = _mm512_setzero_si512(), clo, chi;
  __mmask64 keep = ends;
  size_t k;
  /* Low byte: 6 bits of the last byte (7 for ASCII: a continuation has
   * bit 6 clear), 2 from the byte before. High byte: 4 bits of the byte
   * before, 4 of the one before that. Shifts are on 16-bit lanes; the
   * masks drop what crosses into the neighbouring byte. */
  lo = _mm512_ternarylogic_epi64(v, _mm512_and_si512(_mm512_slli_epi16(p1z, 6), kc->k_c0),
                                 kc->k_7f, 0xEC); /* (A & C) | B */
  hi = _mm512_ternarylogic_epi64(_mm512_srli_epi16(p1z, 2), _mm512_slli_epi16(p2z, 4), kc->k_0f,
                                 0xE4); /* C ? A : B */
  if (any4) {
    if (utf16) {
      /* Third byte: high surrogate 0xD800 + (cp >> 10) - 0x40, where
       * cp >> 10 is (lead & 7) << 8 | u with u = (byte2 & 0x3F) << 2 |
       * byte3 >> 4 & 3: low byte u - 0x40 (u + 0xC0, which borrows exactly
       * when it is 0xC0 or more), high byte lead - 0x18 (0xF0 + x - 0x18 =
       * 0xD8 + x) less the borrow. */
      __m512i k_fc, k_18, k_dc, u;
      __mmask64 borrow;
      /* (broadcasts from memory: pinned for the call, they spilled other
       * constants; built from immediates, a transfer each on port 5) */
      A512_CONST64(k_fc, 0xFCFCFCFCFCFCFCFCull);
      A512_CONST64(k_18, 0x1818181818181818ull);
      A512_CONST64(k_dc, 0xDCDCDCDCDCDCDCDCull);
      u = _mm512_ternarylogic_epi64(_mm512_slli_epi16(prev1, 2), _mm512_srli_epi16(v, 4), k_fc,
                                    0xE4); /* C ? A : B */
      lo = _mm512_mask_add_epi8(lo, third, u, kc->k_c0);
      borrow = _mm512_mask_cmpge_epu8_mask(third, lo, kc->k_c0);
      hi = _mm512_mask_sub_epi8(hi, third, prev2, k_18);
      hi = _mm512_mask_sub_epi8(hi, borrow, hi, kc->one);
      /* Fourth byte: low surrogate 0xDC00 | (cp & 0x3FF); lo is right, and
       * the high byte is 0xDC | (byte3 >> 2 & 3), which is 0xDC | (byte3 >>
       * 2 & 0x0F) (0xDC has bits 2 and 3): the 3-byte formula's low nibble. */
      hi = _mm512_mask_mov_epi8(
          hi, fourth,
          _mm512_ternarylogic_epi64(_mm512_srli_epi16(p1z, 2), kc->k_0f, k_dc,
                                    0xEA)); /* (A & B) | C */
      keep |= third;
    } else {
      /* Fourth byte: bits 16..20 = (lead & 7) << 2 | byte2 >> 4 & 3. */
      b2 = _mm512_maskz_mov_epi8(
          fourth, _mm512_ternarylogic_epi64(_mm512_slli_epi16(prev3, 2), _mm512_srli_epi16(prev2, 4),
                                            _mm512_set1_epi8(0x1C), 0xE4));
      b2 = _mm512_and_si512(b2, _mm512_set1_epi8(0x1F));
    }
  }
  k = (size_t)_mm_popcnt_u64(keep);
  clo = _mm512_maskz_compress_epi8(keep, lo);
  chi = _mm512_maskz_compress_epi8(keep, hi);
  if (utf16) {
    _mm512_mask_storeu_epi16(d16 + w, _bzhi_u32(~0u, (unsigned)k),
                             _mm512_permutex2var_epi8(clo, kc->idx16_a, chi));
    /* No branch on k (it varies from block to block): a zero mask stores
     * nothing. */
    _mm512_mask_storeu_epi16(d16 + w + 32, (__mmask32)(_bzhi_u64(~0ull, (unsigned)k) >> 32),
                             _mm512_permutex2var_epi8(clo, kc->idx16_b, chi));
  } else {
    __mmask64 live = _bzhi_u64(~0ull, (unsigned)k);
    __m512i cb2 = b2;
    /* Four quarters of 16 units, no branch on k: zero masks store nothing.
     * The third byte of the code points is nonzero only with 4-byte
     * characters. */
#define A512_U8_PUT32(q, with_b2)                                                               \
  do {                                                                                       \
    __m512i idx = kc->idx32[(q) / 16];                                                       \
    __m512i u = _mm512_maskz_permutex2var_epi8(0x3333333333333333ull, clo, idx, chi);        \
    if (with_b2)                                                                             \
      u = _mm512_or_si512(u, _mm512_maskz_permutexvar_epi8(0x4444444444444444ull, idx, cb2)); \
    _mm512_mask_storeu_epi32(d32 + w + (q), (__mmask16)(live >> (q)), u);                    \
  } while (0)
    if (any4) {
      cb2 = _mm512_maskz_compress_epi8(keep, b2);
      A512_U8_PUT32(0, 1);
      A512_U8_PUT32(16, 1);
      if (k > 32) { /* rare with 4-byte characters: at most 48 units */
        A512_U8_PUT32(32, 1);
        A512_U8_PUT32(48, 1);
      }
    } else {
      A512_U8_PUT32(0, 0);
      A512_U8_PUT32(16, 0);
      A512_U8_PUT32(32, 0);
      A512_U8_PUT32(48, 0);
    }
#undef A512_U8_PUT32
  }
  return k;
}
UTFXI_INLINE size_t v_utf8_put_units(const struct v_utf8_units_k *kc, vu8 v, vm8 cont, vu8 prev1,
                                     vu8 prev2, vu8 prev3, uint64_t ends, uint64_t lead4,
                                     void *dst, size_t w, size_t room, enum utfxi_target t) {
  (void)room;
  return a512_u8_put_core(kc, v, cont, cont & cont << 1, prev1, prev2, prev3, ends, lead4,
                          lead4 << 2, lead4 << 3, dst, w, t);
}
/* The fixed-stride steps' put (V_UTF8_STRIDE, generic_utf8_transcode.h):
 * the block one byte back, b1 (bytes -1..62 of the step), with b2..b4 the
 * loads two to four back and v the step's own bytes (0..63). Every mask is
 * a compare of one of these loads: the continuations of b1 and of b2, the
 * 4-byte leads of b3 (third bytes) and b4 (fourth), and the ends (byte
 * after not a continuation: v), straight into mask registers, none carried
 * from the last step nor shifted in general registers (each transfer
 * between the two costs more than a compare: docs/perf-decisions.md,
 * 'UTF-8 -> UTF-16 / UTF-32'). */
#define V_UTF8_STRIDE 1
UTFXI_INLINE size_t v_utf8_put_units_stride(const struct v_utf8_units_k *kc, vu8 v, vu8 b1,
                                            vu8 b2, vu8 b3, vu8 b4, vu8 f0, void *dst,
                                            size_t w, enum utfxi_target t) {
  __mmask64 cont = _mm512_cmplt_epi8_mask(b1, kc->k_c0);
  __mmask64 cont2 = _mm512_mask_cmplt_epi8_mask(cont, b2, kc->k_c0);
  __mmask64 ends = _mm512_cmpge_epi8_mask(v, kc->k_c0);
  __mmask64 third = _mm512_cmpge_epu8_mask(b3, f0), fourth = _mm512_cmpge_epu8_mask(b4, f0);
  return a512_u8_put_core(kc, b1, cont, cont2, b2, b3, b4, ends, third | fourth, third, fourth,
                          dst, w, t);
}

/* ---- The UTF-16 byte swap and repair (generic_utf16_swap.h,
 * generic_utf16.h) ---- */
/* Their copy stores (v16_store_copy, generic.h) where no surrogate is
 * near: two 256-bit stores in address order, as a512_put_zx16's (this
 * model's store-bound loops; docs/perf-decisions.md, 'UTF-16 repair and
 * byte swap'). */
#define V16_STORE_COPY 1
static inline void v16_store_copy(char16_t *p, vu16 v) {
  _mm256_storeu_si256((__m256i *)(void *)p, _mm512_castsi512_si256(v));
  __asm__("" ::: "memory");
  _mm256_storeu_si256((__m256i *)(void *)(p + 16), _mm512_extracti64x4_epi64(v, 1));
  __asm__("" ::: "memory");
}
/* Their pair test (V_MASK_REGISTERS, g16_unpaired_bits): the high and the
 * low surrogates of the block (a, b) of raw units (be: UTF-16BE) as unit
 * masks. The units' high bytes are gathered into one vector (VPERMT2B), so
 * two byte compares cover the block's 64 units, where 16-bit compares take
 * four, and their masks two moves and a shift more. */
static inline void v16_surrogate_bits2(vu16 a, vu16 b, int be, uint64_t *hi, uint64_t *lo) {
  /* (the high byte: the second in LE, the first in BE) */
  __m512i top = _mm512_and_si512(_mm512_permutex2var_epi8(a, a512_unit_byte_index(!be), b),
                                 _mm512_set1_epi8((char)0xFC));
  *hi = _mm512_cmpeq_epi8_mask(top, _mm512_set1_epi8((char)0xD8));
  *lo = _mm512_cmpeq_epi8_mask(top, _mm512_set1_epi8((char)0xDC));
}

/* How the UTF-16 / UTF-32 lengths of UTF-8 count (generic_utf8_length.h;
 * docs/perf-decisions.md, 'UTF-8 lengths'). */
#define V_UTF8_COUNT16 G8_BITS
#define V_UTF8_COUNT32 G8_AFTER

#endif
