/* AVX2 block kernels of the streaming decoder (src/decoder.c): base64 in
 * avx2_decoder_base64.c, hex and ascii in avx2_decoder_text.c (declared with
 * every tier's kernels, tier_declarations.h). The avx2 and avx512 tier tables
 * name them (x86_kernels.h, x86_entries.h), so the decoder runs them exactly
 * when dispatch chose one of those tiers. */
#ifndef UTFX_X86_DECODER_AVX2_H
#define UTFX_X86_DECODER_AVX2_H

#include <stddef.h>
#include <uchar.h>

/* Base64 of whole 24-byte blocks of p[0..n): 32 characters each, as bytes
 * (d8) or as UTF-16 units (d16; the other pointer is NULL), standard or url
 * alphabet. Reads only p[0..n) and writes only the characters it returns
 * for; returns the bytes consumed (a multiple of 24, at most `blocks` * 24). */
size_t utfxi_base64_blocks_avx2(const unsigned char *p, size_t n, size_t blocks,
                                unsigned char *d8, char16_t *d16, int url);

#endif
