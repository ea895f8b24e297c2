/* UTF-16LE <-> UTF-16BE at any vector width (the vocabulary of generic.h):
 * either way a byte swap of each unit, with the surrogates checked.
 *
 * A block of two vectors is swapped and stored as it is (one output unit per
 * input unit) when each of its units is a low surrogate exactly when the
 * unit before it is a high one (bit masks of the highs and the lows; a high
 * surrogate in a block's last unit checked against the unit after it, and
 * carried into the next block as a bit): one test
 * per block (two blocks at a time while they pass), with no branch on where
 * the surrogates are, so text that is all pairs (emoji) costs little more
 * than text without surrogates. A block that fails the test goes to the
 * scalar kernel as a bounded region that starts and ends between pairs, so
 * lone surrogates (U+FFFD or STRICT offsets) and full destinations follow the
 * scalar semantics; so does the head, and a tail that fails its test (the
 * last block again where the ISA has no masked loads and stores,
 * V_MASKED_TAIL, a masked block where it has). The masks
 * test the units as stored (the byte order only moves them); where compare
 * results are vectors, the test is of the swapped units against the units
 * one on (g16_swapped_faults4). Runs of two-block steps go in a loop of
 * their own with one bound; there, in long calls, runs of blocks of pairs
 * only (emoji) first, tested as 32-bit lanes (g16_swap_pair_lanes). */
#ifndef UTFX_SIMD_GENERIC_UTF16_SWAP_H
#define UTFX_SIMD_GENERIC_UTF16_SWAP_H

#include "generic_utf16.h"

/* Two blocks (vectors a, b, c, e) byte-swapped to d. */
UTFXI_INLINE void g16_store_swapped4(char16_t *d, vu16 a, vu16 b, vu16 c, vu16 e) {
  v16_store(d, v16_bswap(a));
  v16_store(d + V16_UNITS, v16_bswap(b));
  v16_store(d + 2 * V16_UNITS, v16_bswap(c));
  v16_store(d + 3 * V16_UNITS, v16_bswap(e));
}

/* The same with the copy stores (v16_store_copy), for the loops that only
 * copy, bound by their stores. */
UTFXI_INLINE void g16_copy_swapped4(char16_t *d, vu16 a, vu16 b, vu16 c, vu16 e) {
  v16_store_copy(d, v16_bswap(a));
  v16_store_copy(d + V16_UNITS, v16_bswap(b));
  v16_store_copy(d + 2 * V16_UNITS, v16_bswap(c));
  v16_store_copy(d + 3 * V16_UNITS, v16_bswap(e));
}

#ifndef V_MASK_REGISTERS
/* g16_pair_faults4 where compare results are vectors, on the two blocks
 * swapped (sa, sb, sc, se: the stores need them anyway) and the units one
 * on: each unit's top byte and the next's in one lane, one byte compare
 * (v16_swapped_pair_faults) instead of the two classes' compares. */
UTFXI_INLINE int g16_swapped_faults4(const char16_t *s, vu16 sa, vu16 sb, vu16 sc, vu16 se,
                                     int be) {
  return v16_any_bits(
      v16_or_units(v16_or_units(v16_swapped_pair_faults(sa, v16_load_raw(s + 1), be),
                                v16_swapped_pair_faults(sb, v16_load_raw(s + 1 + V16_UNITS), be)),
                   v16_or_units(
                       v16_swapped_pair_faults(sc, v16_load_raw(s + 1 + 2 * V16_UNITS), be),
                       v16_swapped_pair_faults(se, v16_load_raw(s + 1 + 3 * V16_UNITS), be))),
      0xFFFE);
}
#endif

/* (avx512's pair test, on mask registers, is as fast: the lanes' loop gave
 * it nothing, docs/perf-decisions.md, 'UTF-16 repair and byte swap') */
#ifndef V_MASK_REGISTERS
/* Emoji text: from unit i (a low surrogate exactly when carry is set, the
 * caller has checked), runs of two blocks whose 32-bit lanes each hold a
 * high and a low surrogate (a low then a high with a carry: each lane's high
 * is then paired by the next lane's low, the last by the next step's first),
 * swapped as they are, up to unit last; returns where the run stopped. The
 * lanes' test needs no units one on (a second load a vector, across a cache
 * line in every other one) and half the pair test's operations. The carry
 * is the same after the run. */
UTFXI_INLINE size_t g16_swap_pair_lanes(const char16_t *s, size_t i, size_t last, char16_t *d,
                                        uint64_t carry, int be) {
  const vu16 lanes = g16_pair_lanes(carry, be);
  while (i <= last) {
    vu16 a = v16_load_raw(s + i), b = v16_load_raw(s + i + V16_UNITS),
         c = v16_load_raw(s + i + 2 * V16_UNITS), e = v16_load_raw(s + i + 3 * V16_UNITS);
    if (g16_pair_lanes_differ(a, b, c, e, lanes, be) ||
        /* after a carry the step's last unit is a high whose low is the
         * next step's first: unchecked, the step stored a lone high before
         * the error the scalar kernel then reported at it */
        (carry && !g16_is_low(s, i + 2 * V16_BLOCK, be)))
      break;
    g16_store_swapped4(d + i, a, b, c, e);
    i += 2 * V16_BLOCK;
  }
  return i;
}
/* Out of line, one function per byte order: inline, the swap's registers
 * moved and short inputs slowed (docs/perf-decisions.md, 'UTF-16 repair and
 * byte swap'). */
__attribute__((noinline)) static size_t g16_swap_pair_lanes_le(const char16_t *s, size_t i,
                                                               size_t last, char16_t *d,
                                                               uint64_t carry) {
  return g16_swap_pair_lanes(s, i, last, d, carry, 0);
}
__attribute__((noinline)) static size_t g16_swap_pair_lanes_be(const char16_t *s, size_t i,
                                                               size_t last, char16_t *d,
                                                               uint64_t carry) {
  return g16_swap_pair_lanes(s, i, last, d, carry, 1);
}
#endif

#ifndef V_MASKED_TAIL
/* Nonzero if in the block at s a unit is a low surrogate exactly when the
 * unit before it is not a high one (g16_unpaired of the block one unit
 * back: the unit before it is read, not the one after), so a high surrogate
 * in the block's last unit is the caller's to check. */
UTFXI_INLINE int g16_any_unpaired_back_x2(const char16_t *s, int be) {
  const unsigned top = be ? 0x00FC : 0xFC00, high = be ? 0x00D8 : 0xD800,
                 low = be ? 0x00DC : 0xDC00;
  return v16_any(v16_or(g16_unpaired(s - 1, v16_load_raw(s - 1), top, high, low),
                        g16_unpaired(s - 1 + V16_UNITS, v16_load_raw(s - 1 + V16_UNITS), top,
                                     high, low)));
}
#endif

/* be: the source is UTF-16BE. */
UTFXI_INLINE utfx_result g16_swap(const char16_t *s, size_t n, char16_t *d, size_t cap,
                                  unsigned flags, int be) {
  size_t i = 0, replaced = 0, room = n < cap ? n : cap;
  uint64_t carry = 0; /* G16_UNIT: unit i - 1 is a high surrogate, unit i its low one */
  utfx_result r;
  if (n >= 4 * V16_BLOCK && (uintptr_t)d % 2 == 0)
    /* A scalar head puts the stores on vector boundaries (a store across
     * two cache lines costs two). */
    i = (size_t)(-(uintptr_t)d % V_BYTES) / 2;
  /* A pair across that boundary: its high surrogate is swapped after the
   * head and carried, as the repair's, so the blocks stay on it (with the
   * pair kept whole in the head, emoji text ran unaligned in one call in
   * two). */
  if (i && cap > i && g16_is_high(s, i - 1, be) && g16_is_low(s, i, be))
    carry = G16_UNIT;
  else /* the head keeps a pair, and lone lows, whole */
    while (i < n && g16_is_low(s, i, be)) i++;
  if (i > (carry ? 1 : 0)) {
    r = utfxi_swap_utf16_scalar(s, i - (carry ? 1 : 0), d, cap, flags, be);
    if (r.status != UTFX_OK) return r;
    replaced = r.replaced;
  }
  if (carry) d[i - 1] = (char16_t)(s[i - 1] >> 8 | s[i - 1] << 8);
  /* One unit more than a block: a high surrogate that ends a block is
   * checked against the unit after it before the block is stored. */
  while (n - i >= V16_BLOCK + 1 && cap - i >= V16_BLOCK + 1) {
    vu16 a, b;
    size_t start, end, steps = 0;
    int lone = 0;
    if (n - i >= 2 * V16_BLOCK + 1 && cap - i >= 2 * V16_BLOCK + 1) {
      /* the screen: two blocks without a surrogate (most text), in a loop
       * of its own with one bound (through the outer loop's tests a step
       * took four taken branches, and avx2 ran at about half speed in
       * some processes on Zen 4: docs/perf-decisions.md, 'UTF-16 repair
       * and byte swap') */
      const size_t last = room - (2 * V16_BLOCK + 1);
      int clean;
      do {
        vu16 c = v16_load_raw(s + i + 2 * V16_UNITS), e = v16_load_raw(s + i + 3 * V16_UNITS);
        a = v16_load_raw(s + i);
        b = v16_load_raw(s + i + V16_UNITS);
        clean = !g16_screen4(a, b, c, e, be);
        if (!clean) break;
        g16_copy_swapped4(d + i, a, b, c, e);
        i += 2 * V16_BLOCK;
      } while (i <= last);
      if (clean) continue;
    } else {
      /* one block left (and a unit): its screen costs less than the pair
       * test (docs/perf-decisions.md, 'UTF-16 repair and byte swap') */
      a = v16_load_raw(s + i);
      b = v16_load_raw(s + i + V16_UNITS);
      if (!g16_any_surrogate_x2(a, b, be)) {
        v16_store_copy(d + i, v16_bswap(a));
        v16_store_copy(d + i + V16_UNITS, v16_bswap(b));
        i += V16_BLOCK;
        continue;
      }
    }
    /* Surrogates: the pair test, for up to G16_PAIRED_STEPS steps (text
     * with surrogates goes on having them, and a screen that fails costs
     * its own time). */
    lone = !g16_pairs_from(s, i, be, carry);
#ifndef V_MASK_REGISTERS
    if (!lone && UTFXI_UNLIKELY(UTFXI_ALIGN_HEAD(*s, n)) && room - i >= 2 * V16_BLOCK + 1) {
      /* (long calls only: a short one with surrogates pays the failed test
       * in full) */
      const size_t from = i;
      i = (be ? g16_swap_pair_lanes_be : g16_swap_pair_lanes_le)(s, i, room - (2 * V16_BLOCK + 1),
                                                                 d, carry);
      if (i != from) lone = !g16_pairs_from(s, i, be, carry);
    }
#endif
    if (!lone && room - i >= 2 * V16_BLOCK + 1) {
      /* two blocks a step, one bound for the run (the general loop's size
       * tests were a third of its operations) */
      const size_t from = i, last = room - (2 * V16_BLOCK + 1);
      const size_t stop = last - i > (G16_PAIRED_STEPS - 1) * 2 * V16_BLOCK
                              ? i + (G16_PAIRED_STEPS - 1) * 2 * V16_BLOCK
                              : last;
      do {
        uint64_t next = carry;
        vu16 c, e;
        a = v16_load_raw(s + i);
        b = v16_load_raw(s + i + V16_UNITS);
        c = v16_load_raw(s + i + 2 * V16_UNITS);
        e = v16_load_raw(s + i + 3 * V16_UNITS);
        {
#ifdef V_MASK_REGISTERS
          if (g16_pair_faults4(s + i, a, b, c, e, be, &next, 1)) break;
          g16_store_swapped4(d + i, a, b, c, e);
#else
          vu16 sa = v16_bswap(a), sb = v16_bswap(b), sc = v16_bswap(c), se = v16_bswap(e);
          if (g16_swapped_faults4(s + i, sa, sb, sc, se, be)) break;
          v16_store(d + i, sa);
          v16_store(d + i + V16_UNITS, sb);
          v16_store(d + i + 2 * V16_UNITS, sc);
          v16_store(d + i + 3 * V16_UNITS, se);
#endif
        }
        carry = next;
        i += 2 * V16_BLOCK;
      } while (i <= stop);
      steps = (i - from) / (2 * V16_BLOCK);
    }
    /* one block a step: a run's last, or the blocks of a failed test */
    for (; !lone && steps < G16_PAIRED_STEPS; steps++) {
      uint64_t next = carry;
      if (n - i < V16_BLOCK + 1 || cap - i < V16_BLOCK + 1) break;
      a = v16_load_raw(s + i);
      b = v16_load_raw(s + i + V16_UNITS);
      if (g16_pair_faults(s + i, a, b, be, &next, 1)) {
        lone = 1;
        break;
      }
      v16_store(d + i, v16_bswap(a));
      v16_store(d + i + V16_UNITS, v16_bswap(b));
      carry = next;
      i += V16_BLOCK;
    }
    if (steps) carry = g16_carry_at(s, i, be);
    if (!lone) continue;
    /* From the carried high surrogate, if any (its pair is taken whole), to
     * past the low surrogates after the block (a pair's, or lone ones). */
    start = i - (carry ? 1 : 0);
    end = n - i > V16_BLOCK ? i + V16_BLOCK : n; /* the lanes may stop near n */
    while (end < n && g16_is_low(s, end, be)) end++;
    carry = 0;
    r = utfxi_swap_utf16_scalar(s + start, end - start, d + start, cap - start, flags, be);
    if (r.status != UTFX_OK) return utfxi_result_after(&r, start, start, replaced);
    replaced += r.replaced;
    i = end;
  }
#ifndef V_MASKED_TAIL
  if (i < n && n >= V16_BLOCK && cap >= n) {
    /* The rest as the last block again, overlapping units already written:
     * without a surrogate in it, or (a unit before it to read) with its
     * pairs whole and none cut by its end, each of its units was written
     * as its byte swap, the same value. The rest's first unit is tested as
     * after a carry (g16_pairs_from). A tail with surrogates (emoji, mixed
     * text) went to the scalar kernel. */
    const size_t p = n - V16_BLOCK;
    vu16 a = v16_load_raw(s + p), b = v16_load_raw(s + p + V16_UNITS);
    if (!g16_any_surrogate_x2(a, b, be) ||
        (p && g16_pairs_from(s, i, be, carry) && !g16_is_high(s, n - 1, be) &&
         !g16_any_unpaired_back_x2(s + p, be))) {
      v16_store(d + p, v16_bswap(a));
      v16_store(d + p + V16_UNITS, v16_bswap(b));
      return utfxi_result(UTFX_OK, n, n, replaced);
    }
  }
#else
  if (n - i <= V16_BLOCK && cap - i >= n - i && (i == n || g16_pairs_from(s, i, be, carry))) {
    /* The tail as one zero-padded block: a high surrogate in its last unit
     * has no low one after it, so it fails the test, as it should. Its first
     * unit is a low surrogate exactly when a high one is carried (the pair
     * steps stored that high one): emoji text whose pairs straddle the
     * blocks ended in the scalar kernel, a few % of a 64 KiB call
     * (docs/perf-decisions.md, 'UTF-16 byte swap: the masked tail after a
     * carried high surrogate'). */
    const unsigned top = be ? 0x00FC : 0xFC00, high = be ? 0x00D8 : 0xD800,
                   low = be ? 0x00DC : 0xDC00;
    size_t k = n - i, k1 = k ? k - 1 : 0;
    vu16 a = v16_load_tail_raw(s + i, k), a1 = v16_load_tail_raw(s + i + 1, k1);
    vu16 b = k > V16_UNITS ? v16_load_tail_raw(s + i + V16_UNITS, k - V16_UNITS) : v_zero();
    vu16 b1 = k1 > V16_UNITS ? v16_load_tail_raw(s + i + 1 + V16_UNITS, k1 - V16_UNITS) : v_zero();
    if (!v16_any(v16_or(v16_xor(v16_top_eq(a, top, high), v16_top_eq(a1, top, low)),
                        v16_xor(v16_top_eq(b, top, high), v16_top_eq(b1, top, low))))) {
      v16_store_tail(d + i, k < V16_UNITS ? k : V16_UNITS, v16_bswap(a));
      if (k > V16_UNITS) v16_store_tail(d + i + V16_UNITS, k - V16_UNITS, v16_bswap(b));
      return utfxi_result(UTFX_OK, n, n, replaced);
    }
  }
#endif
  if (carry) i--; /* the scalar tail pairs the carried high surrogate with unit i */
  r = utfxi_swap_utf16_scalar(s + i, n - i, d + i, cap - i, flags, be);
  return utfxi_result_after(&r, i, i, replaced);
}
utfx_result G_NAME(convert_utf16le_to_utf16be)(const char16_t *s, size_t n, char16_t *d,
                                               size_t cap, unsigned flags) {
  return g16_swap(s, n, d, cap, flags, 0);
}
utfx_result G_NAME(convert_utf16be_to_utf16le)(const char16_t *s, size_t n, char16_t *d,
                                               size_t cap, unsigned flags) {
  return g16_swap(s, n, d, cap, flags, 1);
}

#endif
