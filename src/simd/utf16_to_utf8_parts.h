/* The UTF-16 -> UTF-8 kernels (generic_utf16_to_utf8.h) are two functions
 * per tier and byte order: utfxi_utf16XX_to_utf8_ascii_TIER for a call that
 * starts with ASCII, utfxi_utf16XX_to_utf8_rest_TIER for any other
 * (tier_declarations.h). The choice is made here, by the first 16 units read
 * as words (no vector: gcc gives a function with vectors and a call a
 * realigned stack frame), for the tier's own kernel and for the x86 tier
 * entries, which call a part directly: gcc makes no sibling call of a
 * function that returns utfx_result in memory, so a kernel that chose would
 * be a second call in front of every part (docs/perf-decisions.md,
 * 'UTF-16 -> UTF-8, ASCII entry'). */
#ifndef UTFX_SIMD_UTF16_TO_UTF8_PARTS_H
#define UTFX_SIMD_UTF16_TO_UTF8_PARTS_H

#include "../scalar/unicode.h"

UTFXI_INLINE int utfxi_utf16_to_utf8_ascii_start(const char16_t *s, size_t n, int be) {
  return n >= 16 && !((utfxi_load64(s) | utfxi_load64(s + 4) | utfxi_load64(s + 8) |
                       utfxi_load64(s + 12)) &
                      utfxi_utf16_nonascii_mask(be));
}

#define UTFXI_UTF16_TO_UTF8_PICK(ascii, rest, s, n, d, cap, flags, be)        \
  (utfxi_utf16_to_utf8_ascii_start(s, n, be) ? ascii(s, n, d, cap, flags) \
                                             : rest(s, n, d, cap, flags))

#endif
