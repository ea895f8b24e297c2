/* Lookup-based checking of UTF-8 at any vector width (Keiser and Lemire,
 * "Validating UTF-8 in less than one instruction per byte", 2021; tables in
 * utf8_lookup_tables.h): the error bytes of one vector given the three
 * bytes before each, and whether a vector ends inside a character. Used by
 * the generic validators and lengths and by transcoders that check blocks. */
#ifndef UTFX_SIMD_GENERIC_UTF8_CHECK_H
#define UTFX_SIMD_GENERIC_UTF8_CHECK_H

#include "generic.h"
#include "utf8_lookup_tables.h"

/* Nonzero bytes mark the bytes of cur that end an ill-formed pair or break
 * the continuation count, given the three bytes before each. */
UTFXI_INLINE vu8 g_utf8_error_bytes(vu8 cur, vu8 prev1, vu8 prev2, vu8 prev3) {
  const vu8 nibble = v_splat(0x0F);
  vu8 a = v_lookup16(V_TABLE16(UTFXI_LK_PREV_HI_ARGS), v_shr4(prev1, nibble));
  vu8 b = v_lookup16(V_TABLE16(UTFXI_LK_PREV_LO_ARGS), v_and(prev1, nibble));
  vu8 c = v_lookup16(V_TABLE16(UTFXI_LK_CUR_HI_ARGS), v_shr4(cur, nibble));
  vu8 special = v_and(v_and(a, b), c);
  /* 0x80 where the byte two back is >= E0 or the byte three back >= F0
   * (saturating subtraction leaves bit 7 set exactly then): there a
   * continuation after a continuation is expected, so XOR flips it. */
  vu8 third = v_subs(prev2, v_splat(0xE0 - 0x80));
  vu8 fourth = v_subs(prev3, v_splat(0xF0 - 0x80));
  return v_xor(special, v_or_and(third, fourth, v_splat(0x80)));
}

/* Error bytes of the vector v at p (p - 3 readable). */
UTFXI_INLINE vu8 g_utf8_block_errors(const unsigned char *p, vu8 v) {
  return g_utf8_error_bytes(v, v_load(p - 1), v_load(p - 2), v_load(p - 3));
}

/* Error bytes of the four vectors v0..v3 at p (p - 3 readable), OR-ed. They
 * are combined in order, V_SEQUENCE after each: left free, gcc computed the
 * four checks side by side and spilled 11 of AVX2's 16 registers per step. */
UTFXI_INLINE vu8 g_utf8_errors4(const unsigned char *p, vu8 v0, vu8 v1, vu8 v2, vu8 v3) {
  vu8 err = g_utf8_block_errors(p, v0);
  V_SEQUENCE(err);
  err = v_or(err, g_utf8_block_errors(p + V_BYTES, v1));
  V_SEQUENCE(err);
  err = v_or(err, g_utf8_block_errors(p + 2 * V_BYTES, v2));
  V_SEQUENCE(err);
  return v_or(err, g_utf8_block_errors(p + 3 * V_BYTES, v3));
}

/* Nonzero bytes when v ends inside a character: its last three bytes
 * against the smallest lead that needs more bytes than follow it. */
static const unsigned char g_utf8_end_limits[64] = {
    255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255,
    255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255,
    255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255,
    255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 0xEF, 0xDF, 0xBF};
UTFXI_INLINE vu8 g_utf8_ends_inside(vu8 v) {
  return v_subs(v, v_load(g_utf8_end_limits + 64 - V_BYTES));
}

/* Error bytes of v with nothing before it (or only whole characters: from a
 * character boundary, the bytes before cannot change v's errors). */
UTFXI_INLINE vu8 g_utf8_errors_alone(vu8 v) {
  const vu8 z = v_zero();
  return g_utf8_error_bytes(v, v_prev(z, v, 1), v_prev(z, v, 2), v_prev(z, v, 3));
}

#endif
