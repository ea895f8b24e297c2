/* The scalar ASCII checks of bytes and of UTF-16, inline: the scalar
 * kernels (validate_scalar.c, utf16_scans_scalar.c) and the public entries'
 * short paths (api.c) run the same code. */
#ifndef UTFX_SCALAR_UTF16_ASCII_H
#define UTFX_SCALAR_UTF16_ASCII_H

#include "unicode.h"

/* Bytes of four units in memory that are set in no ASCII unit: the high
 * byte and bit 7 of the low byte, wherever the byte order puts them. */
UTFXI_INLINE uint64_t utfxi_non_ascii_mask16(int be) {
  static const unsigned char le[8] = {0x80, 0xFF, 0x80, 0xFF, 0x80, 0xFF, 0x80, 0xFF};
  static const unsigned char bee[8] = {0xFF, 0x80, 0xFF, 0x80, 0xFF, 0x80, 0xFF, 0x80};
  uint64_t m;
  memcpy(&m, be ? bee : le, 8);
  return m;
}

UTFXI_INLINE utfx_result utfxi_ascii_bytes(const char *src, size_t n) {
  const unsigned char *s = (const unsigned char *)src;
  size_t i = 0;
  while (n - i >= 16 && !((utfxi_load64(s + i) | utfxi_load64(s + i + 8)) & 0x8080808080808080ull))
    i += 16;
  for (; i < n; i++)
    if (s[i] >= 0x80) return utfxi_result(UTFX_INVALID, i, 0, 0);
  return utfxi_result(UTFX_OK, n, 0, 0);
}

UTFXI_INLINE utfx_result utfxi_ascii_utf16(const char16_t *s, size_t n, int be) {
  const uint64_t mask = utfxi_non_ascii_mask16(be);
  size_t i = 0;
  while (n - i >= 8) {
    uint64_t a, b;
    memcpy(&a, s + i, 8);
    memcpy(&b, s + i + 4, 8);
    if ((a | b) & mask) break;
    i += 8;
  }
  for (; i < n; i++)
    if (utfxi_load16(s + i, be) >= 0x80) return utfxi_result(UTFX_INVALID, i, 0, 0);
  return utfxi_result(UTFX_OK, n, 0, 0);
}
#endif /* UTFX_SCALAR_UTF16_ASCII_H */
