/* libFuzzer target: the WHATWG mode of the streaming decoder
 * (utfx_decoder_init_whatwg) and the one-shot utfx_whatwg_decode. Input
 * layout, after the control bytes of fuzz_common.h (where chunks and
 * destinations go, one more capacity):
 *   byte 0   bits 0-1 % 3 the encoding (UTF-8, UTF-16LE, UTF-16BE), bits 2-3
 *            the flags (UTFX_WHATWG_FATAL, UTFX_WHATWG_IGNORE_BOM), bit 4 the
 *            UTF-8 output form for the streamed run;
 *   byte 1   bits 0-2 the chunking, bits 3-5 the capacities (as fuzz_decoder:
 *            one chunk, 1-byte chunks, 0-4, 0-16, 0..1023 spread, a mix;
 *            caps max_length, + slack, one to three short, anything up to it,
 *            0-4, a mix), from a generator seeded with the input's hash;
 *   the rest the bytes to decode.
 * Checked on every kernel tier (and each tier's results equal scalar's):
 *   - the one-shot call in both forms at cap = max_length: OK (or INVALID in
 *     fatal mode, read <= n), the same status and read in both, the UTF-8
 *     form the UTF-8 encoding of the UTF-16 form, which is well-formed;
 *   - the one-shot call at the control capacity, resumed after DST_FULL with
 *     src + read and IGNORE_BOM, gives the same output and status;
 *   - the stream (chunks, capacities as byte 1 says; each call resumed with
 *     src + read): written <= cap and <= max_length, OK whenever cap >=
 *     max_length, progress at cap >= 4, nothing after dst + written touched,
 *     each call's UTF-8 output well-formed, no DST_FULL cut in a pair;
 *     together exactly the one-shot output, or in fatal mode INVALID at the
 *     one-shot's error offset (or at the start of the chunk where an error
 *     that began earlier is found), after exactly the one-shot's prefix;
 *   - after end (or INVALID) the decoder is a new one: the whole payload as
 *     one write and end gives the one-shot result again. */
#include "fuzz_common.h"

static uint64_t wz_rand(uint64_t *s) {
  uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

static const utfx_encoding wz_encs[3] = {UTFX_UTF8, UTFX_UTF16LE, UTFX_UTF16BE};

/* An output: status, read of the last call, the units written (bytes). */
struct wz_out {
  utfx_status status;
  size_t read, units, replaced;
  unsigned char *p;
  size_t len, cap; /* bytes */
};

static void wz_append(struct wz_out *o, const void *src, size_t n) {
  if (n == 0) return;
  if (o->len + n > o->cap) {
    o->cap = 2 * (o->len + n) + 64;
    o->p = realloc(o->p, o->cap);
    if (!o->p) abort();
  }
  memcpy(o->p + o->len, src, n);
  o->len += n;
}

/* Compares a result with scalar's (or records it, in scalar's pass). */
static void wz_record(const char *op, utfx_result r, const void *bytes, size_t len) {
  struct fz_record *rec = fz_next_record(op);
  const char *tier = fz_tiers[fz_tier];
  if (fz_tier == 0) {
    rec->r = r;
    rec->bytes = fz_copy(bytes, len, 1);
    return;
  }
  FZ_REQUIRE(r.status == rec->r.status && r.read == rec->r.read, op, tier);
  FZ_REQUIRE(r.written == rec->r.written && r.replaced == rec->r.replaced, op, tier);
  FZ_REQUIRE(len == 0 || memcmp(bytes, rec->bytes, len) == 0, op, tier);
}

/* The one-shot call at cap units, resumed after DST_FULL (IGNORE_BOM), into
 * a placed destination per call. */
static struct wz_out wz_once(utfx_encoding enc, unsigned flags, int u8, const char *src, size_t n,
                             size_t cap, size_t call) {
  struct wz_out o;
  size_t unit = u8 ? 1 : 2, pos = 0, calls = 0;
  memset(&o, 0, sizeof o);
  for (;;) {
    struct fz_place pl = fz_place(1, cap * unit, unit, call + calls, fz_seed);
    utfx_result r;
    if (cap) memset(pl.p, FZ_CANARY, cap * unit);
    r = u8 ? utfx_whatwg_decode_utf8(enc, flags, src ? src + pos : NULL, n - pos, (char *)pl.p, cap)
           : utfx_whatwg_decode(enc, flags, src ? src + pos : NULL, n - pos,
                                (char16_t *)(void *)pl.p, cap);
    fz_last.op = u8 ? "whatwg_decode_utf8" : "whatwg_decode";
    fz_last.n = n - pos;
    fz_last.cap = cap;
    fz_last.flags = flags;
    fz_last.r = r;
    FZ_REQUIRE(r.written <= cap && r.read <= n - pos, "one-shot", "bounds");
    FZ_REQUIRE(!cap || fz_is_canary(pl.p + r.written * unit, (cap - r.written) * unit), "one-shot",
               "wrote after written");
    FZ_REQUIRE(r.status != UTFX_INVALID || (flags & UTFX_WHATWG_FATAL), "one-shot",
               "INVALID without FATAL");
    wz_record("one-shot", r, pl.p, r.written * unit);
    wz_append(&o, pl.p, r.written * unit);
    o.units += r.written;
    o.replaced += r.replaced;
    FZ_REQUIRE(fz_unplace(&pl), "one-shot", "wrote outside dst");
    o.status = r.status;
    o.read = pos + r.read;
    if (r.status != UTFX_DST_FULL) return o;
    pos += r.read;
    flags |= UTFX_WHATWG_IGNORE_BOM;
    if (cap < 4) cap = 4;
    FZ_REQUIRE(++calls <= 4 * n + 8, "one-shot", "no end to DST_FULL");
  }
}

/* UTF-16 (host order) as UTF-8; 0 if it has a lone surrogate. */
static int wz_to_utf8(const unsigned char *p, size_t units, struct wz_out *out) {
  size_t i;
  for (i = 0; i < units; i++) {
    char16_t u, v = 0;
    uint32_t c;
    unsigned char b[4];
    size_t len;
    memcpy(&u, p + 2 * i, 2);
    if (i + 1 < units) memcpy(&v, p + 2 * i + 2, 2);
    c = u;
    if ((u & 0xFC00) == 0xD800 && (v & 0xFC00) == 0xDC00) {
      c = 0x10000 + ((u - 0xD800u) << 10) + (v - 0xDC00u);
      i++;
    } else if ((u & 0xF800) == 0xD800) {
      return 0;
    }
    len = put_utf8(b, c);
    wz_append(out, b, len);
  }
  return 1;
}

static size_t wz_pick_cap(int style, uint64_t *rng, size_t bound) {
  uint64_t x = wz_rand(rng);
  if (style >= 6) style = (int)(x >> 59) % 6;
  switch (style) {
    case 0: return bound;
    case 1: return bound + (size_t)(x % 8);
    case 2: return bound > 3 ? bound - 1 - (size_t)(x % 3) : (bound ? bound - 1 : 0);
    case 3: return (size_t)(x % (bound + 1));
    case 4: return (size_t)(x % 5);
    default: return 4 + (size_t)(x % 3);
  }
}

static size_t wz_chunk(int style, uint64_t *rng, size_t left) {
  uint64_t x = wz_rand(rng);
  size_t c;
  if (style >= 5) style = (int)(x >> 61) % 5;
  if (style >= 2 && x % 8 == 0) return 0; /* an empty chunk */
  switch (style) {
    case 0: c = left; break;
    case 1: c = 1; break;
    case 2: c = (size_t)(x >> 8) % 5; break;
    case 3: c = (size_t)(x >> 8) % 17; break;
    default: c = (size_t)(x >> 8) % ((size_t)1 << ((x >> 20) % 11)); break;
  }
  return c < left ? c : left;
}

/* One call of the stream on a placed destination. */
static utfx_result wz_call(utfx_decoder *d, int u8, int is_end, const char *src, size_t n,
                           size_t cap, size_t call, struct wz_out *o) {
  size_t unit = u8 ? 1 : 2;
  size_t bound = u8 ? utfx_decoder_max_length_utf8(d, n) : utfx_decoder_max_length(d, n);
  struct fz_place pl = fz_place(1, cap * unit, unit, call, fz_seed);
  utfx_result r;
  if (cap) memset(pl.p, FZ_CANARY, cap * unit);
  if (is_end)
    r = u8 ? utfx_decoder_end_utf8(d, (char *)pl.p, cap)
           : utfx_decoder_end(d, (char16_t *)(void *)pl.p, cap);
  else
    r = u8 ? utfx_decoder_write_utf8(d, src, n, (char *)pl.p, cap)
           : utfx_decoder_write(d, src, n, (char16_t *)(void *)pl.p, cap);
  fz_last.op = is_end ? "end" : "write";
  fz_last.call = call;
  fz_last.n = n;
  fz_last.cap = cap;
  fz_last.bound = bound;
  fz_last.r = r;
  FZ_REQUIRE(r.written <= cap && r.written <= bound && r.read <= n, fz_last.op, "bounds");
  FZ_REQUIRE(r.status != UTFX_DST_FULL || cap < bound, fz_last.op, "DST_FULL at max_length");
  FZ_REQUIRE(r.status != UTFX_DST_FULL || cap < 4 || r.written > 0 || r.read > 0, fz_last.op,
             "no progress");
  FZ_REQUIRE(r.status != UTFX_OK || r.read == (is_end ? 0 : n), fz_last.op, "OK short of n");
  FZ_REQUIRE(!cap || fz_is_canary(pl.p + r.written * unit, (cap - r.written) * unit), fz_last.op,
             "wrote after written");
  FZ_REQUIRE(!u8 || utfx_validate_utf8((const char *)pl.p, r.written).status == UTFX_OK,
             fz_last.op, "cut inside a UTF-8 character");
  if (!u8 && r.status == UTFX_DST_FULL && r.written > 0) {
    char16_t last;
    memcpy(&last, pl.p + 2 * (r.written - 1), 2);
    /* a final high surrogate is only allowed if its pair is not next: the
     * WHATWG decoder never writes half a pair, so never */
    FZ_REQUIRE((last & 0xFC00) != 0xD800, fz_last.op, "DST_FULL after half a pair");
  }
  wz_record(fz_last.op, r, pl.p, r.written * unit);
  wz_append(o, pl.p, r.written * unit);
  o->units += r.written;
  o->replaced += r.replaced;
  FZ_REQUIRE(fz_unplace(&pl), fz_last.op, "wrote outside dst");
  return r;
}

/* A whole write (or end), resumed after DST_FULL. Returns the last result
 * with read = bytes of src accounted for in all. */
static utfx_result wz_write(utfx_decoder *d, int u8, int is_end, const char *src, size_t n,
                            int cap_style, uint64_t *rng, size_t *call, struct wz_out *o) {
  size_t pos = 0, calls = 0;
  for (;;) {
    size_t left = is_end ? 0 : n - pos;
    size_t bound = u8 ? utfx_decoder_max_length_utf8(d, left) : utfx_decoder_max_length(d, left);
    size_t cap = wz_pick_cap(cap_style, rng, bound);
    utfx_result r;
    if (calls > 0 && cap < 4) cap = 4;
    r = wz_call(d, u8, is_end, src ? src + pos : NULL, left, cap, (*call)++, o);
    pos += r.read;
    if (r.status != UTFX_DST_FULL) {
      r.read = pos;
      return r;
    }
    FZ_REQUIRE(++calls <= 4 * n + 8, "write", "no end to DST_FULL");
  }
}

static void check_input(const uint8_t *data, size_t size) {
  unsigned cfg = size > 0 ? data[0] : 0, plan = size > 1 ? data[1] : 0;
  utfx_encoding enc = wz_encs[(cfg & 3) % 3];
  unsigned flags = cfg >> 2 & 3;
  int u8 = (int)(cfg >> 4 & 1), fatal = (flags & UTFX_WHATWG_FATAL) != 0;
  const uint8_t *payload = data + (size < 2 ? size : 2);
  size_t n = size - (size_t)(payload - data), at = 0, call = 100;
  struct fz_place src = fz_place_src(payload, n, 1);
  const char *s = (const char *)src.p;
  struct wz_out o16, o8, via8, oc, st, again;
  uint64_t rng = fz_seed ^ 0x3C6EF372FE94F82Bull;
  utfx_decoder d;
  utfx_result r = {UTFX_OK, 0, 0, 0};
  const struct wz_out *want;

  fz_last.what = enc == UTFX_UTF8 ? "utf-8" : enc == UTFX_UTF16LE ? "utf-16le" : "utf-16be";
  fz_last.flags = flags;
  /* the one-shot results, both forms, at max_length */
  o16 = wz_once(enc, flags, 0, s, n, utfx_whatwg_max_length(enc, n), 0);
  o8 = wz_once(enc, flags, 1, s, n, utfx_whatwg_max_length_utf8(enc, n), 10);
  FZ_REQUIRE(o16.status != UTFX_DST_FULL && o8.status == o16.status && o8.read == o16.read,
             "one-shot", "forms differ in status");
  memset(&via8, 0, sizeof via8);
  FZ_REQUIRE(wz_to_utf8(o16.p, o16.units, &via8), "one-shot", "lone surrogate in output");
  FZ_REQUIRE(via8.len == o8.len && (o8.len == 0 || !memcmp(via8.p, o8.p, o8.len)), "one-shot",
             "UTF-8 form is not the UTF-16 form encoded");
  FZ_REQUIRE(o16.replaced == o8.replaced, "one-shot", "replacement counts differ");
  FZ_REQUIRE(fz_validate("validate_utf8", fz_validate_utf8, o8.p, o8.len).status == UTFX_OK,
             "one-shot", "UTF-8 form not well-formed");
  if (enc == UTFX_UTF8 && !fatal) { /* the exact length, less a removed BOM */
    size_t len = fz_length("utf16_length_from_utf8", fz_utf16_length_from_utf8, s, n);
    int bom = !(flags & UTFX_WHATWG_IGNORE_BOM) && n >= 3 && !memcmp(payload, "\xEF\xBB\xBF", 3);
    FZ_REQUIRE(o16.units == len - (size_t)bom, "one-shot", "not utf16_length_from_utf8 - BOM");
  }
  want = u8 ? &o8 : &o16;
  /* the one-shot at the control capacity, resumed */
  oc = wz_once(enc, flags, u8, s, n, fz_control_cap(want->units), 20);
  FZ_REQUIRE(oc.status == want->status && oc.read == want->read && oc.len == want->len &&
                 (oc.len == 0 || !memcmp(oc.p, want->p, oc.len)),
             "one-shot at the control cap", "differs");
  fz_unplace(&src); /* the chunks take the source arenas now */

  /* the stream */
  FZ_REQUIRE(utfx_decoder_init_whatwg(&d, enc, flags) == 0, "init", "refused");
  memset(&st, 0, sizeof st);
  for (;;) {
    int is_end = at == n;
    size_t c = is_end ? 0 : wz_chunk((int)(plan & 7), &rng, n - at);
    struct fz_place pl = fz_place(0, c, 1, call++, fz_seed);
    if (c) memcpy(pl.p, payload + at, c);
    r = wz_write(&d, u8, is_end, (const char *)pl.p, c, (int)(plan >> 3 & 7), &rng, &call, &st);
    fz_unplace(&pl);
    if (r.status == UTFX_INVALID) {
      size_t where = is_end ? n : at + r.read; /* as a stream offset */
      FZ_REQUIRE(fatal && want->status == UTFX_INVALID, "stream", "INVALID unlike the one-shot");
      FZ_REQUIRE(where == (want->read > at ? want->read : at) || (is_end && want->read <= n),
                 "stream", "error offset differs from the one-shot's");
      break;
    }
    FZ_REQUIRE(r.status == UTFX_OK, "stream", "status");
    if (is_end) break;
    at += c;
  }
  FZ_REQUIRE(st.len == want->len && (st.len == 0 || !memcmp(st.p, want->p, st.len)), "stream",
             "output differs from the one-shot's");
  FZ_REQUIRE(r.status == UTFX_INVALID || st.replaced == want->replaced, "stream",
             "replacement count");
  /* reset: a new stream on the same decoder */
  src = fz_place_src(payload, n, 1);
  s = (const char *)src.p;
  memset(&again, 0, sizeof again);
  r = wz_write(&d, u8, 0, s, n, 0, &rng, &call, &again);
  if (r.status == UTFX_OK) r = wz_write(&d, u8, 1, NULL, 0, 0, &rng, &call, &again);
  FZ_REQUIRE(r.status == want->status && again.len == want->len &&
                 (again.len == 0 || !memcmp(again.p, want->p, again.len)),
             "after reset", "differs from the one-shot");
  free(o16.p);
  free(o8.p);
  free(via8.p);
  free(oc.p);
  free(st.p);
  free(again.p);
  fz_unplace(&src);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fz_run_tiers(check_input, data, size);
  return 0;
}
