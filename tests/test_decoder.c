/* The streaming decoder (utfx_decoder_*), without node (test_decoder_node.c
 * compares with Node itself):
 *   - known answers, each checked against node 20 by hand when written;
 *   - exhaustive splits: every 1- and 2-byte sequence and 3- and 4-byte
 *     sequences built from a representative byte set, in an ASCII and a
 *     multi-byte context, cut into every 2- and 3-chunk split and into 1-byte
 *     chunks: the writes plus end must concatenate to the one-shot REPLACE
 *     conversion (scalar reference kernel), in both output forms;
 *   - DST_FULL continuation at every cap, for writes and end;
 *   - guard pages right after / before src and after dst;
 *   - reuse after end, refused encodings, max_length always suffices. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "support/emulated.h"
#include "support/guard.h"
#include "tap.h"

#define MAXN 512

/* ---------------------------------------------------------- known answers */

/* Hex strings: "E0 80" for bytes, "FFFD 0041" for UTF-16 units. */
static size_t parse_hex(const char *s, unsigned *v, size_t max) {
  size_t n = 0;
  while (*s && n < max) {
    char *end;
    unsigned long x = strtoul(s, &end, 16);
    if (end == s) break;
    v[n++] = (unsigned)x;
    s = end;
  }
  return n;
}

struct known {
  utfx_encoding enc;
  const char *chunks[5]; /* NULL ends the list */
  const char *outs[6];   /* one per write, then end */
};

/* Each row was run through require('string_decoder') of node v20. */
static const struct known known[] = {
    {UTFX_UTF8, {"E0 80", "", NULL}, {"", "", "FFFD FFFD"}},
    {UTFX_UTF8, {"E0 80", "41", NULL}, {"", "FFFD FFFD 0041", ""}},
    {UTFX_UTF8, {"C0", "80", NULL}, {"", "FFFD FFFD", ""}},
    {UTFX_UTF8, {"F5", "80 80", "80 41", NULL}, {"", "", "FFFD FFFD FFFD FFFD 0041", ""}},
    {UTFX_UTF8, {"F0 9F", NULL}, {"", "FFFD"}},
    {UTFX_UTF8, {"F8", NULL}, {"FFFD", ""}},
    {UTFX_UTF8, {"80 80", NULL}, {"FFFD FFFD", ""}},
    {UTFX_UTF8, {"41 80 80 80", NULL}, {"0041 FFFD FFFD FFFD", ""}},
    {UTFX_UTF8, {"E2", "", "82", "41", NULL}, {"", "", "", "FFFD 0041", ""}},
    {UTFX_UTF8, {"F0 9F 98", "80 41", NULL}, {"", "D83D DE00 0041", ""}},
    {UTFX_UTF8, {"E2 82 AC E2", "82", "AC", NULL}, {"20AC", "", "20AC", ""}},
    {UTFX_ASCII, {"E2 41 FF", NULL}, {"0062 0041 007F", ""}},
    {UTFX_UTF16LE, {"3D D8 3D", "DE", NULL}, {"D83D", "DE3D", ""}},
    {UTFX_UTF16LE, {"3D D8", "3D", "DE", NULL}, {"", "", "D83D DE3D", ""}},
    {UTFX_UTF16LE, {"3D D8 3D", NULL}, {"D83D", ""}},
    {UTFX_UTF16LE, {"3D D8", "41 00", NULL}, {"", "D83D 0041", ""}},
    {UTFX_UTF16LE, {"3D D8", NULL}, {"", "D83D"}},
    {UTFX_BASE64, {"01 02 03 04", NULL}, {"0041 0051 0049 0044", "0042 0041 003D 003D"}},
    {UTFX_BASE64URL,
     {"01 02 03 04 FF", NULL},
     {"0041 0051 0049 0044", "0042 0050 0038"}},
    {UTFX_BASE64,
     {"01", "02", "03", "04 05", NULL},
     {"", "", "0041 0051 0049 0044", "", "0042 0041 0055 003D"}},
    {UTFX_HEX, {"01 AB", NULL}, {"0030 0031 0061 0062", ""}},
    {UTFX_LATIN1, {"E9", NULL}, {"00E9", ""}},
};

static void test_known(void) {
  size_t i, j;
  for (i = 0; i < sizeof known / sizeof known[0]; i++) {
    utfx_decoder d;
    unsigned v[64];
    char16_t out[64];
    CHECK(utfx_decoder_init(&d, known[i].enc) == 0, "init row %zu", i);
    for (j = 0; j < 6; j++) {
      size_t n, m = parse_hex(known[i].outs[j], v, 64), u, same;
      unsigned char in[64];
      utfx_result r;
      int is_end = known[i].chunks[j] == NULL;
      if (!is_end) {
        unsigned b[64];
        n = parse_hex(known[i].chunks[j], b, 64);
        for (u = 0; u < n; u++) in[u] = (unsigned char)b[u];
        r = utfx_decoder_write(&d, (const char *)in, n, out, 64);
        CHECK(r.status == UTFX_OK && r.read == n, "row %zu write %zu status", i, j);
      } else {
        r = utfx_decoder_end(&d, out, 64);
        CHECK(r.status == UTFX_OK, "row %zu end status", i);
      }
      same = r.written == m;
      for (u = 0; same && u < m; u++) same = out[u] == v[u];
      CHECK(same, "row %zu result %zu: wrote %zu units, expected %zu", i, j, r.written, m);
      if (is_end) break;
    }
  }
  tap_group("known answers (verified with node v20)");
}

/* ------------------------------------------------ generic decode helpers */

/* Output of one decoder call in either form, into a byte buffer. */
static utfx_result call(utfx_decoder *d, int u8, const unsigned char *src, size_t n, int is_end,
                        void *dst, size_t cap) {
  if (u8)
    return is_end ? utfx_decoder_end_utf8(d, dst, cap)
                  : utfx_decoder_write_utf8(d, (const char *)src, n, dst, cap);
  return is_end ? utfx_decoder_end(d, dst, cap)
                : utfx_decoder_write(d, (const char *)src, n, dst, cap);
}

static size_t unit_size(int u8) { return u8 ? 1 : 2; }

/* Decodes `in` cut at cuts[0..k] (cuts[0] = 0, cuts[k] = n) with ample room;
 * appends everything to out (bytes) and returns its size. Checks status,
 * read and max_length on the way. */
static size_t decode_all(utfx_encoding enc, int u8, const unsigned char *in, const size_t *cuts,
                         size_t k, unsigned char *out) {
  utfx_decoder d;
  size_t j, total = 0;
  (void)utfx_decoder_init(&d, enc);
  for (j = 0; j <= k; j++) {
    size_t len = j < k ? cuts[j + 1] - cuts[j] : 0;
    size_t bound = u8 ? utfx_decoder_max_length_utf8(&d, len) : utfx_decoder_max_length(&d, len);
    utfx_result r = call(&d, u8, in + (j < k ? cuts[j] : 0), len, j == k, out + total,
                         (4 * MAXN) / unit_size(u8));
    CHECK(r.status == UTFX_OK && r.read == len, "enc %d call %zu: status %d read %zu", (int)enc,
          j, (int)r.status, r.read);
    CHECK(r.written <= bound, "enc %d call %zu: wrote %zu > max_length %zu", (int)enc, j,
          r.written, bound);
    total += r.written * unit_size(u8);
  }
  return total;
}

/* ----------------------------------------------------- exhaustive splits */

static _Alignas(16) unsigned char expect16[4 * MAXN], expect8[4 * MAXN], got[4 * MAXN];

/* The one-shot REPLACE conversion by the scalar reference kernels, in host
 * order like the decoder's UTF-16 form (UTF-16BE on a big-endian host). */
static void one_shot(const unsigned char *in, size_t n, size_t *n16, size_t *n8) {
  const uint16_t one = 1;
  int le = *(const unsigned char *)&one == 1;
  char16_t *e16 = (char16_t *)expect16;
  utfx_result r = (le ? utfxi_convert_utf8_to_utf16le_scalar
                      : utfxi_convert_utf8_to_utf16be_scalar)((const char *)in, n, e16, MAXN,
                                                              UTFX_REPLACE);
  utfx_result r8 = (le ? utfxi_convert_utf16le_to_utf8_scalar
                       : utfxi_convert_utf16be_to_utf8_scalar)(e16, r.written, (char *)expect8,
                                                               4 * MAXN, UTFX_REPLACE);
  *n16 = r.written * 2;
  *n8 = r8.written;
}

static unsigned long split_count;

static void check_splits(const unsigned char *in, size_t n) {
  size_t n16, n8, a, b, cuts[MAXN + 2], k;
  int u8;
  one_shot(in, n, &n16, &n8);
  for (u8 = 0; u8 < 2; u8++) {
    const unsigned char *want = u8 ? expect8 : expect16;
    size_t want_n = u8 ? n8 : n16, got_n;
    for (a = 0; a <= n; a++)
      for (b = a; b <= n; b++) { /* chunks [0,a) [a,b) [b,n); a == b: an empty chunk */
        cuts[0] = 0;
        cuts[1] = a;
        cuts[2] = b;
        cuts[3] = n;
        got_n = decode_all(UTFX_UTF8, u8, in, cuts, 3, got);
        CHECK(got_n == want_n && memcmp(got, want, want_n) == 0,
              "split %zu/%zu of %zu bytes (form %s) differs from the one-shot conversion", a, b,
              n, u8 ? "UTF-8" : "UTF-16");
        split_count++;
      }
    for (k = 0; k <= n; k++) cuts[k] = k; /* 1-byte chunks */
    got_n = decode_all(UTFX_UTF8, u8, in, cuts, n, got);
    CHECK(got_n == want_n && memcmp(got, want, want_n) == 0, "1-byte chunks of %zu bytes", n);
  }
}

static void in_contexts(const unsigned char *seq, size_t len) {
  static const char *const before[] = {"a", "\xC3\xA9"}, *const after[] = {"b", "\xE2\x82\xAC"};
  static size_t calls; /* under AVX-512 emulation a quarter of the sequences */
  unsigned char in[16];
  size_t c;
  if (!test_keep(calls++, 4)) return;
  for (c = 0; c < 2; c++) {
    size_t lb = strlen(before[c]), la = strlen(after[c]);
    memcpy(in, before[c], lb);
    memcpy(in + lb, seq, len);
    memcpy(in + lb + len, after[c], la);
    check_splits(in, lb + len + la);
  }
}

static void test_exhaustive_splits(void) {
  /* Bytes that matter to a UTF-8 decoder: ASCII, every continuation range
   * edge, the lead bytes of every class. */
  static const unsigned char rep[] = {0x00, 0x41, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0,
                                      0xBF, 0xC0, 0xC2, 0xDF, 0xE0, 0xED, 0xF0, 0xF4,
                                      0xF5, 0xFF};
  static const unsigned char leads3[] = {0xC2, 0xDF, 0xE0, 0xE1, 0xED, 0xEE, 0xEF,
                                         0xF0, 0xF4, 0xC0, 0xF5, 0x80};
  static const unsigned char leads4[] = {0xF0, 0xF1, 0xF3, 0xF4, 0xF5, 0xF7, 0xE0, 0xED};
  size_t a, b, c, l;
  unsigned char s[4];
  split_count = 0;
  for (a = 0; a < 256; a++) { /* every 1- and 2-byte sequence */
    s[0] = (unsigned char)a;
    in_contexts(s, 1);
    if (a < 0x80) continue; /* ASCII + x is covered by the contexts */
    for (b = 0; b < 256; b += (a >= 0xC0 || (b & 0xC0) == 0x80) ? 1 : 17) {
      s[1] = (unsigned char)b;
      in_contexts(s, 2);
    }
  }
  for (l = 0; l < sizeof leads3; l++) /* 3-byte sequences */
    for (b = 0; b < sizeof rep; b++)
      for (c = 0; c < sizeof rep; c++) {
        s[0] = leads3[l];
        s[1] = rep[b];
        s[2] = rep[c];
        in_contexts(s, 3);
      }
  for (l = 0; l < sizeof leads4; l++) /* 4-byte sequences (continuations only) */
    for (a = 0; a < 6; a++)
      for (b = 0; b < 6; b++)
        for (c = 0; c < 6; c++) {
          static const unsigned char conts[] = {0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF};
          s[0] = leads4[l];
          s[1] = conts[a];
          s[2] = conts[b];
          s[3] = conts[c];
          in_contexts(s, 4);
        }
  printf("# %lu split decodes\n", split_count);
  tap_group("exhaustive 2- and 3-chunk splits of 1-4 byte UTF-8 sequences in context");
}

/* --------------------------------------------------- random inputs */

static const utfx_encoding all_encodings[] = {UTFX_UTF8,   UTFX_UTF16LE,   UTFX_LATIN1,
                                              UTFX_ASCII,  UTFX_BASE64,    UTFX_BASE64URL,
                                              UTFX_HEX};
#define ENCODINGS (sizeof all_encodings / sizeof all_encodings[0])

/* Bytes that exercise every hold rule: UTF-8 lead and continuation bytes,
 * surrogate high bytes for UTF-16LE, ASCII. */
static size_t random_input(test_rng *r, unsigned char *in, size_t max) {
  static const unsigned char pool[] = {0x41, 0x00, 0x80, 0xBF, 0xA9, 0x9F, 0xC3, 0xE2, 0xE0,
                                       0xED, 0xF0, 0xF4, 0xF5, 0xC0, 0xFF, 0xD8, 0xDB, 0xDC,
                                       0xDF, 0x3D, 0x82, 0xAC, 0x98};
  size_t n = (size_t)rng_below(r, max + 1), i;
  for (i = 0; i < n; i++)
    in[i] = rng_below(r, 3) ? pool[rng_below(r, sizeof pool)] : (unsigned char)rng_next(r);
  return n;
}

static size_t random_cuts(test_rng *r, size_t n, size_t *cuts) {
  size_t k = 1 + (size_t)rng_below(r, 6), j, t;
  cuts[0] = 0;
  cuts[k] = n;
  for (j = 1; j < k; j++) cuts[j] = (size_t)rng_below(r, n + 1);
  for (j = 1; j < k; j++) /* insertion sort */
    for (t = j; t > 1 && cuts[t - 1] > cuts[t]; t--) {
      size_t x = cuts[t];
      cuts[t] = cuts[t - 1];
      cuts[t - 1] = x;
    }
  return k;
}

/* Each call's output with ample room, for comparison (per call offsets). */
static size_t reference_calls(utfx_encoding enc, int u8, const unsigned char *in,
                              const size_t *cuts, size_t k, unsigned char *out, size_t *offs) {
  utfx_decoder d;
  size_t j, total = 0;
  (void)utfx_decoder_init(&d, enc);
  for (j = 0; j <= k; j++) {
    size_t len = j < k ? cuts[j + 1] - cuts[j] : 0;
    utfx_result r = call(&d, u8, in + (j < k ? cuts[j] : 0), len, j == k, out + total,
                         (4 * MAXN) / unit_size(u8));
    offs[j] = total;
    total += r.written * unit_size(u8);
  }
  offs[k + 1] = total;
  return total;
}

static int ends_inside_pair16(const unsigned char *p, size_t bytes, const unsigned char *next,
                              size_t next_bytes) {
  uint16_t last, first;
  if (bytes < 2 || next_bytes < 2) return 0;
  memcpy(&last, p + bytes - 2, 2);
  memcpy(&first, next, 2);
  return (last & 0xFC00) == 0xD800 && (first & 0xFC00) == 0xDC00;
}

/* Every call runs with cap units at a time: DST_FULL, then the rest
 * (src + read), until OK; a call that makes no progress is allowed only
 * below 4 units and is then retried once with 4. */
static void test_dst_full(void) {
  test_rng r;
  size_t e, t;
  static _Alignas(16) unsigned char in[MAXN], ref[4 * MAXN], acc[4 * MAXN];
  size_t cuts[16], offs[18];
  rng_seed(&r, 77);
  for (e = 0; e < ENCODINGS; e++)
    for (t = 0; t < 300; t++) {
      size_t n = random_input(&r, in, 48), k = random_cuts(&r, n, cuts);
      int u8;
      if (!test_keep(t, 4)) continue;
      for (u8 = 0; u8 < 2; u8++) {
        size_t total = reference_calls(all_encodings[e], u8, in, cuts, k, ref, offs), cap;
        size_t us = unit_size(u8), maxcap = total / us + 1;
        for (cap = 0; cap <= maxcap; cap++) {
          utfx_decoder d;
          size_t j, w = 0;
          int ok = 1;
          (void)utfx_decoder_init(&d, all_encodings[e]);
          for (j = 0; j <= k && ok; j++) {
            size_t pos = 0, len = j < k ? cuts[j + 1] - cuts[j] : 0, start = w;
            const unsigned char *src = in + (j < k ? cuts[j] : 0);
            int guard = 0;
            for (;;) {
              size_t c = cap;
              utfx_result res;
              if (w + 4 * us > sizeof acc) {
                ok = 0;
                break;
              }
              res = call(&d, u8, src + pos, len - pos, j == k, acc + w, c);
              if (res.status == UTFX_DST_FULL && res.written == 0 && res.read == 0) {
                CHECK(cap < 4, "enc %d form %d cap %zu: no progress", (int)all_encodings[e], u8,
                      cap);
                res = call(&d, u8, src + pos, len - pos, j == k, acc + w, 4);
              }
              CHECK(res.status != UTFX_INVALID && res.read <= len - pos, "status/read");
              CHECK(res.written <= (c < 4 ? 4 : c), "wrote past cap");
              if (res.status == UTFX_DST_FULL && !u8)
                CHECK(!ends_inside_pair16(acc + start, w - start + res.written * 2,
                                          ref + offs[j] + (w - start) + res.written * 2,
                                          offs[j + 1] - offs[j] - (w - start) -
                                              res.written * 2),
                      "DST_FULL split a surrogate pair");
              w += res.written * us;
              if (j < k) pos += res.read;
              if (res.status == UTFX_OK) break;
              if (++guard > 4 * MAXN) {
                ok = 0;
                break;
              }
            }
            CHECK(ok && w - start == offs[j + 1] - offs[j] &&
                      memcmp(acc + start, ref + offs[j], w - start) == 0,
                  "enc %d form %d cap %zu call %zu: continued output differs",
                  (int)all_encodings[e], u8, cap, j);
            if (w - start != offs[j + 1] - offs[j]) ok = 0;
          }
        }
      }
    }
  tap_group("DST_FULL: every cap, continuing with src + read, gives each call's output");
}

/* Chunks placed against a protected page (after, then before), and dst
 * ending exactly at a protected page with exactly the room the call needs. */
static void test_guard_pages(void) {
  test_rng r;
  size_t e, t;
  static _Alignas(16) unsigned char in[MAXN], ref[4 * MAXN];
  size_t cuts[16], offs[18];
  rng_seed(&r, 99);
  for (e = 0; e < ENCODINGS; e++)
    for (t = 0; t < 60; t++) {
      size_t n = random_input(&r, in, 40), k = random_cuts(&r, n, cuts);
      int u8, front;
      for (u8 = 0; u8 < 2; u8++)
        for (front = 0; front < 2; front++) {
          utfx_decoder d;
          size_t j, us = unit_size(u8);
          (void)reference_calls(all_encodings[e], u8, in, cuts, k, ref, offs);
          (void)utfx_decoder_init(&d, all_encodings[e]);
          for (j = 0; j <= k; j++) {
            size_t len = j < k ? cuts[j + 1] - cuts[j] : 0, need = offs[j + 1] - offs[j];
            unsigned char *src = front ? guard_alloc_front(len) : guard_alloc(len);
            unsigned char *dst = guard_alloc(need);
            utfx_result res;
            if (j < k) memcpy(src, in + cuts[j], len);
            res = call(&d, u8, src, len, j == k, dst, need / us);
            CHECK(res.status == UTFX_OK && res.written * us == need &&
                      memcmp(dst, ref + offs[j], need) == 0,
                  "enc %d guard call %zu", (int)all_encodings[e], j);
            if (front)
              guard_free_front(src, len);
            else
              guard_free(src, len);
            guard_free(dst, need);
          }
        }
    }
  /* Long single chunks of every length, so the block loops (SIMD, words)
   * run right up to the protected pages too. */
  for (e = 0; e < ENCODINGS; e++) {
    size_t n;
    for (n = 0; n <= 100; n++) {
      int u8;
      size_t cuts1[2] = {0, n}, us;
      for (t = 0; t < n; t++) in[t] = (unsigned char)rng_next(&r);
      for (u8 = 0; u8 < 2; u8++) {
        utfx_decoder d;
        size_t need;
        unsigned char *src = guard_alloc(n), *dst;
        utfx_result res;
        us = unit_size(u8);
        (void)reference_calls(all_encodings[e], u8, in, cuts1, 1, ref, offs);
        need = offs[1];
        dst = guard_alloc(need);
        memcpy(src, in, n);
        (void)utfx_decoder_init(&d, all_encodings[e]);
        res = call(&d, u8, src, n, 0, dst, need / us);
        CHECK(res.status == UTFX_OK && res.written * us == need && memcmp(dst, ref, need) == 0,
              "enc %d long chunk of %zu bytes against guard pages", (int)all_encodings[e], n);
        guard_free(src, n);
        guard_free(dst, need);
      }
    }
  }
  tap_group("guard pages after and before src, after an exact-fit dst");
}

static void test_reuse_and_refusal(void) {
  test_rng r;
  size_t e, t;
  static _Alignas(16) unsigned char in[MAXN], a[4 * MAXN], b[4 * MAXN];
  size_t cuts[16], offs[18];
  utfx_decoder d;
  char16_t out[8];
  utfx_result res;
  rng_seed(&r, 5);
  for (e = 0; e < ENCODINGS; e++)
    for (t = 0; t < 200; t++) {
      /* A fresh decoder's output vs. the same decoder after a random
       * unfinished stream and end. */
      size_t n = random_input(&r, in, 40), k = random_cuts(&r, n, cuts), j, total, w = 0;
      size_t junk = (size_t)rng_below(&r, 8);
      unsigned char noise[8];
      total = reference_calls(all_encodings[e], 0, in, cuts, k, a, offs);
      (void)utfx_decoder_init(&d, all_encodings[e]);
      for (j = 0; j < junk; j++) noise[j] = (unsigned char)(0xC0 + rng_below(&r, 0x40));
      (void)utfx_decoder_write(&d, (const char *)noise, junk, (char16_t *)b, MAXN);
      (void)utfx_decoder_end(&d, (char16_t *)b, MAXN);
      for (j = 0; j <= k; j++) {
        size_t len = j < k ? cuts[j + 1] - cuts[j] : 0;
        res = call(&d, 0, in + (j < k ? cuts[j] : 0), len, j == k, b + w, MAXN);
        w += res.written * 2;
      }
      CHECK(w == total && memcmp(a, b, total) == 0, "reuse after end, enc %d",
            (int)all_encodings[e]);
    }
  CHECK(utfx_decoder_init(&d, UTFX_UTF16BE) != 0, "utf16be refused");
  res = utfx_decoder_write(&d, "ab", 2, out, 8);
  CHECK(res.status == UTFX_INVALID && res.written == 0, "write on a refused decoder");
  res = utfx_decoder_end(&d, out, 8);
  CHECK(res.status == UTFX_INVALID, "end on a refused decoder");
  CHECK(utfx_decoder_init(&d, UTFX_UTF32) != 0, "utf32 refused");
  CHECK(utfx_decoder_init(&d, (utfx_encoding)42) != 0, "unknown encoding refused");
  CHECK(utfx_decoder_init(&d, UTFX_UTF8) == 0, "utf8 accepted");
  res = utfx_decoder_write(&d, NULL, 0, NULL, 0);
  CHECK(res.status == UTFX_OK && res.read == 0 && res.written == 0, "NULL, 0");
  CHECK(utfx_decoder_max_length(&d, SIZE_MAX) == SIZE_MAX, "max_length saturates");
  CHECK(utfx_decoder_max_length_utf8(&d, SIZE_MAX / 2) == SIZE_MAX, "max_length_utf8 saturates");
  tap_group("reuse after end; refused encodings; NULL inputs; saturating bounds");
}

static void suite(void) {
  test_known();
  test_exhaustive_splits();
  test_dst_full();
  test_guard_pages();
  test_reuse_and_refusal();
}

int main(void) {
  tap_for_each_impl(suite);
  return tap_done();
}
