/* The UTF-8 form of a scalar value, for the tests that build their inputs
 * from code points (test_simd_utf8.c, test_decoder_node.c, the WHATWG
 * inputs). */
#ifndef UTFX_TESTS_PUT_UTF8_H
#define UTFX_TESTS_PUT_UTF8_H

#include <stddef.h>
#include <stdint.h>

/* Writes c (a scalar value) as UTF-8 to p[0..4); returns its length. */
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
