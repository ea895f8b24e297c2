/* Latin-1 <-> UTF-16LE/BE and UTF-32 at any vector width (generic.h): a
 * Latin-1 byte is the value of one unit, so these widen and narrow; and
 * Latin-1 to UTF-8 (its own comment below).
 *
 * Widening (Latin-1 to UTF-16LE/BE, UTF-32): Latin-1 is always valid, so
 * only the destination stops it: k = min(n, cap) bytes are converted
 * (UTFX_DST_FULL when k < n). The loop is store-bound (2 or 4 output bytes
 * a byte) and a store across two cache lines costs two, so a long run
 * stores its first vector whole and goes on from the destination's next
 * vector boundary (a few units are written twice, the same values). The
 * tail: masked stores (V_MASKED_TAIL), else the last vector again,
 * overlapping, else (shorter than a vector) the scalar kernel.
 *
 * Narrowing (UTF-16LE/BE, UTF-32 to Latin-1): a unit or value above 0xFF
 * (outside Latin-1, or a surrogate; U+FFFD is not Latin-1 either) is an
 * error in both modes: the scalar kernel takes over at the step that holds
 * it and stops there with the exact offsets; so it does where a step does
 * not fit. The loop is load-bound: a long input starts with a step that
 * makes the source vector-aligned (aligning the destination instead, half
 * as many bytes, was slower: docs/perf-decisions.md, 'UTF-16 -> Latin-1').
 * The vector steps run to min(n, cap); where the destination is the
 * shorter, the scalar kernel goes on from there and says which it was. The
 * tail: masked loads and stores, else the last block again, overlapping
 * (UTF-16), or single vectors (UTF-32). */
#ifndef UTFX_SIMD_GENERIC_LATIN1_H
#define UTFX_SIMD_GENERIC_LATIN1_H

#include "generic.h"

/* ---- Latin-1 to UTF-16LE/BE and UTF-32 ---- */

enum g_wide { G_WIDE_UTF16LE, G_WIDE_UTF16BE, G_WIDE_UTF32 };

/* The bytes at s + j, one vector of output, widened to d + j. */
UTFXI_INLINE void g_widen_at(const unsigned char *s, void *d, size_t j, enum g_wide t) {
  if (t == G_WIDE_UTF32) {
    v32_store((char32_t *)d + j, v32_widen(s + j));
  } else {
    vu16 u = v16_widen(s + j);
    v16_store((char16_t *)d + j, t == G_WIDE_UTF16BE ? v16_bswap(u) : u);
  }
}

UTFXI_INLINE utfx_result g_widen(const char *src, size_t n, void *d, size_t cap, enum g_wide t) {
  const unsigned char *s = (const unsigned char *)src;
  const size_t lanes = t == G_WIDE_UTF32 ? V32_LANES : V16_UNITS, unit = t == G_WIDE_UTF32 ? 4 : 2;
  size_t k = n < cap ? n : cap, i = 0;
  if (k >= 4 * lanes && (uintptr_t)d % unit == 0) { /* the head: see above */
    g_widen_at(s, d, 0, t);
    i = (size_t)(-(uintptr_t)d % V_BYTES) / unit;
  }
  for (; k - i >= 2 * lanes; i += 2 * lanes) {
    g_widen_at(s, d, i, t);
    g_widen_at(s, d, i + lanes, t);
  }
#ifdef V_MASKED_TAIL
  for (; i < k; i += lanes) {
    size_t r = k - i < lanes ? k - i : lanes;
    if (t == G_WIDE_UTF32) {
      v32_store_tail((char32_t *)d + i, r, v32_widen_tail(s + i, r));
    } else {
      vu16 u = v16_widen_tail(s + i, r);
      v16_store_tail((char16_t *)d + i, r, t == G_WIDE_UTF16BE ? v16_bswap(u) : u);
    }
  }
#else
  if (k - i >= lanes) {
    g_widen_at(s, d, i, t);
    i += lanes;
  }
  if (i < k && k >= lanes) {
    g_widen_at(s, d, k - lanes, t);
    i = k;
  }
  if (i < k) {
    if (t == G_WIDE_UTF32)
      utfxi_convert_latin1_to_utf32_scalar(src + i, k - i, (char32_t *)d + i, k - i, 0);
    else if (t == G_WIDE_UTF16BE)
      utfxi_convert_latin1_to_utf16be_scalar(src + i, k - i, (char16_t *)d + i, k - i, 0);
    else
      utfxi_convert_latin1_to_utf16le_scalar(src + i, k - i, (char16_t *)d + i, k - i, 0);
  }
#endif
  return utfxi_result(k == n ? UTFX_OK : UTFX_DST_FULL, k, k, 0);
}

utfx_result G_NAME(convert_latin1_to_utf16le)(const char *s, size_t n, char16_t *d, size_t cap,
                                              unsigned flags) {
  (void)flags;
  return g_widen(s, n, d, cap, G_WIDE_UTF16LE);
}
utfx_result G_NAME(convert_latin1_to_utf16be)(const char *s, size_t n, char16_t *d, size_t cap,
                                              unsigned flags) {
  (void)flags;
  return g_widen(s, n, d, cap, G_WIDE_UTF16BE);
}
utfx_result G_NAME(convert_latin1_to_utf32)(const char *s, size_t n, char32_t *d, size_t cap,
                                            unsigned flags) {
  (void)flags;
  return g_widen(s, n, d, cap, G_WIDE_UTF32);
}

/* ---- Latin-1 to UTF-8 ---- */

/* A block of V_BYTES bytes makes V_BYTES to 2 * V_BYTES bytes: the forms of
 * its halves (v_utf8_forms), each packed by v_store_utf8, whose store may
 * spill up to V16_UNITS bytes past its output. The first half's spill is
 * overwritten by the second half's output (V16_UNITS bytes or more); the
 * second's by the next block, so the loop runs while a next block surely
 * follows (input and room for it), and the last block's store is exact.
 * An ASCII block is copied, and after it more by four vectors. Unbounded
 * (cap >= 2 n: always room) the loop tests no room. A long input starts
 * with a step that makes the source vector-aligned (the loop's loads bind:
 * docs/perf-decisions.md, 'Latin-1 -> UTF-8'). */
UTFXI_INLINE void g_latin1_to_utf8_step(const unsigned char *s, size_t n, unsigned char *d,
                                        size_t cap, int bounded, size_t *i, size_t *w, int exact) {
  vu8 v = v_load(s + *i);
  vforms8 h0, h1;
  if (!v_any_high(v)) {
    size_t run;
    v_store(d + *w, v);
    *i += V_BYTES;
    *w += V_BYTES;
    run = g_copy_ascii_x4(s + *i, bounded && cap - *w < n - *i ? cap - *w : n - *i, d + *w);
    *i += run;
    *w += run;
    return;
  }
  v_utf8_forms(v, &h0, &h1);
  *w += v_store_utf8(d + *w, h0, 0);
  *w += v_store_utf8(d + *w, h1, exact);
  *i += V_BYTES;
}

UTFXI_INLINE utfx_result g_latin1_to_utf8_body(const unsigned char *s, size_t n, unsigned char *d,
                                               size_t cap, int bounded) {
  size_t i = 0, w = 0;
  utfx_result r;
  if (UTFXI_ALIGN_HEAD(*s, n) && (!bounded || cap >= 4 * V_BYTES)) {
    /* The head: the first block's output is stored whole, but the steps go
     * on from the source's next vector boundary (loads across two cache
     * lines cost two): the bytes of its output past the first k bytes' are
     * made again there, the same values. */
    size_t k = utfxi_aligning_step(s, 1, V_BYTES, 0, 1);
    if (k) {
      vu8 v = v_load(s);
      vforms8 h0, h1;
      v_utf8_forms(v, &h0, &h1);
      v_store_utf8(d + v_store_utf8(d, h0, 0), h1, 0);
      i = k;
      w = k + g_popcnt64(v_bits(v_ge(v, 0x80)) & ((2ull << (k * V_BYTE_BITS - 1)) - 1)) /
                  V_BYTE_BITS;
    }
  }
  while (n - i >= 2 * V_BYTES && (!bounded || cap - w >= 4 * V_BYTES))
    g_latin1_to_utf8_step(s, n, d, cap, bounded, &i, &w, 0);
  if (n - i >= V_BYTES && (!bounded || cap - w >= 2 * V_BYTES))
    g_latin1_to_utf8_step(s, n, d, cap, bounded, &i, &w, 1);
#ifdef V_MASKED_TAIL
  /* the last block (zeros past the input are ASCII), exact, when it fits */
  if (i < n && n - i < V_BYTES) {
    size_t k = n - i;
    vu8 v = v_load_tail(s + i, k);
    size_t len = k + g_popcnt64(v_bits(v_ge(v, 0x80))) / V_BYTE_BITS;
    if (!bounded || cap - w >= len) {
      vforms8 h0, h1;
      v_utf8_forms(v, &h0, &h1);
      w += v_store_utf8_tail(d + w, k < V16_UNITS ? k : V16_UNITS, h0);
      if (k > V16_UNITS) w += v_store_utf8_tail(d + w, k - V16_UNITS, h1);
      return utfxi_result(UTFX_OK, n, w, 0);
    }
  }
#endif
  if (i == n) return utfxi_result(UTFX_OK, n, w, 0);
  r = utfxi_convert_latin1_to_utf8_scalar((const char *)s + i, n - i, (char *)d + w, cap - w, 0);
  return utfxi_result_after(&r, i, w, 0);
}

utfx_result G_NAME(convert_latin1_to_utf8)(const char *s, size_t n, char *d, size_t cap,
                                           unsigned flags) {
  (void)flags;
  if (cap / 2 >= n)
    return g_latin1_to_utf8_body((const unsigned char *)s, n, (unsigned char *)d, cap, 0);
  return g_latin1_to_utf8_body((const unsigned char *)s, n, (unsigned char *)d, cap, 1);
}

/* ---- UTF-8 to Latin-1 (a tier may keep its own: G_OWN_UTF8_TO_LATIN1) ---- */

#ifndef G_OWN_UTF8_TO_LATIN1
/* UTF-8 that converts to Latin-1 holds only ASCII and C2 80..C2 BF
 * (U+0080..U+00BF), C3 80..C3 BF (U+00C0..U+00FF). Each output byte is made
 * at the byte where its character ends: ASCII is itself, a continuation
 * after C2 itself, one after C3 itself plus 0x40 (v_latin1_of_utf8, from the
 * block and the same block loaded one byte back); leads make nothing and
 * are dropped (v_store_without). A block is well-formed Latin-1 exactly when
 * its continuations are the bytes after its leads (and after a carried
 * lead) and every lead is C2 or C3: a few compares and bit operations on
 * masks, at a fixed step; nothing waits on the previous block but one bit,
 * whether its last byte was a lead.
 *
 * Anything else (an error, a character above U+00FF, a block that does not
 * fit) goes to the scalar kernel from the start of the character the block
 * was in, with nothing written for it yet: it reports the error, or fills
 * the destination to the last whole character, as the scalar tier does. A
 * store spills at most V_BYTES / 2 bytes past what it made (a block makes
 * that many or more); the hot loop's second block's store is exact, over
 * the first one's spill. */
#define G_MASK_BITS (V_BYTES * V_BYTE_BITS)
#define G_ALL_BITS (G_MASK_BITS == 64 ? ~0ull : (1ull << (G_MASK_BITS % 64)) - 1)

typedef struct {
  vu8 out;       /* the block's bytes, continuations after C3 corrected */
  vm8 leads;     /* the bytes to drop */
  size_t made;   /* how many bytes it makes */
  uint64_t err;  /* nonzero: not well-formed Latin-1 */
  uint64_t lead; /* its last byte is a lead */
} g_u8l1_block;

/* The block v; prev: the bytes one before it; lead_in: the byte before it
 * is a lead. */
UTFXI_INLINE g_u8l1_block g_u8l1_convert(vu8 v, vu8 prev, uint64_t lead_in) {
  g_u8l1_block b;
  uint64_t leads, conts, c2c3;
  b.leads = v_ge(v, 0xC0);
  leads = v_bits(b.leads);
  conts = v_bits(v_ge(v, 0x80)) ^ leads;
  c2c3 = v_bits(v_ge(v, 0xC2)) & ~v_bits(v_ge(v, 0xC4));
  b.err = (((leads << V_BYTE_BITS | (lead_in ? (1u << V_BYTE_BITS) - 1 : 0)) & G_ALL_BITS) ^ conts) |
          (leads ^ c2c3);
  b.made = V_BYTES - g_popcnt64(leads) / V_BYTE_BITS;
  b.lead = leads >> (G_MASK_BITS - 1);
  b.out = v_latin1_of_utf8(v, prev);
  return b;
}

/* The bytes one before s + i: a load, or for the first block a shift of v
 * itself (nothing before src is read). */
UTFXI_INLINE vu8 g_u8l1_prev(const unsigned char *s, size_t i, vu8 v) {
  return i ? v_load(s + i - 1) : v_prev(v_zero(), v, 1);
}

UTFXI_INLINE utfx_result g_utf8_to_latin1(const char *src, size_t n, char *dst, size_t cap,
                                          unsigned flags) {
  const unsigned char *s = (const unsigned char *)src;
  unsigned char *d = (unsigned char *)dst;
  size_t i = 0, w = 0, at;
  uint64_t lead_in = 0; /* the byte before s + i is a lead */
  utfx_result r;
  while (n - i >= 2 * V_BYTES && cap - w >= 2 * V_BYTES) {
    vu8 v0 = v_load(s + i), v1 = v_load(s + i + V_BYTES);
    g_u8l1_block b0, b1;
    if (!v_any_high(v_or(v0, v1)) && !lead_in) {
      /* Before a long run the step advances only far enough to make the
       * destination aligned: the run's stores then never straddle cache
       * lines. */
      size_t adv = utfxi_aligning_step(d + w, 1, V_BYTES, 2 * V_BYTES,
                                       n - i >= 320 && cap - w >= 320);
      v_store(d + w, v0);
      v_store(d + w + V_BYTES, v1);
      i += adv;
      w += adv;
      { /* after ASCII, look for more by four vectors */
        size_t run = g_copy_ascii_x4(s + i, cap - w < n - i ? cap - w : n - i, d + w);
        i += run;
        w += run;
      }
      continue;
    }
    b0 = g_u8l1_convert(v0, g_u8l1_prev(s, i, v0), lead_in);
    b1 = g_u8l1_convert(v1, v_load(s + i + V_BYTES - 1), b0.lead);
    if (b0.err | b1.err) goto rest;
    w += v_store_without(d + w, b0.out, b0.leads, 0);
    w += v_store_without(d + w, b1.out, b1.leads, 1);
    i += 2 * V_BYTES;
    lead_in = b1.lead;
  }
  while (n - i >= V_BYTES) {
    vu8 v = v_load(s + i);
    g_u8l1_block b;
    if (!v_any_high(v) && !lead_in && cap - w >= V_BYTES) {
      v_store(d + w, v);
      i += V_BYTES;
      w += V_BYTES;
      continue;
    }
    b = g_u8l1_convert(v, g_u8l1_prev(s, i, v), lead_in);
    if (b.err || b.made > cap - w) goto rest;
    w += v_store_without(d + w, b.out, b.leads, 1);
    i += V_BYTES;
    lead_in = b.lead;
  }
  if (i == n && !lead_in) return utfxi_result(UTFX_OK, n, w, 0);
rest:
  at = i - (size_t)lead_in; /* from the start of the character s + i is in */
  r = utfxi_convert_utf8_to_latin1_scalar(src + at, n - at, dst + w, cap - w, flags);
  return utfxi_result_after(&r, at, w, 0);
}

utfx_result G_NAME(convert_utf8_to_latin1)(const char *s, size_t n, char *d, size_t cap,
                                           unsigned flags) {
  return g_utf8_to_latin1(s, n, d, cap, flags);
}
#endif

/* ---- UTF-16LE/BE to Latin-1 ---- */

/* Whether some unit of the vectors is above 0xFF: v16_load_raw units, in
 * the byte order be (loaded without a swap: v16_pack_latin1 takes the
 * value's byte where it is). */
#define G_ABOVE_FF(v) v16_any_bits((v), be ? 0x00FF : 0xFF00)

UTFXI_INLINE utfx_result g_utf16_to_latin1_scalar(const char16_t *s, size_t n, char *d,
                                                  size_t cap, unsigned flags, int be) {
  return be ? utfxi_convert_utf16be_to_latin1_scalar(s, n, d, cap, flags)
            : utfxi_convert_utf16le_to_latin1_scalar(s, n, d, cap, flags);
}

UTFXI_INLINE utfx_result g_utf16_to_latin1_body(const char16_t *s, size_t n, char *d, size_t cap,
                                                unsigned flags, int be) {
  size_t i = 0;
  utfx_result r;
  /* four vectors a test while they last (the loop is load-bound) */
  while (n - i >= 2 * V16_BLOCK && cap - i >= 2 * V16_BLOCK) {
    vu16 a = v16_load_raw(s + i), b = v16_load_raw(s + i + V16_UNITS);
    vu16 c = v16_load_raw(s + i + 2 * V16_UNITS), e = v16_load_raw(s + i + 3 * V16_UNITS);
    if (G_ABOVE_FF(v16_or_units(v16_or_units(a, b), v16_or_units(c, e)))) break;
    v_store(d + i, v16_pack_latin1(a, b, be));
    v_store(d + i + V16_BLOCK, v16_pack_latin1(c, e, be));
    i += 2 * V16_BLOCK;
  }
  while (n - i >= V16_BLOCK && cap - i >= V16_BLOCK) {
    vu16 a = v16_load_raw(s + i), b = v16_load_raw(s + i + V16_UNITS);
    if (G_ABOVE_FF(v16_or_units(a, b))) break;
    v_store(d + i, v16_pack_latin1(a, b, be));
    i += V16_BLOCK;
  }
#ifdef V_MASKED_TAIL
  for (const size_t k = n < cap ? n : cap; i < k;) {
    size_t m = k - i < V16_UNITS ? k - i : V16_UNITS;
    vu16 v = m == V16_UNITS ? v16_load(s + i, be) : v16_load_tail(s + i, m, be);
    if (v16_any_bits(v, 0xFF00)) break; /* (in the host's order) */
    v16_store_bytes_tail(d + i, m, v);
    i += m;
  }
#else
  if (i < n && n - i < V16_BLOCK && n >= V16_BLOCK && cap >= n) {
    /* the last block, overlapping units already done (the same bytes
     * again), instead of the scalar kernel for the rest */
    vu16 a = v16_load_raw(s + n - V16_BLOCK), b = v16_load_raw(s + n - V16_UNITS);
    if (!G_ABOVE_FF(v16_or_units(a, b))) {
      v_store(d + n - V16_BLOCK, v16_pack_latin1(a, b, be));
      return utfxi_result(UTFX_OK, n, n, 0);
    }
  }
#endif
  if (i == n) return utfxi_result(UTFX_OK, n, n, 0);
  r = g_utf16_to_latin1_scalar(s + i, n - i, d + i, cap - i, flags, be);
  return utfxi_result_after(&r, i, i, 0);
}

#ifdef V_PREV_ANY_K
/* The source on a vector boundary, the destination not: the stores go on
 * vector boundaries too, each block's output shifted against the last
 * one's (v_prev_bytes, one VPERMT2B), as a store across two cache lines
 * costs two (docs/perf-decisions.md, 'UTF-16 -> Latin-1'). Returns the
 * units done, their output stored. */
UTFXI_INLINE size_t g_utf16_to_latin1_shifted(const char16_t *s, size_t n, char *d, size_t cap,
                                              int be) {
  const int mis = (int)((uintptr_t)d % V_BYTES);
  size_t i = V16_BLOCK;
  vu16 a = v16_load_raw(s), b = v16_load_raw(s + V16_UNITS);
  vu8 prev;
  if (!mis || n < 3 * V16_BLOCK || cap < 3 * V16_BLOCK || G_ABOVE_FF(v16_or_units(a, b)))
    return 0;
  prev = v16_pack_latin1(a, b, be);
  v_store(d, prev); /* (the loop's stores start at the next boundary) */
  while (n - i >= 2 * V16_BLOCK && cap - i >= 2 * V16_BLOCK) {
    vu16 c, e;
    vu8 p0;
    a = v16_load_raw(s + i);
    b = v16_load_raw(s + i + V16_UNITS);
    c = v16_load_raw(s + i + 2 * V16_UNITS);
    e = v16_load_raw(s + i + 3 * V16_UNITS);
    if (G_ABOVE_FF(v16_or_units(v16_or_units(a, b), v16_or_units(c, e)))) break;
    p0 = v16_pack_latin1(a, b, be);
    v_store(d + i - mis, v_prev_bytes(prev, p0, mis));
    prev = v16_pack_latin1(c, e, be);
    v_store(d + i + V16_BLOCK - mis, v_prev_bytes(p0, prev, mis));
    i += 2 * V16_BLOCK;
  }
  v_store(d + i - V16_BLOCK, prev); /* (the bytes of it not yet stored) */
  return i;
}
#endif

/* Long inputs: a head that puts the source on a vector boundary, then the
 * body. Called out of line, one function per byte order (below): inline,
 * its registers slowed short inputs; with the byte order as an argument,
 * the call's seventh argument went on the stack, and the short inputs'
 * frame with it. */
UTFXI_INLINE utfx_result g_utf16_to_latin1_long(const char16_t *s, size_t n, char *d, size_t cap,
                                                unsigned flags, int be) {
  size_t k = 0;
  utfx_result r;
  vu16 a = v16_load_raw(s), b = v16_load_raw(s + V16_UNITS);
  if (!G_ABOVE_FF(v16_or_units(a, b))) {
    v_store(d, v16_pack_latin1(a, b, be));
    k = utfxi_aligning_step(s, 2, V_BYTES, V16_BLOCK, 1);
#ifdef V_PREV_ANY_K
    k += g_utf16_to_latin1_shifted(s + k, n - k, d + k, cap - k, be);
#endif
  }
  r = g_utf16_to_latin1_body(s + k, n - k, d + k, cap - k, flags, be);
  return utfxi_result_after(&r, k, k, 0);
}

__attribute__((noinline)) static utfx_result g_utf16le_to_latin1_long(const char16_t *s, size_t n,
                                                                      char *d, size_t cap,
                                                                      unsigned flags) {
  return g_utf16_to_latin1_long(s, n, d, cap, flags, 0);
}
__attribute__((noinline)) static utfx_result g_utf16be_to_latin1_long(const char16_t *s, size_t n,
                                                                      char *d, size_t cap,
                                                                      unsigned flags) {
  return g_utf16_to_latin1_long(s, n, d, cap, flags, 1);
}

UTFXI_INLINE utfx_result g_utf16_to_latin1(const char16_t *s, size_t n, char *d, size_t cap,
                                           unsigned flags, int be) {
  if (UTFXI_ALIGN_HEAD(*s, n) && cap >= 256)
    return be ? g_utf16be_to_latin1_long(s, n, d, cap, flags)
              : g_utf16le_to_latin1_long(s, n, d, cap, flags);
  return g_utf16_to_latin1_body(s, n, d, cap, flags, be);
}

UTFXI_CONVERT_ENTRY(G_NAME(convert_utf16le_to_latin1), char16_t, char, g_utf16_to_latin1, 0)
UTFXI_CONVERT_ENTRY(G_NAME(convert_utf16be_to_latin1), char16_t, char, g_utf16_to_latin1, 1)

/* ---- UTF-32 to Latin-1 ---- */

/* Short inputs go by single vectors after the blocks (handing them to the
 * scalar kernel was slower than the scalar tier: docs/perf-decisions.md,
 * 'UTF-32 -> Latin-1'). */
utfx_result G_NAME(convert_utf32_to_latin1)(const char32_t *s, size_t n, char *d, size_t cap,
                                            unsigned flags) {
  size_t i = 0, k = n < cap ? n : cap; /* the vector steps end at k */
  utfx_result r;
  if (UTFXI_ALIGN_HEAD(*s, n) && cap >= 256) {
    vu32 v = v32_load(s);
    if (!v32_any_bits(v, ~0xFFu)) {
      v32_store_bytes(d, v);
      i = utfxi_aligning_step(s, 4, V_BYTES, V32_LANES, 1);
    }
  }
  for (; k - i >= 4 * V32_LANES; i += 4 * V32_LANES) {
    vu32 a = v32_load(s + i), b = v32_load(s + i + V32_LANES);
    vu32 c = v32_load(s + i + 2 * V32_LANES), e = v32_load(s + i + 3 * V32_LANES);
    /* the OR of the values is above 0xFF exactly when one of them is */
    if (v32_any_bits(v32_or_values(v32_or_values(a, b), v32_or_values(c, e)), ~0xFFu)) break;
    v_store(d + i, v32_pack_bytes(a, b, c, e));
  }
#ifdef V_MASKED_TAIL
  while (i < k) {
    size_t m = k - i < V32_LANES ? k - i : V32_LANES;
    vu32 v = v32_load_tail(s + i, m);
    if (v32_any_bits(v, ~0xFFu)) break;
    v32_store_bytes_tail(d + i, m, v);
    i += m;
  }
#else
  for (; k - i >= V32_LANES; i += V32_LANES) {
    vu32 v = v32_load(s + i);
    if (v32_any_bits(v, ~0xFFu)) break;
    v32_store_bytes(d + i, v);
  }
#endif
  if (i == n) return utfxi_result(UTFX_OK, n, n, 0);
  r = utfxi_convert_utf32_to_latin1_scalar(s + i, n - i, d + i, cap - i, flags);
  return utfxi_result_after(&r, i, i, 0);
}

#endif
