/* The neon tier's UTF-8 length of Latin-1 (the other length kernels are
 * generic, neon_generic.c): n plus the bytes >= 0x80, counted per vector;
 * the tail goes to the scalar kernel. */
#include "vec_neon.h"

#define UTFXI_DECL_TIER_NAME neon
#include "../../tier_declarations.h"

#include "../../scalar/unicode.h"

/* n plus the bytes >= 0x80 (each takes two UTF-8 bytes). */
size_t utfxi_utf8_length_from_latin1_neon(const char *src, size_t n) {
  const unsigned char *s = (const unsigned char *)src;
  size_t i = 0, high = 0;
  for (; n - i >= 16; i += 16) high += vaddvq_u8(vshrq_n_u8(v_load(s + i), 7));
  return utfxi_add_sat(utfxi_add_sat(i, high), utfxi_utf8_length_from_latin1_scalar(src + i, n - i));
}
