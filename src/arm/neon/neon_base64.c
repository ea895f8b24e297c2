/* The neon tier's base64 (src/simd/generic_base64.h): blocks of 64
 * characters, which LD4 splits into the four positions of 16 groups, so
 * that each group's values are the same lane of four vectors; TBL/TBX look
 * the characters up in the 128-entry class table of the alphabet
 * (scalar/base64_tables.h; a byte from 0x80 is rejected by its own top bit),
 * shifts join the values and ST3 interleaves the bytes again. Encoding is the
 * same backwards: LD3, shifts, TBL into the 64 characters, ST4. */
#include "vec_neon.h"

#include "../../scalar/base64.h"
#include "../../scalar/base64_tables.h"

#define UTFXI_DECL_TIER_NAME neon
#include "../../tier_declarations.h"

#define G64_CHARS 64
#define G64_BYTES 48

/* 64 table entries in four registers, for TBL/TBX. */
static inline uint8x16x4_t g64_half(const uint8_t *t) {
  uint8x16x4_t v;
  v.val[0] = vld1q_u8(t);
  v.val[1] = vld1q_u8(t + 16);
  v.val[2] = vld1q_u8(t + 32);
  v.val[3] = vld1q_u8(t + 48);
  return v;
}

/* The class table of the alphabet, characters 0..63 and 64..127. */
#define G64_HALF uint8x16x4_t
#include "../../simd/generic_base64_classes.h"

/* 64 UTF-16 units as LD4 lays out 64 bytes; 0 when a unit is above 0xFF. */
static inline int b64_load16(const char16_t *p, uint8x16x4_t *c) {
  uint16x8x4_t a = vld4q_u16((const uint16_t *)p), b = vld4q_u16((const uint16_t *)p + 32);
  uint16x8_t high = vdupq_n_u16(0);
  int k;
  for (k = 0; k < 4; k++) {
    high = vorrq_u16(high, vorrq_u16(a.val[k], b.val[k]));
    c->val[k] = vcombine_u8(vmovn_u16(a.val[k]), vmovn_u16(b.val[k]));
  }
  return vmaxvq_u16(high) <= 0xFF;
}

/* Lines of one shape (generic_base64.h): a block's values are four vectors,
 * as LD4 lays them out. */
#define G64_CLEAN_VALUES 1
#define G64_VALUES uint8x16x4_t
static inline int g64_clean_values(const void *src, size_t i, int wide,
                                   const struct g64_alphabet *a, uint8x16x4_t *v) {
  uint8x16x4_t c;
  uint8x16_t any = vdupq_n_u8(0);
  int k;
  if (wide) {
    if (!b64_load16((const char16_t *)src + i, &c)) return 0;
  } else {
    c = vld4q_u8((const uint8_t *)src + i);
  }
  for (k = 0; k < 4; k++) {
    v->val[k] = vqtbx4q_u8(vqtbl4q_u8(a->lo, c.val[k]), a->hi, vsubq_u8(c.val[k], vdupq_n_u8(64)));
    any = vorrq_u8(any, vorrq_u8(v->val[k], c.val[k]));
  }
  return (vmaxvq_u8(any) & 0x80) == 0;
}

static inline void g64_store_values(unsigned char *d, uint8x16x4_t v) {
  uint8x16x3_t out;
  out.val[0] = vorrq_u8(vshlq_n_u8(v.val[0], 2), vshrq_n_u8(v.val[1], 4));
  out.val[1] = vorrq_u8(vshlq_n_u8(v.val[1], 4), vshrq_n_u8(v.val[2], 2));
  out.val[2] = vorrq_u8(vshlq_n_u8(v.val[2], 6), v.val[3]);
  vst3q_u8(d, out);
}

/* Clean blocks only: anything else goes to the scalar steps (after lines of
 * one shape are tried, generic_base64.h). */
static inline size_t g64_decode_block(const void *src, size_t i, int wide, unsigned char *d,
                                      const struct g64_alphabet *a, size_t *bytes) {
  uint8x16x4_t v;
  if (!g64_clean_values(src, i, wide, a, &v)) return 0;
  if (d) g64_store_values(d, v);
  *bytes = 48;
  return 64;
}

static const char b64_chars[2][64] = {
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/",
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"};

static inline size_t g64_encode_blocks(const unsigned char *s, size_t n, size_t blocks, char *d,
                                       int url) {
  const uint8x16x4_t abc = g64_half((const uint8_t *)b64_chars[url ? 1 : 0]);
  const uint8x16_t low6 = vdupq_n_u8(63);
  size_t k;
  (void)n;
  for (k = 0; k < blocks; k++) {
    uint8x16x3_t in = vld3q_u8(s + 48 * k);
    uint8x16x4_t out;
    out.val[0] = vshrq_n_u8(in.val[0], 2);
    out.val[1] = vandq_u8(vorrq_u8(vshlq_n_u8(in.val[0], 4), vshrq_n_u8(in.val[1], 4)), low6);
    out.val[2] = vandq_u8(vorrq_u8(vshlq_n_u8(in.val[1], 2), vshrq_n_u8(in.val[2], 6)), low6);
    out.val[3] = vandq_u8(in.val[2], low6);
    out.val[0] = vqtbl4q_u8(abc, out.val[0]);
    out.val[1] = vqtbl4q_u8(abc, out.val[1]);
    out.val[2] = vqtbl4q_u8(abc, out.val[2]);
    out.val[3] = vqtbl4q_u8(abc, out.val[3]);
    vst4q_u8((uint8_t *)d + 64 * k, out);
  }
  return 48 * blocks;
}

#include "../../simd/generic_base64.h"
