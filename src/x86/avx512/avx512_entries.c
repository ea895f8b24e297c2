/* The avx512 tier's table (x86_entries.h), compiled with the avx512 tier's
 * flags. */
#define TIER avx512
/* UTF-16 -> UTF-32 long calls go to a kernel of their own (G1632_LONG in
 * avx512_generic.c). */
#define UTFXI_X86_LONG_UTF32 1
/* UTF-8 -> UTF-16 / UTF-32 calls of this many bytes or more go to the
 * kernels with the fixed-stride steps (V_UTF8_STRIDE in vec_avx512.h):
 * below it, their entry and exit cost mixed text more than they gain
 * (docs/perf-decisions.md, 'UTF-8 -> UTF-16 / UTF-32'). Node's stream
 * chunks are 1 KiB, and the decoder's call on one is that less the bytes
 * of a character cut at either end (up to 3 each). */
#define UTFXI_X86_LONG_UTF8 (1024 - 8)
/* UTF-16 -> UTF-8 inputs shorter than a vector go to the short part
 * (G16_UTF8_SHORT in avx512_generic.c). */
#define UTFXI_X86_UTF8_SHORT 32
#include "../x86_entries.h"
