/* libFuzzer target: base64 (utfx_base64_*). Input layout, after the control
 * bytes of fuzz_common.h (where sources and destinations go, one more
 * capacity):
 *   byte 0   bits 0-2 the decode mode (below; 7 = every mode), bit 3 the
 *            text as UTF-16 units (pairs of bytes, little-endian), bit 4
 *            the url alphabet for encoding, bit 5 no padding, bits 6-7 the
 *            capacity of the resumed decode (3 + 0..3 groups' bytes);
 *   the rest the payload: decoded as base64 text, and encoded as bytes.
 * Checked on every kernel tier against scalar's exact results (status,
 * read, written, bytes), each call into a canaried destination placed as
 * the control bytes say:
 *   - decode with the exact capacity (utfx_binary_length_from_base64), one
 *     more, one less and the control capacity; the length function equals
 *     what an unbounded decode writes and stays under the documented bound;
 *   - a decode resumed after each DST_FULL from src + read into a small
 *     destination gives the one-shot output, status and error offset;
 *   - encode with the exact, one-short and control capacities; the text
 *     decodes back (strict when padded) to the payload;
 *   - encode in lines (line length 0..129 from the payload's last byte mod
 *     130, CR LF breaks when it is 130 or more, the column from its first)
 *     with the exact, one-short and control capacities: the plain text with
 *     a line feed (CR LF) before each character at a multiple of the line
 *     length; resumed after DST_FULL with the column
 *     it returned, the exact output; the text decodes back to the payload,
 *     in one call and resumed from half the room. */
#include "fuzz_common.h"

static const unsigned fb_modes[7] = {
    0,
    UTFX_BASE64_STRICT,
    UTFX_BASE64_STOP_BEFORE_PARTIAL,
    UTFX_BASE64_URL,
    UTFX_BASE64_URL | UTFX_BASE64_STRICT,
    UTFX_BASE64_ANY_ALPHABET,
    UTFX_BASE64_NODE,
};

struct fb_text {
  const void *p; /* placed source */
  size_t n;
  int wide;
};

static utfx_result fb_decode(const struct fb_text *t, size_t from, unsigned char *dst, size_t cap,
                             unsigned flags) {
  if (!t->p) return utfx_base64_decode(NULL, 0, dst, cap, flags); /* (NULL + 0 is UB) */
  if (t->wide)
    return utfx_base64_decode_utf16((const char16_t *)t->p + from, t->n - from, dst, cap, flags);
  return utfx_base64_decode((const char *)t->p + from, t->n - from, dst, cap, flags);
}

static size_t fb_length(const struct fb_text *t, unsigned flags) {
  if (t->wide) return utfx_binary_length_from_base64_utf16((const char16_t *)t->p, t->n, flags);
  return utfx_binary_length_from_base64((const char *)t->p, t->n, flags);
}

/* Checks r and dst[0..cap) against scalar's record of this call. */
static void fb_record(const char *op, utfx_result r, const unsigned char *dst, size_t cap,
                      size_t n) {
  const char *tier = fz_tiers[fz_tier];
  struct fz_record *rec;
  fz_last.op = op;
  fz_last.n = n;
  fz_last.cap = cap;
  fz_last.r = r;
  FZ_REQUIRE(r.written <= cap && r.read <= n && r.replaced == 0, op, tier);
  FZ_REQUIRE(r.status != UTFX_DST_FULL || r.read < n, op, tier);
  FZ_REQUIRE(!cap || fz_is_canary(dst + r.written, cap - r.written), op, tier);
  rec = fz_next_record(op);
  if (fz_tier == 0) {
    rec->r = r;
    rec->bytes = fz_copy(dst, r.written, 1);
    return;
  }
  FZ_REQUIRE(r.status == rec->r.status && r.read == rec->r.read && r.written == rec->r.written,
             op, tier);
  FZ_REQUIRE(r.written == 0 || memcmp(dst, rec->bytes, r.written) == 0, op, tier);
}

/* One decode into a placed, canaried destination of cap bytes; the output
 * is copied to *out when out is not NULL (cap bytes of room). */
static utfx_result fb_decode_placed(const char *op, const struct fb_text *t, size_t from,
                                    size_t cap, unsigned flags, unsigned char *out) {
  size_t call = fz_tier == 0 ? fz_log_len : fz_pos;
  struct fz_place pl = fz_place(1, cap, 1, call, fz_seed);
  utfx_result r;
  fz_last.flags = flags;
  if (cap) memset(pl.p, FZ_CANARY, cap);
  r = fb_decode(t, from, pl.p, cap, flags);
  fb_record(op, r, pl.p, cap, t->n - from);
  if (out && r.written) memcpy(out, pl.p, r.written);
  FZ_REQUIRE(fz_unplace(&pl), op, fz_tiers[fz_tier]);
  return r;
}

static void fb_check_decode(const struct fb_text *t, unsigned flags, size_t resume_cap) {
  const char *tier = fz_tiers[fz_tier];
  size_t len = fb_length(t, flags), cap = fz_control_cap(len), at = 0, w = 0;
  unsigned char *whole = malloc(len + 4), *pieces = malloc(len + resume_cap + 4);
  utfx_result full, r;
  if (!whole || !pieces) abort();
  FZ_REQUIRE(len <= UTFX_BINARY_MAX_FROM_BASE64(t->n), "length bound", tier);
  full = fb_decode_placed("decode exact", t, 0, len, flags, whole);
  FZ_REQUIRE(full.written == len, "length = written", tier);
  fb_decode_placed("decode exact + 1", t, 0, len + 1, flags, NULL);
  if (len) fb_decode_placed("decode exact - 1", t, 0, len - 1, flags, NULL);
  fb_decode_placed("decode control cap", t, 0, cap, flags, NULL);
  /* The unbounded decode, and the same resumed after each DST_FULL. */
  full = fb_decode_placed("decode unbounded", t, 0, UTFX_BINARY_MAX_FROM_BASE64(t->n) + 1, flags,
                          whole);
  FZ_REQUIRE(full.status != UTFX_DST_FULL && full.written == len, "unbounded", tier);
  for (;;) {
    r = fb_decode_placed("decode resumed", t, at, resume_cap, flags, pieces + w);
    w += r.written;
    FZ_REQUIRE(w <= len, "resumed: more than the whole", tier);
    if (r.status != UTFX_DST_FULL) break;
    FZ_REQUIRE(r.written > 0 || r.read > 0, "resumed: no progress", tier);
    at += r.read;
  }
  FZ_REQUIRE(r.status == full.status && at + r.read == full.read && w == full.written,
             "resumed: result differs from one shot", tier);
  FZ_REQUIRE(w == 0 || memcmp(pieces, whole, w) == 0, "resumed: bytes differ", tier);
  free(whole);
  free(pieces);
}

static void fb_check_encode(const uint8_t *bin, size_t n, unsigned flags) {
  const char *tier = fz_tiers[fz_tier];
  size_t len = utfx_base64_length_from_binary(n, flags), caps[3], k;
  struct fz_place src = fz_place_src(bin, n, 1);
  char *text = malloc(len + 1);
  unsigned char *back = malloc(n + 1);
  if (!text || !back) abort();
  caps[0] = len;
  caps[1] = len ? len - 1 : 0;
  caps[2] = fz_control_cap(len);
  for (k = 0; k < 3; k++) {
    struct fz_place pl = fz_place(1, caps[k], 1, fz_tier == 0 ? fz_log_len : fz_pos, fz_seed);
    utfx_result r;
    if (caps[k]) memset(pl.p, FZ_CANARY, caps[k]);
    r = utfx_base64_encode(src.p, n, (char *)pl.p, caps[k], flags);
    fz_last.flags = flags;
    fb_record("encode", r, pl.p, caps[k], n);
    FZ_REQUIRE(r.status == UTFX_OK || (r.status == UTFX_DST_FULL && r.read % 3 == 0 &&
                                        r.written == r.read / 3 * 4),
               "encode: whole groups", tier);
    if (k == 0) {
      FZ_REQUIRE(r.status == UTFX_OK && r.written == len, "encode exact", tier);
      if (len) memcpy(text, pl.p, len);
    }
    FZ_REQUIRE(fz_unplace(&pl), "encode", tier);
  }
  {
    unsigned back_flags = (flags & UTFX_BASE64_URL) |
                          (flags & UTFX_BASE64_NO_PADDING ? 0u : UTFX_BASE64_STRICT);
    utfx_result r = utfx_base64_decode(text, len, back, n + 1, back_flags);
    FZ_REQUIRE(r.status == UTFX_OK && r.written == n, "round trip", tier);
    FZ_REQUIRE(n == 0 || memcmp(back, bin, n) == 0, "round trip bytes", tier);
  }
  fz_unplace(&src);
  free(text);
  free(back);
}

/* Text in lines decodes back to bin (lines of one length are the avx512
 * decoder's direct path): in one call, and from a destination of half the
 * bytes resumed after DST_FULL. */
static void fb_lines_back(const char *text, size_t len, const uint8_t *bin, size_t n,
                          unsigned flags) {
  const char *tier = fz_tiers[fz_tier];
  unsigned back = (flags & UTFX_BASE64_URL) | (flags & UTFX_BASE64_NO_PADDING ? 0u : UTFX_BASE64_STRICT);
  unsigned char *out = malloc(n + 1);
  utfx_result r, s;
  if (!out) abort();
  r = utfx_base64_decode(len ? text : "", len, out, n + 1, back);
  FZ_REQUIRE(r.status == UTFX_OK && r.written == n && (n == 0 || memcmp(out, bin, n) == 0),
             "lines decode back", tier);
  r = utfx_base64_decode(len ? text : "", len, out, n / 2, back);
  if (r.status == UTFX_DST_FULL) {
    s = utfx_base64_decode(text + r.read, len - r.read, out + r.written, n + 1 - r.written, back);
    FZ_REQUIRE(s.status == UTFX_OK && r.written + s.written == n && memcmp(out, bin, n) == 0,
               "lines decode back, resumed", tier);
  } else {
    FZ_REQUIRE(r.status == UTFX_OK && r.written == n && n / 2 >= n, "lines decode back, half", tier);
  }
  free(out);
}

static void fb_check_lines(const uint8_t *bin, size_t n, unsigned flags) {
  const char *tier = fz_tiers[fz_tier];
  size_t L = n ? bin[n - 1] % 130 : 0, c0 = n && L ? bin[0] % (L + 1) : 0;
  const int crlf = n && bin[n - 1] >= 130;
  size_t plain = utfx_base64_length_from_binary(n, flags), caps[3], k, j, col, len;
  flags |= crlf ? UTFX_BASE64_CRLF : 0;
  len = utfx_base64_length_from_binary_lines(n, flags, L, c0);
  struct fz_place src = fz_place_src(bin, n, 1);
  char *text = malloc(plain + 1), *exact = malloc(len + 1), *rest = malloc(len + 1);
  if (!text || !exact || !rest) abort();
  if (utfx_base64_encode(src.p, n, text, plain, flags).written != plain) abort();
  caps[0] = len;
  caps[1] = len ? len - 1 : 0;
  caps[2] = fz_control_cap(len);
  for (k = 0; k < 3; k++) {
    struct fz_place pl = fz_place(1, caps[k], 1, fz_tier == 0 ? fz_log_len : fz_pos, fz_seed);
    const char *o = (const char *)pl.p;
    size_t chars = 0, pos = c0;
    utfx_result r;
    if (caps[k]) memset(pl.p, FZ_CANARY, caps[k]);
    col = c0;
    r = utfx_base64_encode_lines(src.p, n, (char *)pl.p, caps[k], flags, L, &col);
    fz_last.flags = flags;
    fb_record("encode lines", r, pl.p, caps[k], n);
    /* the plain text, a line feed (CR LF) before each character at a
     * multiple of L */
    for (j = 0; j < r.written; j++, pos++) {
      if (L && pos && pos % L == 0) {
        if (crlf) {
          FZ_REQUIRE(o[j] == '\r' && j + 1 < r.written, "lines: carriage return", tier);
          j++;
        }
        FZ_REQUIRE(o[j] == '\n' && j + 1 < r.written, "lines: line feed", tier);
        j++;
      }
      FZ_REQUIRE(chars < plain && o[j] == text[chars], "lines: text", tier);
      chars++;
    }
    FZ_REQUIRE(r.status == UTFX_OK ? r.read == n && chars == plain
                                   : r.status == UTFX_DST_FULL && r.read % 3 == 0 &&
                                         chars == r.read / 3 * 4,
               "lines: whole groups", tier);
    FZ_REQUIRE(col == (L ? (r.written == chars ? c0 + chars : (pos - 1) % L + 1) : c0 + chars),
               "lines: column", tier);
    if (k == 0) {
      FZ_REQUIRE(r.status == UTFX_OK && r.written == len, "lines exact", tier);
      if (len) memcpy(exact, o, len);
      fb_lines_back(exact, len, bin, n, flags);
    } else if (r.status == UTFX_DST_FULL) {
      utfx_result s = utfx_base64_encode_lines((const unsigned char *)src.p + r.read, n - r.read,
                                               rest, len - r.written + 1, flags, L, &col);
      FZ_REQUIRE(s.status == UTFX_OK && r.written + s.written == len &&
                     (r.written == 0 || memcmp(exact, o, r.written) == 0) &&
                     (s.written == 0 || memcmp(exact + r.written, rest, s.written) == 0),
                 "lines: resumed", tier);
    }
    FZ_REQUIRE(fz_unplace(&pl), "encode lines", tier);
  }
  fz_unplace(&src);
  free(text);
  free(exact);
  free(rest);
}

static void check_input(const uint8_t *data, size_t size) {
  unsigned cfg = size ? data[0] : 0, mode = cfg & 7, m;
  const uint8_t *payload = size ? data + 1 : data;
  size_t n = size ? size - 1 : 0;
  size_t resume_cap = 3 + 3 * (cfg >> 6);
  struct fb_text t;
  struct fz_place src;
  t.wide = (cfg >> 3) & 1;
  t.n = t.wide ? n / 2 : n;
  src = fz_place_src(payload, t.n, t.wide ? 2 : 1); /* host order: the fuzzers run little-endian */
  t.p = src.p;
  for (m = 0; m < 7; m++)
    if (mode == 7 || mode == m) fb_check_decode(&t, fb_modes[m], resume_cap);
  fz_unplace(&src);
  fb_check_encode(payload, n, (cfg & 0x10 ? UTFX_BASE64_URL : 0) | (cfg & 0x20 ? UTFX_BASE64_NO_PADDING : 0));
  fb_check_lines(payload, n, (cfg & 0x10 ? UTFX_BASE64_URL : 0) | (cfg & 0x20 ? UTFX_BASE64_NO_PADDING : 0));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fz_run_tiers(check_input, data, size);
  return 0;
}
