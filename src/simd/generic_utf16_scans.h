/* Issue 35's UTF-16 scans at any vector width (the vocabulary of generic.h):
 * the raw byte swap (the swap kernels' body without their surrogate test)
 * and the ASCII check. The UTF-8 length that reports lone surrogates is the
 * length kernel of generic_utf16.h with its flag on. */
#ifndef UTFX_SIMD_GENERIC_UTF16_SCANS_H
#define UTFX_SIMD_GENERIC_UTF16_SCANS_H

#include "generic_utf16_swap.h"

/* dst may equal src: every vector is loaded before it is stored back. */
void G_NAME(swap_bytes_utf16)(const char16_t *s, size_t n, char16_t *d) {
  size_t i = 0;
  if (n >= 4 * V16_BLOCK && (uintptr_t)d % 2 == 0) {
    /* a scalar head puts the stores on vector boundaries, as g16_swap does */
    i = (size_t)(-(uintptr_t)d % V_BYTES) / 2;
    utfxi_swap_bytes_utf16_scalar(s, i, d);
  }
  for (; n - i >= 2 * V16_BLOCK; i += 2 * V16_BLOCK)
    g16_copy_swapped4(d + i, v16_load_raw(s + i), v16_load_raw(s + i + V16_UNITS),
                      v16_load_raw(s + i + 2 * V16_UNITS), v16_load_raw(s + i + 3 * V16_UNITS));
  for (; n - i >= V16_UNITS; i += V16_UNITS) v16_store(d + i, v16_bswap(v16_load_raw(s + i)));
#ifdef V_MASKED_TAIL
  if (i < n) v16_store_tail(d + i, n - i, v16_bswap(v16_load_tail_raw(s + i, n - i)));
#else
  if (i < n) utfxi_swap_bytes_utf16_scalar(s + i, n - i, d + i);
#endif
}

/* A region with a non-ASCII unit goes to the scalar kernel, which finds it. */
UTFXI_INLINE utfx_result g16_ascii_in(const char16_t *s, size_t i, size_t k, int be) {
  utfx_result r = be ? utfxi_validate_ascii_utf16be_scalar(s + i, k)
                     : utfxi_validate_ascii_utf16le_scalar(s + i, k);
  return utfxi_result_after(&r, i, 0, 0);
}

/* The OR of the 2 * V16_BLOCK units at s. */
UTFXI_INLINE vu16 g16_or_units4(const char16_t *s) {
  const vu16 a = v16_load_seq(s), b = v16_load_seq(s + V16_UNITS);
  const vu16 c = v16_load_seq(s + 2 * V16_UNITS), e = v16_load_seq(s + 3 * V16_UNITS);
  return v16_or_units(v16_or_units(a, b), v16_or_units(c, e));
}

UTFXI_INLINE utfx_result g16_validate_ascii(const char16_t *s, size_t n, int be) {
  size_t i = 0;
  if (n >= 16 * V16_BLOCK && (uintptr_t)s % 2 == 0) {
    /* vector-aligned loads from here on, as validation does (a load across
     * two cache lines costs two) */
    utfx_result r;
    i = (size_t)(-(uintptr_t)s % V_BYTES) / 2;
    r = g16_ascii_in(s, 0, i, be);
    if (r.status != UTFX_OK) return r;
  }
  /* eight vectors a loop turn (two tests of four), then four
   * (docs/perf-decisions.md, 'Read loops: loads in address order, eight
   * vectors a turn') */
  for (; n - i >= 4 * V16_BLOCK; i += 4 * V16_BLOCK)
    if (g16_any_non_ascii(g16_or_units4(s + i), be) ||
        g16_any_non_ascii(g16_or_units4(s + i + 2 * V16_BLOCK), be))
      break;
  for (; n - i >= 2 * V16_BLOCK; i += 2 * V16_BLOCK)
    if (g16_any_non_ascii(g16_or_units4(s + i), be)) return g16_ascii_in(s, i, 2 * V16_BLOCK, be);
  for (; n - i >= V16_UNITS; i += V16_UNITS)
    if (g16_any_non_ascii(v16_load_raw(s + i), be)) return g16_ascii_in(s, i, V16_UNITS, be);
#ifdef V_MASKED_TAIL
  if (i < n && !g16_any_non_ascii(v16_load_tail_raw(s + i, n - i), be))
    return utfxi_result(UTFX_OK, n, 0, 0); /* the zeros past the tail are ASCII */
#endif
  return g16_ascii_in(s, i, n - i, be);
}
utfx_result G_NAME(validate_ascii_utf16le)(const char16_t *s, size_t n) {
  return g16_validate_ascii(s, n, 0);
}
utfx_result G_NAME(validate_ascii_utf16be)(const char16_t *s, size_t n) {
  return g16_validate_ascii(s, n, 1);
}

#endif
