/* Checks shared by the test programs: comparing results field by field and
 * the canary that proves "nothing at or after dst + written is modified".
 * Header-only because CHECK counts into the including program's TAP state
 * (tests/tap.h). */
#ifndef UTFX_TESTS_EXPECT_H
#define UTFX_TESTS_EXPECT_H

#include <stddef.h>

#include "tap.h"

#define CANARY_BYTE 0xA5
#define CANARY_UNITS 8

static inline const char *expect_status_name(utfx_status s) {
  return s == UTFX_OK         ? "OK"
         : s == UTFX_INVALID  ? "INVALID"
         : s == UTFX_DST_FULL ? "DST_FULL"
                              : "?";
}

/* Compares two results field by field; `what` names the case. */
#define CHECK_RESULT(got, want, what)                                                        \
  CHECK((got).status == (want).status && (got).read == (want).read &&                        \
            (got).written == (want).written && (got).replaced == (want).replaced,            \
        "%s: got {%s read %zu written %zu replaced %zu}, want {%s read %zu written %zu "     \
        "replaced %zu}",                                                                     \
        what, expect_status_name((got).status), (got).read, (got).written, (got).replaced,   \
        expect_status_name((want).status), (want).read, (want).written, (want).replaced)

/* True when bytes [from_byte, to_byte) of p still hold the canary. */
static inline int canary_intact(const unsigned char *p, size_t from_byte, size_t to_byte) {
  size_t i;
  for (i = from_byte; i < to_byte; i++)
    if (p[i] != CANARY_BYTE) return 0;
  return 1;
}

#endif
