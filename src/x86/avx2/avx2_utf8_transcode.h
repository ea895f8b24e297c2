/* AVX2 UTF-8 to UTF-16LE/BE and UTF-32: the kernel body shared by
 * avx2_utf8_to_utf16.c and avx2_utf8_to_utf32.c (to Latin-1: the generic
 * kernel, simd/generic_latin1.h)
 * (static inline, the target form a compile-time constant in each wrapper).
 *
 * Algorithm: each step takes 32 bytes that start at a character boundary.
 *  - All ASCII: widen and store 32 units.
 *  - Otherwise check them (lookup validation, Keiser and Lemire 2021,
 *    generic_utf8_check.h). A block with an
 *    error goes to the scalar steps, which convert through the error and
 *    return at a character boundary.
 *  - Well-formed, to UTF-16/UTF-32, without 4-byte characters: the
 *    byte-domain method of avx512_utf8_transcode.h, with a 256-entry PSHUFB
 *    table compressing eight 16-bit units at a time (AVX2 has no compress
 *    instruction; table-driven shuffles as in Lemire and Mula 2022) and
 *    whole stores, the units after the output put back as they were
 *    (utfxi_avx2_put_units).
 *  - Well-formed, eight 4-byte characters (emoji runs): decoded in their
 *    32-bit lanes, 16 UTF-16 units (surrogate pairs) or 8 UTF-32 units
 *    (g_utf8_put_run4).
 *  - Well-formed otherwise (4-byte characters): the characters before the
 *    block's first 4-byte one go the vector way, the rest are decoded one at
 *    a time without checks (they are known well-formed). On CPUs with
 *    AVX-512 VBMI2 the avx512 tier is used.
 *  - ASCII runs go 64 bytes a step where input and room allow.
 *  - Runs of 3-byte characters (CJK), after a block of only those, go 24
 *    bytes (8 characters) a step, checked and decoded in 32-bit lanes
 *    (g_utf8_put_run3, generic_utf8_runs.h), until a step finds anything
 *    else.
 *  - Every store writes exactly the units produced.
 * Bounds: a step needs 32 readable bytes and room for 32 units; the rest of
 * the input, and the end of a destination that is too small, are done by the
 * scalar kernel, which stops at a character boundary. */
#ifndef UTFX_X86_AVX2_UTF8_TRANSCODE_H
#define UTFX_X86_AVX2_UTF8_TRANSCODE_H

#include "../../simd/compress16_table.h"
#include "avx2_compress_bytes.h"
#include "vec_avx2.h"
#include "../../simd/generic_utf8_check.h"
#include "../../simd/generic_utf8_runs.h"
#include "../../simd/utf8_steps.h"

/* Byte j of the result is byte j - k of v, zero for j < k (k = 1, 2). */
static inline __m256i utfxi_avx2_back(__m256i v, int k) {
  __m256i mid = _mm256_permute2x128_si256(v, v, 0x08); /* [0 | low half of v] */
  return k == 1 ? _mm256_alignr_epi8(v, mid, 15) : _mm256_alignr_epi8(v, mid, 14);
}

/* Bit j set where byte j of v is a 4-byte lead (F0..FF). */
static inline uint32_t utfxi_avx2_lead4_mask(__m256i v) {
  __m256i f0 = _mm256_set1_epi8((char)0xF0);
  return (uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(_mm256_max_epu8(v, f0), v));
}

/* Converts the characters of the well-formed 32-byte block v that start
 * before e (all of at most 3 bytes) to UTF-16 or UTF-32 at unit w of dst;
 * returns the number of units. As in avx512_utf8_transcode.h, the last byte
 * of each character yields the low and high byte of its code point from the
 * bytes one and two back; the units are compressed eight at a time with a
 * PSHUFB table and stored group by group (see below). room (>= 32) is the
 * units of dst from w on. Nothing past the output is changed: where room
 * allows, the 8 units after it are written over and then put back as they
 * were (a caller may not write them concurrently, as for any part of dst);
 * else masked stores stop at the output's end. */
UTFXI_INLINE size_t utfxi_avx2_put_units(__m256i v, size_t e, void *dst, size_t w,
                                         size_t room, enum utfxi_target t) {
  const __m256i c0 = _mm256_set1_epi8((char)0xC0);
  __m256i cont = _mm256_cmpeq_epi8(_mm256_and_si256(v, c0), _mm256_set1_epi8((char)0x80));
  __m256i prev1 = utfxi_avx2_back(v, 1), prev2 = utfxi_avx2_back(v, 2);
  __m256i p1z = _mm256_and_si256(prev1, cont);
  __m256i p2z = _mm256_and_si256(prev2, _mm256_and_si256(cont, utfxi_avx2_back(cont, 1)));
  __m256i lo = _mm256_or_si256(_mm256_and_si256(v, _mm256_set1_epi8(0x7F)),
                               _mm256_and_si256(_mm256_slli_epi16(p1z, 6), c0));
  __m256i hi = _mm256_or_si256(
      _mm256_and_si256(_mm256_srli_epi16(p1z, 2), _mm256_set1_epi8(0x0F)),
      _mm256_and_si256(_mm256_slli_epi16(p2z, 4), _mm256_set1_epi8((char)0xF0)));
  uint32_t contm = (uint32_t)_mm256_movemask_epi8(cont);
  uint32_t ends = (~contm >> 1 | (uint32_t)(e == 32) << 31) & (uint32_t)_bzhi_u32(~0u, (unsigned)e);
  int be = t == UTFXI_T_UTF16BE;
  /* Units 0-7 and 16-23 / 8-15 and 24-31, each unit (low, high) in memory
   * order for LE and UTF-32, (high, low) for BE. */
  __m256i u0 = be ? _mm256_unpacklo_epi8(hi, lo) : _mm256_unpacklo_epi8(lo, hi);
  __m256i u1 = be ? _mm256_unpackhi_epi8(hi, lo) : _mm256_unpackhi_epi8(lo, hi);
  const __m256i iota = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
  size_t k = 0, total = (size_t)_mm_popcnt_u32(ends);
  if (total + 8 <= room) {
    /* Every group stored whole (each at most 8 units, at k <= total), so
     * nothing past unit total + 8 is touched and the units past a group's
     * own are overwritten by the next groups; the 8 units after the output
     * are read first and put back last, so they end as they were. (AVX2's
     * dword-masked stores are microcoded on AMD: docs/perf-decisions.md,
     * 'UTF-8 -> UTF-16/UTF-32'.) */
    char16_t *d16 = (char16_t *)dst + w;
    char32_t *d32 = (char32_t *)dst + w;
    __m256i keep =
        t == UTFXI_T_UTF32
            ? _mm256_loadu_si256((const __m256i *)(void *)(d32 + total))
            : _mm256_castsi128_si256(_mm_loadu_si128((const __m128i *)(void *)(d16 + total)));
#define UTFXI_WHOLE(vec, bits)                                                                \
  do {                                                                                       \
    unsigned mm = (unsigned)(bits)&0xFF;                                                     \
    __m128i ctl = _mm_loadu_si128((const __m128i *)utfxi_compress16[mm]);                    \
    __m128i units = _mm_shuffle_epi8((vec), ctl);                                            \
    if (t == UTFXI_T_UTF32)                                                                  \
      _mm256_storeu_si256((__m256i *)(void *)(d32 + k), _mm256_cvtepu16_epi32(units));       \
    else                                                                                     \
      _mm_storeu_si128((__m128i *)(void *)(d16 + k), units);                                 \
    k += (size_t)_mm_popcnt_u32(mm);                                                         \
  } while (0)
    UTFXI_WHOLE(_mm256_castsi256_si128(u0), ends);
    UTFXI_WHOLE(_mm256_castsi256_si128(u1), ends >> 8);
    UTFXI_WHOLE(_mm256_extracti128_si256(u0, 1), ends >> 16);
    UTFXI_WHOLE(_mm256_extracti128_si256(u1, 1), ends >> 24);
#undef UTFXI_WHOLE
    if (t == UTFXI_T_UTF32)
      _mm256_storeu_si256((__m256i *)(void *)(d32 + total), keep);
    else
      _mm_storeu_si128((__m128i *)(void *)(d16 + total), _mm256_castsi256_si128(keep));
    return total;
  }
  /* Each group stores up to 8 units, but never past the block's total:
   * units past a group's own are overwritten by the next groups, and nothing
   * past the block's output is touched. A group that ends inside the total
   * is stored whole; otherwise dword masks (and one 16-bit store for an odd
   * limit) stop at the total. */
#define UTFXI_GROUP(vec, m)                                                                  \
  do {                                                                                       \
    unsigned mm = (unsigned)(m)&0xFF, c = (unsigned)_mm_popcnt_u32(mm);                     \
    int lim = (int)(total - k < 8 ? total - k : 8);                                          \
    __m128i ctl = _mm_loadu_si128((const __m128i *)utfxi_compress16[mm]);               \
    __m128i units = _mm_shuffle_epi8((vec), ctl);                                            \
    if (k + 8 <= total) { /* the whole group lies inside the block's output */              \
      if (t == UTFXI_T_UTF32)                                                                \
        _mm256_storeu_si256((__m256i *)(void *)((char32_t *)dst + w + k),                    \
                            _mm256_cvtepu16_epi32(units));                                   \
      else                                                                                   \
        _mm_storeu_si128((__m128i *)(void *)((char16_t *)dst + w + k), units);               \
    } else if (t == UTFXI_T_UTF32) {                                                         \
      _mm256_maskstore_epi32((int *)(void *)((char32_t *)dst + w + k),                       \
                             _mm256_cmpgt_epi32(_mm256_set1_epi32(lim), iota),               \
                             _mm256_cvtepu16_epi32(units));                                  \
    } else {                                                                                 \
      char16_t *d = (char16_t *)dst + w + k;                                                 \
      _mm_maskstore_epi32((int *)(void *)d,                                                  \
                          _mm_cmpgt_epi32(_mm_set1_epi32(lim / 2),                           \
                                          _mm256_castsi256_si128(iota)),                     \
                          units);                                                            \
      if (lim & 1) {                                                                         \
        int at = 2 * (lim - 1); /* bring unit lim - 1 to unit 0 */                           \
        uint16_t u = (uint16_t)_mm_cvtsi128_si32(                                            \
            _mm_shuffle_epi8(units, _mm_set1_epi16((short)(at | (at + 1) << 8))));           \
        memcpy(d + lim - 1, &u, 2);                                                          \
      }                                                                                      \
    }                                                                                        \
    k += c;                                                                                  \
  } while (0)
  UTFXI_GROUP(_mm256_castsi256_si128(u0), ends);
  UTFXI_GROUP(_mm256_castsi256_si128(u1), ends >> 8);
  UTFXI_GROUP(_mm256_extracti128_si256(u0, 1), ends >> 16);
  UTFXI_GROUP(_mm256_extracti128_si256(u1, 1), ends >> 24);
#undef UTFXI_GROUP
  return k;
}

/* The scalar steps from *at (a character boundary) through stop, past an
 * error; returns their status, or 0 with *at and *out where they stopped. */
UTFXI_INLINE int utfxi_avx2_utf8_through(const unsigned char *s, size_t n, size_t stop,
                                         struct utfxi_u8state *st, size_t *at, size_t *out,
                                         void *dst, size_t cap, unsigned flags,
                                         enum utfxi_target t) {
  int status;
  st->i = *at;
  st->w = *out;
  status = utfxi_utf8_steps(s, n, stop, st, dst, cap, flags, t);
  *at = st->i;
  *out = st->w;
  return status;
}

UTFXI_INLINE utfx_result utfxi_avx2_from_utf8(const char *src, size_t n, void *dst, size_t cap,
                                              unsigned flags, enum utfxi_target t) {
  const unsigned char *s = (const unsigned char *)src;
  /* Offsets in locals, not in st (whose address the scalar steps take):
   * in memory they would chain every block through a store and a load. */
  struct utfxi_u8state st = {0, 0, 0};
  size_t at = 0, out = 0;
  int status, clean_before = 0; /* the 3 bytes before the block: read, well-formed */
  int try3 = 0;                  /* the last step made only 3-byte characters */
  while (n - at >= 32 && cap - out >= 32) {
    const unsigned char *p = s + at;
    __m256i v = _mm256_loadu_si256((const __m256i *)p), err;
    size_t e, j, w;
    if (n - at >= 64 && cap - out >= 64) { /* ASCII runs: 64 bytes a step */
      __m256i v1 = _mm256_loadu_si256((const __m256i *)(p + 32));
      if (!_mm256_movemask_epi8(_mm256_or_si256(v, v1))) {
        /* Before a long run, a step of fewer bytes makes the destination
         * 32-byte aligned: the run's stores then never straddle cache lines
         * (docs/perf-decisions.md, 'UTF-8 -> UTF-16/UTF-32'). */
        size_t unit = t == UTFXI_T_UTF32 ? 4 : 2;
        size_t adv = utfxi_aligning_step((unsigned char *)dst + out * unit, unit, 32, 64,
                                         n - at >= 320 && cap - out >= 320);
        v_put_ascii(dst, out, v, t);
        v_put_ascii(dst, out + 32, v1, t);
        at += adv;
        out += adv;
        /* ASCII runs: 128 bytes a test, in a loop of their own (through
         * the step above, a step's offsets waited on its aligning step) */
        while (n - at >= 128 && cap - out >= 128) {
          const unsigned char *q = s + at;
          __m256i a = _mm256_loadu_si256((const __m256i *)q);
          __m256i b = _mm256_loadu_si256((const __m256i *)(q + 32));
          __m256i c = _mm256_loadu_si256((const __m256i *)(q + 64));
          __m256i x = _mm256_loadu_si256((const __m256i *)(q + 96));
          if (_mm256_movemask_epi8(_mm256_or_si256(_mm256_or_si256(a, b), _mm256_or_si256(c, x))))
            break;
          v_put_ascii(dst, out, a, t);
          v_put_ascii(dst, out + 32, b, t);
          v_put_ascii(dst, out + 64, c, t);
          v_put_ascii(dst, out + 96, x, t);
          at += 128;
          out += 128;
        }
        continue;
      }
    }
    if (!_mm256_movemask_epi8(v)) {
      v_put_ascii(dst, out, v, t);
      at += 32;
      out += 32;
      continue;
    }
    if (try3) { /* runs of 3-byte characters: 24 bytes a step */
      size_t from = at;
      while (n - at >= 32 && cap - out >= 32 && g_utf8_put_run3(s + at, dst, out, t)) {
        at += G_RUN3_BYTES;
        out += G_RUN3_CHARS;
      }
      if (at != from) {
        clean_before = 1;
        continue;
      }
      try3 = 0;
    }
    /* After complete, well-formed characters the real bytes before the
     * block are valid context; at the start, or after the scalar steps
     * went through an error, zeros are. */
    err = clean_before ? g_utf8_block_errors(p, v)
                       : g_utf8_errors_alone(v);
    if (!_mm256_testz_si256(err, err)) {
      __m256i zero = _mm256_setzero_si256();
      uint32_t bad = ~(uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(err, zero));
      status = utfxi_avx2_utf8_through(s, n, at + (size_t)_tzcnt_u32(bad) + 1, &st, &at, &out,
                                       dst, cap, flags, t);
      if (status) return utfxi_result((utfx_status)status, st.i, st.w, st.replaced);
      clean_before = 0;
      continue;
    }
    clean_before = 1;
    { /* the next step starts at the last character start (or after the block) */
      uint32_t tail;
      memcpy(&tail, p + 28, 4);
      tail = (tail & 0xC0C0C0C0u) ^ 0x80808080u;
      e = 28 + (31 - (size_t)_lzcnt_u32(tail)) / 8;
      if (p[31] < 0x80) e = 32;
    }
    j = 0;
    w = out;
    {
      uint32_t lead4 = utfxi_avx2_lead4_mask(v);
      size_t k = (size_t)_tzcnt_u32(lead4); /* the first 4-byte lead, 32 if none */
      if (k >= e) {
        /* Continuations at every byte but 0, 3, ..., 30: a well-formed
         * block of 3-byte characters only, and the next may be one too.
         * (Guessing from e == 30 and byte 0 tried too often on Korean, whose
         * spaces fail most steps: docs/perf-decisions.md, 'UTF-8 ->
         * UTF-16/UTF-32'.) */
        try3 = (uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8( /* put_units' contm */
                   _mm256_and_si256(v, _mm256_set1_epi8((char)0xC0)),
                   _mm256_set1_epi8((char)0x80))) == 0xB6DB6DB6u;
        out += utfxi_avx2_put_units(v, e, dst, out, cap - out, t);
        at += e;
        continue;
      }
      if (lead4 == 0x11111111u) {
        /* eight 4-byte characters (emoji runs): decoded in their lanes */
        out += g_utf8_put_run4(v, dst, out, t);
        at += 32;
        continue;
      }
      /* The characters before the first 4-byte one, all at once. */
      if (k) w += utfxi_avx2_put_units(v, k, dst, w, cap - w, t);
      j = k;
    }
    /* Well-formed from a 4-byte character on: one at a time. */
    for (; j < e;) {
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
      utfxi_put(dst, w, c, t);
      w += utfxi_units_for(c, t);
    }
    at += e;
    out = w;
  }
  st.i = at;
  st.w = out;
  return utfxi_utf8_rest(src, n, &st, dst, cap, flags, t);
}

#endif
