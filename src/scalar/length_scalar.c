/* Scalar reference: exact output lengths of the UTFX_REPLACE conversions.
 * The UTF-8 and UTF-16 counts go in chunks of UTFXI_LENGTH_CHUNK source
 * units (the count of one chunk cannot overflow), added up with saturation,
 * so a result above SIZE_MAX is SIZE_MAX rather than a wrapped value; a
 * chunk boundary may fall inside a character: the decoders below always
 * look at the whole remaining input, and only the loop bound is per chunk.
 * The UTF-32 counts need no chunks (see utf32_count); the Latin-1 one adds
 * its count to n once, saturating. */
#include "unicode.h"

#define UTFXI_HIGH_BITS 0x8080808080808080ull

/* A kernel is one of the counts below with its parameters: op, the source
 * unit type, the value returned. */
#define UTFXI_DEFINE_LENGTH(op, T, ...) \
  size_t utfxi_##op##_scalar(const T *s, size_t n) { return __VA_ARGS__; }

/* Per-character weights of a UTF-8 source decoded with replacement. */
enum utf8_count { COUNT_UTF16, COUNT_CODE_POINTS };

static size_t utf8_count(const char *src, size_t n, enum utf8_count what) {
  const unsigned char *s = (const unsigned char *)src;
  size_t i = 0, total = 0;
  UTFXI_FOR_LENGTH_CHUNKS(i, n, end, count, total) {
    while (i < end) {
      uint32_t c;
      if (end - i >= 8 && !(utfxi_load64(s + i) & UTFXI_HIGH_BITS)) {
        i += 8;
        count += 8;
        continue;
      }
      i += utfxi_utf8_decode(s + i, n - i, &c);
      count += 1 + (size_t)(what == COUNT_UTF16 && c != UTFXI_BAD && c >= 0x10000);
    }
  }
  return total;
}

UTFXI_DEFINE_LENGTH(utf16_length_from_utf8, char, utf8_count(s, n, COUNT_UTF16))
UTFXI_DEFINE_LENGTH(utf32_length_from_utf8, char, utf8_count(s, n, COUNT_CODE_POINTS))
/* One Latin-1 character per character decoded: the code-point count. */
UTFXI_DEFINE_LENGTH(latin1_length_from_utf8, char, utfxi_utf32_length_from_utf8_scalar(s, n))

/* UTF-16 source: UTF-8 bytes (a pair is 4, a lone surrogate 3) or code points. */
enum utf16_count { COUNT_UTF8, COUNT_CHARS };

UTFXI_INLINE size_t utf16_count(const char16_t *s, size_t n, int be, enum utf16_count what) {
  size_t i = 0, total = 0;
  UTFXI_FOR_LENGTH_CHUNKS(i, n, end, count, total) {
    while (i < end) {
      uint32_t c = utfxi_load16(s + i, be);
      if ((c & 0xF800) == 0xD800 && c <= 0xDBFF && i + 1 < n &&
          (utfxi_load16(s + i + 1, be) & 0xFC00) == 0xDC00) {
        count += what == COUNT_UTF8 ? 4 : 1;
        i += 2;
        continue;
      }
      count += what == COUNT_UTF8 ? 1 + (size_t)(c >= 0x80) + (size_t)(c >= 0x800) : 1;
      i++;
    }
  }
  return total;
}

UTFXI_DEFINE_LENGTH(utf8_length_from_utf16le, char16_t, utf16_count(s, n, 0, COUNT_UTF8))
UTFXI_DEFINE_LENGTH(utf8_length_from_utf16be, char16_t, utf16_count(s, n, 1, COUNT_UTF8))
UTFXI_DEFINE_LENGTH(utf32_length_from_utf16le, char16_t, utf16_count(s, n, 0, COUNT_CHARS))
UTFXI_DEFINE_LENGTH(utf32_length_from_utf16be, char16_t, utf16_count(s, n, 1, COUNT_CHARS))
UTFXI_DEFINE_LENGTH(latin1_length_from_utf16le, char16_t,
                    utfxi_utf32_length_from_utf16le_scalar(s, n))
UTFXI_DEFINE_LENGTH(latin1_length_from_utf16be, char16_t,
                    utfxi_utf32_length_from_utf16be_scalar(s, n))

/* UTF-32 source: an invalid value becomes U+FFFD (3 UTF-8 bytes, 1 UTF-16 unit).
 * No chunks: at most 4 bytes out for each 4-byte unit in, so the count of
 * an input that fits in memory cannot overflow; one loop, entered straight
 * (short inputs, the common call, run this kernel on every tier). */
UTFXI_INLINE size_t utf32_count(const char32_t *s, size_t n, enum utfxi_target t) {
  size_t i, count = 0;
  for (i = 0; i < n; i++) {
    uint32_t c = (uint32_t)s[i];
    if (t == UTFXI_T_UTF8)
      count += utfxi_is_scalar_value(c) ? utfxi_units_for(c, UTFXI_T_UTF8) : 3;
    else
      count += 1 + (size_t)(c >= 0x10000 && c <= 0x10FFFF);
  }
  return count;
}

UTFXI_DEFINE_LENGTH(utf8_length_from_utf32, char32_t, utf32_count(s, n, UTFXI_T_UTF8))
UTFXI_DEFINE_LENGTH(utf16_length_from_utf32, char32_t, utf32_count(s, n, UTFXI_T_UTF16LE))
/* One unit per unit (s unread). */
UTFXI_DEFINE_LENGTH(latin1_length_from_utf32, char32_t, (void)s, n)

size_t utfxi_utf8_length_from_latin1_scalar(const char *src, size_t n) {
  const unsigned char *s = (const unsigned char *)src;
  size_t high = 0, i = 0;
  /* Eight bytes a step: their top bits, one per byte, summed by a multiply
   * into the top byte (at most 8, so no carry crosses a byte). */
  for (; i + 8 <= n; i += 8)
    high += (size_t)((((utfxi_load64(s + i) >> 7) & 0x0101010101010101ull) *
                      0x0101010101010101ull) >> 56);
  for (; i < n; i++) high += s[i] >> 7;
  return utfxi_add_sat(n, high);
}
UTFXI_DEFINE_LENGTH(utf16_length_from_latin1, char, (void)s, n)
UTFXI_DEFINE_LENGTH(utf32_length_from_latin1, char, (void)s, n)
