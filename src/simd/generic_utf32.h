/* UTF-32 validation and the UTF-8 and UTF-16 lengths of UTF-32, at any
 * vector width (generic.h). A value is ill-formed if it is a surrogate or
 * above 0x10FFFF; the UTFX_REPLACE conversions write U+FFFD for it (3 UTF-8
 * bytes, 1 UTF-16 unit). Validation keeps a running minimum and maximum over
 * a chunk and hands a chunk with an error to the scalar kernel (the same
 * offset on every tier);
 * lengths count per vector and add with saturation per chunk of
 * UTFXI_LENGTH_CHUNK values; tails are zero-masked vectors where the ISA has
 * them (V_MASKED_TAIL), else the scalar kernels. */
#ifndef UTFX_SIMD_GENERIC_UTF32_H
#define UTFX_SIMD_GENERIC_UTF32_H

#include "generic.h"

/* Lanes of ill-formed values. */
static inline vm32 g32_invalid(vu32 v) {
  return v32_or(v32_ge(v, 0x110000), v32_top_eq(v, 0xFFFFF800u, 0xD800));
}

/* The largest value of four vectors, and the smallest value - 0xD800 (mod
 * 2^32), which is below 0x800 exactly for surrogates. */
static inline void g32_extremes4(const char32_t *s, vu32 *top, vu32 *low) {
  vu32 a = v32_load(s), b = v32_load(s + V32_LANES);
  vu32 c = v32_load(s + 2 * V32_LANES), d = v32_load(s + 3 * V32_LANES);
  V_LOADED(a);
  V_LOADED(b);
  V_LOADED(c);
  V_LOADED(d);
  *top = v32_umax(v32_umax(a, b), v32_umax(c, d));
  *low = v32_umin(v32_umin(v32_sub(a, 0xD800), v32_sub(b, 0xD800)),
                  v32_umin(v32_sub(c, 0xD800), v32_sub(d, 0xD800)));
}

/* Values per validation chunk: the extremes are compared once per chunk
 * (per step, the compares and the branch cost as much as the scan); a chunk
 * with an error is scanned again by the scalar kernel for its offset. */
#define G32_VALIDATE_CHUNK 512

utfx_result G_NAME(validate_utf32)(const char32_t *s, size_t n) {
  size_t i = 0;
  utfx_result r;
  if (n >= G32_VALIDATE_CHUNK) {
    /* Vector-aligned loads from here on: the loop is load-bound, and a load
     * across two cache lines costs two (docs/perf-decisions.md,
     * 'UTF-32 validation'). */
    i = (size_t)(-(uintptr_t)s % (4 * V32_LANES)) / 4;
    r = utfxi_validate_utf32_scalar(s, i);
    if (r.status != UTFX_OK) return r;
  }
  while (n - i >= 4 * V32_LANES) {
    size_t step = 4 * V32_LANES, end = n - i >= G32_VALIDATE_CHUNK ? i + G32_VALIDATE_CHUNK
                                                                   : n - (n - i) % step;
    size_t j;
    vu32 top, low;
    g32_extremes4(s + i, &top, &low);
    for (j = i + step; j < end; j += step) {
      vu32 t, l;
      g32_extremes4(s + j, &t, &l);
      top = v32_umax(top, t);
      low = v32_umin(low, l);
    }
    if (v32_any(v32_or(v32_ge(top, 0x110000), v32_in_range(low, 0, 0x800)))) break;
    i = end;
  }
#ifndef V_MASKED_TAIL
  /* whole vectors of the tail (short inputs: fewer values for the scalar kernel) */
  while (n - i >= V32_LANES && !v32_any(g32_invalid(v32_load(s + i)))) i += V32_LANES;
#else
  if (n - i < 4 * V32_LANES) { /* no error so far: the tail, zero-padded */
    size_t j = i;
    while (j < n && !v32_any(g32_invalid(v32_load_tail(s + j, n - j)))) j += V32_LANES;
    if (j >= n) return utfxi_result(UTFX_OK, n, 0, 0);
  }
#endif
  r = utfxi_validate_utf32_scalar(s + i, n - i);
  return utfxi_result_after(&r, i, 0, 0);
}

/* 1 + (>= 0x80) + (>= 0x800) + (in 0x10000..0x10FFFF) bytes per value: an
 * ill-formed value counts 3, the length of U+FFFD. (A tier with a better
 * kernel of its own defines G_OWN_UTF8_LENGTH_FROM_UTF32.) */
#ifndef G_OWN_UTF8_LENGTH_FROM_UTF32
size_t G_NAME(utf8_length_from_utf32)(const char32_t *s, size_t n) {
  size_t i = 0, total = 0;
  while (n - i >= V32_LANES) {
    size_t end = n - i > UTFXI_LENGTH_CHUNK ? i + UTFXI_LENGTH_CHUNK : n, count = 0;
    for (; end - i >= V32_LANES; i += V32_LANES) {
      vu32 v = v32_load(s + i);
      count += V32_LANES + v32_count(v32_ge(v, 0x80)) + v32_count(v32_ge(v, 0x800)) +
               v32_count(v32_in_range(v, 0x10000, 0x100000));
    }
    total = utfxi_add_sat(total, count);
  }
#ifdef V_MASKED_TAIL
  {
    vu32 v = v32_load_tail(s + i, n - i); /* zeros count 1 each: not counted */
    return utfxi_add_sat(total, n - i + v32_count(v32_ge(v, 0x80)) + v32_count(v32_ge(v, 0x800)) +
                                    v32_count(v32_in_range(v, 0x10000, 0x100000)));
  }
#else
  return utfxi_add_sat(total, utfxi_utf8_length_from_utf32_scalar(s + i, n - i));
#endif
}
#endif

/* One unit per value, two for 0x10000..0x10FFFF. */
size_t G_NAME(utf16_length_from_utf32)(const char32_t *s, size_t n) {
  size_t i = 0, astral = 0;
  for (; n - i >= V32_LANES; i += V32_LANES)
    astral += v32_count(v32_in_range(v32_load(s + i), 0x10000, 0x100000));
#ifdef V_MASKED_TAIL
  astral += v32_count(v32_in_range(v32_load_tail(s + i, n - i), 0x10000, 0x100000));
  return utfxi_add_sat(n, astral);
#else
  return utfxi_add_sat(utfxi_add_sat(i, astral),
                       utfxi_utf16_length_from_utf32_scalar(s + i, n - i));
#endif
}

#endif
