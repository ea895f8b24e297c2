/* The avx512 tier's instances of the generic kernels (src/simd/generic_*.h):
 * UTF-8 and ASCII validation, the UTF-16 and UTF-32 lengths of UTF-8, UTF-8 to UTF-16 and UTF-32, UTF-16
 * validation, repair and byte swap, the UTF-8 and UTF-32 lengths of UTF-16, UTF-16 to
 * UTF-8 and to UTF-32, and UTF-32
 * validation, the UTF-16 length of UTF-32, UTF-32 to UTF-16 and UTF-8, Latin-1 to and from UTF-16 and
 * UTF-32, over the 64-byte vocabulary of vec_avx512.h (masked tails). */
#include "vec_avx512.h"

#include "../x86_prototypes.h"

/* The UTF-8 length of UTF-32 is the tier's own (avx512_lengths.c: float
 * exponent + VPERMB, faster than the generic one: docs/perf-decisions.md,
 * 'UTF-8 length of UTF-32'). */
#define G_OWN_UTF8_LENGTH_FROM_UTF32 1
/* UTF-16 -> UTF-8: the x86 entries choose the kernel's part themselves
 * (x86_entries.h), so the generic kernel that chooses is not built. */
#define G_UTF8_PARTS_ONLY 1
/* UTF-8 to Latin-1 is the tier's own (avx512_utf8_to_latin1.c, the generic
 * driver's algorithm with its constants in registers: the generic one was
 * 4-9 % slower on inputs of 64-256 bytes: docs/perf-decisions.md, 'UTF-8 ->
 * Latin-1'). */
#define G_OWN_UTF8_TO_LATIN1 1
/* UTF-16 -> UTF-32: a kernel of its own for long calls, which the entries
 * choose (UTFXI_X86_LONG_UTF32 in avx512_entries.c). */
#define G1632_LONG 1
/* UTF-16 -> UTF-8: a part for inputs shorter than a vector, which the
 * entries choose (UTFXI_X86_UTF8_SHORT in avx512_entries.c). */
#define G16_UTF8_SHORT 1

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
