/* The WHATWG decoder mode against Node's own TextDecoder (full ICU).
 *
 * For utf-8, utf-16le and utf-16be, fatal or not, ignoreBOM or not: short
 * biased inputs (tests/support/whatwg_inputs.h) cut at random places, long
 * ones in random chunks (runs of 1-byte chunks included). One node process
 * (tests/oracle/whatwg_oracle.js) records what each decode(chunk, {stream:
 * true}) and the final decode() return, or that it threw. Then, on every
 * kernel tier, in both output forms (the UTF-8 form against Node's string
 * encoded as UTF-8), each utfx_decoder_write / _end must return exactly that
 * string, or UTFX_INVALID where Node threw; and utfx_whatwg_decode of the
 * whole input must equal the concatenation (or be INVALID).
 *
 * A throw ends a case. What follows a throw in a stream is where Node and
 * utfx part on purpose: utfx resets the decoder (a new stream, so a BOM is
 * removed again), while Node 20's TextDecoder, after decode(chunk, {stream:
 * true}) threw, keeps "BOM seen" (utf-8 EF BB BF 41 | FF | EF BB BF 43 gives
 * "A", a throw, then "\uFEFFC"; utfx gives "C") and some state of its ICU
 * converter (utf-16le 00 D8 | 41 00: a throw, then decode() throws too,
 * where utfx's end returns OK with nothing). The Encoding Standard does not
 * say what a stream is after its decoder threw. Without node the test
 * fails. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support/emulated.h"
#include "support/node_decoder.h"
#include "support/whatwg_inputs.h"
#include "tap.h"

#define MAX_IN 2048
#define MAX_CHUNKS 300

static const utfx_encoding encs[3] = {UTFX_UTF8, UTFX_UTF16LE, UTFX_UTF16BE};
static const char *const enc_names[3] = {"utf-8", "utf-16le", "utf-16be"};

static bytes cases, results;
static size_t case_count;

/* Appends one case: the input cut at cuts[0..k]. */
static void add_case(int e, unsigned flags, const unsigned char *in, const size_t *cuts, size_t k) {
  unsigned char head[2];
  size_t j;
  head[0] = (unsigned char)e;
  head[1] = (unsigned char)flags;
  bytes_put(&cases, head, 2);
  bytes_put_u32(&cases, (uint32_t)k);
  for (j = 0; j < k; j++) {
    bytes_put_u32(&cases, (uint32_t)(cuts[j + 1] - cuts[j]));
    bytes_put(&cases, in + cuts[j], cuts[j + 1] - cuts[j]);
  }
  case_count++;
}

/* Random cuts of n bytes: k chunks, some empty, some runs of 1-byte ones. */
static size_t random_cuts(test_rng *rng, size_t n, size_t *cuts, int long_input) {
  size_t k = 0, at = 0;
  cuts[0] = 0;
  while (at < n && k < MAX_CHUNKS - 2) {
    uint64_t kind = rng_below(rng, 8);
    size_t step = kind == 0   ? 0
                  : kind < 4 ? 1 + rng_below(rng, 3)
                             : rng_below(rng, long_input ? 300 : 8);
    at = at + step < n ? at + step : n;
    cuts[++k] = at;
  }
  if (at < n) cuts[++k] = n;
  if (k == 0) cuts[++k] = 0; /* one empty chunk */
  return k;
}

static void make_cases(void) {
  static unsigned char in[MAX_IN];
  size_t cuts[MAX_CHUNKS];
  test_rng rng;
  size_t shorts = test_emulated() ? 500 : 1500, longs = test_emulated() ? 50 : 150, t;
  int e;
  unsigned flags;
  rng_seed(&rng, 20);
  for (e = 0; e < 3; e++)
    for (flags = 0; flags < 4; flags++) {
      for (t = 0; t < shorts; t++) {
        size_t n = gen_short(&rng, encs[e], in, 16);
        add_case(e, flags, in, cuts, random_cuts(&rng, n, cuts, 0));
      }
      for (t = 0; t < longs; t++) {
        size_t n = gen_long(&rng, in, 64 + rng_below(&rng, 1500), encs[e]);
        add_case(e, flags, in, cuts, random_cuts(&rng, n, cuts, 1));
      }
    }
}

/* Node's string (UTF-16 units) as UTF-8; lone surrogates (never expected:
 * each decode returns whole characters) as EF BF BD. */
static size_t units_to_utf8(const char16_t *s, size_t n, unsigned char *out) {
  size_t i, w = 0;
  for (i = 0; i < n; i++) {
    uint32_t c = s[i];
    if (c >= 0xD800 && c <= 0xDBFF && i + 1 < n && s[i + 1] >= 0xDC00 && s[i + 1] <= 0xDFFF)
      c = 0x10000 + ((c - 0xD800) << 10) + (s[++i] - 0xDC00u);
    else if (c >= 0xD800 && c <= 0xDFFF)
      c = 0xFFFD;
    w += put_utf8(out + w, c);
  }
  return w;
}

static size_t read_units(const unsigned char *p, size_t count, char16_t *out) {
  size_t i;
  for (i = 0; i < count; i++) out[i] = (char16_t)(p[2 * i] | p[2 * i + 1] << 8);
  return count;
}

/* Replays every case on the active tier, in the form u8. */
static void replay(int u8) {
  static char16_t want16[4 * MAX_IN], all16[4 * MAX_IN];
  static unsigned char want8[4 * MAX_IN], got[4 * MAX_IN], whole[MAX_IN], all8[4 * MAX_IN];
  size_t cp = 0, rp = 0, c;
  for (c = 0; c < case_count; c++) {
    int e = cases.p[cp];
    unsigned flags = cases.p[cp + 1];
    size_t k = bytes_get_u32(cases.p + cp + 2), j, n_whole = 0, all_len = 0;
    int threw = 0;
    utfx_decoder d;
    utfx_result r;
    cp += 6;
    (void)utfx_decoder_init_whatwg(&d, encs[e], flags);
    for (j = 0; j <= k; j++) {
      size_t n = j < k ? bytes_get_u32(cases.p + cp) : 0, want_len, units, cap;
      const unsigned char *src = cases.p + cp + 4;
      if (j < k) {
        memcpy(whole + n_whole, src, n);
        n_whole += n;
        cp += 4 + n;
      }
      if (threw) continue; /* skip to the next case */
      if (results.p[rp] == 1) {
        threw = 1;
        rp++;
      } else {
        units = read_units(results.p + rp + 5, bytes_get_u32(results.p + rp + 1), want16);
        rp += 5 + 2 * units;
        want_len = u8 ? units_to_utf8(want16, units, want8) : 2 * units;
        if (!u8) memcpy(want8, want16, want_len);
      }
      cap = u8 ? utfx_decoder_max_length_utf8(&d, n) : utfx_decoder_max_length(&d, n);
      if (j == k)
        r = u8 ? utfx_decoder_end_utf8(&d, (char *)got, cap)
               : utfx_decoder_end(&d, (char16_t *)(void *)got, cap);
      else
        r = u8 ? utfx_decoder_write_utf8(&d, (const char *)src, n, (char *)got, cap)
               : utfx_decoder_write(&d, (const char *)src, n, (char16_t *)(void *)got, cap);
      if (threw) {
        CHECK(r.status == UTFX_INVALID, "case %zu (%s flags %u, %s form): Node threw at call %zu, "
              "utfx returned %d", c, enc_names[e], flags, u8 ? "utf-8" : "utf-16", j, (int)r.status);
        continue;
      }
      CHECK(r.status == UTFX_OK && r.written * (u8 ? 1 : 2) == want_len &&
                memcmp(got, want8, want_len) == 0,
            "case %zu (%s flags %u, %s form) call %zu of %zu: status %d, %zu units, Node %zu bytes",
            c, enc_names[e], flags, u8 ? "utf-8" : "utf-16", j, k, (int)r.status, r.written,
            want_len);
      if (u8) {
        memcpy(all8 + all_len, want8, want_len);
      } else {
        memcpy((unsigned char *)all16 + all_len, want8, want_len);
      }
      all_len += want_len;
    }
    /* the one-shot call on the whole input */
    r = u8 ? utfx_whatwg_decode_utf8(encs[e], flags, (const char *)whole, n_whole, (char *)got,
                                     utfx_whatwg_max_length_utf8(encs[e], n_whole))
           : utfx_whatwg_decode(encs[e], flags, (const char *)whole, n_whole,
                                (char16_t *)(void *)got, utfx_whatwg_max_length(encs[e], n_whole));
    if (threw)
      CHECK(r.status == UTFX_INVALID, "case %zu: one-shot %d where Node threw", c, (int)r.status);
    else
      CHECK(r.status == UTFX_OK && r.written * (u8 ? 1 : 2) == all_len &&
                memcmp(got, u8 ? all8 : (unsigned char *)all16, all_len) == 0,
            "case %zu (%s flags %u): one-shot differs from the stream", c, enc_names[e], flags);
  }
  CHECK(rp == results.n, "results not all used (%zu of %zu bytes)", rp, results.n);
}

static void suite(void) {
  replay(0);
  tap_group("whatwg vs Node TextDecoder: every write and end, UTF-16 form, one-shot");
  replay(1);
  tap_group("whatwg vs Node TextDecoder: every write and end, UTF-8 form, one-shot");
}

int main(void) {
  const char *why;
  make_cases();
  why = node_run_oracle("whatwg_oracle.js", &cases, &results);
  if (why)
    tap_fail("whatwg vs Node TextDecoder", why);
  else
    tap_for_each_impl(suite);
  free(cases.p);
  free(results.p);
  return tap_done();
}
