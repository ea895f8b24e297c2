/* Scalar reference: UTF-8 to UTF-16LE/BE, UTF-32 and Latin-1.
 * ASCII runs move 8 bytes at a time; everything else goes through the WHATWG
 * decoder (utfxi_utf8_decode), so error offsets and replacements follow the
 * "maximal subpart" rule by construction. */
#include "unicode.h"

#define UTFXI_HIGH_BITS 0x8080808080808080ull

static inline utfx_result utf8_convert(const char *src, size_t n, void *dst, size_t cap,
                                       unsigned flags, enum utfxi_target t) {
  const unsigned char *s = (const unsigned char *)src;
  size_t i = 0, w = 0, replaced = 0;
  while (i < n) {
    uint32_t c;
    size_t len;
    int stop, bad;
    while (n - i >= 8 && cap - w >= 8 && !(utfxi_load64(s + i) & UTFXI_HIGH_BITS)) {
      utfxi_put_ascii(dst, w, s + i, 8, t);
      i += 8;
      w += 8;
    }
    if (i == n) break;
    len = utfxi_utf8_decode(s + i, n - i, &c);
    bad = c == UTFXI_BAD;
    if (bad) {
      if (!(flags & UTFX_REPLACE)) return utfxi_result(UTFX_INVALID, i, w, replaced);
      c = 0xFFFD;
    }
    stop = utfxi_emit(dst, cap, &w, c, t);
    if (stop) return utfxi_result((utfx_status)stop, i, w, replaced);
    replaced += (size_t)bad;
    i += len;
  }
  return utfxi_result(UTFX_OK, n, w, replaced);
}

utfx_result utfxi_convert_utf8_to_utf16le_scalar(const char *s, size_t n, char16_t *d,
                                                 size_t cap, unsigned flags) {
  return utf8_convert(s, n, d, cap, flags, UTFXI_T_UTF16LE);
}
utfx_result utfxi_convert_utf8_to_utf16be_scalar(const char *s, size_t n, char16_t *d,
                                                 size_t cap, unsigned flags) {
  return utf8_convert(s, n, d, cap, flags, UTFXI_T_UTF16BE);
}
utfx_result utfxi_convert_utf8_to_utf32_scalar(const char *s, size_t n, char32_t *d,
                                               size_t cap, unsigned flags) {
  return utf8_convert(s, n, d, cap, flags, UTFXI_T_UTF32);
}
utfx_result utfxi_convert_utf8_to_latin1_scalar(const char *s, size_t n, char *d, size_t cap,
                                                unsigned flags) {
  return utf8_convert(s, n, d, cap, flags, UTFXI_T_LATIN1);
}
