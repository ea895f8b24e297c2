/* The neon tier's UTF-8 -> UTF-16LE/BE and UTF-32 transcoders: the generic
 * driver (simd/generic_utf8_transcode.h) over the neon vocabulary, whose
 * pack step is a TBL row of compress16_table.h eight units at a time. (UTF-16
 * -> UTF-8 and UTF-32, and Latin-1 to and from UTF-8, UTF-16 and UTF-32, are
 * the generic kernels of neon_generic.c.) */
#include "vec_neon.h"

#define UTFXI_DECL_TIER_NAME neon
#include "../../tier_declarations.h"

#include "../../scalar/unicode.h"
#include "../../simd/compress16_table.h"
#include "../../simd/generic_utf8_transcode.h"
#include "../../simd/utf8_steps.h"

utfx_result utfxi_convert_utf8_to_utf16le_neon(const char *s, size_t n, char16_t *d, size_t cap,
                                               unsigned flags) {
  return g_utf8_transcode(s, n, d, cap, flags, UTFXI_T_UTF16LE);
}
utfx_result utfxi_convert_utf8_to_utf16be_neon(const char *s, size_t n, char16_t *d, size_t cap,
                                               unsigned flags) {
  return g_utf8_transcode(s, n, d, cap, flags, UTFXI_T_UTF16BE);
}
utfx_result utfxi_convert_utf8_to_utf32_neon(const char *s, size_t n, char32_t *d, size_t cap,
                                             unsigned flags) {
  return g_utf8_transcode(s, n, d, cap, flags, UTFXI_T_UTF32);
}
