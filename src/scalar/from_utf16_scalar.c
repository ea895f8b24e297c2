/* Scalar reference: UTF-16LE/BE to UTF-8, the other UTF-16 byte order,
 * UTF-32 and Latin-1, and the well-formed repair. Runs of four units below
 * 0x80 move a word at a time; a lone surrogate is one error (one U+FFFD). */
#include "unicode.h"

static inline utfx_result utf16_convert(const char16_t *s, size_t n, void *dst, size_t cap,
                                        unsigned flags, int be, enum utfxi_target t) {
  const uint64_t nonascii = utfxi_utf16_nonascii_mask(be);
  size_t i = 0, w = 0, replaced = 0;
  while (i < n) {
    uint32_t c;
    size_t len;
    int stop, bad;
    while (n - i >= 4 && cap - w >= 4 && !(utfxi_load64(s + i) & nonascii)) {
      size_t j;
      for (j = 0; j < 4; j++) utfxi_put(dst, w + j, utfxi_load16(s + i + j, be), t);
      i += 4;
      w += 4;
    }
    if (i == n) break;
    len = utfxi_utf16_decode(s + i, n - i, be, &c);
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

#define UTFXI_DEFINE_FROM_UTF16(from, be, to, T, target)                                  \
  utfx_result utfxi_convert_##from##_to_##to##_scalar(const char16_t *s, size_t n, T *d, \
                                                      size_t cap, unsigned flags) {      \
    return utf16_convert(s, n, d, cap, flags, be, target);                               \
  }

UTFXI_DEFINE_FROM_UTF16(utf16le, 0, utf8, char, UTFXI_T_UTF8)
UTFXI_DEFINE_FROM_UTF16(utf16le, 0, utf16be, char16_t, UTFXI_T_UTF16BE)
UTFXI_DEFINE_FROM_UTF16(utf16le, 0, utf32, char32_t, UTFXI_T_UTF32)
UTFXI_DEFINE_FROM_UTF16(utf16le, 0, latin1, char, UTFXI_T_LATIN1)
UTFXI_DEFINE_FROM_UTF16(utf16be, 1, utf8, char, UTFXI_T_UTF8)
UTFXI_DEFINE_FROM_UTF16(utf16be, 1, utf16le, char16_t, UTFXI_T_UTF16LE)
UTFXI_DEFINE_FROM_UTF16(utf16be, 1, utf32, char32_t, UTFXI_T_UTF32)
UTFXI_DEFINE_FROM_UTF16(utf16be, 1, latin1, char, UTFXI_T_LATIN1)

/* dst may equal src: each unit is read before it (or its pair) is written. */
static inline void utf16_to_well_formed(const char16_t *s, size_t n, char16_t *d, int be) {
  size_t i = 0;
  while (i < n) {
    uint32_t c;
    size_t len = utfxi_utf16_decode(s + i, n - i, be, &c);
    if (c == UTFXI_BAD) {
      utfxi_store16(d + i, 0xFFFD, be);
    } else if (d != s) {
      memcpy(d + i, s + i, len * sizeof(char16_t));
    }
    i += len;
  }
}

void utfxi_to_well_formed_utf16le_scalar(const char16_t *s, size_t n, char16_t *d) {
  utf16_to_well_formed(s, n, d, 0);
}
void utfxi_to_well_formed_utf16be_scalar(const char16_t *s, size_t n, char16_t *d) {
  utf16_to_well_formed(s, n, d, 1);
}
