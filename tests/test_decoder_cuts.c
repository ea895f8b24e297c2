/* The streaming decoder cut every way, against Node's StringDecoder.
 *
 * Short inputs per encoding (UTF-8: one to three pieces among valid, doomed
 * and unfinished sequences, up to 8 bytes; UTF-16LE: up to three units among
 * ASCII, high and low surrogates, with or without an odd byte before and
 * after, which moves the unit grid; the other encodings: every length 0..7)
 * are cut into chunks in every possible way (2^(n-1) chunkings of n bytes).
 * One node process (tests/oracle/decoder_oracle.js) records what each
 * write() and end() returns. Then, on every kernel tier, in both output
 * forms, for every capacity 0..8: each write (and end) is called with that
 * capacity and resumed at src + read after DST_FULL (a call that cannot
 * progress below 4 units is resumed with 4: "a cap of 4 always progresses")
 * until OK, and
 *   - what the calls of one write produce together equals Node's write();
 *   - every DST_FULL cut is at a character boundary: never between a high
 *     surrogate and the low one that follows it in that write's output
 *     (UTF-16 form), and each call's output is whole UTF-8 characters (UTF-8
 *     form);
 *   - nothing after dst + written is touched (canary).
 * Without node the test fails. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "support/expect.h"
#include "support/node_decoder.h"
#include "tap.h"

#define MAX_INPUT 8
#define MAX_CAP 8

struct encoding {
  utfx_encoding enc;
  const char *name;
  size_t first_case, cases; /* its cases' range in the case list */
};

static struct encoding encodings[] = {
    {UTFX_UTF8, "utf8", 0, 0},     {UTFX_UTF16LE, "utf16le", 0, 0}, {UTFX_LATIN1, "latin1", 0, 0},
    {UTFX_ASCII, "ascii", 0, 0},   {UTFX_BASE64, "base64", 0, 0},   {UTFX_BASE64URL, "base64url", 0, 0},
    {UTFX_HEX, "hex", 0, 0}};
#define ENCODINGS (sizeof encodings / sizeof encodings[0])

/* ------------------------------------------------------------ the inputs */

static bytes cases, results;
static size_t case_count;

/* Every chunking of in[0..n) as one case each. */
static void add_chunkings(utfx_encoding enc, const unsigned char *in, size_t n) {
  unsigned long mask, masks = n ? 1ul << (n - 1) : 1;
  for (mask = 0; mask < masks; mask++) {
    size_t start = 0, i, k = n ? 1 : 0;
    unsigned char e = (unsigned char)enc;
    for (i = 1; i < n; i++) k += mask >> (i - 1) & 1;
    bytes_put(&cases, &e, 1);
    bytes_put_u32(&cases, (uint32_t)k);
    for (i = 1; i <= n; i++)
      if (i == n || (mask >> (i - 1) & 1)) {
        bytes_put_u32(&cases, (uint32_t)(i - start));
        bytes_put(&cases, in + start, i - start);
        start = i;
      }
    case_count++;
  }
}

static void utf8_inputs(void) {
  static const struct {
    size_t n;
    unsigned char b[4];
  } pieces[] = {{1, {0x61}},         {2, {0xC3, 0xA9}},       {3, {0xE2, 0x82, 0xAC}},
                {4, {0xF0, 0x9F, 0x98, 0x80}}, {2, {0xE0, 0x80}}, {3, {0xED, 0xA0, 0x80}},
                {3, {0xF0, 0x9F, 0x98}}, {1, {0x80}}, {1, {0xC0}}, {1, {0xF5}}};
  const size_t np = sizeof pieces / sizeof pieces[0];
  size_t a, b, c, count;
  unsigned char in[MAX_INPUT * 2];
  add_chunkings(UTFX_UTF8, in, 0);
  for (count = 1; count <= 3; count++)
    for (a = 0; a < np; a++)
      for (b = 0; b < (count > 1 ? np : 1); b++)
        for (c = 0; c < (count > 2 ? np : 1); c++) {
          size_t n = 0, idx[3], j;
          idx[0] = a, idx[1] = b, idx[2] = c;
          for (j = 0; j < count; j++) {
            memcpy(in + n, pieces[idx[j]].b, pieces[idx[j]].n);
            n += pieces[idx[j]].n;
          }
          if (n <= MAX_INPUT) add_chunkings(UTFX_UTF8, in, n);
        }
}

static void utf16_inputs(void) {
  static const uint16_t units[] = {0x0061, 0xD83D, 0xDE00, 0xDB61, 0xDF61};
  static const int edge[] = {-1, 0x61, 0xD8}; /* no byte, or this odd byte */
  const size_t nu = sizeof units / sizeof units[0];
  size_t count, a, b, c, pre, post;
  unsigned char in[MAX_INPUT * 2];
  for (count = 0; count <= 3; count++)
    for (a = 0; a < (count > 0 ? nu : 1); a++)
      for (b = 0; b < (count > 1 ? nu : 1); b++)
        for (c = 0; c < (count > 2 ? nu : 1); c++)
          for (pre = 0; pre < 3; pre++)
            for (post = 0; post < 3; post++) {
              size_t n = 0, idx[3], j;
              if (count == 3 && pre && post) continue; /* 8 bytes at most */
              idx[0] = a, idx[1] = b, idx[2] = c;
              if (edge[pre] >= 0) in[n++] = (unsigned char)edge[pre];
              for (j = 0; j < count; j++) {
                in[n++] = (unsigned char)units[idx[j]];
                in[n++] = (unsigned char)(units[idx[j]] >> 8);
              }
              if (edge[post] >= 0) in[n++] = (unsigned char)(edge[post] == 0xD8 ? 0xDC : 0x41);
              add_chunkings(UTFX_UTF16LE, in, n);
            }
}

static void byte_inputs(utfx_encoding enc) {
  static const unsigned char pool[] = {0x41, 0xE9, 0xFF, 0x80, 0x00, 0x7F, 0xC3};
  unsigned char in[MAX_INPUT];
  size_t n, i;
  for (n = 0; n < MAX_INPUT; n++) {
    for (i = 0; i < n; i++) in[i] = pool[(i * 3 + n) % sizeof pool];
    add_chunkings(enc, in, n);
  }
}

static void generate(void) {
  size_t e;
  for (e = 0; e < ENCODINGS; e++) {
    encodings[e].first_case = case_count;
    if (encodings[e].enc == UTFX_UTF8)
      utf8_inputs();
    else if (encodings[e].enc == UTFX_UTF16LE)
      utf16_inputs();
    else
      byte_inputs(encodings[e].enc);
    encodings[e].cases = case_count - encodings[e].first_case;
  }
}

/* ------------------------------------------------------------ the replay */

/* A case as pointers into the case and result files. */
struct chunked {
  utfx_encoding enc;
  size_t k;
  const unsigned char *chunk[2 * MAX_INPUT + 2];
  size_t len[2 * MAX_INPUT + 2];
  const unsigned char *out16[2 * MAX_INPUT + 3], *out8[2 * MAX_INPUT + 3];
  size_t n16[2 * MAX_INPUT + 3], n8[2 * MAX_INPUT + 3];
};

static const unsigned char *parse(const unsigned char *c, const unsigned char **res,
                                  struct chunked *x) {
  size_t j;
  x->enc = (utfx_encoding)c[0];
  x->k = bytes_get_u32(c + 1);
  c += 5;
  for (j = 0; j < x->k; j++) {
    x->len[j] = bytes_get_u32(c);
    x->chunk[j] = c + 4;
    c += 4 + x->len[j];
  }
  for (j = 0; j <= x->k; j++) {
    x->n16[j] = bytes_get_u32(*res);
    x->out16[j] = *res + 4;
    *res += 4 + 2 * x->n16[j];
    x->n8[j] = bytes_get_u32(*res);
    x->out8[j] = *res + 4;
    *res += 4 + x->n8[j];
  }
  return c;
}

static unsigned long runs, calls;

/* Node's UTF-16 unit j of a result (little-endian in the file). */
static uint16_t node_unit(const unsigned char *p, size_t j) {
  return (uint16_t)(p[2 * j] | p[2 * j + 1] << 8);
}

/* Replays one case with capacity cap in one form; false on a failure. */
static int replay(const struct chunked *x, int u8, size_t cap, size_t index, const char *name) {
  utfx_decoder d;
  size_t j;
  (void)utfx_decoder_init(&d, x->enc);
  for (j = 0; j <= x->k; j++) {
    int is_end = j == x->k;
    const unsigned char *src = is_end ? NULL : x->chunk[j];
    size_t n = is_end ? 0 : x->len[j], pos = 0, got = 0, steps = 0;
    size_t want_n = u8 ? x->n8[j] : x->n16[j];
    unsigned char out[4 * (MAX_INPUT * 4 + 8)];
    for (;;) {
      unsigned char dst[MAX_CAP + 8];
      char16_t dst16[MAX_CAP + 8];
      size_t c = cap, w;
      utfx_result r;
      int intact = 1;
      for (;;) {
        memset(dst, CANARY_BYTE, sizeof dst);
        memset(dst16, CANARY_BYTE, sizeof dst16);
        if (u8)
          r = is_end ? utfx_decoder_end_utf8(&d, (char *)dst, c)
                     : utfx_decoder_write_utf8(&d, (const char *)src + pos, n - pos,
                                               (char *)dst, c);
        else
          r = is_end ? utfx_decoder_end(&d, dst16, c)
                     : utfx_decoder_write(&d, (const char *)src + pos, n - pos, dst16, c);
        calls++;
        if (r.status == UTFX_DST_FULL && r.written == 0 && r.read == 0 && c < 4) {
          c = 4;
          continue;
        }
        break;
      }
      w = r.written;
      intact = u8 ? canary_intact(dst, w, sizeof dst)
                  : canary_intact((const unsigned char *)dst16, 2 * w, sizeof dst16);
      CHECK(r.status != UTFX_INVALID && w <= c && intact &&
                (r.status == UTFX_DST_FULL || r.read == n - pos) && r.read <= n - pos,
            "%s case %zu %s %zu (%s form) cap %zu: status %s read %zu written %zu%s", name,
            index, is_end ? "end" : "write", j, u8 ? "UTF-8" : "UTF-16", c,
            expect_status_name(r.status), r.read, w, intact ? "" : " (wrote past written)");
      CHECK(r.status != UTFX_DST_FULL || c < 4 || w > 0,
            "%s case %zu call %zu (%s form) cap %zu: DST_FULL without progress", name, index, j,
            u8 ? "UTF-8" : "UTF-16", c);
      if (got + w > want_n || w > c) {
        CHECK(0, "%s case %zu call %zu (%s form) cap %zu: more output than Node's %zu units",
              name, index, j, u8 ? "UTF-8" : "UTF-16", c, want_n);
        return 0;
      }
      if (u8) {
        memcpy(out + got, dst, w);
        if (r.status == UTFX_DST_FULL)
          CHECK(utfxi_validate_utf8_scalar((const char *)dst, w).status == UTFX_OK,
                "%s case %zu call %zu cap %zu: DST_FULL cut inside a UTF-8 character", name,
                index, j, c);
      } else {
        size_t u;
        for (u = 0; u < w; u++) {
          out[2 * (got + u)] = (unsigned char)dst16[u];
          out[2 * (got + u) + 1] = (unsigned char)(dst16[u] >> 8);
        }
        if (r.status == UTFX_DST_FULL && w > 0 && got + w < want_n) {
          uint16_t last = node_unit(x->out16[j], got + w - 1), next = node_unit(x->out16[j], got + w);
          CHECK(!((last & 0xFC00) == 0xD800 && (next & 0xFC00) == 0xDC00),
                "%s case %zu call %zu cap %zu: DST_FULL between the halves of a pair "
                "(unit %zu of the write)", name, index, j, c, got + w);
        }
      }
      got += w;
      pos += r.read;
      if (r.status == UTFX_OK) break;
      if (++steps > 4 * (want_n + n) + 8) {
        CHECK(0, "%s case %zu call %zu cap %zu: no end to DST_FULL", name, index, j, c);
        return 0;
      }
    }
    if (got != want_n ||
        memcmp(out, u8 ? x->out8[j] : x->out16[j], u8 ? want_n : 2 * want_n) != 0) {
      CHECK(0, "%s case %zu %s %zu (%s form) cap %zu: %zu units, Node's %s returned %zu", name,
            index, is_end ? "end" : "write", j, u8 ? "UTF-8" : "UTF-16", cap, got,
            is_end ? "end()" : "write()", want_n);
      return 0;
    }
  }
  runs++;
  return 1;
}

static void suite(void) {
  const unsigned char *c = cases.p, *res = results.p;
  size_t e;
  for (e = 0; e < ENCODINGS; e++) {
    size_t i;
    char name[200];
    runs = calls = 0;
    for (i = 0; i < encodings[e].cases; i++) {
      struct chunked x;
      size_t cap;
      int u8;
      c = parse(c, &res, &x);
      for (u8 = 0; u8 < 2; u8++)
        for (cap = 0; cap <= MAX_CAP; cap++)
          if (!replay(&x, u8, cap, i, encodings[e].name)) cap = MAX_CAP; /* one report a case */
    }
    snprintf(name, sizeof name,
             "%s: %zu chunkings (every cut of every input), caps 0..%d, both forms, equal "
             "Node's StringDecoder and cut at character boundaries (%lu runs, %lu calls)",
             encodings[e].name, encodings[e].cases, MAX_CAP, runs, calls);
    tap_group(name);
  }
}

int main(void) {
  const char *why;
  generate();
  why = node_decoder_oracle(&cases, &results);
  if (why)
    tap_fail("node oracle", why);
  else
    tap_for_each_impl(suite);
  free(cases.p);
  free(results.p);
  return tap_done();
}
