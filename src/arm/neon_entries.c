/* The neon tier's table: the scalar kernels, with the ones this tier
 * accelerates overridden. NEON is part of every AArch64 CPU, and its
 * registers need no cleanup between kernels, so the entries are the kernels
 * themselves (no wrapper; inputs under 64 bytes take the scalar kernel in
 * api.c already). */
#include "arm_tiers.h"

#define UTFXI_DECL_TIER_NAME neon
#include "../tier_declarations.h"

#if defined(__clang__)
#pragma clang diagnostic ignored "-Winitializer-overrides"
#elif defined(__GNUC__)
#pragma GCC diagnostic ignored "-Woverride-init"
#endif

const struct utfxi_kernels utfxi_neon_kernels = {
    .name = "neon",
    UTFXI_SCALAR_KERNELS,
    /* generic kernels (neon_generic.c) */
    .validate_utf8 = utfxi_validate_utf8_neon,
    .validate_ascii = utfxi_validate_ascii_neon,
    .utf16_length_from_utf8 = utfxi_utf16_length_from_utf8_neon,
    /* Latin-1 length = code points after replacement = the UTF-32 length. */
    .utf32_length_from_utf8 = utfxi_utf32_length_from_utf8_neon,
    .latin1_length_from_utf8 = utfxi_utf32_length_from_utf8_neon,
    .validate_utf16le = utfxi_validate_utf16le_neon,
    .validate_utf16be = utfxi_validate_utf16be_neon,
    .to_well_formed_utf16le = utfxi_to_well_formed_utf16le_neon,
    .to_well_formed_utf16be = utfxi_to_well_formed_utf16be_neon,
    .convert_utf16le_to_utf16be = utfxi_convert_utf16le_to_utf16be_neon,
    .convert_utf16be_to_utf16le = utfxi_convert_utf16be_to_utf16le_neon,
    .utf8_length_from_utf16le = utfxi_utf8_length_from_utf16le_neon,
    .utf8_length_from_utf16be = utfxi_utf8_length_from_utf16be_neon,
    .utf32_length_from_utf16le = utfxi_utf32_length_from_utf16le_neon,
    .utf32_length_from_utf16be = utfxi_utf32_length_from_utf16be_neon,
    .latin1_length_from_utf16le = utfxi_utf32_length_from_utf16le_neon,
    .latin1_length_from_utf16be = utfxi_utf32_length_from_utf16be_neon,
    /* issue 35's UTF-16 scans (neon_generic.c) */
    .swap_bytes_utf16 = utfxi_swap_bytes_utf16_neon,
    .validate_ascii_utf16le = utfxi_validate_ascii_utf16le_neon,
    .validate_ascii_utf16be = utfxi_validate_ascii_utf16be_neon,
    .utf8_length_from_utf16le_with_surrogates = utfxi_utf8_length_from_utf16le_with_surrogates_neon,
    .utf8_length_from_utf16be_with_surrogates = utfxi_utf8_length_from_utf16be_with_surrogates_neon,
    /* transcoders (neon_transcode.c) */
    .convert_utf8_to_utf16le = utfxi_convert_utf8_to_utf16le_neon,
    .convert_utf8_to_utf16be = utfxi_convert_utf8_to_utf16be_neon,
    .convert_utf8_to_utf32 = utfxi_convert_utf8_to_utf32_neon,
    .convert_utf8_to_latin1 = utfxi_convert_utf8_to_latin1_neon,
    .convert_utf16le_to_utf8 = utfxi_convert_utf16le_to_utf8_neon,
    .convert_utf16be_to_utf8 = utfxi_convert_utf16be_to_utf8_neon,
    .convert_latin1_to_utf8 = utfxi_convert_latin1_to_utf8_neon,
    /* Latin-1 to and from UTF-16 and UTF-32 (neon_generic.c) */
    .convert_utf16le_to_latin1 = utfxi_convert_utf16le_to_latin1_neon,
    .convert_utf16be_to_latin1 = utfxi_convert_utf16be_to_latin1_neon,
    .convert_latin1_to_utf16le = utfxi_convert_latin1_to_utf16le_neon,
    .convert_latin1_to_utf16be = utfxi_convert_latin1_to_utf16be_neon,
    .convert_latin1_to_utf32 = utfxi_convert_latin1_to_utf32_neon,
    .convert_utf32_to_latin1 = utfxi_convert_utf32_to_latin1_neon,
    /* UTF-32 to UTF-16 (neon_generic.c) */
    .convert_utf32_to_utf16le = utfxi_convert_utf32_to_utf16le_neon,
    .convert_utf32_to_utf16be = utfxi_convert_utf32_to_utf16be_neon,
    .validate_utf32 = utfxi_validate_utf32_neon,
    .utf8_length_from_utf32 = utfxi_utf8_length_from_utf32_neon,
    .utf16_length_from_utf32 = utfxi_utf16_length_from_utf32_neon,
    /* base64 (neon_base64.c) */
    .base64_encode = utfxi_base64_encode_neon,
    .base64_encode_lines = utfxi_base64_encode_lines_neon,
    .base64_decode = utfxi_base64_decode_neon,
    .base64_decode_utf16 = utfxi_base64_decode_utf16_neon,
    .binary_length_from_base64 = utfxi_binary_length_from_base64_neon,
    .binary_length_from_base64_utf16 = utfxi_binary_length_from_base64_utf16_neon,
    /* the UTF-8 length of Latin-1 (neon_lengths.c) */
    .utf8_length_from_latin1 = utfxi_utf8_length_from_latin1_neon,
};
