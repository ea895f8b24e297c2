/* Random inputs for the differential oracle tests (ICU, iconv, Node.js),
 * biased toward what decoders get wrong: the lead bytes with special second
 * byte ranges (E0, ED, F0, F4), the never-valid bytes (C0, C1, F5-FF), stray
 * and missing continuation bytes, encoded surrogates, values just above
 * U+10FFFF, long ASCII runs (the SIMD fast path) broken by one bad byte, and
 * valid text from several scripts. UTF-16 and UTF-32 inputs mix valid text
 * with lone, reversed and doubled surrogates (and, for UTF-32, values above
 * U+10FFFF). Everything is static so each test program includes its own copy;
 * the sequence depends only on the seed, so a failure is reproducible. */
#ifndef UTFX_TESTS_ORACLE_GEN_H
#define UTFX_TESTS_ORACLE_GEN_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "support/guard.h"
#include "support/put_utf8.h"

/* A code point drawn from ranges that exercise every UTF-8 length and the
 * boundaries between them. */
static inline uint32_t gen_code_point(test_rng *r) {
  static const uint32_t edges[] = {0x00,    0x7F,    0x80,   0x7FF,   0x800,   0xFFF,
                                   0x1000,  0xD7FF,  0xE000, 0xFEFF,  0xFFFD,  0xFFFE,
                                   0xFFFF,  0x10000, 0x1F600, 0xFFFFF, 0x100000, 0x10FFFF};
  static const uint32_t blocks[][2] = {
      {0x20, 0x7E},       /* ASCII */
      {0xA0, 0xFF},       /* Latin-1 */
      {0x100, 0x24F},     /* Latin extended */
      {0x370, 0x3FF},     /* Greek */
      {0x400, 0x4FF},     /* Cyrillic */
      {0x590, 0x6FF},     /* Hebrew, Arabic */
      {0x900, 0x97F},     /* Devanagari */
      {0x3040, 0x30FF},   /* kana */
      {0x4E00, 0x9FFF},   /* CJK */
      {0xAC00, 0xD7A3},   /* Hangul */
      {0x1F300, 0x1FAFF}, /* emoji */
      {0x20000, 0x2A6DF}, /* CJK extension B */
  };
  uint64_t k = rng_below(r, 16);
  if (k == 0) return edges[rng_below(r, sizeof edges / sizeof edges[0])];
  if (k == 1) {
    uint32_t c = (uint32_t)rng_below(r, 0x110000);
    return (c >= 0xD800 && c <= 0xDFFF) ? c + 0x800 : c;
  }
  k = rng_below(r, sizeof blocks / sizeof blocks[0]);
  return blocks[k][0] + (uint32_t)rng_below(r, blocks[k][1] - blocks[k][0] + 1);
}

/* One byte from the set that matters for UTF-8 validation. */
static inline unsigned char gen_special_byte(test_rng *r) {
  static const unsigned char bytes[] = {
      0x80, 0x81, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xC1, 0xC2, 0xC3, 0xDF, 0xE0, 0xE1,
      0xEC, 0xED, 0xEE, 0xEF, 0xF0, 0xF1, 0xF3, 0xF4, 0xF5, 0xF7, 0xF8, 0xFB, 0xFC, 0xFE,
      0xFF, 0x00, 0x41, 0x7F};
  return bytes[rng_below(r, sizeof bytes / sizeof bytes[0])];
}

/* Fills d[0..max) with a random UTF-8-ish input and returns its length. */
static inline size_t gen_utf8(test_rng *r, unsigned char *d, size_t max) {
  size_t n = 0, target;
  uint64_t shape = rng_below(r, 32);
  if (shape < 3) {
    /* A long ASCII run with one bad (or special) byte somewhere. */
    target = 16 + (size_t)rng_below(r, max - 16);
    memset(d, 'a' + (int)rng_below(r, 26), target);
    for (n = 0; n < target; n += 1 + (size_t)rng_below(r, 8))
      d[n] = (unsigned char)(0x20 + rng_below(r, 0x5F));
    d[rng_below(r, target)] = gen_special_byte(r);
    return target;
  }
  if (shape < 8) {
    /* Only valid text, mostly non-ASCII. */
    target = (size_t)rng_below(r, shape < 7 ? 48 : max - 4);
    while (n + 4 <= target) n += put_utf8(d + n, gen_code_point(r));
    return n;
  }
  if (shape < 10) {
    /* Fully random bytes. */
    target = (size_t)rng_below(r, 24);
    for (n = 0; n < target; n++) d[n] = (unsigned char)rng_next(r);
    return n;
  }
  target = shape < 20 ? (size_t)rng_below(r, 24) : (size_t)rng_below(r, max - 4);
  while (n + 4 <= target) {
    uint64_t k = rng_below(r, 24);
    if (k < 6) {
      d[n++] = (unsigned char)(0x20 + rng_below(r, 0x5F));
    } else if (k < 13) {
      n += put_utf8(d + n, gen_code_point(r));
    } else if (k < 17) {
      d[n++] = gen_special_byte(r);
    } else if (k < 19) {
      /* A truncated valid character. */
      unsigned char tmp[4];
      size_t len = put_utf8(tmp, gen_code_point(r));
      size_t cut = len > 1 ? 1 + (size_t)rng_below(r, len - 1) : 1;
      memcpy(d + n, tmp, cut);
      n += cut;
    } else if (k < 20) {
      /* An encoded surrogate or a value above U+10FFFF. */
      uint32_t c = rng_below(r, 2) ? 0xD800 + (uint32_t)rng_below(r, 0x800)
                                   : 0x110000 + (uint32_t)rng_below(r, 0xF0000);
      n += put_utf8(d + n, c);
    } else if (k < 21) {
      /* An overlong form. */
      uint32_t c = (uint32_t)rng_below(r, 0x800);
      if (c < 0x80 && rng_below(r, 2)) {
        d[n++] = (unsigned char)(0xC0 | c >> 6);
        d[n++] = (unsigned char)(0x80 | (c & 0x3F));
      } else {
        d[n++] = 0xE0;
        d[n++] = (unsigned char)(0x80 | (c >> 6 & 0x1F));
        d[n++] = (unsigned char)(0x80 | (c & 0x3F));
      }
    } else if (k < 22) {
      /* A lead byte followed by random continuation-ish bytes. */
      d[n++] = gen_special_byte(r);
      d[n++] = (unsigned char)(0x80 + rng_below(r, 0x40));
      if (rng_below(r, 2)) d[n++] = (unsigned char)(0x80 + rng_below(r, 0x40));
    } else {
      d[n++] = (unsigned char)rng_next(r);
    }
  }
  return n;
}

/* One UTF-16 unit or pair, or a surrogate error; returns the units written. */
static inline size_t gen_utf16_piece(test_rng *r, uint16_t *d) {
  uint64_t k = rng_below(r, 16);
  uint32_t c;
  if (k < 2) {
    d[0] = (uint16_t)(0xD800 + rng_below(r, 0x400)); /* lone high */
    return 1;
  }
  if (k < 4) {
    d[0] = (uint16_t)(0xDC00 + rng_below(r, 0x400)); /* lone low */
    return 1;
  }
  if (k < 5) {
    d[0] = (uint16_t)(0xDC00 + rng_below(r, 0x400)); /* reversed pair */
    d[1] = (uint16_t)(0xD800 + rng_below(r, 0x400));
    return 2;
  }
  if (k < 6) {
    d[0] = (uint16_t)rng_next(r);
    return 1;
  }
  c = gen_code_point(r);
  if (c < 0x10000) {
    d[0] = (uint16_t)c;
    return 1;
  }
  d[0] = (uint16_t)(0xD800 + ((c - 0x10000) >> 10));
  d[1] = (uint16_t)(0xDC00 + (c & 0x3FF));
  return 2;
}

/* Fills d[0..max) with random UTF-16 units (host order) and returns the count. */
static inline size_t gen_utf16(test_rng *r, uint16_t *d, size_t max) {
  size_t n = 0, target;
  uint64_t shape = rng_below(r, 16);
  if (shape < 2) {
    /* A long ASCII run with one surrogate or non-ASCII unit in it. */
    target = 8 + (size_t)rng_below(r, max - 8);
    for (n = 0; n < target; n++) d[n] = (uint16_t)(0x20 + rng_below(r, 0x5F));
    gen_utf16_piece(r, d + rng_below(r, target - 1));
    return target;
  }
  if (shape < 4) {
    /* Only valid text. */
    target = (size_t)rng_below(r, 32);
    while (n + 2 <= target) {
      uint32_t c = gen_code_point(r);
      if (c < 0x10000) {
        d[n++] = (uint16_t)c;
      } else {
        d[n++] = (uint16_t)(0xD800 + ((c - 0x10000) >> 10));
        d[n++] = (uint16_t)(0xDC00 + (c & 0x3FF));
      }
    }
    return n;
  }
  target = shape < 12 ? (size_t)rng_below(r, 24) : (size_t)rng_below(r, max - 2);
  while (n + 2 <= target) {
    if (rng_below(r, 3) == 0)
      d[n++] = (uint16_t)(0x20 + rng_below(r, 0x5F));
    else
      n += gen_utf16_piece(r, d + n);
  }
  return n;
}

/* Fills d[0..max) with random UTF-32 values and returns the count. */
static inline size_t gen_utf32(test_rng *r, uint32_t *d, size_t max) {
  static const uint32_t bad[] = {0xD800,     0xDBFF,     0xDC00,     0xDFFF,    0x110000,
                                 0x10FFFF + 2, 0x1FFFFF, 0x7FFFFFFF, 0x80000000, 0xFFFFFFFF,
                                 0xFFFFFFFD, 0x0010FFFF + 0x10000};
  size_t n, target = (size_t)rng_below(r, max);
  for (n = 0; n < target; n++) {
    uint64_t k = rng_below(r, 16);
    if (k == 0)
      d[n] = bad[rng_below(r, sizeof bad / sizeof bad[0])];
    else if (k == 1)
      d[n] = 0xD800 + (uint32_t)rng_below(r, 0x800);
    else if (k == 2)
      d[n] = (uint32_t)rng_next(r);
    else if (k < 6)
      d[n] = (uint32_t)(0x20 + rng_below(r, 0x5F));
    else
      d[n] = gen_code_point(r);
  }
  return n;
}

#endif
