/* UTF-16LE/BE to UTF-32, STRICT and REPLACE, at any vector width (the
 * vocabulary of generic.h and its widening words v16_store_utf32,
 * v16_store_utf32_paired).
 *
 * Steps of one vector (V16_UNITS units), each unit host-order after the load:
 *  - Runs without surrogates: two vectors a test (on the units as they lie
 *    in memory; a byte swap only for what is stored), zero-extended, in a
 *    loop of their own. After a run stops at a surrogate the vectors go one
 *    at a time for `backoff` units (doubled per failed run, back to the
 *    start after a run that made progress): surrogate-dense text would fail
 *    every run test.
 *  - A vector without surrogates: zero-extended.
 *  - With surrogates, each unit is paired against the unit after it (a
 *    second load, one unit on), so a pair across two vectors is seen whole:
 *    the first vector writes its code point at the high half, the second
 *    drops the low half (`carry`). A vector of pairs in its 32-bit lanes (of
 *    the units one on, after a carried low half) becomes code points in
 *    place, one store (emoji text); else each high half's lane gets the
 *    pair's code point and the low halves' lanes are compressed out
 *    (v16_store_utf32_paired: a table shuffle or VPCOMPRESSD).
 *  - A vector with a lone surrogate goes to the scalar kernel (with the unit
 *    after it when it ends inside a pair), so U+FFFD, STRICT errors and a
 *    full destination are the scalar kernel's by construction.
 * A step runs only where its output surely fits (V16_UTF32_ROOM values of
 * room); the tail is masked steps (V_MASKED_TAIL) while their output fits,
 * else the scalar kernel.
 * References: Lemire & Mula 2022 (see generic_utf16.h); Clausecker &
 * Lemire, "Transcoding Unicode characters with AVX-512 instructions",
 * Software: Practice and Experience 53(12), 2023. */
#ifndef UTFX_SIMD_GENERIC_UTF16_TO_UTF32_H
#define UTFX_SIMD_GENERIC_UTF16_TO_UTF32_H

#include "generic_utf16.h"

/* The bits of one vector's units in a v16_bits2 mask (the first operand's),
 * and of its last unit. */
#define G1632_BITS (V16_UNITS * V16_UNIT_BITS)
#define G1632_ALL (((uint64_t)1 << G1632_BITS) - 1)
#define G1632_LAST (G16_UNIT << ((V16_UNITS - 1) * V16_UNIT_BITS))

/* Units the vectors go one at a time after a failed run, at first and at
 * most. */
#define G1632_BACKOFF_MIN (2 * V16_UNITS)
#define G1632_BACKOFF_MAX (128 * V16_UNITS)

UTFXI_INLINE utfx_result g1632_scalar(const char16_t *s, size_t n, char32_t *d, size_t cap,
                                      unsigned flags, int be) {
  return be ? utfxi_convert_utf16be_to_utf32_scalar(s, n, d, cap, flags)
            : utfxi_convert_utf16le_to_utf32_scalar(s, n, d, cap, flags);
}

/* The constants of the steps, made once per call and kept in registers
 * (V_LOADED: made again inside the loop, each cost a move to a general
 * register and a broadcast on AVX-512). A pair's code point is
 * (high << 10) + low + offset (mod 2^32). */
struct g1632_k {
  vu16 f800, fc00, d800, dc00;
  vu32 offset, top2, pair2;
};

UTFXI_INLINE void g1632_k_init(struct g1632_k *k) {
  k->f800 = v16_splat(0xF800);
  k->fc00 = v16_splat(0xFC00);
  k->d800 = v16_splat(0xD800);
  k->dc00 = v16_splat(0xDC00);
  k->offset = v32_splat(0x10000u - (0xD800u << 10) - 0xDC00u);
  k->top2 = v32_splat(0xFC00FC00u);
  k->pair2 = v32_splat(0xDC00D800u);
  V_LOADED(k->f800);
  V_LOADED(k->fc00);
  V_LOADED(k->d800);
  V_LOADED(k->dc00);
  V_LOADED(k->offset);
  V_LOADED(k->top2);
  V_LOADED(k->pair2);
}

/* If the 32-bit lanes of x are all pairs (the high half in the low 16
 * bits), stores their code points at d and returns 1. */
UTFXI_INLINE int g1632_put_pairs(char32_t *d, vu32 x, const struct g1632_k *k) {
  if (!v32_all(v32_eq(v32_and_values(x, k->top2), k->pair2))) return 0;
  v32_store(d, v32_add(v32_add(v32_shr(v32_shl(x, 16), 6), v32_shr(x, 16)), k->offset));
  return 1;
}

/* Units from i (whose first is a written low half when carry is set) to the
 * end of the vector of k units there, and the unit after it if that ends a
 * pair, by the scalar kernel; returns 0, or 1 with *r its result to stop
 * with (offsets made whole). */
UTFXI_INLINE int g1632_scalar_vector(const char16_t *s, size_t n, size_t *pi, size_t k,
                                     uint64_t carry, char32_t *d, size_t cap, size_t *pw,
                                     unsigned flags, int be, size_t *replaced, utfx_result *r) {
  size_t start = *pi + (carry ? 1 : 0), end = *pi + k;
  if (end < n && g16_is_high(s, end - 1, be) && g16_is_low(s, end, be)) end++;
  *r = g1632_scalar(s + start, end - start, d + *pw, cap - *pw, flags, be);
  *replaced += r->replaced;
  if (r->status != UTFX_OK) {
    *r = utfxi_result(r->status, start + r->read, *pw + r->written, *replaced);
    return 1;
  }
  *pi = end;
  *pw += r->written;
  return 0;
}

UTFXI_INLINE utfx_result g1632_body(const char16_t *s, size_t n, char32_t *d, size_t cap,
                                    unsigned flags, int be) {
  size_t i = 0, w = 0, replaced = 0, screen_from = 0, backoff = G1632_BACKOFF_MIN, start;
  uint64_t carry = 0; /* G16_UNIT: unit i is the low half of a pair already written */
  utfx_result r;
  struct g1632_k c;
  g1632_k_init(&c);
  while (n - i >= V16_UNITS && cap - w >= V16_UNITS) {
    vu16 v, nx;
    vm16 high;
    uint64_t m, hi, lo, bad;
    if (!carry && i >= screen_from && n - i >= 2 * V16_UNITS && cap - w >= 2 * V16_UNITS) {
      start = i;
      do {
        vu16 a = v16_load_raw(s + i), b = v16_load_raw(s + i + V16_UNITS);
        if (g16_any_surrogate_x2(a, b, be)) break;
        v16_store_utf32(d + w, be ? v16_bswap(a) : a);
        v16_store_utf32(d + w + V16_UNITS, be ? v16_bswap(b) : b);
        i += 2 * V16_UNITS;
        w += 2 * V16_UNITS;
      } while (n - i >= 2 * V16_UNITS && cap - w >= 2 * V16_UNITS);
      if (i != start) backoff = G1632_BACKOFF_MIN;
      screen_from = i + backoff;
      if (backoff < G1632_BACKOFF_MAX) backoff *= 2;
      continue;
    }
    v = v16_load(s + i, be);
    if (!carry && !v16_any(v16_top_eq_k(v, c.f800, c.d800))) {
      v16_store_utf32(d + w, v);
      i += V16_UNITS;
      w += V16_UNITS;
      continue;
    }
    if (n - i == V16_UNITS || cap - w < V16_UTF32_ROOM) break; /* (nx would be past the end) */
    nx = v16_load(s + i + 1, be);
    if (g1632_put_pairs(d + w, v16_as_v32(carry ? nx : v), &c)) {
      /* Emoji text: vectors of pairs follow one another, each with the
       * same carry; a loop of their own keeps the rest of the body out of
       * the way */
      const size_t on = carry ? 1 : 0;
      do {
        i += V16_UNITS;
        w += V16_UNITS / 2;
      } while (n - i >= V16_UNITS + 1 && cap - w >= V16_UTF32_ROOM &&
               g1632_put_pairs(d + w, v16_as_v32(v16_load(s + i + on, be)), &c));
      continue;
    }
    high = v16_top_eq_k(v, c.fc00, c.d800);
    m = v16_bits2(high, v16_top_eq_k(v, c.fc00, c.dc00));
    hi = m & G1632_ALL;
    lo = m >> G1632_BITS;
    bad = (hi & ~(lo >> V16_UNIT_BITS | (g16_is_low(s, i + V16_UNITS, be) ? G1632_LAST : 0))) |
          (lo & ~(hi << V16_UNIT_BITS | carry));
    if (bad) {
      if (g1632_scalar_vector(s, n, &i, V16_UNITS, carry, d, cap, &w, flags, be, &replaced, &r))
        return r;
      carry = 0;
      continue;
    }
    w += v16_store_utf32_paired(d + w, v, nx, high, ~lo & G1632_ALL, c.offset, 0);
    carry = hi & G1632_LAST ? G16_UNIT : 0;
    i += V16_UNITS;
  }
#ifdef V_MASKED_TAIL
  while (i < n) { /* the tail, or where the room is short: exact steps */
    size_t k = n - i < V16_UNITS ? n - i : V16_UNITS, count;
    uint64_t last = G16_UNIT << ((k - 1) * V16_UNIT_BITS), m, hi, lo, bad;
    vu16 v = v16_load_tail(s + i, k, be), nx; /* (zeros after the k units: no surrogates) */
    vm16 high;
    if (!carry && !v16_any(v16_top_eq_k(v, c.f800, c.d800))) {
      if (cap - w < k) break;
      v16_store_utf32_tail(d + w, k, v);
      i += k;
      w += k;
      continue;
    }
    nx = v16_load_tail(s + i + 1, n - i - 1, be);
    high = v16_top_eq_k(v, c.fc00, c.d800);
    m = v16_bits2(high, v16_top_eq_k(v, c.fc00, c.dc00));
    hi = m & G1632_ALL;
    lo = m >> G1632_BITS;
    bad = (hi & ~(lo >> V16_UNIT_BITS | (n - i > k && g16_is_low(s, i + k, be) ? last : 0))) |
          (lo & ~(hi << V16_UNIT_BITS | carry));
    if (bad) {
      if (g1632_scalar_vector(s, n, &i, k, carry, d, cap, &w, flags, be, &replaced, &r)) return r;
      carry = 0;
      continue;
    }
    count = k - G16_COUNT(lo);
    if (count > cap - w) break;
    v16_store_utf32_paired(d + w, v, nx, high, ~lo & (last | (last - 1)), c.offset, 1);
    carry = hi & last ? G16_UNIT : 0;
    i += k;
    w += count;
  }
#endif
  if (i == n) return utfxi_result(UTFX_OK, n, w, replaced);
  start = i + (carry ? 1 : 0);
  r = g1632_scalar(s + start, n - start, d + w, cap - w, flags, be);
  return utfxi_result_after(&r, start, w, replaced);
}

/* The body after a first vector without surrogates, for an input of one
 * vector (nothing more to do: the body's constants would cost it), and for
 * a long input, whose first step is then of fewer units where that makes
 * the destination vector-aligned (the run loop is store-bound, and a
 * store across two cache lines costs two); only here: realigning at every
 * run slowed avx2 on mixed text (docs/perf-decisions.md, 'UTF-16 ->
 * UTF-32'). */
UTFXI_INLINE utfx_result g1632(const char16_t *s, size_t n, char32_t *d, size_t cap,
                               unsigned flags, int be) {
  size_t k = 0;
  utfx_result r;
  if (cap >= V16_UNITS && (n == V16_UNITS || (UTFXI_ALIGN_HEAD(*s, n) && (uintptr_t)d % V_BYTES))) {
    vu16 v = v16_load(s, be);
    if (!v16_any(v16_top_eq(v, 0xF800, 0xD800))) {
      v16_store_utf32(d, v);
      if (n == V16_UNITS) return utfxi_result(UTFX_OK, n, n, 0);
      k = utfxi_aligning_step(d, 4, V_BYTES, 0, 1);
    }
  }
  r = g1632_body(s + k, n - k, d + k, cap - k, flags, be);
  return utfxi_result_after(&r, k, k, 0);
}

UTFXI_CONVERT_ENTRY(G_NAME(convert_utf16le_to_utf32), char16_t, char32_t, g1632, 0)
UTFXI_CONVERT_ENTRY(G_NAME(convert_utf16be_to_utf32), char16_t, char32_t, g1632, 1)

#endif
