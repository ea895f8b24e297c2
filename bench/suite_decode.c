/* The decode suite: the streaming decoder (Node's StringDecoder) fed an input
 * in chunks. Rows are ENC/in=N/chunk=C: N input bytes cut into chunks of C
 * bytes, each chunk written in turn, then end(). The grid is Node's
 * string_decoder benchmark grid (ascii, utf8, utf16le, base64 x N in 32, 128,
 * 1024, 4096 x C in 16, 64, 256, 1024), plus what that grid never exercises:
 * CJK (utf8-cjk) and emoji (utf8-emoji) text, and odd chunk lengths (7, 61,
 * 255) after which nearly every chunk ends inside a character (or, for
 * utf16le, inside a code unit).
 *
 * Input bytes: a short sample text (below), encoded, repeated and cut to N
 * bytes. base64 decodes bytes to base64 text, so its input is the ASCII
 * sample. bench/node_bench.js builds the same inputs. */
#include <stdio.h>
#include <string.h>

#include "suites.h"
#include "utfx.h"

typedef struct {
  const char *name;
  const char *sample; /* UTF-8 */
  int utf16;          /* input is the sample as UTF-16LE */
} decode_input;

static const decode_input inputs[] = {
    {"ascii", "The quick brown fox jumps over the lazy dog. ", 0},
    {"utf8", "na\xC3\xAFve caf\xC3\xA9, se\xC3\xB1or r\xC3\xA9sum\xC3\xA9 ", 0},
    {"utf16le", "na\xC3\xAFve caf\xC3\xA9, se\xC3\xB1or r\xC3\xA9sum\xC3\xA9 ", 1},
    {"base64", "The quick brown fox jumps over the lazy dog. ", 0},
    /* Japanese and Chinese: "nihongo no bunshou to chuubun." */
    {"utf8-cjk",
     "\xE6\x97\xA5\xE6\x9C\xAC\xE8\xAA\x9E\xE3\x81\xAE\xE6\x96\x87\xE7\xAB\xA0\xE3\x81\xA8"
     "\xE4\xB8\xAD\xE6\x96\x87\xE3\x80\x82",
     0},
    /* U+1F600 U+1F680 " ok " U+1F44D U+1F3FD U+1F389 " " */
    {"utf8-emoji",
     "\xF0\x9F\x98\x80\xF0\x9F\x9A\x80 ok \xF0\x9F\x91\x8D\xF0\x9F\x8F\xBD\xF0\x9F\x8E\x89 ", 0},
};

/* Calls fn(input index, N, C) for every row of the grid, in table order. */
static void for_each_row(int tiny, void (*fn)(void *, size_t, size_t, size_t), void *arg) {
  static const size_t node_in[] = {32, 128, 1024, 4096}, node_chunk[] = {16, 64, 256, 1024};
  static const size_t cut_chunk[] = {7, 61, 255};
  size_t e, i, c;
  for (e = 0; e < 4; e++)
    for (i = 0; i < 4; i++)
      for (c = 0; c < 4; c++)
        if (!tiny || node_in[i] <= 128) fn(arg, e, node_in[i], node_chunk[c]);
  for (e = 4; e < 6; e++)
    for (i = 2; i < 4; i++)
      for (c = 0; c < 4; c++)
        if (!tiny) fn(arg, e, node_in[i], node_chunk[c]);
  for (e = 0; e < 6; e++) {
    if (strcmp(inputs[e].name, "ascii") == 0 || strcmp(inputs[e].name, "base64") == 0) continue;
    for (c = 0; c < 3; c++) fn(arg, e, tiny ? 128 : 4096, cut_chunk[c]);
  }
}

#ifdef UTFX_DECODER

typedef struct {
  utfx_decoder dec;
  const char *src;
  size_t n, chunk;
  char16_t *dst;
  size_t cap;
} decode_ctx;

static size_t run_decode(void *p, size_t iters) {
  decode_ctx *c = p;
  size_t acc = 0, i, off;
  for (i = 0; i < iters; i++) {
    for (off = 0; off < c->n; off += c->chunk) {
      size_t len = c->n - off < c->chunk ? c->n - off : c->chunk;
      acc += utfx_decoder_write(&c->dec, c->src + off, len, c->dst, c->cap).written;
    }
    acc += utfx_decoder_end(&c->dec, c->dst, c->cap).written;
  }
  return acc;
}

static utfx_encoding encoding_of(const char *name) {
  if (strcmp(name, "ascii") == 0) return UTFX_ASCII;
  if (strcmp(name, "utf16le") == 0) return UTFX_UTF16LE;
  if (strcmp(name, "base64") == 0) return UTFX_BASE64;
  return UTFX_UTF8;
}

/* The kernel that dominates each decoder, for the tier probe. */
static const char *kernel_of(const char *name) {
  if (strncmp(name, "utf8", 4) == 0) return "convert_utf8_to_utf16le";
  if (strcmp(name, "ascii") == 0) return "convert_latin1_to_utf16le";
  return "";
}

/* Counts the characters of the whole output (one pass, outside the timing). */
static size_t output_chars(decode_ctx *c) {
  size_t off, chars = 0;
  for (off = 0; off < c->n; off += c->chunk) {
    size_t len = c->n - off < c->chunk ? c->n - off : c->chunk;
    utfx_result r = utfx_decoder_write(&c->dec, c->src + off, len, c->dst, c->cap);
    chars += utfx_utf32_length_from_utf16le(c->dst, r.written);
  }
  {
    utfx_result r = utfx_decoder_end(&c->dec, c->dst, c->cap);
    chars += utfx_utf32_length_from_utf16le(c->dst, r.written);
  }
  return chars;
}

static void add_row(void *arg, size_t e, size_t n, size_t chunk) {
  bench_registry *reg = arg;
  const decode_input *in = &inputs[e];
  const char *tiers[8];
  size_t ntiers = bench_tiers(tiers, 8), t, i, slen = strlen(in->sample), chars;
  char *src, *pattern;
  char input_name[64];
  decode_ctx proto;
  bench_entry ent;
  snprintf(input_name, sizeof input_name, "in=%zu/chunk=%zu", n, chunk);
  if (!bench_wanted(reg, "decode", in->name, input_name, NULL)) return;
  /* The sample in its input form, then repeated to n bytes. */
  if (in->utf16) {
    char16_t *u = bench_alloc(reg, 2 * slen);
    size_t units = utfx_convert_utf8_to_utf16le(in->sample, slen, u, slen, UTFX_STRICT).written;
    pattern = (char *)u;
    slen = 2 * units;
  } else {
    pattern = bench_alloc(reg, slen);
    memcpy(pattern, in->sample, slen);
  }
  src = bench_alloc(reg, n);
  for (i = 0; i < n; i++) src[i] = pattern[i % slen];
  memset(&proto, 0, sizeof proto);
  proto.src = src;
  proto.n = n;
  proto.chunk = chunk;
  proto.cap = 2 * n + 64; /* above any decoder's output for n bytes */
  proto.dst = bench_alloc(reg, proto.cap * sizeof(char16_t));
  if (utfx_decoder_init(&proto.dec, encoding_of(in->name)) != 0) return;
  chars = output_chars(&proto);
  memset(&ent, 0, sizeof ent);
  snprintf(ent.suite, sizeof ent.suite, "decode");
  snprintf(ent.name, sizeof ent.name, "%s/%s", in->name, input_name);
  ent.bytes = (double)n;
  ent.chars = (double)chars;
  ent.run = run_decode;
  for (t = 0; t < ntiers; t++) {
    decode_ctx *c;
    if (!bench_tier_distinct(bench_opts(reg), tiers[t], kernel_of(in->name))) continue;
    c = bench_alloc(reg, sizeof *c);
    *c = proto;
    snprintf(ent.impl, sizeof ent.impl, "utfx-%s", tiers[t]);
    snprintf(ent.tier, sizeof ent.tier, "%s", tiers[t]);
    ent.ctx = c;
    bench_add(reg, &ent);
  }
}

void bench_suite_decode(bench_registry *reg) {
  if (!bench_wanted(reg, "decode", NULL, NULL, NULL)) return;
  for_each_row(bench_opts(reg)->tiny, add_row, reg);
}

#else

void bench_suite_decode(bench_registry *reg) {
  (void)for_each_row;
  if (!bench_wanted(reg, "decode", NULL, NULL, NULL)) return;
  fprintf(stderr, "decode suite: the streaming decoder is not built yet (utfx.h has no "
                  "UTFX_DECODER); only the node rows run\n");
}

#endif
