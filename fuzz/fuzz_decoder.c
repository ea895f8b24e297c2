/* libFuzzer target: the streaming decoder (utfx_decoder_*, Node's
 * StringDecoder). Input layout, after the control bytes of fuzz_common.h
 * (where chunks and destinations go: heap, against a guard page, mod 64):
 *   byte 0   low nibble % 9 = the utfx_encoding (UTFX_UTF16BE and UTFX_UTF32
 *            must be refused by init); bit 4 set = the UTF-8 output form
 *            (so '0'..'8' pick UTF-8 output, '@'..'H' UTF-16 output);
 *   byte 1   bits 0-2 the chunking, bits 3-5 the capacities (below);
 *   the rest the bytes to decode (the "payload").
 * Chunk lengths and capacities come from a generator seeded with the input's
 * hash. Chunkings: one chunk, 1-byte chunks, 0-4 bytes, 0-16 bytes, sizes
 * spread over 0..1024, or a mix; empty chunks are sprinkled in.
 *
 * The payload is decoded twice with one decoder (the second run after end()
 * also checks that end() resets it): run A with cap = max_length exactly for
 * every call, run B with the capacities of byte 1 (max_length + slack, one to
 * three short, anything up to max_length, 0-4, a mix), continuing each write
 * after DST_FULL with src + read. Checked on every kernel tier:
 *   - each call returns OK (read = n, or 0 for end) or DST_FULL, and DST_FULL
 *     only when cap is below what the write still had to produce (and below
 *     max_length); with cap >= 4 a DST_FULL call still writes something;
 *   - written <= cap and <= max_length for the call's n in the state before
 *     it; nothing after dst + written changes (canary); dst and each chunk are
 *     placed as the control bytes say (exact heap allocations for ASan, or
 *     against a PROT_NONE page at any offset);
 *   - every call ends at a character boundary: the UTF-8 form's output of
 *     each call is well-formed UTF-8, and a DST_FULL cut of the UTF-16 form
 *     never separates a high surrogate from the low one that follows it;
 *   - run B's output for each chunk (all its continuation calls together)
 *     equals run A's for that chunk;
 *   - the concatenated output equals the one-shot result: for utf8 the
 *     one-shot UTFX_REPLACE conversion to host-order UTF-16, for the other
 *     encodings a plain encoder in this file; the UTF-8 form is that UTF-16
 *     encoded as UTF-8 with lone surrogates as EF BF BD; the sum of
 *     `replaced` matches too;
 *   - every tier's calls give scalar's exact results and bytes (fz_common.h). */
#include "fuzz_common.h"

static int dz_host_le(void) {
  const uint16_t one = 1;
  return *(const unsigned char *)&one == 1;
}

/* splitmix64: the chunk lengths and capacities. */
static uint64_t dz_rand(uint64_t *s) {
  uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

/* A growable byte string. */
struct dz_buf {
  unsigned char *p;
  size_t len, cap;
};

static void dz_append(struct dz_buf *b, const void *src, size_t n) {
  if (n == 0) return;
  if (b->len + n > b->cap) {
    b->cap = 2 * (b->len + n) + 64;
    b->p = realloc(b->p, b->cap);
    if (!b->p) abort();
  }
  memcpy(b->p + b->len, src, n);
  b->len += n;
}

/* ------------------------------------------------- the expected output */

static void dz_put16(struct dz_buf *b, uint32_t u) {
  char16_t c = (char16_t)u;
  dz_append(b, &c, 2);
}

static void dz_base64(struct dz_buf *b, const uint8_t *p, size_t n, int url) {
  static const char std[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  size_t i, k;
  for (i = 0; i < n; i += 3) {
    size_t rest = n - i < 3 ? n - i : 3;
    uint32_t x = (uint32_t)p[i] << 16;
    if (rest > 1) x |= (uint32_t)p[i + 1] << 8;
    if (rest > 2) x |= p[i + 2];
    for (k = 0; k < 4; k++) {
      unsigned v = x >> (18 - 6 * k) & 63;
      char c = std[v];
      if (url && v == 62) c = '-';
      if (url && v == 63) c = '_';
      if (k > rest) { /* past the last byte's bits: padding, or nothing */
        if (url) break;
        c = '=';
      }
      dz_put16(b, (unsigned char)c);
    }
  }
}

/* UTF-16 (host order) to UTF-8 as Buffer.from(string) does it: a lone
 * surrogate becomes EF BF BD. Returns the number of lone surrogates. */
static size_t dz_to_utf8(struct dz_buf *out, const char16_t *s, size_t n) {
  size_t i, lone = 0;
  for (i = 0; i < n; i++) {
    uint32_t c = s[i];
    unsigned char b[4];
    size_t len;
    if (c >= 0xD800 && c <= 0xDBFF && i + 1 < n && s[i + 1] >= 0xDC00 && s[i + 1] <= 0xDFFF) {
      c = 0x10000 + ((c - 0xD800) << 10) + (s[i + 1] - 0xDC00u);
      i++;
    } else if (c >= 0xD800 && c <= 0xDFFF) {
      c = 0xFFFD;
      lone++;
    }
    len = put_utf8(b, c);
    dz_append(out, b, len);
  }
  return lone;
}

/* The whole payload decoded at once, in the UTF-16 form (host order) and
 * the UTF-8 form, with the replacement counts each form reports. Runs on
 * every tier (the UTF-8 conversion is one of the recorded calls). */
struct dz_expect {
  struct dz_buf u16, u8;
  size_t replaced16, replaced8;
};

static void dz_expected(struct dz_expect *e, utfx_encoding enc, const uint8_t *p, size_t n) {
  size_t i;
  memset(e, 0, sizeof *e);
  switch (enc) {
    case UTFX_UTF8: {
      char *src = fz_copy(p, n, 1);
      struct fz_output o = fz_convert("one-shot utf8 REPLACE",
                                      dz_host_le() ? fz_utf8_to_utf16le : fz_utf8_to_utf16be,
                                      src, n, 2, n, UTFX_REPLACE);
      size_t len = fz_length("utf16_length_from_utf8", fz_utf16_length_from_utf8, src, n);
      utfx_result v = fz_validate("validate_utf8", fz_validate_utf8, src, n);
      FZ_REQUIRE(o.r.status == UTFX_OK && o.r.written == len, "one-shot", "utf8");
      FZ_REQUIRE(v.status != UTFX_OK || o.r.replaced == 0, "one-shot", "utf8");
      dz_append(&e->u16, o.bytes, 2 * o.r.written);
      e->replaced16 = e->replaced8 = o.r.replaced;
      free(o.bytes);
      free(src);
      break;
    }
    case UTFX_UTF16LE:
      for (i = 0; i + 1 < n; i += 2) dz_put16(&e->u16, p[i] | (uint32_t)p[i + 1] << 8);
      break;
    case UTFX_LATIN1:
      for (i = 0; i < n; i++) dz_put16(&e->u16, p[i]);
      break;
    case UTFX_ASCII:
      for (i = 0; i < n; i++) dz_put16(&e->u16, p[i] & 0x7Fu);
      break;
    case UTFX_BASE64:
    case UTFX_BASE64URL:
      dz_base64(&e->u16, p, n, enc == UTFX_BASE64URL);
      break;
    default: /* UTFX_HEX */
      for (i = 0; i < n; i++) {
        dz_put16(&e->u16, (unsigned char)"0123456789abcdef"[p[i] >> 4]);
        dz_put16(&e->u16, (unsigned char)"0123456789abcdef"[p[i] & 15]);
      }
      break;
  }
  {
    size_t lone = dz_to_utf8(&e->u8, (const char16_t *)(const void *)e->u16.p, e->u16.len / 2);
    if (enc == UTFX_UTF16LE) e->replaced8 = lone;
    else FZ_REQUIRE(lone == 0, "expected output", "no lone surrogates");
  }
  /* Valid UTF-8 passes through the UTF-8 form unchanged. */
  if (enc == UTFX_UTF8 && e->replaced8 == 0)
    FZ_REQUIRE(e->u8.len == n && (n == 0 || memcmp(e->u8.p, p, n) == 0), "expected output",
               "valid UTF-8 round trip");
}

/* ----------------------------------------------------------- the calls */

struct dz_run {
  utfx_decoder *d;
  int u8;            /* UTF-8 output form */
  const char *name;  /* "A" or "B" */
  int cap_style;     /* run B's capacities; -1: exactly max_length */
  uint64_t rng;
  struct dz_buf out; /* everything written */
  size_t replaced;
  size_t write_no, call_no;
};

static size_t dz_max(const struct dz_run *run, size_t n) {
  return run->u8 ? utfx_decoder_max_length_utf8(run->d, n) : utfx_decoder_max_length(run->d, n);
}

static size_t dz_pick_cap(struct dz_run *run, size_t bound) {
  uint64_t x = dz_rand(&run->rng);
  int style = run->cap_style;
  if (style < 0) return bound;
  if (style >= 6) style = (int)(x >> 59) % 6;
  switch (style) {
    case 0:
      return bound;
    case 1:
      return bound + (size_t)(x % 8);
    case 2: /* one to three short */
      return bound > 3 ? bound - 1 - (size_t)(x % 3) : (bound ? bound - 1 : 0);
    case 3:
      return (size_t)(x % (bound + 1));
    case 4:
      return (size_t)(x % 5);
    default:
      return 4 + (size_t)(x % 3);
  }
}

/* One write (src, n) or end (src NULL, is_end) with capacity cap: checks the
 * call's own guarantees and that every tier gives scalar's result, appends
 * the output to run->out. */
static utfx_result dz_call(struct dz_run *run, const char *src, size_t n, int is_end,
                           size_t cap) {
  const char *tier = fz_tiers[fz_tier];
  const char *op = is_end ? "end" : "write";
  size_t unit = run->u8 ? 1 : 2, bound = dz_max(run, is_end ? 0 : n);
  size_t call = fz_tier == 0 ? fz_log_len : fz_pos; /* the same in every pass */
  struct fz_place pl = fz_place(1, cap * unit, unit, call, fz_seed);
  unsigned char *dst = pl.p;
  struct fz_record *rec;
  utfx_result r;
  if (cap) memset(dst, FZ_CANARY, cap * unit);
  if (run->u8)
    r = is_end ? utfx_decoder_end_utf8(run->d, (char *)dst, cap)
               : utfx_decoder_write_utf8(run->d, src, n, (char *)dst, cap);
  else
    r = is_end ? utfx_decoder_end(run->d, (char16_t *)(void *)dst, cap)
               : utfx_decoder_write(run->d, src, n, (char16_t *)(void *)dst, cap);
  fz_last.op = run->u8 ? (is_end ? "end_utf8" : "write_utf8") : op;
  fz_last.run = run->name;
  fz_last.chunk = run->write_no;
  fz_last.call = run->call_no;
  fz_last.n = n;
  fz_last.cap = cap;
  fz_last.bound = bound;
  fz_last.r = r;
  run->call_no++;
  FZ_REQUIRE(r.status == UTFX_OK || r.status == UTFX_DST_FULL, op, tier);
  FZ_REQUIRE(r.written <= cap && r.written <= bound, op, tier);
  FZ_REQUIRE(r.read <= n && (r.status == UTFX_DST_FULL || r.read == n), op, tier);
  FZ_REQUIRE(!is_end || r.read == 0, op, tier);
  FZ_REQUIRE(r.status == UTFX_OK || cap < bound, op, tier); /* max_length always suffices */
  FZ_REQUIRE(r.status == UTFX_OK || cap < 4 || r.written > 0, op, tier); /* progress */
  FZ_REQUIRE(!cap || fz_is_canary(dst + r.written * unit, (cap - r.written) * unit), op,
             tier); /* nothing after `written` */
  rec = fz_next_record(op);
  if (fz_tier == 0) {
    rec->r = r;
    rec->bytes = fz_copy(dst, r.written, unit);
  } else {
    FZ_REQUIRE(r.status == rec->r.status && r.read == rec->r.read, op, tier);
    FZ_REQUIRE(r.written == rec->r.written && r.replaced == rec->r.replaced, op, tier);
    FZ_REQUIRE(r.written == 0 || memcmp(dst, rec->bytes, r.written * unit) == 0, op, tier);
  }
  /* Every call ends at a character boundary: the UTF-8 form writes whole
   * characters (well-formed UTF-8), the UTF-16 form never a pair's first half
   * alone when its second half is the next unit of this write's output
   * (checked in dz_write, which knows that output). */
  FZ_REQUIRE(!run->u8 || utfx_validate_utf8((const char *)dst, r.written).status == UTFX_OK, op,
             "cut inside a UTF-8 character");
  dz_append(&run->out, dst, r.written * unit);
  run->replaced += r.replaced;
  FZ_REQUIRE(fz_unplace(&pl), op, tier); /* nothing before dst or after dst + cap */
  return r;
}

/* A whole write of src[0..n) (or end), continued after DST_FULL until OK.
 * When `known`, want[0..want_len units) is what it must produce in total
 * (run A's output for it). Returns the units it produced. */
static size_t dz_write(struct dz_run *run, const char *src, size_t n, int is_end, int known,
                       const unsigned char *want, size_t want_len) {
  const char *op = is_end ? "end" : "write";
  size_t unit = run->u8 ? 1 : 2, start = run->out.len, done = 0, calls = 0;
  size_t bound = dz_max(run, is_end ? 0 : n);
  int force = 0;
  run->call_no = 0;
  for (;;) {
    size_t cap = dz_pick_cap(run, dz_max(run, is_end ? 0 : n - done));
    size_t before = (run->out.len - start) / unit;
    utfx_result r;
    if (force && cap < 4) cap = 4; /* after a call that wrote nothing */
    /* src is NULL for an empty chunk (and end): no arithmetic on it then */
    r = dz_call(run, src ? src + done : NULL, is_end ? 0 : n - done, is_end, cap);
    done += r.read;
    FZ_REQUIRE(!known || before + r.written <= want_len, op, "more than run A wrote");
    if (r.status == UTFX_OK) break;
    FZ_REQUIRE(!known || cap < want_len - before, op, "DST_FULL though cap sufficed");
    if (known && !run->u8 && before + r.written > 0) { /* the cut, in this write's output */
      char16_t last, next;
      size_t at = before + r.written;
      memcpy(&last, want + 2 * (at - 1), 2);
      memcpy(&next, want + 2 * at, 2); /* at < want_len: DST_FULL left output to write */
      FZ_REQUIRE(!((last & 0xFC00) == 0xD800 && (next & 0xFC00) == 0xDC00), op,
                 "DST_FULL cut between the halves of a surrogate pair");
    }
    force = r.written == 0;
    FZ_REQUIRE(++calls <= 2 * (bound + n) + 16, op, "no end to DST_FULL");
  }
  {
    size_t got = run->out.len - start;
    FZ_REQUIRE(got / unit <= bound, op, "output above max_length");
    FZ_REQUIRE(!known ||
                   (got == want_len * unit && (got == 0 || !memcmp(run->out.p + start, want, got))),
               op, "output differs from run A's for this chunk");
    run->write_no++;
    return got / unit;
  }
}

/* ------------------------------------------------------------ the check */

static const char *const dz_enc_names[9] = {"utf8",   "utf16le", "utf16be",   "utf32", "latin1",
                                            "ascii",  "base64",  "base64url", "hex"};

/* An encoding Node has no decoder for: init refuses it, every call is
 * INVALID and writes nothing. */
static void dz_refused(utfx_encoding enc, const uint8_t *p, size_t n) {
  utfx_decoder d;
  char16_t d16[8];
  char d8[8];
  utfx_result r[4];
  int i;
  FZ_REQUIRE(utfx_decoder_init(&d, enc) != 0, dz_enc_names[enc], "init accepted");
  memset(d16, FZ_CANARY, sizeof d16);
  memset(d8, FZ_CANARY, sizeof d8);
  r[0] = utfx_decoder_write(&d, (const char *)p, n, d16, 8);
  r[1] = utfx_decoder_end(&d, d16, 8);
  r[2] = utfx_decoder_write_utf8(&d, (const char *)p, n, d8, 8);
  r[3] = utfx_decoder_end_utf8(&d, d8, 8);
  for (i = 0; i < 4; i++)
    FZ_REQUIRE(r[i].status == UTFX_INVALID && r[i].written == 0, dz_enc_names[enc], "refused");
  for (i = 0; i < 8; i++)
    FZ_REQUIRE(d8[i] == (char)FZ_CANARY && d16[i] == (char16_t)(FZ_CANARY * 0x101),
               dz_enc_names[enc], "refused decoder wrote");
}

/* The chunk lengths, from the chunking style. */
static size_t *dz_chunks(int style, size_t n, uint64_t *rng, size_t *count) {
  size_t *len = malloc((2 * n + 4) * sizeof *len), k = 0, left = n;
  if (!len) abort();
  while (left > 0 || k == 0) {
    uint64_t x = dz_rand(rng);
    int s = style >= 5 ? (int)(x >> 61) % 5 : style;
    size_t c;
    if (s >= 2 && k + 1 < 2 * n + 2 && x % 8 == 0) { /* an empty chunk */
      len[k++] = 0;
      continue;
    }
    switch (s) {
      case 0:
        c = left;
        break;
      case 1:
        c = 1;
        break;
      case 2:
        c = (size_t)(x >> 8) % 5;
        break;
      case 3:
        c = (size_t)(x >> 8) % 17;
        break;
      default:
        c = (size_t)(x >> 8) % ((size_t)1 << ((x >> 20) % 11)); /* 0..1023, log-spread */
        break;
    }
    if (c > left) c = left;
    if (c == 0 && k + 1 >= 2 * n + 2) c = left; /* room for no more empties */
    len[k++] = c;
    if (left == 0) break;
    left -= c;
  }
  *count = k;
  return len;
}

static void check_input(const uint8_t *data, size_t size) {
  unsigned cfg = size > 0 ? data[0] : 0, plan = size > 1 ? data[1] : 0;
  utfx_encoding enc = (utfx_encoding)((cfg & 0x0F) % 9);
  const uint8_t *payload = data + (size < 2 ? size : 2);
  size_t n = size - (size_t)(payload - data), nchunks, *chunk, k, at, off;
  size_t *a_len;
  struct dz_expect e;
  struct dz_run a, b;
  utfx_decoder d;
  uint64_t rng = fz_seed ^ 0x5DEECE66Dull;
  const struct dz_buf *want;
  size_t want_replaced, unit;

  if (enc == UTFX_UTF16BE || enc == UTFX_UTF32) {
    dz_refused(enc, payload, n);
    return;
  }
  fz_last.what = dz_enc_names[enc];
  FZ_REQUIRE(utfx_decoder_init(&d, enc) == 0, dz_enc_names[enc], "init refused");
  dz_expected(&e, enc, payload, n);
  memset(&a, 0, sizeof a);
  a.d = &d;
  a.u8 = (int)(cfg >> 4 & 1);
  a.cap_style = -1;
  a.name = "A";
  b = a;
  b.name = "B";
  b.cap_style = (int)(plan >> 3 & 7);
  b.rng = fz_seed;
  unit = a.u8 ? 1 : 2;
  want = a.u8 ? &e.u8 : &e.u16;
  want_replaced = a.u8 ? e.replaced8 : e.replaced16;
  chunk = dz_chunks((int)(plan & 7), n, &rng, &nchunks);
  a_len = malloc((nchunks + 1) * sizeof *a_len);
  if (!a_len) abort();

  /* Run A: cap = max_length for every call; each chunk in its own buffer. */
  for (k = at = 0; k < nchunks; at += chunk[k++]) {
    struct fz_place pl = fz_place(0, chunk[k], 1, k, fz_seed);
    if (chunk[k]) memcpy(pl.p, payload + at, chunk[k]);
    a_len[k] = dz_write(&a, (const char *)pl.p, chunk[k], 0, 0, NULL, 0);
    fz_unplace(&pl);
  }
  a_len[nchunks] = dz_write(&a, NULL, 0, 1, 0, NULL, 0);
  FZ_REQUIRE(a.out.len == want->len && (a.out.len == 0 || !memcmp(a.out.p, want->p, a.out.len)),
             "run A", "concatenated output differs from the one-shot result");
  FZ_REQUIRE(a.replaced == want_replaced, "run A", "replacement count");

  /* Run B: the same chunks with byte 1's capacities, after end() reset d. */
  for (k = at = off = 0; k <= nchunks; off += a_len[k++] * unit) {
    const unsigned char *a_out = a.out.p ? a.out.p + off : NULL;
    if (k == nchunks) {
      dz_write(&b, NULL, 0, 1, 1, a_out, a_len[k]);
    } else {
      struct fz_place pl = fz_place(0, chunk[k], 1, k + 7, fz_seed);
      if (chunk[k]) memcpy(pl.p, payload + at, chunk[k]);
      dz_write(&b, (const char *)pl.p, chunk[k], 0, 1, a_out, a_len[k]);
      fz_unplace(&pl);
      at += chunk[k];
    }
  }
  FZ_REQUIRE(b.out.len == a.out.len && b.replaced == a.replaced, "run B", "total output");

  free(chunk);
  free(a_len);
  free(a.out.p);
  free(b.out.p);
  free(e.u16.p);
  free(e.u8.p);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fz_run_tiers(check_input, data, size);
  return 0;
}
