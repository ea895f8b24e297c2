/* Base64 between the tiers: the scalar steps every SIMD kernel hands its
 * unusual blocks (whitespace, padding, errors, a filling destination) and its
 * tails to, so that the decoding rules live in one place (base64_scalar.c). */
#ifndef UTFX_SCALAR_BASE64_H
#define UTFX_SCALAR_BASE64_H

#include "../internal.h"

/* Where a decode stands between steps: source offset i, bytes written w,
 * at a group boundary (no character of a group pending). */
struct utfxi_b64_at {
  size_t i, w;
};

/* Decodes src[at->i..n) (bytes, or UTF-16 units when wide) into
 * dst[at->w..cap) by the rules of `flags` (include/utfx.h), as if the whole
 * call had run in scalar code from offset 0. Returns 1 with *r the call's
 * result when it is over, or 0 with *at moved on when it reaches a group
 * boundary at or after offset `pause` (the caller may take blocks in vector
 * code from there and call again). dst NULL: counts the bytes only, as if
 * cap were unbounded (the length functions). */
int utfxi_base64_decode_steps(const void *src, size_t n, int wide, unsigned char *dst, size_t cap,
                              unsigned flags, size_t pause, struct utfxi_b64_at *at,
                              utfx_result *r);

/* 0 standard, 1 url, 2 both: the row of utfxi_b64_class for `flags`. */
static inline unsigned utfxi_b64_alphabet(unsigned flags) {
  if (flags & (UTFX_BASE64_NODE | UTFX_BASE64_ANY_ALPHABET)) return 2;
  return (flags & UTFX_BASE64_URL) ? 1 : 0;
}

#endif
