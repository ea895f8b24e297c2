/* The neon tier's instances of the generic kernels (src/simd/generic_*.h):
 * UTF-8 and ASCII validation, the UTF-16 and UTF-32 lengths of UTF-8, UTF-8 to UTF-16 and UTF-32,
 * UTF-16 validation, repair and byte swap, the UTF-8 and UTF-32 lengths of UTF-16,
 * UTF-16 to UTF-8 and to UTF-32, and
 * UTF-32 validation, the UTF-8 and UTF-16 lengths of UTF-32, UTF-32 to UTF-16 and UTF-8,
 * Latin-1 to and from UTF-16 and UTF-32,
 * over the 16-byte vocabulary of vec_neon.h. */
#include "vec_neon.h"

#define UTFXI_DECL_TIER_NAME neon
#include "../../tier_declarations.h"

#include "../../simd/generic_latin1.h"
#include "../../simd/generic_utf16.h"
#include "../../simd/generic_utf16_swap.h"
#include "../../simd/generic_utf16_scans.h"
#include "../../simd/generic_utf16_to_utf32.h"
#include "../../simd/generic_utf16_to_utf8.h"
#include "../../simd/generic_utf32.h"
#include "../../simd/generic_utf8_length.h"
#include "../../simd/generic_utf8_transcode.h"
#include "../../simd/generic_utf8_validate.h"
