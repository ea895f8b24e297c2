/* Prototypes of every x86 kernel entry point. Each kernel file includes this,
 * so the compiler checks its definitions against the declarations that the
 * tier tables (x86_kernels.h, included by avx2_entries.c only) are built from. */
#ifndef UTFX_X86_PROTOTYPES_H
#define UTFX_X86_PROTOTYPES_H

#include "../internal.h"

/* ---- AVX2 kernel prototypes: UTF-8 side ---- */
utfx_result utfxi_validate_utf8_avx2(const char *, size_t);
utfx_result utfxi_validate_ascii_avx2(const char *, size_t);
utfx_result utfxi_convert_utf8_to_utf16le_avx2(const char *, size_t, char16_t *, size_t,
                                               unsigned);
utfx_result utfxi_convert_utf8_to_utf16be_avx2(const char *, size_t, char16_t *, size_t,
                                               unsigned);
utfx_result utfxi_convert_utf8_to_utf32_avx2(const char *, size_t, char32_t *, size_t, unsigned);
utfx_result utfxi_convert_utf8_to_latin1_avx2(const char *, size_t, char *, size_t, unsigned);
size_t utfxi_utf16_length_from_utf8_avx2(const char *, size_t);
size_t utfxi_utf32_length_from_utf8_avx2(const char *, size_t);

/* ---- AVX2 kernel prototypes: UTF-16 / UTF-32 / Latin-1 side ---- */
utfx_result utfxi_validate_utf16le_avx2(const char16_t *, size_t);
utfx_result utfxi_validate_utf16be_avx2(const char16_t *, size_t);
void utfxi_to_well_formed_utf16le_avx2(const char16_t *, size_t, char16_t *);
void utfxi_to_well_formed_utf16be_avx2(const char16_t *, size_t, char16_t *);
utfx_result utfxi_convert_utf16le_to_utf8_avx2(const char16_t *, size_t, char *, size_t, unsigned);
utfx_result utfxi_convert_utf16be_to_utf8_avx2(const char16_t *, size_t, char *, size_t, unsigned);
utfx_result utfxi_convert_utf16le_to_utf32_avx2(const char16_t *, size_t, char32_t *, size_t,
                                                unsigned);
utfx_result utfxi_convert_utf16be_to_utf32_avx2(const char16_t *, size_t, char32_t *, size_t,
                                                unsigned);
utfx_result utfxi_convert_utf16le_to_latin1_avx2(const char16_t *, size_t, char *, size_t,
                                                 unsigned);
utfx_result utfxi_convert_utf16be_to_latin1_avx2(const char16_t *, size_t, char *, size_t,
                                                 unsigned);
utfx_result utfxi_convert_utf16le_to_utf16be_avx2(const char16_t *, size_t, char16_t *, size_t,
                                                  unsigned);
utfx_result utfxi_convert_utf16be_to_utf16le_avx2(const char16_t *, size_t, char16_t *, size_t,
                                                  unsigned);
utfx_result utfxi_validate_utf32_avx2(const char32_t *, size_t);
utfx_result utfxi_convert_utf32_to_utf8_avx2(const char32_t *, size_t, char *, size_t, unsigned);
utfx_result utfxi_convert_utf32_to_utf16le_avx2(const char32_t *, size_t, char16_t *, size_t,
                                                unsigned);
utfx_result utfxi_convert_utf32_to_utf16be_avx2(const char32_t *, size_t, char16_t *, size_t,
                                                unsigned);
utfx_result utfxi_convert_latin1_to_utf8_avx2(const char *, size_t, char *, size_t, unsigned);
utfx_result utfxi_convert_latin1_to_utf16le_avx2(const char *, size_t, char16_t *, size_t,
                                                 unsigned);
utfx_result utfxi_convert_latin1_to_utf16be_avx2(const char *, size_t, char16_t *, size_t,
                                                 unsigned);
utfx_result utfxi_convert_latin1_to_utf32_avx2(const char *, size_t, char32_t *, size_t, unsigned);
size_t utfxi_utf8_length_from_utf16le_avx2(const char16_t *, size_t);
size_t utfxi_utf8_length_from_utf16be_avx2(const char16_t *, size_t);
size_t utfxi_utf8_length_from_latin1_avx2(const char *, size_t);
size_t utfxi_utf8_length_from_utf32_avx2(const char32_t *, size_t);
size_t utfxi_utf16_length_from_utf32_avx2(const char32_t *, size_t);
size_t utfxi_utf32_length_from_utf16le_avx2(const char16_t *, size_t);
size_t utfxi_utf32_length_from_utf16be_avx2(const char16_t *, size_t);

/* ---- AVX-512 kernel prototypes: UTF-8 side ---- */
utfx_result utfxi_validate_utf8_avx512(const char *, size_t);
utfx_result utfxi_validate_ascii_avx512(const char *, size_t);
utfx_result utfxi_convert_utf8_to_utf16le_avx512(const char *, size_t, char16_t *, size_t,
                                                 unsigned);
utfx_result utfxi_convert_utf8_to_utf16be_avx512(const char *, size_t, char16_t *, size_t,
                                                 unsigned);
utfx_result utfxi_convert_utf8_to_utf32_avx512(const char *, size_t, char32_t *, size_t,
                                               unsigned);
utfx_result utfxi_convert_utf8_to_latin1_avx512(const char *, size_t, char *, size_t, unsigned);
size_t utfxi_utf16_length_from_utf8_avx512(const char *, size_t);
size_t utfxi_utf32_length_from_utf8_avx512(const char *, size_t);

/* ---- AVX-512 kernel prototypes: UTF-16 / UTF-32 / Latin-1 side ---- */
utfx_result utfxi_validate_utf16le_avx512(const char16_t *, size_t);
utfx_result utfxi_validate_utf16be_avx512(const char16_t *, size_t);
void utfxi_to_well_formed_utf16le_avx512(const char16_t *, size_t, char16_t *);
void utfxi_to_well_formed_utf16be_avx512(const char16_t *, size_t, char16_t *);
utfx_result utfxi_convert_utf16le_to_utf8_avx512(const char16_t *, size_t, char *, size_t,
                                                 unsigned);
utfx_result utfxi_convert_utf16be_to_utf8_avx512(const char16_t *, size_t, char *, size_t,
                                                 unsigned);
utfx_result utfxi_convert_utf16le_to_utf32_avx512(const char16_t *, size_t, char32_t *, size_t,
                                                  unsigned);
utfx_result utfxi_convert_utf16be_to_utf32_avx512(const char16_t *, size_t, char32_t *, size_t,
                                                  unsigned);
utfx_result utfxi_convert_utf16le_to_latin1_avx512(const char16_t *, size_t, char *, size_t,
                                                   unsigned);
utfx_result utfxi_convert_utf16be_to_latin1_avx512(const char16_t *, size_t, char *, size_t,
                                                   unsigned);
utfx_result utfxi_validate_utf32_avx512(const char32_t *, size_t);
utfx_result utfxi_convert_utf32_to_utf8_avx512(const char32_t *, size_t, char *, size_t,
                                               unsigned);
utfx_result utfxi_convert_utf32_to_utf16le_avx512(const char32_t *, size_t, char16_t *, size_t,
                                                  unsigned);
utfx_result utfxi_convert_utf32_to_utf16be_avx512(const char32_t *, size_t, char16_t *, size_t,
                                                  unsigned);
utfx_result utfxi_convert_latin1_to_utf8_avx512(const char *, size_t, char *, size_t, unsigned);
utfx_result utfxi_convert_latin1_to_utf16le_avx512(const char *, size_t, char16_t *, size_t,
                                                   unsigned);
utfx_result utfxi_convert_latin1_to_utf16be_avx512(const char *, size_t, char16_t *, size_t,
                                                   unsigned);
utfx_result utfxi_convert_latin1_to_utf32_avx512(const char *, size_t, char32_t *, size_t,
                                                 unsigned);
size_t utfxi_utf8_length_from_utf16le_avx512(const char16_t *, size_t);
size_t utfxi_utf8_length_from_utf16be_avx512(const char16_t *, size_t);
size_t utfxi_utf8_length_from_latin1_avx512(const char *, size_t);
size_t utfxi_utf8_length_from_utf32_avx512(const char32_t *, size_t);

/* ---- The tier tables dispatch.c selects (avx2_entries.c) ---- */
extern const struct utfxi_kernels utfxi_avx2_kernels;
extern const struct utfxi_kernels utfxi_avx512_kernels;

/* ---- Streaming decoder helpers (src/decoder.c) ---- */
#include "decoder_avx2.h"

#endif
