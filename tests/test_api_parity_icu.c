/* utfx_validate_utf8_detail's error length against ICU's UTF-8 converter,
 * on every kernel tier: the converter's callback gets the bytes of each
 * maximal subpart, with U_TRUNCATED_CHAR_FOUND when the input ends inside a
 * sequence (utfx's length 0). Inputs: every sequence of 1-4 bytes of the
 * classes of Unicode Table 3-7, alone, after "a" and before "b", and long
 * ASCII with such bytes at random offsets (the validators' SIMD paths). */
#include <string.h>
#include <unicode/ucnv.h>

#include "support/emulated.h"
#include "support/guard.h"
#include "tap.h"

static const unsigned char byte_set[] = {0x00, 0x41, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0,
                                         0xBF, 0xC0, 0xC1, 0xC2, 0xDF, 0xE0, 0xE1, 0xEC,
                                         0xED, 0xEE, 0xEF, 0xF0, 0xF1, 0xF3, 0xF4, 0xF5, 0xFF};
#define BYTE_SET_SIZE (sizeof byte_set / sizeof byte_set[0])

struct icu_first {
  int seen, truncated;
  int32_t length;
};

static void icu_note(const void *ctx, UConverterToUnicodeArgs *args, const char *units,
                     int32_t length, UConverterCallbackReason reason, UErrorCode *err) {
  struct icu_first *f = (struct icu_first *)(uintptr_t)ctx;
  (void)args, (void)units;
  if (reason > UCNV_IRREGULAR) return; /* reset, close, clone */
  if (!f->seen) f->seen = 1, f->length = length, f->truncated = *err == U_TRUNCATED_CHAR_FOUND;
  *err = U_ZERO_ERROR; /* skip it and go on */
}

static UConverter *icu_utf8;

/* ICU's length of the first maximal subpart of s[0..k) (a window of 16
 * bytes), 0 if the input ends inside it, -1 if ICU finds no error. */
static long icu_error_length(const unsigned char *s, size_t k) {
  struct icu_first f = {0, 0, 0};
  UChar out[64], *target = out;
  const char *source = (const char *)s;
  UErrorCode err = U_ZERO_ERROR;
  int flush = k <= 16;
  if (k > 16) k = 16;
  ucnv_reset(icu_utf8);
  ucnv_setToUCallBack(icu_utf8, icu_note, &f, NULL, NULL, &err);
  ucnv_toUnicode(icu_utf8, &target, out + 64, &source, source + k, NULL, (UBool)flush, &err);
  if (!f.seen) return -1;
  return f.truncated ? 0 : f.length;
}

static void check(const unsigned char *s, size_t n, const char *what, size_t idx) {
  utfx_error d = utfx_validate_utf8_detail((const char *)s, n);
  long icu = d.status == UTFX_OK ? -1 : icu_error_length(s + d.offset, n - d.offset);
  CHECK((long)d.length == icu || (d.status == UTFX_OK && icu == -1),
        "%s %zu: offset %zu length %zu, ICU %ld", what, idx, d.offset, d.length, icu);
}

static void suite(void) {
  unsigned char in[8];
  static unsigned char big[1000];
  size_t len, idx, total, i, k;
  test_rng r;
  for (len = 1; len <= 4; len++) {
    total = 1;
    for (i = 0; i < len; i++) total *= BYTE_SET_SIZE;
    for (idx = 0; idx < total; idx++) {
      size_t x = idx;
      if (!test_keep(idx, 16)) continue;
      in[0] = 'a';
      for (i = 0; i < len; i++, x /= BYTE_SET_SIZE) in[1 + i] = byte_set[x % BYTE_SET_SIZE];
      if (len == 4 && in[1] < 0xE0) continue; /* a 4th byte can matter after E0..FF only */
      in[1 + len] = 'b';
      check(in + 1, len, "alone", idx);
      check(in, len + 1, "after a", idx);
      check(in + 1, len + 1, "before b", idx);
    }
  }
  rng_seed(&r, 6);
  for (k = 0; k < 300; k++) {
    size_t n = 64 + rng_below(&r, sizeof big - 64), at = rng_below(&r, n), j;
    for (j = 0; j < n; j++) big[j] = (unsigned char)('a' + j % 26);
    for (j = 0; j < 4 && at + j < n; j++) big[at + j] = byte_set[rng_below(&r, BYTE_SET_SIZE)];
    check(big, n, "long", k);
  }
  tap_group("UTF-8 error lengths (maximal subparts, truncation) against ICU's converter");
}

int main(void) {
  UErrorCode err = U_ZERO_ERROR;
  icu_utf8 = ucnv_open("UTF-8", &err);
  if (U_FAILURE(err)) {
    tap_fail("ICU", "cannot open ICU's UTF-8 converter");
    return tap_done();
  }
  tap_for_each_impl(suite);
  ucnv_close(icu_utf8);
  return tap_done();
}
