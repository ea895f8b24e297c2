/* Generic-signature wrappers around the public functions and the scalar
 * kernels (calling through a cast function pointer would be undefined). */
#include "ops.h"

#include "internal.h"

#define ENC_utf8 REF_UTF8
#define ENC_utf16le REF_UTF16LE
#define ENC_utf16be REF_UTF16BE
#define ENC_utf32 REF_UTF32
#define ENC_latin1 REF_LATIN1
#define ENC_ascii REF_UTF8
#define ENC_utf16 REF_UTF16LE
#define IS_ASCII_utf8 0
#define IS_ASCII_utf16le 0
#define IS_ASCII_utf16be 0
#define IS_ASCII_utf32 0
#define IS_ASCII_ascii 1

#define WRAP_VALIDATE(enc, S)                                                  \
  static utfx_result pub_validate_##enc(const void *s, size_t n) {             \
    return utfx_validate_##enc((const S *)s, n);                               \
  }                                                                            \
  static utfx_result scalar_validate_##enc(const void *s, size_t n) {          \
    return utfxi_validate_##enc##_scalar((const S *)s, n);                     \
  }
UTFXI_VALIDATIONS(WRAP_VALIDATE)

#define WRAP_CONVERT(from, S, to, T)                                                        \
  static utfx_result pub_##from##_to_##to(const void *s, size_t n, void *d, size_t cap,    \
                                          unsigned flags) {                                \
    return utfx_convert_##from##_to_##to((const S *)s, n, (T *)d, cap, flags);             \
  }                                                                                        \
  static utfx_result scalar_##from##_to_##to(const void *s, size_t n, void *d, size_t cap, \
                                             unsigned flags) {                             \
    return utfxi_convert_##from##_to_##to##_scalar((const S *)s, n, (T *)d, cap, flags);   \
  }
UTFXI_CONVERSIONS(WRAP_CONVERT)

#define WRAP_LENGTH(to, from, S)                                             \
  static size_t pub_##to##_from_##from(const void *s, size_t n) {            \
    return utfx_##to##_length_from_##from((const S *)s, n);                  \
  }                                                                          \
  static size_t scalar_##to##_from_##from(const void *s, size_t n) {         \
    return utfxi_##to##_length_from_##from##_scalar((const S *)s, n);        \
  }
UTFXI_LENGTHS(WRAP_LENGTH)

#define ENTRY_VALIDATE(enc, S) \
  {"utfx_validate_" #enc, ENC_##enc, IS_ASCII_##enc, \
   pub_validate_##enc, scalar_validate_##enc},
const struct validate_op validate_ops[VALIDATE_OP_COUNT] = {UTFXI_VALIDATIONS(ENTRY_VALIDATE)};

#define ENTRY_CONVERT(from, S, to, T) \
  {"utfx_convert_" #from "_to_" #to, ENC_##from, ENC_##to, pub_##from##_to_##to, \
   scalar_##from##_to_##to},
const struct convert_op convert_ops[CONVERT_OP_COUNT] = {UTFXI_CONVERSIONS(ENTRY_CONVERT)};

#define ENTRY_LENGTH(to, from, S) \
  {"utfx_" #to "_length_from_" #from, ENC_##from, ENC_##to, pub_##to##_from_##from, \
   scalar_##to##_from_##from},
const struct length_op length_ops[LENGTH_OP_COUNT] = {UTFXI_LENGTHS(ENTRY_LENGTH)};

const struct convert_op *find_convert(enum ref_enc from, enum ref_enc to) {
  size_t i;
  for (i = 0; i < CONVERT_OP_COUNT; i++)
    if (convert_ops[i].from == from && convert_ops[i].to == to) return &convert_ops[i];
  return NULL;
}

size_t ref_validate_op(const struct validate_op *op, const void *src, size_t n) {
  return op->ascii ? ref_validate_ascii(src, n) : ref_validate(op->enc, src, n);
}
