/* AVX-512 UTF-16 / UTF-32 / Latin-1 lengths of UTF-8 after replacement
 * (what the UTFX_REPLACE conversion writes).
 *
 * Algorithm: the bytes are checked as in avx512_utf8_validate.c (lookup
 * validation, Keiser and Lemire 2021; the bytes one to three back from
 * unaligned loads), 256 bytes per step, and well-formed text is counted as
 * one unit per non-continuation byte, plus one per 4-byte lead for UTF-16.
 * In a step with an error, the blocks before the first error are counted as
 * usual; then the scalar decoder counts from the character boundary before
 * that block through the first error byte (the lead of an unfinished
 * character counted before is taken back first); the next step starts at a
 * boundary with zero context, as a stream start does.
 * Tail: zero-masked loads (nothing outside [s, s + n) is read). The count
 * never exceeds n, so it cannot overflow.
 * This is src/simd/generic_utf8_length.h's algorithm. The generic instance
 * over vec_avx512.h measured 0.80-0.85x of this kernel on non-ASCII lipsum
 * text (Zen 5, gcc 12, four interleaved runs, p < 0.05), with and without
 * pinned constants, inlined or not: until that is understood, the avx512
 * tier keeps this one. */
#ifndef __AVX512VBMI2__
#error "avx512_ files must be built with the avx512 tier's flags"
#endif

#include "avx512_utf8_common.h"
#include "x86_prototypes.h"

/* Units of the well-formed bytes of v selected by live. */
static inline size_t block_count(__m512i v, __mmask64 live, int utf16) {
  size_t c = (size_t)_mm_popcnt_u64(~utfxi_avx512_continuations(v) & live);
  if (utf16)
    c += (size_t)_mm_popcnt_u64(_mm512_cmpge_epu8_mask(v, _mm512_set1_epi8((char)0xF0)) & live);
  return c;
}

/* The block v at c holds its first error at byte c + pos; everything before
 * c is counted. Count the well-formed characters before the error's
 * boundary from the block, the rest through the error byte with the scalar
 * decoder; returns the new offset (a character boundary). */
UTFXI_INLINE size_t count_through_error(const unsigned char *s, size_t n, size_t c, __m512i v,
                                  unsigned pos, size_t *count, int utf16) {
  size_t e = c + pos, q = utfxi_utf8_back_to_boundary(s, e);
  if (q < c) return utfxi_utf8_recount(s, n, c, e + 1, count, utf16);
  *count += block_count(v, _bzhi_u64(~0ull, (unsigned)(q - c)), utf16);
  *count += utfxi_utf8_count_steps(s, n, e + 1, &q, utf16);
  return q;
}

static inline size_t count_utf8(const char *src, size_t n, int utf16) {
  const unsigned char *s = (const unsigned char *)src;
  size_t i = 0, count = 0, r;
  int fresh = 1; /* at a boundary, no context usable */
  __m512i pending = _mm512_setzero_si512(), err, v;
  __mmask64 live;
  for (;;) {
    if (fresh) {
      if (n - i < 64) break;
      v = _mm512_loadu_si512((const void *)(s + i));
      live = utfxi_avx512_utf8_errors_first(v);
      if (live) {
        count += utfxi_utf8_count_steps(s, n, i + (size_t)_tzcnt_u64(live) + 1, &i, utf16);
        continue;
      }
      count += block_count(v, ~0ull, utf16);
      pending = utfxi_avx512_ends_inside(v);
      i += 64;
      fresh = 0;
    } else if (n - i >= 256) {
      const unsigned char *p = s + i;
      __m512i v0 = _mm512_loadu_si512((const void *)p);
      __m512i v1 = _mm512_loadu_si512((const void *)(p + 64));
      __m512i v2 = _mm512_loadu_si512((const void *)(p + 128));
      __m512i v3 = _mm512_loadu_si512((const void *)(p + 192));
      if (!_mm512_movepi8_mask(_mm512_ternarylogic_epi64(v0, v1, _mm512_or_si512(v2, v3), 0xFE))) {
        if (_mm512_test_epi8_mask(pending, pending)) {
          i = utfxi_utf8_recount(s, n, i, i + 256, &count, utf16);
          fresh = 1;
          continue;
        }
        count += 256;
        i += 256;
        continue;
      }
      err = _mm512_ternarylogic_epi64(utfxi_avx512_block_errors(p, v0),
                                      utfxi_avx512_block_errors(p + 64, v1),
                                      utfxi_avx512_block_errors(p + 128, v2), 0xFE);
      err = _mm512_or_si512(err, utfxi_avx512_block_errors(p + 192, v3));
      if (_mm512_test_epi8_mask(err, err)) {
        /* Count the blocks before the first error; the scalar decoder goes
         * only through the first error byte, so rare errors stay cheap. */
        __m512i vs[4];
        __mmask64 m;
        int b;
        vs[0] = v0, vs[1] = v1, vs[2] = v2, vs[3] = v3;
        for (b = 0;; b++) {
          err = utfxi_avx512_block_errors(p + 64 * b, vs[b]);
          m = _mm512_test_epi8_mask(err, err);
          if (m || b == 3) break;
          count += block_count(vs[b], ~0ull, utf16);
        }
        i = count_through_error(s, n, i + 64 * (size_t)b, vs[b], (unsigned)_tzcnt_u64(m), &count,
                                utf16);
        fresh = 1;
        continue;
      }
      count += block_count(v0, ~0ull, utf16) + block_count(v1, ~0ull, utf16) +
               block_count(v2, ~0ull, utf16) + block_count(v3, ~0ull, utf16);
      pending = utfxi_avx512_ends_inside(v3);
      i += 256;
    } else if (n - i >= 64) {
      v = _mm512_loadu_si512((const void *)(s + i));
      err = utfxi_avx512_block_errors(s + i, v);
      if (_mm512_test_epi8_mask(err, err)) {
        i = count_through_error(s, n, i, v, (unsigned)_tzcnt_u64(_mm512_test_epi8_mask(err, err)),
                                &count, utf16);
        fresh = 1;
        continue;
      }
      count += block_count(v, ~0ull, utf16);
      i += 64;
    } else {
      break;
    }
  }
  /* n - i < 64 bytes left: zero padding exposes an unfinished character. */
  r = n - i;
  live = _bzhi_u64(~0ull, (unsigned)r);
  v = _mm512_maskz_loadu_epi8(live, s + i);
  if (fresh) {
    if (utfxi_avx512_utf8_errors_first(v))
      return count + utfxi_utf8_count_steps(s, n, n, &i, utf16);
  } else {
    err = utfxi_avx512_utf8_error_bytes(
        v, _mm512_maskz_loadu_epi8(_bzhi_u64(~0ull, (unsigned)(r + 1)), s + i - 1),
        _mm512_maskz_loadu_epi8(_bzhi_u64(~0ull, (unsigned)(r + 2)), s + i - 2),
        _mm512_maskz_loadu_epi8(_bzhi_u64(~0ull, (unsigned)(r + 3)), s + i - 3));
    if (_mm512_test_epi8_mask(err, err)) {
      utfxi_utf8_recount(s, n, i, n, &count, utf16);
      return count;
    }
  }
  return count + block_count(v, live, utf16);
}

size_t utfxi_utf16_length_from_utf8_avx512(const char *s, size_t n) {
  return count_utf8(s, n, 1);
}
size_t utfxi_utf32_length_from_utf8_avx512(const char *s, size_t n) {
  return count_utf8(s, n, 0);
}
