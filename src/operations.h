/* The one list of the library's operations: every validation, conversion and
 * length function of include/utfx.h, as X-macros. It is the source of the
 * kernel table type and the scalar declarations (internal.h), each SIMD
 * tier's declarations (tier_declarations.h), the public entry points
 * (api.c), the tests' operation tables (tests/support/ops.c), the
 * benchmark's operation list (bench/suite_kernels.c) and the CLI's
 * conversion switch (cli/unicode.c). Only macros naming public functions:
 * the front ends include it and still call nothing but the public API.
 * (The two repair functions, utfx_to_well_formed_utf16le/be, are spelled
 * out where they are used.) */
#ifndef UTFX_OPERATIONS_H
#define UTFX_OPERATIONS_H

/* Every conversion pair: X(from, source unit type, to, destination unit type). */
#define UTFXI_CONVERSIONS(X)                \
  X(utf8, char, utf16le, char16_t)          \
  X(utf8, char, utf16be, char16_t)          \
  X(utf8, char, utf32, char32_t)            \
  X(utf8, char, latin1, char)               \
  X(utf16le, char16_t, utf8, char)          \
  X(utf16le, char16_t, utf16be, char16_t)   \
  X(utf16le, char16_t, utf32, char32_t)     \
  X(utf16le, char16_t, latin1, char)        \
  X(utf16be, char16_t, utf8, char)          \
  X(utf16be, char16_t, utf16le, char16_t)   \
  X(utf16be, char16_t, utf32, char32_t)     \
  X(utf16be, char16_t, latin1, char)        \
  X(utf32, char32_t, utf8, char)            \
  X(utf32, char32_t, utf16le, char16_t)     \
  X(utf32, char32_t, utf16be, char16_t)     \
  X(utf32, char32_t, latin1, char)          \
  X(latin1, char, utf8, char)               \
  X(latin1, char, utf16le, char16_t)        \
  X(latin1, char, utf16be, char16_t)        \
  X(latin1, char, utf32, char32_t)

/* Every length function: X(to, from, source unit type). */
#define UTFXI_LENGTHS(X)            \
  X(utf8, utf16le, char16_t)        \
  X(utf8, utf16be, char16_t)        \
  X(utf8, utf32, char32_t)          \
  X(utf8, latin1, char)             \
  X(utf16, utf8, char)              \
  X(utf16, utf32, char32_t)         \
  X(utf16, latin1, char)            \
  X(utf32, utf8, char)              \
  X(utf32, utf16le, char16_t)       \
  X(utf32, utf16be, char16_t)       \
  X(utf32, latin1, char)            \
  X(latin1, utf8, char)             \
  X(latin1, utf16le, char16_t)      \
  X(latin1, utf16be, char16_t)      \
  X(latin1, utf32, char32_t)

/* Every validation: X(encoding, unit type). */
#define UTFXI_VALIDATIONS(X) \
  X(utf8, char)              \
  X(utf16le, char16_t)       \
  X(utf16be, char16_t)       \
  X(utf32, char32_t)         \
  X(ascii, char)

/* The base64 codecs, shaped like conversions (src, n, dst, cap, flags), but
 * with the base64 flags passed on whole: X(op, source unit type, destination
 * unit type) for utfx_<op>. */
#define UTFXI_BASE64_CODECS(X)                    \
  X(base64_encode, unsigned char, char)           \
  X(base64_decode, char, unsigned char)           \
  X(base64_decode_utf16, char16_t, unsigned char)

/* The decoded lengths of base64 text (src, n, flags): X(op, source unit
 * type) for utfx_<op>. (utfx_base64_length_from_binary is arithmetic, in
 * api.c.) */
#define UTFXI_BASE64_LENGTHS(X)              \
  X(binary_length_from_base64, char)         \
  X(binary_length_from_base64_utf16, char16_t)
/* Issue 35 (API parity): UTF-16 scans with shapes of their own, one list per
 * signature (kernel table, tier declarations, api.c, tier entries, bench).
 *   UTFXI_UTF16_MAPS(X)    void utfx_OP(const char16_t *src, size_t n, char16_t *dst)
 *   UTFXI_UTF16_CHECKS(X)  utfx_result utfx_OP(const char16_t *src, size_t n)
 *   UTFXI_UTF16_FLAGGED_LENGTHS(X)
 *                          size_t utfx_OP(const char16_t *src, size_t n, int *flag) */
#define UTFXI_UTF16_MAPS(X) X(swap_bytes_utf16)
#define UTFXI_UTF16_CHECKS(X) X(validate_ascii_utf16le) X(validate_ascii_utf16be)
#define UTFXI_UTF16_FLAGGED_LENGTHS(X)         \
  X(utf8_length_from_utf16le_with_surrogates) \
  X(utf8_length_from_utf16be_with_surrogates)

#endif
