/* Lookup-based checking of UTF-8 at any vector width (Keiser and Lemire,
 * "Validating UTF-8 in less than one instruction per byte", 2021; tables in
 * utf8_lookup_tables.h): the error bytes of one vector given the three
 * bytes before each, and whether a vector ends inside a character. Used by
 * the generic validators and lengths and by transcoders that check blocks. */
#ifndef UTFX_SIMD_GENERIC_UTF8_CHECK_H
#define UTFX_SIMD_GENERIC_UTF8_CHECK_H

#include "generic.h"
#include "utf8_lookup_tables.h"

/* The constants of the check. A kernel that checks block after block in a
 * loop makes them once and pins them (g_utf8_check_k_pin): left as
 * constants, gcc rebuilds them in the loop on AVX-512 (docs/perf-decisions.md,
 * 'AVX-512 vocabulary'). */
struct g_utf8_check_k {
  vu8 nibble, prev_hi, prev_lo, cur_hi, third, fourth, top;
};

/* The constants into *k, each byte splat made by SPLAT(v, c) (plain in
 * g_utf8_check_k_init; V_CONST8 where a kernel hides them). */
#define G_UTF8_CHECK_K_MAKE(k, SPLAT)                   \
  do {                                                  \
    SPLAT((k)->nibble, 0x0F);                           \
    (k)->prev_hi = V_TABLE16(UTFXI_LK_PREV_HI_ARGS);    \
    (k)->prev_lo = V_TABLE16(UTFXI_LK_PREV_LO_ARGS);    \
    (k)->cur_hi = V_TABLE16(UTFXI_LK_CUR_HI_ARGS);      \
    SPLAT((k)->third, 0xE0 - 0x80);                     \
    SPLAT((k)->fourth, 0xF0 - 0x80);                    \
    SPLAT((k)->top, 0x80);                              \
  } while (0)
#define G_UTF8_SPLAT(v, c) ((v) = v_splat(c))

UTFXI_INLINE void g_utf8_check_k_init(struct g_utf8_check_k *k) {
  G_UTF8_CHECK_K_MAKE(k, G_UTF8_SPLAT);
}

/* HOLD (V_PIN or V_LOADED) on each constant of *k. */
#define G_UTF8_CHECK_K_HOLD(k, HOLD)        \
  do {                                      \
    (void)(k); /* (HOLD may be nothing) */  \
    HOLD((k)->nibble);                      \
    HOLD((k)->prev_hi);                     \
    HOLD((k)->prev_lo);                     \
    HOLD((k)->cur_hi);                      \
    HOLD((k)->third);                       \
    HOLD((k)->fourth);                      \
    HOLD((k)->top);                         \
  } while (0)

UTFXI_INLINE void g_utf8_check_k_pin(struct g_utf8_check_k *k) { G_UTF8_CHECK_K_HOLD(k, V_PIN); }

/* g_utf8_error_bytes_kw and g_utf8_errors4_counted_k, the check's form with
 * the nibble masks (generic_utf8_check_w.h, once per form). */
UTFXI_INLINE vu8 g_utf8_error_bytes_kw(const struct g_utf8_check_k *k, vu8 cur, vu8 prev1,
                                       vu8 prev2, vu8 prev3, int utf16, vu8 *w);
UTFXI_INLINE vu8 g_utf8_errors4_counted_k(const struct g_utf8_check_k *k, const unsigned char *p,
                                          vu8 v0, vu8 v1, vu8 v2, vu8 v3, int utf16,
                                          size_t *none);
#define G_UTF8_NIB 0
#define G_UTF8_KW g_utf8_error_bytes_kw
#define G_UTF8_ERRORS4_W g_utf8_errors4_counted_k
#include "generic_utf8_check_w.h"

UTFXI_INLINE vu8 g_utf8_error_bytes_k(const struct g_utf8_check_k *k, vu8 cur, vu8 prev1, vu8 prev2,
                                      vu8 prev3) {
  return g_utf8_error_bytes_kw(k, cur, prev1, prev2, prev3, 0, NULL);
}

UTFXI_INLINE vu8 g_utf8_error_bytes(vu8 cur, vu8 prev1, vu8 prev2, vu8 prev3) {
  struct g_utf8_check_k k;
  g_utf8_check_k_init(&k);
  return g_utf8_error_bytes_k(&k, cur, prev1, prev2, prev3);
}

/* Error bytes of the vector v at p (p - 3 readable). */
UTFXI_INLINE vu8 g_utf8_block_errors_k(const struct g_utf8_check_k *k, const unsigned char *p,
                                       vu8 v) {
  return g_utf8_error_bytes_k(k, v, v_load(p - 1), v_load(p - 2), v_load(p - 3));
}

UTFXI_INLINE vu8 g_utf8_block_errors(const unsigned char *p, vu8 v) {
  struct g_utf8_check_k k;
  g_utf8_check_k_init(&k);
  return g_utf8_block_errors_k(&k, p, v);
}

/* Error bytes of the four vectors v0..v3 at p (p - 3 readable), OR-ed. They
 * are combined in order, V_SEQUENCE after each: left free, gcc computed the
 * four checks side by side and spilled 11 of AVX2's 16 registers per step. */
UTFXI_INLINE vu8 g_utf8_errors4_k(const struct g_utf8_check_k *k, const unsigned char *p, vu8 v0,
                                  vu8 v1, vu8 v2, vu8 v3) {
  vu8 err = g_utf8_block_errors_k(k, p, v0);
  V_SEQUENCE(err);
  err = v_or(err, g_utf8_block_errors_k(k, p + V_BYTES, v1));
  V_SEQUENCE(err);
  err = v_or(err, g_utf8_block_errors_k(k, p + 2 * V_BYTES, v2));
  V_SEQUENCE(err);
  return v_or(err, g_utf8_block_errors_k(k, p + 3 * V_BYTES, v3));
}

UTFXI_INLINE vu8 g_utf8_errors4(const unsigned char *p, vu8 v0, vu8 v1, vu8 v2, vu8 v3) {
  struct g_utf8_check_k k;
  g_utf8_check_k_init(&k);
  return g_utf8_errors4_k(&k, p, v0, v1, v2, v3);
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
