/* Scalar reference for issue 35's UTF-16 scans: the raw byte swap, the ASCII
 * check and the UTF-8 length that also reports a lone surrogate. */
#include "utf16_ascii.h"

/* dst may equal src: each unit is read before it is written. */
void utfxi_swap_bytes_utf16_scalar(const char16_t *s, size_t n, char16_t *d) {
  size_t i;
  for (i = 0; i < n; i++) {
    uint32_t u = (uint32_t)s[i];
    d[i] = (char16_t)((u >> 8) | ((u & 0xFF) << 8));
  }
}

utfx_result utfxi_validate_ascii_utf16le_scalar(const char16_t *s, size_t n) {
  return utfxi_ascii_utf16(s, n, 0);
}
utfx_result utfxi_validate_ascii_utf16be_scalar(const char16_t *s, size_t n) {
  return utfxi_ascii_utf16(s, n, 1);
}

/* The UTF-8 length of the UTFX_REPLACE conversion (a pair is 4 bytes, a lone
 * surrogate 3: EF BF BD), and whether a lone surrogate was seen. */
UTFXI_INLINE size_t utf8_length_lone(const char16_t *s, size_t n, int be, int *lone) {
  size_t i = 0, total = 0;
  int seen = 0;
  UTFXI_FOR_LENGTH_CHUNKS(i, n, end, count, total) {
    while (i < end) {
      uint32_t c = utfxi_load16(s + i, be);
      if ((c & 0xF800) == 0xD800) {
        if (c <= 0xDBFF && i + 1 < n && (utfxi_load16(s + i + 1, be) & 0xFC00) == 0xDC00) {
          count += 4;
          i += 2;
          continue;
        }
        seen = 1;
      }
      count += 1 + (size_t)(c >= 0x80) + (size_t)(c >= 0x800);
      i++;
    }
  }
  *lone = seen;
  return total;
}
size_t utfxi_utf8_length_from_utf16le_with_surrogates_scalar(const char16_t *s, size_t n,
                                                             int *lone) {
  return utf8_length_lone(s, n, 0, lone);
}
size_t utfxi_utf8_length_from_utf16be_with_surrogates_scalar(const char16_t *s, size_t n,
                                                             int *lone) {
  return utf8_length_lone(s, n, 1, lone);
}
