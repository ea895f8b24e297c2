/* The avx512 tier's table (x86_entries.h), compiled with the avx512 tier's
 * flags. */
#define TIER avx512
/* UTF-16 -> UTF-32 long calls go to a kernel of their own (G1632_LONG in
 * avx512_generic.c). */
#define UTFXI_X86_LONG_UTF32 1
#include "../x86_entries.h"
