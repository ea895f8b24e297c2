/* The base64 tables. Decoding: the character classes, one table per
 * alphabet (standard, url, both): the 6-bit value of an alphabet character,
 * else one of the UTFXI_B64_* classes (bit 7 set). Generated once; every
 * tier's scalar steps read it. Encoding: character pairs and the alphabets
 * (below). */
#ifndef UTFX_SCALAR_BASE64_TABLES_H
#define UTFX_SCALAR_BASE64_TABLES_H

#include <stdint.h>

#define UTFXI_B64_BAD 0x80   /* outside the alphabet */
#define UTFXI_B64_SPACE 0x81 /* ASCII whitespace: TAB LF FF CR SPACE */
#define UTFXI_B64_PAD 0x82   /* '=' */

/* Both kinds of table are built by the preprocessor from one macro per
 * entry: 0x##a##b(##c) runs over the indexes, nesting copies of the 16-way
 * macro (a macro cannot expand itself). */
#define UTFXI_B64_16A(M, ...)                                                                    \
  M(0, __VA_ARGS__), M(1, __VA_ARGS__), M(2, __VA_ARGS__), M(3, __VA_ARGS__), M(4, __VA_ARGS__), \
      M(5, __VA_ARGS__), M(6, __VA_ARGS__), M(7, __VA_ARGS__), M(8, __VA_ARGS__),                \
      M(9, __VA_ARGS__), M(A, __VA_ARGS__), M(B, __VA_ARGS__), M(C, __VA_ARGS__),                \
      M(D, __VA_ARGS__), M(E, __VA_ARGS__), M(F, __VA_ARGS__)
#define UTFXI_B64_16B(M, ...)                                                                    \
  M(0, __VA_ARGS__), M(1, __VA_ARGS__), M(2, __VA_ARGS__), M(3, __VA_ARGS__), M(4, __VA_ARGS__), \
      M(5, __VA_ARGS__), M(6, __VA_ARGS__), M(7, __VA_ARGS__), M(8, __VA_ARGS__),                \
      M(9, __VA_ARGS__), M(A, __VA_ARGS__), M(B, __VA_ARGS__), M(C, __VA_ARGS__),                \
      M(D, __VA_ARGS__), M(E, __VA_ARGS__), M(F, __VA_ARGS__)
#define UTFXI_B64_16C(M, ...)                                                                    \
  M(0, __VA_ARGS__), M(1, __VA_ARGS__), M(2, __VA_ARGS__), M(3, __VA_ARGS__), M(4, __VA_ARGS__), \
      M(5, __VA_ARGS__), M(6, __VA_ARGS__), M(7, __VA_ARGS__), M(8, __VA_ARGS__),                \
      M(9, __VA_ARGS__), M(A, __VA_ARGS__), M(B, __VA_ARGS__), M(C, __VA_ARGS__),                \
      M(D, __VA_ARGS__), M(E, __VA_ARGS__), M(F, __VA_ARGS__)

/* The class of byte x in alphabet al (0 standard, 1 url, 2 both): '+' and
 * '/' are standard's 62 and 63, '-' and '_' url's. */
#define UTFXI_B64D_DIGIT(x, al, std, url, v) \
  ((x) == (std) ? ((al) != 1 ? (v) : UTFXI_B64_BAD) : ((al) != 0 ? (v) : UTFXI_B64_BAD))
#define UTFXI_B64D_CLASS(x, al)                                                \
  (uint8_t)((x) >= 'A' && (x) <= 'Z'   ? (x) - 'A'                             \
            : (x) >= 'a' && (x) <= 'z' ? (x) - 'a' + 26                        \
            : (x) >= '0' && (x) <= '9' ? (x) - '0' + 52                        \
            : (x) == '+' || (x) == '-' ? UTFXI_B64D_DIGIT(x, al, '+', '-', 62) \
            : (x) == '/' || (x) == '_' ? UTFXI_B64D_DIGIT(x, al, '/', '_', 63) \
            : (x) == '='               ? UTFXI_B64_PAD                         \
            : (x) == ' ' || (x) == '\t' || (x) == '\n' || (x) == '\f' || (x) == '\r' \
                ? UTFXI_B64_SPACE                                              \
                : UTFXI_B64_BAD)
#define UTFXI_B64D_2(b, a, al) UTFXI_B64D_CLASS(0x##a##b, al)
#define UTFXI_B64D_1(a, al) UTFXI_B64_16B(UTFXI_B64D_2, a, al)
/* Indexed by [alphabet][byte]; alphabet 0 standard, 1 url, 2 both. */
static const uint8_t utfxi_b64_class[3][256] = {{UTFXI_B64_16A(UTFXI_B64D_1, 0)},
                                                {UTFXI_B64_16A(UTFXI_B64D_1, 1)},
                                                {UTFXI_B64_16A(UTFXI_B64D_1, 2)}};
#undef UTFXI_B64D_DIGIT
#undef UTFXI_B64D_CLASS
#undef UTFXI_B64D_2
#undef UTFXI_B64D_1

/* Encoding, for the streaming decoder's base64 output (Buffer.toString):
 * the two characters of every 12-bit value, first character in the low
 * byte, indexed by [alphabet][value] (alphabet 0 standard, 1 url), so that
 * four lookups encode two groups. */
#define UTFXI_B64E_CHAR(v, url)      \
  ((v) < 26    ? 'A' + (v)           \
   : (v) < 52  ? 'a' - 26 + (v)      \
   : (v) < 62  ? '0' - 52 + (v)      \
   : (v) == 62 ? ((url) ? '-' : '+') \
               : ((url) ? '_' : '/'))
#define UTFXI_B64E_PAIR(x, url) \
  (uint16_t)(UTFXI_B64E_CHAR((x) >> 6, url) | UTFXI_B64E_CHAR((x) & 63, url) << 8)
#define UTFXI_B64E_3(c, a, b, url) UTFXI_B64E_PAIR(0x##a##b##c, url)
#define UTFXI_B64E_2(b, a, url) UTFXI_B64_16C(UTFXI_B64E_3, a, b, url)
#define UTFXI_B64E_1(a, url) UTFXI_B64_16B(UTFXI_B64E_2, a, url)
static const uint16_t utfxi_b64_pairs[2][4096] = {{UTFXI_B64_16A(UTFXI_B64E_1, 0)},
                                                  {UTFXI_B64_16A(UTFXI_B64E_1, 1)}};
#undef UTFXI_B64E_CHAR
#undef UTFXI_B64E_PAIR
#undef UTFXI_B64_16A
#undef UTFXI_B64_16B
#undef UTFXI_B64_16C
#undef UTFXI_B64E_3
#undef UTFXI_B64E_2
#undef UTFXI_B64E_1

/* The alphabets: the character (digit) of each 6-bit value, [0] standard,
 * [1] url. */
static const char utfxi_b64_digits[2][65] = {
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/",
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"};

#endif
