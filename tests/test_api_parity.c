/* Issue 35's API-parity functions on every kernel tier, against references
 * written here (independent of the kernels) and known answers:
 *   utfx_swap_bytes_utf16                 out of place and in place
 *   utfx_validate_ascii_utf16le / be      offset of the first non-ASCII unit
 *   utfx_utf8_length_from_utf16*_with_surrogates
 *                                         = the plain length, flag = not valid
 * Inputs: every length 0..300 and some long ones, random units biased to
 * the edges (0x7F/0x80, surrogates, pairs) or runs of ASCII with one unit
 * at a chosen offset; each in three placements: ending at a PROT_NONE page,
 * starting right after one, and at a rotating unit offset. */
#include <string.h>

#include "support/emulated.h"
#include "support/guard.h"
#include "tap.h"

#define MAX_UNITS 10000

/* ---- references --------------------------------------------------------- */

static uint16_t load16(const char16_t *p, int be) {
  const unsigned char *b = (const unsigned char *)p;
  return (uint16_t)(be ? (b[0] << 8 | b[1]) : (b[0] | b[1] << 8));
}

static size_t ref_first_non_ascii(const char16_t *s, size_t n, int be) {
  size_t i;
  for (i = 0; i < n && load16(s + i, be) < 0x80; i++) continue;
  return i;
}

/* ---- inputs ------------------------------------------------------------- */

static uint16_t pick_unit(test_rng *r) {
  static const uint16_t edges[] = {0x0000, 0x007F, 0x0080, 0x00FF, 0x0100, 0x07FF, 0x0800,
                                   0x7F00, 0x8000, 0xD7FF, 0xD800, 0xDBFF, 0xDC00, 0xDFFF,
                                   0xE000, 0xFF80, 0xFFFF, 0x8080};
  switch (rng_below(r, 6)) {
    case 0:
    case 1:
      return (uint16_t)rng_below(r, 0x80);
    case 2:
      return edges[rng_below(r, sizeof edges / sizeof edges[0])];
    case 3:
      return (uint16_t)(0xD800 + rng_below(r, 0x800));
    default:
      return (uint16_t)rng_next(r);
  }
}

/* Units in host order written with byte order `be` into s. */
static void put16(char16_t *s, uint16_t u, int be) {
  unsigned char *b = (unsigned char *)s;
  b[be ? 1 : 0] = (unsigned char)(u & 0xFF);
  b[be ? 0 : 1] = (unsigned char)(u >> 8);
}

/* Kinds of input: random units; ASCII with one unit u at offset k; pairs
 * (emoji) with one lone surrogate at k. */
static void fill(char16_t *s, size_t n, int kind, size_t k, uint16_t u, int be, test_rng *r) {
  size_t i;
  for (i = 0; i < n; i++) {
    if (kind == 0) put16(s + i, pick_unit(r), be);
    else if (kind == 1) put16(s + i, (uint16_t)rng_below(r, 0x80), be);
    else put16(s + i, i % 2 ? 0xDE00 : 0xD83D, be);
  }
  if (kind != 0 && k < n) put16(s + k, u, be);
}

/* ---- the checks --------------------------------------------------------- */

static char16_t expect_buf[MAX_UNITS], copy_buf[MAX_UNITS];

static void check_one(const char16_t *s, size_t n, char16_t *d, const char *where) {
  size_t i;
  int be;
  /* the byte swap, out of place, then in place on a copy at d */
  utfx_swap_bytes_utf16(s, n, d);
  for (i = 0; i < n; i++) put16(expect_buf + i, load16(s + i, 1), 0);
  CHECK(n == 0 || memcmp(d, expect_buf, n * 2) == 0, "swap n=%zu %s", n, where);
  if (n) memcpy(d, s, n * 2);
  utfx_swap_bytes_utf16(d, n, d);
  CHECK(n == 0 || memcmp(d, expect_buf, n * 2) == 0, "swap in place n=%zu %s", n, where);
  for (be = 0; be < 2; be++) {
    size_t want = ref_first_non_ascii(s, n, be), len;
    utfx_result r = be ? utfx_validate_ascii_utf16be(s, n) : utfx_validate_ascii_utf16le(s, n);
    utfx_result v = be ? utfx_validate_utf16be(s, n) : utfx_validate_utf16le(s, n);
    int flag = -1;
    CHECK(r.read == want && r.status == (want == n ? UTFX_OK : UTFX_INVALID) && r.written == 0,
          "ascii be=%d n=%zu %s: read %zu want %zu", be, n, where, r.read, want);
    len = be ? utfx_utf8_length_from_utf16be_with_surrogates(s, n, &flag)
             : utfx_utf8_length_from_utf16le_with_surrogates(s, n, &flag);
    want = be ? utfx_utf8_length_from_utf16be(s, n) : utfx_utf8_length_from_utf16le(s, n);
    CHECK(len == want && flag == (v.status != UTFX_OK),
          "length be=%d n=%zu %s: %zu/%d want %zu/%d", be, n, where, len, flag, want,
          v.status != UTFX_OK);
  }
}

/* The input of n units at the three placements; d ends at a guard page. */
static void check_placed(const char16_t *input, size_t n, size_t rot) {
  char16_t *end = guard_alloc(n * 2), *front = guard_alloc_front(n * 2);
  char16_t *dst = guard_alloc(n * 2), *wide = guard_alloc((n + 32) * 2);
  if (n) {
    memcpy(end, input, n * 2);
    memcpy(front, input, n * 2);
    memcpy(wide + rot % 32, input, n * 2);
  }
  check_one(end, n, dst, "end");
  check_one(front, n, dst, "front");
  check_one(wide + rot % 32, n, dst, "offset");
  guard_free(end, n * 2);
  guard_free_front(front, n * 2);
  guard_free(dst, n * 2);
  guard_free(wide, (n + 32) * 2);
}

static void suite_utf16_scans(void) {
  static const size_t longs[] = {511, 512, 513, 1000, 1024, 4095, 4096, 4097, MAX_UNITS};
  static const uint16_t odd_units[] = {0x0080, 0x00FF, 0x0100, 0x8000, 0xD800, 0xDC00, 0xFF80};
  test_rng r;
  size_t n, k, t;
  int be;
  rng_seed(&r, 35);
  for (n = 0; n <= 300; n++) {
    if (!test_keep(n, 8)) continue;
    for (be = 0; be < 2; be++) {
      fill(copy_buf, n, 0, 0, 0, be, &r);
      check_placed(copy_buf, n, n + (size_t)be);
      fill(copy_buf, n, 1, n ? rng_below(&r, n) : 0, odd_units[n % 7], be, &r);
      check_placed(copy_buf, n, n * 3);
      fill(copy_buf, n, 2, n ? rng_below(&r, n) : 0, n % 2 ? 0xD83D : 0xDE00, be, &r);
      check_placed(copy_buf, n, n * 5);
      fill(copy_buf, n, 2, n, 0, be, &r); /* pairs only (a high last when n is odd) */
      check_placed(copy_buf, n, n * 7);
    }
  }
  tap_group("swap / ascii / length-with-surrogates: lengths 0..300, three placements");
  for (t = 0; t < sizeof longs / sizeof longs[0]; t++) {
    n = longs[t];
    for (k = 0; k < n; k += n / 13 + 1) {
      if (!test_keep(k + n, 4)) continue;
      fill(copy_buf, n, 1, k, odd_units[k % 7], 0, &r);
      check_placed(copy_buf, n, k);
      fill(copy_buf, n, 2, k, k % 2 ? 0xD83D : 0xDE00, 1, &r);
      check_placed(copy_buf, n, k + 1);
    }
    fill(copy_buf, n, 0, 0, 0, 0, &r);
    check_placed(copy_buf, n, n);
  }
  tap_group("swap / ascii / length-with-surrogates: long inputs, the item at many offsets");
}

/* Known answers (Node: Buffer.from([1,2,3,4]).swap16() is 02 01 04 03). */
static void suite_known_answers(void) {
  const unsigned char in[4] = {1, 2, 3, 4};
  static const uint16_t text[4] = {'a', 'b', 'c', 0xE9}, units[3] = {0xD83D, 0xDE00, 0xD800};
  char16_t s[2], d[2], abc[4], pair_lone[3];
  int flag = -1, i;
  utfx_result r;
  for (i = 0; i < 4; i++) put16(abc + i, text[i], 0);
  for (i = 0; i < 3; i++) put16(pair_lone + i, units[i], 0);
  memcpy(s, in, 4);
  utfx_swap_bytes_utf16(s, 2, d);
  CHECK(memcmp(d, "\x02\x01\x04\x03", 4) == 0, "swap16 of 01 02 03 04");
  utfx_swap_bytes_utf16(NULL, 0, NULL);
  r = utfx_validate_ascii_utf16le(abc, 4);
  CHECK(r.status == UTFX_INVALID && r.read == 3, "ascii: abcé -> 3");
  r = utfx_validate_ascii_utf16le(NULL, 0);
  CHECK(r.status == UTFX_OK && r.read == 0, "ascii: empty");
  CHECK(utfx_utf8_length_from_utf16le_with_surrogates(pair_lone, 3, &flag) == 7 && flag == 1,
        "length: pair + lone high = 4 + 3, lone");
  CHECK(utfx_utf8_length_from_utf16le_with_surrogates(pair_lone, 2, &flag) == 4 && flag == 0,
        "length: pair = 4, none lone");
  CHECK(utfx_utf8_length_from_utf16le_with_surrogates(pair_lone, 2, NULL) == 4, "NULL flag");
  CHECK(utfx_utf8_length_from_utf16le_with_surrogates(NULL, 0, &flag) == 0 && flag == 0,
        "length: empty");
  tap_group("known answers (Buffer.swap16, isAscii, lengths)");
}

int main(void) {
  tap_for_each_impl(suite_known_answers);
  tap_for_each_impl(suite_utf16_scans);
  return tap_done();
}
