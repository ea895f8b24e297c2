/* Scalar reference: validation of UTF-8, UTF-16LE/BE, UTF-32 and ASCII.
 * read = offset of the first ill-formed unit (n when valid). */
#include "unicode.h"
#include "utf16_ascii.h"

#define UTFXI_HIGH_BITS 0x8080808080808080ull

/* Length of the well-formed character at s[0..n) (n >= 1, s[0] >= 0x80), or
 * 0 if it is not one. Branches on the lead byte's class, as the converters'
 * unchecked loops do; the exact error position comes from utfxi_utf8_decode. */
UTFXI_INLINE size_t utf8_valid_multibyte(const unsigned char *s, size_t n) {
  uint32_t c = s[0], cp;
  if (c >= 0xC2 && c <= 0xDF) return n >= 2 && (s[1] & 0xC0) == 0x80 ? 2 : 0;
  if ((c & 0xF0) == 0xE0) {
    if (n < 3 || (s[1] & 0xC0) != 0x80 || (s[2] & 0xC0) != 0x80) return 0;
    cp = (c & 0x0F) << 12 | (s[1] & 0x3Fu) << 6;
    return cp >= 0x800 && (cp & 0xF800) != 0xD800 ? 3 : 0;
  }
  if (c >= 0xF0 && c <= 0xF4) {
    if (n < 4 || (s[1] & 0xC0) != 0x80 || (s[2] & 0xC0) != 0x80 || (s[3] & 0xC0) != 0x80)
      return 0;
    cp = (c & 0x07) << 18 | (s[1] & 0x3Fu) << 12;
    return cp >= 0x10000 && cp <= 0x10FFFF ? 4 : 0;
  }
  return 0;
}

utfx_result utfxi_validate_utf8_scalar(const char *src, size_t n) {
  const unsigned char *s = (const unsigned char *)src;
  size_t i = 0;
  while (i < n) {
    size_t len;
    if (s[i] < 0x80) {
      /* 16 ASCII bytes per step: two independent loads keep the loop short. */
      while (n - i >= 16 &&
             !((utfxi_load64(s + i) | utfxi_load64(s + i + 8)) & UTFXI_HIGH_BITS))
        i += 16;
      while (i < n && s[i] < 0x80) i++;
      continue;
    }
    len = utf8_valid_multibyte(s + i, n - i);
    if (!len) return utfxi_result(UTFX_INVALID, i, 0, 0);
    i += len;
  }
  return utfxi_result(UTFX_OK, n, 0, 0);
}

UTFXI_INLINE utfx_result utf16_validate(const char16_t *s, size_t n, int be) {
  size_t i = 0;
  while (i < n) {
    uint32_t c = utfxi_load16(s + i, be);
    if ((c & 0xF800) != 0xD800) {
      i++;
      continue;
    }
    if (c > 0xDBFF || i + 1 == n || (utfxi_load16(s + i + 1, be) & 0xFC00) != 0xDC00)
      return utfxi_result(UTFX_INVALID, i, 0, 0);
    i += 2;
  }
  return utfxi_result(UTFX_OK, n, 0, 0);
}

utfx_result utfxi_validate_utf16le_scalar(const char16_t *s, size_t n) {
  return utf16_validate(s, n, 0);
}
utfx_result utfxi_validate_utf16be_scalar(const char16_t *s, size_t n) {
  return utf16_validate(s, n, 1);
}

utfx_result utfxi_validate_utf32_scalar(const char32_t *s, size_t n) {
  size_t i;
  for (i = 0; i < n; i++)
    if (!utfxi_is_scalar_value((uint32_t)s[i])) return utfxi_result(UTFX_INVALID, i, 0, 0);
  return utfxi_result(UTFX_OK, n, 0, 0);
}

utfx_result utfxi_validate_ascii_scalar(const char *src, size_t n) {
  return utfxi_ascii_bytes(src, n);
}
