/*
 * utfx_operations.h: the functions of utfx.h as lists, for programs that
 * handle every operation alike (a benchmark, a test table, a command that
 * picks a conversion at run time). Each list is an X-macro: LIST(X) expands
 * X(...) once per function, with the arguments its comment gives; build the
 * name of the function from them (utfx_convert_##from##_to_##to, ...). The
 * library generates its own kernel tables from these same lists, so they
 * name every such function of utfx.h and nothing else. Macros only:
 * include utfx.h too, to call the functions.
 *
 * Example: an array of every validation of byte input
 *   #define V(enc, S) {#enc, (void (*)(void))utfx_validate_##enc},
 *   ... = {UTFX_VALIDATIONS(V)};
 */
#ifndef UTFX_OPERATIONS_H
#define UTFX_OPERATIONS_H

/* Every conversion pair: X(from, source unit type, to, destination unit type). */
#define UTFX_CONVERSIONS(X)               \
  X(utf8, char, utf16le, char16_t)        \
  X(utf8, char, utf16be, char16_t)        \
  X(utf8, char, utf32, char32_t)          \
  X(utf8, char, latin1, char)             \
  X(utf16le, char16_t, utf8, char)        \
  X(utf16le, char16_t, utf16be, char16_t) \
  X(utf16le, char16_t, utf32, char32_t)   \
  X(utf16le, char16_t, latin1, char)      \
  X(utf16be, char16_t, utf8, char)        \
  X(utf16be, char16_t, utf16le, char16_t) \
  X(utf16be, char16_t, utf32, char32_t)   \
  X(utf16be, char16_t, latin1, char)      \
  X(utf32, char32_t, utf8, char)          \
  X(utf32, char32_t, utf16le, char16_t)   \
  X(utf32, char32_t, utf16be, char16_t)   \
  X(utf32, char32_t, latin1, char)        \
  X(latin1, char, utf8, char)             \
  X(latin1, char, utf16le, char16_t)      \
  X(latin1, char, utf16be, char16_t)      \
  X(latin1, char, utf32, char32_t)

/* Every length function: X(to, from, source unit type). */
#define UTFX_LENGTHS(X)        \
  X(utf8, utf16le, char16_t)   \
  X(utf8, utf16be, char16_t)   \
  X(utf8, utf32, char32_t)     \
  X(utf8, latin1, char)        \
  X(utf16, utf8, char)         \
  X(utf16, utf32, char32_t)    \
  X(utf16, latin1, char)       \
  X(utf32, utf8, char)         \
  X(utf32, utf16le, char16_t)  \
  X(utf32, utf16be, char16_t)  \
  X(utf32, latin1, char)       \
  X(latin1, utf8, char)        \
  X(latin1, utf16le, char16_t) \
  X(latin1, utf16be, char16_t) \
  X(latin1, utf32, char32_t)

/* Every validation: X(encoding, unit type). */
#define UTFX_VALIDATIONS(X) \
  X(utf8, char)             \
  X(utf16le, char16_t)      \
  X(utf16be, char16_t)      \
  X(utf32, char32_t)        \
  X(ascii, char)

/* The base64 codecs, shaped like conversions (src, n, dst, cap, flags), but
 * with the base64 flags passed on whole: X(op, source unit type, destination
 * unit type) for utfx_<op>. */
#define UTFX_BASE64_CODECS(X)           \
  X(base64_encode, unsigned char, char) \
  X(base64_decode, char, unsigned char) \
  X(base64_decode_utf16, char16_t, unsigned char)

/* Encoding in lines: X(op, source unit type, destination unit type) for
 * utfx_<op>(src, n, dst, cap, flags, line_len, column), a codec with the
 * line length and the column in and out (size_t *) after the flags. */
#define UTFX_BASE64_LINE_CODECS(X) X(base64_encode_lines, unsigned char, char)

/* The decoded lengths of base64 text (src, n, flags): X(op, source unit
 * type) for utfx_<op>. (utfx_base64_length_from_binary, plain arithmetic, is
 * in no list.) */
#define UTFX_BASE64_LENGTHS(X)       \
  X(binary_length_from_base64, char) \
  X(binary_length_from_base64_utf16, char16_t)

/* UTF-16 scans with shapes of their own, one list per signature, X(op):
 *   UTFX_UTF16_MAPS             void utfx_OP(const char16_t *src, size_t n,
 *                                            char16_t *dst)
 *   UTFX_UTF16_CHECKS           utfx_result utfx_OP(const char16_t *src, size_t n)
 *   UTFX_UTF16_FLAGGED_LENGTHS  size_t utfx_OP(const char16_t *src, size_t n,
 *                                              int *flag)
 * The maps are the byte swap and the repair (to_well_formed). */
#define UTFX_UTF16_MAPS(X) X(swap_bytes_utf16) X(to_well_formed_utf16le) X(to_well_formed_utf16be)
#define UTFX_UTF16_CHECKS(X) X(validate_ascii_utf16le) X(validate_ascii_utf16be)
#define UTFX_UTF16_FLAGGED_LENGTHS(X)         \
  X(utf8_length_from_utf16le_with_surrogates) \
  X(utf8_length_from_utf16be_with_surrogates)

#endif /* UTFX_OPERATIONS_H */
