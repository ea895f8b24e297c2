/* The neon tier's table: the scalar kernels, with the ones this tier
 * accelerates overridden. NEON is part of every AArch64 CPU, and its
 * registers need no cleanup between kernels, so the entries are the kernels
 * themselves (no wrapper; inputs under 64 bytes take the scalar kernel in
 * api.c already). */
#include "../arm_tiers.h"

#define UTFXI_DECL_TIER_NAME neon
#include "../../tier_declarations.h"

#if defined(__clang__)
#pragma clang diagnostic ignored "-Winitializer-overrides"
#elif defined(__GNUC__)
#pragma GCC diagnostic ignored "-Woverride-init"
#endif

/* The operations the neon tier accelerates: utfxi_OP_neon for each (the
 * generic kernels of neon_generic.c, base64 in neon_base64.c, the UTF-8 length of Latin-1 in neon_lengths.c). */
#define UTFXI_NEON_ACCELERATED(X)                                                          \
  /* UTF-8 side */                                                                         \
  X(validate_utf8) X(validate_ascii) X(utf16_length_from_utf8) X(utf32_length_from_utf8)  \
  X(convert_utf8_to_utf16le) X(convert_utf8_to_utf16be) X(convert_utf8_to_utf32)           \
  X(convert_utf8_to_latin1)                                                                \
  /* UTF-16 side */                                                                        \
  X(validate_utf16le) X(validate_utf16be) X(to_well_formed_utf16le)                        \
  X(to_well_formed_utf16be) X(repair_utf16le) X(repair_utf16be) X(convert_utf16le_to_utf16be) X(convert_utf16be_to_utf16le)    \
  X(utf8_length_from_utf16le) X(utf8_length_from_utf16be) X(utf32_length_from_utf16le)     \
  X(utf32_length_from_utf16be) X(convert_utf16le_to_utf8) X(convert_utf16be_to_utf8)       \
  X(convert_utf16le_to_utf32) X(convert_utf16be_to_utf32)                                  \
  X(convert_utf16le_to_latin1) X(convert_utf16be_to_latin1)                                \
  /* issue 35's UTF-16 scans */                                                            \
  X(swap_bytes_utf16) X(validate_ascii_utf16le) X(validate_ascii_utf16be)                  \
  X(utf8_length_from_utf16le_with_surrogates) X(utf8_length_from_utf16be_with_surrogates)  \
  /* Latin-1 and UTF-32 */                                                                 \
  X(convert_latin1_to_utf8) X(convert_latin1_to_utf16le) X(convert_latin1_to_utf16be)      \
  X(convert_latin1_to_utf32) X(convert_utf32_to_latin1) X(convert_utf32_to_utf16le)        \
  X(convert_utf32_to_utf16be) X(convert_utf32_to_utf8) X(validate_utf32)                   \
  X(utf8_length_from_utf32)                                                                \
  X(utf16_length_from_utf32) X(utf8_length_from_latin1)                                    \
  /* base64 */                                                                             \
  X(base64_encode) X(base64_encode_lines) X(base64_decode) X(base64_decode_utf16)          \
  X(binary_length_from_base64) X(binary_length_from_base64_utf16)

#define UTFXI_NEON_FIELD(op) .op = utfxi_##op##_neon,

const struct utfxi_kernels utfxi_neon_kernels = {
    .name = "neon",
    UTFXI_SCALAR_KERNELS
    UTFXI_NEON_ACCELERATED(UTFXI_NEON_FIELD)
    /* Latin-1 length = code points after replacement = the UTF-32 length. */
    .latin1_length_from_utf8 = utfxi_utf32_length_from_utf8_neon,
    .latin1_length_from_utf16le = utfxi_utf32_length_from_utf16le_neon,
    .latin1_length_from_utf16be = utfxi_utf32_length_from_utf16be_neon,
};
