/* Which kernel each x86-64 tier runs for each operation. Included by
 * avx2_entries.c only, which wraps every entry (clean upper vector state on
 * return, a short path for short inputs) into the tables dispatch.c uses.
 * Each table starts from the scalar kernels and overrides what the tier
 * accelerates; an entry a tier does not override runs the scalar kernel.
 * Kernels live in avx2_*.c / avx512_*.c, compiled with exactly that tier's
 * flags (Makefile). */
#ifndef UTFX_X86_KERNELS_H
#define UTFX_X86_KERNELS_H

#include "x86_prototypes.h"

/* Designated initializers given twice on purpose (scalar, then the tier's). */
#if defined(__clang__)
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Winitializer-overrides"
#elif defined(__GNUC__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Woverride-init"
#endif

static const struct utfxi_kernels utfxi_avx2_inner = {
    .name = "avx2",
    UTFXI_SCALAR_KERNELS,
    .base64_blocks = utfxi_base64_blocks_avx2, /* streaming decoder */
    .hex_blocks = utfxi_hex_blocks_avx2,
    .ascii_blocks = utfxi_ascii_blocks_avx2,
    /* ---- base64 ---- */
    .base64_encode = utfxi_base64_encode_avx2,
    .base64_decode = utfxi_base64_decode_avx2,
    .base64_decode_utf16 = utfxi_base64_decode_utf16_avx2,
    .binary_length_from_base64 = utfxi_binary_length_from_base64_avx2,
    .binary_length_from_base64_utf16 = utfxi_binary_length_from_base64_utf16_avx2,
    /* issue 35's UTF-16 scans (generic layer) */
    .swap_bytes_utf16 = utfxi_swap_bytes_utf16_avx2,
    .validate_ascii_utf16le = utfxi_validate_ascii_utf16le_avx2,
    .validate_ascii_utf16be = utfxi_validate_ascii_utf16be_avx2,
    .utf8_length_from_utf16le_with_surrogates = utfxi_utf8_length_from_utf16le_with_surrogates_avx2,
    .utf8_length_from_utf16be_with_surrogates = utfxi_utf8_length_from_utf16be_with_surrogates_avx2,
    /* ---- UTF-8 side ---- */
    .validate_utf8 = utfxi_validate_utf8_avx2,
    .validate_ascii = utfxi_validate_ascii_avx2,
    .convert_utf8_to_utf16le = utfxi_convert_utf8_to_utf16le_avx2,
    .convert_utf8_to_utf16be = utfxi_convert_utf8_to_utf16be_avx2,
    .convert_utf8_to_utf32 = utfxi_convert_utf8_to_utf32_avx2,
    .convert_utf8_to_latin1 = utfxi_convert_utf8_to_latin1_avx2,
    .utf16_length_from_utf8 = utfxi_utf16_length_from_utf8_avx2,
    /* Latin-1 length = code points after replacement = the UTF-32 length. */
    .utf32_length_from_utf8 = utfxi_utf32_length_from_utf8_avx2,
    .latin1_length_from_utf8 = utfxi_utf32_length_from_utf8_avx2,

    /* ---- UTF-16 / UTF-32 / Latin-1 side ---- */
    .validate_utf16le = utfxi_validate_utf16le_avx2,
    .validate_utf16be = utfxi_validate_utf16be_avx2,
    .to_well_formed_utf16le = utfxi_to_well_formed_utf16le_avx2,
    .to_well_formed_utf16be = utfxi_to_well_formed_utf16be_avx2,
    .convert_utf16le_to_utf8 = utfxi_convert_utf16le_to_utf8_avx2,
    .convert_utf16be_to_utf8 = utfxi_convert_utf16be_to_utf8_avx2,
    .convert_utf16le_to_utf32 = utfxi_convert_utf16le_to_utf32_avx2,
    .convert_utf16be_to_utf32 = utfxi_convert_utf16be_to_utf32_avx2,
    .convert_utf16le_to_latin1 = utfxi_convert_utf16le_to_latin1_avx2,
    .convert_utf16be_to_latin1 = utfxi_convert_utf16be_to_latin1_avx2,
    .convert_utf16le_to_utf16be = utfxi_convert_utf16le_to_utf16be_avx2,
    .convert_utf16be_to_utf16le = utfxi_convert_utf16be_to_utf16le_avx2,
    .validate_utf32 = utfxi_validate_utf32_avx2,
    .convert_utf32_to_utf8 = utfxi_convert_utf32_to_utf8_avx2,
    .convert_utf32_to_utf16le = utfxi_convert_utf32_to_utf16le_avx2,
    .convert_utf32_to_utf16be = utfxi_convert_utf32_to_utf16be_avx2,
    .convert_utf32_to_latin1 = utfxi_convert_utf32_to_latin1_avx2,
    .convert_latin1_to_utf8 = utfxi_convert_latin1_to_utf8_avx2,
    .convert_latin1_to_utf16le = utfxi_convert_latin1_to_utf16le_avx2,
    .convert_latin1_to_utf16be = utfxi_convert_latin1_to_utf16be_avx2,
    .convert_latin1_to_utf32 = utfxi_convert_latin1_to_utf32_avx2,
    .utf8_length_from_utf16le = utfxi_utf8_length_from_utf16le_avx2,
    .utf8_length_from_utf16be = utfxi_utf8_length_from_utf16be_avx2,
    .utf8_length_from_latin1 = utfxi_utf8_length_from_latin1_avx2,
    .utf8_length_from_utf32 = utfxi_utf8_length_from_utf32_avx2,
    .utf16_length_from_utf32 = utfxi_utf16_length_from_utf32_avx2,
    /* Latin-1 length = code points after replacement = the UTF-32 length. */
    .utf32_length_from_utf16le = utfxi_utf32_length_from_utf16le_avx2,
    .utf32_length_from_utf16be = utfxi_utf32_length_from_utf16be_avx2,
    .latin1_length_from_utf16le = utfxi_utf32_length_from_utf16le_avx2,
    .latin1_length_from_utf16be = utfxi_utf32_length_from_utf16be_avx2,
};

static const struct utfxi_kernels utfxi_avx512_inner = {
    .name = "avx512",
    UTFXI_SCALAR_KERNELS,
    .base64_blocks = utfxi_base64_blocks_avx2, /* streaming decoder: AVX2 suffices */
    .hex_blocks = utfxi_hex_blocks_avx2,
    .ascii_blocks = utfxi_ascii_blocks_avx2,
    /* ---- base64 (VBMI lookups and shuffles) ---- */
    .base64_encode = utfxi_base64_encode_avx512,
    .base64_decode = utfxi_base64_decode_avx512,
    .base64_decode_utf16 = utfxi_base64_decode_utf16_avx512,
    .binary_length_from_base64 = utfxi_binary_length_from_base64_avx512,
    .binary_length_from_base64_utf16 = utfxi_binary_length_from_base64_utf16_avx512,
    /* issue 35's UTF-16 scans (generic layer) */
    .swap_bytes_utf16 = utfxi_swap_bytes_utf16_avx512,
    .validate_ascii_utf16le = utfxi_validate_ascii_utf16le_avx512,
    .validate_ascii_utf16be = utfxi_validate_ascii_utf16be_avx512,
    .utf8_length_from_utf16le_with_surrogates = utfxi_utf8_length_from_utf16le_with_surrogates_avx512,
    .utf8_length_from_utf16be_with_surrogates = utfxi_utf8_length_from_utf16be_with_surrogates_avx512,
    /* ---- UTF-8 side ---- */
    /* Every UTF-8-side entry uses its AVX-512 kernel: shifted loads instead
     * of cross-lane permutes keep the 64-byte lookup check cheap, and
     * VPCOMPRESSB replaces a PSHUFB table (measurements, and the one known
     * exception: docs/perf-decisions.md, 'One tier per CPU'). */
    .validate_utf8 = utfxi_validate_utf8_avx512,
    .validate_ascii = utfxi_validate_ascii_avx512,
    .convert_utf8_to_utf16le = utfxi_convert_utf8_to_utf16le_avx512,
    .convert_utf8_to_utf16be = utfxi_convert_utf8_to_utf16be_avx512,
    .convert_utf8_to_utf32 = utfxi_convert_utf8_to_utf32_avx512,
    .convert_utf8_to_latin1 = utfxi_convert_utf8_to_latin1_avx512,
    .utf16_length_from_utf8 = utfxi_utf16_length_from_utf8_avx512,
    /* Latin-1 length = code points after replacement = the UTF-32 length. */
    .utf32_length_from_utf8 = utfxi_utf32_length_from_utf8_avx512,
    .latin1_length_from_utf8 = utfxi_utf32_length_from_utf8_avx512,

    /* ---- UTF-16 / UTF-32 / Latin-1 side ---- */
    /* All AVX-512 kernels (docs/perf-decisions.md, 'One tier per CPU'). */
    .validate_utf16le = utfxi_validate_utf16le_avx512,
    .validate_utf16be = utfxi_validate_utf16be_avx512,
    .to_well_formed_utf16le = utfxi_to_well_formed_utf16le_avx512,
    .to_well_formed_utf16be = utfxi_to_well_formed_utf16be_avx512,
    .convert_utf16le_to_utf8 = utfxi_convert_utf16le_to_utf8_avx512,
    .convert_utf16be_to_utf8 = utfxi_convert_utf16be_to_utf8_avx512,
    .convert_utf16le_to_utf32 = utfxi_convert_utf16le_to_utf32_avx512,
    .convert_utf16be_to_utf32 = utfxi_convert_utf16be_to_utf32_avx512,
    .convert_utf16le_to_latin1 = utfxi_convert_utf16le_to_latin1_avx512,
    .convert_utf16be_to_latin1 = utfxi_convert_utf16be_to_latin1_avx512,
    .validate_utf32 = utfxi_validate_utf32_avx512,
    .convert_utf32_to_utf8 = utfxi_convert_utf32_to_utf8_avx512,
    .convert_utf32_to_utf16le = utfxi_convert_utf32_to_utf16le_avx512,
    .convert_utf32_to_utf16be = utfxi_convert_utf32_to_utf16be_avx512,
    .convert_utf32_to_latin1 = utfxi_convert_utf32_to_latin1_avx512,
    .convert_latin1_to_utf8 = utfxi_convert_latin1_to_utf8_avx512,
    .convert_latin1_to_utf16le = utfxi_convert_latin1_to_utf16le_avx512,
    .convert_latin1_to_utf16be = utfxi_convert_latin1_to_utf16be_avx512,
    .convert_latin1_to_utf32 = utfxi_convert_latin1_to_utf32_avx512,
    .utf8_length_from_utf16le = utfxi_utf8_length_from_utf16le_avx512,
    .utf8_length_from_utf16be = utfxi_utf8_length_from_utf16be_avx512,
    .utf8_length_from_latin1 = utfxi_utf8_length_from_latin1_avx512,
    .utf8_length_from_utf32 = utfxi_utf8_length_from_utf32_avx512,
    .utf16_length_from_utf32 = utfxi_utf16_length_from_utf32_avx512,
    .utf32_length_from_utf16le = utfxi_utf32_length_from_utf16le_avx512,
    .utf32_length_from_utf16be = utfxi_utf32_length_from_utf16be_avx512,
    .latin1_length_from_utf16le = utfxi_utf32_length_from_utf16le_avx512,
    .latin1_length_from_utf16be = utfxi_utf32_length_from_utf16be_avx512,
    .convert_utf16le_to_utf16be = utfxi_convert_utf16le_to_utf16be_avx512,
    .convert_utf16be_to_utf16le = utfxi_convert_utf16be_to_utf16le_avx512,
};

#if defined(__clang__)
#pragma clang diagnostic pop
#elif defined(__GNUC__)
#pragma GCC diagnostic pop
#endif

#endif
