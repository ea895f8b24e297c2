/* The encode suite: a JavaScript string written into a byte buffer as UTF-8,
 * the grid of Node's UTF-8 Buffer.write benchmark. Rows are
 * KIND/len=L/dst=D, where L is the string length in UTF-16 units and
 *   KIND  latin1  'a\u00e9' repeated: V8 keeps it as a one-byte (Latin-1)
 *                 string, so utfx converts from Latin-1;
 *         bmp     'a\u00e9\u20ac\u65e5' repeated (UTF-16 source);
 *         astral  'a\u00e9\u20ac\u65e5\U0001F600' repeated (surrogate pairs);
 *         lone    bmp with one lone high surrogate two units before the end;
 *   D     exact (the UTF-8 length), short (one byte less: the bounded path
 *         must stop at a character boundary) or 3x (3 * L bytes).
 * A string of length L is unit i = pattern[i % pattern length], i < L (no
 * length of the grid cuts a surrogate pair). bench/node_bench.js builds the
 * same strings. Throughput counts the string as UTF-16 (2 bytes a unit). */
#include <stdio.h>
#include <string.h>

#include "suites.h"
#include "utfx.h"

static const size_t lengths[] = {16, 256, 2048, 65536};

enum kind { K_LATIN1, K_BMP, K_ASTRAL, K_LONE, K_COUNT };
static const char *const kind_names[K_COUNT] = {"latin1", "bmp", "astral", "lone"};
static const char *const dst_names[3] = {"exact", "short", "3x"};

static size_t build_string(enum kind k, size_t len, char16_t *out) {
  static const char16_t latin1[] = {0x61, 0xE9};
  static const char16_t bmp[] = {0x61, 0xE9, 0x20AC, 0x65E5};
  static const char16_t astral[] = {0x61, 0xE9, 0x20AC, 0x65E5, 0xD83D, 0xDE00};
  const char16_t *p = k == K_LATIN1 ? latin1 : k == K_ASTRAL ? astral : bmp;
  size_t plen = k == K_LATIN1 ? 2 : k == K_ASTRAL ? 6 : 4, i;
  for (i = 0; i < len; i++) out[i] = p[i % plen];
  if (k == K_LONE) out[len - 2] = 0xD800;
  return len;
}

/* Everything is little-endian in memory: char16_t arrays are the utf16le
 * form on the x86 / ARM hosts this runs on; swap otherwise. */
static void to_le(char16_t *s, size_t n) {
  const char16_t one = 1;
  size_t i;
  if (*(const unsigned char *)&one == 1) return;
  for (i = 0; i < n; i++) s[i] = (char16_t)((s[i] >> 8) | (s[i] << 8));
}

static size_t op_utf16le_to_utf8(const void *st, const void *src, size_t n, void *dst,
                                 size_t cap) {
  utfx_result r = utfx_convert_utf16le_to_utf8(src, n, dst, cap, UTFX_REPLACE);
  (void)st;
  return r.written;
}

static size_t op_latin1_to_utf8(const void *st, const void *src, size_t n, void *dst,
                                size_t cap) {
  utfx_result r = utfx_convert_latin1_to_utf8(src, n, dst, cap, UTFX_REPLACE);
  (void)st;
  return r.written;
}

void bench_suite_encode(bench_registry *reg) {
  const bench_options *opt = bench_opts(reg);
  const char *tiers[8];
  size_t ntiers = bench_tiers(tiers, 8), li, t;
  int k, d;
  if (!bench_wanted(reg, "encode", NULL, NULL, NULL)) return;
  for (k = 0; k < K_COUNT; k++) {
    if (!bench_wanted(reg, "encode", kind_names[k], NULL, NULL)) continue;
    for (li = 0; li < sizeof lengths / sizeof lengths[0]; li++) {
      size_t len = lengths[li], exact, i;
      char16_t *u16;
      char *l1, *dst;
      const char *op = k == K_LATIN1 ? "convert_latin1_to_utf8" : "convert_utf16le_to_utf8";
      if (opt->tiny && len > 256) continue;
      u16 = bench_alloc(reg, len * sizeof *u16);
      l1 = bench_alloc(reg, len);
      build_string((enum kind)k, len, u16);
      for (i = 0; i < len; i++) l1[i] = (char)(unsigned char)u16[i]; /* latin1 kind only */
      to_le(u16, len);
      exact = utfx_utf8_length_from_utf16le(u16, len);
      dst = bench_alloc(reg, 3 * len);
      for (d = 0; d < 3; d++) {
        size_t cap = d == 0 ? exact : d == 1 ? exact - 1 : 3 * len;
        bench_entry e;
        bench_call call;
        memset(&e, 0, sizeof e);
        memset(&call, 0, sizeof call);
        snprintf(e.suite, sizeof e.suite, "encode");
        snprintf(e.name, sizeof e.name, "%s/len=%zu/dst=%s", kind_names[k], len, dst_names[d]);
        e.bytes = 2.0 * (double)len;
        e.chars = (double)utfx_utf32_length_from_utf16le(u16, len);
        call.n = len;
        call.dst = dst;
        call.cap = cap;
        for (t = 0; t < ntiers; t++) {
          if (!bench_tier_distinct(opt, tiers[t], op)) continue;
          snprintf(e.impl, sizeof e.impl, "utfx-%s", tiers[t]);
          snprintf(e.tier, sizeof e.tier, "%s", tiers[t]);
          call.src = k == K_LATIN1 ? (const void *)l1 : (const void *)u16;
          call.fn = k == K_LATIN1 ? op_latin1_to_utf8 : op_utf16le_to_utf8;
          bench_add_call(reg, &e, &call);
        }
        e.tier[0] = '\0';
        /* ICU holds strings as UTF-16, whatever their content. */
        call.src = u16;
        if (bench_wanted(reg, "encode", kind_names[k], NULL, "icu") &&
            bench_icu_op(reg, "convert_utf16le_to_utf8", &call) == 0) {
          snprintf(e.impl, sizeof e.impl, "icu");
          bench_add_call(reg, &e, &call);
        }
#ifdef UTFX_BENCH_SIMDUTF
        snprintf(e.impl, sizeof e.impl, "simdutf");
        call.state = NULL;
        if (k == K_LATIN1) {
          call.src = l1;
          call.fn = d == 1 ? bench_simdutf_latin1_to_utf8_safe : bench_simdutf_latin1_to_utf8;
        } else if (k == K_LONE) {
          call.fn = d == 1 ? NULL : bench_simdutf_utf16le_to_utf8_replacing;
        } else {
          call.fn = d == 1 ? bench_simdutf_utf16le_to_utf8_safe : bench_simdutf_utf16le_to_utf8;
        }
        if (call.fn) bench_add_call(reg, &e, &call);
#endif
      }
    }
  }
}
