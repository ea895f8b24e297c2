/* The neon tier's transcoders: UTF-8 -> UTF-16LE/BE, UTF-32 (UTF-16 ->
 * UTF-8, Latin-1 to and from UTF-8, UTF-16 and UTF-32: the generic
 * kernels, simd/generic_utf16_to_utf8.h, generic_latin1.h).
 *
 * Each kernel runs 16-byte blocks of what NEON converts directly:
 *  - ASCII: widened, 32 bytes a step where the input and the room allow;
 *  - UTF-8 to UTF-16 without 4-byte characters: the block is checked
 *    (generic_utf8_check.h), the code point of the character that may start
 *    at each byte computed from it and the two bytes after it, and the
 *    characters' units compressed with TBL (compress16_table.h), eight
 *    units at a time;
 * A block that holds anything else goes to the scalar kernel with what
 * follows it (SCALAR_RUN bytes or more), as a segment that ends at a
 * character boundary (before a non-continuation byte), so every error
 * offset, U+FFFD and stop at a full destination is the scalar kernel's. A block
 * runs only when its whole output fits, and every store writes exactly the
 * output produced (v_store_prefix16); the scalar kernel does the rest. */
#include "vec_neon.h"

#define UTFXI_DECL_TIER_NAME neon
#include "../../tier_declarations.h"

#include "../../scalar/unicode.h"
#include "../../simd/compress16_table.h"
#include "../../simd/generic_utf8_check.h"
#include "../../simd/utf8_steps.h"

/* The units (bytes) a block that NEON does not convert hands to the scalar
 * kernel at once: SCALAR_RUN, doubling up to SCALAR_RUN_MAX while blocks
 * keep falling back (emoji text), back to SCALAR_RUN after a vector block.
 * One call per 16-byte block cost more than the scalar kernel itself on
 * emoji text (instructions counted under qemu). */
#define SCALAR_RUN 64
#define SCALAR_RUN_MAX 1024
#define NEXT_RUN(run) ((run) < SCALAR_RUN_MAX ? 2 * (run) : (run))

/* ---- UTF-8 to UTF-16LE/BE, UTF-32 ---- */

/* The code points of the 8 characters that may start at bytes b0 (each with
 * the two bytes after it, b1 and b2), for 1- to 3-byte forms. */
static inline uint16x8_t decode_up_to_3(uint16x8_t b0, uint16x8_t b1, uint16x8_t b2) {
  uint16x8_t c1 = vandq_u16(b1, vdupq_n_u16(0x3F)), c2 = vandq_u16(b2, vdupq_n_u16(0x3F));
  uint16x8_t two = vorrq_u16(vshlq_n_u16(vandq_u16(b0, vdupq_n_u16(0x1F)), 6), c1);
  uint16x8_t three = vorrq_u16(vorrq_u16(vshlq_n_u16(b0, 12), vshlq_n_u16(c1, 6)), c2);
  uint16x8_t v = vbslq_u16(vcltq_u16(b0, vdupq_n_u16(0xE0)), two, three);
  return vbslq_u16(vcltq_u16(b0, vdupq_n_u16(0x80)), b0, v);
}

/* The well-formed 1- to 3-byte characters of the 16 bytes v at p (a
 * character boundary; p + 16 and p + 17 readable), as UTF-16 at d (room for
 * 16 units). Returns the bytes taken (the characters that end in the
 * block: 14 to 16), or 0 when the block holds an error or a 4-byte
 * character (then nothing is written). */
UTFXI_INLINE size_t put_utf16_of_block(const unsigned char *p, vu8 v, char16_t *d, int be,
                                      size_t *units) {
  vu8 t1, t2, keep;
  size_t take;
  unsigned m0, m1;
  uint16x8_t lo, hi;
  if (vmaxvq_u8(v) >= 0xF0 || v_any(g_utf8_errors_alone(v))) return 0;
  /* a character that ends after the block is left for the next one */
  take = p[15] >= 0xC0 ? 15 : p[14] >= 0xE0 ? 14 : 16;
  t1 = v_load(p + 1);
  t2 = v_load(p + 2);
  lo = decode_up_to_3(vmovl_u8(vget_low_u8(v)), vmovl_u8(vget_low_u8(t1)),
                      vmovl_u8(vget_low_u8(t2)));
  hi = decode_up_to_3(vmovl_high_u8(v), vmovl_high_u8(t1), vmovl_high_u8(t2));
  keep = vmvnq_u8(v_is_cont(v)); /* a character starts at each non-continuation byte */
  m0 = v_bits8(vget_low_u8(keep));
  m1 = v_bits8(vget_high_u8(keep)) & ((1u << (take - 8)) - 1);
  {
    uint8x16_t out0 = vqtbl1q_u8(vreinterpretq_u8_u16(lo), vld1q_u8(utfxi_compress16[m0]));
    uint8x16_t out1 = vqtbl1q_u8(vreinterpretq_u8_u16(hi), vld1q_u8(utfxi_compress16[m1]));
    unsigned n0 = (unsigned)__builtin_popcount(m0), n1 = (unsigned)__builtin_popcount(m1);
    if (be) out0 = vrev16q_u8(out0), out1 = vrev16q_u8(out1);
    v_store_prefix16((uint8_t *)d, out0, 2 * (size_t)n0, 0);
    v_store_prefix16((uint8_t *)(d + n0), out1, 2 * (size_t)n1, 0);
    *units = n0 + n1;
  }
  return take;
}

UTFXI_INLINE utfx_result from_utf8(const char *src, size_t n, void *dst, size_t cap,
                                   unsigned flags, enum utfxi_target t) {
  const unsigned char *s = (const unsigned char *)src;
  struct utfxi_u8state st = {0, 0, 0};
  size_t run = SCALAR_RUN;
  while (n - st.i >= 16 && cap - st.w >= 16) {
    vu8 v = v_load(s + st.i);
    if (n - st.i >= 32 && cap - st.w >= 32) {
      vu8 v2 = v_load(s + st.i + 16);
      if (!v_any_high(v_or(v, v2))) {
        v_put_ascii(dst, st.w, v, t);
        v_put_ascii(dst, st.w + 16, v2, t);
        st.i += 32, st.w += 32;
        continue;
      }
    }
    if (!v_any_high(v)) {
      v_put_ascii(dst, st.w, v, t);
      st.i += 16, st.w += 16;
      continue;
    }
    if ((t == UTFXI_T_UTF16LE || t == UTFXI_T_UTF16BE) && n - st.i >= 18) {
      size_t units, took = put_utf16_of_block(s + st.i, v, (char16_t *)dst + st.w,
                                              t == UTFXI_T_UTF16BE, &units);
      if (took) {
        st.i += took, st.w += units;
        run = SCALAR_RUN;
        continue;
      }
    }
    { /* A block with 4-byte characters or an error: the scalar kernel takes
       * `run` bytes and on to the next non-continuation byte (where
       * decoding restarts the same way, whatever came before), so text made
       * of such blocks (emoji) costs little more than the scalar kernel. */
      size_t end = n - st.i > run ? st.i + run : n;
      utfx_result r;
      while (end < n && (s[end] & 0xC0) == 0x80) end++;
      r = utfxi_utf8_rest(src, end, &st, dst, cap, flags, t);
      if (r.status != UTFX_OK) return r;
      st.i = r.read, st.w = r.written, st.replaced = r.replaced;
      run = NEXT_RUN(run);
    }
  }
  return utfxi_utf8_rest(src, n, &st, dst, cap, flags, t);
}

utfx_result utfxi_convert_utf8_to_utf16le_neon(const char *s, size_t n, char16_t *d, size_t cap,
                                               unsigned flags) {
  return from_utf8(s, n, d, cap, flags, UTFXI_T_UTF16LE);
}
utfx_result utfxi_convert_utf8_to_utf16be_neon(const char *s, size_t n, char16_t *d, size_t cap,
                                               unsigned flags) {
  return from_utf8(s, n, d, cap, flags, UTFXI_T_UTF16BE);
}
utfx_result utfxi_convert_utf8_to_utf32_neon(const char *s, size_t n, char32_t *d, size_t cap,
                                             unsigned flags) {
  return from_utf8(s, n, d, cap, flags, UTFXI_T_UTF32);
}
