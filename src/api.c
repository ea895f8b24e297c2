/* Public entry points: reduce the flags, then call the active tier's kernel. */
#include "internal.h"

#define UTFXI_API_VALIDATE(enc, S)                               \
  utfx_result utfx_validate_##enc(const S *s, size_t n) {        \
    return utfxi_active()->validate_##enc(s, n);                 \
  }
UTFXI_VALIDATIONS(UTFXI_API_VALIDATE)

#define UTFXI_API_CONVERT(from, S, to, T)                                                  \
  utfx_result utfx_convert_##from##_to_##to(const S *restrict src, size_t n,              \
                                            T *restrict dst, size_t cap, unsigned flags) { \
    return utfxi_active()->convert_##from##_to_##to(src, n, dst, cap, flags & UTFX_REPLACE); \
  }
UTFXI_CONVERSIONS(UTFXI_API_CONVERT)

#define UTFXI_API_LENGTH(to, from, S)                            \
  size_t utfx_##to##_length_from_##from(const S *src, size_t n) { \
    return utfxi_active()->to##_length_from_##from(src, n);       \
  }
UTFXI_LENGTHS(UTFXI_API_LENGTH)

void utfx_to_well_formed_utf16le(const char16_t *src, size_t n, char16_t *dst) {
  utfxi_active()->to_well_formed_utf16le(src, n, dst);
}
void utfx_to_well_formed_utf16be(const char16_t *src, size_t n, char16_t *dst) {
  utfxi_active()->to_well_formed_utf16be(src, n, dst);
}

const char *utfx_status_string(utfx_status status) {
  switch (status) {
    case UTFX_OK:
      return "OK";
    case UTFX_INVALID:
      return "invalid input";
    case UTFX_DST_FULL:
      return "destination full";
  }
  return "unknown status";
}

const char *utfx_version(void) { return UTFX_VERSION_STRING; }
unsigned utfx_version_number(void) { return UTFX_VERSION_NUMBER; }
