/* AVX2 UTF-8 to Latin-1. The kernel body, its algorithm, block size, tail
 * handling and references are in avx2_utf8_transcode.h; a block with a lead
 * byte C4..FF (a character above U+00FF, or an error) goes to the scalar
 * steps, which stop with INVALID there as the scalar kernel does. */
#ifndef __AVX2__
#error "avx2_ files must be built with the avx2 tier's flags"
#endif

#include "avx2_utf8_transcode.h"
#include "../x86_prototypes.h"

utfx_result utfxi_convert_utf8_to_latin1_avx2(const char *s, size_t n, char *d, size_t cap,
                                              unsigned flags) {
  return utfxi_avx2_from_utf8(s, n, d, cap, flags, UTFXI_T_LATIN1);
}
