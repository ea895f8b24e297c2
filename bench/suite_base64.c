/* The base64 suite: utfx_base64_encode / _decode / _decode_utf16 and the
 * decoded length on pseudo-random bytes, for every tier, next to memcpy of
 * the input. Rows are OP/len=L/FORM, L the binary length:
 *   encode       L bytes to base64 (padded, standard alphabet);
 *   decode       their base64 text back (FORM clean: one line; lines: MIME
 *                lines of 76 characters and CR LF, which the fast path must
 *                also handle);
 *   decode_utf16 the clean text as UTF-16 units (a JavaScript string);
 *   length       utfx_binary_length_from_base64 of the clean text.
 * Throughput counts the input of the call (bytes, characters or units * 2). */
#include <stdio.h>
#include <string.h>

#include "suites.h"
#include "utfx.h"

static const size_t lengths[] = {4096, 65536, 1048576};

static size_t op_encode(const void *st, const void *src, size_t n, void *dst, size_t cap) {
  (void)st;
  return utfx_base64_encode(src, n, dst, cap, 0).written;
}
static size_t op_decode(const void *st, const void *src, size_t n, void *dst, size_t cap) {
  (void)st;
  return utfx_base64_decode(src, n, dst, cap, 0).written;
}
static size_t op_decode_utf16(const void *st, const void *src, size_t n, void *dst, size_t cap) {
  (void)st;
  return utfx_base64_decode_utf16(src, n, dst, cap, 0).written;
}
static size_t op_length(const void *st, const void *src, size_t n, void *dst, size_t cap) {
  (void)st, (void)dst, (void)cap;
  return utfx_binary_length_from_base64(src, n, 0);
}
static size_t op_memcpy(const void *st, const void *src, size_t n, void *dst, size_t cap) {
  (void)st, (void)cap;
  memcpy(dst, src, n);
  return n;
}

struct b64_row {
  const char *op, *form;
  bench_kernel fn;
  const void *src;
  size_t n, unit, cap;
};

static void add_row(bench_registry *reg, const struct b64_row *row, size_t len, void *dst) {
  const bench_options *opt = bench_opts(reg);
  const char *tiers[8];
  size_t ntiers = bench_tiers(tiers, 8), t;
  bench_entry e;
  bench_call call;
  if (!bench_wanted(reg, "base64", row->op, NULL, NULL)) return;
  memset(&e, 0, sizeof e);
  memset(&call, 0, sizeof call);
  snprintf(e.suite, sizeof e.suite, "base64");
  snprintf(e.name, sizeof e.name, "%s/len=%zu/%s", row->op, len, row->form);
  e.bytes = (double)(row->n * row->unit);
  e.chars = (double)row->n;
  call.src = row->src;
  call.n = row->n;
  call.dst = dst;
  call.cap = row->cap;
  for (t = 0; t < ntiers; t++) {
    const char *kernel = strcmp(row->op, "length") == 0 ? "binary_length_from_base64"
                         : strcmp(row->op, "encode") == 0 ? "base64_encode"
                         : strcmp(row->op, "decode") == 0 ? "base64_decode"
                                                           : "base64_decode_utf16";
    if (!bench_tier_distinct(opt, tiers[t], kernel)) continue;
    snprintf(e.impl, sizeof e.impl, "utfx-%s", tiers[t]);
    snprintf(e.tier, sizeof e.tier, "%s", tiers[t]);
    call.fn = row->fn;
    bench_add_call(reg, &e, &call);
  }
  e.tier[0] = '\0';
  snprintf(e.impl, sizeof e.impl, "memcpy");
  call.fn = op_memcpy;
  call.n = row->n * row->unit;
  bench_add_call(reg, &e, &call);
}

void bench_suite_base64(bench_registry *reg) {
  size_t li, i;
  if (!bench_wanted(reg, "base64", NULL, NULL, NULL)) return;
  for (li = 0; li < sizeof lengths / sizeof lengths[0]; li++) {
    size_t len = bench_opts(reg)->tiny ? 256 : lengths[li];
    size_t tlen = utfx_base64_length_from_binary(len, 0), wlen = 0;
    unsigned char *bin = bench_alloc(reg, len), *dst = bench_alloc(reg, 2 * tlen + 64);
    char *text = bench_alloc(reg, tlen), *lines = bench_alloc(reg, tlen + 2 * (tlen / 76) + 2);
    char16_t *text16 = bench_alloc(reg, 2 * tlen);
    uint64_t x = 0x9E3779B97F4A7C15ull;
    for (i = 0; i < len; i++) {
      x ^= x << 13, x ^= x >> 7, x ^= x << 17;
      bin[i] = (unsigned char)x;
    }
    if (utfx_base64_encode(bin, len, text, tlen, 0).written != tlen) return;
    for (i = 0; i < tlen; i++) {
      lines[wlen++] = text[i];
      text16[i] = (unsigned char)text[i];
      if (i % 76 == 75) lines[wlen++] = '\r', lines[wlen++] = '\n';
    }
    {
      const struct b64_row rows[] = {
          {"encode", "bytes", op_encode, bin, len, 1, 2 * tlen + 64},
          {"decode", "clean", op_decode, text, tlen, 1, len},
          {"decode", "lines", op_decode, lines, wlen, 1, len},
          {"decode_utf16", "clean", op_decode_utf16, text16, tlen, 2, len},
          {"length", "clean", op_length, text, tlen, 1, 0},
      };
      for (i = 0; i < sizeof rows / sizeof rows[0]; i++) add_row(reg, &rows[i], len, dst);
    }
    if (bench_opts(reg)->tiny) break;
  }
}
