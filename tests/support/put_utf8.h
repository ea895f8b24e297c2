/* The UTF-8 form of a code point, for the tests and fuzz targets that build
 * their inputs from code points (test_simd_utf8.c, test_decoder_node.c, the
 * WHATWG inputs, the oracle tests' generator, fuzz_common.h). */
#ifndef UTFX_TESTS_PUT_UTF8_H
#define UTFX_TESTS_PUT_UTF8_H

#include <stddef.h>
#include <stdint.h>

/* Writes c as UTF-8 to p[0..4); returns its length. Any c below 0x200000
 * takes the UTF-8 bit pattern, surrogates and values above U+10FFFF too (the
 * ill-formed inputs the oracle tests want). */
static inline size_t put_utf8(unsigned char *p, uint32_t c) {
  if (c < 0x80) {
    p[0] = (unsigned char)c;
    return 1;
  }
  if (c < 0x800) {
    p[0] = (unsigned char)(0xC0 | c >> 6);
    p[1] = (unsigned char)(0x80 | (c & 0x3F));
    return 2;
  }
  if (c < 0x10000) {
    p[0] = (unsigned char)(0xE0 | c >> 12);
    p[1] = (unsigned char)(0x80 | (c >> 6 & 0x3F));
    p[2] = (unsigned char)(0x80 | (c & 0x3F));
    return 3;
  }
  p[0] = (unsigned char)(0xF0 | c >> 18);
  p[1] = (unsigned char)(0x80 | (c >> 12 & 0x3F));
  p[2] = (unsigned char)(0x80 | (c >> 6 & 0x3F));
  p[3] = (unsigned char)(0x80 | (c & 0x3F));
  return 4;
}

#endif
