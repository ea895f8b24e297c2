/* The avx512 tier's instances of the generic kernels (src/simd/generic_*.h):
 * UTF-8 and ASCII validation, UTF-16 validation and repair, the UTF-8 and
 * UTF-32 lengths of UTF-16, and UTF-32 validation and the UTF-16 length of
 * UTF-32, over the 64-byte vocabulary of vec_avx512.h (masked tails). */
#include "vec_avx512.h"

#include "x86_prototypes.h"

/* Kernels of the tier's own: avx512_lengths.c has the UTF-8 length of UTF-32
 * (float exponent + VPERMB: the generic one measured 0.53x of it), and
 * avx512_utf8_length.c the UTF-16 / UTF-32 lengths of UTF-8 (the generic one
 * runs the same algorithm, but measured 0.80-0.85x of it on non-ASCII text
 * on Zen 5, gcc 12: not yet understood, see the note in that file). */
#define G_OWN_UTF8_LENGTH_FROM_UTF32 1
#define G_OWN_UTF8_LENGTHS 1

#include "../simd/generic_utf16.h"
#include "../simd/generic_utf32.h"
#include "../simd/generic_utf8_length.h"
#include "../simd/generic_utf8_validate.h"
