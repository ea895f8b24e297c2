/* AVX-512 UTF-8 to UTF-32. The kernel body, its algorithm, block size,
 * tail handling and references are in avx512_utf8_transcode.h. */
#ifndef __AVX512VBMI2__
#error "avx512_ files must be built with the avx512 tier's flags"
#endif

#include "avx512_utf8_transcode.h"
#include "../x86_prototypes.h"

utfx_result utfxi_convert_utf8_to_utf32_avx512(const char *s, size_t n, char32_t *d,
                                               size_t cap, unsigned flags) {
  return utfxi_avx512_from_utf8(s, n, d, cap, flags, UTFXI_T_UTF32);
}
