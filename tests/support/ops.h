/* Every public validation, conversion and length function (and its scalar
 * kernel) behind one generic signature, with the encodings it works on, so a
 * test can loop over all of them and compare with the reference. */
#ifndef UTFX_TESTS_OPS_H
#define UTFX_TESTS_OPS_H

#include <stddef.h>

#include "operations.h"
#include "reference.h"
#include "utfx.h"

typedef utfx_result (*any_validate_fn)(const void *src, size_t n);
typedef utfx_result (*any_convert_fn)(const void *src, size_t n, void *dst, size_t cap,
                                      unsigned flags);
typedef size_t (*any_length_fn)(const void *src, size_t n);

struct validate_op {
  const char *name;
  enum ref_enc enc; /* REF_UTF8 for ascii too */
  int ascii;
  any_validate_fn pub, scalar;
};

struct convert_op {
  const char *name;
  enum ref_enc from, to;
  any_convert_fn pub, scalar;
};

struct length_op {
  const char *name;
  enum ref_enc from, to; /* the utf16 target is given as REF_UTF16LE */
  any_length_fn pub, scalar;
};

/* The sizes of the library's operation lists (src/operations.h). */
#define OPS_COUNT_ONE(...) +1
#define VALIDATE_OP_COUNT (0 UTFXI_VALIDATIONS(OPS_COUNT_ONE))
#define CONVERT_OP_COUNT (0 UTFXI_CONVERSIONS(OPS_COUNT_ONE))
#define LENGTH_OP_COUNT (0 UTFXI_LENGTHS(OPS_COUNT_ONE))
extern const struct validate_op validate_ops[VALIDATE_OP_COUNT];
extern const struct convert_op convert_ops[CONVERT_OP_COUNT];
extern const struct length_op length_ops[LENGTH_OP_COUNT];

/* The conversion from -> to, or NULL when from == to. */
const struct convert_op *find_convert(enum ref_enc from, enum ref_enc to);
/* Expected result of a validation (the reference's offset). */
size_t ref_validate_op(const struct validate_op *op, const void *src, size_t n);

#endif
