/* Thin switches over the public API: the rest of the CLI names an encoding
 * family at run time and calls these. Source and destination buffers come
 * from malloc, so they are aligned for char16_t / char32_t. */
#include <string.h>

#include "cli.h"

utfx_result cli_validate(enum cli_fam fam, const void *src, size_t units) {
  utfx_result ok = {UTFX_OK, 0, 0, 0};
  switch (fam) {
    case FAM_UTF8:
      return utfx_validate_utf8((const char *)src, units);
    case FAM_UTF16LE:
      return utfx_validate_utf16le((const char16_t *)src, units);
    case FAM_UTF16BE:
      return utfx_validate_utf16be((const char16_t *)src, units);
    case FAM_UTF32:
      return utfx_validate_utf32((const char32_t *)src, units);
    case FAM_LATIN1:
      break;
  }
  ok.read = units; /* every byte is a Latin-1 character */
  return ok;
}

#define C8 (const char *)src
#define C16 (const char16_t *)src
#define C32 (const char32_t *)src
#define D8 (char *)dst
#define D16 (char16_t *)dst
#define D32 (char32_t *)dst
#define PAIR(a, b) ((a) * 8 + (b))

/* from != to (the same family is a validation plus a copy, see convert.c). */
utfx_result cli_convert(enum cli_fam from, enum cli_fam to, const void *src, size_t units,
                        void *dst, size_t cap, unsigned flags) {
  const utfx_result none = {UTFX_INVALID, 0, 0, 0};
  switch (PAIR(from, to)) {
    case PAIR(FAM_UTF8, FAM_UTF16LE):
      return utfx_convert_utf8_to_utf16le(C8, units, D16, cap, flags);
    case PAIR(FAM_UTF8, FAM_UTF16BE):
      return utfx_convert_utf8_to_utf16be(C8, units, D16, cap, flags);
    case PAIR(FAM_UTF8, FAM_UTF32):
      return utfx_convert_utf8_to_utf32(C8, units, D32, cap, flags);
    case PAIR(FAM_UTF8, FAM_LATIN1):
      return utfx_convert_utf8_to_latin1(C8, units, D8, cap, flags);
    case PAIR(FAM_UTF16LE, FAM_UTF8):
      return utfx_convert_utf16le_to_utf8(C16, units, D8, cap, flags);
    case PAIR(FAM_UTF16LE, FAM_UTF16BE):
      return utfx_convert_utf16le_to_utf16be(C16, units, D16, cap, flags);
    case PAIR(FAM_UTF16LE, FAM_UTF32):
      return utfx_convert_utf16le_to_utf32(C16, units, D32, cap, flags);
    case PAIR(FAM_UTF16LE, FAM_LATIN1):
      return utfx_convert_utf16le_to_latin1(C16, units, D8, cap, flags);
    case PAIR(FAM_UTF16BE, FAM_UTF8):
      return utfx_convert_utf16be_to_utf8(C16, units, D8, cap, flags);
    case PAIR(FAM_UTF16BE, FAM_UTF16LE):
      return utfx_convert_utf16be_to_utf16le(C16, units, D16, cap, flags);
    case PAIR(FAM_UTF16BE, FAM_UTF32):
      return utfx_convert_utf16be_to_utf32(C16, units, D32, cap, flags);
    case PAIR(FAM_UTF16BE, FAM_LATIN1):
      return utfx_convert_utf16be_to_latin1(C16, units, D8, cap, flags);
    case PAIR(FAM_UTF32, FAM_UTF8):
      return utfx_convert_utf32_to_utf8(C32, units, D8, cap, flags);
    case PAIR(FAM_UTF32, FAM_UTF16LE):
      return utfx_convert_utf32_to_utf16le(C32, units, D16, cap, flags);
    case PAIR(FAM_UTF32, FAM_UTF16BE):
      return utfx_convert_utf32_to_utf16be(C32, units, D16, cap, flags);
    case PAIR(FAM_UTF32, FAM_LATIN1):
      return utfx_convert_utf32_to_latin1(C32, units, D8, cap, flags);
    case PAIR(FAM_LATIN1, FAM_UTF8):
      return utfx_convert_latin1_to_utf8(C8, units, D8, cap, flags);
    case PAIR(FAM_LATIN1, FAM_UTF16LE):
      return utfx_convert_latin1_to_utf16le(C8, units, D16, cap, flags);
    case PAIR(FAM_LATIN1, FAM_UTF16BE):
      return utfx_convert_latin1_to_utf16be(C8, units, D16, cap, flags);
    case PAIR(FAM_LATIN1, FAM_UTF32):
      return utfx_convert_latin1_to_utf32(C8, units, D32, cap, flags);
    default:
      return none;
  }
}

uint64_t cli_code_points(enum cli_fam fam, const void *src, size_t units) {
  switch (fam) {
    case FAM_UTF8:
      return utfx_utf32_length_from_utf8(C8, units);
    case FAM_UTF16LE:
      return utfx_utf32_length_from_utf16le(C16, units);
    case FAM_UTF16BE:
      return utfx_utf32_length_from_utf16be(C16, units);
    case FAM_UTF32:
    case FAM_LATIN1:
      break;
  }
  return units; /* one code point (or one U+FFFD) per unit */
}

uint64_t cli_utf16_units(enum cli_fam fam, const void *src, size_t units) {
  switch (fam) {
    case FAM_UTF8:
      return utfx_utf16_length_from_utf8(C8, units);
    case FAM_UTF32:
      return utfx_utf16_length_from_utf32(C32, units);
    case FAM_UTF16LE:
    case FAM_UTF16BE: /* a lone surrogate becomes one U+FFFD: one unit */
    case FAM_LATIN1:
      break;
  }
  return units;
}

int cli_decode_one(enum cli_fam fam, const void *src, size_t units, uint32_t *cp, size_t *len) {
  char32_t c = 0;
  utfx_result r;
  if (fam == FAM_UTF32) {
    memcpy(&c, src, 4);
    *cp = (uint32_t)c;
    *len = 1;
    return !(c < 0xD800 || (c > 0xDFFF && c <= 0x10FFFF));
  }
  if (fam == FAM_LATIN1) {
    *cp = *(const unsigned char *)src;
    *len = 1;
    return 0;
  }
  /* With room for one code point, the conversion stops after the first
   * character: DST_FULL (or OK at the end) with read = its length. */
  r = cli_convert(fam, FAM_UTF32, src, units, &c, 1, UTFX_REPLACE);
  *len = r.read;
  *cp = (uint32_t)c;
  if (r.replaced) return 1;
  return 0;
}

size_t cli_replacement_bytes(enum cli_enc enc, unsigned char out[4]) {
  static const unsigned char forms[][4] = {
      {0xEF, 0xBF, 0xBD, 0}, {0xFD, 0xFF, 0, 0}, {0xFF, 0xFD, 0, 0},
      {0xFD, 0xFF, 0, 0},    {0, 0, 0xFF, 0xFD}, {'?', 0, 0, 0},
  };
  static const size_t lens[] = {3, 2, 2, 4, 4, 1};
  memcpy(out, forms[enc], 4);
  return lens[enc];
}
