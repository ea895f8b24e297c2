/* UTF-16LE/BE to UTF-8 at any vector width (generic.h; vocabularies with
 * V16_UTF8_ROOM), STRICT and REPLACE, bounded destinations.
 *
 * Steps, per vector of V16_UNITS units (after Lemire & Mula 2022):
 *  - two vectors of ASCII a test while they last (one pack, one store), in
 *    a loop of their own; one vector of ASCII: one narrowing store;
 *  - a run of vectors below 0x800 (1- and 2-byte forms), and a run of BMP
 *    vectors without surrogates (1 to 3 bytes; it stays through vectors
 *    below 0x800: one kind after another would mispredict the branch that
 *    leaves it), each in a loop of its own (few live values), each step
 *    loading the next vector first: it says whether to stay, and whether
 *    the step's store may spill past its output (the next step, a vector
 *    step without surrogates, then overwrites it: at least V16_UNITS bytes
 *    from where this one's output ends). The run below 0x800
 *    ends at an ASCII vector (the two-vector steps are faster);
 *  - a vector with surrogates: v16_store_utf8_pairs, where the ISA has a
 *    step for it (pairs in-vector; a high surrogate that ends the vector
 *    waits for the next one); a vector it does not convert (a lone
 *    surrogate; on NEON any) goes to the scalar kernel with what follows
 *    it (G16_SCALAR_RUN units, doubling up to G16_SCALAR_RUN_MAX while
 *    vectors keep falling back), as a segment that never ends inside a
 *    pair, so every error offset, U+FFFD and stop at a full destination is
 *    the scalar kernel's.
 * bounded: a step runs only where its output surely fits (V16_UTF8_ROOM
 * bytes); else the destination holds 3 bytes a unit and nothing is
 * checked. The tail, and the steps where the room is short: exact masked
 * steps (V_MASKED_TAIL) while their output fits, else the scalar kernel, so
 * a full destination stops exactly where TextEncoder.encodeInto stops.
 * Nothing at or after dst + written is ever modified.
 * References: Lemire & Mula, "Transcoding billions of Unicode characters
 * per second with SIMD instructions", Software: Practice and Experience
 * 2022; Clausecker & Lemire, "Transcoding Unicode characters with AVX-512
 * instructions", Software: Practice and Experience 2023. */
#ifndef UTFX_SIMD_GENERIC_UTF16_TO_UTF8_H
#define UTFX_SIMD_GENERIC_UTF16_TO_UTF8_H

#include "generic.h"
#include "utf16_to_utf8_parts.h"

#ifdef V16_UTF8_ROOM

#ifndef G16_SCALAR_RUN
#define G16_SCALAR_RUN V16_UNITS
#define G16_SCALAR_RUN_MAX V16_UNITS
#endif
#if G16_SCALAR_RUN_MAX > G16_SCALAR_RUN
#define G16_RUN_VAR size_t run = G16_SCALAR_RUN;
#define G16_RUN run
#define G16_RUN_RESET() (run = G16_SCALAR_RUN)
#define G16_RUN_NEXT() (run = run < G16_SCALAR_RUN_MAX ? 2 * run : run)
#else /* (no variable: a constant) */
#define G16_RUN_VAR
#define G16_RUN G16_SCALAR_RUN
#define G16_RUN_RESET() ((void)0)
#define G16_RUN_NEXT() ((void)0)
#endif

UTFXI_INLINE utfx_result g16_to_utf8_scalar(const char16_t *s, size_t n, unsigned char *d,
                                            size_t cap, unsigned flags, int be) {
  return be ? utfxi_convert_utf16be_to_utf8_scalar(s, n, (char *)d, cap, flags)
            : utfxi_convert_utf16le_to_utf8_scalar(s, n, (char *)d, cap, flags);
}

/* The units from i that the scalar kernel takes for a vector the words do
 * not convert: `run` of them, and one more while the last is a high
 * surrogate with a unit after it (a pair is never split between a segment
 * and what follows; a run of high surrogates is judged by the scalar
 * kernel). */
static inline size_t g16_scalar_segment(const char16_t *s, size_t n, size_t i, int be,
                                        size_t run) {
  size_t seg = n - i < run ? n - i : run;
  while (n - i > seg && (utfxi_load16(s + i + seg - 1, be) & 0xFC00) == 0xD800) seg++;
  return seg;
}

/* where the pairs run stops: a vector without surrogates, or where the
 * ISA's pairs step takes BMP vectors too, one below 0x800 */
#ifdef V16_UTF8_PAIRS_STAY_BMP
#define G16_PAIRS_LEAVE(v, k) v16_utf8_pairs_leave(v, k)
#else
#define G16_PAIRS_LEAVE(v, k) (!v16_utf8_surrogates(v, k))
#endif

UTFXI_INLINE utfx_result g16_to_utf8_body(const char16_t *s, size_t n, unsigned char *d,
                                          size_t cap, unsigned flags, int be, int bounded) {
  size_t i = 0, w = 0, replaced = 0;
  const char16_t *after;
  G16_RUN_VAR
  struct v16_utf8_k k;
  utfx_result r;
  v16_utf8_k_init(&k);
#define G16_FITS(room) (!bounded || cap - w >= (room))
/* (in the runs) a whole vector after p, and room for a step after this one */
#define G16_AHEAD() (end - p >= 2 * V16_UNITS && (!bounded || qend - q >= 2 * V16_UTF8_ROOM))
  while (n - i >= V16_UNITS && G16_FITS(V16_UTF8_ROOM)) {
    vu16 v = v16_load(s + i, be), next;
    int have, more; /* (the runs' look-ahead) */
    if (n - i >= 2 * V16_UNITS) {
      vu16 v1 = v16_load(s + i + V16_UNITS, be);
      if (v16_utf8_ascii(v16_or_units(v, v1), &k)) {
        for (;;) {
          v_store(d + w, v16_pack_bytes(v, v1));
          i += 2 * V16_UNITS;
          w += 2 * V16_UNITS;
          if (n - i < 2 * V16_UNITS || !G16_FITS(V16_UTF8_ROOM)) break;
          v = v16_load(s + i, be);
          v1 = v16_load(s + i + V16_UNITS, be);
          if (!v16_utf8_ascii(v16_or_units(v, v1), &k)) break;
        }
        continue;
      }
    }
    if (v16_utf8_ascii(v, &k)) { /* (ASCII first: no surrogate test for it) */
      v16_store_bytes(d + w, v);
      i += V16_UNITS;
      w += V16_UNITS;
      continue;
    }
    if (v16_utf8_surrogates(v, &k)) {
      size_t took, len, seg;
    surrogates: /* v at i: surrogates; a whole vector, room for a step */
      /* after: the next vector, whole, where the room allows a spill into
       * its output (the word spills only when that vector has no
       * surrogate and follows the units it took) */
      after = n - i >= 2 * V16_UNITS && G16_FITS(2 * V16_UTF8_ROOM) ? s + i + V16_UNITS : NULL;
      len = v16_store_utf8_pairs(d + w, v, n - i > V16_UNITS, after, be, flags, &k, &took,
                                 &replaced);
      if (took) {
        /* a run of vectors with surrogates (emoji text), in a loop of its
         * own; vectors without surrogates leave it for the runs above (the
         * pairs word is the slower encoder: docs/perf-decisions.md,
         * 'UTF-16 -> UTF-8'), or with V16_UTF8_PAIRS_STAY_BMP only those
         * below 0x800 (v16_utf8_pairs_leave; the pairs step takes BMP
         * vectors too) */
        const char16_t *p = s + i + took, *end = s + n;
        unsigned char *q = d + w + len, *qend = d + cap;
        int other = 0; /* stopped at v, a vector without surrogates */
        G16_RUN_RESET();
        while (end - p >= V16_UNITS && (!bounded || qend - q >= V16_UTF8_ROOM)) {
          v = v16_load(p, be);
          if (G16_PAIRS_LEAVE(v, &k)) {
            other = 1;
            break;
          }
          after = G16_AHEAD() ? p + V16_UNITS : NULL;
          len = v16_store_utf8_pairs(q, v, end - p > V16_UNITS, after, be, flags, &k, &took,
                                     &replaced);
          if (!took) break;
          p += took;
          q += len;
        }
        i = (size_t)(p - s);
        w = (size_t)(q - d);
        if (other) goto no_surrogates; /* (not loaded and tested again) */
        continue;
      }
      seg = g16_scalar_segment(s, n, i, be, G16_RUN);
      r = g16_to_utf8_scalar(s + i, seg, d + w, cap - w, flags, be);
      if (r.status != UTFX_OK) return utfxi_result_after(&r, i, w, replaced);
      i += seg;
      w += r.written;
      replaced += r.replaced;
      G16_RUN_NEXT();
      continue;
    }
    G16_RUN_RESET();
  no_surrogates: /* v at i: no surrogates (ASCII too, after a hand-over); a
                  * whole vector, room for a step */
    if (v16_utf8_below800(v, &k)) { /* a run below 0x800 */
      /* (pointers, not indexes: the loop's own registers; with s, d and
       * both indexes live gcc kept w in memory, a store-forwarding delay
       * on every step) */
      const char16_t *p = s + i, *end = s + n;
      unsigned char *q = d + w, *qend = d + cap;
      for (;;) {
        have = G16_AHEAD();
        next = have ? v16_load(p + V16_UNITS, be) : v;
        more = have && v16_utf8_below800(next, &k);
        /* (a spill into the next step's output: ASCII or below 0x800;
         * a surrogate test here, for the rare run that ends at a BMP
         * vector, cost avx512 a port-5 compare a step) */
        q += v16_store_utf8_below800(q, v, &k, have && (more || v16_utf8_ascii(next, &k)));
        p += V16_UNITS;
        if (!more || v16_utf8_ascii(next, &k)) break;
        v = next;
      }
      i = (size_t)(p - s);
      w = (size_t)(q - d);
      if (!have || more) continue; /* (ASCII next: the two-vector steps) */
      /* the run handed over the vector it looked at (not loaded and tested
       * again) */
      v = next;
      if (v16_utf8_surrogates(v, &k)) goto surrogates;
    }
    { /* a run of BMP vectors */
      const char16_t *p = s + i, *end = s + n;
      unsigned char *q = d + w, *qend = d + cap;
      for (;;) {
        have = G16_AHEAD();
        next = have ? v16_load(p + V16_UNITS, be) : v;
        more = have && !v16_utf8_surrogates(next, &k);
        q += v16_store_utf8_bmp(q, v, &k, more);
        p += V16_UNITS;
        if (!more) break;
        v = next;
      }
      i = (size_t)(p - s);
      w = (size_t)(q - d);
      if (have) { /* next: surrogates */
        v = next;
        goto surrogates;
      }
    }
  }
#undef G16_FITS
#undef G16_AHEAD
#ifdef V_MASKED_TAIL
  while (i < n) { /* the tail, or where the room is short: exact steps */
    size_t m = n - i < V16_UNITS ? n - i : V16_UNITS, took, len;
    vu16 v = v16_load_tail(s + i, m, be); /* zeros after the units: ASCII */
    if (v16_utf8_ascii(v, &k)) {
      if (cap - w < m) break;
      v16_store_bytes_tail(d + w, m, v);
      i += m;
      w += m;
      continue;
    }
    len = v16_store_utf8_tail(d + w, v, m, n - i > m, cap - w, flags, &k, &took, &replaced);
    if (!took) break;
    i += took;
    w += len;
  }
#endif
  if (i == n) return utfxi_result(UTFX_OK, n, w, replaced);
  r = g16_to_utf8_scalar(s + i, n - i, d + w, cap - w, flags, be);
  return utfxi_result_after(&r, i, w, replaced);
}

/* Unbounded where the destination holds 3 bytes a unit (the most a unit
 * makes: a pair makes 4 bytes of 2 units). */
UTFXI_INLINE utfx_result g16_to_utf8_rest(const char16_t *s, size_t n, char *dst, size_t cap,
                                          unsigned flags, int be) {
  unsigned char *d = (unsigned char *)dst;
  if (cap / 3 >= n) return g16_to_utf8_body(s, n, d, cap, flags, be, 0);
  return g16_to_utf8_body(s, n, d, cap, flags, be, 1);
}
/* f out of line for one byte order, as name: the kernel's two parts
 * (utf16_to_utf8_parts.h), each a per-tier name (tier_declarations.h). */
#define G16_OUT_OF_LINE(name, f, be)                                                  \
  __attribute__((noinline)) utfx_result name(const char16_t *s, size_t n, char *d,     \
                                             size_t cap, unsigned flags) {            \
    return f(s, n, d, cap, flags, be);                                                 \
  }
G16_OUT_OF_LINE(G_NAME(utf16le_to_utf8_rest), g16_to_utf8_rest, 0)
G16_OUT_OF_LINE(G_NAME(utf16be_to_utf8_rest), g16_to_utf8_rest, 1)

/* A call that starts with ASCII: its leading ASCII, two vectors a step, in
 * a function of few live values, then the rest. */
UTFXI_INLINE utfx_result g16_to_utf8_ascii(const char16_t *s, size_t n, char *dst, size_t cap,
                                           unsigned flags, int be) {
  unsigned char *d = (unsigned char *)dst;
  size_t i = 0;
  utfx_result r;
  while (n - i >= 2 * V16_UNITS && cap - i >= 2 * V16_UNITS) {
    vu16 v = v16_load_raw(s + i), v1 = v16_load_raw(s + i + V16_UNITS);
    if (g16_any_non_ascii(v16_or_units(v, v1), be)) break;
    v_store(d + i, v16_pack_latin1(v, v1, be));
    i += 2 * V16_UNITS;
  }
  if (n - i < 2 * V16_UNITS && n - i >= V16_UNITS && cap - i >= V16_UNITS) {
    vu16 v = v16_load(s + i, be); /* (one vector left) */
    if (!v16_any_bits(v, 0xFF80)) {
      v16_store_bytes(d + i, v);
      i += V16_UNITS;
    }
  }
  if (i == n) return utfxi_result(UTFX_OK, n, n, 0);
#ifdef V_MASKED_TAIL
  /* An ASCII tail shorter than a vector: one masked step here, not the rest
   * part (its constants, then its masked step) for it. */
  if (n - i < V16_UNITS && cap - i >= n - i) {
    vu16 v = v16_load_tail(s + i, n - i, be); /* (zeros after the units: ASCII) */
    if (!v16_any_bits(v, 0xFF80)) {
      v16_store_bytes_tail(d + i, n - i, v);
      return utfxi_result(UTFX_OK, n, n, 0);
    }
  }
#endif
  if (!i)
    return be ? G_NAME(utf16be_to_utf8_rest)(s, n, dst, cap, flags)
              : G_NAME(utf16le_to_utf8_rest)(s, n, dst, cap, flags);
  r = be ? G_NAME(utf16be_to_utf8_rest)(s + i, n - i, dst + i, cap - i, flags)
         : G_NAME(utf16le_to_utf8_rest)(s + i, n - i, dst + i, cap - i, flags);
  return utfxi_result_after(&r, i, i, 0);
}
G16_OUT_OF_LINE(G_NAME(utf16le_to_utf8_ascii), g16_to_utf8_ascii, 0)
G16_OUT_OF_LINE(G_NAME(utf16be_to_utf8_ascii), g16_to_utf8_ascii, 1)

#ifdef G16_UTF8_SHORT
/* A whole input shorter than a vector (the tier's entries choose it:
 * UTFXI_X86_UTF8_SHORT), in one masked step: ASCII in one narrowing store,
 * without the constants of the other steps; else the exact masked step of
 * the tail (below 0x800, BMP, pairs), and the scalar kernel for what it
 * does not take (a lone surrogate, a short destination). A short ASCII call
 * through the ASCII part cost two calls and its 16-unit head
 * (docs/perf-decisions.md, 'UTF-16 -> UTF-8, short inputs'). */
UTFXI_INLINE utfx_result g16_to_utf8_short(const char16_t *s, size_t n, char *dst, size_t cap,
                                           unsigned flags, int be) {
  unsigned char *d = (unsigned char *)dst;
  vu16 v = v16_load_tail(s, n, be); /* (zeros after the n units: ASCII) */
  struct v16_utf8_k k;
  size_t took, len, replaced = 0;
  utfx_result r;
  if (!v16_any_bits(v, 0xFF80) && cap >= n) {
    v16_store_bytes_tail(d, n, v);
    return utfxi_result(UTFX_OK, n, n, 0);
  }
  v16_utf8_k_init(&k);
  len = v16_store_utf8_tail(d, v, n, 0, cap, flags, &k, &took, &replaced);
  if (took == n) return utfxi_result(UTFX_OK, n, len, replaced);
  r = g16_to_utf8_scalar(s + took, n - took, d + len, cap - len, flags, be);
  return utfxi_result_after(&r, took, len, replaced);
}
G16_OUT_OF_LINE(G_NAME(utf16le_to_utf8_short), g16_to_utf8_short, 0)
G16_OUT_OF_LINE(G_NAME(utf16be_to_utf8_short), g16_to_utf8_short, 1)
#endif

/* The tier's kernel: the choice of utf16_to_utf8_parts.h, then one part. The
 * x86 tier entries make the same choice and call the part themselves (one
 * call less: x86_entries.h). */
UTFXI_INLINE utfx_result g16_to_utf8(const char16_t *s, size_t n, char *d, size_t cap,
                                     unsigned flags, int be) {
  if (be)
    return UTFXI_UTF16_TO_UTF8_PICK(G_NAME(utf16be_to_utf8_ascii), G_NAME(utf16be_to_utf8_rest),
                                    s, n, d, cap, flags, 1);
  return UTFXI_UTF16_TO_UTF8_PICK(G_NAME(utf16le_to_utf8_ascii), G_NAME(utf16le_to_utf8_rest), s,
                                  n, d, cap, flags, 0);
}

#ifndef G_UTF8_PARTS_ONLY /* (a tier whose entries choose the part: x86) */
UTFXI_CONVERT_ENTRY(G_NAME(convert_utf16le_to_utf8), char16_t, char, g16_to_utf8, 0)
UTFXI_CONVERT_ENTRY(G_NAME(convert_utf16be_to_utf8), char16_t, char, g16_to_utf8, 1)
#endif

#endif

#endif
