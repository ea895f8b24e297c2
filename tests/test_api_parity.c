/* Issue 35's API-parity functions on every kernel tier, against references
 * written here (independent of the kernels) and known answers (ICU and Node:
 * test_api_parity_icu.c, test_api_parity_node.c):
 *   utfx_swap_bytes_utf16                 out of place and in place
 *   utfx_validate_ascii_utf16le / be      offset of the first non-ASCII unit
 *   utfx_utf8_length_from_utf16*_with_surrogates
 *                                         = the plain length = the reference,
 *                                           flag = not valid = the reference
 *   utfx_trim_partial_*                  every tail of up to 4 bytes of each class
 *   utfx_*_error_at / validate_*_detail  kinds and maximal-subpart lengths
 *   utfx_detect_bom / encodings / encoding
 * Inputs: every length 0..300 and some long ones, random units biased to
 * the edges (0x7F/0x80, surrogates, pairs) or runs of ASCII with one unit
 * at a chosen offset; each in three placements: ending at a PROT_NONE page,
 * starting right after one, and at a rotating unit offset (the error and
 * detection functions: at the end and at the start of a guarded page). */
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

/* UTF-8 bytes of the replacing conversion (a lone surrogate is U+FFFD, 3
 * bytes); *lone = whether there was one. */
static size_t ref_utf8_length_from_utf16(const char16_t *s, size_t n, int be, int *lone) {
  size_t i, len = 0;
  *lone = 0;
  for (i = 0; i < n; i++) {
    uint16_t u = load16(s + i, be);
    if (u >= 0xD800 && u < 0xDC00 && i + 1 < n && (load16(s + i + 1, be) & 0xFC00) == 0xDC00) {
      len += 4;
      i++;
    } else {
      if (u >= 0xD800 && u < 0xE000) *lone = 1;
      len += u < 0x80 ? 1 : u < 0x800 ? 2 : 3;
    }
  }
  return len;
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

/* Both UTF-8 lengths of UTF-16 against the reference. */
static void check_lengths(const char16_t *s, size_t n, int be, const char *where) {
  int flag = -1, lone;
  size_t want = ref_utf8_length_from_utf16(s, n, be, &lone);
  size_t len = be ? utfx_utf8_length_from_utf16be_with_surrogates(s, n, &flag)
                  : utfx_utf8_length_from_utf16le_with_surrogates(s, n, &flag);
  size_t plain = be ? utfx_utf8_length_from_utf16be(s, n) : utfx_utf8_length_from_utf16le(s, n);
  CHECK(len == want && plain == want && flag == lone,
        "length be=%d n=%zu %s: %zu/%zu/%d want %zu/%d", be, n, where, len, plain, flag, want, lone);
}

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
    size_t want = ref_first_non_ascii(s, n, be);
    utfx_result r = be ? utfx_validate_ascii_utf16be(s, n) : utfx_validate_ascii_utf16le(s, n);
    utfx_result v = be ? utfx_validate_utf16be(s, n) : utfx_validate_utf16le(s, n);
    int flag = -1;
    CHECK(r.read == want && r.status == (want == n ? UTFX_OK : UTFX_INVALID) && r.written == 0,
          "ascii be=%d n=%zu %s: read %zu want %zu", be, n, where, r.read, want);
    check_lengths(s, n, be, where);
    (void)(be ? utfx_utf8_length_from_utf16be_with_surrogates(s, n, &flag)
             : utfx_utf8_length_from_utf16le_with_surrogates(s, n, &flag));
    CHECK(flag == (v.status != UTFX_OK), "length flag be=%d n=%zu %s: %d, validate says %d", be,
          n, where, flag, v.status != UTFX_OK);
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

/* The lengths where a kernel's steps meet: a long input (past the aligning
 * head) at every unit offset from a 64-byte line, with a run of surrogates
 * (high high low, high low, a lone low, a lone high) at every position of
 * the head and around the first blocks of 64 and 128 units after it. */
static void suite_length_seams(test_rng *r) {
  static const uint16_t runs[4][3] = {
      {0xD83D, 0xD83D, 0xDE00}, {0xD83D, 0xDE00, 0x4E00}, {0x4E00, 0xDE00, 0x0041}, {0x0041, 0xDBFF, 0x00E9}};
  enum { N = 2200, LINE_UNITS = 32 };
  static char16_t buf[N + LINE_UNITS + 32] __attribute__((aligned(64)));
  size_t off, p, j, q;
  int be, run;
  for (off = 0; off < LINE_UNITS; off++) {
    char16_t *s = buf + off;
    if (!test_keep(off, 4)) continue;
    for (be = 0; be < 2; be++)
      for (run = 0; run < 4; run++)
        for (p = 0; p < 80 + 16 * 32; p++) {
          /* the head (it ends at unit h of s), then each 32-unit edge after it */
          size_t h = (LINE_UNITS - off) % LINE_UNITS;
          char where[64];
          if (p >= 80 && (p - h + 3) % 32 > 4) continue;
          for (j = 0; j < N; j++) put16(s + j, (uint16_t)(j % 5 ? 0x4E00 : 0x41), be);
          for (q = 0; q < 3; q++) put16(s + p + q, runs[run][q], be);
          if (rng_below(r, 4) == 0) put16(s + N - 1, 0xD800, be); /* a lone high last */
          snprintf(where, sizeof where, "offset %zu, run %d at %zu", off, run, p);
          check_lengths(s, N, be, where);
        }
  }
  tap_group("length-with-surrogates: pairs and lone surrogates across the head and block edges, every offset");
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
  suite_length_seams(&r);
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

/* ---- incomplete tails (utfx_trim_partial_*) ----------------------------- */

/* Bytes that stand for each class of Unicode Table 3-7. */
static const unsigned char byte_set[] = {0x00, 0x41, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0,
                                         0xBF, 0xC0, 0xC1, 0xC2, 0xDF, 0xE0, 0xE1, 0xEC,
                                         0xED, 0xEE, 0xEF, 0xF0, 0xF1, 0xF3, 0xF4, 0xF5, 0xFF};
#define BYTE_SET_SIZE (sizeof byte_set / sizeof byte_set[0])
static const unsigned char cont_set[] = {0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF};

/* Whether some continuation bytes after t[0..k) make t a valid character:
 * t is then a true prefix of one (the validator, not the code under test,
 * decides). Only a second byte has a range of its own (Unicode Table 3-7):
 * the first added byte takes every class, those after it 80. */
static int completable(const unsigned char *t, size_t k) {
  unsigned char buf[4];
  size_t more, c1;
  if (k == 0 || k > 3) return 0;
  memcpy(buf, t, k);
  memset(buf + k, 0x80, 4 - k);
  for (more = 1; k + more <= 4; more++)
    for (c1 = 0; c1 < sizeof cont_set; c1++) {
      buf[k] = cont_set[c1];
      if (utfx_validate_utf8((const char *)buf, k + more).status == UTFX_OK) return 1;
    }
  return 0;
}

static size_t ref_trim_utf8(const unsigned char *s, size_t n) {
  size_t k;
  for (k = 1; k <= 3 && k <= n; k++)
    if (completable(s + n - k, k)) return n - k;
  return n;
}

/* Every sequence of up to 4 bytes of byte_set, alone and after "ab"; all
 * lengths are checked at the end of a guard page. */
static void suite_trim_partial(void) {
  unsigned char in[6];
  char *guard = guard_alloc(6);
  size_t len, idx, total, pre, i;
  test_rng r;
  for (len = 0; len <= 4; len++) {
    total = 1;
    for (i = 0; i < len; i++) total *= BYTE_SET_SIZE;
    for (idx = 0; idx < total; idx++) {
      size_t x = idx;
      if (!test_keep(idx, 16)) continue;
      for (i = 0; i < len; i++, x /= BYTE_SET_SIZE) in[2 + i] = byte_set[x % BYTE_SET_SIZE];
      in[0] = 'a', in[1] = 'b';
      for (pre = 0; pre <= 2; pre += 2) {
        size_t n = len + pre, got;
        char *g = guard + 6 - n; /* ending at the guard page */
        if (n) memcpy(g, in + 2 - pre, n);
        got = utfx_trim_partial_utf8(g, n);
        CHECK(got == ref_trim_utf8(in + 2 - pre, n), "trim utf8 len=%zu idx=%zu pre=%zu: %zu", len,
              idx, pre, got);
      }
    }
  }
  rng_seed(&r, 4);
  for (len = 0; len < 2000; len++) {
    size_t n = rng_below(&r, 6);
    char16_t *g = guard_alloc(n * 2);
    uint16_t last = 0;
    for (i = 0; i < n; i++) put16(g + i, last = pick_unit(&r), 0);
    CHECK(utfx_trim_partial_utf16le(g, n) == (n && (last & 0xFC00) == 0xD800 ? n - 1 : n),
          "trim utf16le n=%zu last %04x", n, last);
    utfx_swap_bytes_utf16(g, n, g);
    CHECK(utfx_trim_partial_utf16be(g, n) == (n && (last & 0xFC00) == 0xD800 ? n - 1 : n),
          "trim utf16be n=%zu last %04x", n, last);
    guard_free(g, n * 2);
  }
  CHECK(utfx_trim_partial_utf8("\xF0\x9F\x98", 3) == 0, "F0 9F 98 -> 0");
  CHECK(utfx_trim_partial_utf8("a\xE2\x82", 3) == 1, "a E2 82 -> 1");
  CHECK(utfx_trim_partial_utf8("a\xE0\x80", 3) == 3, "a E0 80 -> 3 (ill-formed, kept)");
  CHECK(utfx_trim_partial_utf8("a\xC0", 2) == 2, "a C0 -> 2");
  CHECK(utfx_trim_partial_utf8("\xE2\x82\xAC", 3) == 3, "E2 82 AC (euro) -> 3");
  CHECK(utfx_trim_partial_utf8(NULL, 0) == 0, "empty");
  guard_free(guard, 6);
  tap_group("trim_partial: every tail of up to 4 bytes of each class, UTF-16 last units");
}

/* ---- error kinds (utfx_*_error_at, utfx_validate_*_detail) --------------- */

/* The kind by what the bytes encode: the lead byte's sequence decoded with
 * the continuation bytes that follow it, the missing ones as 80 and as BF,
 * bound the value it could be. */
static utfx_error_kind ref_utf8_kind(const unsigned char *s, size_t k) {
  static const uint32_t min_of[5] = {0, 0, 0x80, 0x800, 0x10000};
  unsigned b = s[0];
  size_t len = b < 0x80 ? 1 : b < 0xC0 ? 0 : b < 0xE0 ? 2 : b < 0xF0 ? 3 : b < 0xF8 ? 4 : 5, i;
  uint32_t lo, hi;
  if (len == 0) return UTFX_ERROR_TOO_LONG;
  if (len == 5) return UTFX_ERROR_TOO_LARGE;
  lo = hi = b & (0x7Fu >> len);
  /* only the first continuation byte can make a sequence impossible */
  for (i = 1; i < len; i++) {
    int have = i == 1 && i < k && (s[i] & 0xC0) == 0x80;
    lo = lo << 6 | (have ? s[i] & 0x3Fu : 0);
    hi = hi << 6 | (have ? s[i] & 0x3Fu : 0x3F);
  }
  if (hi < min_of[len]) return UTFX_ERROR_OVERLONG;
  if (lo >= 0xD800 && hi <= 0xDFFF) return UTFX_ERROR_SURROGATE;
  if (lo > 0x10FFFF) return UTFX_ERROR_TOO_LARGE;
  return UTFX_ERROR_TOO_SHORT;
}

/* The maximal subpart's length: the m after which decoding with
 * replacement goes on as it does after the U+FFFD at s[0]; 0 when the rest
 * of the input is a true prefix of a character. */
static size_t ref_utf8_length(const unsigned char *s, size_t k) {
  char32_t all[16], rest[16];
  size_t m, w;
  if (k > 8) k = 8; /* a window: both decodings see the same cut */
  w = utfx_convert_utf8_to_utf32((const char *)s, k, all, 16, UTFX_REPLACE).written;
  if (k <= 3 && completable(s, k)) return 0;
  for (m = 1; m <= 3 && m <= k; m++) {
    size_t v = utfx_convert_utf8_to_utf32((const char *)s + m, k - m, rest, 16, UTFX_REPLACE)
                   .written;
    if (v == w - 1 && (v == 0 || memcmp(rest, all + 1, v * 4) == 0)) return m;
  }
  return 99;
}

/* Buffers against a guard page (end, front) for the error functions. */
#define GUARDED_UNITS 200
static char *g8_end, *g8_front;
static char16_t *g16_end, *g16_front;
static char32_t *g32_end, *g32_front;

static void guards_alloc(void) {
  g8_end = guard_alloc(8), g8_front = guard_alloc_front(8);
  g16_end = guard_alloc(2 * GUARDED_UNITS), g16_front = guard_alloc_front(2 * GUARDED_UNITS);
  g32_end = guard_alloc(4 * GUARDED_UNITS), g32_front = guard_alloc_front(4 * GUARDED_UNITS);
}
static void guards_free(void) {
  guard_free(g8_end, 8), guard_free_front(g8_front, 8);
  guard_free(g16_end, 2 * GUARDED_UNITS), guard_free_front(g16_front, 2 * GUARDED_UNITS);
  guard_free(g32_end, 4 * GUARDED_UNITS), guard_free_front(g32_front, 4 * GUARDED_UNITS);
}

static int same_error(utfx_error a, utfx_error b) {
  return a.status == b.status && a.offset == b.offset && a.kind == b.kind && a.length == b.length;
}

static void check_utf8_error(const unsigned char *s, size_t n, const char *what, size_t idx) {
  utfx_result v = utfx_validate_utf8((const char *)s, n);
  utfx_error d = utfx_validate_utf8_detail((const char *)s, n);
  if (n && n <= 8) { /* the same at the end of a guard page and at the start of one */
    memcpy(g8_end + 8 - n, s, n);
    memcpy(g8_front, s, n);
    CHECK(same_error(utfx_validate_utf8_detail(g8_end + 8 - n, n), d) &&
              same_error(utfx_validate_utf8_detail(g8_front, n), d),
          "%s %zu: guard placements", what, idx);
  }
  CHECK(d.status == v.status && d.offset == v.read, "%s %zu: detail %d@%zu, validate %d@%zu",
        what, idx, d.status, d.offset, v.status, v.read);
  if (v.status == UTFX_OK) {
    CHECK(d.kind == UTFX_ERROR_NONE && d.length == 0, "%s %zu: valid, kind %d", what, idx,
          d.kind);
    return;
  }
  CHECK(d.kind == ref_utf8_kind(s + v.read, n - v.read), "%s %zu: kind %d want %d", what, idx,
        d.kind, ref_utf8_kind(s + v.read, n - v.read));
  CHECK(d.length == ref_utf8_length(s + v.read, n - v.read), "%s %zu: length %zu want %zu", what,
        idx, d.length, ref_utf8_length(s + v.read, n - v.read));
}

static void suite_utf8_errors(void) {
  static const struct {
    const char *s;
    size_t n, offset;
    utfx_error_kind kind;
    size_t length;
  } known[] = {
      {"a\xE2\x82\x41", 4, 1, UTFX_ERROR_TOO_SHORT, 2}, {"\xE2\x82", 2, 0, UTFX_ERROR_TOO_SHORT, 0},
      {"\x80", 1, 0, UTFX_ERROR_TOO_LONG, 1},           {"\xC0\xAF", 2, 0, UTFX_ERROR_OVERLONG, 1},
      {"\xE0\x80\x80", 3, 0, UTFX_ERROR_OVERLONG, 1},   {"\xED\xA0\x80", 3, 0, UTFX_ERROR_SURROGATE, 1},
      {"\xF4\x90\x80\x80", 4, 0, UTFX_ERROR_TOO_LARGE, 1}, {"\xF8\x88", 2, 0, UTFX_ERROR_TOO_LARGE, 1},
      {"\xF0\x9F\x98", 3, 0, UTFX_ERROR_TOO_SHORT, 0},  {"\xF0\x9F\x98\x41", 4, 0, UTFX_ERROR_TOO_SHORT, 3},
      {"\xC1", 1, 0, UTFX_ERROR_OVERLONG, 1},           {"\xE0", 1, 0, UTFX_ERROR_TOO_SHORT, 0},
  };
  unsigned char in[8];
  size_t len, idx, total, i, k;
  test_rng r;
  for (k = 0; k < sizeof known / sizeof known[0]; k++) {
    utfx_error e = utfx_validate_utf8_detail(known[k].s, known[k].n);
    CHECK(e.status == UTFX_INVALID && e.offset == known[k].offset && e.kind == known[k].kind &&
              e.length == known[k].length,
          "known %zu: %d@%zu kind %d length %zu", k, e.status, e.offset, e.kind, e.length);
  }
  CHECK(utfx_utf8_error_at("ab", 2, 5).status == UTFX_OK, "offset past the end");
  CHECK(utfx_utf8_error_at("\xE2\x82\xAC", 3, 0).kind == UTFX_ERROR_NONE, "a valid character");
  CHECK(strcmp(utfx_error_kind_string(UTFX_ERROR_OVERLONG), "overlong encoding") == 0, "string");
  /* every 1..4-byte sequence of the byte classes, alone, after "a", before "b" */
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
      check_utf8_error(in + 1, len, "alone", idx);
      check_utf8_error(in, len + 1, "after a", idx);
      check_utf8_error(in + 1, len + 1, "before b", idx);
    }
  }
  /* long inputs: the validator's SIMD offset, the kind at it */
  rng_seed(&r, 6);
  for (k = 0; k < 300; k++) {
    static unsigned char big[1000];
    size_t n = 64 + rng_below(&r, sizeof big - 64), at = rng_below(&r, n), j;
    for (j = 0; j < n; j++) big[j] = (unsigned char)('a' + j % 26);
    for (j = 0; j < 4 && at + j < n; j++) big[at + j] = byte_set[rng_below(&r, BYTE_SET_SIZE)];
    check_utf8_error(big, n, "long", k);
  }
  tap_group("UTF-8 error kinds and lengths: every 1-4 byte sequence of the byte classes");
}

static void suite_utf16_utf32_errors(void) {
  test_rng r;
  size_t t, i;
  rng_seed(&r, 7);
  for (t = 0; t < 3000; t++) {
    size_t n = rng_below(&r, GUARDED_UNITS), at;
    int be = (int)(t & 1), front = (int)(t >> 1 & 1);
    char16_t *u16 = front ? g16_front : g16_end + GUARDED_UNITS - n;
    char32_t *u32 = front ? g32_front : g32_end + GUARDED_UNITS - n;
    utfx_result v;
    utfx_error d;
    if (!test_keep(t, 8)) continue;
    fill(u16, n, t % 3 == 0 ? 0 : 2, n ? rng_below(&r, n) : 0, t % 4 ? 0xDC00 : 0xD800, be, &r);
    v = be ? utfx_validate_utf16be(u16, n) : utfx_validate_utf16le(u16, n);
    d = be ? utfx_validate_utf16be_detail(u16, n) : utfx_validate_utf16le_detail(u16, n);
    at = v.read;
    CHECK(d.status == v.status && d.offset == at, "utf16 %zu: detail offset %zu want %zu", t,
          d.offset, at);
    if (v.status == UTFX_INVALID) {
      uint16_t c = load16(u16 + at, be);
      int high = (c & 0xFC00) == 0xD800;
      CHECK(d.kind == (high ? UTFX_ERROR_LONE_HIGH : UTFX_ERROR_LONE_LOW) &&
                d.length == (high && at + 1 == n ? 0u : 1u),
            "utf16 %zu: kind %d length %zu at %zu of %zu", t, d.kind, d.length, at, n);
    } else {
      CHECK(d.kind == UTFX_ERROR_NONE, "utf16 %zu: valid, kind %d", t, d.kind);
    }
    for (i = 0; i < n; i++) {
      uint32_t x = (uint32_t)rng_next(&r);
      u32[i] = (char32_t)(x % 4 ? x % 0x110000 : x % 8 == 0 ? 0xD800 + x % 0x800 : x);
    }
    v = utfx_validate_utf32(u32, n);
    d = utfx_validate_utf32_detail(u32, n);
    CHECK(d.status == v.status && d.offset == v.read, "utf32 %zu: offset %zu", t, d.offset);
    if (v.status == UTFX_INVALID)
      CHECK(d.kind == ((uint32_t)u32[v.read] > 0x10FFFF ? UTFX_ERROR_TOO_LARGE
                                                         : UTFX_ERROR_SURROGATE) &&
                d.length == 1,
            "utf32 %zu: kind %d", t, d.kind);
  }
  tap_group("UTF-16 and UTF-32 error kinds: random text with lone surrogates / bad values");
}

/* ---- BOM and encoding detection ----------------------------------------- */

static int ref_valid_utf16(const unsigned char *s, size_t n, int be) {
  size_t i;
  if (n % 2) return 0;
  for (i = 0; i < n; i += 2) {
    unsigned c = be ? (unsigned)(s[i] << 8 | s[i + 1]) : (unsigned)(s[i] | s[i + 1] << 8);
    if ((c & 0xFC00) == 0xDC00) return 0;
    if ((c & 0xFC00) == 0xD800) {
      unsigned d;
      if (i + 2 >= n) return 0;
      d = be ? (unsigned)(s[i + 2] << 8 | s[i + 3]) : (unsigned)(s[i + 2] | s[i + 3] << 8);
      if ((d & 0xFC00) != 0xDC00) return 0;
      i += 2;
    }
  }
  return 1;
}

static int ref_valid_utf32(const unsigned char *s, size_t n, int be) {
  size_t i;
  if (n % 4) return 0;
  for (i = 0; i < n; i += 4) {
    uint32_t c = be ? (uint32_t)s[i] << 24 | (uint32_t)s[i + 1] << 16 | (uint32_t)s[i + 2] << 8 | s[i + 3]
                    : (uint32_t)s[i + 3] << 24 | (uint32_t)s[i + 2] << 16 | (uint32_t)s[i + 1] << 8 | s[i];
    if (c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF)) return 0;
  }
  return 1;
}

static unsigned ref_encodings(const unsigned char *s, size_t n) {
  unsigned set = 0;
  if (utfx_validate_utf8((const char *)s, n).status == UTFX_OK) set |= UTFX_DETECT_UTF8;
  if (ref_valid_utf16(s, n, 0)) set |= UTFX_DETECT_UTF16LE;
  if (ref_valid_utf16(s, n, 1)) set |= UTFX_DETECT_UTF16BE;
  if (ref_valid_utf32(s, n, 0)) set |= UTFX_DETECT_UTF32LE;
  if (ref_valid_utf32(s, n, 1)) set |= UTFX_DETECT_UTF32BE;
  return set;
}

/* Text of one form: code points below 0x80, 0x800, 0x10000 or above, with
 * now and then a surrogate or a value too large; as bytes. */
static size_t make_text(unsigned char *out, size_t cps, unsigned form, test_rng *r) {
  size_t i, n = 0;
  for (i = 0; i < cps; i++) {
    uint32_t c, k = (uint32_t)rng_below(r, 100);
    c = k < 50 ? (uint32_t)rng_below(r, 0x80) : k < 70 ? 0x80 + (uint32_t)rng_below(r, 0x780)
        : k < 85 ? 0x4E00 + (uint32_t)rng_below(r, 0x100) : k < 99 ? 0x1F600 + (uint32_t)rng_below(r, 0x50)
        : rng_below(r, 2) ? 0xD800 + (uint32_t)rng_below(r, 0x800) : 0x110000;
    if (form == UTFX_DETECT_UTF8) {
      char32_t one = c;
      n += utfx_convert_utf32_to_utf8(&one, 1, (char *)out + n, 4, UTFX_REPLACE).written;
    } else if (form & (UTFX_DETECT_UTF16LE | UTFX_DETECT_UTF16BE)) {
      int be = form == UTFX_DETECT_UTF16BE;
      uint32_t u[2] = {c, 0};
      size_t m = 1, j;
      if (c >= 0x10000 && c <= 0x10FFFF) u[0] = 0xD7C0 + (c >> 10), u[1] = 0xDC00 + (c & 0x3FF), m = 2;
      for (j = 0; j < m; j++, n += 2) {
        out[n + (size_t)be] = (unsigned char)(u[j] & 0xFF);
        out[n + 1 - (size_t)be] = (unsigned char)(u[j] >> 8 & 0xFF);
      }
    } else {
      int be = form == UTFX_DETECT_UTF32BE, j;
      for (j = 0; j < 4; j++) out[n + (size_t)(be ? 3 - j : j)] = (unsigned char)(c >> (8 * j));
      n += 4;
    }
  }
  return n;
}

static void check_detect(const unsigned char *s, size_t n, const char *what, size_t idx) {
  unsigned want = ref_encodings(s, n);
  size_t gap;
  for (gap = 0; gap < 4; gap++) { /* every alignment of the unit types */
    char *g = guard_alloc(n + gap), *f = guard_alloc_front(n + 3);
    if (n) memcpy(g + gap, s, n), memcpy(f + 3 - gap, s, n);
    CHECK(utfx_detect_encodings(g + gap, n) == want, "%s %zu gap %zu: %#x want %#x", what, idx,
          gap, utfx_detect_encodings(g + gap, n), want);
    CHECK(utfx_detect_encodings(f + 3 - gap, n) == want, "%s %zu front gap %zu", what, idx, gap);
    guard_free(g, n + gap);
    guard_free_front(f, n + 3);
  }
}

static void suite_detect(void) {
  static const struct {
    const char *s;
    size_t n, bom;
    unsigned form;
  } boms[] = {
      {"\xEF\xBB\xBFx", 4, 3, UTFX_DETECT_UTF8},     {"\xFF\xFEx\0", 4, 2, UTFX_DETECT_UTF16LE},
      {"\xFE\xFF\0x", 4, 2, UTFX_DETECT_UTF16BE},    {"\xFF\xFE\0\0", 4, 4, UTFX_DETECT_UTF32LE},
      {"\0\0\xFE\xFF", 4, 4, UTFX_DETECT_UTF32BE},   {"\xFF\xFE\0", 3, 2, UTFX_DETECT_UTF16LE},
      {"\xEF\xBB", 2, 0, 0},                          {"abc", 3, 0, 0},
  };
  static unsigned char text[20000];
  static const unsigned forms[] = {UTFX_DETECT_UTF8, UTFX_DETECT_UTF16LE, UTFX_DETECT_UTF16BE,
                                   UTFX_DETECT_UTF32LE, UTFX_DETECT_UTF32BE};
  test_rng r;
  size_t k, t;
  for (k = 0; k < sizeof boms / sizeof boms[0]; k++) {
    unsigned form = 99;
    size_t len = utfx_detect_bom(boms[k].s, boms[k].n, &form);
    CHECK(len == boms[k].bom && form == boms[k].form, "bom %zu: %zu %#x", k, len, form);
    if (boms[k].bom) CHECK(utfx_detect_encoding(boms[k].s, boms[k].n) == boms[k].form, "guess %zu", k);
  }
  CHECK(utfx_detect_bom(NULL, 0, NULL) == 0, "bom of nothing");
  CHECK(utfx_detect_encoding(NULL, 0) == UTFX_DETECT_UTF8, "empty is UTF-8");
  CHECK(utfx_detect_encoding("h\0i\0\xE9\0", 6) == UTFX_DETECT_UTF16LE, "UTF-16LE hié");
  CHECK(utfx_detect_encoding("\0h\0i\0\xE9", 6) == UTFX_DETECT_UTF16BE, "UTF-16BE hié");
  CHECK(utfx_detect_encoding("h\0\0\0\xE9\0\0\0", 8) == UTFX_DETECT_UTF32LE, "UTF-32LE hé");
  CHECK(utfx_detect_encoding("\xFF\xFF", 2) == UTFX_DETECT_UTF16LE, "FF FF: U+FFFF, LE on a tie");
  CHECK(utfx_detect_encoding("\x80", 1) == 0, "80: none");
  rng_seed(&r, 5);
  for (t = 0; t < 400; t++) {
    unsigned form = forms[t % 5];
    size_t cps = t < 350 ? rng_below(&r, 80) : 1000 + rng_below(&r, 4000), n;
    if (!test_keep(t, 8)) continue;
    n = make_text(text, cps, form, &r);
    check_detect(text, n, "text", t);
    if (t % 5 == 0 && n) { /* plus one random byte somewhere */
      text[rng_below(&r, n)] = (unsigned char)rng_next(&r);
      check_detect(text, n, "text+byte", t);
    }
    {
      unsigned guess = utfx_detect_encoding((const char *)text, n);
      unsigned set = ref_encodings(text, n);
      CHECK(guess == 0 ? set == 0 : utfx_detect_bom((const char *)text, n, NULL) || (guess & set),
            "guess %zu: %#x of %#x", t, guess, set);
    }
  }
  /* Leading ASCII (detect_encodings scans it once, then the rest): every
   * parity of its length, short and past the kernels' long paths, then text
   * of each form or one byte that is not ASCII. */
  for (t = 0; t < 120; t++) {
    size_t lead = t < 80 ? rng_below(&r, 300) : 4000 + rng_below(&r, 9000), n, j;
    if (!test_keep(t, 8)) continue;
    for (j = 0; j < lead; j++) text[j] = (unsigned char)rng_below(&r, 0x80);
    n = lead + (t % 6 == 5 ? 0 : make_text(text + lead, rng_below(&r, 60), forms[t % 5], &r));
    if (t % 7 == 3 && n) text[n - 1 - rng_below(&r, n < 64 ? n : 64)] |= 0x80;
    check_detect(text, n, "ascii+text", t);
  }
  tap_group("detect_bom / detect_encodings / detect_encoding: BOMs, text of each form, alignments");
}

int main(void) {
  tap_for_each_impl(suite_known_answers);
  tap_for_each_impl(suite_utf16_scans);
  guards_alloc();
  tap_for_each_impl(suite_utf16_utf32_errors);
  tap_for_each_impl(suite_detect);
  tap_for_each_impl(suite_utf8_errors);
  guards_free();
  suite_trim_partial(); /* no kernel: once */
  return tap_done();
}
