/* AVX-512 UTF-8 to UTF-32: the generic driver
 * (simd/generic_utf8_transcode.h, which has the algorithm, block size, tail
 * handling and references) over the avx512 vocabulary. */
#ifndef __AVX512VBMI2__
#error "avx512_ files must be built with the avx512 tier's flags"
#endif

#include "vec_avx512.h"
#include "../../simd/generic_utf8_transcode.h"
#include "../x86_prototypes.h"

utfx_result utfxi_convert_utf8_to_utf32_avx512(const char *s, size_t n, char32_t *d,
                                               size_t cap, unsigned flags) {
  return g_utf8_transcode(s, n, d, cap, flags, UTFXI_T_UTF32);
}
