/* The WHATWG mode of the streaming decoder and utfx_whatwg_decode against a
 * reference written here, byte at a time, from the Encoding Standard's text:
 * the UTF-8 decoder, the shared UTF-16 decoder, and TextDecoder's decode
 * (BOM seen, the stream flag, end-of-queue, fatal throws and starts over).
 *
 * On every kernel tier, for UTF-8, UTF-16LE and UTF-16BE, all four flag
 * combinations and both output forms:
 *   cuts       short inputs (<= 12 bytes) biased to lead, continuation and
 *              surrogate bytes and BOMs, split into 1-3 pieces every way;
 *   capacity   each write and end of 1-2 piece splits at every first cap
 *              0..needed+2, resumed at src + read: DST_FULL only when the
 *              rest does not fit, at a character boundary, canaries intact,
 *              written <= max_length; OK whenever cap >= max_length;
 *   long       inputs of 64-600 bytes (the SIMD kernels' sizes), mostly valid
 *              text with errors, BOMs and odd bytes, in random chunks;
 *   one-shot   utfx_whatwg_decode(_utf8) of every input above, its INVALID
 *              offset, and at every cap resumed with IGNORE_BOM;
 *   guard      sources ending at and starting right after a PROT_NONE page,
 *              destinations ending at one, at every offset mod 8.
 * Under AVX-512 emulation a deterministic share runs (support/emulated.h). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support/emulated.h"
#include "support/guard.h"
#include "support/whatwg_inputs.h"
#include "tap.h"

#define MAX_IN 4096
#define MAX_CP (MAX_IN + 8)

static const utfx_encoding encs[3] = {UTFX_UTF8, UTFX_UTF16LE, UTFX_UTF16BE};
static const char *const enc_names[3] = {"utf-8", "utf-16le", "utf-16be"};

/* ------------------------------------------------- the reference decoder */

/* The standard's decoder state plus TextDecoder's, offsets absolute. */
typedef struct {
  utfx_encoding enc;
  int fatal, ignore_bom, bom_seen;
  long base; /* stream offset of the current chunk's first byte */
  /* UTF-8 decoder */
  uint32_t cp;
  int needed, seen;
  unsigned lower, upper;
  long seq_at;
  /* shared UTF-16 decoder */
  int lead_byte, lead_surr;
  long lead_byte_at, lead_surr_at;
} ref_dec;

/* What one decode call produced: code points, and an error (fatal). */
typedef struct {
  uint32_t cp[MAX_CP];
  size_t n, replaced;
  int error;
  long error_at;
} ref_out;

static void ref_init(ref_dec *r, utfx_encoding enc, unsigned flags) {
  memset(r, 0, sizeof *r);
  r->enc = enc;
  r->fatal = (flags & UTFX_WHATWG_FATAL) != 0;
  r->ignore_bom = (flags & UTFX_WHATWG_IGNORE_BOM) != 0;
  r->lower = 0x80;
  r->upper = 0xBF;
  r->lead_byte = r->lead_surr = -1;
}

/* "serialize I/O queue": the BOM seen step, then append. */
static void ref_item(ref_dec *r, ref_out *o, uint32_t cp) {
  if (!r->ignore_bom && !r->bom_seen) {
    r->bom_seen = 1;
    if (cp == 0xFEFF) return;
  }
  o->cp[o->n++] = cp;
}

/* An error: U+FFFD in replacement mode, else the call fails at `at`. */
static int ref_error(ref_dec *r, ref_out *o, long at) {
  if (r->fatal) {
    o->error = 1;
    o->error_at = at < r->base ? 0 : at - r->base;
    return 1;
  }
  ref_item(r, o, 0xFFFD);
  o->replaced++;
  return 0;
}

/* The UTF-8 decoder's handler for one byte at absolute offset at; returns
 * 1 when the byte must be read again ("restore byte to ioQueue"). */
static int ref_utf8_byte(ref_dec *r, ref_out *o, unsigned b, long at) {
  if (r->needed == 0) {
    if (b <= 0x7F) {
      ref_item(r, o, b);
    } else if (b >= 0xC2 && b <= 0xDF) {
      r->needed = 1;
      r->cp = b & 0x1F;
    } else if (b >= 0xE0 && b <= 0xEF) {
      if (b == 0xE0) r->lower = 0xA0;
      if (b == 0xED) r->upper = 0x9F;
      r->needed = 2;
      r->cp = b & 0xF;
    } else if (b >= 0xF0 && b <= 0xF4) {
      if (b == 0xF0) r->lower = 0x90;
      if (b == 0xF4) r->upper = 0x8F;
      r->needed = 3;
      r->cp = b & 0x7;
    } else {
      ref_error(r, o, at);
    }
    r->seq_at = at;
    return 0;
  }
  if (b < r->lower || b > r->upper) {
    r->cp = 0;
    r->needed = r->seen = 0;
    r->lower = 0x80;
    r->upper = 0xBF;
    ref_error(r, o, r->seq_at);
    return 1;
  }
  r->lower = 0x80;
  r->upper = 0xBF;
  r->cp = r->cp << 6 | (b & 0x3F);
  if (++r->seen != r->needed) return 0;
  ref_item(r, o, r->cp);
  r->cp = 0;
  r->needed = r->seen = 0;
  return 0;
}

/* Bytes restored to the queue by the UTF-16 decoder, read before the rest. */
typedef struct {
  unsigned b[2];
  long at[2];
  int n;
} restored;

static void ref_utf16_byte(ref_dec *r, ref_out *o, unsigned b, long at, restored *back) {
  int be = r->enc == UTFX_UTF16BE;
  unsigned unit;
  long unit_at;
  if (r->lead_byte < 0) {
    r->lead_byte = (int)b;
    r->lead_byte_at = at;
    return;
  }
  unit = be ? (unsigned)r->lead_byte << 8 | b : b << 8 | (unsigned)r->lead_byte;
  unit_at = r->lead_byte_at;
  r->lead_byte = -1;
  if (r->lead_surr >= 0) {
    unsigned lead = (unsigned)r->lead_surr;
    r->lead_surr = -1;
    if (unit >= 0xDC00 && unit <= 0xDFFF) {
      ref_item(r, o, 0x10000 + ((lead - 0xD800) << 10) + (unit - 0xDC00));
      return;
    }
    back->b[0] = be ? unit >> 8 : unit & 0xFF;
    back->b[1] = be ? unit & 0xFF : unit >> 8;
    back->at[0] = unit_at;
    back->at[1] = unit_at + 1;
    back->n = 2;
    ref_error(r, o, r->lead_surr_at);
    return;
  }
  if (unit >= 0xD800 && unit <= 0xDBFF) {
    r->lead_surr = (int)unit;
    r->lead_surr_at = unit_at;
    return;
  }
  if (unit >= 0xDC00 && unit <= 0xDFFF) {
    ref_error(r, o, unit_at);
    return;
  }
  ref_item(r, o, unit);
}

static void ref_reset(ref_dec *r) {
  unsigned flags = (r->fatal ? UTFX_WHATWG_FATAL : 0) | (r->ignore_bom ? UTFX_WHATWG_IGNORE_BOM : 0);
  long base = r->base;
  ref_init(r, r->enc, flags);
  r->base = base;
}

/* decode(chunk, {stream: true}). A fatal error resets (TextDecoder throws
 * and its next decode starts a new stream). */
static void ref_write(ref_dec *r, const unsigned char *p, size_t n, ref_out *o) {
  size_t j = 0;
  restored back = {{0, 0}, {0, 0}, 0};
  o->n = o->replaced = 0;
  o->error = 0;
  while (j < n || back.n) {
    unsigned b;
    long at;
    if (back.n) {
      b = back.b[0];
      at = back.at[0];
      back.b[0] = back.b[1];
      back.at[0] = back.at[1];
      back.n--;
    } else {
      b = p[j];
      at = r->base + (long)j;
      j++;
    }
    if (r->enc == UTFX_UTF8) {
      if (ref_utf8_byte(r, o, b, at)) {
        if (at >= r->base) j--; /* read it again */
      }
    } else {
      ref_utf16_byte(r, o, b, at, &back);
    }
    if (o->error) {
      ref_reset(r);
      break;
    }
  }
  r->base += (long)n;
}

/* decode(): end-of-queue, then a new stream. *pending_at: the absolute
 * offset of the first byte of what was unfinished (the one-shot offset). */
static void ref_end(ref_dec *r, ref_out *o, long *pending_at) {
  int unfinished;
  o->n = o->replaced = 0;
  o->error = 0;
  if (r->enc == UTFX_UTF8) {
    unfinished = r->needed != 0;
    *pending_at = r->seq_at;
  } else {
    unfinished = r->lead_byte >= 0 || r->lead_surr >= 0;
    *pending_at = r->lead_surr >= 0 ? r->lead_surr_at : r->lead_byte_at;
  }
  if (unfinished && ref_error(r, o, r->base)) o->error_at = 0;
  r->base = 0;
  ref_reset(r);
  r->base = 0;
}

/* The code points in an output form: host-order UTF-16 or UTF-8 bytes. */
static size_t encode(const uint32_t *cp, size_t n, int u8, unsigned char *out) {
  size_t i, w = 0;
  for (i = 0; i < n; i++) {
    uint32_t c = cp[i];
    if (u8) {
      if (c < 0x80) {
        out[w++] = (unsigned char)c;
      } else if (c < 0x800) {
        out[w++] = (unsigned char)(0xC0 | c >> 6);
        out[w++] = (unsigned char)(0x80 | (c & 0x3F));
      } else if (c < 0x10000) {
        out[w++] = (unsigned char)(0xE0 | c >> 12);
        out[w++] = (unsigned char)(0x80 | (c >> 6 & 0x3F));
        out[w++] = (unsigned char)(0x80 | (c & 0x3F));
      } else {
        out[w++] = (unsigned char)(0xF0 | c >> 18);
        out[w++] = (unsigned char)(0x80 | (c >> 12 & 0x3F));
        out[w++] = (unsigned char)(0x80 | (c >> 6 & 0x3F));
        out[w++] = (unsigned char)(0x80 | (c & 0x3F));
      }
    } else {
      char16_t u[2];
      size_t k = 1;
      if (c < 0x10000) {
        u[0] = (char16_t)c;
      } else {
        u[0] = (char16_t)(0xD800 + ((c - 0x10000) >> 10));
        u[1] = (char16_t)(0xDC00 + (c & 0x3FF));
        k = 2;
      }
      memcpy(out + w, u, 2 * k);
      w += 2 * k;
    }
  }
  return w;
}

/* ------------------------------------------------------ library driver */

#define CANARY 0xA5
#define SLACK 16

/* One call's output must end at a character boundary of `want`. */
static int at_boundary(const unsigned char *want, size_t want_len, size_t at, int u8) {
  if (at >= want_len) return 1;
  if (u8) return (want[at] & 0xC0) != 0x80;
  {
    char16_t u;
    memcpy(&u, want + at, 2);
    return (u & 0xFC00) != 0xDC00;
  }
}

static utfx_result lib_call(utfx_decoder *d, int u8, int end, const unsigned char *src, size_t n,
                            unsigned char *dst, size_t cap) {
  if (end)
    return u8 ? utfx_decoder_end_utf8(d, cap ? (char *)dst : NULL, cap)
              : utfx_decoder_end(d, cap ? (char16_t *)(void *)dst : NULL, cap);
  return u8 ? utfx_decoder_write_utf8(d, (const char *)src, n, cap ? (char *)dst : NULL, cap)
            : utfx_decoder_write(d, (const char *)src, n, cap ? (char16_t *)(void *)dst : NULL,
                                 cap);
}

static const char *what_enc, *what_form;
static unsigned what_flags;

/* Runs one write (or end) with first cap `cap0` (in units), resumed after
 * DST_FULL, and checks it against the reference's output for that call. */
static void lib_step(utfx_decoder *d, int u8, int end, const unsigned char *src, size_t n,
                     const ref_out *want_cp, size_t cap0) {
  static unsigned char want[4 * MAX_CP], got[4 * MAX_CP + 64];
  static char16_t dstbuf[(4 * MAX_CP + SLACK * 4) / 2];
  unsigned char *dst = (unsigned char *)dstbuf;
  size_t us = u8 ? 1 : 2, want_len = encode(want_cp->cp, want_cp->n, u8, want), got_len = 0;
  size_t pos = 0, cap = cap0, calls = 0, replaced = 0;
  utfx_result r;
  for (;;) {
    size_t bound = u8 ? utfx_decoder_max_length_utf8(d, n - pos) : utfx_decoder_max_length(d, n - pos);
    size_t i, limit = cap * us + SLACK;
    int intact = 1;
    memset(dst, CANARY, limit);
    r = lib_call(d, u8, end, src ? src + pos : NULL, n - pos, dst, cap);
    for (i = r.written * us; i < limit; i++) intact &= dst[i] == CANARY;
    CHECK(intact && r.written <= cap, "%s %s flags %u: call wrote past written (cap %zu)", what_enc,
          what_form, what_flags, cap);
    CHECK(r.written <= bound && (r.status != UTFX_DST_FULL || cap < bound),
          "%s %s flags %u: written %zu status %d with cap %zu, max_length %zu", what_enc, what_form,
          what_flags, r.written, (int)r.status, cap, bound);
    if (got_len + r.written * us <= sizeof got) memcpy(got + got_len, dst, r.written * us);
    got_len += r.written * us;
    replaced += r.replaced;
    if (r.status != UTFX_DST_FULL) break;
    CHECK(got_len < want_len && cap * us < want_len - (got_len - r.written * us),
          "%s %s flags %u: DST_FULL though the rest fits (cap %zu)", what_enc, what_form, what_flags,
          cap);
    CHECK(at_boundary(want, want_len, got_len, u8), "%s %s flags %u: DST_FULL cut inside a character",
          what_enc, what_form, what_flags);
    CHECK(r.read <= n - pos, "%s read past n", what_enc);
    pos += r.read;
    if (r.written == 0 && r.read == 0 && cap >= (u8 ? 4u : 2u)) {
      CHECK(0, "%s %s flags %u: no progress at cap %zu", what_enc, what_form, what_flags, cap);
      return;
    }
    if (cap < (u8 ? 4u : 2u)) cap = u8 ? 4 : 2;
    if (++calls > 4 * MAX_CP) {
      CHECK(0, "%s: endless DST_FULL", what_enc);
      return;
    }
  }
  if (want_cp->error) {
    CHECK(r.status == UTFX_INVALID && pos + r.read == (size_t)want_cp->error_at,
          "%s %s flags %u: %s: status %d read %zu, want INVALID at %ld", what_enc, what_form,
          what_flags, end ? "end" : "write", (int)r.status, pos + r.read, want_cp->error_at);
  } else {
    CHECK(r.status == UTFX_OK && (end || pos + r.read == n),
          "%s %s flags %u: %s: status %d read %zu of %zu", what_enc, what_form, what_flags,
          end ? "end" : "write", (int)r.status, pos + r.read, n);
  }
  CHECK(got_len == want_len && memcmp(got, want, want_len) == 0,
        "%s %s flags %u: %s output differs (%zu bytes, want %zu)", what_enc, what_form, what_flags,
        end ? "end" : "write", got_len, want_len);
  CHECK(replaced == want_cp->replaced || want_cp->error,
        "%s %s flags %u: replaced %zu", what_enc, what_form, what_flags, replaced);
}

/* A whole stream: the chunks cut at cuts[0..k] (cuts[0] = 0, cuts[k] = n),
 * then end; every call's first cap is cap0 (SIZE_MAX: max_length). */
static void check_stream(utfx_encoding enc, unsigned flags, int u8, const unsigned char *in,
                         const size_t *cuts, size_t k, size_t cap0, size_t cap_chunk) {
  utfx_decoder d;
  ref_dec ref;
  static ref_out out;
  size_t j;
  long pending_at;
  CHECK(utfx_decoder_init_whatwg(&d, enc, flags) == 0, "init");
  ref_init(&ref, enc, flags);
  for (j = 0; j <= k; j++) {
    const unsigned char *src = j < k ? in + cuts[j] : NULL;
    size_t n = j < k ? cuts[j + 1] - cuts[j] : 0, cap;
    if (j < k)
      ref_write(&ref, src, n, &out);
    else
      ref_end(&ref, &out, &pending_at);
    cap = u8 ? utfx_decoder_max_length_utf8(&d, n) : utfx_decoder_max_length(&d, n);
    if (cap0 != SIZE_MAX && (cap_chunk == SIZE_MAX || cap_chunk == j)) cap = cap0;
    lib_step(&d, u8, j == k, src, n, &out, cap);
  }
}

/* utfx_whatwg_decode at cap: against the reference's write + end; after
 * DST_FULL the rest is decoded with IGNORE_BOM. */
static void check_once(utfx_encoding enc, unsigned flags, int u8, const unsigned char *in,
                       size_t n, size_t cap0) {
  static ref_out a, b;
  static unsigned char want[4 * MAX_CP], got[4 * MAX_CP + SLACK];
  static char16_t dstbuf[(4 * MAX_CP + SLACK) / 2];
  unsigned char *dst = (unsigned char *)dstbuf;
  ref_dec ref;
  long pending_at;
  size_t us = u8 ? 1 : 2, want_len, got_len = 0, pos = 0, cap = cap0, calls = 0;
  unsigned f = flags;
  long error_at = -1;
  utfx_result r;
  ref_init(&ref, enc, flags);
  ref_write(&ref, in, n, &a);
  if (a.error) {
    error_at = a.error_at;
  } else {
    ref_end(&ref, &b, &pending_at);
    memcpy(a.cp + a.n, b.cp, b.n * sizeof b.cp[0]);
    a.n += b.n;
    if (b.error) error_at = pending_at;
  }
  want_len = encode(a.cp, a.n, u8, want);
  if (cap == SIZE_MAX)
    cap = u8 ? utfx_whatwg_max_length_utf8(enc, n) : utfx_whatwg_max_length(enc, n);
  for (;;) {
    size_t i, limit = cap * us + SLACK;
    int intact = 1;
    memset(dst, CANARY, limit);
    r = u8 ? utfx_whatwg_decode_utf8(enc, f, (const char *)in + pos, n - pos,
                                     cap ? (char *)dst : NULL, cap)
           : utfx_whatwg_decode(enc, f, (const char *)in + pos, n - pos,
                                cap ? (char16_t *)(void *)dst : NULL, cap);
    for (i = r.written * us; i < limit; i++) intact &= dst[i] == CANARY;
    CHECK(intact && r.written <= cap, "%s one-shot %s: wrote past written", what_enc, what_form);
    memcpy(got + got_len, dst, r.written * us);
    got_len += r.written * us;
    if (r.status != UTFX_DST_FULL) break;
    CHECK(at_boundary(want, want_len, got_len, u8) && r.read <= n - pos,
          "%s one-shot %s: DST_FULL cut inside a character", what_enc, what_form);
    pos += r.read;
    f |= UTFX_WHATWG_IGNORE_BOM;
    if (cap < (u8 ? 4u : 2u)) cap = u8 ? 4 : 2;
    if (++calls > 4 * MAX_CP) {
      CHECK(0, "%s one-shot: endless DST_FULL", what_enc);
      return;
    }
  }
  if (error_at >= 0)
    CHECK(r.status == UTFX_INVALID && pos + r.read == (size_t)error_at,
          "%s one-shot %s flags %u: status %d read %zu, want INVALID at %ld", what_enc, what_form,
          flags, (int)r.status, pos + r.read, error_at);
  else
    CHECK(r.status == UTFX_OK && pos + r.read == n, "%s one-shot %s flags %u: status %d read %zu",
          what_enc, what_form, flags, (int)r.status, pos + r.read);
  CHECK(got_len == want_len && memcmp(got, want, want_len) == 0,
        "%s one-shot %s flags %u: output differs (%zu bytes, want %zu)", what_enc, what_form, flags,
        got_len, want_len);
}

/* ------------------------------------------------------------- suites */

static test_rng rng;


static void set_what(int e, unsigned flags, int u8) {
  what_enc = enc_names[e];
  what_flags = flags;
  what_form = u8 ? "utf-8 form" : "utf-16 form";
}

/* Every split of short inputs into 1-3 pieces, and the one-shot call. */
static void suite_cuts(void) {
  size_t inputs = test_emulated() ? 200 : 1000, t;
  int e, u8;
  unsigned flags;
  rng_seed(&rng, 33);
  for (e = 0; e < 3; e++)
    for (t = 0; t < inputs; t++) {
      unsigned char in[16];
      size_t n = gen_short(&rng, encs[e], in, 12), i, j;
      for (flags = 0; flags < 4; flags++)
        for (u8 = 0; u8 < 2; u8++) {
          set_what(e, flags, u8);
          check_once(encs[e], flags, u8, in, n, SIZE_MAX);
          for (i = 0; i <= n; i++)
            for (j = i; j <= n; j++) {
              size_t cuts[4] = {0, i, j, n};
              check_stream(encs[e], flags, u8, in, cuts, 3, SIZE_MAX, SIZE_MAX);
            }
        }
    }
  tap_group("whatwg: every 1-3 piece split of short inputs, both forms, all flags");
}

/* Every first cap 0..needed+2 of each call of 1-2 piece splits. */
static void suite_capacity(void) {
  size_t inputs = test_emulated() ? 20 : 60, t;
  int e, u8;
  unsigned flags;
  rng_seed(&rng, 34);
  for (e = 0; e < 3; e++)
    for (t = 0; t < inputs; t++) {
      unsigned char in[16];
      size_t n = gen_short(&rng, encs[e], in, 10), i, c, j;
      for (flags = 0; flags < 4; flags++)
        for (u8 = 0; u8 < 2; u8++) {
          size_t most = (u8 ? 3 : 1) * (n + 2) + 2;
          set_what(e, flags, u8);
          for (c = 0; c <= most; c++) check_once(encs[e], flags, u8, in, n, c);
          for (i = 0; i <= n; i++) {
            size_t cuts[3] = {0, i, n};
            for (j = 0; j <= 2; j++)
              for (c = 0; c <= most; c++) check_stream(encs[e], flags, u8, in, cuts, 2, c, j);
          }
        }
    }
  tap_group("whatwg: every capacity of every call, resumed, canaries, max_length");
}

/* Long inputs in random chunks (random caps on some calls). */
static void suite_long(void) {
  static unsigned char in[MAX_IN];
  size_t inputs = test_emulated() ? 40 : 200, t;
  int e, u8;
  unsigned flags;
  rng_seed(&rng, 35);
  for (e = 0; e < 3; e++)
    for (t = 0; t < inputs; t++) {
      size_t n = gen_long(&rng, in, 64 + rng_below(&rng, 600), encs[e]);
      for (flags = 0; flags < 4; flags++)
        for (u8 = 0; u8 < 2; u8++) {
          size_t cuts[64], k = 0, at = 0, cap0 = SIZE_MAX;
          set_what(e, flags, u8);
          check_once(encs[e], flags, u8, in, n, SIZE_MAX);
          check_once(encs[e], flags, u8, in, n, rng_below(&rng, 3 * n + 4));
          cuts[0] = 0;
          while (at < n && k < 62) {
            size_t step = rng_below(&rng, 3) == 0 ? rng_below(&rng, 4) : rng_below(&rng, 200);
            at = at + step < n ? at + step : n;
            cuts[++k] = at;
          }
          if (at < n) cuts[++k] = n;
          if (rng_below(&rng, 2)) cap0 = rng_below(&rng, 64);
          check_stream(encs[e], flags, u8, in, cuts, k, cap0, SIZE_MAX);
        }
    }
  tap_group("whatwg: long inputs in random chunks, one-shot");
}

/* Sources against PROT_NONE pages (both sides), destinations ending at one. */
static void suite_guard(void) {
  static unsigned char in[MAX_IN];
  size_t inputs = test_emulated() ? 8 : 24, t;
  int e, u8, front;
  rng_seed(&rng, 36);
  for (e = 0; e < 3; e++)
    for (t = 0; t < inputs; t++) {
      size_t n = t < inputs / 2 ? gen_short(&rng, encs[e], in, 12) : gen_long(&rng, in, 64 + t * 13, encs[e]);
      for (front = 0; front < 2; front++)
        for (u8 = 0; u8 < 2; u8++) {
          unsigned flags = (unsigned)t & 3;
          size_t off;
          for (off = 0; off < 8; off++) {
            size_t us = u8 ? 1 : 2, cut = n ? (off * 7) % n : 0, need, c;
            utfx_decoder d;
            ref_dec ref;
            static ref_out a, b;
            long pending_at;
            static unsigned char want[4 * MAX_CP];
            size_t pieces[3] = {0, cut, n}, j, want_len;
            int bad = 0;
            set_what(e, flags, u8);
            ref_init(&ref, encs[e], flags);
            (void)utfx_decoder_init_whatwg(&d, encs[e], flags);
            for (j = 0; j <= 2; j++) {
              size_t len = j < 2 ? pieces[j + 1] - pieces[j] : 0;
              /* front: right after the page; else ending right at it */
              unsigned char *src = front ? guard_alloc_front(len + off) : guard_alloc(len + off);
              unsigned char *s = front ? src : src + off, *dst;
              utfx_result r;
              if (j < 2) {
                memcpy(s, in + pieces[j], len);
                ref_write(&ref, s, len, &a);
              } else {
                ref_end(&ref, &a, &pending_at);
              }
              want_len = encode(a.cp, a.n, u8, want);
              need = u8 ? utfx_decoder_max_length_utf8(&d, len) : utfx_decoder_max_length(&d, len);
              c = a.error ? need : want_len / us;
              dst = guard_alloc(c * us);
              r = lib_call(&d, u8, j == 2, s, len, dst, c);
              if (a.error)
                bad |= r.status != UTFX_INVALID || r.read != (size_t)a.error_at;
              else
                bad |= r.status != UTFX_OK;
              bad |= r.written * us != want_len || memcmp(dst, want, want_len) != 0;
              guard_free(dst, c * us);
              if (front)
                guard_free_front(src, len + off);
              else
                guard_free(src, len + off);
            }
            CHECK(!bad, "%s %s flags %u: guard-page stream (n %zu, cut %zu, off %zu, front %d)",
                  what_enc, what_form, flags, n, cut, off, front);
            {
              unsigned char *src = front ? guard_alloc_front(n) : guard_alloc(n), *dst;
              utfx_result r;
              memcpy(src, in, n);
              ref_init(&ref, encs[e], flags);
              ref_write(&ref, in, n, &a);
              b.n = 0;
              b.error = 0;
              if (!a.error) ref_end(&ref, &b, &pending_at);
              memcpy(a.cp + a.n, b.cp, b.n * sizeof b.cp[0]);
              want_len = encode(a.cp, a.n + b.n, u8, want);
              c = want_len / us;
              dst = guard_alloc(c * us);
              r = u8 ? utfx_whatwg_decode_utf8(encs[e], flags, (const char *)src, n,
                                               c ? (char *)dst : NULL, c)
                     : utfx_whatwg_decode(encs[e], flags, (const char *)src, n,
                                          c ? (char16_t *)(void *)dst : NULL, c);
              CHECK(r.written * us == want_len && memcmp(dst, want, want_len) == 0 &&
                        (r.status == UTFX_OK) == !(a.error || b.error),
                    "%s %s: guard-page one-shot (n %zu)", what_enc, what_form, n);
              guard_free(dst, c * us);
              if (front)
                guard_free_front(src, n);
              else
                guard_free(src, n);
            }
          }
        }
    }
  tap_group("whatwg: sources and destinations against PROT_NONE pages");
}

/* Hand-checked cases from the standard's text. */
static void suite_known(void) {
  struct {
    utfx_encoding enc;
    unsigned flags;
    const char *in;
    size_t n;
    const char *want; /* UTF-8 */
    int status;
    size_t read;
  } cases[] = {
      {UTFX_UTF8, 0, "\xEF\xBB\xBF" "a", 4, "a", UTFX_OK, 4},
      {UTFX_UTF8, UTFX_WHATWG_IGNORE_BOM, "\xEF\xBB\xBF" "a", 4, "\xEF\xBB\xBF" "a", UTFX_OK, 4},
      {UTFX_UTF8, 0, "\xEF\xBB\xBF\xEF\xBB\xBF", 6, "\xEF\xBB\xBF", UTFX_OK, 6},
      {UTFX_UTF8, 0, "\xE2\x82" "A", 3, "\xEF\xBF\xBD" "A", UTFX_OK, 3},
      {UTFX_UTF8, UTFX_WHATWG_FATAL, "a\xE2\x82" "A", 4, "a", UTFX_INVALID, 1},
      {UTFX_UTF8, UTFX_WHATWG_FATAL, "ab\xF0\x9F\x98", 5, "ab", UTFX_INVALID, 2},
      {UTFX_UTF8, 0, "\xF0\x9F\x98", 3, "\xEF\xBF\xBD", UTFX_OK, 3},
      {UTFX_UTF8, 0, "\xED\xA0\x80", 3, "\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD", UTFX_OK, 3},
      {UTFX_UTF16LE, 0, "\xFF\xFE" "a\0", 4, "a", UTFX_OK, 4},
      {UTFX_UTF16LE, 0, "\xFE\xFF" "a\0", 4, "\xEF\xBF\xBE" "a", UTFX_OK, 4},
      {UTFX_UTF16BE, 0, "\xFE\xFF\0a", 4, "a", UTFX_OK, 4},
      {UTFX_UTF16LE, 0, "a\0\x00\xD8" "b", 5, "a\xEF\xBF\xBD", UTFX_OK, 5},
      {UTFX_UTF16LE, 0, "\x00\xD8" "b\0", 4, "\xEF\xBF\xBD" "b", UTFX_OK, 4},
      {UTFX_UTF16LE, UTFX_WHATWG_FATAL, "a\0b\0\x00\xDC", 6, "ab", UTFX_INVALID, 4},
      {UTFX_UTF16LE, UTFX_WHATWG_FATAL, "a\0\x00\xD8" "b", 5, "a", UTFX_INVALID, 2},
      {UTFX_UTF16BE, 0, "\xD8\x3D\xDE\x00", 4, "\xF0\x9F\x98\x80", UTFX_OK, 4},
  };
  size_t i;
  for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    char out[64];
    utfx_result r = utfx_whatwg_decode_utf8(cases[i].enc, cases[i].flags, cases[i].in, cases[i].n,
                                            out, sizeof out);
    size_t len = strlen(cases[i].want);
    CHECK(r.status == (utfx_status)cases[i].status && r.read == cases[i].read &&
              r.written == len && memcmp(out, cases[i].want, len) == 0,
          "known case %zu: status %d read %zu written %zu", i, (int)r.status, r.read, r.written);
  }
  {
    utfx_decoder d;
    CHECK(utfx_decoder_init_whatwg(&d, UTFX_LATIN1, 0) != 0, "init accepts latin1");
    CHECK(utfx_decoder_write(&d, "a", 1, NULL, 0).status == UTFX_INVALID, "refused decoder");
    CHECK(utfx_decoder_init_whatwg(&d, UTFX_UTF8, 4) != 0, "init accepts flag 4");
    CHECK(sizeof(utfx_decoder) == 12, "utfx_decoder grew");
    /* an empty write (NULL, 0) and cap 0 with bytes held: defined, no output */
    CHECK(utfx_decoder_init_whatwg(&d, UTFX_UTF8, 0) == 0, "init");
    CHECK(utfx_decoder_write(&d, "\xF0\x9F", 2, NULL, 0).status == UTFX_OK, "held write");
    CHECK(utfx_decoder_write(&d, NULL, 0, NULL, 0).status == UTFX_OK, "empty write");
    CHECK(utfx_decoder_end(&d, NULL, 0).status == UTFX_DST_FULL, "end at cap 0");
    CHECK(utfx_whatwg_decode(UTFX_UTF16LE, 0, "a", 1, NULL, 0).status == UTFX_DST_FULL,
          "one-shot at cap 0");
  }
  { /* after INVALID a new stream: its BOM is removed, nothing is pending */
    utfx_decoder d;
    char16_t out[8];
    utfx_result r[4];
    (void)utfx_decoder_init_whatwg(&d, UTFX_UTF8, UTFX_WHATWG_FATAL);
    r[0] = utfx_decoder_write(&d, "\xEF\xBB\xBF" "A", 4, out, 8);
    r[1] = utfx_decoder_write(&d, "\xFF", 1, out, 8);
    r[2] = utfx_decoder_write(&d, "\xEF\xBB\xBF" "C", 4, out, 8);
    CHECK(r[0].written == 1 && r[1].status == UTFX_INVALID && r[1].read == 0 &&
              r[2].status == UTFX_OK && r[2].written == 1 && out[0] == 'C',
          "fatal utf-8: the stream after INVALID");
    (void)utfx_decoder_init_whatwg(&d, UTFX_UTF16LE, UTFX_WHATWG_FATAL);
    r[0] = utfx_decoder_write(&d, "\x00\xD8", 2, out, 8);
    r[1] = utfx_decoder_write(&d, "A\0", 2, out, 8);
    r[2] = utfx_decoder_end(&d, out, 8);
    CHECK(r[0].status == UTFX_OK && r[0].written == 0 && r[1].status == UTFX_INVALID &&
              r[1].read == 0 && r[1].written == 0 && r[2].status == UTFX_OK && r[2].written == 0,
          "fatal utf-16le: end after INVALID");
  }
  tap_group("whatwg: known answers, refused encodings and flags");
}

static void suite(void) {
  suite_known();
  suite_cuts();
  suite_capacity();
  suite_long();
  suite_guard();
}

int main(void) {
  tap_for_each_impl(suite);
  return tap_done();
}
