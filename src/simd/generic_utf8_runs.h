/* Runs of one kind of UTF-8 character, decoded in their lanes: the same at
 * every vector width, for the UTF-8 -> UTF-16 / UTF-32 drivers of the
 * tiers (the general step spends a compress or lookup per block; in a run
 * every character has the same shape, so its lane is known).
 *
 * Needs, besides generic.h's vocabulary, the 32-bit value operations
 * v32_of_bytes, v32_splat, v32_shl, v32_shr, v32_and_value, v32_or_values,
 * v32_bswap16, v32_and, v32_all, v32_store, v32_store_units16, and v32_spread3 with
 * V32_SPREAD3_READS (the bytes it reads from p). */
#ifndef UTFX_SIMD_GENERIC_UTF8_RUNS_H
#define UTFX_SIMD_GENERIC_UTF8_RUNS_H

#include "generic.h"
#include "utf8_steps.h"

/* Characters per 3-byte run step, and the input bytes it takes. */
#define G_RUN3_CHARS V32_LANES
#define G_RUN3_BYTES (3 * V32_LANES)

/* If the G_RUN3_BYTES bytes at p (it reads V32_SPREAD3_READS) are
 * G_RUN3_CHARS well-formed 3-byte characters (CJK text), stores them as as
 * many UTF-16 or UTF-32 units at unit w of dst and returns 1; else returns
 * 0 and stores nothing. Each character is spread into a 32-bit lane as
 * lead << 16 | second << 8 | third: the shape, the code point and its range
 * (U+0800 and up, not a surrogate) are a few operations on all lanes at
 * once, with no masks per byte and no shuffle tables. */
UTFXI_INLINE int g_utf8_put_run3(const unsigned char *p, void *dst, size_t w,
                                 enum utfxi_target t) {
  vu32 x = v32_spread3(p);
  vm32 shape = v32_top_eq(x, 0xF0C0C0, 0xE08080);
  vu32 cp = v32_or_values(
      v32_or_values(v32_and_value(v32_shr(x, 4), 0xF000), v32_and_value(v32_shr(x, 2), 0x0FC0)),
      v32_and_value(x, 0x3F));
  vm32 fine = v32_or(v32_in_range(cp, 0x800, 0xD800 - 0x800), v32_in_range(cp, 0xE000, 0x2000));
  if (!v32_all(v32_and(shape, fine))) return 0;
  if (t == UTFXI_T_UTF32)
    v32_store((char32_t *)dst + w, cp);
  else
    v32_store_units16((char16_t *)dst + w, cp, t == UTFXI_T_UTF16BE);
  return 1;
}

/* Characters per 4-byte run step (its input: one vector). */
#define G_RUN4_CHARS V32_LANES

/* The V32_LANES 4-byte characters of v, a block already checked to be
 * well-formed with a 4-byte lead at every fourth byte (emoji runs), as
 * UTF-32 or as surrogate pairs at unit w of dst; returns the units written. */
UTFXI_INLINE vu32 g_utf8_run4_code_points(vu32 x) {
  /* lead in bits 0-7, the last byte in bits 24-31 */
  return v32_or_values(
      v32_or_values(v32_shl(v32_and_value(x, 0x07), 18), v32_shl(v32_and_value(x, 0x3F00), 4)),
      v32_or_values(v32_shr(v32_and_value(x, 0x3F0000), 10), v32_and_value(v32_shr(x, 24), 0x3F)));
}

/* The code points cp of the 4-byte characters x as UTF-32 or surrogate
 * pairs at unit w of dst; returns the units written. */
UTFXI_INLINE size_t g_utf8_store_run4(vu32 cp, void *dst, size_t w, enum utfxi_target t) {
  vu32 pair;
  if (t == UTFXI_T_UTF32) {
    v32_store((char32_t *)dst + w, cp);
    return V32_LANES;
  }
  /* High surrogate in the low half of the lane, low surrogate above it. */
  cp = v32_sub(cp, 0x10000);
  pair = v32_or_values(v32_or_values(v32_shr(cp, 10), v32_splat(0xDC00D800)),
                       v32_shl(v32_and_value(cp, 0x3FF), 16));
  if (t == UTFXI_T_UTF16BE) pair = v32_bswap16(pair);
  v32_store((char16_t *)dst + w, pair);
  return 2 * V32_LANES;
}

UTFXI_INLINE size_t g_utf8_put_run4(vu8 v, void *dst, size_t w, enum utfxi_target t) {
  return g_utf8_store_run4(g_utf8_run4_code_points(v32_of_bytes(v)), dst, w, t);
}

/* If the V_BYTES bytes at p are V32_LANES well-formed 4-byte characters
 * (the next block of an emoji run), stores them as g_utf8_put_run4 does and
 * returns the units written; else returns 0 and stores nothing. The check
 * is on the lanes (shape, and U+10000..U+10FFFF), as the 3-byte runs',
 * instead of the lookup check and its three loads of the bytes before. */
UTFXI_INLINE size_t g_utf8_put_run4_checked(const unsigned char *p, void *dst, size_t w,
                                            enum utfxi_target t) {
  vu32 x = v32_of_bytes(v_load(p));
  vu32 cp = g_utf8_run4_code_points(x);
  vm32 fine = v32_and(v32_top_eq(x, 0xC0C0C0F8, 0x808080F0), v32_in_range(cp, 0x10000, 0x100000));
  if (!v32_all(fine)) return 0;
  return g_utf8_store_run4(cp, dst, w, t);
}

#endif
