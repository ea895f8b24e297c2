/* Inputs for the WHATWG decoder tests (test_whatwg.c, test_whatwg_node.c):
 * short ones biased to what the standard's decoders branch on (UTF-8 lead
 * bytes with their boundary bytes, stray continuations, non-leads, BOMs cut
 * or whole; UTF-16 surrogates, pairs, both BOM orders, odd bytes moving the
 * unit grid), and long ones of mostly valid text with a few errors, long
 * enough for the SIMD kernels. */
#ifndef UTFX_TESTS_WHATWG_INPUTS_H
#define UTFX_TESTS_WHATWG_INPUTS_H

#include <stdint.h>
#include <string.h>

#include "guard.h"
#include "put_utf8.h"
#include "utfx.h"

static size_t put_unit(unsigned char *p, unsigned u, int be) {
  p[be ? 0 : 1] = (unsigned char)(u >> 8);
  p[be ? 1 : 0] = (unsigned char)u;
  return 2;
}

static uint32_t random_scalar(test_rng *rng) {
  switch (rng_below(rng, 6)) {
    case 0: return (uint32_t)rng_below(rng, 0x80);
    case 1: return 0x80 + (uint32_t)rng_below(rng, 0x780);
    case 2: return 0x800 + (uint32_t)rng_below(rng, 0xD000);
    case 3: return 0xE000 + (uint32_t)rng_below(rng, 0x2000);
    case 4: return 0xFEFF;
    default: return 0x10000 + (uint32_t)rng_below(rng, 0x100000);
  }
}

/* Biased UTF-8: leads with their boundary bytes, stray continuations,
 * non-leads, whole characters and BOMs. */
static size_t gen_utf8_short(test_rng *rng, unsigned char *p, size_t max) {
  static const unsigned char pal[] = {0x41, 0x00, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBB,
                                      0xBF, 0xC0, 0xC1, 0xC2, 0xDF, 0xE0, 0xE2, 0xED, 0xEF,
                                      0xF0, 0xF4, 0xF5, 0xFE, 0xFF};
  size_t n = 0, len = rng_below(rng, max + 1);
  if (rng_below(rng, 3) == 0 && len >= 3) {
    memcpy(p, "\xEF\xBB\xBF", 3);
    n = 3;
    if (rng_below(rng, 3) == 0) n = 1 + rng_below(rng, 2); /* a cut BOM */
  }
  while (n < len) {
    unsigned char tmp[4];
    size_t k;
    if (rng_below(rng, 3) == 0) {
      k = put_utf8(tmp, random_scalar(rng));
      if (n + k > len) k = len - n; /* a cut character is a prefix */
      memcpy(p + n, tmp, k);
      n += k;
    } else {
      p[n++] = pal[rng_below(rng, sizeof pal)];
    }
  }
  return n;
}

static unsigned random_unit(test_rng *rng) {
  switch (rng_below(rng, 8)) {
    case 0: return 0x41;
    case 1: return 0xFEFF;
    case 2: return 0xFFFE;
    case 3: return 0xD800 + (unsigned)rng_below(rng, 0x400);
    case 4: return 0xDC00 + (unsigned)rng_below(rng, 0x400);
    case 5: return rng_below(rng, 2) ? 0xDBFF : 0xDC00;
    default: return (unsigned)rng_below(rng, 0x10000);
  }
}

/* Biased UTF-16: BOMs of both orders, surrogates, pairs, odd bytes. */
static size_t gen_utf16_short(test_rng *rng, unsigned char *p, size_t max, int be) {
  size_t n = 0, len = rng_below(rng, max + 1);
  if (rng_below(rng, 3) == 0 && len >= 2) n = put_unit(p, 0xFEFF, be);
  while (n + 2 <= len) {
    if (rng_below(rng, 4) == 0 && n + 4 <= len) {
      n += put_unit(p + n, 0xD800 + (unsigned)rng_below(rng, 0x400), be);
      n += put_unit(p + n, 0xDC00 + (unsigned)rng_below(rng, 0x400), be);
    } else {
      n += put_unit(p + n, random_unit(rng), be);
    }
  }
  if (n < len) p[n++] = (unsigned char)rng_below(rng, 256);
  if (rng_below(rng, 5) == 0 && n > 0 && n < max) { /* shift the unit grid */
    size_t at = rng_below(rng, n + 1);
    memmove(p + at + 1, p + at, n - at);
    p[at] = (unsigned char)rng_below(rng, 256);
    n++;
  }
  return n;
}

/* Longer inputs: mostly valid text (so the SIMD kernels run), some errors. */
static size_t gen_long(test_rng *rng, unsigned char *p, size_t len, utfx_encoding enc) {
  int be = enc == UTFX_UTF16BE;
  size_t n = 0;
  int ascii = rng_below(rng, 2) == 0;
  if (rng_below(rng, 2) == 0) n = enc == UTFX_UTF8 ? put_utf8(p, 0xFEFF) : put_unit(p, 0xFEFF, be);
  while (n + 4 <= len) {
    unsigned roll = (unsigned)rng_below(rng, 100);
    uint32_t c = ascii && roll < 90 ? (uint32_t)rng_below(rng, 0x80) : random_scalar(rng);
    if (roll == 99) {
      if (enc == UTFX_UTF8)
        n += gen_utf8_short(rng, p + n, 4 < len - n ? 4 : len - n);
      else
        n += put_unit(p + n, random_unit(rng), be);
    } else if (enc == UTFX_UTF8) {
      n += put_utf8(p + n, c);
    } else if (c >= 0x10000) {
      n += put_unit(p + n, 0xD800 + ((c - 0x10000) >> 10), be);
      n += put_unit(p + n, 0xDC00 + (c & 0x3FF), be);
    } else {
      n += put_unit(p + n, c, be);
    }
  }
  if (rng_below(rng, 4) == 0 && n < len) p[n++] = (unsigned char)rng_below(rng, 256);
  return n;
}

static size_t gen_short(test_rng *rng, utfx_encoding enc, unsigned char *p, size_t max) {
  return enc == UTFX_UTF8 ? gen_utf8_short(rng, p, max) : gen_utf16_short(rng, p, max, enc == UTFX_UTF16BE);
}

#endif
