/* Scalar reference: UTF-8 to UTF-16LE/BE, UTF-32 and Latin-1.
 * ASCII runs move 8 bytes at a time; everything else goes through the WHATWG
 * decoder (utfxi_utf8_decode), so error offsets and replacements follow the
 * "maximal subpart" rule by construction. */
#include "unicode.h"

#define UTFXI_HIGH_BITS 0x8080808080808080ull

/* Converts well-formed characters from s[*i] on while the room left is at
 * least the input left (every UTF-8 byte yields at most one output unit, so
 * no capacity check is needed), and stops at the end of the input or at the
 * first character it does not handle here (an error, a Latin-1 overflow):
 * the caller's general step deals with that one. */
UTFXI_INLINE void utf8_convert_unchecked(const unsigned char *s, size_t n, void *dst,
                                          size_t *pi, size_t *pw, enum utfxi_target t) {
  size_t i = *pi, w = *pw;
  while (i < n) {
    uint32_t c = s[i], cp;
    size_t len;
    if (c < 0x80) {
      while (n - i >= 8 && !(utfxi_load64(s + i) & UTFXI_HIGH_BITS)) {
        utfxi_put_ascii(dst, w, s + i, 8, t);
        i += 8;
        w += 8;
      }
      if (i < n && s[i] < 0x80) utfxi_put(dst, w++, s[i++], t);
      continue;
    }
    if (c >= 0xC2 && c <= 0xDF) {
      if (n - i < 2 || (s[i + 1] & 0xC0) != 0x80) break;
      cp = (c & 0x1F) << 6 | (s[i + 1] & 0x3Fu);
      len = 2;
    } else if ((c & 0xF0) == 0xE0) {
      if (n - i < 3 || (s[i + 1] & 0xC0) != 0x80 || (s[i + 2] & 0xC0) != 0x80) break;
      cp = (c & 0x0F) << 12 | (s[i + 1] & 0x3Fu) << 6 | (s[i + 2] & 0x3Fu);
      if (cp < 0x800 || (cp & 0xF800) == 0xD800) break; /* overlong, surrogate */
      len = 3;
    } else if (c >= 0xF0 && c <= 0xF4) {
      if (n - i < 4 || (s[i + 1] & 0xC0) != 0x80 || (s[i + 2] & 0xC0) != 0x80 ||
          (s[i + 3] & 0xC0) != 0x80)
        break;
      cp = (c & 0x07) << 18 | (s[i + 1] & 0x3Fu) << 12 | (s[i + 2] & 0x3Fu) << 6 |
           (s[i + 3] & 0x3Fu);
      if (cp < 0x10000 || cp > 0x10FFFF) break;
      len = 4;
    } else {
      break;
    }
    if (t == UTFXI_T_LATIN1 && cp > 0xFF) break;
    w += utfxi_put(dst, w, cp, t);
    i += len;
  }
  *pi = i;
  *pw = w;
}

UTFXI_INLINE utfx_result utf8_convert(const char *src, size_t n, void *dst, size_t cap,
                                       unsigned flags, enum utfxi_target t) {
  const unsigned char *s = (const unsigned char *)src;
  size_t i = 0, w = 0, replaced = 0;
  while (i < n) {
    uint32_t c;
    size_t len;
    utfx_result stop;
    if (cap - w >= n - i) {
      utf8_convert_unchecked(s, n, dst, &i, &w, t);
      if (i == n) break;
    } else {
      while (n - i >= 8 && cap - w >= 8 && !(utfxi_load64(s + i) & UTFXI_HIGH_BITS)) {
        utfxi_put_ascii(dst, w, s + i, 8, t);
        i += 8;
        w += 8;
      }
      if (i == n) break;
    }
    /* General step: one character, with every check. */
    len = utfxi_utf8_decode(s + i, n - i, &c);
    if (utfxi_careful_step(dst, cap, i, &w, &replaced, c, flags, t, &stop)) return stop;
    i += len;
  }
  return utfxi_result(UTFX_OK, n, w, replaced);
}

UTFXI_CONVERT_ENTRY(utfxi_convert_utf8_to_utf16le_scalar, char, char16_t, utf8_convert,
                    UTFXI_T_UTF16LE)
UTFXI_CONVERT_ENTRY(utfxi_convert_utf8_to_utf16be_scalar, char, char16_t, utf8_convert,
                    UTFXI_T_UTF16BE)
UTFXI_CONVERT_ENTRY(utfxi_convert_utf8_to_utf32_scalar, char, char32_t, utf8_convert, UTFXI_T_UTF32)
UTFXI_CONVERT_ENTRY(utfxi_convert_utf8_to_latin1_scalar, char, char, utf8_convert, UTFXI_T_LATIN1)
