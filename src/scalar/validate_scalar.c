/* Scalar reference: validation of UTF-8, UTF-16LE/BE, UTF-32 and ASCII.
 * read = offset of the first ill-formed unit (n when valid). */
#include "unicode.h"

#define UTFXI_HIGH_BITS 0x8080808080808080ull

utfx_result utfxi_validate_utf8_scalar(const char *src, size_t n) {
  const unsigned char *s = (const unsigned char *)src;
  size_t i = 0;
  while (i < n) {
    uint32_t c;
    size_t len;
    /* 16 ASCII bytes per step: two independent loads keep the loop short. */
    while (n - i >= 16 && !((utfxi_load64(s + i) | utfxi_load64(s + i + 8)) & UTFXI_HIGH_BITS))
      i += 16;
    if (i == n) break;
    if (s[i] < 0x80) {
      i++;
      continue;
    }
    len = utfxi_utf8_decode(s + i, n - i, &c);
    if (c == UTFXI_BAD) return utfxi_result(UTFX_INVALID, i, 0, 0);
    i += len;
  }
  return utfxi_result(UTFX_OK, n, 0, 0);
}

static inline utfx_result utf16_validate(const char16_t *s, size_t n, int be) {
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
  const unsigned char *s = (const unsigned char *)src;
  size_t i = 0;
  while (n - i >= 16 && !((utfxi_load64(s + i) | utfxi_load64(s + i + 8)) & UTFXI_HIGH_BITS))
    i += 16;
  for (; i < n; i++)
    if (s[i] >= 0x80) return utfxi_result(UTFX_INVALID, i, 0, 0);
  return utfxi_result(UTFX_OK, n, 0, 0);
}
