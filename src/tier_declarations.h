/* The prototypes of one SIMD tier's kernels, from the operation lists
 * (operations.h): utfxi_<op>_<tier> for every operation, with <tier> the bare
 * word UTFXI_DECL_TIER_NAME. A tier defines the kernels it accelerates; its
 * table names only those. Included once per tier (no include guard), after
 * UTFXI_DECL_TIER_NAME is defined; it undefines that name at its end. */
#ifndef UTFXI_DECL_TIER_NAME
#error "define UTFXI_DECL_TIER_NAME (the tier, e.g. neon) before including tier_declarations.h"
#endif

#include "internal.h"

#define UTFXI_TD_CAT_(a, b) a##b
#define UTFXI_TD_CAT(a, b) UTFXI_TD_CAT_(a, b)
#define UTFXI_TD(op) UTFXI_TD_CAT(utfxi_##op##_, UTFXI_DECL_TIER_NAME)

#define UTFXI_TD_VALIDATE(enc, S) utfx_result UTFXI_TD(validate_##enc)(const S *, size_t);
UTFXI_VALIDATIONS(UTFXI_TD_VALIDATE)
#define UTFXI_TD_CONVERT(from, S, to, T) \
  utfx_result UTFXI_TD(convert_##from##_to_##to)(const S *, size_t, T *, size_t, unsigned);
UTFXI_CONVERSIONS(UTFXI_TD_CONVERT)
#define UTFXI_TD_LENGTH(to, from, S) size_t UTFXI_TD(to##_length_from_##from)(const S *, size_t);
UTFXI_LENGTHS(UTFXI_TD_LENGTH)
#define UTFXI_TD_B64(op, S, T) utfx_result UTFXI_TD(op)(const S *, size_t, T *, size_t, unsigned);
UTFXI_BASE64_CODECS(UTFXI_TD_B64)
#define UTFXI_TD_B64_LENGTH(op, S) size_t UTFXI_TD(op)(const S *, size_t, unsigned);
UTFXI_BASE64_LENGTHS(UTFXI_TD_B64_LENGTH)
#define UTFXI_TD_B64_LINES(op, S, T) \
  utfx_result UTFXI_TD(op)(const S *, size_t, T *, size_t, unsigned, size_t, size_t *);
UTFXI_BASE64_LINE_CODECS(UTFXI_TD_B64_LINES)
#undef UTFXI_TD_B64_LINES
#define UTFXI_TD_BLOCKS(op, params, args) size_t UTFXI_TD(op) params;
UTFXI_DECODER_BLOCKS(UTFXI_TD_BLOCKS)
#undef UTFXI_TD_BLOCKS
#define UTFXI_TD_MAP(op) void UTFXI_TD(op)(const char16_t *, size_t, char16_t *);
#define UTFXI_TD_CHECK(op) utfx_result UTFXI_TD(op)(const char16_t *, size_t);
#define UTFXI_TD_FLAGGED(op) size_t UTFXI_TD(op)(const char16_t *, size_t, int *);
#define UTFXI_TD_REPAIR(op) size_t UTFXI_TD(op)(const char16_t *, size_t, char16_t *);
UTFXI_UTF16_MAPS(UTFXI_TD_MAP)
UTFXI_UTF16_COUNTED_REPAIRS(UTFXI_TD_REPAIR)
#undef UTFXI_TD_REPAIR
UTFXI_UTF16_CHECKS(UTFXI_TD_CHECK)
UTFXI_UTF16_FLAGGED_LENGTHS(UTFXI_TD_FLAGGED)
#undef UTFXI_TD_MAP
#undef UTFXI_TD_CHECK
#undef UTFXI_TD_FLAGGED

/* The two parts of the UTF-16 -> UTF-8 kernels (src/simd/utf16_to_utf8_parts.h). */
#define UTFXI_TD_UTF8_PART(part) \
  utfx_result UTFXI_TD(part)(const char16_t *, size_t, char *, size_t, unsigned);
UTFXI_TD_UTF8_PART(utf16le_to_utf8_ascii)
UTFXI_TD_UTF8_PART(utf16le_to_utf8_rest)
UTFXI_TD_UTF8_PART(utf16be_to_utf8_ascii)
UTFXI_TD_UTF8_PART(utf16be_to_utf8_rest)
/* (avx512 only: G16_UTF8_SHORT) */
UTFXI_TD_UTF8_PART(utf16le_to_utf8_short)
UTFXI_TD_UTF8_PART(utf16be_to_utf8_short)
#undef UTFXI_TD_UTF8_PART
/* The long calls' UTF-16 -> UTF-32 kernels (generic_utf16_to_utf32.h,
 * G1632_LONG; avx512 only). */
#define UTFXI_TD_LONG(op) \
  utfx_result UTFXI_TD(op)(const char16_t *, size_t, char32_t *, size_t, unsigned);
UTFXI_TD_LONG(utf16le_to_utf32_long)
UTFXI_TD_LONG(utf16be_to_utf32_long)
#undef UTFXI_TD_LONG
/* The long calls' UTF-8 -> UTF-16 / UTF-32 kernels (generic_utf8_transcode.h,
 * V_UTF8_STRIDE; avx512 only). */
utfx_result UTFXI_TD(utf8_to_utf16le_long)(const char *, size_t, char16_t *, size_t, unsigned);
utfx_result UTFXI_TD(utf8_to_utf16be_long)(const char *, size_t, char16_t *, size_t, unsigned);
utfx_result UTFXI_TD(utf8_to_utf32_long)(const char *, size_t, char32_t *, size_t, unsigned);

#undef UTFXI_TD_VALIDATE
#undef UTFXI_TD_CONVERT
#undef UTFXI_TD_LENGTH
#undef UTFXI_TD_B64
#undef UTFXI_TD_B64_LENGTH
#undef UTFXI_TD
#undef UTFXI_TD_CAT
#undef UTFXI_TD_CAT_
#undef UTFXI_DECL_TIER_NAME
