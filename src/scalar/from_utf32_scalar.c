/* Scalar reference: UTF-32 (host order) to UTF-8, UTF-16LE/BE and Latin-1.
 * A surrogate or a value above U+10FFFF is one error (one U+FFFD). */
#include "unicode.h"

UTFXI_INLINE utfx_result utf32_convert(const char32_t *s, size_t n, void *dst, size_t cap,
                                        unsigned flags, enum utfxi_target t) {
  size_t i, w = 0, replaced = 0;
  for (i = 0; i < n; i++) {
    uint32_t c = (uint32_t)s[i];
    utfx_result stop;
    if (!utfxi_is_scalar_value(c)) c = UTFXI_BAD;
    if (utfxi_careful_step(dst, cap, i, &w, &replaced, c, flags, t, &stop)) return stop;
  }
  return utfxi_result(UTFX_OK, n, w, replaced);
}

UTFXI_CONVERT_ENTRY(utfxi_convert_utf32_to_utf8_scalar, char32_t, char, utf32_convert, UTFXI_T_UTF8)
UTFXI_CONVERT_ENTRY(utfxi_convert_utf32_to_utf16le_scalar, char32_t, char16_t, utf32_convert,
                    UTFXI_T_UTF16LE)
UTFXI_CONVERT_ENTRY(utfxi_convert_utf32_to_utf16be_scalar, char32_t, char16_t, utf32_convert,
                    UTFXI_T_UTF16BE)
UTFXI_CONVERT_ENTRY(utfxi_convert_utf32_to_latin1_scalar, char32_t, char, utf32_convert,
                    UTFXI_T_LATIN1)
