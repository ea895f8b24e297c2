/* Checks shared by the test programs: run one public function and compare it
 * with the naive reference (tests/support/reference.h), including "nothing at
 * or after dst + written is modified" through a canary. Header-only because
 * CHECK counts into the including program's TAP state (tests/tap.h). */
#ifndef UTFX_TESTS_EXPECT_H
#define UTFX_TESTS_EXPECT_H

#include <stdlib.h>
#include <string.h>

#include "ops.h"
#include "reference.h"
#include "tap.h"

#define CANARY_BYTE 0xA5
#define CANARY_UNITS 8

static inline const char *expect_status_name(utfx_status s) {
  return s == UTFX_OK ? "OK" : s == UTFX_INVALID ? "INVALID" : s == UTFX_DST_FULL ? "DST_FULL" : "?";
}

/* Compares two results field by field; `what` names the case. */
#define CHECK_RESULT(got, want, what)                                                        \
  CHECK((got).status == (want).status && (got).read == (want).read &&                        \
            (got).written == (want).written && (got).replaced == (want).replaced,            \
        "%s: got {%s read %zu written %zu replaced %zu}, want {%s read %zu written %zu "     \
        "replaced %zu}",                                                                     \
        what, expect_status_name((got).status), (got).read, (got).written, (got).replaced,   \
        expect_status_name((want).status), (want).read, (want).written, (want).replaced)

/* Units of dst that must be untouched after the output: the canary region. */
static inline int canary_intact(const unsigned char *p, size_t from_byte, size_t to_byte) {
  size_t i;
  for (i = from_byte; i < to_byte; i++)
    if (p[i] != CANARY_BYTE) return 0;
  return 1;
}

/* Runs `fn` (a public function or a kernel) on src (n units) with capacity cap
 * and compares result, output and canary with the reference. Returns 1 when
 * everything matched. */
static inline int expect_convert_fn(const struct convert_op *op, any_convert_fn fn,
                                    const void *src, size_t n, size_t cap, unsigned flags,
                                    const char *what) {
  size_t usz = ref_unit_size(op->to), total = (cap + CANARY_UNITS) * usz;
  unsigned char *got = malloc(total + 1), *want = malloc(total + 1);
  utfx_result rg, rw;
  unsigned long before = tap_group_failures;
  char label[200];
  snprintf(label, sizeof label, "%s %s n=%zu cap=%zu %s", op->name, what, n, cap,
           flags & UTFX_REPLACE ? "REPLACE" : "STRICT");
  memset(got, CANARY_BYTE, total + 1);
  memset(want, CANARY_BYTE, total + 1);
  rw = ref_convert(op->from, src, n, op->to, want, cap, flags);
  rg = fn(src, n, cap ? (void *)got : NULL, cap, flags);
  CHECK_RESULT(rg, rw, label);
  CHECK(rg.written > cap || memcmp(got, want, rg.written * usz) == 0, "%s: output differs",
        label);
  CHECK(rg.written <= cap && canary_intact(got, rg.written * usz, total),
        "%s: bytes at or after dst + written were modified", label);
  free(got);
  free(want);
  return tap_group_failures == before;
}

static inline int expect_convert(const struct convert_op *op, const void *src, size_t n,
                                 size_t cap, unsigned flags, const char *what) {
  return expect_convert_fn(op, op->pub, src, n, cap, flags, what);
}

/* Every validation, conversion (both modes, capacity = exact need, one less,
 * zero, and generous) and length function that reads encoding `enc`, against
 * the reference. */
static inline void expect_all_from(enum ref_enc enc, const void *src, size_t n,
                                   const char *what) {
  size_t i;
  for (i = 0; i < VALIDATE_OP_COUNT; i++) {
    const struct validate_op *op = &validate_ops[i];
    utfx_result r;
    size_t want;
    if (op->enc != enc) continue;
    r = op->pub(src, n);
    want = ref_validate_op(op, src, n);
    CHECK(r.status == (want == n ? UTFX_OK : UTFX_INVALID) && r.read == want && r.written == 0,
          "%s %s n=%zu: got status %d read %zu, want read %zu", op->name, what, n,
          (int)r.status, r.read, want);
  }
  for (i = 0; i < LENGTH_OP_COUNT; i++) {
    const struct length_op *op = &length_ops[i];
    size_t got, want;
    if (op->from != enc) continue;
    got = op->pub(src, n);
    want = ref_length(op->to, op->from, src, n);
    CHECK(got == want, "%s %s n=%zu: got %zu want %zu", op->name, what, n, got, want);
  }
  for (i = 0; i < CONVERT_OP_COUNT; i++) {
    const struct convert_op *op = &convert_ops[i];
    size_t need;
    unsigned flags;
    if (op->from != enc) continue;
    need = ref_length(op->to == REF_LATIN1 ? REF_UTF32 : op->to, op->from, src, n);
    for (flags = 0; flags <= 1; flags++) {
      expect_convert(op, src, n, need, flags, what);
      if (need > 0) expect_convert(op, src, n, need - 1, flags, what);
      if (need > 1) expect_convert(op, src, n, 0, flags, what);
      expect_convert(op, src, n, need + 5, flags, what);
    }
  }
}

#endif
