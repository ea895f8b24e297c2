/* The library's operation lists under the internal names (UTFXI_*), which
 * the kernel table type and the scalar declarations (internal.h), each SIMD
 * tier's declarations (tier_declarations.h), the public entry points
 * (api.c), the tier tables and the tests' operation tables
 * (tests/support/ops.c) expand. The lists themselves are written once, in
 * the installed header include/utfx_operations.h (UTFX_*), which the CLI and
 * the benchmark use: adding an operation means adding its row there. */
#ifndef UTFX_SRC_OPERATIONS_H
#define UTFX_SRC_OPERATIONS_H

#include "../include/utfx_operations.h" /* relative: the amalgamation inlines it */

#define UTFXI_CONVERSIONS(X) UTFX_CONVERSIONS(X)
#define UTFXI_LENGTHS(X) UTFX_LENGTHS(X)
#define UTFXI_VALIDATIONS(X) UTFX_VALIDATIONS(X)
#define UTFXI_BASE64_CODECS(X) UTFX_BASE64_CODECS(X)
#define UTFXI_BASE64_LENGTHS(X) UTFX_BASE64_LENGTHS(X)
#define UTFXI_BASE64_LINE_CODECS(X) UTFX_BASE64_LINE_CODECS(X)
#define UTFXI_UTF16_MAPS(X) UTFX_UTF16_MAPS(X)
#define UTFXI_UTF16_CHECKS(X) UTFX_UTF16_CHECKS(X)
#define UTFXI_UTF16_FLAGGED_LENGTHS(X) UTFX_UTF16_FLAGGED_LENGTHS(X)

/* Kernels with no public function of their own: the streaming decoder's
 * block kernels, X(op, (parameters), (arguments)), each returning the bytes
 * of p[0..n) it consumed; the decoder writes the rest.
 *   base64_blocks: base64 of whole 24-byte blocks (at most `blocks`), as bytes
 *     (d8) or UTF-16 units (d16; the other is NULL), standard or url
 *     alphabet; a multiple of 24.
 *   hex_blocks: 32 lowercase digits for each whole 16-byte block, as bytes
 *     (d8) or host-order UTF-16 units (d16; the other is NULL); a multiple of
 *     16.
 *   ascii_blocks: Node's 'ascii' decoding (each byte with its top bit
 *     cleared) to host-order UTF-16 of whole 16-byte blocks; a multiple of 16. */
/* The repair (to_well_formed) that also counts: X(op) for
 * size_t utfxi_OP(const char16_t *src, size_t n, char16_t *dst), the map of
 * to_well_formed_utf16le/be returning how many units it replaced with
 * U+FFFD (the WHATWG decoder's `replaced`, in the same single pass). */
#define UTFXI_UTF16_COUNTED_REPAIRS(X) X(repair_utf16le) X(repair_utf16be)

#define UTFXI_DECODER_BLOCKS(X)                                                        \
  X(base64_blocks,                                                                     \
    (const unsigned char *p, size_t n, size_t blocks, unsigned char *d8, char16_t *d16, \
     int url),                                                                         \
    (p, n, blocks, d8, d16, url))                                                      \
  X(hex_blocks, (const unsigned char *p, size_t n, unsigned char *d8, char16_t *d16),   \
    (p, n, d8, d16))                                                                   \
  X(ascii_blocks, (const unsigned char *p, size_t n, char16_t *d), (p, n, d))

#endif
