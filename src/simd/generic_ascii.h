/* Runs of ASCII, eight vectors a test, at any vector width (the vocabulary
 * of generic.h): for kernels whose own steps cost more per vector than the
 * loads (checks, counts) and that take the leading ASCII of long inputs
 * first (docs/perf-decisions.md, 'UTF-8 validation: leading ASCII'). */
#ifndef UTFX_SIMD_GENERIC_ASCII_H
#define UTFX_SIMD_GENERIC_ASCII_H

#include "generic.h"

/* Whether a byte of the eight vectors at p has its top bit set. */
UTFXI_INLINE int g_any_high8(const unsigned char *p) {
  vu8 a = v_or(v_or(v_load(p), v_load(p + V_BYTES)),
               v_or(v_load(p + 2 * V_BYTES), v_load(p + 3 * V_BYTES)));
  vu8 b = v_or(v_or(v_load(p + 4 * V_BYTES), v_load(p + 5 * V_BYTES)),
               v_or(v_load(p + 6 * V_BYTES), v_load(p + 7 * V_BYTES)));
  return v_any_high(v_or(a, b));
}

/* From i on, in steps of eight vectors while they are all ASCII: where the
 * first step that is not (or fewer than eight vectors remain) starts. For
 * loads that do not cross cache lines, s + i should be on a vector
 * boundary. */
UTFXI_INLINE size_t g_ascii_run8(const unsigned char *s, size_t n, size_t i) {
  while (n - i >= 8 * V_BYTES && !g_any_high8(s + i)) i += 8 * V_BYTES;
  return i;
}

/* g_ascii_run8 out of line, for a kernel whose short inputs do not reach it
 * and whose own steps are bound by other work than the loads (the Latin-1
 * lengths): called, the run does not weigh on that kernel's registers. */
__attribute__((noinline, unused)) static size_t g_ascii_run8_apart(const char *s, size_t n,
                                                                   size_t i) {
  return g_ascii_run8((const unsigned char *)s, n, i);
}

#endif
