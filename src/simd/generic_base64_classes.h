/* The decoder's alphabet for tiers that look characters up in a 128-entry
 * table as two 64-entry halves (avx512's VPERMI2B, neon's TBL/TBX over four
 * registers): the class table of the alphabet the flags decode
 * (scalar/base64_tables.h), characters 0..63 and 64..127.
 *
 * The tier defines, before including this file:
 *   G64_HALF                          the type of one half;
 *   G64_HALF g64_half(const uint8_t *t)   its 64 entries from t. */
#ifndef UTFX_SIMD_GENERIC_BASE64_CLASSES_H
#define UTFX_SIMD_GENERIC_BASE64_CLASSES_H

#include "../scalar/base64.h"
#include "../scalar/base64_tables.h"

struct g64_alphabet {
  G64_HALF lo, hi;
};

static inline struct g64_alphabet g64_alphabet_of(unsigned flags) {
  const uint8_t *t = utfxi_b64_class[utfxi_b64_alphabet(flags)];
  struct g64_alphabet a;
  a.lo = g64_half(t);
  a.hi = g64_half(t + 64);
  return a;
}

#endif
