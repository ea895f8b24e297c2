/* Which kernel each x86-64 tier runs for each operation. Included by
 * x86_entries.h only (each tier's entries file), which wraps every entry (clean upper vector state on
 * return, a short path for short inputs) into the tables dispatch.c uses.
 * Both tables come from one list of the operations the tiers accelerate
 * (UTFXI_X86_ACCELERATED); each starts from the scalar kernels and overrides
 * those. Kernels live in avx2/, avx512/, each file compiled with exactly that
 * tier's flags (UTFX_AVX2_FLAGS / UTFX_AVX512_FLAGS in sources.mk). */
#ifndef UTFX_X86_KERNELS_H
#define UTFX_X86_KERNELS_H

#include "x86_prototypes.h"


/* The operations both x86 tiers accelerate: utfxi_OP_avx2 and
 * utfxi_OP_avx512 are their kernels (x86_prototypes.h). Every other
 * operation (the O(1) lengths) runs the scalar kernel on both. The avx512
 * tier has an AVX-512 kernel for each of them: on the CPUs measured, no
 * AVX2 kernel was ahead of its AVX-512 one over the scripts, except where
 * docs/perf-decisions.md, 'One tier per CPU', says so. */
#define UTFXI_X86_ACCELERATED(X)                                                            \
  /* base64 */                                                                              \
  X(base64_encode) X(base64_decode) X(base64_decode_utf16) X(binary_length_from_base64)     \
  X(binary_length_from_base64_utf16) X(base64_encode_lines)                                 \
  /* issue 35's UTF-16 scans (generic layer) */                                             \
  X(swap_bytes_utf16) X(validate_ascii_utf16le) X(validate_ascii_utf16be)                   \
  X(utf8_length_from_utf16le_with_surrogates) X(utf8_length_from_utf16be_with_surrogates)   \
  /* UTF-8 side */                                                                          \
  X(validate_utf8) X(validate_ascii) X(convert_utf8_to_utf16le) X(convert_utf8_to_utf16be)  \
  X(convert_utf8_to_utf32) X(convert_utf8_to_latin1) X(utf16_length_from_utf8)              \
  X(utf32_length_from_utf8)                                                                 \
  /* UTF-16 / UTF-32 / Latin-1 side */                                                      \
  X(validate_utf16le) X(validate_utf16be) X(to_well_formed_utf16le) X(to_well_formed_utf16be) \
  X(repair_utf16le) X(repair_utf16be)                                                       \
  X(convert_utf16le_to_utf8) X(convert_utf16be_to_utf8) X(convert_utf16le_to_utf32)         \
  X(convert_utf16be_to_utf32) X(convert_utf16le_to_latin1) X(convert_utf16be_to_latin1)     \
  X(convert_utf16le_to_utf16be) X(convert_utf16be_to_utf16le) X(validate_utf32)             \
  X(convert_utf32_to_utf8) X(convert_utf32_to_utf16le) X(convert_utf32_to_utf16be)          \
  X(convert_utf32_to_latin1) X(convert_latin1_to_utf8) X(convert_latin1_to_utf16le)         \
  X(convert_latin1_to_utf16be) X(convert_latin1_to_utf32) X(utf8_length_from_utf16le)       \
  X(utf8_length_from_utf16be) X(utf8_length_from_latin1) X(utf8_length_from_utf32)          \
  X(utf16_length_from_utf32) X(utf32_length_from_utf16le) X(utf32_length_from_utf16be)

#define UTFXI_X86_PASTE_(a, b) a##b
#define UTFXI_X86_PASTE(a, b) UTFXI_X86_PASTE_(a, b)
#define UTFXI_X86_FIELD(op) .op = UTFXI_X86_PASTE(utfxi_##op##_, UTFXI_X86_TIER),
#define UTFXI_X86_BLOCKS_FIELD(op, params, args) .op = utfxi_##op##_avx2,

/* A tier's table: the scalar kernels, then the tier's for the list above;
 * the Latin-1 lengths of UTF-8 / UTF-16 are the UTF-32 ones (code points
 * after replacement); the streaming decoder's block kernels are avx2's on
 * both tiers (AVX2 suffices for them); UTF-16 -> UTF-8 is the choice between
 * the kernel's two parts (x86_entries.h), which the entry inlines; so is,
 * where the tier has kernels for long calls, the choice by length
 * (UTFXI_X86_LONG_FIELDS, x86_entries.h). */
#define UTFXI_X86_INNER_TABLE(name_)                                                       \
  {                                                                                        \
    .name = name_, UTFXI_SCALAR_KERNELS UTFXI_X86_ACCELERATED(UTFXI_X86_FIELD)             \
    .latin1_length_from_utf8 = UTFXI_X86_PASTE(utfxi_utf32_length_from_utf8_, UTFXI_X86_TIER), \
    .latin1_length_from_utf16le =                                                          \
        UTFXI_X86_PASTE(utfxi_utf32_length_from_utf16le_, UTFXI_X86_TIER),                 \
    .latin1_length_from_utf16be =                                                          \
        UTFXI_X86_PASTE(utfxi_utf32_length_from_utf16be_, UTFXI_X86_TIER),                 \
    UTFXI_DECODER_BLOCKS(UTFXI_X86_BLOCKS_FIELD)                                           \
    .convert_utf16le_to_utf8 = UTFXI_X86_PASTE(utfxi_x86_utf16le_to_utf8_, UTFXI_X86_TIER), \
    .convert_utf16be_to_utf8 = UTFXI_X86_PASTE(utfxi_x86_utf16be_to_utf8_, UTFXI_X86_TIER), \
    UTFXI_X86_LONG_FIELDS                                                                  \
  }


#endif
