/* AVX2 UTF-16 / UTF-32 / Latin-1 lengths of UTF-8 after replacement
 * (what the UTFX_REPLACE conversion writes).
 *
 * Algorithm: the bytes are checked as in avx2_utf8_validate.c (lookup
 * validation, Keiser and Lemire 2021; the bytes one to three back from
 * unaligned loads), 128 bytes per step, and well-formed text is counted as
 * one unit per non-continuation byte, plus one per 4-byte lead for UTF-16.
 * In a step with an error, the blocks before the first error are counted as
 * usual; then the scalar decoder counts from the character boundary before
 * that block through the first error byte (the lead of an unfinished
 * character counted before is taken back first); the next step starts at a
 * boundary with zero context, as a stream start does.
 * Tail (the last n % 32 bytes): the scalar kernel, after the character that
 * straddles its start (cheaper than a copy checked as one more vector). The
 * count never exceeds n, so it cannot overflow. */
#ifndef __AVX2__
#error "avx2_ files must be built with the avx2 tier's flags"
#endif

#include "avx2_utf8_common.h"
#include "x86_prototypes.h"

/* Units of the well-formed bytes of v selected by live. */
static inline size_t block_count(__m256i v, uint32_t live, int utf16) {
  uint32_t b7 = (uint32_t)_mm256_movemask_epi8(v);
  uint32_t b6 = (uint32_t)_mm256_movemask_epi8(_mm256_slli_epi16(v, 1));
  size_t c = (size_t)_mm_popcnt_u32(~(b7 & ~b6) & live);
  if (utf16) {
    __m256i f0 = _mm256_set1_epi8((char)0xF0);
    uint32_t lead4 = (uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(_mm256_max_epu8(v, f0), v));
    c += (size_t)_mm_popcnt_u32(lead4 & live);
  }
  return c;
}

/* Bit j set where byte j of err is nonzero. */
static inline uint32_t first_errors(__m256i err) {
  return ~(uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(err, _mm256_setzero_si256()));
}

/* The block v at c holds its first error at byte c + pos; everything before
 * c is counted. Count the well-formed characters before the error's
 * boundary from the block, the rest through the error byte with the scalar
 * decoder; returns the new offset (a character boundary). */
UTFXI_INLINE size_t count_through_error(const unsigned char *s, size_t n, size_t c, __m256i v,
                                  unsigned pos, size_t *count, int utf16) {
  size_t e = c + pos, q = utfxi_utf8_back_to_boundary(s, e);
  if (q < c) return utfxi_utf8_recount(s, n, c, e + 1, count, utf16);
  *count += block_count(v, (uint32_t)_bzhi_u32(~0u, (unsigned)(q - c)), utf16);
  *count += utfxi_utf8_count_steps(s, n, e + 1, &q, utf16);
  return q;
}

UTFXI_INLINE size_t count_utf8(const char *src, size_t n, int utf16) {
  const unsigned char *s = (const unsigned char *)src;
  const __m256i high = _mm256_set1_epi8((char)0x80);
  size_t i = 0, count = 0;
  int fresh = 1; /* at a boundary, no context usable */
  __m256i pending = _mm256_setzero_si256(), err, v;
  for (;;) {
    if (fresh) {
      if (n - i < 32) break;
      v = _mm256_loadu_si256((const __m256i *)(s + i));
      if (_mm256_testz_si256(v, high)) { /* ASCII: nothing to check */
        count += 32;
        i += 32;
        pending = _mm256_setzero_si256();
        fresh = 0;
        continue;
      }
      err = utfxi_avx2_utf8_errors(_mm256_setzero_si256(), v);
      if (!_mm256_testz_si256(err, err)) {
        count += utfxi_utf8_count_steps(s, n, i + (size_t)_tzcnt_u32(first_errors(err)) + 1, &i,
                                        utf16);
        continue;
      }
      count += block_count(v, ~0u, utf16);
      pending = utfxi_avx2_ends_inside(v);
      i += 32;
      fresh = 0;
    } else if (n - i >= 128) {
      const unsigned char *p = s + i;
      __m256i v0 = _mm256_loadu_si256((const __m256i *)p);
      __m256i v1 = _mm256_loadu_si256((const __m256i *)(p + 32));
      __m256i v2 = _mm256_loadu_si256((const __m256i *)(p + 64));
      __m256i v3 = _mm256_loadu_si256((const __m256i *)(p + 96));
      if (_mm256_testz_si256(_mm256_or_si256(_mm256_or_si256(v0, v1), _mm256_or_si256(v2, v3)),
                             high)) {
        if (!_mm256_testz_si256(pending, pending)) {
          i = utfxi_utf8_recount(s, n, i, i + 128, &count, utf16);
          fresh = 1;
          continue;
        }
        count += 128;
        i += 128;
        continue;
      }
      err = _mm256_or_si256(
          _mm256_or_si256(utfxi_avx2_block_errors(p, v0), utfxi_avx2_block_errors(p + 32, v1)),
          _mm256_or_si256(utfxi_avx2_block_errors(p + 64, v2),
                          utfxi_avx2_block_errors(p + 96, v3)));
      if (!_mm256_testz_si256(err, err)) {
        /* Count the blocks before the first error; the scalar decoder goes
         * only through the first error byte, so rare errors stay cheap. */
        __m256i vs[4];
        uint32_t m;
        int b;
        vs[0] = v0, vs[1] = v1, vs[2] = v2, vs[3] = v3;
        for (b = 0;; b++) {
          err = utfxi_avx2_block_errors(p + 32 * b, vs[b]);
          m = first_errors(err);
          if (m || b == 3) break;
          count += block_count(vs[b], ~0u, utf16);
        }
        i = count_through_error(s, n, i + 32 * (size_t)b, vs[b], (unsigned)_tzcnt_u32(m), &count,
                                utf16);
        fresh = 1;
        continue;
      }
      count += block_count(v0, ~0u, utf16) + block_count(v1, ~0u, utf16) +
               block_count(v2, ~0u, utf16) + block_count(v3, ~0u, utf16);
      pending = utfxi_avx2_ends_inside(v3);
      i += 128;
    } else if (n - i >= 32) {
      v = _mm256_loadu_si256((const __m256i *)(s + i));
      if (_mm256_testz_si256(v, high) && _mm256_testz_si256(pending, pending)) {
        count += 32; /* ASCII after a complete character */
        i += 32;
        continue;
      }
      pending = utfxi_avx2_ends_inside(v);
      err = utfxi_avx2_block_errors(s + i, v);
      if (!_mm256_testz_si256(err, err)) {
        i = count_through_error(s, n, i, v, (unsigned)_tzcnt_u32(first_errors(err)), &count, utf16);
        fresh = 1;
        continue;
      }
      count += block_count(v, ~0u, utf16);
      i += 32;
    } else {
      break;
    }
  }
  /* n - i < 32 bytes left: the scalar kernel, from the end of the character
   * that straddles i (unless fresh: i is a character boundary). */
  if (!fresh) {
    if (_mm256_testz_si256(pending, pending)) { /* i is a boundary: ASCII here, no call */
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

size_t utfxi_utf16_length_from_utf8_avx2(const char *s, size_t n) { return count_utf8(s, n, 1); }
size_t utfxi_utf32_length_from_utf8_avx2(const char *s, size_t n) { return count_utf8(s, n, 0); }
