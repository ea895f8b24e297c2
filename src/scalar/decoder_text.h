/* Word-at-a-time text output of the streaming decoder (src/decoder.c) and of
 * its scalar block kernels (decoder_scalar.c): eight characters travel in a
 * uint64_t, character j in bits 8j..8j+7 (a "logical" order, independent of
 * the host's byte order), and are stored as bytes or as UTF-16 units. */
#ifndef UTFX_SCALAR_DECODER_TEXT_H
#define UTFX_SCALAR_DECODER_TEXT_H

#include <string.h>

#include "../internal.h"

static inline int utfxi_host_le(void) {
  const uint16_t one = 1;
  unsigned char first;
  memcpy(&first, &one, 1);
  return first == 1; /* folded to a constant by the compiler */
}

/* UTF-8 to host-order UTF-16 by the kernels k: the UTF-8 step of both
 * streaming decoders (decoder_codecs.h, decoder_whatwg.c). */
static inline utfx_result utfxi_utf8_to_utf16_host(const struct utfxi_kernels *k,
                                                   const unsigned char *p, size_t n, char16_t *d,
                                                   size_t cap, unsigned flags) {
  const char *s = (const char *)p;
  return utfxi_host_le() ? k->convert_utf8_to_utf16le(s, n, d, cap, flags)
                         : k->convert_utf8_to_utf16be(s, n, d, cap, flags);
}

/* Four bytes of x into the low bytes of four 16-bit lanes. */
static inline uint64_t utfxi_spread4(uint32_t x) {
  uint64_t t = x;
  t = (t | t << 16) & 0x0000FFFF0000FFFFull;
  return (t | t << 8) & 0x00FF00FF00FF00FFull;
}

/* The lowercase hex digits, one at a time (utfxi_hex_digits: eight). */
static const char utfxi_hex_chars[] = "0123456789abcdef";

/* Four bytes (byte j in bits 8j..) to eight lowercase hex digits. */
static inline uint64_t utfxi_hex_digits(uint32_t x) {
  uint64_t t = utfxi_spread4(x);
  uint64_t nib = (t >> 4 & 0x000F000F000F000Full) | (t & 0x000F000F000F000Full) << 8;
  uint64_t over9 = ((nib + 0x0606060606060606ull) >> 4) & 0x0101010101010101ull;
  return nib + 0x3030303030303030ull + over9 * ('a' - '0' - 10);
}

/* The eight characters v at d8 + at (u8) or d16 + at (the other pointer is
 * NULL). Callers keep their output pointer in a local: a store through a
 * char pointer could alias a counter in memory, which would otherwise be
 * reloaded after every character. */
UTFXI_INLINE void utfxi_store8(unsigned char *d8, char16_t *d16, size_t at, uint64_t v, int u8) {
  int j;
  if (u8)
    d8 += at; /* only the form in use is offset: the other pointer is NULL */
  else
    d16 += at;
  if (utfxi_host_le() && u8) {
    memcpy(d8, &v, 8);
  } else if (utfxi_host_le()) {
    uint64_t lo = utfxi_spread4((uint32_t)v), hi = utfxi_spread4((uint32_t)(v >> 32));
    memcpy(d16, &lo, 8);
    memcpy(d16 + 4, &hi, 8);
  } else {
    for (j = 0; j < 8; j++) {
      if (u8)
        d8[j] = (unsigned char)(v >> (8 * j));
      else
        d16[j] = (char16_t)(v >> (8 * j) & 0xFF);
    }
  }
}

/* Node's 'ascii' to host-order UTF-16 of whole 16-byte blocks (the decoder's
 * ascii_blocks): plain C that gcc and clang vectorize at -O2 on every target
 * (the fixed inner count and restrict make that cheap enough for gcc's
 * default cost model). Returns the bytes consumed. */
static inline size_t utfxi_ascii_blocks_portable(const unsigned char *restrict p, size_t n,
                                                 char16_t *restrict d) {
  size_t i, j;
  for (i = 0; n - i >= 16; i += 16)
    for (j = 0; j < 16; j++) d[i + j] = (char16_t)(p[i + j] & 0x7F);
  return i;
}

#endif
