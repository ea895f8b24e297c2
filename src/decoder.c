/* Streaming decoder: Node.js's StringDecoder, bit for bit, on top of the
 * dispatched kernels.
 *
 * Node's rule (src/string_decoder.cc) in our words: a write first completes
 * the character held from the previous chunk (for UTF-8 it stops early at the
 * first byte that is not a continuation byte) and decodes it on its own; the
 * rest of the chunk is decoded in one piece, except a tail that Node keeps:
 *   utf8     the last 1-3 bytes when they are a lead byte (C0-F7, by its top
 *            bits only) plus fewer continuation bytes than it announces;
 *   utf16le  the last byte of an odd chunk, or a final high surrogate;
 *   base64   n % 3 bytes.
 * Each piece is decoded like Buffer.toString, so the output of a write is
 * "held piece" + "body", and end() decodes whatever is held.
 *
 * Everything is a piece decoded into a bounded destination (piece()), which
 * returns how many bytes it consumed, always at a character boundary. That
 * makes DST_FULL continuation simple: a body that does not fit reports the
 * bytes consumed as read and keeps no tail (the caller passes the rest
 * again); a held piece that does not fit stays in buf_ as "complete"
 * (missing_ == 0) and is finished first by the next call. */
#include "scalar/unicode.h"

/* Where the output goes: char16_t units in host order, or UTF-8 bytes. */
struct out {
  void *dst;
  size_t cap, w, replaced;
  int u8;
};

#define ENC_UNUSABLE 0xFFu

static int host_le(void) {
  const uint16_t one = 1;
  unsigned char first;
  memcpy(&first, &one, 1);
  return first == 1; /* folded to a constant by the compiler */
}

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
  char16_t *dst = cap ? out16(o) : NULL;
  utfx_result r = host_le() ? k->convert_utf8_to_utf16le((const char *)p, n, dst, cap, UTFX_REPLACE)
                            : k->convert_utf8_to_utf16be((const char *)p, n, dst, cap, UTFX_REPLACE);
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

/* Node's tail rule for UTF-8: how many final bytes to keep, and how many more
 * it then waits for. */
static size_t utf8_tail(const unsigned char *p, size_t m, unsigned *missing) {
  size_t i = m - 1, count = 0, need;
  if (!(p[i] & 0x80)) return 0;
  for (;; i--) {
    count++;
    if ((p[i] & 0xC0) != 0x80) break;
    if (count >= 4 || i == 0) return 0; /* no lead byte within reach */
  }
  if ((p[i] & 0xE0) == 0xC0)
    need = 2;
  else if ((p[i] & 0xF0) == 0xE0)
    need = 3;
  else if ((p[i] & 0xF8) == 0xF0)
    need = 4;
  else
    return 0; /* ASCII or F8-FF: not a lead byte */
  if (count >= need) return 0;
  *missing = (unsigned)(need - count);
  return count;
}

/* --------------------------------------------------------------- utf16le */

/* Copies units (bytes in little-endian order) to host-order char16_t; never
 * ends on the high half of a pair when the output is cut by cap. Returns the
 * units consumed. */
static size_t units_to_utf16(struct out *o, const unsigned char *p, size_t units) {
  size_t c = units, j;
  char16_t *dst;
  if (c > room(o)) {
    c = room(o);
    if (c > 0 && is_high(unit_le(p + 2 * (c - 1))) && is_low(unit_le(p + 2 * c))) c--;
  }
  if (!c) return 0;
  dst = out16(o);
  if (host_le())
    memcpy(dst, p, 2 * c);
  else
    for (j = 0; j < c; j++) dst[j] = (char16_t)unit_le(p + 2 * j);
  o->w += c;
  return c;
}

/* UTF-8 form: the units continue a stream whose last high surrogate may be
 * waiting in d->high_; a final high surrogate waits there for the next write.
 * The bulk goes through the UTF-16LE to UTF-8 kernel (REPLACE). */
static size_t units_to_utf8(utfx_decoder *d, const struct utfxi_kernels *k, struct out *o,
                            const unsigned char *p, size_t units) {
  size_t i = 0, end = units;
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
    r = k->convert_utf16le_to_utf8(s, cnt, cap ? (char *)out8(o) : NULL, cap, UTFX_REPLACE);
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
    r = k->convert_latin1_to_utf8((const char *)p, n, room(o) ? (char *)out8(o) : NULL, room(o),
                                  UTFX_REPLACE);
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
  size_t c = n < room(o) ? n : room(o), j = 0, a;
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
    utfx_result v = k->validate_ascii((const char *)p, c);
    a = v.status == UTFX_OK ? c : v.read; /* the ASCII prefix converts as Latin-1 */
    if (a)
      (void)(host_le() ? k->convert_latin1_to_utf16le((const char *)p, a, dst, a, UTFX_REPLACE)
                       : k->convert_latin1_to_utf16be((const char *)p, a, dst, a, UTFX_REPLACE));
    for (j = a; j < c; j++) dst[j] = (char16_t)(p[j] & 0x7F);
  }
  o->w += c;
  return c;
}

/* ----------------------------------------------------------- base64, hex */

/* Eight output characters travel in a uint64_t, character j in bits 8j..8j+7
 * (a "logical" order, independent of the host's byte order). */
static void store8_u8(unsigned char *d, uint64_t v) {
  int j;
  if (host_le()) {
    memcpy(d, &v, 8);
    return;
  }
  for (j = 0; j < 8; j++) d[j] = (unsigned char)(v >> (8 * j));
}

/* Four bytes of x into the low bytes of four 16-bit lanes. */
static uint64_t spread4(uint32_t x) {
  uint64_t t = x;
  t = (t | t << 16) & 0x0000FFFF0000FFFFull;
  return (t | t << 8) & 0x00FF00FF00FF00FFull;
}

static void store8_u16(char16_t *d, uint64_t v) {
  int j;
  if (host_le()) {
    uint64_t lo = spread4((uint32_t)v), hi = spread4((uint32_t)(v >> 32));
    memcpy(d, &lo, 8);
    memcpy(d + 4, &hi, 8);
    return;
  }
  for (j = 0; j < 8; j++) d[j] = (char16_t)(v >> (8 * j) & 0xFF);
}

static void store8(struct out *o, uint64_t v) {
  if (o->u8)
    store8_u8(out8(o), v);
  else
    store8_u16(out16(o), v);
  o->w += 8;
}

static void put_char(struct out *o, unsigned c) {
  if (o->u8)
    *out8(o) = (unsigned char)c;
  else
    *out16(o) = (char16_t)c;
  o->w++;
}

/* Eight 6-bit values (one per byte, < 64) to base64 characters without a
 * table: start from 'A' + v and correct per range. Each step stays within a
 * byte (values 0..255, subtractions never borrow), so lanes never interact. */
static uint64_t base64_chars(uint64_t v, int url) {
  const uint64_t ones = 0x0101010101010101ull;
  uint64_t ge26 = ((v + ones * (128 - 26)) >> 7) & ones;
  uint64_t ge52 = ((v + ones * (128 - 52)) >> 7) & ones;
  uint64_t ge62 = ((v + ones * (128 - 62)) >> 7) & ones;
  uint64_t ge63 = ((v + ones * (128 - 63)) >> 7) & ones;
  uint64_t c = v + ones * 'A' + ge26 * 6; /* A-Z, then a-z: 'a' - 26 = 'A' + 6 */
  c -= ge52 * 75;                         /* 0-9: '0' - 52 */
  c -= ge62 * (url ? 13 : 15);            /* 62: '+' or '-' */
  return c + ge63 * (url ? 49 : 3);       /* 63: '/' or '_' */
}

static const char base64_std[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
static const char base64_url[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/* Whole groups of 3 bytes become 4 characters; a final 1 or 2 bytes (only
 * ever decoded by end) become 4 characters with '=' padding, or 2-3 without
 * for base64url. Returns the bytes consumed (whole groups only). */
static size_t base64_out(struct out *o, const unsigned char *p, size_t n, int url) {
  const char *alphabet = url ? base64_url : base64_std;
  size_t groups = n / 3, fit = room(o) / 4, i = 0, g = groups < fit ? groups : fit, rest;
  /* Two groups per step from one 8-byte big-endian load (6 bytes used). */
  while (g >= 2 && n - i >= 8) {
    uint64_t x = 0, v = 0;
    int j;
    for (j = 0; j < 8; j++) x = x << 8 | p[i + (size_t)j];
    for (j = 0; j < 8; j++) v |= (x >> (58 - 6 * j) & 63) << (8 * j);
    store8(o, base64_chars(v, url));
    i += 6;
    g -= 2;
  }
  while (g > 0) {
    uint32_t x = (uint32_t)p[i] << 16 | (uint32_t)p[i + 1] << 8 | p[i + 2];
    put_char(o, (unsigned char)alphabet[x >> 18]);
    put_char(o, (unsigned char)alphabet[x >> 12 & 63]);
    put_char(o, (unsigned char)alphabet[x >> 6 & 63]);
    put_char(o, (unsigned char)alphabet[x & 63]);
    i += 3;
    g--;
  }
  rest = n - i;
  if (rest >= 3 || rest == 0) return i; /* cut by cap, or done */
  {
    uint32_t x = (uint32_t)p[i] << 16 | (rest == 2 ? (uint32_t)p[i + 1] << 8 : 0);
    size_t chars = url ? rest + 1 : 4;
    if (room(o) < chars) return i;
    put_char(o, (unsigned char)alphabet[x >> 18]);
    put_char(o, (unsigned char)alphabet[x >> 12 & 63]);
    if (rest == 2) put_char(o, (unsigned char)alphabet[x >> 6 & 63]);
    if (!url) {
      if (rest == 1) put_char(o, '=');
      put_char(o, '=');
    }
  }
  return n;
}

/* Four bytes (byte j in bits 8j..) to eight lowercase hex digits. */
static uint64_t hex_digits(uint32_t x) {
  uint64_t t = spread4(x);
  uint64_t nib = (t >> 4 & 0x000F000F000F000Full) | (t & 0x000F000F000F000Full) << 8;
  uint64_t over9 = ((nib + 0x0606060606060606ull) >> 4) & 0x0101010101010101ull;
  return nib + 0x3030303030303030ull + over9 * ('a' - '0' - 10);
}

static size_t hex_out(struct out *o, const unsigned char *p, size_t n) {
  static const char digits[] = "0123456789abcdef";
  size_t c = room(o) / 2, i = 0;
  if (c > n) c = n;
  for (; c - i >= 4; i += 4)
    store8(o, hex_digits(p[i] | (uint32_t)p[i + 1] << 8 | (uint32_t)p[i + 2] << 16 |
                         (uint32_t)p[i + 3] << 24));
  for (; i < c; i++) {
    put_char(o, (unsigned char)digits[p[i] >> 4]);
    put_char(o, (unsigned char)digits[p[i] & 15]);
  }
  return c;
}

/* ------------------------------------------------------------- the core */

/* Decodes p[0..n) as one piece (Node's MakeString) into o. Returns the bytes
 * consumed; less than n when o filled up, always at a character boundary. */
static size_t piece(utfx_decoder *d, const struct utfxi_kernels *k, struct out *o,
                    const unsigned char *p, size_t n) {
  if (n == 0) return 0;
  switch (d->enc_) {
    case UTFX_UTF8:
      return o->u8 ? utf8_to_utf8(k, o, p, n) : utf8_to_utf16(k, o, p, n);
    case UTFX_UTF16LE:
      return 2 * (o->u8 ? units_to_utf8(d, k, o, p, n / 2) : units_to_utf16(o, p, n / 2));
    case UTFX_LATIN1:
      return latin1_out(k, o, p, n);
    case UTFX_ASCII:
      return ascii_out(k, o, p, n);
    case UTFX_BASE64:
      return base64_out(o, p, n, 0);
    case UTFX_BASE64URL:
      return base64_out(o, p, n, 1);
    default: /* UTFX_HEX */
      return hex_out(o, p, n);
  }
}

/* Writes the complete piece held in buf_; on DST_FULL keeps what is left. */
static int flush_held(utfx_decoder *d, const struct utfxi_kernels *k, struct out *o) {
  size_t used = piece(d, k, o, d->buf_, d->held_);
  if (used < d->held_) {
    memmove(d->buf_, d->buf_ + used, d->held_ - used);
    d->held_ = (unsigned char)(d->held_ - used);
    return 0;
  }
  d->held_ = 0;
  return 1;
}

/* UTF-16 form after UTF-8-form writes: the waiting high surrogate is output
 * that the UTF-16 stream already had. */
static int flush_high16(utfx_decoder *d, struct out *o) {
  if (!d->high_ || o->u8) return 1;
  if (room(o) < 1) return 0;
  *out16(o) = (char16_t)d->high_;
  o->w++;
  d->high_ = 0;
  return 1;
}

static utfx_result done(utfx_status s, size_t read, const struct out *o) {
  return utfxi_result(s, read, o->w, o->replaced);
}

static utfx_result decoder_write(utfx_decoder *d, const unsigned char *src, size_t n,
                                 struct out *o) {
  const struct utfxi_kernels *k;
  size_t pos = 0, m, hold = 0, body;
  unsigned missing = 0;
  if (d->enc_ == ENC_UNUSABLE) return done(UTFX_INVALID, 0, o);
  k = utfxi_active();
  if (!flush_high16(d, o)) return done(UTFX_DST_FULL, 0, o);
  if (d->held_ && !d->missing_ && !flush_held(d, k, o)) return done(UTFX_DST_FULL, 0, o);
  if (d->missing_) { /* complete the held character, then decode it alone */
    size_t take = n < d->missing_ ? n : d->missing_, i;
    int cut = 0;
    if (d->enc_ == UTFX_UTF8)
      for (i = 0; i < take; i++)
        if ((src[i] & 0xC0) != 0x80) { /* Node gives up on the held character */
          take = i;
          cut = 1;
          break;
        }
    if (take) memcpy(d->buf_ + d->held_, src, take);
    d->held_ = (unsigned char)(d->held_ + take);
    d->missing_ = cut ? 0 : (unsigned char)(d->missing_ - take);
    pos = take;
    if (d->missing_) return done(UTFX_OK, n, o); /* all of src was held */
    if (!flush_held(d, k, o)) return done(UTFX_DST_FULL, pos, o);
  }
  if (pos == n) return done(UTFX_OK, n, o);
  src += pos;
  m = n - pos;
  switch (d->enc_) {
    case UTFX_UTF8:
      hold = utf8_tail(src, m, &missing);
      break;
    case UTFX_UTF16LE:
      if (m & 1)
        hold = missing = 1;
      else if ((src[m - 1] & 0xFC) == 0xD8)
        hold = missing = 2;
      break;
    case UTFX_BASE64:
    case UTFX_BASE64URL:
      hold = m % 3;
      missing = (unsigned)(3 - hold);
      break;
    default:
      break;
  }
  body = m - hold;
  {
    size_t used = piece(d, k, o, src, body);
    if (used < body) return done(UTFX_DST_FULL, pos + used, o);
  }
  if (hold) {
    memcpy(d->buf_, src + body, hold);
    d->held_ = (unsigned char)hold;
    d->missing_ = (unsigned char)missing;
  }
  return done(UTFX_OK, n, o);
}

static utfx_result decoder_end(utfx_decoder *d, struct out *o) {
  const struct utfxi_kernels *k;
  if (d->enc_ == ENC_UNUSABLE) return done(UTFX_INVALID, 0, o);
  k = utfxi_active();
  if (!flush_high16(d, o)) return done(UTFX_DST_FULL, 0, o);
  if (d->missing_) { /* what Node's end() decodes: the held bytes as they are */
    if (d->enc_ == UTFX_UTF16LE && (d->held_ & 1)) d->held_--; /* a lone byte is dropped */
    d->missing_ = 0;
  }
  if (d->held_ && !flush_held(d, k, o)) return done(UTFX_DST_FULL, 0, o);
  if (d->high_) { /* UTF-8 form: a high surrogate that never got its pair */
    if (room(o) < 3) return done(UTFX_DST_FULL, 0, o);
    put_fffd(o);
    d->high_ = 0;
  }
  return done(UTFX_OK, 0, o);
}

/* ------------------------------------------------------------ public API */

int utfx_decoder_init(utfx_decoder *d, utfx_encoding enc) {
  memset(d, 0, sizeof *d);
  switch (enc) {
    case UTFX_UTF8:
    case UTFX_UTF16LE:
    case UTFX_LATIN1:
    case UTFX_ASCII:
    case UTFX_BASE64:
    case UTFX_BASE64URL:
    case UTFX_HEX:
      d->enc_ = (unsigned char)enc;
      return 0;
    case UTFX_UTF16BE:
    case UTFX_UTF32:
      break;
  }
  d->enc_ = ENC_UNUSABLE;
  return -1;
}

utfx_result utfx_decoder_write(utfx_decoder *d, const char *src, size_t n, char16_t *dst,
                               size_t cap) {
  struct out o = {dst, cap, 0, 0, 0};
  return decoder_write(d, (const unsigned char *)src, n, &o);
}

utfx_result utfx_decoder_end(utfx_decoder *d, char16_t *dst, size_t cap) {
  struct out o = {dst, cap, 0, 0, 0};
  return decoder_end(d, &o);
}

utfx_result utfx_decoder_write_utf8(utfx_decoder *d, const char *src, size_t n, char *dst,
                                    size_t cap) {
  struct out o = {dst, cap, 0, 0, 1};
  return decoder_write(d, (const unsigned char *)src, n, &o);
}

utfx_result utfx_decoder_end_utf8(utfx_decoder *d, char *dst, size_t cap) {
  struct out o = {dst, cap, 0, 0, 1};
  return decoder_end(d, &o);
}

static size_t mul_sat(size_t a, size_t b) { return b && a > SIZE_MAX / b ? SIZE_MAX : a * b; }

/* Output bound of the next write of n bytes (or of end, n = 0): held bytes
 * plus n, and a waiting high surrogate, at the worst expansion of each form. */
static size_t bound(const utfx_decoder *d, size_t n, int u8) {
  size_t total = utfxi_add_sat(n, d->held_), high = d->high_ ? 1 : 0;
  switch (d->enc_) {
    case UTFX_UTF8: /* one unit per byte; UTF-8 form: EF BF BD per lone byte */
      return mul_sat(utfxi_add_sat(total, high), u8 ? 3 : 1);
    case UTFX_UTF16LE:
      return mul_sat(utfxi_add_sat(total / 2, high), u8 ? 3 : 1);
    case UTFX_LATIN1:
      return utfxi_add_sat(mul_sat(total, u8 ? 2 : 1), high);
    case UTFX_ASCII:
      return utfxi_add_sat(total, high);
    case UTFX_BASE64:
    case UTFX_BASE64URL:
      return utfxi_add_sat(mul_sat(total / 3, 4), (total % 3 ? 4 : 0) + high);
    case UTFX_HEX:
      return utfxi_add_sat(mul_sat(total, 2), high);
    default:
      return 0;
  }
}

size_t utfx_decoder_max_length(const utfx_decoder *d, size_t n) { return bound(d, n, 0); }
size_t utfx_decoder_max_length_utf8(const utfx_decoder *d, size_t n) { return bound(d, n, 1); }
