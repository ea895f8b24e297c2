/* The vector vocabulary of the generic kernels (src/simd/generic.h) on
 * AArch64 Advanced SIMD: 16-byte vectors. NEON has no movemask; a mask of
 * 16 bytes is taken with a narrowing shift (SHRN #4), which keeps 4 bits of
 * each byte in one 64-bit scalar: so masks here have 4 bits per byte
 * (V16_UNIT_BITS 4 after the units are narrowed to one byte each). */
#ifndef UTFX_ARM_VEC_NEON_H
#define UTFX_ARM_VEC_NEON_H

#if !defined(__aarch64__) || !defined(__ARM_NEON)
#error "vec_neon.h is for AArch64 with Advanced SIMD"
#endif

#include <arm_neon.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <uchar.h>

#include "../../internal.h"
#include "../../simd/compress16_table.h"
#include "../../simd/compress8_table.h"
#include "../../simd/utf8_pack_tables.h"

#define V_BYTES 16
#define V_TIER neon
#define V16_UNIT_BITS 4
#define V_BYTE_BITS 4

typedef uint8x16_t vu8;
typedef uint16x8_t vu16;
/* Compare results: 0x00 / 0xFF per lane, in vectors. */
typedef uint8x16_t vm8;
typedef uint16x8_t vm16;

static inline vu8 v_load(const void *p) { return vld1q_u8((const uint8_t *)p); }
static inline void v_store(void *p, vu8 v) { vst1q_u8((uint8_t *)p, v); }
static inline vu8 v_zero(void) { return vdupq_n_u8(0); }
static inline vu8 v_splat(unsigned char c) { return vdupq_n_u8(c); }
static inline vu8 v_or(vu8 a, vu8 b) { return vorrq_u8(a, b); }
static inline vu8 v_and(vu8 a, vu8 b) { return vandq_u8(a, b); }
static inline vu8 v_xor(vu8 a, vu8 b) { return veorq_u8(a, b); }
static inline vu8 v_or_and(vu8 a, vu8 b, vu8 m) { return vandq_u8(vorrq_u8(a, b), m); }
static inline vu8 v_subs(vu8 a, vu8 b) { return vqsubq_u8(a, b); }
static inline vu8 v_shr4(vu8 v, vu8 nib) { return (void)nib, vshrq_n_u8(v, 4); }
/* The tables are (char) lists (utf8_lookup_tables.h): char is unsigned on
 * Linux/AArch64 and signed on Apple, so they are stored as char. */
static inline vu8 v_add(vu8 a, vu8 b) { return vaddq_u8(a, b); }
static inline vu8 v_sum_bytes(vu8 acc, vu8 v) {
  return vreinterpretq_u8_u64(
      vpadalq_u32(vreinterpretq_u64_u8(acc), vpaddlq_u16(vpaddlq_u8(v))));
}
static inline uint64_t v_sum_lanes(vu8 acc) { return vaddvq_u64(vreinterpretq_u64_u8(acc)); }
#define V_TABLE16(...) vld1q_u8(((const uint8_t *)(const char[16]){__VA_ARGS__}))
static inline vu8 v_lookup16(vu8 table, vu8 idx) { return vqtbl1q_u8(table, idx); }
#define v_prev(prev, cur, k) vextq_u8((prev), (cur), 16 - (k))

/* 4 bits per byte of a 0x00 / 0xFF byte mask. */
static inline uint64_t v_nibble_mask(vu8 m) {
  return vget_lane_u64(vreinterpret_u64_u8(vshrn_n_u16(vreinterpretq_u16_u8(m), 4)), 0);
}
static inline uint64_t v_bits(vm8 m) { return v_nibble_mask(m); }
static inline vm8 v_is_cont(vu8 v) { /* 0x80..0xBF: below 0xC0 as signed bytes */
  return vcltq_s8(vreinterpretq_s8_u8(v), vdupq_n_s8(-64));
}
static inline vm8 v_ge(vu8 v, unsigned char c) { return vcgeq_u8(v, vdupq_n_u8(c)); }
static inline vm8 v_nonzero(vu8 v) { return vtstq_u8(v, v); }
static inline int v_any(vu8 v) { return vmaxvq_u8(v) != 0; }
static inline int v_any_high(vu8 v) { return vmaxvq_u8(v) >= 0x80; }
static inline size_t v_first_high(vu8 v) {
  uint64_t m = v_nibble_mask(vreinterpretq_u8_s8(vshrq_n_s8(vreinterpretq_s8_u8(v), 7)));
  return (size_t)(__builtin_ctzll(m) >> 2);
}

static inline vu16 v16_load_raw(const char16_t *p) { return vld1q_u16((const uint16_t *)p); }
static inline void v16_store(char16_t *p, vu16 v) { vst1q_u16((uint16_t *)p, v); }
static inline vu16 v16_bswap(vu16 v) { return vreinterpretq_u16_u8(vrev16q_u8(vreinterpretq_u8_u16(v))); }
static inline vu16 v16_load(const char16_t *p, int be) {
  vu16 v = v16_load_raw(p);
  return be ? v16_bswap(v) : v;
}
static inline vm16 v16_top_eq(vu16 v, unsigned mask, unsigned value) {
  return vceqq_u16(vandq_u16(v, vdupq_n_u16((uint16_t)mask)), vdupq_n_u16((uint16_t)value));
}
/* Each unit's compare result narrowed to a byte, then 4 bits per unit. */
static inline uint64_t v16_bits2(vm16 a, vm16 b) {
  return v_nibble_mask(vcombine_u8(vmovn_u16(a), vmovn_u16(b)));
}
static inline size_t v16_count2(vm16 a, vm16 b) {
  return (size_t)(__builtin_popcountll(v16_bits2(a, b)) >> 2);
}
static inline int v16_any(vm16 v) { return vmaxvq_u16(v) != 0; }
/* Units as values: a | b; whether some unit of v has a bit of mask set. */
static inline vu16 v16_or_units(vu16 a, vu16 b) { return vorrq_u16(a, b); }
static inline vu16 v16_xor_units(vu16 a, vu16 b) { return veorq_u16(a, b); }
static inline int v16_any_bits(vu16 v, unsigned mask) {
  return vmaxvq_u16(vandq_u16(v, vdupq_n_u16((uint16_t)mask))) != 0;
}
static inline vm16 v16_or(vm16 a, vm16 b) { return vorrq_u16(a, b); }
static inline vm16 v16_and(vm16 a, vm16 b) { return vandq_u16(a, b); }
static inline vm16 v16_xor(vm16 a, vm16 b) { return veorq_u16(a, b); }

static inline int v16_any_top_eq4(vu16 a, vu16 b, vu16 c, vu16 d, unsigned mask, unsigned value) {
  return v16_any(v16_or(v16_or(v16_top_eq(a, mask, value), v16_top_eq(b, mask, value)),
                        v16_or(v16_top_eq(c, mask, value), v16_top_eq(d, mask, value))));
}
/* The bytewise maximum of two vectors of units. */
static inline vu16 v16_max_bytes(vu16 a, vu16 b) {
  return vreinterpretq_u16_u8(vmaxq_u8(vreinterpretq_u8_u16(a), vreinterpretq_u8_u16(b)));
}
/* A byte compare, the other bytes masked. */
static inline int v16_any_byte_at_least(vu16 v, unsigned byte, unsigned c8) {
  uint8x16_t ge = vandq_u8(vcgeq_u8(vreinterpretq_u8_u16(v), vdupq_n_u8((uint8_t)c8)),
                           vreinterpretq_u8_u16(vdupq_n_u16((uint16_t)byte)));
  return vmaxvq_u8(ge) != 0;
}
/* (unit >> 7) saturated to a byte: 0 for a unit below 0x80, 1..15 below
 * 0x800, 16 up (TBL's zero) for the rest. */
static inline vu8 v16_short_forms_bytes(vu16 a, vu16 b, int be) {
  static const uint8_t table[16] = {2, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1};
  if (be) a = v16_bswap(a), b = v16_bswap(b);
  return vqtbl1q_u8(vld1q_u8(table),
                    vcombine_u8(vqmovn_u16(vshrq_n_u16(a, 7)), vqmovn_u16(vshrq_n_u16(b, 7))));
}
/* 1 where the unit of hi is a high surrogate and that of lo a low one. */
static inline vu8 v16_pair_starts(vu16 hi, vu16 lo, int be) {
  const uint16x8_t top = vdupq_n_u16(be ? 0x00FC : 0xFC00);
  uint16x8_t m = vandq_u16(vceqq_u16(vandq_u16(hi, top), vdupq_n_u16(be ? 0x00D8 : 0xD800)),
                           vceqq_u16(vandq_u16(lo, top), vdupq_n_u16(be ? 0x00DC : 0xDC00)));
  return vreinterpretq_u8_u16(vshrq_n_u16(m, 15));
}
static inline vm16 v16_below(vu16 v, unsigned c) { return vcltq_u16(v, vdupq_n_u16((uint16_t)c)); }
/* As avx2's (a lane whose bytes disagree breaks a pair: absolute value
 * 255 or 256). */
static inline vu16 v16_swapped_pair_faults(vu16 sw, vu16 nx, int be) {
  uint8x16_t y = vbslq_u8(vreinterpretq_u8_u16(vdupq_n_u16(be ? 0x00FF : 0xFF00)),
                          vreinterpretq_u8_u16(nx), vreinterpretq_u8_u16(sw));
  uint8x16_t c = vceqq_u8(vandq_u8(y, vdupq_n_u8(0xFC)),
                          vreinterpretq_u8_u16(vdupq_n_u16(be ? 0xD8DC : 0xDCD8)));
  return vreinterpretq_u16_s16(vabsq_s16(vreinterpretq_s16_u8(c)));
}

/* 32-bit lanes (UTF-32 values). */
#define V32_LANES 4
typedef uint32x4_t vu32;
typedef uint32x4_t vm32;
static inline vu32 v32_load(const char32_t *p) { return vld1q_u32((const uint32_t *)p); }
static inline vm32 v32_ge(vu32 v, uint32_t c) { return vcgeq_u32(v, vdupq_n_u32(c)); }
static inline vm32 v32_in_range(vu32 v, uint32_t lo, uint32_t len) {
  return vcltq_u32(vsubq_u32(v, vdupq_n_u32(lo)), vdupq_n_u32(len));
}
static inline vm32 v32_top_eq(vu32 v, uint32_t mask, uint32_t value) {
  return vceqq_u32(vandq_u32(v, vdupq_n_u32(mask)), vdupq_n_u32(value));
}
static inline vu32 v32_umax(vu32 a, vu32 b) { return vmaxq_u32(a, b); }
static inline vu32 v32_umin(vu32 a, vu32 b) { return vminq_u32(a, b); }
static inline vu32 v32_sub(vu32 v, uint32_t c) { return vsubq_u32(v, vdupq_n_u32(c)); }
static inline vm32 v32_or(vm32 a, vm32 b) { return vorrq_u32(a, b); }
static inline int v32_any(vm32 m) { return vmaxvq_u32(m) != 0; }
static inline size_t v32_count(vm32 m) { return vaddvq_u32(vshrq_n_u32(m, 31)); }
/* acc plus 1 in the lanes with lo <= v < lo + len (unsigned; the all-ones
 * compare result subtracted), and the total of such counts' lanes. */
static inline vu32 v32_count_in_range(vu32 acc, vu32 v, uint32_t lo, uint32_t len) {
  return vsubq_u32(acc, v32_in_range(v, lo, len));
}
static inline size_t v32_sum(vu32 acc) { return vaddvq_u32(acc); }


static inline vu32 v32_or_values(vu32 a, vu32 b) { return vorrq_u32(a, b); }
static inline void v32_store(void *p, vu32 v) { vst1q_u32((uint32_t *)p, v); }
static inline int v32_any_bits(vu32 v, uint32_t mask) {
  return vmaxvq_u32(vandq_u32(v, vdupq_n_u32(mask))) != 0;
}

/* Widening and narrowing (Latin-1 <-> UTF-16 / UTF-32), as in vec_avx2.h:
 * UXTL / XTN; v32_widen and v32_store_bytes move exactly 4 bytes. */
static inline vu16 v16_widen(const void *p) { return vmovl_u8(vld1_u8((const uint8_t *)p)); }
static inline vu32 v32_widen(const void *p) {
  uint32_t x;
  memcpy(&x, p, 4);
  return vmovl_u16(vget_low_u16(vmovl_u8(vcreate_u8(x))));
}
static inline vu8 v16_pack_bytes(vu16 a, vu16 b) { return vcombine_u8(vmovn_u16(a), vmovn_u16(b)); }
/* The byte holding each raw unit's value (<= 0xFF) of a then b, in order:
 * the first of the unit in LE, the second in BE (no swap first). */
static inline vu8 v16_pack_latin1(vu16 a, vu16 b, int be) {
  return be ? vuzp2q_u8(vreinterpretq_u8_u16(a), vreinterpretq_u8_u16(b))
            : vuzp1q_u8(vreinterpretq_u8_u16(a), vreinterpretq_u8_u16(b));
}
static inline vu8 v32_pack_bytes(vu32 a, vu32 b, vu32 c, vu32 e) {
  return vcombine_u8(vmovn_u16(vcombine_u16(vmovn_u32(a), vmovn_u32(b))),
                     vmovn_u16(vcombine_u16(vmovn_u32(c), vmovn_u32(e))));
}
static inline void v32_store_bytes(void *p, vu32 v) {
  uint8x8_t b = vmovn_u16(vcombine_u16(vmovn_u32(v), vdup_n_u16(0)));
  uint32_t x = vget_lane_u32(vreinterpret_u32_u8(b), 0);
  memcpy(p, &x, 4);
}

/* Latin-1 to UTF-8 (generic_latin1.h), as in vec_avx2.h: the compress is
 * TBL through utfxi_pack_2byte. v_bits8: one bit per byte (bit j: byte j)
 * of the 0x00 / 0xFF bytes of m. v_store_prefix16: the first len (<= 16)
 * bytes of x at p; with `spill` all 16 (the caller knows later output
 * overwrites the rest), else exactly len: pieces of 8, 4, 2 and 1 bytes
 * (fixed-size copies compile to single stores; a variable-length memcpy
 * would be a call). */
static inline unsigned v_bits8(uint8x8_t m) {
  const uint8x8_t weights = {1, 2, 4, 8, 16, 32, 64, 128};
  return vaddv_u8(vand_u8(m, weights));
}
static inline void v_store_prefix16(uint8_t *p, uint8x16_t x, size_t len, int spill) {
  uint64_t q;
  uint32_t w;
  uint16_t h;
  if (len == 16 || spill) {
    vst1q_u8(p, x);
    return;
  }
  if (len & 8) {
    vst1_u8(p, vget_low_u8(x));
    x = vextq_u8(x, x, 8);
    p += 8;
  }
  q = vgetq_lane_u64(vreinterpretq_u64_u8(x), 0);
  if (len & 4) {
    w = (uint32_t)q;
    memcpy(p, &w, 4);
    q >>= 32;
    p += 4;
  }
  if (len & 2) {
    h = (uint16_t)q;
    memcpy(p, &h, 2);
    q >>= 16;
    p += 2;
  }
  if (len & 1) *p = (uint8_t)q;
}
static inline vu16 v_utf8_form16(vu16 u) {
  uint16x8_t lead = vorrq_u16(vshrq_n_u16(u, 6), vdupq_n_u16(0xC0));
  uint16x8_t trail = vshlq_n_u16(vorrq_u16(vandq_u16(u, vdupq_n_u16(0x3F)), vdupq_n_u16(0x80)), 8);
  return vbslq_u16(vcltq_u16(u, vdupq_n_u16(0x80)), u, vorrq_u16(lead, trail));
}
typedef struct {
  uint16x8_t f;
  unsigned two;
} vforms8;
static inline void v_utf8_forms(vu8 v, vforms8 *h0, vforms8 *h1) {
  uint8x16_t high = vreinterpretq_u8_s8(vshrq_n_s8(vreinterpretq_s8_u8(v), 7));
  h0->f = v_utf8_form16(vmovl_u8(vget_low_u8(v)));
  h1->f = v_utf8_form16(vmovl_high_u8(v));
  h0->two = v_bits8(vget_low_u8(high));
  h1->two = v_bits8(vget_high_u8(high));
}
static inline size_t v_store_utf8(unsigned char *d, vforms8 h, int exact) {
  size_t len = 8 + (size_t)__builtin_popcount(h.two);
  v_store_prefix16(d, vqtbl1q_u8(vreinterpretq_u8_u16(h.f), vld1q_u8(utfxi_pack_2byte[h.two])),
                   len, !exact);
  return len;
}

/* UTF-8 to Latin-1 (generic_latin1.h), as in vec_avx2.h: byte shifts, and
 * a TBL with two rows of utfxi_compress8. */
static inline vu8 v_latin1_of_utf8(vu8 v, vu8 prev) {
  return vorrq_u8(v, vandq_u8(vandq_u8(vshlq_n_u8(prev, 6), vshrq_n_u8(v, 1)), vdupq_n_u8(0x40)));
}
static inline size_t v_store_without(unsigned char *d, vu8 v, vm8 drop, int exact) {
  uint8x16_t keep = vmvnq_u8(drop);
  unsigned k0 = v_bits8(vget_low_u8(keep)), k1 = v_bits8(vget_high_u8(keep));
  size_t c0 = (size_t)__builtin_popcount(k0), c1 = (size_t)__builtin_popcount(k1);
  uint8x16_t u = vqtbl1q_u8(v, vcombine_u8(vld1_u8(utfxi_compress8[k0]),
                                           vadd_u8(vld1_u8(utfxi_compress8[k1]), vdup_n_u8(8))));
  if (exact) {
    v_store_prefix16(d, u, c0, 0);
    v_store_prefix16(d + c0, vextq_u8(u, u, 8), c1, 0);
  } else {
    vst1_u8(d, vget_low_u8(u));
    vst1_u8(d + c0, vget_high_u8(u));
  }
  return c0 + c1;
}

/* UTF-32 to UTF-16 (generic_utf32.h), as in vec_avx2.h: XTN narrows; the
 * compress is a TBL row of utfxi_compress16 (PSHUFB and TBL both give 0
 * for an out-of-range index), its 16 bytes stored whole with the 8 units
 * after the output read first and put back last (room: 16 units). */
#define V32_UTF16_ROOM 16
static inline vu32 v32_splat(uint32_t c) { return vdupq_n_u32(c); }
#define v32_shl(v, k) vshlq_n_u32((v), (k))
#define v32_shr(v, k) vshrq_n_u32((v), (k))
static inline vu32 v32_add(vu32 a, vu32 b) { return vaddq_u32(a, b); }
static inline vu32 v32_and_values(vu32 a, vu32 b) { return vandq_u32(a, b); }
static inline vm32 v32_at_least(vu32 a, vu32 b) { return vcgeq_u32(a, b); }
static inline vu32 v32_select(vm32 m, vu32 a, vu32 b) { return vbslq_u32(m, a, b); }
static inline vu16 v32_pack_units(vu32 a, vu32 b) { return vcombine_u16(vmovn_u32(a), vmovn_u32(b)); }
/* The low 16 bits of each lane as 4 UTF-16 units at p (swapped for be). */
static inline void v32_store_units16(char16_t *p, vu32 v, int be) {
  uint16x4_t u = vmovn_u32(v);
  if (be) u = vreinterpret_u16_u8(vrev16_u8(vreinterpret_u8_u16(u)));
  vst1_u16((uint16_t *)p, u);
}
static inline size_t v32_store_utf16(char16_t *d, vu32 units, vm32 astral, int be) {
  const uint32x4_t odd = {2, 8, 32, 128}; /* lane j's high unit: slot 2j + 1 */
  unsigned keep = 0x55u | vaddvq_u32(vandq_u32(astral, odd));
  size_t len = (size_t)__builtin_popcount(keep);
  uint8x16_t out = vqtbl1q_u8(vreinterpretq_u8_u32(units), vld1q_u8(utfxi_compress16[keep]));
  uint8x16_t after = vld1q_u8((const uint8_t *)(d + len));
  if (be) out = vrev16q_u8(out);
  vst1q_u8((uint8_t *)d, out);
  vst1q_u8((uint8_t *)(d + len), after);
  return len;
}

/* ---- UTF-8 encoders (the UTF-32 -> UTF-8, UTF-16 -> UTF-8 and Latin-1 ->
 * UTF-8 words below) ---- */

/* One bit per lane (bit j: lane j) of the all-ones / zero lanes of m. */
static inline unsigned lane_bits4(uint32x4_t m) {
  const uint32x4_t weights = {1, 2, 4, 8};
  return vaddvq_u32(vandq_u32(m, weights));
}

/* The UTF-8 of 8 values below 0x800 (16-bit lanes), packed to the front of
 * the result (TBL through the x86 tiers' pack tables, utf8_pack_tables.h:
 * PSHUFB and TBL both give 0 for an out-of-range index); *len: 8 to 16. */
static inline uint8x16_t v16_utf8_2byte_x8(uint16x8_t v, size_t *len) {
  unsigned two = v_bits8(vmovn_u16(vcgtq_u16(v, vdupq_n_u16(0x7F))));
  *len = 8 + (size_t)__builtin_popcount(two);
  return vqtbl1q_u8(vreinterpretq_u8_u16(v_utf8_form16(v)), vld1q_u8(utfxi_pack_2byte[two]));
}

/* The 1-, 2- or 3-byte UTF-8 form of each of 4 BMP values (32-bit lanes),
 * bytes in memory order; and *ge80, *ge800, the lanes >= 0x80, >= 0x800. */
static inline uint32x4_t v32_utf8_forms_x4(uint32x4_t c, uint32x4_t *ge80, uint32x4_t *ge800) {
  uint32x4_t low6 = vandq_u32(c, vdupq_n_u32(0x3F));
  uint32x4_t mid6 = vandq_u32(vshrq_n_u32(c, 6), vdupq_n_u32(0x3F));
  uint32x4_t two = vorrq_u32(vorrq_u32(vshrq_n_u32(c, 6), vshlq_n_u32(low6, 8)),
                             vdupq_n_u32(0x80C0));
  uint32x4_t three = vorrq_u32(vorrq_u32(vshrq_n_u32(c, 12), vshlq_n_u32(mid6, 8)),
                               vorrq_u32(vshlq_n_u32(low6, 16), vdupq_n_u32(0x8080E0)));
  *ge80 = vcgeq_u32(c, vdupq_n_u32(0x80));
  *ge800 = vcgeq_u32(c, vdupq_n_u32(0x800));
  return vbslq_u32(*ge800, three, vbslq_u32(*ge80, two, c));
}

/* The UTF-8 of 4 BMP values that are not surrogates, packed to the front
 * (the pack table's row: bit j lane j >= 0x80, bit 4 + j >= 0x800); *len: 4
 * to 12. */
static inline uint8x16_t v32_utf8_3byte_x4(uint32x4_t c, size_t *len) {
  uint32x4_t ge80, ge800, forms = v32_utf8_forms_x4(c, &ge80, &ge800);
  unsigned m2 = lane_bits4(ge80), m3 = lane_bits4(ge800);
  *len = 4 + (size_t)__builtin_popcount(m2) + (size_t)__builtin_popcount(m3);
  return vqtbl1q_u8(vreinterpretq_u8_u32(forms), vld1q_u8(utfxi_pack_3byte[m2 | m3 << 4]));
}

/* UTF-32 to UTF-8 (generic_utf32.h), as in vec_avx2.h: 8 values below
 * 0x800 or 8 BMP values by the encoders above, 4 values of any plane by
 * one store of each lane's 1-4 bytes after the other; each store is whole
 * and the 16 bytes after the output are read first and put back last
 * (room: 48 bytes), but where `spill` allows (vec_avx2.h) below 0x800 (at
 * most 8 bytes). The BMP word always puts back: it would spill up to 12
 * bytes, more than the 8 the next word may write, whose put-back would
 * then bring spilled bytes back. */
#define V32_UTF8_ROOM 48
struct v32_utf8_k {
  uint32x4_t x3f;
};
static inline void v32_utf8_k_init(struct v32_utf8_k *k) { k->x3f = vdupq_n_u32(0x3F); }
static inline size_t v32_store_utf8_below800(unsigned char *d, vu32 a, vu32 b,
                                             const struct v32_utf8_k *k, int spill) {
  size_t len;
  uint8x16_t out = v16_utf8_2byte_x8(vcombine_u16(vmovn_u32(a), vmovn_u32(b)), &len), keep;
  (void)k;
  keep = spill ? out : vld1q_u8(d + len);
  vst1q_u8(d, out);
  if (!spill) vst1q_u8(d + len, keep);
  return len;
}
static inline size_t v32_store_utf8_bmp(unsigned char *d, vu32 a, vu32 b,
                                        const struct v32_utf8_k *k, int spill) {
  size_t l0, l1;
  uint8x16_t o0 = v32_utf8_3byte_x4(a, &l0), o1 = v32_utf8_3byte_x4(b, &l1);
  uint8x16_t keep = vld1q_u8(d + l0 + l1);
  (void)k, (void)spill;
  vst1q_u8(d, o0);
  vst1q_u8(d + l0, o1);
  vst1q_u8(d + l0 + l1, keep);
  return l0 + l1;
}
static inline size_t v32_store_utf8(unsigned char *d, vu32 c, const struct v32_utf8_k *k) {
  uint32x4_t ge80, ge800, forms = v32_utf8_forms_x4(c, &ge80, &ge800);
  uint32x4_t ge10000 = vcgeq_u32(c, vdupq_n_u32(0x10000));
  uint32x4_t four = vorrq_u32(
      vorrq_u32(vshrq_n_u32(c, 18), vshlq_n_u32(vandq_u32(vshrq_n_u32(c, 12), k->x3f), 8)),
      vorrq_u32(vshlq_n_u32(vandq_u32(vshrq_n_u32(c, 6), k->x3f), 16),
                vshlq_n_u32(vandq_u32(c, k->x3f), 24)));
  /* lengths 1 + (>= 0x80) + (>= 0x800) + (>= 0x10000): masks are -1 */
  uint32x4_t len = vsubq_u32(vsubq_u32(vsubq_u32(vdupq_n_u32(1), ge80), ge800), ge10000);
  size_t l0 = vgetq_lane_u32(len, 0), l1 = l0 + vgetq_lane_u32(len, 1);
  size_t l2 = l1 + vgetq_lane_u32(len, 2), l3 = l2 + vgetq_lane_u32(len, 3);
  uint8x16_t keep = vld1q_u8(d + l3);
  uint32_t f0, f1, f2, f3;
  forms = vbslq_u32(ge10000, vorrq_u32(four, vdupq_n_u32(0x808080F0u)), forms);
  f0 = vgetq_lane_u32(forms, 0), f1 = vgetq_lane_u32(forms, 1);
  f2 = vgetq_lane_u32(forms, 2), f3 = vgetq_lane_u32(forms, 3);
  memcpy(d, &f0, 4);
  memcpy(d + l0, &f1, 4);
  memcpy(d + l1, &f2, 4);
  memcpy(d + l2, &f3, 4);
  vst1q_u8(d + l3, keep);
  return l3;
}

/* UTF-32 validation (generic_utf32.h): the values of a and b as 16-bit
 * lanes, saturated, XOR 0xD800: below 0x800 exactly for the surrogates among
 * values up to 0xFFFF. */
static inline vu16 v32_surrogate_keys(vu32 a, vu32 b) {
  return veorq_u16(vcombine_u16(vqmovn_u32(a), vqmovn_u32(b)), vdupq_n_u16(0xD800));
}
static inline vu16 v16_umin(vu16 a, vu16 b) { return vminq_u16(a, b); }

/* ---- Widening stores: ASCII bytes to UTF-16 / UTF-32 (the UTF-8
 * transcoders), UTF-16 units to UTF-32 (generic_utf16_to_utf32.h), as in
 * vec_avx2.h ---- */
#include "../../scalar/unicode.h"
/* v_put_ascii: UXTL for UTF-32; for UTF-16 each byte zipped with a zero,
 * in the byte order of t. */
UTFXI_INLINE void v_put_ascii(void *dst, size_t w, vu8 v, enum utfxi_target t) {
  if (t == UTFXI_T_UTF32) {
    uint16x8_t lo = vmovl_u8(vget_low_u8(v)), hi = vmovl_high_u8(v);
    uint32_t *d = (uint32_t *)((char32_t *)dst + w);
    vst1q_u32(d, vmovl_u16(vget_low_u16(lo)));
    vst1q_u32(d + 4, vmovl_high_u16(lo));
    vst1q_u32(d + 8, vmovl_u16(vget_low_u16(hi)));
    vst1q_u32(d + 12, vmovl_high_u16(hi));
  } else {
    uint8x16x2_t units;
    uint8_t *d = (uint8_t *)((char16_t *)dst + w);
    units = t == UTFXI_T_UTF16BE ? vzipq_u8(vdupq_n_u8(0), v) : vzipq_u8(v, vdupq_n_u8(0));
    vst1q_u8(d, units.val[0]);
    vst1q_u8(d + 16, units.val[1]);
  }
}
/* v16_store_utf32_paired: the compress is a TBL row of utfxi_compress16
 * per 4 values (its 16-bit slots spread to 32-bit lanes), each stored
 * whole, the 4 values after the output read first and put back last. */
static inline vu32 v16_as_v32(vu16 v) { return vreinterpretq_u32_u16(v); }
static inline int v32_all(vm32 m) { return vminvq_u32(m) != 0; }
#define V16_UTF32_ROOM 12
static inline vu16 v16_splat(unsigned c) { return vdupq_n_u16((uint16_t)c); }
static inline vu16 v16_splat2(unsigned c0, unsigned c1) {
  return vreinterpretq_u16_u32(vdupq_n_u32(c0 | c1 << 16));
}
static inline vm16 v16_top_eq_k(vu16 v, vu16 mask, vu16 value) {
  return vceqq_u16(vandq_u16(v, mask), value);
}
static inline vm32 v32_eq(vu32 a, vu32 b) { return vceqq_u32(a, b); }
static inline void v16_store_utf32(char32_t *d, vu16 v) {
  vst1q_u32((uint32_t *)d, vmovl_u16(vget_low_u16(v)));
  vst1q_u32((uint32_t *)d + 4, vmovl_high_u16(v));
}
static inline size_t v16_store_utf32_paired(char32_t *d, vu16 v, vu16 nx, vm16 high,
                                            uint64_t keep, vu32 offset, int exact) {
  static const unsigned char spread[16] = {0x00, 0x03, 0x0C, 0x0F, 0x30, 0x33, 0x3C, 0x3F,
                                           0xC0, 0xC3, 0xCC, 0xCF, 0xF0, 0xF3, 0xFC, 0xFF};
  int16x8_t h = vreinterpretq_s16_u16(high);
  uint32x4_t c[2], nk[2], hk[2];
  size_t k, at = 0, total = (size_t)__builtin_popcountll(keep) / 4;
  uint8x16_t after = vld1q_u8((const uint8_t *)(d + total));
  (void)exact;
  c[0] = vmovl_u16(vget_low_u16(v)), c[1] = vmovl_high_u16(v);
  nk[0] = vmovl_u16(vget_low_u16(nx)), nk[1] = vmovl_high_u16(nx);
  hk[0] = vreinterpretq_u32_s32(vmovl_s16(vget_low_s16(h)));
  hk[1] = vreinterpretq_u32_s32(vmovl_high_s16(h));
  for (k = 0; k < 2; k++) {
    unsigned x = (unsigned)(keep >> 16 * k);
    unsigned m = (x & 1) | (x >> 3 & 2) | (x >> 6 & 4) | (x >> 9 & 8); /* bit 4j: lane j */
    uint32x4_t cp = vaddq_u32(vaddq_u32(vshlq_n_u32(c[k], 10), nk[k]), offset);
    uint8x16_t out = vreinterpretq_u8_u32(vbslq_u32(hk[k], cp, c[k]));
    vst1q_u8((uint8_t *)(d + at), vqtbl1q_u8(out, vld1q_u8(utfxi_compress16[spread[m]])));
    at += (size_t)__builtin_popcount(m);
  }
  vst1q_u8((uint8_t *)(d + total), after);
  return total;
}

/* ---- UTF-16 to UTF-8 (generic_utf16_to_utf8.h): 8 units a vector; the
 * tests are horizontal maxima (UMAXV). Below 0x800: the 2-byte forms above,
 * stored whole with `spill` (at most 8 bytes, the least the next step
 * makes); BMP: two v32_utf8_3byte_x4, stored exactly (a whole store would
 * spill up to 12 bytes, more than the next step surely makes). A vector
 * with surrogates is the scalar kernel's (*took = 0), 64 units at once,
 * doubling up to 1024 while vectors keep falling back (one call per vector
 * cost more than the scalar kernel itself on emoji text: instructions
 * counted under qemu). ---- */
#define V16_UTF8_ROOM 24
#define G16_SCALAR_RUN 64
#define G16_SCALAR_RUN_MAX 1024
struct v16_utf8_k {
  int unused;
};
static inline void v16_utf8_k_init(struct v16_utf8_k *k) { k->unused = 0; }
static inline int v16_utf8_ascii(vu16 v, const struct v16_utf8_k *k) {
  (void)k;
  return vmaxvq_u16(v) <= 0x7F;
}
static inline int v16_utf8_below800(vu16 v, const struct v16_utf8_k *k) {
  (void)k;
  return vmaxvq_u16(v) <= 0x7FF;
}
static inline int v16_utf8_surrogates(vu16 v, const struct v16_utf8_k *k) {
  (void)k;
  return vmaxvq_u16(v16_top_eq(v, 0xF800, 0xD800)) != 0;
}
static inline void v16_store_bytes(void *p, vu16 v) { vst1_u8((uint8_t *)p, vmovn_u16(v)); }
static inline size_t v16_store_utf8_below800(unsigned char *d, vu16 v, const struct v16_utf8_k *k,
                                             int spill) {
  size_t len;
  uint8x16_t out = v16_utf8_2byte_x8(v, &len);
  (void)k;
  v_store_prefix16(d, out, len, spill);
  return len;
}
static inline size_t v16_store_utf8_bmp(unsigned char *d, vu16 v, const struct v16_utf8_k *k,
                                        int spill) {
  size_t l0, l1;
  uint8x16_t o0 = v32_utf8_3byte_x4(vmovl_u16(vget_low_u16(v)), &l0);
  uint8x16_t o1 = v32_utf8_3byte_x4(vmovl_high_u16(v), &l1);
  (void)k, (void)spill;
  v_store_prefix16(d, o0, l0, 0);
  v_store_prefix16(d + l0, o1, l1, 0);
  return l0 + l1;
}
static inline size_t v16_store_utf8_pairs(unsigned char *d, vu16 v, int more,
                                          const char16_t *after, int be, unsigned flags,
                                          const struct v16_utf8_k *k, size_t *took,
                                          size_t *replaced) {
  (void)d, (void)v, (void)more, (void)after, (void)be, (void)flags, (void)k, (void)replaced;
  *took = 0;
  return 0;
}
/* ---- UTF-8 -> UTF-16 / UTF-32 (generic_utf8_transcode.h) ---- */
#include "../../scalar/unicode.h"
static inline uint64_t v_high_bits(vu8 v) { return v_nibble_mask(vcltzq_s8(vreinterpretq_s8_u8(v))); }
static inline vm8 v_at_least(vu8 v, vu8 k) { return vcgeq_u8(v, k); }
static inline vm8 v_is_cont_given(vu8 v, vu8 c0) {
  return vcltq_s8(vreinterpretq_s8_u8(v), vreinterpretq_s8_u8(c0));
}
struct v_utf8_units_k {
  uint8x16_t x7f, x0f;
};
static inline void v_utf8_units_k_init(struct v_utf8_units_k *k, enum utfxi_target t) {
  (void)t;
  k->x7f = vdupq_n_u8(0x7F);
  k->x0f = vdupq_n_u8(0x0F);
}
/* v_put_ascii (above) serves the ASCII run loop too. */
#define v_put_ascii_run v_put_ascii
/* One bit per byte (bit j: byte j) of 8 bytes of a v_bits mask (4 bits a
 * byte, all set or clear). */
static inline unsigned a64_bits8_of_nibbles(uint32_t x) {
  x &= 0x11111111u;
  x = (x | x >> 3) & 0x03030303u;
  x = (x | x >> 6) & 0x000F000Fu;
  return (x | x >> 12) & 0xFFu;
}
/* The first n (<= 8) units of u as UTF-32 at d: all 8 with `spill`. */
static inline void a64_put_utf32_x8(char32_t *d, uint16x8_t u, unsigned n, int spill) {
  uint32x4_t a = vmovl_u16(vget_low_u16(u)), b = vmovl_high_u16(u);
  if (spill || n == 8) {
    vst1q_u32((uint32_t *)d, a);
    vst1q_u32((uint32_t *)(d + 4), b);
  } else if (n >= 4) {
    vst1q_u32((uint32_t *)d, a);
    v_store_prefix16((uint8_t *)(d + 4), vreinterpretq_u8_u32(b), 4 * (size_t)(n - 4), 0);
  } else {
    v_store_prefix16((uint8_t *)d, vreinterpretq_u8_u32(a), 4 * (size_t)n, 0);
  }
}
/* The units of the characters of the well-formed block v that `ends` marks
 * (none of 4 bytes): the low byte of each code point from its last byte and
 * the one before, the high byte from the two before (byte shifts); the
 * units compressed eight at a time by a TBL row of utfxi_compress16, the
 * first group stored whole when the second one's units cover its spill,
 * the second exactly. */
UTFXI_INLINE size_t v_utf8_put_units(const struct v_utf8_units_k *kc, vu8 v, vm8 cont, vu8 prev1,
                                     vu8 prev2, vu8 prev3, uint64_t ends, uint64_t lead4,
                                     void *dst, size_t w, size_t room, enum utfxi_target t) {
  uint8x16_t p1z = vandq_u8(prev1, cont);
  uint8x16_t p2z = vandq_u8(prev2, vandq_u8(cont, v_is_cont(prev1)));
  uint8x16_t lo = vorrq_u8(vandq_u8(v, kc->x7f), vshlq_n_u8(p1z, 6));
  uint8x16_t hi = vorrq_u8(vandq_u8(vshrq_n_u8(p1z, 2), kc->x0f), vshlq_n_u8(p2z, 4));
  uint8x16x2_t u = t == UTFXI_T_UTF16BE ? vzipq_u8(hi, lo) : vzipq_u8(lo, hi);
  unsigned m0 = a64_bits8_of_nibbles((uint32_t)ends), m1 = a64_bits8_of_nibbles((uint32_t)(ends >> 32));
  unsigned n0 = (unsigned)__builtin_popcount(m0), n1 = (unsigned)__builtin_popcount(m1);
  uint8x16_t out0 = vqtbl1q_u8(u.val[0], vld1q_u8(utfxi_compress16[m0]));
  uint8x16_t out1 = vqtbl1q_u8(u.val[1], vld1q_u8(utfxi_compress16[m1]));
  (void)prev3, (void)lead4, (void)room;
  if (t == UTFXI_T_UTF32) {
    char32_t *d = (char32_t *)dst + w;
    a64_put_utf32_x8(d, vreinterpretq_u16_u8(out0), n0, n0 + n1 >= 8);
    a64_put_utf32_x8(d + n0, vreinterpretq_u16_u8(out1), n1, 0);
  } else {
    uint8_t *d = (uint8_t *)((char16_t *)dst + w);
    v_store_prefix16(d, out0, 2 * (size_t)n0, n0 + n1 >= 8);
    v_store_prefix16(d + 2 * n0, out1, 2 * (size_t)n1, 0);
  }
  return n0 + n1;
}

#endif
