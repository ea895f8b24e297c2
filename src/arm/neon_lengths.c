/* The neon tier's length kernels of Latin-1 and UTF-32 sources (those of
 * UTF-8 and UTF-16 are generic kernels, neon_generic.c): what the
 * UTFX_REPLACE conversions write, summed per vector and added with
 * saturation per chunk of UTFXI_LENGTH_CHUNK units, as the scalar kernels
 * do; tails go to the scalar kernels. */
#include "vec_neon.h"

#define UTFXI_DECL_TIER_NAME neon
#include "../tier_declarations.h"

#include "../scalar/unicode.h"

/* n plus the bytes >= 0x80 (each takes two UTF-8 bytes). */
size_t utfxi_utf8_length_from_latin1_neon(const char *src, size_t n) {
  const unsigned char *s = (const unsigned char *)src;
  size_t i = 0, high = 0;
  for (; n - i >= 16; i += 16) high += vaddvq_u8(vshrq_n_u8(v_load(s + i), 7));
  return utfxi_add_sat(utfxi_add_sat(i, high), utfxi_utf8_length_from_latin1_scalar(src + i, n - i));
}

/* Lanes of v in lo..lo + len - 1 (unsigned wrap-around), as 1 per lane. */
static inline uint32x4_t in_range(uint32x4_t v, uint32_t lo, uint32_t len) {
  return vshrq_n_u32(vcltq_u32(vsubq_u32(v, vdupq_n_u32(lo)), vdupq_n_u32(len)), 31);
}

/* 1 + (>= 0x80) + (>= 0x800) + (in 0x10000..0x10FFFF) bytes per value: a
 * surrogate or a value above 0x10FFFF counts 3, the length of U+FFFD. */
size_t utfxi_utf8_length_from_utf32_neon(const char32_t *s, size_t n) {
  size_t i = 0, total = 0;
  while (n - i >= 4) {
    size_t end = n - i > UTFXI_LENGTH_CHUNK ? i + UTFXI_LENGTH_CHUNK : n;
    uint32x4_t acc = vdupq_n_u32(0);
    size_t start = i;
    for (; end - i >= 4; i += 4) {
      uint32x4_t v = vld1q_u32((const uint32_t *)(s + i));
      acc = vaddq_u32(acc, vshrq_n_u32(vcgeq_u32(v, vdupq_n_u32(0x80)), 31));
      acc = vaddq_u32(acc, vshrq_n_u32(vcgeq_u32(v, vdupq_n_u32(0x800)), 31));
      acc = vaddq_u32(acc, in_range(v, 0x10000, 0x100000));
    }
    total = utfxi_add_sat(total, (i - start) + (size_t)vaddlvq_u32(acc));
  }
  return utfxi_add_sat(total, utfxi_utf8_length_from_utf32_scalar(s + i, n - i));
}

/* One unit per value, two for 0x10000..0x10FFFF. */
size_t utfxi_utf16_length_from_utf32_neon(const char32_t *s, size_t n) {
  size_t i = 0, total = 0;
  while (n - i >= 4) {
    size_t end = n - i > UTFXI_LENGTH_CHUNK ? i + UTFXI_LENGTH_CHUNK : n;
    uint32x4_t acc = vdupq_n_u32(0);
    size_t start = i;
    for (; end - i >= 4; i += 4)
      acc = vaddq_u32(acc, in_range(vld1q_u32((const uint32_t *)(s + i)), 0x10000, 0x100000));
    total = utfxi_add_sat(total, (i - start) + (size_t)vaddlvq_u32(acc));
  }
  return utfxi_add_sat(total, utfxi_utf16_length_from_utf32_scalar(s + i, n - i));
}
