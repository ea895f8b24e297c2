/* UTF-8 to UTF-16LE/BE and UTF-32, the driver of every tier (static inline,
 * the target form a compile-time constant in each wrapper; to Latin-1:
 * generic_latin1.h).
 *
 * Each step loads a vector of V_BYTES bytes that starts at a character
 * boundary:
 *  - All ASCII: widened and stored; before a run of ASCII (64 bytes or more)
 *    the step advances only as far as makes the destination V_BYTES-aligned,
 *    then runs go 4 vectors a test in a loop of their own.
 *    ASCII from the start of a call goes before the other steps'
 *    constants are made.
 *  - After a block of 3-byte characters only (CJK), runs of them go
 *    G_RUN3_BYTES a step (generic_utf8_runs.h, where the vocabulary has its
 *    words) while they last.
 *  - Otherwise the block is checked: blocks of ASCII and 2-byte characters
 *    only with a few operations on the byte masks (every continuation after
 *    a lead, every lead followed by one, none C0/C1), others by the lookup
 *    check (Keiser and Lemire 2021, generic_utf8_check.h) given the three
 *    bytes before each (loads where they are checked whole characters, else
 *    zeros: before a character start, whole characters leave nothing for
 *    the block's bytes to continue). A block with an error goes to the
 *    scalar steps, which convert through the error and return at a
 *    character boundary.
 *  - A block of 4-byte characters only (emoji) is decoded in its 32-bit
 *    lanes (generic_utf8_runs.h, as the runs).
 *  - Otherwise the characters that end before the block's last character
 *    start (all of it when its last byte is ASCII) are converted by the
 *    ISA's word v_utf8_put_units, which gets each character's low and high
 *    byte of code point at its last byte from the bytes one and two back and
 *    packs the units of the characters' ends (a PSHUFB or TBL compress
 *    table, VPCOMPRESSB on AVX-512). Where the word takes no 4-byte
 *    characters (V_UTF8_UNITS_4BYTE undefined), those from the block's first
 *    one on are decoded one at a time, unchecked (the block is well-formed).
 * Bounds: a step needs V_BYTES readable bytes and room for V_BYTES units
 * (a step writes at most a unit per byte). Where the ISA loads and stores
 * under masks (V_MASKED_TAIL), the last 8 to V_BYTES - 1 bytes are one more
 * step, loaded zero-padded (a zero after them exposes an unfinished
 * character), when there is room for a unit each; the rest of the input, and
 * the end of a destination that is too small, go to the scalar steps
 * (V_MASKED_TAIL) or the scalar kernel, which stop at a character
 * boundary.
 *
 * The vocabulary words it needs besides generic.h's and generic_utf8_runs.h's
 * (defined in each vec_*.h, in the block 'UTF-8 -> UTF-16 / UTF-32'):
 *   v_high_bits(v)      a v_bits mask of the bytes >= 0x80
 *   v_at_least(v, k)    the bytes of v >= those of k (unsigned), a vm8
 *   v_is_cont_given(v, c0)   v_is_cont(v), with c0 = v_splat(0xC0) given
 *                       (pinned by the caller)
 *   V_UTF8_PIN_CHECK    defined where the lookup check's constants,
 *                       made once per call, are pinned in registers (gcc
 *                       on AVX-512 would make them again in the loop);
 *                       elsewhere they are only hidden (V_CONST8,
 *                       V_LOADED): AVX2's 16 registers spill them, and a
 *                       spilled one is a memory operand where gcc 12 would
 *                       make it again in every step (a GPR move, a transfer
 *                       and a broadcast)
 *   struct v_utf8_units_k, v_utf8_units_k_init(&k, t)   the pack's constants,
 *                       built once per call (and pinned by the init)
 *   v_put_ascii(dst, w, v, t)       the V_BYTES ASCII bytes of v as units at
 *                       unit w of dst (target form t)
 *   v_put_ascii_run(dst, w, v, t)   the same, in the ASCII run loop
 *   V_ASCII_RUN_K, struct v_ascii_run_k, v_ascii_run_k_init(&k, t),
 *   v_put_ascii_run_k(&k, dst, w, v, t)   (optional) the run loop's put to
 *                       UTF-16 (t UTF-16LE/BE) on constants made once a run,
 *                       instead of v_put_ascii_run
 *   v_put_ascii_tail(dst, w, v, r, t)   (V_MASKED_TAIL) the first r
 *   v_utf8_put_units(&k, v, cont, prev1, prev2, prev3, ends, lead4, dst, w,
 *                    room, t)   the units of the characters of the
 *                       well-formed block v whose last bytes `ends` marks
 *                       (a v_bits mask; cont: v_is_cont(v); prev1..3: the
 *                       bytes one to three back, zero or real before the
 *                       block; lead4: the 4-byte leads among them, 0 unless
 *                       V_UTF8_UNITS_4BYTE), at unit w of dst; room (at least
 *                       V_BYTES) is the units of dst from w on, and nothing
 *                       past the output is changed; returns the units
 *   V_UTF8_STRIDE, v_utf8_put_units_stride(...)   (optional; 1-bit byte
 *                       masks) the fixed-stride steps' put, g_u8_stride */
#ifndef UTFX_SIMD_GENERIC_UTF8_TRANSCODE_H
#define UTFX_SIMD_GENERIC_UTF8_TRANSCODE_H

#include "generic.h"
#include "generic_utf8_check.h"
#include "utf8_steps.h"
#ifdef V32_SPREAD3_READS
#include "generic_utf8_runs.h"
#endif

/* Byte masks (v_bits): V_BYTE_BITS bits per byte, in V_BYTES * V_BYTE_BITS
 * bits. */
#define G_U8_MASK_BITS (V_BYTES * V_BYTE_BITS)
#define G_U8_ALL (G_U8_MASK_BITS == 64 ? ~0ull : (1ull << (G_U8_MASK_BITS & 63)) - 1)
#define G_U8_BYTE ((1ull << V_BYTE_BITS) - 1) /* the bits of byte 0 */

/* The bits of bytes 0 .. k - 1 (k <= V_BYTES). */
static inline uint64_t g_u8_below(size_t k) {
#if defined(__BMI2__)
  return _bzhi_u64(~0ull, (unsigned)(k * V_BYTE_BITS));
#else
  return k * V_BYTE_BITS >= 64 ? ~0ull : (1ull << (k * V_BYTE_BITS)) - 1;
#endif
}

/* A byte mask from a constant mask of one bit per byte (V_BYTE_BITS 1 or
 * 4, then V_BYTES 16): a constant expression. */
#define G_U8_S4(x, j) (((x) >> (j)&1) * (0xFull << 4 * (j)))
#define G_U8_SPREAD(x)                                                                        \
  (V_BYTE_BITS == 1 ? (x)&G_U8_ALL                                                            \
                    : (G_U8_S4(x, 0) | G_U8_S4(x, 1) | G_U8_S4(x, 2) | G_U8_S4(x, 3) | G_U8_S4(x, 4) | G_U8_S4(x, 5) | G_U8_S4(x, 6) | G_U8_S4(x, 7) | G_U8_S4(x, 8) | G_U8_S4(x, 9) | G_U8_S4(x, 10) | G_U8_S4(x, 11) | G_U8_S4(x, 12) | G_U8_S4(x, 13) | G_U8_S4(x, 14) | G_U8_S4(x, 15)))

/* The well-formed characters of p[j..e) one at a time (1 to 4 bytes), at
 * unit w of dst; returns the new w. */
UTFXI_INLINE size_t g_utf8_put_each(const unsigned char *p, size_t j, size_t e, void *dst,
                                    size_t w, enum utfxi_target t) {
  while (j < e) {
    uint32_t c = p[j];
    if (c < 0x80) {
      j++;
    } else if (c < 0xE0) {
      c = (c & 0x1F) << 6 | (p[j + 1] & 0x3Fu);
      j += 2;
    } else if (c < 0xF0) {
      c = (c & 0x0F) << 12 | (p[j + 1] & 0x3Fu) << 6 | (p[j + 2] & 0x3Fu);
      j += 3;
    } else {
      c = (c & 0x07) << 18 | (p[j + 1] & 0x3Fu) << 12 | (p[j + 2] & 0x3Fu) << 6 |
          (p[j + 3] & 0x3Fu);
      j += 4;
    }
    w += utfxi_put(dst, w, c, t);
  }
  return w;
}

/* The byte constants of the step, made once per call (and pinned where
 * V_PIN does: gcc on AVX-512 would make them again in the loop). */
struct g_u8_bytes {
  vu8 c0, c2, e0, f0;
};

/* Where a call stands (offsets in locals of the driver, copied in and out:
 * kept in memory, whose address the scalar steps take, every block would
 * chain through a store and a load). */
struct g_u8_pos {
  size_t i, w;
  size_t clean; /* bytes [clean, i) are whole characters already checked */
  int try3;     /* the last block held only 3-byte characters */
  int try4;     /* the last block held only 4-byte characters */
};

/* The ASCII block v at pos->i (a whole block, with room): stored; and
 * before a run of ASCII (64 bytes or more) the run, 4 vectors a test. */
UTFXI_INLINE void g_u8_ascii(const unsigned char *s, size_t n, void *dst, size_t cap,
                             enum utfxi_target t, struct g_u8_pos *pos, vu8 v) {
  const size_t unit = t == UTFXI_T_UTF32 ? 4 : 2;
  size_t i = pos->i, w = pos->w, adv;
  const unsigned char *p = s + i;
  if (V_BYTES < 64) {
    /* a run of ASCII starts with 64 bytes of it */
    int j, run = n - i >= 64 && cap - w >= 64;
    for (j = 1; run && j < 64 / V_BYTES; j++) run = !v_any_high(v_load(p + j * V_BYTES));
    if (!run) {
      v_put_ascii(dst, w, v, t);
      pos->i = i + V_BYTES;
      pos->w = w + V_BYTES;
      return;
    }
  }
  /* All 64 units are stored (each is output that the call writes in any
   * case), but before a long run the step advances only as far as makes
   * the destination V_BYTES-aligned, so that the run's stores never
   * straddle cache lines (docs/perf-decisions.md, 'UTF-8 ->
   * UTF-16/UTF-32'). */
  adv = utfxi_aligning_step((unsigned char *)dst + w * unit, unit, V_BYTES, 64,
                            n - i >= 320 && cap - w >= 320);
  {
    int j;
    for (j = 0; j < 64 / V_BYTES; j++)
      v_put_ascii(dst, w + (size_t)j * V_BYTES, j ? v_load(p + j * V_BYTES) : v, t);
  }
  i += adv;
  w += adv;
  /* ASCII runs: 4 vectors a test while they last. */
#define G_U8_RUN_LOOP(PUT)                                                    \
  while (n - i >= 4 * V_BYTES && cap - w >= 4 * V_BYTES) {                    \
    const unsigned char *q = s + i;                                           \
    vu8 a = v_load(q), b = v_load(q + V_BYTES);                               \
    vu8 c = v_load(q + 2 * V_BYTES), x = v_load(q + 3 * V_BYTES);             \
    if (v_any_high(v_or(v_or(a, b), v_or(c, x)))) break;                      \
    PUT(dst, w, a, t);                                                        \
    PUT(dst, w + V_BYTES, b, t);                                              \
    PUT(dst, w + 2 * V_BYTES, c, t);                                          \
    PUT(dst, w + 3 * V_BYTES, x, t);                                          \
    i += 4 * V_BYTES;                                                         \
    w += 4 * V_BYTES;                                                         \
  }
#ifdef V_ASCII_RUN_K
  if (t != UTFXI_T_UTF32) {
    if (n - i >= 4 * V_BYTES && cap - w >= 4 * V_BYTES) {
      struct v_ascii_run_k rk;
      v_ascii_run_k_init(&rk, t);
#define G_U8_PUT_RUN_K(d, o, v, tt) v_put_ascii_run_k(&rk, d, o, v, tt)
      G_U8_RUN_LOOP(G_U8_PUT_RUN_K)
#undef G_U8_PUT_RUN_K
    }
  } else
#endif
  {
    G_U8_RUN_LOOP(v_put_ascii_run)
  }
#undef G_U8_RUN_LOOP
  pos->i = i;
  pos->w = w;
}

/* The scalar steps from pos->i through the error at byte `bad` of the block
 * (err: a v_bits mask of the errors); returns their status. */
UTFXI_INLINE int g_u8_through(const unsigned char *s, size_t n, void *dst, size_t cap,
                              unsigned flags, enum utfxi_target t, struct utfxi_u8state *st,
                              struct g_u8_pos *pos, uint64_t err) {
  int status;
  st->i = pos->i;
  st->w = pos->w;
  status =
      utfxi_utf8_steps(s, n, pos->i + g_ctz64(err) / V_BYTE_BITS + 1, st, dst, cap, flags, t);
  pos->i = pos->clean = st->i;
  pos->w = st->w;
  return status;
}

/* The well-formed block v at pos->i: its characters that end before its
 * last character start (or all of it when its last byte is ASCII, or in the
 * last step), by v_utf8_put_units; pos advances past them (two: the block
 * holds ASCII and 2-byte characters only). Inlined at each call, so that
 * the ASCII / 2-byte blocks' zero context folds away. */
UTFXI_INLINE void g_u8_put_block(const unsigned char *s, size_t n, void *dst, size_t cap,
                                 enum utfxi_target t, const struct v_utf8_units_k *uk,
                                 struct g_u8_pos *pos, vu8 v, vm8 iscont, uint64_t cont,
                                 vu8 prev1, vu8 prev2, vu8 prev3, uint64_t lead4, int last,
                                 int two) {
  size_t i = pos->i, w = pos->w, e;
  const unsigned char *p = s + i;
  uint64_t ends;
  /* Where the next step starts: after the block, less the bytes of a
   * character it does not end; as the block is well-formed, that is at most
   * one of a lead in its last byte, a 3- or 4-byte lead in the one before,
   * or a 4-byte lead three back (in a block of ASCII and 2-byte characters,
   * only the first). This is the chain from one step's load to the next
   * one's: a few scalar operations on bytes loaded side by side, no branch,
   * and pos->i set before the put, so that it stays out of memory
   * (docs/perf-decisions.md, 'UTF-8 -> UTF-16/UTF-32'). */
  if (last) {
    e = n - i; /* no error: the block ends with a whole character */
  } else if (two) {
    e = V_BYTES - (((size_t)p[V_BYTES - 1] + 0x40) >> 8);
  } else {
    e = V_BYTES - (((size_t)p[V_BYTES - 1] + 0x40) >> 8) -
        (((size_t)p[V_BYTES - 2] + 0x20) >> 8) * 2 - (((size_t)p[V_BYTES - 3] + 0x10) >> 8) * 3;
  }
  pos->i = i + e;
  /* The last byte of a character is followed by a non-continuation. */
  ends = ((~cont & G_U8_ALL) >> V_BYTE_BITS |
          (e == V_BYTES ? G_U8_BYTE << (G_U8_MASK_BITS - V_BYTE_BITS) : 0)) &
         g_u8_below(e);
  lead4 &= g_u8_below(e);
#ifdef V_UTF8_UNITS_4BYTE
  w += v_utf8_put_units(uk, v, iscont, prev1, prev2, prev3, ends, lead4, dst, w, cap - w, t);
#else
  if (lead4) {
    /* the characters before the first 4-byte one at once, the rest one at a time */
    size_t k = g_ctz64(lead4) / V_BYTE_BITS;
    if (k) w += v_utf8_put_units(uk, v, iscont, prev1, prev2, prev3, ends & g_u8_below(k),
                                 0, dst, w, cap - w, t);
    w = g_utf8_put_each(p, k, e, dst, w, t);
  } else {
    w += v_utf8_put_units(uk, v, iscont, prev1, prev2, prev3, ends, 0, dst, w, cap - w, t);
  }
#endif
  pos->w = w;
}

/* One step at pos->i: a block of V_BYTES bytes (with room for V_BYTES
 * units), or with `last` (V_MASKED_TAIL) the input's last r = n - i <
 * V_BYTES bytes as one zero-padded block, with room for r units. Forced
 * inline twice, so that the loop's copy has no test of `last`. Returns 0,
 * or the status to stop with (st then holds the result). gen (NULL but in
 * the long kernels, where it folds away) counts general blocks in a row in
 * the step's own tests (an ASCII block resets it; a 2-byte one leaves it:
 * a move less on that path), where a second load and test before the step
 * cost CJK text. */
UTFXI_INLINE int g_utf8_transcode_step(const unsigned char *s, size_t n, void *dst, size_t cap,
                                       unsigned flags, enum utfxi_target t,
                                       const struct g_u8_bytes *kb,
                                       const struct g_utf8_check_k *ck,
                                       const struct v_utf8_units_k *uk, struct utfxi_u8state *st,
                                       struct g_u8_pos *pos, int last, int *gen) {
  size_t i = pos->i, w = pos->w;
  const unsigned char *p = s + i;
  const vu8 zero = v_zero();
  vu8 v, prev1, prev2, prev3;
  vm8 iscont;
  uint64_t high, cont, err, f0;
  (void)w; /* (unused where neither runs nor masked tails are) */
#ifdef V_MASKED_TAIL
  const size_t r = last ? n - i : V_BYTES;
  v = last ? v_load_tail(p, r) : v_load(p);
#else
  (void)last;
  v = v_load(p);
#endif
  high = v_high_bits(v);
  if (!high) {
    if (gen) *gen = 0;
#ifdef V_MASKED_TAIL
    if (last) {
      v_put_ascii_tail(dst, w, v, r, t);
      pos->i = i + r;
      pos->w = w + r;
      return 0;
    }
#endif
    g_u8_ascii(s, n, dst, cap, t, pos, v);
    return 0;
  }
  iscont = v_is_cont_given(v, kb->c0);
  cont = v_bits(iscont);
  if (!v_bits(v_at_least(v, kb->e0))) {
    /* ASCII and 2-byte characters only: well-formed exactly when every
     * continuation follows a lead, every lead is followed by one, and no
     * lead is C0/C1 (a lead in the last byte is the next block's). The
     * byte before each continuation is then in the block. */
    uint64_t leads;
    /* (long kernels only, gen set: the continuations in a general register
     * before the NOT, which gcc otherwise did in mask registers, a KNOTQ and
     * a second transfer a block; docs/perf-decisions.md, 'UTF-8 -> UTF-16 /
     * UTF-32') */
    if (gen) UTFXI_OPAQUE(cont);
    leads = high & ~cont;
    err = ((leads << V_BYTE_BITS & G_U8_ALL) ^ cont) | (leads & ~v_bits(v_at_least(v, kb->c2)));
    if (err) return g_u8_through(s, n, dst, cap, flags, t, st, pos, err);
    g_u8_put_block(s, n, dst, cap, t, uk, pos, v, iscont, cont, v_prev(zero, v, 1), zero, zero,
                   0, last, 1);
    return 0;
  }
  if (gen) *gen += 1;
  /* Else the lookup check. The bytes before the block are context where
   * they are whole, checked characters (never before the source, nor in the
   * last step, whose loads would read past the input); else zeros are. */
  if (!last && i - pos->clean >= 3) {
    prev1 = v_load(p - 1);
    prev2 = v_load(p - 2);
    prev3 = v_load(p - 3);
  } else {
    prev1 = v_prev(zero, v, 1);
    prev2 = v_prev(zero, v, 2);
    prev3 = v_prev(zero, v, 3);
  }
  {
    vu8 bad = g_utf8_error_bytes_k(ck, v, prev1, prev2, prev3);
    if (v_any(bad)) return g_u8_through(s, n, dst, cap, flags, t, st, pos, v_bits(v_nonzero(bad)));
  }
  f0 = v_bits(v_at_least(v, kb->f0));
#ifdef V32_SPREAD3_READS
  if (!last) {
    if (f0 == G_U8_SPREAD(0x1111111111111111ull)) {
      /* 4-byte characters only (emoji runs), all whole */
      pos->w = w + g_utf8_put_run4(v, dst, w, t);
      pos->i = i + V_BYTES;
      pos->try4 = 1;
      return 0;
    }
    /* A lead at every third byte, the rest continuations: 3-byte
     * characters only, and the next bytes may be more of them. */
    pos->try3 = !f0 && cont == G_U8_SPREAD(0x6DB6DB6DB6DB6DB6ull);
  }
#endif
  g_u8_put_block(s, n, dst, cap, t, uk, pos, v, iscont, cont, prev1, prev2, prev3, f0, last, 0);
  return 0;
}

#ifdef V_UTF8_STRIDE
/* Fixed-stride steps, for text that mixes classes in every block: a step
 * at i does not wait for where the previous one's last whole character
 * ended (that chain, from a step's loads of its last bytes to the next
 * step's loads, bound the general step: docs/perf-decisions.md, 'UTF-8 ->
 * UTF-16 / UTF-32'); it loads at i + V_BYTES whatever the block holds.
 * The lookup check takes the bytes before each block as they are (all
 * checked), and a step puts the characters whose last byte is in bytes
 * -1..62 of its block, one byte late, so that the byte after each (whether
 * it is a continuation) and its check are in the block: the put's block
 * is the load one byte back, and its masks are compares of the loads one
 * to four back (nothing carried from step to step). The first step puts
 * byte -1's character's last unit again, over the one the chained steps
 * wrote (the same unit): no mask for it. The character boundary
 * (the start of the character that holds the last block's byte 63) is
 * made only on the way out: on an error (the scalar steps go from there),
 * before a block of ASCII or one of no ASCII (the chained steps and their
 * runs take those), and at the end. Entered from a chained general step,
 * at a boundary with at least 4 checked bytes before it (loads at i - 4;
 * a unit out). 1-bit byte masks (AVX-512). */
/* Back from the step at *i (past the last block, from) to the boundary:
 * the start of the character that holds the last block's byte 63, and *w
 * to before its units (one is out already where it is a 4-byte character
 * from byte 60 on UTF-16: its high surrogate, at its third byte). */
UTFXI_INLINE void g_u8_stride_back(const unsigned char *s, enum utfxi_target t, size_t from,
                                   size_t *i, size_t *w) {
  size_t j = *i - 1;
  if (*i == from) {
    *w += 1; /* no step: byte -1's unit was not put again */
    return;
  }
  if (t != UTFXI_T_UTF32) *w -= s[*i - 4] >= 0xF0;
  while ((s[j] & 0xC0) == 0x80) j--;
  *i = j;
}

UTFXI_INLINE int g_u8_stride(const unsigned char *s, size_t n, void *dst, size_t cap,
                             unsigned flags, enum utfxi_target t, const struct g_u8_bytes *kb,
                             const struct g_utf8_check_k *ck, const struct v_utf8_units_k *uk,
                             struct utfxi_u8state *st, struct g_u8_pos *pos) {
  const size_t from = pos->i;
  size_t i = from, w = pos->w - 1; /* the first step puts byte -1's unit again */
  while (n - i >= V_BYTES && cap - w >= V_BYTES) {
    const unsigned char *p = s + i;
    vu8 v = v_load(p), prev1 = v_load(p - 1), prev2 = v_load(p - 2), prev3 = v_load(p - 3);
    uint64_t high = v_high_bits(v);
    vu8 bad;
    if (!high || high == G_U8_ALL) break;
    bad = g_utf8_error_bytes_k(ck, v, prev1, prev2, prev3);
    if (v_any(bad)) {
      int status;
      g_u8_stride_back(s, t, from, &i, &w);
      st->i = i;
      st->w = w;
      status = utfxi_utf8_steps(s, n, (size_t)(p - s) + g_ctz64(v_bits(v_nonzero(bad))) + 1, st,
                                dst, cap, flags, t);
      pos->i = pos->clean = st->i;
      pos->w = st->w;
      return status;
    }
    w += v_utf8_put_units_stride(uk, v, prev1, prev2, prev3, v_load(p - 4), kb->f0, dst, w, t);
    i += V_BYTES;
  }
  g_u8_stride_back(s, t, from, &i, &w);
  pos->i = i;
  pos->w = w;
  return 0;
}
#endif

/* The body and driver: once for any call (g_utf8_transcode_body,
 * g_utf8_transcode), once with the fixed-stride steps for the long calls'
 * kernels (g_u8_body_long, g_u8_transcode_long: the tier's entries choose
 * them by length, UTFXI_X86_LONG_UTF8 in x86_entries.h; counting general
 * blocks in the loop of every call cost short calls, also those
 * that never enter the steps: docs/perf-decisions.md, 'UTF-8 -> UTF-16 /
 * UTF-32'). The forms' names are whole identifiers, declared here, so the
 * amalgamation sees them as this file's statics. */
#define G_U8_BODY_PARAMS                                                                     \
  const unsigned char *s, size_t n, void *dst, size_t cap, unsigned flags, enum utfxi_target t, \
      struct g_u8_pos pos
#define G_U8_DRIVER_PARAMS \
  const char *src, size_t n, void *dst, size_t cap, unsigned flags, enum utfxi_target t
UTFXI_INLINE utfx_result g_utf8_transcode_body(G_U8_BODY_PARAMS);
UTFXI_INLINE utfx_result g_utf8_transcode(G_U8_DRIVER_PARAMS);
#define G_U8_LONG 0
#define G_U8_BODY g_utf8_transcode_body
#define G_U8_DRIVER g_utf8_transcode
#include "generic_utf8_transcode_body.h"
#ifdef V_UTF8_STRIDE
UTFXI_INLINE utfx_result g_u8_body_long(G_U8_BODY_PARAMS);
UTFXI_INLINE utfx_result g_u8_transcode_long(G_U8_DRIVER_PARAMS);
#define G_U8_LONG 1
#define G_U8_BODY g_u8_body_long
#define G_U8_DRIVER g_u8_transcode_long
#include "generic_utf8_transcode_body.h"
#endif
#undef G_U8_BODY_PARAMS
#undef G_U8_DRIVER_PARAMS

UTFXI_CONVERT_ENTRY(G_NAME(convert_utf8_to_utf16le), char, char16_t, g_utf8_transcode,
                    UTFXI_T_UTF16LE)
UTFXI_CONVERT_ENTRY(G_NAME(convert_utf8_to_utf16be), char, char16_t, g_utf8_transcode,
                    UTFXI_T_UTF16BE)
UTFXI_CONVERT_ENTRY(G_NAME(convert_utf8_to_utf32), char, char32_t, g_utf8_transcode, UTFXI_T_UTF32)

#ifdef V_UTF8_STRIDE
UTFXI_CONVERT_ENTRY(G_NAME(utf8_to_utf16le_long), char, char16_t, g_u8_transcode_long,
                    UTFXI_T_UTF16LE)
UTFXI_CONVERT_ENTRY(G_NAME(utf8_to_utf16be_long), char, char16_t, g_u8_transcode_long,
                    UTFXI_T_UTF16BE)
UTFXI_CONVERT_ENTRY(G_NAME(utf8_to_utf32_long), char, char32_t, g_u8_transcode_long,
                    UTFXI_T_UTF32)
#endif
#endif
