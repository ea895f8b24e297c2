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

/* Four vectors from s, loaded in address order and kept where loaded
 * (v32_load_seq, V_LOADED). */
static inline void g32_load4_seq(const char32_t *s, vu32 v[4]) {
  v[0] = v32_load_seq(s);
  v[1] = v32_load_seq(s + V32_LANES);
  v[2] = v32_load_seq(s + 2 * V32_LANES);
  v[3] = v32_load_seq(s + 3 * V32_LANES);
  V_LOADED(v[0]);
  V_LOADED(v[1]);
  V_LOADED(v[2]);
  V_LOADED(v[3]);
}

/* The largest value of four vectors, and the smallest of their surrogate
 * keys (v32_surrogate_keys: below 0x800 exactly for a surrogate; a value
 * above 0xFFFF may get any key of 0x800 and up, and the maximum catches those
 * above 0x10FFFF). Keys take one narrowing for two vectors, so a vector costs
 * two and a half operations, not three (docs/perf-decisions.md,
 * 'UTF-32 validation'). */
static inline void g32_extremes4(const char32_t *s, vu32 *top, vu16 *low) {
  vu32 v[4];
  g32_load4_seq(s, v);
  *top = v32_umax(v32_umax(v[0], v[1]), v32_umax(v[2], v[3]));
  *low = v16_umin(v32_surrogate_keys(v[0], v[1]), v32_surrogate_keys(v[2], v[3]));
}

/* The same for eight vectors, joined into the running extremes: a loop
 * turn of eight loads, not four (docs/perf-decisions.md, 'Read loops:
 * loads in address order, eight vectors a turn'). */
UTFXI_INLINE void g32_extremes8_into(const char32_t *s, vu32 *top, vu16 *low) {
  vu32 t, u;
  vu16 l, m;
  g32_extremes4(s, &t, &l);
  g32_extremes4(s + 4 * V32_LANES, &u, &m);
  *top = v32_umax(*top, v32_umax(t, u));
  *low = v16_umin(*low, v16_umin(l, m));
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
#ifdef V_MASKED_TAIL
    /* one masked test of the head (zero-padded), the scalar kernel only
     * for the error's offset (docs/perf-decisions.md, 'UTF-32 aligning
     * heads: one masked step') */
    if (i && UTFXI_UNLIKELY(v32_any(g32_invalid(v32_load_tail(s, i)))))
      return utfxi_validate_utf32_scalar(s, i);
#else
    r = utfxi_validate_utf32_scalar(s, i);
    if (r.status != UTFX_OK) return r;
#endif
  }
  if (n - i >= 4 * V32_LANES) {
    /* the extremes run over the chunks: a chunk is judged with those before
     * it, which passed */
    vu32 top = v32_splat(0);
    vu16 low = v16_splat(0xFFFF);
    do {
      size_t step = 4 * V32_LANES, end = n - i >= G32_VALIDATE_CHUNK ? i + G32_VALIDATE_CHUNK
                                                                     : n - (n - i) % step;
      size_t j = i;
      for (; end - j >= 2 * step; j += 2 * step) g32_extremes8_into(s + j, &top, &low);
      if (j < end) {
        vu32 t;
        vu16 l;
        g32_extremes4(s + j, &t, &l);
        top = v32_umax(top, t);
        low = v16_umin(low, l);
      }
      if (v32_any(v32_ge(top, 0x110000)) || v16_any(v16_below(low, 0x800))) break;
      i = end;
    } while (n - i >= 4 * V32_LANES);
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
/* A mask count per vector from i on, and the tail: short inputs (a
 * reduction of lane counts costs more than it saves there). */
UTFXI_INLINE size_t g32_utf16_length_rest(const char32_t *s, size_t n, size_t i, size_t astral) {
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

/* Longer inputs: the astral values counted in the lanes of two vectors of
 * counts (no mask move and popcount per vector), summed once per chunk of
 * UTFXI_LENGTH_CHUNK values (no lane can wrap); from i on, with astral
 * counted before it. */
UTFXI_INLINE size_t g32_utf16_length4(const char32_t *s, size_t n, size_t i, size_t astral) {
  while (n - i >= 4 * V32_LANES) {
    size_t end = n - i > UTFXI_LENGTH_CHUNK ? i + UTFXI_LENGTH_CHUNK : n;
    vu32 acc0 = v32_splat(0), acc1 = acc0;
    for (; end - i >= 4 * V32_LANES; i += 4 * V32_LANES) {
      vu32 a = v32_load(s + i), b = v32_load(s + i + V32_LANES);
      vu32 c = v32_load(s + i + 2 * V32_LANES), d = v32_load(s + i + 3 * V32_LANES);
      acc0 = v32_count_in_range(acc0, a, 0x10000, 0x100000);
      acc1 = v32_count_in_range(acc1, b, 0x10000, 0x100000);
      acc0 = v32_count_in_range(acc0, c, 0x10000, 0x100000);
      acc1 = v32_count_in_range(acc1, d, 0x10000, 0x100000);
    }
    astral += v32_sum(v32_add(acc0, acc1));
  }
  return g32_utf16_length_rest(s, n, i, astral);
}

#ifdef V32_PLANES4
/* Where the vocabulary makes planes cheaply (V32_PLANES4): turns of eight
 * vectors in address order, as validate_utf32's, each value's plane byte
 * made nonzero-or-not (minimum with 1) and summed per byte lane for a run
 * of up to G32_PLANES_TURNS turns (2 a lane a turn: no lane passes 254),
 * their maximum kept: a run whose planes pass 0x10 holds an ill-formed
 * value (1 unit, maybe counted 2) and is counted again by
 * g32_utf16_length4 (docs/perf-decisions.md, 'UTF-16 length of UTF-32,
 * avx2, planes'). */
#define G32_PLANES_TURNS 127
UTFXI_INLINE vu8 g32_planes4(const char32_t *s) {
  vu32 v[4];
  g32_load4_seq(s, v);
  return v32_planes4(v[0], v[1], v[2], v[3]);
}
UTFXI_INLINE size_t g32_utf16_length(const char32_t *s, size_t n) {
  size_t i = 0, astral = 0;
  vu8 one, c10;
  V_CONST8(one, 1);
  V_CONST8(c10, 0x10);
  while (n - i >= 8 * V32_LANES) {
    size_t turns = (n - i) / (8 * V32_LANES), from = i, k;
    vu8 acc = v_zero(), top = v_zero();
    if (turns > G32_PLANES_TURNS) turns = G32_PLANES_TURNS;
    for (k = 0; k < turns; k++, i += 8 * V32_LANES) {
      vu8 p = g32_planes4(s + i), q = g32_planes4(s + i + 4 * V32_LANES);
      top = v_umax(top, v_umax(p, q));
      acc = v_add(acc, v_add(v_umin(p, one), v_umin(q, one)));
    }
    if (UTFXI_UNLIKELY(v_any(v_subs(top, c10))))
      astral += g32_utf16_length4(s + from, i - from, 0, 0) - (i - from);
    else
      astral += (size_t)v_sum_lanes(v_sum_bytes(v_zero(), acc));
  }
  return g32_utf16_length4(s, n, i, astral);
}
#else
UTFXI_INLINE size_t g32_utf16_length(const char32_t *s, size_t n) {
  return g32_utf16_length4(s, n, 0, 0);
}
#endif

/* The lane counts from 16 vectors on (below, short calls were slower than
 * with the mask counts: docs/perf-decisions.md, 'UTF-8 / UTF-16 lengths of
 * UTF-32 against validation'); the short path
 * first. Long inputs count the values before the first vector-aligned
 * address first (the loop is load-bound, and a load across two cache lines
 * costs two), by one masked count where the ISA masks, else in a loop
 * here: a call to the scalar kernel gave every call a frame. */
size_t G_NAME(utf16_length_from_utf32)(const char32_t *s, size_t n) {
  if (UTFXI_UNLIKELY(n >= 16 * V32_LANES)) {
    size_t k = 0, astral = 0;
    if (UTFXI_ALIGN_HEAD(*s, n)) {
      k = utfxi_aligning_step(s, 4, V_BYTES, 0, 1);
#ifdef V_MASKED_TAIL
      astral = v32_count(v32_in_range(v32_load_tail(s, k), 0x10000, 0x100000));
#else
      {
        size_t j;
        for (j = 0; j < k; j++) astral += s[j] - 0x10000u < 0x100000u;
      }
#endif
    }
    return k + astral + g32_utf16_length(s + k, n - k);
  }
  return g32_utf16_length_rest(s, n, 0, 0);
}

/* ---- UTF-32 to UTF-16LE/BE and UTF-8 (vocabularies with V32_UTF16_ROOM,
 * V32_UTF8_ROOM) ---- */
#if defined(V32_UTF16_ROOM) || defined(V32_UTF8_ROOM)

/* The constants of the steps, built once per call and kept in registers
 * (V_CONST32: rebuilt inside the loop they cost a GPR move and a broadcast
 * each on AVX-512). */
struct g32_consts {
  vu32 minus_d800, below_800, c10000, c110000, minus_10000, low10, pair_bias, fffd, c80, c800;
#ifdef V32_UTF8_BMP_UNITS
  vu16 f800, d800; /* (units: v32_utf8_bmp2) */
#endif
};

UTFXI_INLINE void g32_consts_init(struct g32_consts *k, int utf8) {
  V_CONST32(k->minus_d800, 0u - 0xD800u);
  V_CONST32(k->below_800, 0x7FF);
  V_CONST32(k->c10000, 0x10000);
  V_CONST32(k->c110000, 0x110000);
  V_CONST32(k->minus_10000, 0u - 0x10000u);
  V_CONST32(k->low10, 0x3FF);
  V_CONST32(k->pair_bias, 0xDC00D800u);
  V_CONST32(k->fffd, 0xFFFD);
  if (utf8) { /* (UTF-16 output does not use them; made, they were spilled) */
    V_CONST32(k->c80, 0x80);
    V_CONST32(k->c800, 0x800);
#ifdef V32_UTF8_BMP_UNITS
    V_CONST16(k->f800, 0xF800);
    V_CONST16(k->d800, 0xD800);
#endif
  }
}

/* Whether every value of top (the largest of some) is below 0x10000 and no
 * value of low (the smallest of them - 0xD800, mod 2^32) below 0x800: all
 * BMP scalar values, no surrogate. */
UTFXI_INLINE int g32_bmp(const struct g32_consts *k, vu32 top, vu32 low) {
  return !v32_any(v32_or(v32_at_least(top, k->c10000), v32_at_least(k->below_800, low)));
}
UTFXI_INLINE int g32_bmp2(const struct g32_consts *k, vu32 a, vu32 b) {
  return g32_bmp(k, v32_umax(a, b), v32_umin(v32_add(a, k->minus_d800), v32_add(b, k->minus_d800)));
}
UTFXI_INLINE int g32_bmp4(const struct g32_consts *k, vu32 a, vu32 b, vu32 c, vu32 e) {
  return g32_bmp(k, v32_umax(v32_umax(a, b), v32_umax(c, e)),
                 v32_umin(v32_umin(v32_add(a, k->minus_d800), v32_add(b, k->minus_d800)),
                          v32_umin(v32_add(c, k->minus_d800), v32_add(e, k->minus_d800))));
}

/* The UTF-8 steps' BMP check of two vectors: the vocabulary's where it has
 * a cheaper one (V32_UTF8_BMP_UNITS: AVX2; docs/perf-decisions.md, 'UTF-32
 * -> UTF-8'). */
#ifdef V32_UTF8_BMP_UNITS
#define G32_UTF8_BMP2(k, a, b) v32_utf8_bmp2((a), (b), (k)->f800, (k)->d800)
#else
#define G32_UTF8_BMP2(k, a, b) g32_bmp2(k, a, b)
#endif

/* Lanes of ill-formed values: surrogates, values above 0x10FFFF. */
UTFXI_INLINE vm32 g32_bad(const struct g32_consts *k, vu32 v) {
  return v32_or(v32_at_least(k->below_800, v32_add(v, k->minus_d800)), v32_at_least(v, k->c110000));
}

/* *v with its ill-formed values U+FFFD (REPLACE mode; counted in
 * *replaced); 0 (v as it was) where one is ill-formed in STRICT mode. */
UTFXI_INLINE int g32_replace(const struct g32_consts *k, vu32 *v, unsigned flags,
                             size_t *replaced) {
  vm32 bad = g32_bad(k, *v);
  if (v32_any(bad)) {
    if (!(flags & UTFX_REPLACE)) return 0;
    *v = v32_select(bad, k->fffd, *v);
    *replaced += v32_count(bad);
  }
  return 1;
}

#endif

#ifdef V32_UTF16_ROOM

#ifndef V32_UTF16_STAY_IN_RUN
#define V32_UTF16_STAY_IN_RUN 0
#endif

/* The units of a then b, BMP scalar values, to d. */
UTFXI_INLINE void g32_put_bmp2(char16_t *d, vu32 a, vu32 b, int be) {
  vu16 u = v32_pack_units(a, b);
  v16_store(d, be ? v16_bswap(u) : u);
}

UTFXI_INLINE utfx_result g32_to_utf16_scalar(const char32_t *s, size_t n, char16_t *d, size_t cap,
                                             unsigned flags, int be) {
  return be ? utfxi_convert_utf32_to_utf16be_scalar(s, n, d, cap, flags)
            : utfxi_convert_utf32_to_utf16le_scalar(s, n, d, cap, flags);
}

/* One vector: BMP values narrow; where there is an astral value, they
 * make surrogate pairs in their lanes, packed by v32_store_utf16. Returns
 * the units written; -1 for STRICT mode's ill-formed value (the scalar
 * kernel takes over at the vector). */
UTFXI_INLINE ptrdiff_t g32_utf16_step(const struct g32_consts *k, vu32 v, char16_t *d,
                                      unsigned flags, size_t *replaced, int be) {
  vu32 x, pair;
  vm32 astral;
  if (!g32_replace(k, &v, flags, replaced)) return -1;
  astral = v32_at_least(v, k->c10000);
  if (!v32_any(astral)) {
    v32_store_units16(d, v, be);
    return V32_LANES;
  }
  /* (high surrogate) | (low surrogate) << 16 in astral lanes */
  x = v32_add(v, k->minus_10000);
  pair = v32_or_values(v32_or_values(v32_shr(x, 10), k->pair_bias),
                       v32_shl(v32_and_values(x, k->low10), 16));
  return (ptrdiff_t)v32_store_utf16(d, v32_select(astral, pair, v), astral, be);
}

/* Steps: two vectors of BMP values (then runs of them); where a pair has
 * an astral value or an ill-formed one, both vectors one at a time before
 * the next test of a pair (not the second vector again in a new pair:
 * text with astral values among BMP ones paid a second failed test). An
 * ill-formed value (a surrogate, or above 0x10FFFF) is U+FFFD in REPLACE
 * mode; in STRICT mode the scalar kernel takes over at its vector and
 * reports it. A step runs only where its output surely fits; the scalar
 * kernel does the rest and the tail. */
UTFXI_INLINE utfx_result g32_to_utf16_body(const char32_t *s, size_t n, char16_t *d, size_t cap,
                                           unsigned flags, int be) {
  size_t i = 0, w = 0, replaced = 0;
  struct g32_consts k;
  utfx_result r;
  ptrdiff_t u;
  int j;
  g32_consts_init(&k, 0);
  while (n - i >= V32_LANES && cap - w >= V32_UTF16_ROOM) {
    vu32 v = v32_load(s + i);
    if (n - i >= 2 * V32_LANES) {
      vu32 v1 = v32_load(s + i + V32_LANES);
      if (g32_bmp2(&k, v, v1)) {
        g32_put_bmp2(d + w, v, v1, be);
        i += 2 * V32_LANES;
        w += 2 * V32_LANES;
        /* a run of BMP values: four vectors a test while it lasts, in a
         * loop of its own (few live values, nothing spilled); entered only
         * from a BMP step, so that text with astral values does not pay
         * for it at every vector */
        while (n - i >= 4 * V32_LANES && cap - w >= 4 * V32_LANES) {
          vu32 a = v32_load(s + i), b = v32_load(s + i + V32_LANES);
          vu32 c = v32_load(s + i + 2 * V32_LANES), e = v32_load(s + i + 3 * V32_LANES);
          if (!g32_bmp4(&k, a, b, c, e)) {
            /* where the tier chooses it (V32_UTF16_STAY_IN_RUN), the four
             * one at a time and on with the run: leaving it, text with a
             * few astral values paid a pair test and a new entry for each
             * (docs/perf-decisions.md) */
            if (!V32_UTF16_STAY_IN_RUN || cap - w < 4 * V32_UTF16_ROOM) break;
            for (j = 0; j < 4; j++) {
              if ((u = g32_utf16_step(&k, v32_load(s + i), d + w, flags, &replaced, be)) < 0)
                goto strict;
              w += (size_t)u;
              i += V32_LANES;
            }
            continue;
          }
          g32_put_bmp2(d + w, a, b, be);
          g32_put_bmp2(d + w + 2 * V32_LANES, c, e, be);
          i += 4 * V32_LANES;
          w += 4 * V32_LANES;
        }
        continue;
      }
      if ((u = g32_utf16_step(&k, v, d + w, flags, &replaced, be)) < 0) break;
      w += (size_t)u;
      i += V32_LANES;
      if (cap - w < V32_UTF16_ROOM) break;
      v = v1;
    }
    if ((u = g32_utf16_step(&k, v, d + w, flags, &replaced, be)) < 0) break;
    w += (size_t)u;
    i += V32_LANES;
  }
strict:
  if (i == n) return utfxi_result(UTFX_OK, n, w, replaced);
  r = g32_to_utf16_scalar(s + i, n - i, d + w, cap - w, flags, be);
  return utfxi_result_after(&r, i, w, replaced);
}

#ifdef V_MASKED_TAIL
/* Whether the first k values at s (k < V32_LANES) are BMP scalar values:
 * one masked load (zeros after them pass). */
UTFXI_INLINE int g32_head_bmp(const char32_t *s, size_t k) {
  vu32 v = v32_load_tail(s, k);
  return !v32_any(v32_or(v32_ge(v, 0x10000), v32_top_eq(v, 0xFFFFF800u, 0xD800)));
}
#endif

/* The body after a head: a long input starts with the values that make
 * the source vector-aligned, by the scalar kernel (the loops load two
 * times the bytes they store, and a load across two cache lines costs two;
 * values are independent, so any cut is a character boundary); where the
 * ISA masks (V_MASKED_TAIL), a head of BMP values by one masked load and
 * store (docs/perf-decisions.md, 'UTF-32 aligning heads: one masked
 * step'). Outside the body: inside it, it slowed short inputs (the body's
 * registers). */
UTFXI_INLINE utfx_result g32_to_utf16(const char32_t *s, size_t n, char16_t *d, size_t cap,
                                      unsigned flags, int be) {
  size_t k = 0;
  utfx_result h = utfxi_result(UTFX_OK, 0, 0, 0), r;
  if (UTFXI_ALIGN_HEAD(*s, n) && (uintptr_t)s % V_BYTES) {
    k = utfxi_aligning_step(s, 4, V_BYTES, 0, 1);
#ifdef V_MASKED_TAIL
    if (cap >= k && g32_head_bmp(s, k)) { /* (most text: one masked copy) */
      vu16 u = v32_pack_units(v32_load_tail(s, k), v32_splat(0));
      v16_store_tail(d, k, be ? v16_bswap(u) : u);
      h.written = k;
    } else
#endif
    {
      h = g32_to_utf16_scalar(s, k, d, cap, flags, be);
      if (h.status != UTFX_OK) return h;
    }
  }
  r = g32_to_utf16_body(s + k, n - k, d + h.written, cap - h.written, flags, be);
  return utfxi_result_after(&r, k, h.written, h.replaced);
}

UTFXI_CONVERT_ENTRY(G_NAME(convert_utf32_to_utf16le), char32_t, char16_t, g32_to_utf16, 0)
UTFXI_CONVERT_ENTRY(G_NAME(convert_utf32_to_utf16be), char32_t, char16_t, g32_to_utf16, 1)

#endif

/* ---- UTF-32 to UTF-8 (vocabularies with V32_UTF8_ROOM) ---- */
#ifdef V32_UTF8_ROOM

/* Steps: four vectors of ASCII values a test while they last (one pack,
 * one store), in a loop of its own; else two vectors below 0x800 (1- and
 * 2-byte forms) or of BMP values without surrogates (1 to 3 bytes), and a
 * run of the same kind in a loop of its own (few live values; the run
 * below 0x800 goes on through ASCII blocks: leaving it for the ASCII loop
 * slowed 2-byte text), each step
 * loading the next block first: when the run goes on, a step's store may
 * spill past its output (the next step's store covers it), and a run
 * that ends hands the block it looked at to the next step (without it the
 * ASCII test and the loads were done again); else one vector of any plane
 * (no test for one vector of ASCII first: it slowed Emoji text and gained
 * nothing on Mixed; figures in docs/perf-decisions.md, 'UTF-32 -> UTF-8').
 * An ill-formed value (a surrogate, or above 0x10FFFF) is U+FFFD in REPLACE
 * mode; in STRICT mode the scalar kernel takes over at
 * its vector and reports it. bounded: a step runs only where its output
 * surely fits (V32_UTF8_ROOM bytes); else the destination holds 4 bytes a
 * value and the room, and nothing is checked. The tail, and the steps
 * where the room is short of V32_UTF8_ROOM: masked steps (V_MASKED_TAIL)
 * while their output fits, else the scalar kernel (at n = 16 on avx512 the
 * scalar kernel took twice the time). */
UTFXI_INLINE utfx_result g32_to_utf8_body(const char32_t *s, size_t n, unsigned char *d,
                                          size_t cap, unsigned flags, int bounded) {
  size_t i = 0, w = 0, replaced = 0;
  struct g32_consts k;
  struct v32_utf8_k e;
  utfx_result r;
  g32_consts_init(&k, 1);
  v32_utf8_k_init(&e);
#define G32_FITS(room) (!bounded || cap - w >= (room))
  vu32 v = v32_splat(0), v1 = v, a = v, b = v;
  int ahead = 0; /* a run's look-ahead left the next two vectors in a, b */
  while (n - i >= V32_LANES && G32_FITS(V32_UTF8_ROOM)) {
    if (ahead) { /* of another kind than the run: no ASCII, no reload */
      v = a;
      v1 = b;
      ahead = 0;
    } else {
      while (n - i >= 4 * V32_LANES && G32_FITS(4 * V32_LANES)) {
        vu32 p = v32_load(s + i), q = v32_load(s + i + V32_LANES);
        vu32 c = v32_load(s + i + 2 * V32_LANES), x = v32_load(s + i + 3 * V32_LANES);
        if (v32_any(v32_at_least(v32_or_values(v32_or_values(p, q), v32_or_values(c, x)), k.c80)))
          break;
        v_store(d + w, v32_pack_bytes(p, q, c, x));
        i += 4 * V32_LANES;
        w += 4 * V32_LANES;
      }
      if (n - i < V32_LANES || !G32_FITS(V32_UTF8_ROOM)) break;
      v = v32_load(s + i);
      if (n - i >= 2 * V32_LANES) v1 = v32_load(s + i + V32_LANES);
    }
    if (n - i >= 2 * V32_LANES) {
      vu32 top = v32_umax(v, v1);
      if (!v32_any(v32_at_least(top, k.c800))) {
        if (!v32_any(v32_at_least(top, k.c80))) { /* ASCII: short inputs, tails */
          v32_store_bytes(d + w, v);
          v32_store_bytes(d + w + V32_LANES, v1);
          i += 2 * V32_LANES;
          w += 2 * V32_LANES;
          continue;
        }
        for (;;) { /* the next block: also below 0x800? */
          int more = ahead = n - i >= 4 * V32_LANES && G32_FITS(V32_UTF8_ROOM + 4 * V32_LANES);
          if (more) {
            a = v32_load(s + i + 2 * V32_LANES);
            b = v32_load(s + i + 3 * V32_LANES);
            more = !v32_any(v32_at_least(v32_umax(a, b), k.c800));
          }
          w += v32_store_utf8_below800(d + w, v, v1, &e, more);
          i += 2 * V32_LANES;
          if (!more) break;
          v = a;
          v1 = b;
        }
        continue;
      }
      if (G32_UTF8_BMP2(&k, v, v1)) {
        for (;;) {
          int more = ahead = n - i >= 4 * V32_LANES && G32_FITS(V32_UTF8_ROOM + 6 * V32_LANES);
          if (more) {
            a = v32_load(s + i + 2 * V32_LANES);
            b = v32_load(s + i + 3 * V32_LANES);
            more = G32_UTF8_BMP2(&k, a, b);
          }
          w += v32_store_utf8_bmp(d + w, v, v1, &e, more);
          i += 2 * V32_LANES;
          if (!more) break;
          v = a;
          v1 = b;
        }
        continue;
      }
    }
    if (!g32_replace(&k, &v, flags, &replaced)) break;
    w += v32_store_utf8(d + w, v, &e);
    i += V32_LANES;
    if (n - i >= V32_LANES) { /* (v1, loaded: the next step's, no ASCII test) */
      a = v1;
      if (n - i >= 2 * V32_LANES) b = v32_load(s + i + V32_LANES);
      ahead = 1;
    }
  }
#undef G32_FITS
#ifdef V_MASKED_TAIL
  while (i < n) { /* the tail, or where the room is short: exact steps */
    size_t m = n - i < V32_LANES ? n - i : V32_LANES, len;
    vm32 bad;
    v = v32_load_tail(s + i, m); /* zeros after the values: valid */
    bad = g32_bad(&k, v);
    if (v32_any(bad) && !(flags & UTFX_REPLACE)) break;
    if (!v32_any(v32_at_least(v, k.c80))) { /* ASCII: a byte a value */
      if (cap - w < m) break;
      v32_store_bytes_tail(d + w, m, v);
      len = m;
    } else {
      len = v32_store_utf8_tail(d + w, v32_select(bad, k.fffd, v), m, cap - w, &e);
      if (!len) break;
    }
    w += len;
    replaced += v32_count(bad);
    i += m;
  }
#endif
  if (i == n) return utfxi_result(UTFX_OK, n, w, replaced);
  r = utfxi_convert_utf32_to_utf8_scalar(s + i, n - i, (char *)d + w, cap - w, flags);
  return utfxi_result_after(&r, i, w, replaced);
}

/* The body after a head, as g32_to_utf16; unbounded where the destination
 * holds 4 bytes a value and V32_UTF8_ROOM bytes more. */
utfx_result G_NAME(convert_utf32_to_utf8)(const char32_t *s, size_t n, char *d, size_t cap,
                                          unsigned flags) {
  size_t k = 0, room;
  utfx_result h = utfxi_result(UTFX_OK, 0, 0, 0), r;
  unsigned char *o;
  if (UTFXI_ALIGN_HEAD(*s, n) && (uintptr_t)s % V_BYTES) {
    k = utfxi_aligning_step(s, 4, V_BYTES, 0, 1);
#ifdef V_MASKED_TAIL
    if (cap >= k && !v32_any(v32_ge(v32_load_tail(s, k), 0x80))) { /* ASCII: one masked store */
      v32_store_bytes_tail(d, k, v32_load_tail(s, k));
      h.written = k;
    } else
#endif
    {
      h = utfxi_convert_utf32_to_utf8_scalar(s, k, d, cap, flags);
      if (h.status != UTFX_OK) return h;
    }
  }
  o = (unsigned char *)d + h.written;
  room = cap - h.written;
  if (room >= V32_UTF8_ROOM && (room - V32_UTF8_ROOM) / 4 >= n - k)
    r = g32_to_utf8_body(s + k, n - k, o, room, flags, 0);
  else
    r = g32_to_utf8_body(s + k, n - k, o, room, flags, 1);
  return utfxi_result_after(&r, k, h.written, h.replaced);
}

#endif

#endif
