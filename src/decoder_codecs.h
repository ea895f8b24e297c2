/* The streaming decoder's codecs (src/decoder.c holds the framing): each
 * encoding's piece, bytes decoded as Buffer.toString decodes them (Node's
 * MakeString) into a bounded output, through the active tier's kernels, and
 * piece(), which picks the codec. Each returns the bytes it consumed: fewer
 * than given when the output filled up, always at a character boundary.
 * Static functions, included by decoder.c only, so that they stay in its
 * translation unit (and inline into piece()). */
#ifndef UTFX_DECODER_CODECS_H
#define UTFX_DECODER_CODECS_H

#include "internal.h"
#include "scalar/base64_tables.h"
#include "scalar/decoder_text.h"
#include "scalar/unicode.h"

/* Where the output goes: char16_t units in host order, or UTF-8 bytes. */
struct out {
  void *dst;
  size_t cap, w, replaced;
  int u8;
};


static int host_le(void) { return utfxi_host_le(); }

static char16_t *out16(const struct out *o) { return (char16_t *)o->dst + o->w; }
static unsigned char *out8(const struct out *o) { return (unsigned char *)o->dst + o->w; }
static size_t room(const struct out *o) { return o->cap - o->w; }

static int is_high(uint32_t u) { return (u & 0xFC00) == 0xD800; }
static int is_low(uint32_t u) { return (u & 0xFC00) == 0xDC00; }
static uint32_t unit_le(const unsigned char *p) { return p[0] | (uint32_t)p[1] << 8; }

static void put_fffd(struct out *o) {
  unsigned char *d = out8(o);
  d[0] = 0xEF;
  d[1] = 0xBF;
  d[2] = 0xBD;
  o->w += 3;
  o->replaced++;
}

/* ------------------------------------------------------------------ utf8 */

static size_t utf8_to_utf16(const struct utfxi_kernels *k, struct out *o, const unsigned char *p,
                            size_t n) {
  size_t cap = room(o);
  char16_t no_room[1]; /* kernels never get NULL (NULL + 0 is UB); with cap 0 they write nothing */
  char16_t *dst = cap ? out16(o) : no_room;
  utfx_result r = utfxi_utf8_to_utf16_host(k, p, n, dst, cap, UTFX_REPLACE);
  o->w += r.written;
  o->replaced += r.replaced;
  return r.read;
}

/* The sanitizer: the validation kernel finds the next ill-formed subpart,
 * the valid run before it is copied as is, the subpart becomes EF BF BD. */
static size_t utf8_to_utf8(const struct utfxi_kernels *k, struct out *o, const unsigned char *p,
                           size_t n) {
  size_t i = 0;
  while (i < n) {
    utfx_result v = k->validate_utf8((const char *)p + i, n - i);
    size_t valid = v.status == UTFX_OK ? n - i : v.read, len;
    uint32_t cp;
    if (valid > room(o)) {
      size_t c = room(o); /* back up to the start of the character cut by cap */
      while (c > 0 && (p[i + c] & 0xC0) == 0x80) c--;
      if (c) memcpy(out8(o), p + i, c);
      o->w += c;
      return i + c;
    }
    if (valid) memcpy(out8(o), p + i, valid);
    o->w += valid;
    i += valid;
    if (i == n) break;
    if (room(o) < 3) return i;
    len = utfxi_utf8_decode(p + i, n - i, &cp);
    put_fffd(o);
    i += len;
  }
  return n;
}

/* --------------------------------------------------------------- utf16le */

/* A pair's halves can come from different pieces of one write (the unit
 * completed from a held odd byte, then the body; or a high surrogate left
 * waiting by an earlier call), so no piece may decide alone where the output
 * can be cut. Both forms therefore keep a high surrogate that ends a piece in
 * d->high_ until the next unit is known and write the two together (UTF-8
 * form: as one 4-byte character; UTF-16 form: both units or neither). The
 * UTF-8 form keeps it across writes (UTF-8 cannot carry half a pair); the
 * UTF-16 form writes it when the write ends (finish_write), as Node's write
 * returns it. */

/* UTF-16 form: copies units (bytes in little-endian order) to host-order
 * char16_t. Returns the units consumed (a final high surrogate counts: it
 * waits in d->high_); fewer when cut by cap, never between a pair's halves. */
static size_t units_to_utf16(utfx_decoder *d, struct out *o, const unsigned char *p,
                             size_t units) {
  size_t i = 0, end = units, c, j;
  char16_t *dst;
  if (units == 0) return 0;
  if (d->high_) {
    size_t pair = is_low(unit_le(p)) ? 2 : 1;
    if (room(o) < pair) return 0;
    dst = out16(o);
    dst[0] = (char16_t)d->high_;
    if (pair == 2) dst[1] = (char16_t)unit_le(p);
    o->w += pair;
    i = pair - 1;
    d->high_ = 0;
  }
  if (end > i && is_high(unit_le(p + 2 * (end - 1)))) end--;
  c = end - i;
  if (c > room(o)) {
    c = room(o);
    if (c > 0 && is_high(unit_le(p + 2 * (i + c - 1))) && is_low(unit_le(p + 2 * (i + c)))) c--;
    end = i + c;
    units = end; /* no final high surrogate is kept: the rest comes again */
  }
  if (c) {
    dst = out16(o);
    if (host_le())
      memcpy(dst, p + 2 * i, 2 * c);
    else
      for (j = 0; j < c; j++) dst[j] = (char16_t)unit_le(p + 2 * (i + j));
    o->w += c;
  }
  if (end < units) d->high_ = (uint16_t)unit_le(p + 2 * end);
  return units;
}

/* UTF-8 form: the units continue a stream whose last high surrogate may be
 * waiting in d->high_; a final high surrogate waits there for the next unit.
 * The bulk goes through the UTF-16LE to UTF-8 kernel (REPLACE). */
static size_t units_to_utf8(utfx_decoder *d, const struct utfxi_kernels *k, struct out *o,
                            const unsigned char *p, size_t units) {
  size_t i = 0, end = units;
  char no_room[1]; /* kernels never get NULL (NULL + 0 is UB); with cap 0 they write nothing */
  if (units == 0) return 0;
  if (d->high_) {
    uint32_t u = unit_le(p), c;
    if (is_low(u)) {
      if (room(o) < 4) return 0;
      c = 0x10000 + ((d->high_ - 0xD800u) << 10) + (u - 0xDC00);
      utfxi_put(o->dst, o->w, c, UTFXI_T_UTF8);
      o->w += 4;
      i = 1;
    } else {
      if (room(o) < 3) return 0;
      put_fffd(o);
    }
    d->high_ = 0;
  }
  if (end > i && is_high(unit_le(p + 2 * (end - 1)))) end--;
  while (i < end) {
    char16_t bounce[256];
    const char16_t *s;
    size_t cnt = end - i, cap = room(o);
    utfx_result r;
    if (((uintptr_t)(p + 2 * i) & (_Alignof(char16_t) - 1)) == 0) {
      s = (const char16_t *)(const void *)(p + 2 * i);
    } else { /* odd address: an aligned copy keeps the kernel's loads defined */
      if (cnt > 256) {
        cnt = 256;
        if (is_high(unit_le(p + 2 * (i + cnt - 1)))) cnt--; /* keep pairs together */
      }
      memcpy(bounce, p + 2 * i, 2 * cnt);
      s = bounce;
    }
    r = k->convert_utf16le_to_utf8(s, cnt, cap ? (char *)out8(o) : no_room, cap, UTFX_REPLACE);
    o->w += r.written;
    o->replaced += r.replaced;
    i += r.read;
    if (r.status != UTFX_OK) return i;
  }
  if (end < units) d->high_ = (uint16_t)unit_le(p + 2 * end);
  return units;
}

/* ---------------------------------------------------------- latin1, ascii */

static size_t latin1_out(const struct utfxi_kernels *k, struct out *o, const unsigned char *p,
                         size_t n) {
  size_t c = n < room(o) ? n : room(o);
  utfx_result r;
  if (o->u8) {
    char no_room[1]; /* kernels never get NULL; with no room they write nothing */
    r = k->convert_latin1_to_utf8((const char *)p, n, room(o) ? (char *)out8(o) : no_room,
                                  room(o), UTFX_REPLACE);
    o->w += r.written;
    return r.read;
  }
  if (!c) return 0;
  r = host_le() ? k->convert_latin1_to_utf16le((const char *)p, c, out16(o), c, UTFX_REPLACE)
                : k->convert_latin1_to_utf16be((const char *)p, c, out16(o), c, UTFX_REPLACE);
  o->w += r.written;
  return r.read;
}

/* Node's ascii decoding clears the top bit of every byte. */
static size_t ascii_out(const struct utfxi_kernels *k, struct out *o, const unsigned char *p,
                        size_t n) {
  size_t c = n < room(o) ? n : room(o), j = 0;
  if (!c) return 0;
  if (o->u8) {
    unsigned char *dst = out8(o);
    for (; c - j >= 8; j += 8) {
      uint64_t v = utfxi_load64(p + j) & 0x7F7F7F7F7F7F7F7Full;
      memcpy(dst + j, &v, 8);
    }
    for (; j < c; j++) dst[j] = p[j] & 0x7F;
  } else {
    char16_t *dst = out16(o);
    /* whole 16-byte blocks: a short piece in line, as a call costs more
     * (the compiler-vectorized loop beats the tiers' call on short pieces:
     * docs/perf-decisions.md, 'Decoder: ascii in line') */
    j = c >= 256 ? k->ascii_blocks(p, c, dst) : utfxi_ascii_blocks_portable(p, c, dst);
    for (; j < c; j++) dst[j] = (char16_t)(p[j] & 0x7F);
  }
  o->w += c;
  return c;
}

/* ----------------------------------------------------------- base64, hex */

UTFXI_INLINE void store1(unsigned char *d8, char16_t *d16, size_t at, unsigned c, int u8) {
  if (u8)
    d8[at] = (unsigned char)c;
  else
    d16[at] = (char16_t)c;
}

/* 8 bytes read as a big-endian number (first byte highest). */
static uint64_t load_be64(const unsigned char *p) {
  uint64_t v;
  memcpy(&v, p, 8);
  if (!host_le()) return v;
#if defined(__GNUC__) || defined(__clang__)
  return __builtin_bswap64(v);
#else
  v = (v & 0x00000000FFFFFFFFull) << 32 | v >> 32;
  v = (v & 0x0000FFFF0000FFFFull) << 16 | (v & 0xFFFF0000FFFF0000ull) >> 16;
  return (v & 0x00FF00FF00FF00FFull) << 8 | (v & 0xFF00FF00FF00FF00ull) >> 8;
#endif
}

/* Whole groups of 3 bytes become 4 characters; a final 1 or 2 bytes (only
 * ever decoded by end) become 4 characters with '=' padding, or 2-3 without
 * for base64url. Returns the bytes consumed (whole groups only). */
UTFXI_INLINE size_t base64_body(const struct utfxi_kernels *k, struct out *o,
                                const unsigned char *p, size_t n, int url, int u8) {
  const char *alphabet = utfxi_b64_digits[url];
  const uint16_t *pairs = utfxi_b64_pairs[url];
  unsigned char *d8;
  char16_t *d16;
  size_t groups, fit, g, i = 0, w = 0, rest;
  if (room(o) < 2) return 0; /* nothing fits (and dst may be NULL) */
  d8 = u8 ? out8(o) : NULL;
  d16 = u8 ? NULL : out16(o);
  groups = n / 3;
  fit = room(o) / 4;
  g = groups < fit ? groups : fit;
  /* The tier's vector loop takes whole 24-byte blocks (the scalar tier has
   * none and returns 0); the loops below finish. */
  if (g >= 8 && host_le()) {
    size_t done = k->base64_blocks(p, n, g / 8, d8, d16, url);
    i = done;
    w = done / 3 * 4;
    g -= done / 3;
  }
  /* Two groups per step from one 8-byte big-endian load (6 bytes used):
   * four table lookups give the eight characters. */
  for (; g >= 2 && n - i >= 8; g -= 2, i += 6, w += 8) {
    uint64_t x = load_be64(p + i) >> 16;
    uint64_t v = pairs[x >> 36] | (uint64_t)pairs[x >> 24 & 0xFFF] << 16 |
                 (uint64_t)pairs[x >> 12 & 0xFFF] << 32 | (uint64_t)pairs[x & 0xFFF] << 48;
    utfxi_store8(d8, d16, w, v, u8);
  }
  for (; g > 0; g--, i += 3, w += 4) {
    uint32_t x = (uint32_t)p[i] << 16 | (uint32_t)p[i + 1] << 8 | p[i + 2];
    store1(d8, d16, w, (unsigned char)alphabet[x >> 18], u8);
    store1(d8, d16, w + 1, (unsigned char)alphabet[x >> 12 & 63], u8);
    store1(d8, d16, w + 2, (unsigned char)alphabet[x >> 6 & 63], u8);
    store1(d8, d16, w + 3, (unsigned char)alphabet[x & 63], u8);
  }
  o->w += w;
  rest = n - i;
  if (rest >= 3 || rest == 0) return i; /* cut by cap, or done */
  {
    uint32_t x = (uint32_t)p[i] << 16 | (rest == 2 ? (uint32_t)p[i + 1] << 8 : 0);
    size_t chars = url ? rest + 1 : 4;
    if (room(o) < chars) return i;
    store1(d8, d16, w, (unsigned char)alphabet[x >> 18], u8);
    store1(d8, d16, w + 1, (unsigned char)alphabet[x >> 12 & 63], u8);
    if (rest == 2)
      store1(d8, d16, w + 2, (unsigned char)alphabet[x >> 6 & 63], u8);
    else if (!url)
      store1(d8, d16, w + 2, '=', u8);
    if (!url) store1(d8, d16, w + 3, '=', u8);
    o->w += chars;
  }
  return n;
}


static size_t base64_out(const struct utfxi_kernels *k, struct out *o, const unsigned char *p,
                         size_t n, int url) {
  if (o->u8) return url ? base64_body(k, o, p, n, 1, 1) : base64_body(k, o, p, n, 0, 1);
  return url ? base64_body(k, o, p, n, 1, 0) : base64_body(k, o, p, n, 0, 0);
}

UTFXI_INLINE size_t hex_body(const struct utfxi_kernels *k, struct out *o, const unsigned char *p,
                             size_t n, int u8) {
  unsigned char *d8;
  char16_t *d16;
  size_t c = room(o) / 2, i = 0;
  if (c > n) c = n;
  if (!c) return 0; /* nothing fits (and dst may be NULL) */
  d8 = u8 ? out8(o) : NULL;
  d16 = u8 ? NULL : out16(o);
  if (c >= 16) i = k->hex_blocks(p, c, d8, d16); /* whole 16-byte blocks */
  for (; c - i >= 4; i += 4)
    utfxi_store8(d8, d16, 2 * i,
           utfxi_hex_digits(p[i] | (uint32_t)p[i + 1] << 8 | (uint32_t)p[i + 2] << 16 |
                      (uint32_t)p[i + 3] << 24),
           u8);
  for (; i < c; i++) {
    store1(d8, d16, 2 * i, (unsigned char)utfxi_hex_chars[p[i] >> 4], u8);
    store1(d8, d16, 2 * i + 1, (unsigned char)utfxi_hex_chars[p[i] & 15], u8);
  }
  o->w += 2 * c;
  return c;
}

static size_t hex_out(const struct utfxi_kernels *k, struct out *o, const unsigned char *p,
                      size_t n) {
  return o->u8 ? hex_body(k, o, p, n, 1) : hex_body(k, o, p, n, 0);
}

/* ------------------------------------------------------------ one piece */

/* Decodes p[0..n) as one piece (Node's MakeString) into o. Returns the bytes
 * consumed; less than n when o filled up, always at a character boundary. */
static size_t piece(utfx_decoder *d, const struct utfxi_kernels *k, struct out *o,
                    const unsigned char *p, size_t n) {
  if (n == 0) return 0;
  switch (d->enc_) {
    case UTFX_UTF8:
      return o->u8 ? utf8_to_utf8(k, o, p, n) : utf8_to_utf16(k, o, p, n);
    case UTFX_UTF16LE:
      return 2 * (o->u8 ? units_to_utf8(d, k, o, p, n / 2) : units_to_utf16(d, o, p, n / 2));
    case UTFX_LATIN1:
      return latin1_out(k, o, p, n);
    case UTFX_ASCII:
      return ascii_out(k, o, p, n);
    case UTFX_BASE64:
      return base64_out(k, o, p, n, 0);
    case UTFX_BASE64URL:
      return base64_out(k, o, p, n, 1);
    default: /* UTFX_HEX */
      return hex_out(k, o, p, n);
  }
}

#endif
