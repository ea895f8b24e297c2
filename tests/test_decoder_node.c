/* Differential test of the streaming decoder against Node.js itself.
 *
 * For each of Node's StringDecoder encodings, CASES_PER_ENCODING random
 * inputs (UTF-8 biased toward multi-byte and ill-formed sequences, UTF-16LE
 * toward surrogates and odd lengths) are cut at random points into random
 * chunk counts (empty and 1-byte chunks included). One node process
 * (tests/oracle/decoder_oracle.js) runs every case through
 * require('string_decoder') and records what each write() and end()
 * returned; then, on every kernel tier, every utfx_decoder_write /
 * utfx_decoder_end result must equal Node's exactly, in the UTF-16 form and
 * in the UTF-8 form (Buffer.from(result, 'utf8') with the held-high-surrogate
 * rule of utfx.h). Each result must also fit the bound max_length gave.
 * Without node the test fails: it must not pass silently. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support/emulated.h"
#include "support/guard.h"
#include "support/node_decoder.h"
#include "support/put_utf8.h"
#include "tap.h"

#define CASES_PER_ENCODING 100000
/* A quarter of them under AVX-512 emulation (support/emulated.h). */
static int cases_per_encoding(void) { return CASES_PER_ENCODING / (int)test_share(4); }
#define MAX_CASE 320

static const utfx_encoding encodings[] = {UTFX_UTF8,  UTFX_UTF16LE,   UTFX_LATIN1, UTFX_ASCII,
                                          UTFX_BASE64, UTFX_BASE64URL, UTFX_HEX};
static const char *const encoding_names[] = {"utf8",   "utf16le",   "latin1", "ascii",
                                             "base64", "base64url", "hex"};
#define ENCODING_COUNT (sizeof encodings / sizeof encodings[0])

/* ------------------------------------------------------------- generators */

static size_t case_length(test_rng *r) {
  uint64_t k = rng_below(r, 100);
  if (k < 70) return (size_t)rng_below(r, 25);
  if (k < 95) return (size_t)rng_below(r, 65);
  return (size_t)rng_below(r, MAX_CASE - 8);
}

static uint32_t random_scalar(test_rng *r, int bytes_wanted) {
  uint32_t c;
  switch (bytes_wanted) {
    case 2:
      return 0x80 + (uint32_t)rng_below(r, 0x800 - 0x80);
    case 3:
      do c = 0x800 + (uint32_t)rng_below(r, 0x10000 - 0x800);
      while (c >= 0xD800 && c <= 0xDFFF);
      return c;
    default:
      return 0x10000 + (uint32_t)rng_below(r, 0x110000 - 0x10000);
  }
}

/* One UTF-8 "piece": valid characters, truncated ones, stray continuation
 * bytes, bytes Node takes for lead bytes although they never start a valid
 * character, and doomed starts. */
static size_t utf8_piece(test_rng *r, unsigned char *b) {
  uint64_t k = rng_below(r, 100);
  size_t n, j;
  static const unsigned char bad_leads[] = {0xC0, 0xC1, 0xF5, 0xF6, 0xF7, 0xF8, 0xFB, 0xFF};
  if (k < 25) {
    b[0] = (unsigned char)rng_below(r, 0x80);
    return 1;
  }
  if (k < 65) return put_utf8(b, random_scalar(r, 2 + (int)rng_below(r, 3)));
  if (k < 77) { /* a valid character cut short */
    n = put_utf8(b, random_scalar(r, 2 + (int)rng_below(r, 3)));
    return 1 + (size_t)rng_below(r, n - 1);
  }
  if (k < 83) {
    b[0] = (unsigned char)(0x80 + rng_below(r, 0x40));
    return 1;
  }
  if (k < 90) {
    b[0] = bad_leads[rng_below(r, sizeof bad_leads)];
    n = 1 + (size_t)rng_below(r, 4);
    for (j = 1; j < n; j++) b[j] = (unsigned char)(0x80 + rng_below(r, 0x40));
    return n;
  }
  if (k < 96) { /* E0 80-9F, ED A0-BF, F0 80-8F, F4 90-BF: doomed second bytes */
    static const unsigned char leads[] = {0xE0, 0xED, 0xF0, 0xF4};
    static const unsigned char lo[] = {0x80, 0xA0, 0x80, 0x90};
    static const unsigned char span[] = {0x20, 0x20, 0x10, 0x30};
    size_t which = (size_t)rng_below(r, 4);
    b[0] = leads[which];
    b[1] = (unsigned char)(lo[which] + rng_below(r, span[which]));
    n = 2 + (size_t)rng_below(r, 3);
    for (j = 2; j < n; j++) b[j] = (unsigned char)(0x80 + rng_below(r, 0x40));
    return n;
  }
  b[0] = (unsigned char)rng_next(r);
  return 1;
}

static size_t utf16_piece(test_rng *r, unsigned char *b) {
  uint64_t k = rng_below(r, 100);
  uint32_t u;
  if (k < 8) {
    b[0] = (unsigned char)rng_next(r); /* shifts the unit grid */
    return 1;
  }
  if (k < 30)
    u = (uint32_t)rng_below(r, 0x80);
  else if (k < 55)
    u = random_scalar(r, 3);
  else if (k < 65)
    u = 0xD800 + (uint32_t)rng_below(r, 0x400);
  else if (k < 73)
    u = 0xDC00 + (uint32_t)rng_below(r, 0x400);
  else if (k < 90) {
    uint32_t c = random_scalar(r, 4) - 0x10000, hi = 0xD800 + (c >> 10), lo = 0xDC00 + (c & 0x3FF);
    b[0] = (unsigned char)hi;
    b[1] = (unsigned char)(hi >> 8);
    b[2] = (unsigned char)lo;
    b[3] = (unsigned char)(lo >> 8);
    return 4;
  } else
    u = (uint32_t)rng_below(r, 0x10000);
  b[0] = (unsigned char)u;
  b[1] = (unsigned char)(u >> 8);
  return 2;
}

static size_t make_input(test_rng *r, utfx_encoding enc, unsigned char *b) {
  size_t want = case_length(r), n = 0;
  while (n < want) {
    if (enc == UTFX_UTF8)
      n += utf8_piece(r, b + n);
    else if (enc == UTFX_UTF16LE)
      n += utf16_piece(r, b + n);
    else if (enc == UTFX_ASCII && rng_below(r, 2))
      b[n++] = (unsigned char)rng_below(r, 0x80);
    else
      b[n++] = (unsigned char)rng_next(r);
  }
  return n;
}

static int cmp_size(const void *a, const void *b) {
  size_t x = *(const size_t *)a, y = *(const size_t *)b;
  return x < y ? -1 : x > y;
}

/* Cut points 0 = c[0] <= c[1] <= ... <= c[k] = n; equal neighbours are
 * empty chunks. Returns the chunk count k. */
static size_t make_cuts(test_rng *r, size_t n, size_t *c) {
  size_t k, j;
  uint64_t mode = rng_below(r, 10);
  if (mode == 0 && n <= 64) { /* 1-byte chunks, with a few empty ones */
    k = 0;
    c[0] = 0;
    for (j = 1; j <= n; j++) {
      if (rng_below(r, 8) == 0) c[++k] = j - 1;
      c[++k] = j;
    }
    if (k == 0) c[++k] = 0;
    return k;
  }
  k = 1 + (size_t)rng_below(r, n + 3 < 12 ? n + 3 : 12);
  c[0] = 0;
  c[k] = n;
  for (j = 1; j < k; j++) c[j] = (size_t)rng_below(r, n + 1);
  qsort(c + 1, k - 1, sizeof *c, cmp_size);
  return k;
}

/* --------------------------------------------------------------- the run */

static bytes cases, results;
static size_t case_offsets[ENCODING_COUNT + 1];

static void generate(void) {
  test_rng r;
  size_t e, i, j;
  unsigned char in[MAX_CASE + 8];
  size_t cuts[2 * MAX_CASE + 16];
  rng_seed(&r, 0xDEC0DE5EEDull);
  for (e = 0; e < ENCODING_COUNT; e++) {
    case_offsets[e] = cases.n;
    for (i = 0; i < (size_t)cases_per_encoding(); i++) {
      size_t n = make_input(&r, encodings[e], in), k = make_cuts(&r, n, cuts);
      unsigned char enc = (unsigned char)encodings[e];
      bytes_put(&cases, &enc, 1);
      bytes_put_u32(&cases, (uint32_t)k);
      for (j = 0; j < k; j++) {
        bytes_put_u32(&cases, (uint32_t)(cuts[j + 1] - cuts[j]));
        bytes_put(&cases, in + cuts[j], cuts[j + 1] - cuts[j]);
      }
    }
  }
  case_offsets[ENCODING_COUNT] = cases.n;
}

static int run_node(void) {
  const char *why = node_decoder_oracle(&cases, &results);
  if (why) tap_fail("node oracle", why);
  return why == NULL;
}

/* Replays every case of one encoding through one output form and compares. */
static void compare(size_t e, int utf8_form) {
  const unsigned char *c = cases.p + case_offsets[e], *end = cases.p + case_offsets[e + 1];
  const unsigned char *res = results.p;
  static char16_t out16[4 * MAX_CASE + 16];
  static char out8[8 * MAX_CASE + 16];
  size_t index = 0, e2, skip;
  /* Find this encoding's first result record: skip the results of the
   * encodings before it (each case has k + 1 results of two parts). */
  {
    const unsigned char *cc = cases.p;
    for (e2 = 0; e2 < e; e2++) {
      while (cc < cases.p + case_offsets[e2 + 1]) {
        uint32_t k = bytes_get_u32(cc + 1), j;
        cc += 5;
        for (j = 0; j < k; j++) cc += 4 + bytes_get_u32(cc);
        for (j = 0; j <= k; j++) {
          skip = 4 + 2 * (size_t)bytes_get_u32(res);
          res += skip;
          res += 4 + bytes_get_u32(res);
        }
      }
    }
  }
  while (c < end) {
    utfx_decoder d;
    uint32_t k = bytes_get_u32(c + 1), j;
    int init = utfx_decoder_init(&d, (utfx_encoding)c[0]);
    CHECK(init == 0, "init %s", encoding_names[e]);
    c += 5;
    for (j = 0; j <= k; j++) {
      const unsigned char *chunk = c + 4;
      size_t len = j < k ? bytes_get_u32(c) : 0, n16 = bytes_get_u32(res), n8, bound;
      const unsigned char *exp16 = res + 4, *exp8;
      utfx_result r;
      n8 = bytes_get_u32(exp16 + 2 * n16);
      exp8 = exp16 + 2 * n16 + 4;
      res = exp8 + n8;
      if (j < k) c += 4 + len;
      if (!utf8_form) {
        size_t u, same = 1;
        bound = utfx_decoder_max_length(&d, len);
        r = j < k ? utfx_decoder_write(&d, (const char *)chunk, len, out16, sizeof out16 / 2)
                  : utfx_decoder_end(&d, out16, sizeof out16 / 2);
        for (u = 0; same && u < n16 && u < r.written; u++)
          same = out16[u] == (char16_t)(exp16[2 * u] | exp16[2 * u + 1] << 8);
        CHECK(r.status == UTFX_OK && r.read == len && r.written == n16 && same,
              "%s case %zu %s %u: status %d read %zu written %zu, node wrote %zu units",
              encoding_names[e], index, j < k ? "write" : "end", j, (int)r.status, r.read,
              r.written, n16);
      } else {
        bound = utfx_decoder_max_length_utf8(&d, len);
        r = j < k ? utfx_decoder_write_utf8(&d, (const char *)chunk, len, out8, sizeof out8)
                  : utfx_decoder_end_utf8(&d, out8, sizeof out8);
        CHECK(r.status == UTFX_OK && r.read == len && r.written == n8 &&
                  memcmp(out8, exp8, n8) == 0,
              "%s case %zu %s %u (UTF-8 form): status %d read %zu written %zu, node %zu bytes",
              encoding_names[e], index, j < k ? "write" : "end", j, (int)r.status, r.read,
              r.written, n8);
      }
      CHECK(r.written <= bound, "%s case %zu: wrote %zu > max_length %zu", encoding_names[e],
            index, r.written, bound);
    }
    index++;
  }
}

static void suite(void) {
  size_t e;
  char name[128];
  for (e = 0; e < ENCODING_COUNT; e++) {
    compare(e, 0);
    snprintf(name, sizeof name, "%s: %d random chunkings equal Node's StringDecoder (UTF-16)",
             encoding_names[e], cases_per_encoding());
    tap_group(name);
    compare(e, 1);
    snprintf(name, sizeof name, "%s: %d random chunkings equal Node's output as UTF-8",
             encoding_names[e], cases_per_encoding());
    tap_group(name);
  }
}

int main(void) {
  generate();
  if (run_node()) tap_for_each_impl(suite);
  free(cases.p);
  free(results.p);
  return tap_done();
}
