/* UTF-16 and UTF-32 (= Latin-1) lengths of UTF-8 after replacement (what the
 * UTFX_REPLACE conversion writes), at any vector width (generic.h).
 *
 * The bytes are checked as in generic_utf8_validate.h, four vectors per
 * step, and well-formed text is counted as one unit per non-continuation
 * byte, plus one per 4-byte lead for UTF-16. In a step with an error, the
 * vectors before the first error are counted as usual; then the scalar
 * decoder counts from the character boundary before that vector through the
 * first error byte (the lead of an unfinished character counted before is
 * taken back first); the next step starts at a boundary with zero context,
 * as a stream start does. Tail (under one vector): the scalar kernel, after
 * the character that straddles its start. The count never exceeds n, so it
 * cannot overflow. */
#ifndef UTFX_SIMD_GENERIC_UTF8_LENGTH_H
#define UTFX_SIMD_GENERIC_UTF8_LENGTH_H

#include "generic_utf8_validate.h"

/* A byte mask (v_bits) of the first k bytes of a vector, k <= V_BYTES. */
static inline uint64_t g8_live(size_t k) {
  return k * V_BYTE_BITS >= 64 ? ~0ull : (1ull << (k * V_BYTE_BITS)) - 1;
}
#define G8_ALL g8_live(V_BYTES)
#define G8_COUNT(m) ((size_t)(g_popcnt64(m) / V_BYTE_BITS))

/* Units of the well-formed bytes of v selected by live (a v_bits mask). */
static inline size_t g8_block_count(vu8 v, uint64_t live, int utf16) {
  size_t c = G8_COUNT(~v_bits(v_is_cont(v)) & live);
  if (utf16) c += G8_COUNT(v_bits(v_ge(v, 0xF0)) & live);
  return c;
}

/* Index of the first nonzero byte of err (v_any(err)). */
static inline unsigned g8_first_error(vu8 err) {
  return g_ctz64(v_bits(v_nonzero(err))) / V_BYTE_BITS;
}

/* The vector v at c holds its first error at byte c + pos; everything before
 * c is counted. Count the well-formed characters before the error's
 * boundary from the vector, the rest through the error byte with the scalar
 * decoder; returns the new offset (a character boundary). */
UTFXI_INLINE size_t g8_count_through_error(const unsigned char *s, size_t n, size_t c, vu8 v,
                                          unsigned pos, size_t *count, int utf16) {
  size_t e = c + pos, q = utfxi_utf8_back_to_boundary(s, e);
  if (q < c) return utfxi_utf8_recount(s, n, c, e + 1, count, utf16);
  *count += g8_block_count(v, g8_live(q - c), utf16);
  *count += utfxi_utf8_count_steps(s, n, e + 1, &q, utf16);
  return q;
}

UTFXI_INLINE size_t g8_count_utf8(const char *src, size_t n, int utf16) {
  const unsigned char *s = (const unsigned char *)src;
  const size_t step = 4 * V_BYTES;
  size_t i = 0, count = 0;
  int fresh = 1; /* at a boundary, no context usable */
  vu8 pending = v_zero(), err, v;
  for (;;) {
    if (fresh) {
      if (n - i < V_BYTES) break;
      v = v_load(s + i);
      if (!v_any_high(v)) { /* ASCII: nothing to check */
        count += V_BYTES;
        i += V_BYTES;
        pending = v_zero();
        fresh = 0;
        continue;
      }
      err = g_utf8_errors_alone(v);
      if (v_any(err)) {
        count += utfxi_utf8_count_steps(s, n, i + g8_first_error(err) + 1, &i, utf16);
        continue;
      }
      count += g8_block_count(v, G8_ALL, utf16);
      pending = g_utf8_ends_inside(v);
      i += V_BYTES;
      fresh = 0;
    } else if (n - i >= step) {
      const unsigned char *p = s + i;
      vu8 vs[4];
      int b;
      vs[0] = v_load(p), vs[1] = v_load(p + V_BYTES);
      vs[2] = v_load(p + 2 * V_BYTES), vs[3] = v_load(p + 3 * V_BYTES);
      if (!v_any_high(v_or(v_or(vs[0], vs[1]), v_or(vs[2], vs[3])))) {
        if (v_any(pending)) {
          i = utfxi_utf8_recount(s, n, i, i + step, &count, utf16);
          fresh = 1;
          continue;
        }
        count += step;
        i += step;
        continue;
      }
      err = v_or(v_or(g_utf8_block_errors(p, vs[0]), g_utf8_block_errors(p + V_BYTES, vs[1])),
                 v_or(g_utf8_block_errors(p + 2 * V_BYTES, vs[2]),
                      g_utf8_block_errors(p + 3 * V_BYTES, vs[3])));
      if (v_any(err)) {
        /* Count the vectors before the first error; the scalar decoder goes
         * only through the first error byte, so rare errors stay cheap. */
        for (b = 0;; b++) {
          err = g_utf8_block_errors(p + V_BYTES * (size_t)b, vs[b]);
          if (v_any(err) || b == 3) break;
          count += g8_block_count(vs[b], G8_ALL, utf16);
        }
        i = g8_count_through_error(s, n, i + V_BYTES * (size_t)b, vs[b], g8_first_error(err),
                                   &count, utf16);
        fresh = 1;
        continue;
      }
      count += g8_block_count(vs[0], G8_ALL, utf16) + g8_block_count(vs[1], G8_ALL, utf16) +
               g8_block_count(vs[2], G8_ALL, utf16) + g8_block_count(vs[3], G8_ALL, utf16);
      pending = g_utf8_ends_inside(vs[3]);
      i += step;
    } else if (n - i >= V_BYTES) {
      v = v_load(s + i);
      if (!v_any_high(v) && !v_any(pending)) {
        count += V_BYTES; /* ASCII after a complete character */
        i += V_BYTES;
        continue;
      }
      pending = g_utf8_ends_inside(v);
      err = g_utf8_block_errors(s + i, v);
      if (v_any(err)) {
        i = g8_count_through_error(s, n, i, v, g8_first_error(err), &count, utf16);
        fresh = 1;
        continue;
      }
      count += g8_block_count(v, G8_ALL, utf16);
      i += V_BYTES;
    } else {
      break;
    }
  }
  /* n - i < V_BYTES bytes left: the scalar kernel, from the end of the
   * character that straddles i (unless fresh: i is a character boundary). */
  if (!fresh) {
    if (!v_any(pending)) { /* i is a boundary: ASCII here, no call */
      size_t a = i;
      while (n - i >= 8 && !(utfxi_load64(s + i) & 0x8080808080808080ull)) i += 8;
      count += i - a;
      if (i == n) return count;
    } else {
      i = utfxi_utf8_recount(s, n, i, i, &count, utf16);
    }
  }
  return count + (utf16 ? utfxi_utf16_length_from_utf8_scalar((const char *)s + i, n - i)
                        : utfxi_utf32_length_from_utf8_scalar((const char *)s + i, n - i));
}

size_t G_NAME(utf16_length_from_utf8)(const char *s, size_t n) { return g8_count_utf8(s, n, 1); }
size_t G_NAME(utf32_length_from_utf8)(const char *s, size_t n) { return g8_count_utf8(s, n, 0); }

#endif
