/* UTF-16LE/BE validation, the well-formed repair, and the UTF-8 and UTF-32
 * lengths from UTF-16, at any vector width (the vocabulary of generic.h).
 *
 * A block is two vectors (V16_BLOCK units). Text without surrogates is
 * screened eight vectors at a time for validation, four for the UTF-8
 * length and the repair (unit & 0xF800 == 0xD800 on the units as stored:
 * the byte order only moves the mask); after a failed screen the wide one
 * backs off (g16_back_off), as surrogate-dense text fails every one. A block with surrogates gets
 * a unit mask for high and for low surrogates (V16_UNIT_BITS bits each);
 * bad = high not followed by low | low not preceded by high. A block that
 * ends with a high surrogate leaves it to the next block (validation, the
 * lengths) or carries it there as a bit (the repair), so blocks start on
 * character boundaries. Tails (under one block) are zero-masked blocks where
 * the ISA has them (V_MASKED_TAIL), else they go to the scalar kernels.
 * References: Lemire & Mula, "Transcoding billions of Unicode characters per
 * second with SIMD instructions", Software: Practice and Experience 52(2),
 * 2022. */
#ifndef UTFX_SIMD_GENERIC_UTF16_H
#define UTFX_SIMD_GENERIC_UTF16_H

#include "generic.h"

/* The mask bits of one unit, of the block's first and of its last unit. */
#define G16_UNIT ((uint64_t)((1u << V16_UNIT_BITS) - 1))
#define G16_LAST (G16_UNIT << ((V16_BLOCK - 1) * V16_UNIT_BITS))

/* Units set in a unit mask. */
#define G16_COUNT(m) ((size_t)(g_popcnt64(m) / V16_UNIT_BITS))

/* Nonzero if some unit of the two blocks (a, b), (c, e) of raw units is a
 * surrogate. */
static inline int g16_any_surrogate4(vu16 a, vu16 b, vu16 c, vu16 e, int be) {
  return v16_any_top_eq4(a, b, c, e, be ? 0x00F8 : 0xF800, be ? 0x00D8 : 0xD800);
}

/* The bytewise maxima of four vectors of units. */
static inline vu16 g16_max_bytes4(vu16 a, vu16 b, vu16 c, vu16 e) {
  return v16_max_bytes(v16_max_bytes(a, b), v16_max_bytes(c, e));
}

/* The same as g16_any_surrogate4, for the screens that expect text without
 * surrogates: a byte maximum against 0xD8 first, which text with no unit
 * from 0xD800 up (most text but CJK with full-width signs) passes in fewer
 * steps than the exact test (docs/perf-decisions.md, 'UTF-8 length of
 * UTF-16'); top is the four's byte maxima (g16_max_bytes4). */
static inline int g16_screen4_max(vu16 top, vu16 a, vu16 b, vu16 c, vu16 e, int be) {
  return v16_any_byte_at_least(top, be ? 0x00FF : 0xFF00, 0xD8) &&
         g16_any_surrogate4(a, b, c, e, be);
}
static inline int g16_screen4(vu16 a, vu16 b, vu16 c, vu16 e, int be) {
  return g16_screen4_max(g16_max_bytes4(a, b, c, e), a, b, c, e, be);
}

/* Whether some of the 2 * V16_BLOCK units at s is a surrogate. */
static inline int g16_any_surrogate_x4(const char16_t *s, int be) {
  return g16_any_surrogate4(v16_load_raw(s), v16_load_raw(s + V16_UNITS),
                            v16_load_raw(s + 2 * V16_UNITS), v16_load_raw(s + 3 * V16_UNITS), be);
}

/* Whether some of the 2 * V16_BLOCK units at s is not ASCII. */
static inline int g16_any_non_ascii_x4(const char16_t *s, int be) {
  return g16_any_non_ascii(v16_or_units(v16_or_units(v16_load_raw(s), v16_load_raw(s + V16_UNITS)),
                                        v16_or_units(v16_load_raw(s + 2 * V16_UNITS),
                                                     v16_load_raw(s + 3 * V16_UNITS))),
                           be);
}

/* The screen of the 4 * V16_BLOCK units at s. Where the vocabulary has
 * V_LOAD_SEQ, the loads one statement each, in address order (as call
 * arguments gcc takes them last first); elsewhere the loads as they were
 * (the other tiers' code stays the measured one). */
static inline int g16_screen_x8(const char16_t *s, int be) {
#ifdef V_LOAD_SEQ
  const vu16 a = v16_load_seq(s), b = v16_load_seq(s + V16_UNITS);
  const vu16 c = v16_load_seq(s + 2 * V16_UNITS), e = v16_load_seq(s + 3 * V16_UNITS);
  const vu16 f = v16_load_seq(s + 4 * V16_UNITS), g = v16_load_seq(s + 5 * V16_UNITS);
  const vu16 h = v16_load_seq(s + 6 * V16_UNITS), k = v16_load_seq(s + 7 * V16_UNITS);
  return g16_screen4(a, b, c, e, be) || g16_screen4(f, g, h, k, be);
#else
  return g16_screen4(v16_load_raw(s), v16_load_raw(s + V16_UNITS), v16_load_raw(s + 2 * V16_UNITS),
                     v16_load_raw(s + 3 * V16_UNITS), be) ||
         g16_screen4(v16_load_raw(s + 4 * V16_UNITS), v16_load_raw(s + 5 * V16_UNITS),
                     v16_load_raw(s + 6 * V16_UNITS), v16_load_raw(s + 7 * V16_UNITS), be);
#endif
}

/* Surrogate-dense text fails every screen: after a failed one, the blocks
 * go without for `backoff` units (doubled per failure, up to G16_BACKOFF_MAX,
 * back to the start after a screen that passes). */
#define G16_BACKOFF_MIN (4 * V16_BLOCK)
#define G16_BACKOFF_MAX (64 * V16_BLOCK)
UTFXI_INLINE void g16_back_off(size_t i, size_t *screen_from, size_t *backoff) {
  *screen_from = i + *backoff;
  if (*backoff < G16_BACKOFF_MAX) *backoff *= 2;
}

/* High and low surrogate masks of the block (a, b) of host-order units. */
UTFXI_INLINE void g16_pair_masks(vu16 a, vu16 b, uint64_t *hi, uint64_t *lo) {
  *hi = v16_bits2(v16_top_eq(a, 0xFC00, 0xD800), v16_top_eq(b, 0xFC00, 0xD800));
  *lo = v16_bits2(v16_top_eq(a, 0xFC00, 0xDC00), v16_top_eq(b, 0xFC00, 0xDC00));
}

/* The same for the block at s (all in the buffer): of its raw units, the
 * masks in the input's byte order, so that UTF-16BE is not swapped first. */
UTFXI_INLINE void g16_pairs(const char16_t *s, int be, uint64_t *hi, uint64_t *lo) {
  const unsigned top = be ? 0x00FC : 0xFC00, high = be ? 0x00D8 : 0xD800,
                 low = be ? 0x00DC : 0xDC00;
  vu16 a = v16_load_raw(s), b = v16_load_raw(s + V16_UNITS);
  *hi = v16_bits2(v16_top_eq(a, top, high), v16_top_eq(b, top, high));
  *lo = v16_bits2(v16_top_eq(a, top, low), v16_top_eq(b, top, low));
}

/* Pair-test steps (of one or two blocks) after a screen finds a surrogate:
 * the swap's, and the repair's (which copies, so the pair test costs more
 * than the screen it replaces on text with sparse surrogates, hence fewer
 * steps: docs/perf-decisions.md, 'UTF-16 repair and byte swap'). */
#define G16_PAIRED_STEPS 32
#define G16_REPAIR_STEPS 8

/* Whether unit k of s is a low / a high surrogate. */
UTFXI_INLINE int g16_is_low(const char16_t *s, size_t k, int be) {
  return (utfxi_load16(s + k, be) & 0xFC00) == 0xDC00;
}

UTFXI_INLINE int g16_is_high(const char16_t *s, size_t k, int be) {
  return (utfxi_load16(s + k, be) & 0xFC00) == 0xD800;
}

/* Whether a unit of the vector v at s is a high surrogate while the unit
 * after it is not a low one, or the other way round. */
UTFXI_INLINE vm16 g16_unpaired(const char16_t *s, vu16 v, unsigned top, unsigned high,
                               unsigned low) {
  return v16_xor(v16_top_eq(v, top, high), v16_top_eq(v16_load_raw(s + 1), top, low));
}

/* Whether some of the first k (< V16_UNITS) units at s, raw, may be a
 * surrogate: one masked test where the ISA has masked tails (V_MASKED_TAIL),
 * else 1. For the aligning heads of long calls, whose scalar kernels take
 * half a nanosecond a unit or more, up to V16_UNITS - 1 units a call: a head
 * without surrogates (most text) needs none (docs/perf-decisions.md,
 * 'Aligning heads of long UTF-16 calls: one masked test'). */
UTFXI_INLINE int g16_head_may_have_surrogate(const char16_t *s, size_t k, int be) {
#ifdef V_MASKED_TAIL
  return v16_any(v16_top_eq(v16_load_tail_raw(s, k), be ? 0x00F8 : 0xF800, be ? 0x00D8 : 0xD800));
#else
  (void)s, (void)k, (void)be;
  return 1;
#endif
}

/* All the bits of a block's unit mask. */
#define G16_BLOCK_BITS (G16_LAST | (G16_LAST - 1))

/* Nonzero if some unit of the block (a, b), raw, is a surrogate. */
UTFXI_INLINE int g16_any_surrogate_x2(vu16 a, vu16 b, int be) {
  const unsigned mask = be ? 0x00F8 : 0xF800, sur = be ? 0x00D8 : 0xD800;
  return v16_any(v16_or(v16_top_eq(a, mask, sur), v16_top_eq(b, mask, sur)));
}

/* Nonzero if the block (a, b) at s (raw; the unit after it is read) has a
 * high surrogate without a low one after it, or a low one after a unit
 * that is not a high one (but for its first unit). */
UTFXI_INLINE int g16_any_unpaired_x2(const char16_t *s, vu16 a, vu16 b, int be) {
  const unsigned top = be ? 0x00FC : 0xFC00, high = be ? 0x00D8 : 0xD800,
                 low = be ? 0x00DC : 0xDC00;
  return v16_any(v16_or(g16_unpaired(s, a, top, high, low),
                        g16_unpaired(s + V16_UNITS, b, top, high, low)));
}

#ifdef V_MASK_REGISTERS
/* g16_pair_faults' bit masks, but for the unit after the block: the units
 * of the block that break a pair with the unit before them. */
UTFXI_INLINE uint64_t g16_unpaired_bits(vu16 a, vu16 b, int be, uint64_t *carry) {
  uint64_t hi, lo, faults;
  v16_surrogate_bits2(a, b, be, &hi, &lo);
  faults = lo ^ ((hi << V16_UNIT_BITS | *carry) & G16_BLOCK_BITS);
  *carry = hi & G16_LAST ? G16_UNIT : 0;
  return faults;
}
#endif

/* Nonzero if the block (a, b) of raw units at s breaks a pair: a low
 * surrogate after a unit that is not a high one, or a high one before a unit
 * that is not a low one (the unit after the block is read; where the test
 * is of bit masks, `after` 0 leaves a high surrogate in the last unit
 * unjudged in *carry, for the repair, whose stores do not depend on it and
 * which judges it with the next block). Its first unit
 * is the caller's to check (g16_pairs_from), once before a run of blocks:
 * where compare results are mask registers (V_MASK_REGISTERS), the blocks
 * are tested as bit masks of the highs and the lows, one load a unit, and
 * *carry (G16_UNIT if the unit before the block is a high surrogate, then
 * the block's last unit) joins them; elsewhere each unit is tested against
 * the next (a second load one unit on), as moving the masks out costs more
 * (AVX2: docs/perf-decisions.md, 'UTF-16 repair and byte swap'), and
 * *carry is not used. */
UTFXI_INLINE uint64_t g16_pair_faults(const char16_t *s, vu16 a, vu16 b, int be, uint64_t *carry,
                                      int after) {
#ifdef V_MASK_REGISTERS
  uint64_t faults = g16_unpaired_bits(a, b, be, carry);
  return after ? faults | (g16_is_low(s, V16_BLOCK, be) ? 0 : *carry) : faults;
#else
  (void)carry, (void)after;
  return (uint64_t)g16_any_unpaired_x2(s, a, b, be);
#endif
}

/* The same for the two blocks (a, b), (c, e) at s, in one test. */
UTFXI_INLINE uint64_t g16_pair_faults4(const char16_t *s, vu16 a, vu16 b, vu16 c, vu16 e, int be,
                                       uint64_t *carry, int after) {
#ifdef V_MASK_REGISTERS
  uint64_t faults = g16_unpaired_bits(a, b, be, carry);
  faults |= g16_unpaired_bits(c, e, be, carry);
  return after ? faults | (g16_is_low(s, 2 * V16_BLOCK, be) ? 0 : *carry) : faults;
#else
  const unsigned top = be ? 0x00FC : 0xFC00, high = be ? 0x00D8 : 0xD800,
                 low = be ? 0x00DC : 0xDC00;
  (void)carry, (void)after;
  return (uint64_t)v16_any(v16_or(v16_or(g16_unpaired(s, a, top, high, low),
                                         g16_unpaired(s + V16_UNITS, b, top, high, low)),
                                  v16_or(g16_unpaired(s + 2 * V16_UNITS, c, top, high, low),
                                         g16_unpaired(s + 3 * V16_UNITS, e, top, high, low))));
#endif
}

/* Before the pair tests from unit i on: whether unit i is a low surrogate
 * exactly when a high one is carried (the first unit's check). */
UTFXI_INLINE int g16_pairs_from(const char16_t *s, size_t i, int be, uint64_t carry) {
  return g16_is_low(s, i, be) == (carry != 0);
}

/* After pair tests that passed up to unit i (i > 0): the carry. */
UTFXI_INLINE uint64_t g16_carry_at(const char16_t *s, size_t i, int be) {
  return g16_is_high(s, i - 1, be) ? G16_UNIT : 0;
}

#ifdef V_MASKED_TAIL
/* The first k <= V16_BLOCK units at s as a zero-padded block (host order);
 * the second vector is not loaded when the first holds them all. */
UTFXI_INLINE void g16_load_tail_block(const char16_t *s, size_t k, int be, vu16 *a, vu16 *b) {
  *a = v16_load_tail(s, k, be);
  *b = k > V16_UNITS ? v16_load_tail(s + V16_UNITS, k - V16_UNITS, be) : v_zero();
}
#endif

UTFXI_INLINE utfx_result g16_validate(const char16_t *s, size_t n, int be) {
  size_t i = 0, screen_from = 0, backoff = G16_BACKOFF_MIN;
  if (n >= 16 * V16_BLOCK) {
    /* Vector-aligned loads from here on, as in validate_utf32 (a load across
     * two cache lines costs two); the scalar head takes a pair whole. */
    utfx_result r;
    i = (size_t)(-(uintptr_t)s % (V16_UNITS * sizeof *s)) / sizeof *s;
    if (i && (utfxi_load16(s + i - 1, be) & 0xFC00) == 0xD800) i++;
    r = be ? utfxi_validate_utf16be_scalar(s, i) : utfxi_validate_utf16le_scalar(s, i);
    if (r.status != UTFX_OK) return r;
  }
  while (n - i >= V16_BLOCK) {
    uint64_t hi, lo;
    size_t adv = V16_BLOCK;
    if (i >= screen_from && n - i >= 4 * V16_BLOCK) { /* eight vectors a test */
      if (!g16_screen_x8(s + i, be)) {
        i += 4 * V16_BLOCK;
        backoff = G16_BACKOFF_MIN;
        continue;
      }
      g16_back_off(i, &screen_from, &backoff);
    }
    if (n - i >= 2 * V16_BLOCK && !g16_any_surrogate_x4(s + i, be)) { /* sparse surrogates */
      i += 2 * V16_BLOCK;
      continue;
    }
    g16_pairs(s + i, be, &hi, &lo);
    if (n - i > V16_BLOCK && (hi & G16_LAST)) { /* the next block pairs it */
      hi &= ~G16_LAST;
      adv--;
    }
    if ((hi & ~(lo >> V16_UNIT_BITS)) | (lo & ~(hi << V16_UNIT_BITS))) break;
    i += adv;
  }
#ifdef V_MASKED_TAIL
  if (n - i < V16_BLOCK) { /* no error so far: the tail, zero-padded (no pair for its last high) */
    uint64_t hi, lo;
    vu16 a, b;
    g16_load_tail_block(s + i, n - i, be, &a, &b);
    g16_pair_masks(a, b, &hi, &lo);
    if (!((hi & ~(lo >> V16_UNIT_BITS)) | (lo & ~(hi << V16_UNIT_BITS))))
      return utfxi_result(UTFX_OK, n, 0, 0);
  }
#endif
  {
    utfx_result r = be ? utfxi_validate_utf16be_scalar(s + i, n - i)
                       : utfxi_validate_utf16le_scalar(s + i, n - i);
    return utfxi_result_after(&r, i, 0, 0);
  }
}
#ifdef V_MASK_REGISTERS
/* Long calls (from UTFXI_ALIGN_HEAD, 4 KiB) where compare results are mask
 * registers (AVX-512): the runs below. On AVX2 the same runs (its pair test
 * of words, V16_PAIR_WORDS) cost BMP and mixed-script text more than they
 * gained and did not land (docs/perf-decisions.md, 'UTF-16
 * validation: runs of pair tests for long calls'). */

/* The units of a block (bit masks hi / lo of its high and low surrogates)
 * not in a well-formed pair; carry (G16_UNIT): the unit before the block is
 * a high surrogate, so the block's first unit must be a low one. */
UTFXI_INLINE uint64_t g16_pair_breaks(uint64_t hi, uint64_t lo, uint64_t carry) {
  return (hi & ~(lo >> V16_UNIT_BITS)) | (lo & ~(hi << V16_UNIT_BITS | carry)) | (carry & ~lo);
}

/* Validation's end: the units from i on, under a block or where a block
 * failed, with no error before i; `carry` (G16_UNIT) if unit i - 1 is a
 * high surrogate whose low (unit i) is not checked yet. */
UTFXI_INLINE utfx_result g16_validate_end(const char16_t *s, size_t n, size_t i, int be,
                                          uint64_t carry) {
#ifdef V_MASKED_TAIL
  if (n - i < V16_BLOCK) { /* no error so far: the tail, zero-padded (no pair for its last high) */
    uint64_t hi, lo;
    vu16 a, b;
    g16_load_tail_block(s + i, n - i, be, &a, &b);
    g16_pair_masks(a, b, &hi, &lo);
    if (!g16_pair_breaks(hi, lo, carry))
      return utfxi_result(UTFX_OK, n, 0, 0);
  }
#endif
  if (carry) i--; /* the scalar code takes that pair whole */
  {
    utfx_result r = be ? utfxi_validate_utf16be_scalar(s + i, n - i)
                       : utfxi_validate_utf16le_scalar(s + i, n - i);
    return utfxi_result_after(&r, i, 0, 0);
  }
}

/* The screen's test on constants made once, before a loop: in validation's
 * runs gcc built g16_any_surrogate4's again in every step. */
struct g16_sur_k {
  vu16 mask, value;
};
UTFXI_INLINE void g16_sur_k_init(struct g16_sur_k *k, int be) {
  k->mask = v16_splat(be ? 0x00F8 : 0xF800);
  k->value = v16_splat(be ? 0x00D8 : 0xD800);
  V_LOADED(k->mask);
  V_LOADED(k->value);
}
UTFXI_INLINE int g16_any_surrogate4_k(const struct g16_sur_k *k, vu16 a, vu16 b, vu16 c, vu16 e) {
  return v16_any_top_eq4_k(a, b, c, e, k->mask, k->value);
}

/* A step of validation's runs: the two blocks at s (aligned loads; the
 * unit before them is in the buffer), *carry as in g16_pair_faults
 * (G16_UNIT: the unit before s is a high surrogate whose low is not checked
 * yet), judged up to the step's last unit, whose high is carried. Steps with
 * no surrogate and no carried high pass on the screen's cheap test: text
 * with sparse surrogates (mixed scripts) pays no pair test there
 * (docs/perf-decisions.md, 'UTF-16 validation: runs of pair tests for long
 * calls'). Nonzero on a fault (*carry then as it was). */
UTFXI_INLINE int g16_validate_step(const struct g16_sur_k *sk, const char16_t *s, int be,
                                   uint64_t *carry) {
  uint64_t next = *carry;
  vu16 a = v16_load_raw(s), b = v16_load_raw(s + V16_UNITS);
  vu16 c = v16_load_raw(s + 2 * V16_UNITS), e = v16_load_raw(s + 3 * V16_UNITS);
  if (!next && !g16_any_surrogate4_k(sk, a, b, c, e)) return 0;
  if (g16_pair_faults4(s, a, b, c, e, be, &next, 0)) return 1;
  *carry = next;
  return 0;
}

/* Long calls (those with the aligning head, UTFXI_ALIGN_HEAD; out of
 * line): the same head, and after a failed screen, runs of two-block steps
 * at a fixed stride up to where the next screen is due, a high surrogate
 * that ends a step carried into the next (no load waits on a block's
 * analysis; emoji text has surrogates in nearly every block). */
UTFXI_INLINE utfx_result g16_validate_runs(const char16_t *s, size_t n, int be) {
  size_t i, screen_from = 0, backoff = G16_BACKOFF_MIN;
  uint64_t carry = 0; /* G16_UNIT: unit i - 1 is a high surrogate whose low (unit i) is not checked */
  struct g16_sur_k sk;
  /* Vector-aligned loads from here on, as in validate_utf32 (a load across
   * two cache lines costs two); the scalar head takes a pair whole. */
  i = (size_t)(-(uintptr_t)s % (V16_UNITS * sizeof *s)) / sizeof *s;
  if (i && g16_head_may_have_surrogate(s, i, be)) {
    utfx_result r;
    if ((utfxi_load16(s + i - 1, be) & 0xFC00) == 0xD800) i++;
    r = be ? utfxi_validate_utf16be_scalar(s, i) : utfxi_validate_utf16le_scalar(s, i);
    if (r.status != UTFX_OK) return r;
  }
  /* (the constants after the head's call: made before it, they were spilled) */
  g16_sur_k_init(&sk, be);
  while (n - i >= V16_BLOCK) {
    uint64_t hi, lo;
    size_t adv = V16_BLOCK;
    if (i >= screen_from) {
      if (!carry) { /* eight vectors a test, in a loop of its own */
        while (n - i >= 4 * V16_BLOCK && !g16_screen_x8(s + i, be)) {
          i += 4 * V16_BLOCK;
          backoff = G16_BACKOFF_MIN;
        }
        if (n - i >= 4 * V16_BLOCK) g16_back_off(i, &screen_from, &backoff);
        if (n - i < V16_BLOCK) break; /* (to the tail) */
      } else {
        /* a carried high: the screen would fail */
        g16_back_off(i, &screen_from, &backoff);
      }
    }
    if (n - i > 2 * V16_BLOCK) {
      /* up to where the next screen is due (at least one step) */
      const size_t last = n - (2 * V16_BLOCK + 1);
      const size_t stop = screen_from <= last ? screen_from : last + 1;
      do {
        if (g16_validate_step(&sk, s + i, be, &carry)) return g16_validate_end(s, n, i, be, carry);
        i += 2 * V16_BLOCK;
      } while (i < stop);
      continue;
    }
    /* the last block (and less than a block): a high surrogate that ends it
     * is left to the tail */
    g16_pairs(s + i, be, &hi, &lo);
    if (n - i > V16_BLOCK && (hi & G16_LAST)) { /* the next block pairs it */
      hi &= ~G16_LAST;
      adv--;
    }
    if (g16_pair_breaks(hi, lo, carry)) break;
    carry = 0;
    i += adv;
  }
  return g16_validate_end(s, n, i, be, carry);
}
__attribute__((noinline)) static utfx_result g16_validate_long_le(const char16_t *s, size_t n) {
  return g16_validate_runs(s, n, 0);
}
__attribute__((noinline)) static utfx_result g16_validate_long_be(const char16_t *s, size_t n) {
  return g16_validate_runs(s, n, 1);
}
utfx_result G_NAME(validate_utf16le)(const char16_t *s, size_t n) {
  return UTFXI_ALIGN_HEAD(*s, n) ? g16_validate_long_le(s, n) : g16_validate(s, n, 0);
}
utfx_result G_NAME(validate_utf16be)(const char16_t *s, size_t n) {
  return UTFXI_ALIGN_HEAD(*s, n) ? g16_validate_long_be(s, n) : g16_validate(s, n, 1);
}
#else
utfx_result G_NAME(validate_utf16le)(const char16_t *s, size_t n) { return g16_validate(s, n, 0); }
utfx_result G_NAME(validate_utf16be)(const char16_t *s, size_t n) { return g16_validate(s, n, 1); }
#endif

/* The repair's pair step over two blocks (a, b loaded at i, the next two
 * loaded here): stores them (copy) and moves the carry on when every pair is
 * whole; else leaves the carry and writes nothing (0). */
UTFXI_INLINE int g16_repair_pair_step2(const char16_t *s, char16_t *d, size_t i, vu16 a, vu16 b,
                                       int be, int copy, uint64_t *carry) {
  uint64_t next = *carry;
  vu16 c = v16_load_raw(s + i + 2 * V16_UNITS), e = v16_load_raw(s + i + 3 * V16_UNITS);
  if (g16_pair_faults4(s + i, a, b, c, e, be, &next, 0)) return 0;
  if (copy) {
    v16_store(d + i, a);
    v16_store(d + i + V16_UNITS, b);
    v16_store(d + i + 2 * V16_UNITS, c);
    v16_store(d + i + 3 * V16_UNITS, e);
  }
  *carry = next;
  return 1;
}

/* The pair lanes of the repair's and the swap's emoji runs: every 32-bit lane
 * a high then a low surrogate (a low then a high after a carry), and the
 * test of two blocks against them, on the units' top six bits. */
UTFXI_INLINE vu16 g16_pair_lanes(uint64_t carry, int be) {
  const unsigned high = be ? 0x00D8 : 0xD800, low = be ? 0x00DC : 0xDC00;
  return carry ? v16_splat2(low, high) : v16_splat2(high, low);
}
UTFXI_INLINE int g16_pair_lanes_differ(vu16 a, vu16 b, vu16 c, vu16 e, vu16 lanes, int be) {
  return v16_any_bits(v16_or_units(v16_or_units(v16_xor_units(a, lanes), v16_xor_units(b, lanes)),
                                   v16_or_units(v16_xor_units(c, lanes), v16_xor_units(e, lanes))),
                      be ? 0x00FC : 0xFC00);
}

/* Emoji text in the repair's long calls: from unit i (a low surrogate exactly
 * when carry is set, the caller has checked), runs of two blocks whose
 * 32-bit lanes each hold a high and a low surrogate (after a carry a low then
 * a high: each lane's high is paired by the next lane's low, the last one is
 * carried unjudged, as the pair steps leave it), copied as they are, up to
 * unit last; returns where the run stopped (the carry is the same). The
 * swap's test (g16_swap_pair_lanes): no bit masks, half the operations of
 * the pair test (docs/perf-decisions.md, 'UTF-16 byte swap and repair:
 * loops of pair lanes on every tier'). */
UTFXI_INLINE size_t g16_repair_pair_lanes(const char16_t *s, size_t i, size_t last, char16_t *d,
                                          uint64_t carry, int be, int copy) {
  const vu16 lanes = g16_pair_lanes(carry, be);
  while (i <= last) {
    vu16 a = v16_load_raw(s + i), b = v16_load_raw(s + i + V16_UNITS),
         c = v16_load_raw(s + i + 2 * V16_UNITS), e = v16_load_raw(s + i + 3 * V16_UNITS);
    if (g16_pair_lanes_differ(a, b, c, e, lanes, be)) break;
    if (copy) {
      v16_store(d + i, a);
      v16_store(d + i + V16_UNITS, b);
      v16_store(d + i + 2 * V16_UNITS, c);
      v16_store(d + i + 3 * V16_UNITS, e);
    }
    i += 2 * V16_BLOCK;
  }
  return i;
}
/* Blocks at fixed steps: a high surrogate that ends a block is carried into
 * the next one as a bit (`carry`), not by starting the next block one unit
 * earlier, so no load waits for the previous block's analysis (emoji text:
 * nearly every block has surrogates). Returns the units replaced, counted
 * only where U+FFFD is stored (the void kernels drop it). */
UTFXI_INLINE size_t g16_to_well_formed(const char16_t *s, size_t n, char16_t *d, int be) {
  const int copy = d != s;
  size_t i = 0, steps, replaced = 0;
  int failed, run;
  uint64_t carry = 0; /* G16_UNIT: unit i - 1 is a high surrogate waiting for its pair */
  if (copy && n >= 4 * V16_BLOCK && (uintptr_t)d % 2 == 0) {
    /* A scalar head puts the stores on vector boundaries (a store across two
     * cache lines costs two); a high surrogate at its end is copied and
     * carried into the first block. */
    size_t h = (size_t)(-(uintptr_t)d % V_BYTES) / 2;
#ifdef V_MASKED_TAIL
    if (h && !g16_head_may_have_surrogate(s, h, be)) { /* (most text: one masked copy) */
      v16_store_tail(d, h, v16_load_tail_raw(s, h));
      i = h;
      h = 0;
    }
#endif
    if (h) {
      int high_last = (utfxi_load16(s + h - 1, be) & 0xFC00) == 0xD800;
      size_t k = h - (size_t)high_last;
      replaced = be ? utfxi_repair_utf16be_scalar(s, k, d) : utfxi_repair_utf16le_scalar(s, k, d);
      if (high_last) {
        d[k] = s[k];
        carry = G16_UNIT;
      }
      i = h;
    }
  }
  while (n - i >= V16_BLOCK) {
    uint64_t hi, lo, bad;
    if (n - i >= 2 * V16_BLOCK) {
      /* the screen: two blocks without a surrogate; the copy stores the
       * vectors it tested (loading again after a store to d, which may be
       * s, is slow: docs/perf-decisions.md, 'UTF-16 repair and byte swap') */
      vu16 a = v16_load_raw(s + i), b = v16_load_raw(s + i + V16_UNITS);
      vu16 c = v16_load_raw(s + i + 2 * V16_UNITS), e = v16_load_raw(s + i + 3 * V16_UNITS);
      if (!g16_any_surrogate4(a, b, c, e, be)) {
        if (copy) {
          v16_store_copy(d + i, a);
          v16_store_copy(d + i + V16_UNITS, b);
          v16_store_copy(d + i + 2 * V16_UNITS, c);
          v16_store_copy(d + i + 3 * V16_UNITS, e);
        }
        if (carry) { /* no low surrogate followed */
          utfxi_store16(d + i - 1, 0xFFFD, be);
          replaced++;
        }
        carry = 0;
        i += 2 * V16_BLOCK;
        continue;
      }
    }
    /* Surrogates: the swap's pair test, for up to G16_REPAIR_STEPS steps of
     * two blocks (one near the end, or when the pair fails); the repair's
     * bit masks only for a block that fails. A high surrogate that ends the
     * steps is carried unjudged (the test's !after): the screen or the bit
     * masks after them put U+FFFD there if no low one follows. */
    failed = !g16_pairs_from(s, i, be, carry);
    run = 0;
#ifdef V_MASK_REGISTERS
    /* (avx512 only: on avx2 the change of this function's code slowed its
     * screen on text without surrogates, docs/perf-decisions.md,
     * 'UTF-16 byte swap and repair: loops of pair lanes on every tier') */
    if (!failed && UTFXI_UNLIKELY(UTFXI_ALIGN_HEAD(*s, n)) && n - i > 2 * V16_BLOCK) {
      /* long calls: runs of blocks of pairs only (emoji) first */
      const size_t from = i;
      /* (inline: through a call, which clobbers the vector registers, gcc
       * built the screen's constants again in every screen step) */
      i = g16_repair_pair_lanes(s, i, n - (2 * V16_BLOCK + 1), d, carry, be, copy);
      /* (then the loop's bounds, the screen and the first unit's check
       * again: the run may stop less than a block before n) */
      if (i != from) continue;
    }
#endif
    if (!failed && UTFXI_UNLIKELY(UTFXI_ALIGN_HEAD(*s, n)) && n - i > 2 * V16_BLOCK) {
      /* long calls: runs of two-block steps in a loop of their own with one
       * bound, as the swap's (for all calls, short ones with surrogates
       * lost: docs/perf-decisions.md, 'UTF-16 repair and byte swap'); the
       * steps below take a step that fails */
      const size_t last = n - (2 * V16_BLOCK + 1);
      const size_t stop = last - i > (G16_PAIRED_STEPS - 1) * 2 * V16_BLOCK
                              ? i + (G16_PAIRED_STEPS - 1) * 2 * V16_BLOCK
                              : last;
      do {
        vu16 a = v16_load_raw(s + i), b = v16_load_raw(s + i + V16_UNITS);
        if (!g16_repair_pair_step2(s, d, i, a, b, be, copy, &carry)) break;
        i += 2 * V16_BLOCK;
        run = 1;
      } while (i <= stop);
    }
    for (steps = 0; !failed && steps < G16_REPAIR_STEPS && n - i > V16_BLOCK; steps++) {
      vu16 a = v16_load_raw(s + i), b = v16_load_raw(s + i + V16_UNITS);
      uint64_t next = carry;
      if (n - i > 2 * V16_BLOCK) { /* two blocks, one test */
        if (g16_repair_pair_step2(s, d, i, a, b, be, copy, &carry)) {
          i += 2 * V16_BLOCK;
          continue;
        }
      }
      if (g16_pair_faults(s + i, a, b, be, &next, 0)) {
        failed = 1;
        break;
      }
      if (copy) {
        v16_store(d + i, a);
        v16_store(d + i + V16_UNITS, b);
      }
      carry = next;
      i += V16_BLOCK;
    }
    if (steps || run) carry = g16_carry_at(s, i, be);
    if ((steps || run) && !failed) continue;
    g16_pairs(s + i, be, &hi, &lo);
    if (copy) {
      v_store(d + i, v_load(s + i));
      v_store(d + i + V16_UNITS, v_load(s + i + V16_UNITS));
    }
    if (carry && !(lo & 1)) {
      utfxi_store16(d + i - 1, 0xFFFD, be);
      replaced++;
    }
    /* A high surrogate in the last unit is judged with the next block (or
     * the scalar tail, which then restarts at it). */
    bad = (hi & ~(lo >> V16_UNIT_BITS) & ~G16_LAST) | (lo & ~(hi << V16_UNIT_BITS | carry));
    carry = hi & G16_LAST ? G16_UNIT : 0;
    while (bad) {
      unsigned u = g_ctz64(bad) / V16_UNIT_BITS;
      utfxi_store16(d + i + u, 0xFFFD, be);
      replaced++;
      bad &= ~(G16_UNIT << (u * V16_UNIT_BITS));
    }
    i += V16_BLOCK;
  }
#ifdef V_MASKED_TAIL
  { /* the last n - i < V16_BLOCK units (maybe none, after a carried high) */
    size_t k = n - i;
    uint64_t hi, lo, bad;
    vu16 a, b;
    if (copy) {
      v16_store_tail(d + i, k < V16_UNITS ? k : V16_UNITS, v16_load_tail_raw(s + i, k));
      if (k > V16_UNITS)
        v16_store_tail(d + i + V16_UNITS, k - V16_UNITS,
                       v16_load_tail_raw(s + i + V16_UNITS, k - V16_UNITS));
    }
    g16_load_tail_block(s + i, k, be, &a, &b);
    g16_pair_masks(a, b, &hi, &lo);
    if (carry && !(lo & 1)) {
      utfxi_store16(d + i - 1, 0xFFFD, be);
      replaced++;
    }
    bad = (hi & ~(lo >> V16_UNIT_BITS)) | (lo & ~(hi << V16_UNIT_BITS | carry));
    while (bad) {
      unsigned u = g_ctz64(bad) / V16_UNIT_BITS;
      utfxi_store16(d + i + u, 0xFFFD, be);
      replaced++;
      bad &= ~(G16_UNIT << (u * V16_UNIT_BITS));
    }
  }
#else
  i -= carry ? 1 : 0; /* the scalar tail pairs that high surrogate itself */
  if (i < n) /* no call for none (small inputs of whole blocks) */
    replaced += be ? utfxi_repair_utf16be_scalar(s + i, n - i, d + i)
                   : utfxi_repair_utf16le_scalar(s + i, n - i, d + i);
#endif
  return replaced;
}
void G_NAME(to_well_formed_utf16le)(const char16_t *s, size_t n, char16_t *d) {
  g16_to_well_formed(s, n, d, 0);
}
void G_NAME(to_well_formed_utf16be)(const char16_t *s, size_t n, char16_t *d) {
  g16_to_well_formed(s, n, d, 1);
}
size_t G_NAME(repair_utf16le)(const char16_t *s, size_t n, char16_t *d) {
  return g16_to_well_formed(s, n, d, 0);
}
size_t G_NAME(repair_utf16be)(const char16_t *s, size_t n, char16_t *d) {
  return g16_to_well_formed(s, n, d, 1);
}

/* Units of the block (a, b) of raw units below 0x80 plus units below 0x800:
 * what a block counts less than 3 bytes per unit. Big-endian units are
 * tested with byte-swapped masks, so no unit is swapped. */
UTFXI_INLINE size_t g16_short_forms(vu16 a, vu16 b, int be) {
  if (!be)
    return v16_count2(v16_below(a, 0x80), v16_below(b, 0x80)) +
           v16_count2(v16_below(a, 0x800), v16_below(b, 0x800));
  return v16_count2(v16_top_eq(a, 0x80FF, 0), v16_top_eq(b, 0x80FF, 0)) +
         v16_count2(v16_top_eq(a, 0x00F8, 0), v16_top_eq(b, 0x00F8, 0));
}

/* Whether some unit of a step may be a surrogate (from 0xD800 up), from its
 * top: with `classes` (a constant; only with V16_UNIT_CLASSES) the maxima of
 * its two vectors of class bytes, else the bytewise maxima of its four
 * vectors of units (g16_max_bytes4). */
UTFXI_INLINE int g16_top_high(vu16 top, int be, int classes) {
#ifdef V16_UNIT_CLASSES
  if (classes) return v_any(v_ge(top, V16_CLASS_HIGH));
#endif
  (void)classes;
  return v16_any_byte_at_least(top, be ? 0x00FF : 0xFF00, 0xD8);
}

/* Steps of four vectors whose short-form bytes (v16_short_forms_bytes, up
 * to 4 a byte a step) are summed in one vector of bytes. */
#define G16_FORMS_STEPS 63

/* Well-formed pairs of the block (a, b) of raw units at s + i, each counted
 * at its high surrogate (the low one may be the next block's first unit);
 * sets *seen if the block has a lone surrogate (a low one first in the block
 * is paired by the unit before it, whichever block that is in). */
UTFXI_INLINE size_t g16_block_pairs(const char16_t *s, size_t i, size_t n, vu16 a, vu16 b,
                                    int be, int *seen) {
  const unsigned top = be ? 0x00FC : 0xFC00, high = be ? 0x00D8 : 0xD800, low = be ? 0x00DC : 0xDC00;
  uint64_t hi = v16_bits2(v16_top_eq(a, top, high), v16_top_eq(b, top, high));
  uint64_t lo = v16_bits2(v16_top_eq(a, top, low), v16_top_eq(b, top, low));
  uint64_t lo_next = lo >> V16_UNIT_BITS | (n - i > V16_BLOCK && g16_is_low(s, i + V16_BLOCK, be) ? G16_LAST : 0);
  if (seen) {
    uint64_t hi_prev = hi << V16_UNIT_BITS | (i && g16_is_high(s, i - 1, be) ? G16_UNIT : 0);
    *seen |= ((hi & ~lo_next) | (lo & ~hi_prev)) != 0;
  }
  return G16_COUNT(hi & lo_next);
}

/* The scalar kernel's count of the n units at s; sets *seen if they have a
 * lone surrogate (seen NULL: not asked). */
UTFXI_INLINE size_t g16_utf8_length_scalar(const char16_t *s, size_t n, int be, int *seen) {
  int lone = 0;
  size_t count;
  if (!seen)
    return be ? utfxi_utf8_length_from_utf16be_scalar(s, n) : utfxi_utf8_length_from_utf16le_scalar(s, n);
  count = be ? utfxi_utf8_length_from_utf16be_with_surrogates_scalar(s, n, &lone)
             : utfxi_utf8_length_from_utf16le_with_surrogates_scalar(s, n, &lone);
  *seen |= lone;
  return count;
}

/* g16_utf8_length's `runs` for long calls without the lone-surrogate flag:
 * where V16_PAIR_TOPS or V16_PAIR_WORDS, their pairs are counted at their
 * low halves (g16_forms_run). A constant apart from 1, so that the flag's
 * long calls (whose flag pointer is not a constant) keep their code. */
#define G16_RUNS_AT_LOWS 2
/* Whether a long call counts its firing steps' pairs at their low halves:
 * every order with V16_PAIR_TOPS; with V16_PAIR_WORDS (avx2) little-endian
 * only: the big-endian form made scripts without pairs slower
 * (docs/perf-decisions.md, "UTF-8 length of UTF-16", session 29). */
#ifdef V16_PAIR_TOPS
#define G16_PAIRS_AT_LOWS(runs, be) ((runs) == G16_RUNS_AT_LOWS)
#else
#define G16_PAIRS_AT_LOWS(runs, be) ((runs) == G16_RUNS_AT_LOWS && !(be))
#endif

/* The short-form bytes of the steps from i to stop (whole steps) added to
 * *forms, each non-ASCII step's count to *count; with `screen` (a constant),
 * each step's surrogates screened and its pairs taken off, and the return
 * says whether a screen's first test fired. Without, the steps' byte maxima
 * are kept in *top_all for one screen after the run. With `plain` (NULL a
 * constant), an all-ASCII step counts a byte a unit and adds 1 to *plain;
 * without, ASCII steps are counted as any other (their short forms). With
 * `runs` (a constant: g16_utf8_length's long calls), a step whose screen
 * fires has its pairs counted without the exact surrogate test first (these
 * steps are screened only near units from 0xD800 up, nearly always
 * surrogates); and where V16_UNIT_CLASSES, one class byte per unit gives a
 * step's short forms, ASCII test and screen (no byte maxima of the units),
 * and an unscreened run tests the steps after an ASCII step on their units
 * (docs/perf-decisions.md, 'UTF-8 length of UTF-16'). */
UTFXI_INLINE int g16_forms_run(const char16_t *s, size_t *at, size_t stop, size_t n, int be, int screen,
                               int runs, int *seen, size_t *count, vu8 *forms, vu16 *top_all,
                               size_t *plain) {
  size_t i = *at;
  int hit = 0;
#ifdef V16_PAIR_TOPS
  /* runs == G16_RUNS_AT_LOWS: a firing step's pairs are counted at their low
   * halves from the blocks' top bytes, the last block's highs carried in a
   * register (no scalar loads); the carry starts empty (a pair across *at
   * was counted before) and a pair across the run's end is counted here. */
  struct v16_tops_k tk;
  v16_tops_carry prev = v16_tops_carry_from(0);
  size_t next = i; /* where a step follows the last firing one */
  if (runs == G16_RUNS_AT_LOWS) v16_tops_k_init(&tk, be);
#elif defined(V16_PAIR_WORDS)
  /* runs == G16_RUNS_AT_LOWS: a firing step's pairs are counted at their low
   * halves, each low against the unit before it in memory, as bytes added
   * twice to *forms (a surrogate has no short form, so a byte still gains
   * at most 4 a step); a pair across *at was counted before (taken back
   * here), one across the run's end is counted here. */
  struct v16_words_k wk;
  const size_t start = i; /* >= V16_PAIR_WORDS_BACK (g16_utf8_length's head) */
  if (G16_PAIRS_AT_LOWS(runs, be)) v16_words_k_init(&wk, be);
#endif
  for (; stop - i >= 2 * V16_BLOCK; i += 2 * V16_BLOCK) {
    vu16 a = v16_load_raw(s + i), b = v16_load_raw(s + i + V16_UNITS);
    vu16 c = v16_load_raw(s + i + 2 * V16_UNITS), d = v16_load_raw(s + i + 3 * V16_UNITS), top;
    /* one load each (gcc otherwise loads a unit vector again as an operand) */
    V_PIN(a);
    V_PIN(b);
    V_PIN(c);
    V_PIN(d);
#ifdef V16_UNIT_CLASSES
    vu8 ca, cc;
    if (runs) {
      ca = v16_unit_classes(a, b, be);
      cc = v16_unit_classes(c, d, be);
      top = v16_max_bytes(ca, cc);
      if (plain && !v_any(top)) {
        /* ASCII: a byte a unit; in the unscreened runs, the steps after
         * it tested on their units (cheaper than the classes, big-endian
         * ones take a byte swap) */
        for (;;) {
          *count += 2 * V16_BLOCK;
          ++*plain;
          if (screen || stop - i < 4 * V16_BLOCK || g16_any_non_ascii_x4(s + i + 2 * V16_BLOCK, be))
            break;
          i += 2 * V16_BLOCK;
        }
        continue;
      }
      *count += 6 * V16_BLOCK;
      *forms = v_add(*forms, v_add(v16_class_short_forms(ca), v16_class_short_forms(cc)));
    } else
#endif
    {
      top = g16_max_bytes4(a, b, c, d);
      if (plain && !g16_any_non_ascii(top, be)) { /* ASCII: a byte a unit */
        *count += 2 * V16_BLOCK;
        ++*plain;
        continue;
      }
      *count += 6 * V16_BLOCK;
      *forms = v_add(*forms, v_add(v16_short_forms_bytes(a, b, be), v16_short_forms_bytes(c, d, be)));
    }
    if (!screen) {
      *top_all = v16_max_bytes(*top_all, top);
    } else if (g16_top_high(top, be, runs)) {
      hit++;
#ifdef V16_PAIR_TOPS
      if (runs == G16_RUNS_AT_LOWS) {
        if (i != next) prev = v16_tops_carry_from(0); /* the step before had no surrogate */
        *count -= 2 * (v16_count_pair_tops(&tk, a, b, &prev) + v16_count_pair_tops(&tk, c, d, &prev));
        next = i + 2 * V16_BLOCK;
        continue;
      }
#elif defined(V16_PAIR_WORDS)
      if (G16_PAIRS_AT_LOWS(runs, be)) {
        vu8 lows = v16_sub_pair_lows(v_zero(), &wk, s + i, be);
        lows = v16_sub_pair_lows(lows, &wk, s + i + V16_BLOCK, be);
        *forms = v_add(*forms, v_add(lows, lows));
        if (i == start && g16_is_high(s, i - 1, be) && g16_is_low(s, i, be)) *count += 2;
        continue;
      }
#endif
      if (runs || g16_any_surrogate4(a, b, c, d, be))
        *count -= 2 * (g16_block_pairs(s, i, n, a, b, be, seen) +
                       g16_block_pairs(s, i + V16_BLOCK, n, c, d, be, seen));
    }
  }
#if defined(V16_PAIR_TOPS) || defined(V16_PAIR_WORDS)
  if (G16_PAIRS_AT_LOWS(runs, be) && hit && i < n && g16_is_high(s, i - 1, be) && g16_is_low(s, i, be)) *count -= 2;
#endif
  *at = i;
  return hit;
}

/* Steps of a call's first run (screened; the later runs have
 * G16_FORMS_STEPS: a run's end, which the loop's branch does not foresee,
 * costs text with surrogates much if it comes often), and the most
 * screened runs after an unscreened run whose one screen fired. */
#define G16_TRIAL_STEPS 8
#define G16_DENSE_MAX 64
/* Unscreened runs without the ASCII test after a run that had no ASCII
 * step (the test is a vector operation of about 19 a step). */
#define G16_UNPLAIN_RUNS 4

/* UTF-8 bytes of the UTFX_REPLACE conversion: a unit counts 3 - (unit <
 * 0x80) - (unit < 0x800), right for everything but a well-formed pair (6
 * counted, 4 written): a block with surrogates subtracts 2 per pair. Blocks
 * go two at a time at a fixed stride: a pair across blocks is found by
 * reading the unit either side of the block. The short forms are summed as
 * bytes (v16_short_forms_bytes) for a run of up to G16_FORMS_STEPS steps,
 * then in 64-bit lanes; a step whose byte maxima show ASCII counts a byte a
 * unit (not tested in the unscreened runs after one without such a step).
 * Without `runs` (a constant) every step is screened for surrogates.
 * With it (inputs from UTFXI_ALIGN_HEAD): a scalar head first; a run
 * screens each step (g16_forms_run) after one that saw units from 0xD800
 * up, else the run's byte maxima are screened once at its end, and if that
 * fires the run's steps are screened again and pairs counted, and the next
 * runs screen each step (more of them each time that happens: text with
 * units from 0xD800 up in every run pays a run twice only a few times).
 * Counts are summed per chunk of UTFXI_LENGTH_CHUNK units, added with
 * saturation. */
UTFXI_INLINE size_t g16_utf8_length(const char16_t *s, size_t n, int be, int *lone, int runs) {
  size_t i = 0, total = 0, dense = 1, backoff = 1, steps = runs ? G16_TRIAL_STEPS : G16_FORMS_STEPS;
  size_t plain = 0, unplain = 0;
  int seen = 0, *seen_at = lone ? &seen : NULL; /* a constant NULL compiles the flag out */
  if (runs) { /* the inputs from UTFXI_ALIGN_HEAD */
    /* Vector-aligned loads from here on (a load across two cache lines
     * costs two); the scalar head ends after a unit that is not a high
     * surrogate, so it takes a pair whole, or at n (high surrogates to the
     * end: without the bound it read past n). */
    i = (size_t)(-(uintptr_t)s % (V16_UNITS * sizeof *s)) / sizeof *s;
#if !defined(V16_PAIR_TOPS) && defined(V16_PAIR_WORDS)
    if (G16_PAIRS_AT_LOWS(runs, be) && i < V16_PAIR_WORDS_BACK) i += V16_UNITS; /* (g16_forms_run's loads reach back) */
#endif
    while (i && i < n && g16_is_high(s, i - 1, be)) i++;
    total = g16_utf8_length_scalar(s, i, be, seen_at);
  }
  while (n - i >= V16_BLOCK) {
    size_t end = n - i > UTFXI_LENGTH_CHUNK ? i + UTFXI_LENGTH_CHUNK : n, count = 0;
    vu8 sums = v_zero(); /* short forms, in 64-bit lanes */
    while (end - i >= 2 * V16_BLOCK) {
      size_t from = i;
      size_t stop = end - i > steps * 2 * V16_BLOCK ? i + steps * 2 * V16_BLOCK : end;
      vu8 forms = v_zero();
      vu16 top_all = v16_splat(0);
      if (!runs || dense) {
        if (!g16_forms_run(s, &i, stop, n, be, 1, runs, seen_at, &count, &forms, &top_all, &plain)) dense--;
      } else {
        if (unplain) { /* no ASCII test: the last tested run had no ASCII step */
          g16_forms_run(s, &i, stop, n, be, 0, 1, seen_at, &count, &forms, &top_all, NULL);
          unplain--;
        } else {
          plain = 0;
          g16_forms_run(s, &i, stop, n, be, 0, 1, seen_at, &count, &forms, &top_all, &plain);
          if (!plain) unplain = G16_UNPLAIN_RUNS;
        }
        if (g16_top_high(top_all, be, 1)) {
          for (; from < i; from += 2 * V16_BLOCK) {
            vu16 a = v16_load_raw(s + from), b = v16_load_raw(s + from + V16_UNITS);
            vu16 c = v16_load_raw(s + from + 2 * V16_UNITS), d = v16_load_raw(s + from + 3 * V16_UNITS);
            if (g16_screen4(a, b, c, d, be))
              count -= 2 * (g16_block_pairs(s, from, n, a, b, be, seen_at) +
                            g16_block_pairs(s, from + V16_BLOCK, n, c, d, be, seen_at));
          }
          dense = backoff;
          if (backoff < G16_DENSE_MAX) backoff *= 2;
        }
      }
      sums = v_sum_bytes(sums, forms);
      steps = G16_FORMS_STEPS;
    }
    count -= (size_t)v_sum_lanes(sums);
    if (end - i >= V16_BLOCK) {
      vu16 a = v16_load_raw(s + i), b = v16_load_raw(s + i + V16_UNITS);
      count += 3 * V16_BLOCK - g16_short_forms(a, b, be);
      if (g16_any_surrogate_x2(a, b, be)) count -= 2 * g16_block_pairs(s, i, n, a, b, be, seen_at);
      i += V16_BLOCK;
    }
    total = utfxi_add_sat(total, count);
  }
  if (i < n) {
    size_t rest;
    if (i && g16_is_high(s, i - 1, be) && g16_is_low(s, i, be)) {
      /* the pair's low surrogate: 3 bytes (the pair was counted at its high one) */
      total = utfxi_add_sat(total, 3);
      if (++i == n) {
        if (lone) *lone = seen;
        return total;
      }
    }
#ifdef V_MASKED_TAIL
    { /* zero-padded: a zero unit counts 1, taken off */
      size_t k = n - i;
      vu16 a = v16_load_tail_raw(s + i, k);
      vu16 b = k > V16_UNITS ? v16_load_tail_raw(s + i + V16_UNITS, k - V16_UNITS) : v_zero();
      rest = 3 * V16_BLOCK - (V16_BLOCK - k) - g16_short_forms(a, b, be);
      /* the padding is no low surrogate, and the unit before i pairs nothing here */
      if (g16_any_surrogate_x2(a, b, be)) rest -= 2 * g16_block_pairs(s + i, 0, k, a, b, be, seen_at);
    }
#else
    rest = g16_utf8_length_scalar(s + i, n - i, be, seen_at);
#endif
    total = utfxi_add_sat(total, rest);
  }
  if (lone) *lone = seen;
  return total;
}
/* Inputs from 4 KiB (those with the aligning head) take the runs screened
 * once, out of line (one function per byte order and flag); shorter ones
 * screen each step: the runs' state and second loop slowed them by 4-20 %
 * (docs/perf-decisions.md, 'UTF-8 length of UTF-16'). */
__attribute__((noinline)) static size_t g16_utf8_length_long_le(const char16_t *s, size_t n) {
  return g16_utf8_length(s, n, 0, NULL, G16_RUNS_AT_LOWS);
}
__attribute__((noinline)) static size_t g16_utf8_length_long_be(const char16_t *s, size_t n) {
  return g16_utf8_length(s, n, 1, NULL, G16_RUNS_AT_LOWS);
}
__attribute__((noinline)) static size_t g16_utf8_length_long_le_flag(const char16_t *s, size_t n,
                                                                     int *lone) {
  return g16_utf8_length(s, n, 0, lone, 1);
}
__attribute__((noinline)) static size_t g16_utf8_length_long_be_flag(const char16_t *s, size_t n,
                                                                     int *lone) {
  return g16_utf8_length(s, n, 1, lone, 1);
}
size_t G_NAME(utf8_length_from_utf16le)(const char16_t *s, size_t n) {
  return UTFXI_ALIGN_HEAD(*s, n) ? g16_utf8_length_long_le(s, n) : g16_utf8_length(s, n, 0, NULL, 0);
}
size_t G_NAME(utf8_length_from_utf16be)(const char16_t *s, size_t n) {
  return UTFXI_ALIGN_HEAD(*s, n) ? g16_utf8_length_long_be(s, n) : g16_utf8_length(s, n, 1, NULL, 0);
}
size_t G_NAME(utf8_length_from_utf16le_with_surrogates)(const char16_t *s, size_t n, int *lone) {
  return UTFXI_ALIGN_HEAD(*s, n) ? g16_utf8_length_long_le_flag(s, n, lone)
                                 : g16_utf8_length(s, n, 0, lone, 0);
}
size_t G_NAME(utf8_length_from_utf16be_with_surrogates)(const char16_t *s, size_t n, int *lone) {
  return UTFXI_ALIGN_HEAD(*s, n) ? g16_utf8_length_long_be_flag(s, n, lone)
                                 : g16_utf8_length(s, n, 1, lone, 0);
}

/* Code points after replacement: one per unit, less one per well-formed
 * pair, counted at its high surrogate against the units one further on
 * (a load at +1, so a pair across blocks counts once). For the tail,
 * i - pairs + its scalar count is exact: a low surrogate at i whose pair was
 * counted here is a lone unit to the scalar code, which it also is in
 * i - pairs. */
UTFXI_INLINE size_t g16_utf32_length(const char16_t *s, size_t n, int be) {
  size_t i = 0, pairs = 0, screen_from, backoff = G16_BACKOFF_MIN;
  vu8 sums = v_zero(); /* pair starts, in 64-bit lanes (if summed) */
  int summed = 0;
  while (n - i >= V16_BLOCK + 1) {
    /* No surrogate in four blocks: no pair counted at them (the screen of
     * validation, with its back-off); then blocks are counted up to where
     * the next screen is due, in a loop of their own. */
    while (n - i >= 4 * V16_BLOCK + 1 && !g16_screen_x8(s + i, be)) {
      i += 4 * V16_BLOCK;
      backoff = G16_BACKOFF_MIN;
    }
    if (n - i >= 4 * V16_BLOCK + 1) {
      /* pair starts summed as bytes (up to 2 a lane a block; at most
       * G16_BACKOFF_MAX units, 64 blocks, until the next screen) */
      vu8 starts = v_zero();
      g16_back_off(i, &screen_from, &backoff);
      for (; i < screen_from && n - i >= V16_BLOCK + 1; i += V16_BLOCK)
        starts = v_add(starts, v_add(v16_pair_starts(v16_load_raw(s + i), v16_load_raw(s + i + 1), be),
                                     v16_pair_starts(v16_load_raw(s + i + V16_UNITS),
                                                     v16_load_raw(s + i + 1 + V16_UNITS), be)));
      sums = v_sum_bytes(sums, starts);
      summed = 1;
    } else if (n - i >= V16_BLOCK + 1) { /* near the end: one block, no sum to reduce */
      vm16 hia = v16_top_eq(v16_load(s + i, be), 0xFC00, 0xD800);
      vm16 hib = v16_top_eq(v16_load(s + i + V16_UNITS, be), 0xFC00, 0xD800);
      vm16 loa = v16_top_eq(v16_load(s + i + 1, be), 0xFC00, 0xDC00);
      vm16 lob = v16_top_eq(v16_load(s + i + 1 + V16_UNITS, be), 0xFC00, 0xDC00);
      pairs += v16_count2(v16_and(hia, loa), v16_and(hib, lob));
      i += V16_BLOCK;
    }
  }
  if (summed) pairs += (size_t)v_sum_lanes(sums);
#ifndef V_MASKED_TAIL
  /* the last whole block, if it has no surrogate, counts no pair */
  if (n - i >= V16_BLOCK &&
      !g16_any_surrogate_x2(v16_load_raw(s + i), v16_load_raw(s + i + V16_UNITS), be))
    i += V16_BLOCK;
#endif
#ifdef V_MASKED_TAIL
  if (i < n) { /* k <= V16_BLOCK units left: highs among them, lows one further on */
    size_t k = n - i;
    vu16 ha, hb, la, lb;
    g16_load_tail_block(s + i, k, be, &ha, &hb);
    g16_load_tail_block(s + i + 1, k - 1, be, &la, &lb);
    pairs += v16_count2(v16_and(v16_top_eq(ha, 0xFC00, 0xD800), v16_top_eq(la, 0xFC00, 0xDC00)),
                        v16_and(v16_top_eq(hb, 0xFC00, 0xD800), v16_top_eq(lb, 0xFC00, 0xDC00)));
  }
  return n - pairs;
#else
  return i - pairs + (be ? utfxi_utf32_length_from_utf16be_scalar(s + i, n - i)
                         : utfxi_utf32_length_from_utf16le_scalar(s + i, n - i));
#endif
}

/* Long inputs: a scalar head up to the first vector-aligned unit, so that
 * the screen's loads do not cross cache lines (a load across two lines costs
 * two), then the rest. A pair across the head's end is counted twice (two
 * lone units), so once taken back. Out of line, one function per byte order:
 * inline, the head slowed short inputs, which never take it
 * (docs/perf-decisions.md, 'UTF-32 length of UTF-16'). */
UTFXI_INLINE size_t g16_utf32_length_long(const char16_t *s, size_t n, int be) {
  size_t i = (size_t)(-(uintptr_t)s % (V16_UNITS * sizeof *s)) / sizeof *s;
  size_t head;
#ifdef V16_PAIR_WORDS
  if (i < V16_PAIR_WORDS_BACK) i += V16_UNITS; /* (its loads reach back) */
#endif
  head = be ? utfxi_utf32_length_from_utf16be_scalar(s, i)
            : utfxi_utf32_length_from_utf16le_scalar(s, i);
#ifdef V16_PAIR_TOPS
  /* Surrogate-dense blocks count the lows after a high by the blocks' top
   * bytes (V16_PAIR_TOPS), the last block's highs carried: only in long
   * calls, whose function this is (in the short form's loop it cost calls
   * of 32-256 units 3-6 %: docs/perf-decisions.md, 'UTF-32 length of
   * UTF-16'). Pairs are counted at their low half here; the rest of the
   * call, at their high half, so a pair across i is counted by neither. */
  size_t pairs = 0, screen_from, backoff = G16_BACKOFF_MIN, from = i;
  struct v16_tops_k k;
  v16_tops_k_init(&k, be);
  while (n - i >= 4 * V16_BLOCK + 1) {
    v16_tops_carry prev;
    if (!g16_screen_x8(s + i, be)) {
      i += 4 * V16_BLOCK;
      backoff = G16_BACKOFF_MIN;
      continue;
    }
    prev = v16_tops_carry_from(i && g16_is_high(s, i - 1, be));
    g16_back_off(i, &screen_from, &backoff);
    for (; i < screen_from && n - i >= 2 * V16_BLOCK; i += 2 * V16_BLOCK)
      pairs += v16_count_pair_tops(&k, v16_load_raw(s + i), v16_load_raw(s + i + V16_UNITS), &prev) +
               v16_count_pair_tops(&k, v16_load_raw(s + i + V16_BLOCK),
                                   v16_load_raw(s + i + V16_BLOCK + V16_UNITS), &prev);
  }
  head += i - from - pairs;
#elif defined(V16_PAIR_WORDS)
  /* Surrogate-dense blocks count the lows after a high, each against the
   * unit before it in memory (V16_PAIR_WORDS), as bytes summed per run of
   * blocks (at most G16_BACKOFF_MAX units: 64 blocks, so at most 64 a
   * byte); the rest of the call counts at the high halves, as above. */
  size_t screen_from, backoff = G16_BACKOFF_MIN, from = i;
  vu8 sums = v_zero();
  struct v16_words_k k;
  v16_words_k_init(&k, be);
  while (n - i >= 4 * V16_BLOCK + 1) {
    vu8 lows = v_zero();
    size_t stop;
    if (!g16_screen_x8(s + i, be)) {
      i += 4 * V16_BLOCK;
      backoff = G16_BACKOFF_MIN;
      continue;
    }
    g16_back_off(i, &screen_from, &backoff);
    stop = screen_from < n - V16_BLOCK ? screen_from : n - V16_BLOCK + 1; /* (a block's loads fit) */
    for (; i < stop; i += V16_BLOCK) lows = v16_sub_pair_lows(lows, &k, s + i, be);
    sums = v_sum_bytes(sums, lows);
  }
  head += i - from - (size_t)v_sum_lanes(sums);
#endif
  return head - (size_t)(i && i < n && g16_is_high(s, i - 1, be) && g16_is_low(s, i, be)) +
         g16_utf32_length(s + i, n - i, be);
}
__attribute__((noinline)) static size_t g16_utf32_length_long_le(const char16_t *s, size_t n) {
  return g16_utf32_length_long(s, n, 0);
}
__attribute__((noinline)) static size_t g16_utf32_length_long_be(const char16_t *s, size_t n) {
  return g16_utf32_length_long(s, n, 1);
}

size_t G_NAME(utf32_length_from_utf16le)(const char16_t *s, size_t n) {
  return UTFXI_ALIGN_HEAD(*s, n) ? g16_utf32_length_long_le(s, n) : g16_utf32_length(s, n, 0);
}
size_t G_NAME(utf32_length_from_utf16be)(const char16_t *s, size_t n) {
  return UTFXI_ALIGN_HEAD(*s, n) ? g16_utf32_length_long_be(s, n) : g16_utf32_length(s, n, 1);
}

#endif
