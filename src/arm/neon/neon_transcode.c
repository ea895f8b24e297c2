/* The neon tier's transcoders: UTF-8 -> UTF-16LE/BE and UTF-32 (the
 * generic driver, simd/generic_utf8_transcode.h, over the neon vocabulary,
 * whose pack step is a TBL row of compress16_table.h eight units at a time),
 * UTF-16LE/BE -> UTF-8 (Latin-1 to and from UTF-8, UTF-16 and UTF-32: the
 * generic kernels, simd/generic_latin1.h).
 *
 * UTF-16 to UTF-8 runs 8-unit blocks of what NEON converts directly:
 *  - ASCII (units < 0x80): narrowed, 16 units a step where the input and
 *    the room allow;
 *  - the 2-byte forms (v_store_utf8) and the 3-byte
 *    forms of blocks without surrogates, packed with TBL through the
 *    shuffle tables of the x86 tiers (src/simd/utf8_pack_tables.h: PSHUFB
 *    and TBL both give 0 for an out-of-range index);
 * A block that holds anything else goes to the scalar kernel with what
 * follows it (SCALAR_RUN units or more), as a segment that ends at a character
 * boundary (further while it would end with a high surrogate), so every
 * error offset, U+FFFD and stop at a full destination is the scalar
 * kernel's. A block runs only when its whole output fits, and every store
 * writes exactly the output produced (v_store_prefix16); the scalar kernel
 * does the rest. */
#include "vec_neon.h"

#define UTFXI_DECL_TIER_NAME neon
#include "../../tier_declarations.h"

#include "../../scalar/unicode.h"
#include "../../simd/compress16_table.h"
#include "../../simd/generic_utf8_transcode.h"
#include "../../simd/utf8_pack_tables.h"
#include "../../simd/utf8_steps.h"

/* The units a block that NEON does not convert hands to the scalar
 * kernel at once: SCALAR_RUN, doubling up to SCALAR_RUN_MAX while blocks
 * keep falling back (emoji text), back to SCALAR_RUN after a vector block.
 * One call per 16-byte block cost more than the scalar kernel itself on
 * emoji text (instructions counted under qemu). */
#define SCALAR_RUN 64
#define SCALAR_RUN_MAX 1024
#define NEXT_RUN(run) ((run) < SCALAR_RUN_MAX ? 2 * (run) : (run))

/* ---- UTF-8 to UTF-16LE/BE, UTF-32: the generic driver ---- */

utfx_result utfxi_convert_utf8_to_utf16le_neon(const char *s, size_t n, char16_t *d, size_t cap,
                                               unsigned flags) {
  return g_utf8_transcode(s, n, d, cap, flags, UTFXI_T_UTF16LE);
}
utfx_result utfxi_convert_utf8_to_utf16be_neon(const char *s, size_t n, char16_t *d, size_t cap,
                                               unsigned flags) {
  return g_utf8_transcode(s, n, d, cap, flags, UTFXI_T_UTF16BE);
}
utfx_result utfxi_convert_utf8_to_utf32_neon(const char *s, size_t n, char32_t *d, size_t cap,
                                             unsigned flags) {
  return g_utf8_transcode(s, n, d, cap, flags, UTFXI_T_UTF32);
}

/* ---- the UTF-16 kernels' steps ---- */

/* The UTF-8 of 4 BMP values that are not surrogates (32-bit lanes), packed
 * (vec_neon.h): writes exactly its 4 to 12 bytes at d and returns how many. */
static inline size_t put_utf8_3byte_x4(uint32x4_t c, unsigned char *d) {
  size_t len;
  uint8x16_t out = v32_utf8_3byte_x4(c, &len);
  v_store_prefix16(d, out, len, 0);
  return len;
}

/* The units from i that the scalar kernel takes for a block NEON does not
 * convert: `run` of them, and one more while the last is a high surrogate with
 * a unit after it (a pair is never split between a segment and what
 * follows; a run of high surrogates is judged by the scalar kernel). */
static inline size_t utf16_segment(const char16_t *s, size_t n, size_t i, int be, size_t run) {
  size_t seg = n - i < run ? n - i : run;
  while (n - i > seg && (utfxi_load16(s + i + seg - 1, be) & 0xFC00) == 0xD800) seg++;
  return seg;
}

/* ---- UTF-16LE/BE to UTF-8 ---- */

/* The scalar kernel of UTF-16 (LE or BE) to UTF-8. */
UTFXI_INLINE utfx_result utf16_scalar(const char16_t *s, size_t n, char *d, size_t cap,
                                     unsigned flags, int be) {
  return be ? utfxi_convert_utf16be_to_utf8_scalar(s, n, d, cap, flags)
            : utfxi_convert_utf16le_to_utf8_scalar(s, n, d, cap, flags);
}

/* UTF-16 to UTF-8. Vector steps: 16 ASCII units narrow to one byte each;
 * 8 units below 0x800 make 1- and 2-byte forms. */
UTFXI_INLINE utfx_result utf16_to_utf8(const char16_t *s, size_t n, char *dst, size_t cap,
                                      unsigned flags, int be) {
  unsigned char *d = (unsigned char *)dst;
  size_t i = 0, w = 0, replaced = 0, run = SCALAR_RUN;
  utfx_result r;
  while (n - i >= 8 && cap - w >= 16) {
    uint16x8_t v = v16_load(s + i, be);
    if (n - i >= 16) {
      uint16x8_t v2 = v16_load(s + i + 8, be);
      if (vmaxvq_u16(vorrq_u16(v, v2)) <= 0x7F) {
        vst1q_u8(d + w, vcombine_u8(vmovn_u16(v), vmovn_u16(v2)));
        i += 16, w += 16;
        continue;
      }
    }
    if (vmaxvq_u16(v) <= 0x7FF) {
      {
        vforms8 h = {v_utf8_form16(v), v_bits8(vmovn_u16(vcgtq_u16(v, vdupq_n_u16(0x7F))))};
        w += v_store_utf8(d + w, h, 1);
      }
      i += 8;
      run = SCALAR_RUN;
      continue;
    }
    if (cap - w >= 24 && vmaxvq_u16(v16_top_eq(v, 0xF800, 0xD800)) == 0) {
      /* BMP without surrogates: 1- to 3-byte forms, four units at a time */
      w += put_utf8_3byte_x4(vmovl_u16(vget_low_u16(v)), d + w);
      w += put_utf8_3byte_x4(vmovl_high_u16(v), d + w);
      i += 8;
      run = SCALAR_RUN;
      continue;
    }
    { /* surrogates, or no room for 3-byte forms: this block through the
       * scalar kernel */
      size_t seg = utf16_segment(s, n, i, be, run);
      r = utf16_scalar(s + i, seg, dst + w, cap - w, flags, be);
      if (r.status != UTFX_OK) return utfxi_result_after(&r, i, w, replaced);
      i += seg, w += r.written, replaced += r.replaced;
      run = NEXT_RUN(run);
    }
  }
  r = utf16_scalar(s + i, n - i, dst + w, cap - w, flags, be);
  return utfxi_result_after(&r, i, w, replaced);
}
utfx_result utfxi_convert_utf16le_to_utf8_neon(const char16_t *s, size_t n, char *d, size_t cap,
                                               unsigned flags) {
  return utf16_to_utf8(s, n, d, cap, flags, 0);
}
utfx_result utfxi_convert_utf16be_to_utf8_neon(const char16_t *s, size_t n, char *d, size_t cap,
                                               unsigned flags) {
  return utf16_to_utf8(s, n, d, cap, flags, 1);
}
