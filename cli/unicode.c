/* Thin switches over the public API: the rest of the CLI names an encoding
 * family at run time and calls these. Source and destination buffers come
 * from malloc, so they are aligned for char16_t / char32_t. */
#include <string.h>

#include "utfx_operations.h"
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
#define PAIR(a, b) ((a) * 8 + (b))

/* from != to (the same family is a validation plus a copy, see convert.c).
 * One case per conversion of the library's list (utfx_operations.h). */
#define FAM_utf8 FAM_UTF8
#define FAM_utf16le FAM_UTF16LE
#define FAM_utf16be FAM_UTF16BE
#define FAM_utf32 FAM_UTF32
#define FAM_latin1 FAM_LATIN1
#define CASE_CONVERT(from, S, to, T)   \
  case PAIR(FAM_##from, FAM_##to):     \
    return utfx_convert_##from##_to_##to((const S *)src, units, (T *)dst, cap, flags);
utfx_result cli_convert(enum cli_fam from, enum cli_fam to, const void *src, size_t units,
                        void *dst, size_t cap, unsigned flags) {
  const utfx_result none = {UTFX_INVALID, 0, 0, 0};
  switch (PAIR(from, to)) {
    UTFX_CONVERSIONS(CASE_CONVERT)
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
