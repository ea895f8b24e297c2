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

#endif
