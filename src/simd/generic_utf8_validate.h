/* UTF-8 and ASCII validation at any vector width (the vocabulary of
 * generic.h). Instantiated by a tier's kernel file: utfxi_validate_utf8_TIER
 * and utfxi_validate_ascii_TIER.
 *
 * UTF-8: lookup-based validation (Keiser and Lemire, "Validating UTF-8 in
 * less than one instruction per byte", 2021; tables in utf8_lookup_tables.h).
 * The bytes one, two and three back come from unaligned loads at -1, -2, -3
 * (the first vector, with nothing readable before it, shifts zeros in, in
 * registers). Errors accumulate over a chunk of four vectors, tested once; a
 * chunk of ASCII is skipped with one test, after checking that the previous
 * chunk did not end inside a character. The tail (under one vector) and any
 * chunk with an error go to the scalar kernel from the character boundary
 * before them, so every offset reported is the scalar kernel's. */
#ifndef UTFX_SIMD_GENERIC_UTF8_VALIDATE_H
#define UTFX_SIMD_GENERIC_UTF8_VALIDATE_H

#include "generic.h"
#include "utf8_lookup_tables.h"
#include "utf8_steps.h"

/* Nonzero bytes mark the bytes of cur that end an ill-formed pair or break
 * the continuation count, given the three bytes before each. */
static inline vu8 g_utf8_error_bytes(vu8 cur, vu8 prev1, vu8 prev2, vu8 prev3) {
  const vu8 nibble = v_splat(0x0F);
  vu8 a = v_lookup16(V_TABLE16(UTFXI_LK_PREV_HI_ARGS), v_shr4(prev1));
  vu8 b = v_lookup16(V_TABLE16(UTFXI_LK_PREV_LO_ARGS), v_and(prev1, nibble));
  vu8 c = v_lookup16(V_TABLE16(UTFXI_LK_CUR_HI_ARGS), v_shr4(cur));
  vu8 special = v_and(v_and(a, b), c);
  /* 0x80 where the byte two back is >= E0 or the byte three back >= F0
   * (saturating subtraction leaves bit 7 set exactly then): there a
   * continuation after a continuation is expected, so XOR flips it. */
  vu8 third = v_subs(prev2, v_splat(0xE0 - 0x80));
  vu8 fourth = v_subs(prev3, v_splat(0xF0 - 0x80));
  return v_xor(special, v_and(v_or(third, fourth), v_splat(0x80)));
}

/* Error bytes of the vector v at p (p - 3 readable). */
static inline vu8 g_utf8_block_errors(const unsigned char *p, vu8 v) {
  return g_utf8_error_bytes(v, v_load(p - 1), v_load(p - 2), v_load(p - 3));
}

/* Nonzero bytes when v ends inside a character: its last three bytes
 * against the smallest lead that needs more bytes than follow it. */
static const unsigned char g_utf8_end_limits[64] = {
    255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255,
    255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255,
    255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255,
    255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 0xEF, 0xDF, 0xBF};
static inline vu8 g_utf8_ends_inside(vu8 v) {
  return v_subs(v, v_load(g_utf8_end_limits + 64 - V_BYTES));
}

static utfx_result g_utf8_locate_error(const unsigned char *s, size_t n, size_t p) {
  size_t q = utfxi_utf8_back_to_boundary(s, p);
  utfx_result r = utfxi_validate_utf8_scalar((const char *)s + q, n - q);
  return utfxi_result(r.status, q + r.read, 0, 0);
}

utfx_result G_NAME(validate_utf8)(const char *src, size_t n) {
  const unsigned char *s = (const unsigned char *)src;
  size_t i;
  vu8 err, pending, v;
  if (n < V_BYTES) return utfxi_validate_utf8_scalar(src, n);
  v = v_load(s);
  pending = v_zero();
  if (v_any_high(v)) { /* not ASCII: check it, with zeros before it */
    const vu8 z = v_zero();
    err = g_utf8_error_bytes(v, v_prev(z, v, 1), v_prev(z, v, 2), v_prev(z, v, 3));
    if (v_any(err)) return g_utf8_locate_error(s, n, 0);
    pending = g_utf8_ends_inside(v);
  }
  i = V_BYTES;
  for (; n - i >= 4 * V_BYTES; i += 4 * V_BYTES) {
    const unsigned char *p = s + i;
    vu8 v0 = v_load(p), v1 = v_load(p + V_BYTES);
    vu8 v2 = v_load(p + 2 * V_BYTES), v3 = v_load(p + 3 * V_BYTES);
    if (!v_any_high(v_or(v_or(v0, v1), v_or(v2, v3)))) {
      if (v_any(pending)) return g_utf8_locate_error(s, n, i);
      continue;
    }
    err = v_or(v_or(g_utf8_block_errors(p, v0), g_utf8_block_errors(p + V_BYTES, v1)),
               v_or(g_utf8_block_errors(p + 2 * V_BYTES, v2),
                    g_utf8_block_errors(p + 3 * V_BYTES, v3)));
    if (v_any(err)) return g_utf8_locate_error(s, n, i);
    pending = g_utf8_ends_inside(v3);
  }
  for (; n - i >= V_BYTES; i += V_BYTES) {
    v = v_load(s + i);
    if (!v_any_high(v) && !v_any(pending)) continue; /* ASCII */
    err = g_utf8_block_errors(s + i, v);
    if (v_any(err)) return g_utf8_locate_error(s, n, i);
    pending = g_utf8_ends_inside(v);
  }
  /* The tail: ASCII after a complete character is done here (a call costs
   * more than these few bytes), the rest by the scalar kernel from the
   * character boundary before it. */
  if (!v_any(pending)) {
    while (n - i >= 8 && !(utfxi_load64(s + i) & 0x8080808080808080ull)) i += 8;
    while (i < n && s[i] < 0x80) i++;
    if (i == n) return utfxi_result(UTFX_OK, n, 0, 0);
  }
  return g_utf8_locate_error(s, n, i);
}

utfx_result G_NAME(validate_ascii)(const char *src, size_t n) {
  const unsigned char *s = (const unsigned char *)src;
  size_t i = 0;
  for (; n - i >= 4 * V_BYTES; i += 4 * V_BYTES) {
    const unsigned char *p = s + i;
    vu8 any = v_or(v_or(v_load(p), v_load(p + V_BYTES)),
                   v_or(v_load(p + 2 * V_BYTES), v_load(p + 3 * V_BYTES)));
    if (v_any_high(any)) break;
  }
  for (; n - i >= V_BYTES; i += V_BYTES) {
    vu8 v = v_load(s + i);
    if (v_any_high(v)) return utfxi_result(UTFX_INVALID, i + v_first_high(v), 0, 0);
  }
  if (i == n) return utfxi_result(UTFX_OK, n, 0, 0); /* no call for nothing */
  {
    utfx_result r = utfxi_validate_ascii_scalar(src + i, n - i);
    return utfxi_result(r.status, i + r.read, 0, 0);
  }
}

#endif
