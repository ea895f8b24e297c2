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
 *  - Long calls (G1632_LONG, the tier's entry chooses by length): after
 *    the first run stops, steps of one vector, with no back-off and no
 *    more two-vector runs: mixed text meets a surrogate every few vectors.
 *    A step with surrogates writes V16_UNITS - 1 units, pairing each high
 *    half with the unit after it in the same vector (no second load), and
 *    carries a low half it wrote into the next step; its advance is a
 *    constant, so the next load never waits on this step's masks
 *    (docs/perf-decisions.md, 'UTF-16 -> UTF-32: the long calls' steps of
 *    V16_UNITS - 1 units'). Short calls keep the two-vector runs (in L1 one
 *    test per two vectors wins) in a function of their own, whose code the
 *    long form leaves as it was.
 *  - With surrogates, each unit is paired against the unit after it (a
 *    second load, one unit on), so a pair across two vectors is seen whole:
 *    the first vector writes its code point at the high half, the second
 *    drops the low half (`carry`). A vector of pairs in its 32-bit lanes (of
 *    the units one on, after a carried low half) becomes code points in
 *    place, one store (emoji text); else each high half's lane gets the
 *    pair's code point and the low halves' lanes are compressed out
 *    (v16_store_utf32_paired: a table shuffle or VPCOMPRESSD).
 *  - Long calls of big-endian units, where the vocabulary widens with the
 *    byte swap in one step (V16_WIDEN_BE, avx512's VPERMB): the units stay
 *    as they lie in memory, tested against byte-swapped constants
 *    (G1632_R, a form of the body of its own).
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

UTFXI_INLINE void g1632_k_init(struct g1632_k *k, int raw) {
  /* raw (G1632_R, below): big-endian units as they lie, tested against the
   * byte-swapped constants */
  k->f800 = v16_splat(raw ? 0x00F8 : 0xF800);
  k->fc00 = v16_splat(raw ? 0x00FC : 0xFC00);
  k->d800 = v16_splat(raw ? 0x00D8 : 0xD800);
  k->dc00 = v16_splat(raw ? 0x00DC : 0xDC00);
  k->offset = v32_splat(0x10000u - (0xD800u << 10) - 0xDC00u);
  k->top2 = v32_splat(raw ? 0x00FC00FCu : 0xFC00FC00u);
  k->pair2 = v32_splat(raw ? 0x00DC00D8u : 0xDC00D800u);
  V_LOADED(k->f800);
  V_LOADED(k->fc00);
  V_LOADED(k->d800);
  V_LOADED(k->dc00);
  V_LOADED(k->offset);
  V_LOADED(k->top2);
  V_LOADED(k->pair2);
}

/* Where the vocabulary widens big-endian units with their byte swap in one
 * step (V16_WIDEN_BE), the long calls' big-endian body (G1632_R, a form of
 * its own so that the others' code stays as it was) keeps the units as they
 * lie in memory (raw): the tests take byte-swapped constants, the stores
 * swap as they widen, and no vector is swapped before its test. */

/* Units at p as the body works on them: raw (G1632_R), else host order. */
UTFXI_INLINE vu16 g1632_load(const char16_t *p, int be, int raw) {
  return raw ? v16_load_raw(p) : v16_load(p, be);
}

/* Host-order units v (raw units where raw, with wbe the widening's
 * constants) widened to d. */
#ifdef V16_WIDEN_BE
#define G1632_WBE const struct v16_widen_be *wbe
#else
#define G1632_WBE const void *wbe
#endif
UTFXI_INLINE void g1632_store(char32_t *d, vu16 v, int raw, G1632_WBE) {
#ifdef V16_WIDEN_BE
  if (raw) {
    v16_store_utf32_be(d, v, wbe);
    return;
  }
#endif
  (void)raw;
  (void)wbe;
  v16_store_utf32(d, v);
}

UTFXI_INLINE size_t g1632_store_paired(char32_t *d, vu16 v, vu16 nx, vm16 high, uint64_t keep,
                                       vu32 offset, int exact, int raw, G1632_WBE) {
#ifdef V16_WIDEN_BE
  if (raw) return v16_store_utf32_paired_be(d, v, nx, high, keep, offset, exact, wbe);
#endif
  (void)raw;
  (void)wbe;
  return v16_store_utf32_paired(d, v, nx, high, keep, offset, exact);
}
#ifdef G1632_LONG
/* The long calls' one-vector store (v16_store_utf32_wide: on avx512 two
 * 512-bit stores, where the two-vector runs keep 256-bit ones; see the
 * perf-decisions entry named above). */
UTFXI_INLINE void g1632_store_wide(char32_t *d, vu16 v, int raw, G1632_WBE) {
#ifdef V16_WIDEN_BE
  if (raw) {
    v16_store_utf32_be_wide(d, v, wbe);
    return;
  }
#endif
  (void)raw;
  (void)wbe;
  v16_store_utf32_wide(d, v);
}
/* The paired store of the long calls' steps (v16_store_utf32_paired_own):
 * the units one on are v's own, so v's last unit is never a kept high half. */
UTFXI_INLINE size_t g1632_store_paired_own(char32_t *d, vu16 v, vm16 high, uint64_t keep,
                                           vu32 offset, int raw, G1632_WBE) {
#ifdef V16_WIDEN_BE
  if (raw) return v16_store_utf32_paired_own_be(d, v, high, keep, offset, wbe);
#endif
  (void)raw;
  (void)wbe;
  return v16_store_utf32_paired_own(d, v, high, keep, offset);
}
#endif
#undef G1632_WBE

/* If the 32-bit lanes of x are all pairs (the high half in the low 16
 * bits), stores their code points at d and returns 1. */
UTFXI_INLINE int g1632_put_pairs(char32_t *d, vu32 x, const struct g1632_k *k) {
  if (!v32_all(v32_eq(v32_and_values(x, k->top2), k->pair2))) return 0;
  v32_store(d, v32_add(v32_add(v32_shr(v32_shl(x, 16), 6), v32_shr(x, 16)), k->offset));
  return 1;
}
#ifdef V16_WIDEN_BE
/* The same of raw big-endian units (g1632_k_init's raw constants). */
UTFXI_INLINE int g1632_put_pairs_raw(char32_t *d, vu32 x, const struct g1632_k *k) {
  if (!v32_all(v32_eq(v32_and_values(x, k->top2), k->pair2))) return 0;
  x = v16_bswap(x);
  v32_store(d, v32_add(v32_add(v32_shr(v32_shl(x, 16), 6), v32_shr(x, 16)), k->offset));
  return 1;
}
#endif

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

/* The kernel (G1632_KERNEL): g1632_kernel, and g1632_long_kernel where the
 * tier has long calls' kernels. The forms' names are whole identifiers,
 * declared here, so the amalgamation sees them as this file's statics and
 * renames them per tier. */
#define G1632_PARAMS const char16_t *s, size_t n, char32_t *d, size_t cap, unsigned flags, int be
UTFXI_INLINE utfx_result g1632_body(G1632_PARAMS);
UTFXI_INLINE utfx_result g1632_kernel(G1632_PARAMS);
#define G1632_L 0
#define G1632_R 0
#define G1632_BODY g1632_body
#define G1632_KERNEL g1632_kernel
#include "generic_utf16_to_utf32_body.h"
#ifdef G1632_LONG
UTFXI_INLINE utfx_result g1632_long_body(G1632_PARAMS);
UTFXI_INLINE utfx_result g1632_long_kernel(G1632_PARAMS);
#define G1632_L 1
#define G1632_R 0
#define G1632_BODY g1632_long_body
#define G1632_KERNEL g1632_long_kernel
#include "generic_utf16_to_utf32_body.h"
#ifdef V16_WIDEN_BE
UTFXI_INLINE utfx_result g1632_long_raw_body(G1632_PARAMS);
UTFXI_INLINE utfx_result g1632_long_raw_kernel(G1632_PARAMS);
#define G1632_L 1
#define G1632_R 1
#define G1632_BODY g1632_long_raw_body
#define G1632_KERNEL g1632_long_raw_kernel
#include "generic_utf16_to_utf32_body.h"
#define G1632_LONG_BE g1632_long_raw_kernel
#else
#define G1632_LONG_BE g1632_long_kernel
#endif
#endif
#undef G1632_PARAMS

UTFXI_CONVERT_ENTRY(G_NAME(convert_utf16le_to_utf32), char16_t, char32_t, g1632_kernel, 0)
UTFXI_CONVERT_ENTRY(G_NAME(convert_utf16be_to_utf32), char16_t, char32_t, g1632_kernel, 1)
/* The long calls' kernels (utfxi_utf16XX_to_utf32_long_TIER), on a tier
 * that defines G1632_LONG: where compare results are mask registers, one
 * test a vector costs little (docs/perf-decisions.md, 'UTF-16 -> UTF-32';
 * avx2 with one-vector runs lost 38-49 % on text without surrogates). */
#ifdef G1632_LONG
UTFXI_CONVERT_ENTRY(G_NAME(utf16le_to_utf32_long), char16_t, char32_t, g1632_long_kernel, 0)
UTFXI_CONVERT_ENTRY(G_NAME(utf16be_to_utf32_long), char16_t, char32_t, G1632_LONG_BE, 1)
#endif

#endif
