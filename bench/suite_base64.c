/* The base64 suite: utfx_base64_encode / _decode / _decode_utf16 and the
 * decoded length on pseudo-random bytes, for every tier, next to memcpy of
 * the input. Rows are OP/len=L/FORM, L the binary length:
 *   encode       L bytes to base64 (padded, standard alphabet; FORM lines:
 *                utfx_base64_encode_lines, a line feed after every 76
 *                characters, against simdutf's binary_to_base64_with_lines;
 *                crlf: the same with CR LF, UTFX_BASE64_CRLF, utfx only);
 *   decode       their base64 text back (FORM clean: one line; lines: MIME
 *                lines of 76 characters and CR LF, which the fast path must
 *                also handle; lf: lines of 76 and LF, coreutils' layout);
 *   decode_utf16 the clean text as UTF-16 units (a JavaScript string);
 *   length       utfx_binary_length_from_base64 of the clean text;
 * and FORM url: encode and decode with the URL alphabet, unpadded (simdutf's
 * base64_url).
 * Throughput counts the input of the call (bytes, characters or units * 2);
 * "memcpy" copies the input, "memcpy-out" (encode rows) as many bytes as the
 * encoder writes, both in GB/s of the row's input.
 * With simdutf (SIMDUTF_DIR=...), its kernels' binary_to_base64,
 * base64_to_binary and binary_length_from_base64 (unbounded destination),
 * and base64_to_binary_safe (bounded, as utfx's; "simdutf-safe"), each
 * checked once against utfx's output before it is timed. */
#include <stdio.h>
#include <string.h>

#include "suites.h"
#include "utfx.h"

static const size_t lengths[] = {4096, 65536, 1048576};

/* st: the flags (NULL: 0) */
static unsigned flags_of(const void *st) { return st ? *(const unsigned *)st : 0u; }
static const unsigned url_flags = UTFX_BASE64_URL | UTFX_BASE64_NO_PADDING;
static const unsigned crlf_flags = UTFX_BASE64_CRLF;

static size_t op_encode(const void *st, const void *src, size_t n, void *dst, size_t cap) {
  return utfx_base64_encode(src, n, dst, cap, flags_of(st)).written;
}
static size_t op_encode_lines(const void *st, const void *src, size_t n, void *dst, size_t cap) {
  return utfx_base64_encode_lines(src, n, dst, cap, flags_of(st), 76, NULL).written;
}
static size_t op_decode(const void *st, const void *src, size_t n, void *dst, size_t cap) {
  return utfx_base64_decode(src, n, dst, cap, flags_of(st)).written;
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
  const unsigned *flags; /* NULL: 0 */
};

#ifdef UTFX_BENCH_SIMDUTF
/* Times a simdutf call if it gives utfx's result (return value and output
 * bytes) on this row's input; says so if not. */
static void add_simdutf(bench_registry *reg, bench_entry *e, const bench_call *utfx_call,
                        const bench_call *call, void *scratch) {
  size_t want = utfx_call->fn(utfx_call->state, utfx_call->src, utfx_call->n, scratch,
                              utfx_call->cap);
  size_t got = call->fn(call->state, call->src, call->n, call->dst, call->cap);
  int out = strncmp(e->name, "length", 6) != 0;
  if (got == want && (!out || memcmp(scratch, call->dst, want) == 0))
    bench_add_call(reg, e, call);
  else
    fprintf(stderr, "utfx-bench: %s %s disagrees with utfx; not timed\n", e->name, e->impl);
}

static void add_simdutf_columns(bench_registry *reg, bench_entry *e, const bench_call *utfx_call,
                                const char *kernel, const struct b64_row *row, void *scratch) {
  char op[64];
  size_t s, ns = bench_simdutf_count();
  bench_call call = *utfx_call;
  if (row->flags == &crlf_flags) return; /* simdutf writes LF lines only */
  snprintf(op, sizeof op, "%s%s", kernel, row->flags ? "_url" : "");
  for (s = 0; s < ns; s++) {
    snprintf(e->impl, sizeof e->impl, "simdutf-%s", bench_simdutf_name(s));
    call = *utfx_call;
    if (bench_wanted(reg, "base64", row->op, NULL, e->impl) &&
        bench_simdutf_op(s, op, &call) == 0)
      add_simdutf(reg, e, utfx_call, &call, scratch);
  }
  snprintf(e->impl, sizeof e->impl, "simdutf-safe");
  call = *utfx_call;
  if (bench_wanted(reg, "base64", row->op, NULL, e->impl) && bench_simdutf_safe_op(op, &call) == 0)
    add_simdutf(reg, e, utfx_call, &call, scratch);
}
#endif

static void add_row(bench_registry *reg, const struct b64_row *row, size_t len, void *dst,
                    void *scratch) {
  const bench_options *opt = bench_opts(reg);
  const char *tiers[8];
  size_t ntiers = bench_tiers(tiers, 8), t;
  bench_entry e;
  bench_call call;
  const char *kernel = strcmp(row->op, "length") == 0   ? "binary_length_from_base64"
                       : row->fn == op_encode_lines     ? "base64_encode_lines"
                       : strcmp(row->op, "encode") == 0 ? "base64_encode"
                       : strcmp(row->op, "decode") == 0 ? "base64_decode"
                                                         : "base64_decode_utf16";
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
  call.state = row->flags;
  for (t = 0; t < ntiers; t++) {
    if (!bench_tier_distinct(opt, tiers[t], kernel)) continue;
    snprintf(e.impl, sizeof e.impl, "utfx-%s", tiers[t]);
    snprintf(e.tier, sizeof e.tier, "%s", tiers[t]);
    call.fn = row->fn;
    bench_add_call(reg, &e, &call);
  }
  e.tier[0] = '\0';
#ifdef UTFX_BENCH_SIMDUTF
  call.fn = row->fn;
  add_simdutf_columns(reg, &e, &call, kernel, row, scratch);
#endif
  snprintf(e.impl, sizeof e.impl, "memcpy");
  call.state = NULL;
  call.fn = op_memcpy;
  call.n = row->n * row->unit;
  bench_add_call(reg, &e, &call);
  /* encode's goal is against memcpy of its output (issue 32): the same row
   * (GB/s of the input) for a copy of as many bytes as it writes */
  if (strcmp(row->op, "encode") == 0) {
    snprintf(e.impl, sizeof e.impl, "memcpy-out");
    call.src = scratch;
    call.n = row->fn(row->flags, row->src, row->n, dst, row->cap);
    bench_add_call(reg, &e, &call);
  }
}

void bench_suite_base64(bench_registry *reg) {
  size_t li, i;
  if (!bench_wanted(reg, "base64", NULL, NULL, NULL)) return;
  for (li = 0; li < sizeof lengths / sizeof lengths[0]; li++) {
    size_t len = bench_opts(reg)->tiny ? 256 : lengths[li];
    size_t tlen = utfx_base64_length_from_binary(len, 0), wlen = 0;
    size_t ulen = utfx_base64_length_from_binary(len, url_flags);
    unsigned char *bin = bench_alloc(reg, len), *dst = bench_alloc(reg, 2 * tlen + 64);
    unsigned char *scratch = bench_alloc(reg, 2 * tlen + 64);
    char *text = bench_alloc(reg, tlen), *lines = bench_alloc(reg, tlen + 2 * (tlen / 76) + 2);
    char *lf = bench_alloc(reg, tlen + tlen / 76 + 1);
    size_t lflen = 0;
    char *url = bench_alloc(reg, ulen);
    char16_t *text16 = bench_alloc(reg, 2 * tlen);
    uint64_t x = 0x9E3779B97F4A7C15ull;
    for (i = 0; i < len; i++) {
      x ^= x << 13, x ^= x >> 7, x ^= x << 17;
      bin[i] = (unsigned char)x;
    }
    if (utfx_base64_encode(bin, len, text, tlen, 0).written != tlen) return;
    if (utfx_base64_encode(bin, len, url, ulen, url_flags).written != ulen) return;
    for (i = 0; i < tlen; i++) {
      lines[wlen++] = text[i];
      lf[lflen++] = text[i];
      text16[i] = (unsigned char)text[i];
      if (i % 76 == 75) lines[wlen++] = '\r', lines[wlen++] = '\n', lf[lflen++] = '\n';
    }
    {
      const struct b64_row rows[] = {
          {"encode", "bytes", op_encode, bin, len, 1, 2 * tlen + 64, NULL},
          {"encode", "url", op_encode, bin, len, 1, 2 * tlen + 64, &url_flags},
          {"encode", "lines", op_encode_lines, bin, len, 1, 2 * tlen + 64, NULL},
          {"encode", "crlf", op_encode_lines, bin, len, 1, 2 * tlen + 64, &crlf_flags},
          {"decode", "clean", op_decode, text, tlen, 1, len, NULL},
          {"decode", "lines", op_decode, lines, wlen, 1, len, NULL},
          {"decode", "lf", op_decode, lf, lflen, 1, len, NULL},
          {"decode", "url", op_decode, url, ulen, 1, len, &url_flags},
          {"decode_utf16", "clean", op_decode_utf16, text16, tlen, 2, len, NULL},
          {"length", "clean", op_length, text, tlen, 1, 0, NULL},
      };
      for (i = 0; i < sizeof rows / sizeof rows[0]; i++)
        add_row(reg, &rows[i], len, dst, scratch);
    }
    if (bench_opts(reg)->tiny) break;
  }
}
