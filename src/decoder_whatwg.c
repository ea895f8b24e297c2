/* The WHATWG Encoding Standard mode of the streaming decoder: TextDecoder's
 * decode(chunk, {stream: true}) for each write and decode() for end, for
 * UTF-8, UTF-16LE and UTF-16BE, fatal or replacing, with or without BOM
 * removal; plus the one-shot utfx_whatwg_decode.
 *
 * A write is three parts:
 *   edge  what the previous write left unfinished (a valid prefix of a UTF-8
 *         sequence; for UTF-16 an odd byte and/or a high surrogate) is
 *         completed with the first few bytes of this one, one character at a
 *         time, by the standard's rules;
 *   body  the rest, minus the tail below, in one call of the active tier's
 *         conversion (or validation) kernel, whose STRICT / REPLACE modes are
 *         exactly the standard's fatal / replacement error modes;
 *   tail  a final valid-but-unfinished UTF-8 prefix (1-3 bytes), or a final
 *         odd byte and/or high surrogate, waits in the decoder.
 * Where the body is cut does not change its result: a held tail begins with
 * a lead byte (or a whole unit), which no earlier sequence can absorb.
 *
 * State in utfx_decoder: enc_ (encoding | UTFXI_DECODER_WHATWG), flags_
 * (the UTFX_WHATWG_* flags and BOM_SEEN), held_ / buf_ (the UTF-8 prefix, or
 * the UTF-16 odd byte), high_ (the UTF-16 high surrogate). */
#include "decoder_whatwg.h"
#include "dispatch.h"

#include "scalar/decoder_text.h"
#include "scalar/unicode.h"

#define FLAG_FATAL UTFX_WHATWG_FATAL
#define FLAG_IGNORE_BOM UTFX_WHATWG_IGNORE_BOM
#define FLAG_BOM_SEEN 0x80u /* the first code point has been decoded */
#define FLAGS_PUBLIC (UTFX_WHATWG_FATAL | UTFX_WHATWG_IGNORE_BOM)

/* Where the output goes: host-order char16_t units, or UTF-8 bytes. */
struct wout {
  void *dst;
  size_t cap, w, replaced;
  int u8;
};

/* How the edge went: done (resolved, or all input absorbed), out of room,
 * or an error in fatal mode. */
enum edge { EDGE_DONE, EDGE_FULL, EDGE_ERROR };

static utfx_encoding enc_of(const utfx_decoder *d) {
  return (utfx_encoding)(d->enc_ & ~UTFXI_DECODER_WHATWG);
}
static int is_fatal(const utfx_decoder *d) { return (d->flags_ & FLAG_FATAL) != 0; }
static size_t room(const struct wout *o) { return o->cap - o->w; }
static int is_high(uint32_t u) { return (u & 0xFC00) == 0xD800; }
static int is_low(uint32_t u) { return (u & 0xFC00) == 0xDC00; }

static uint32_t unit_at(const unsigned char *p, int be) {
  return be ? (uint32_t)p[0] << 8 | p[1] : p[0] | (uint32_t)p[1] << 8;
}

/* Writes one scalar value if it fits. */
static int put_cp(struct wout *o, uint32_t cp) {
  enum utfxi_target t = o->u8 ? UTFXI_T_UTF8
                        : utfxi_host_le() ? UTFXI_T_UTF16LE
                                          : UTFXI_T_UTF16BE;
  if (room(o) < utfxi_units_for(cp, t)) return 0;
  o->w += utfxi_put(o->dst, o->w, cp, t);
  return 1;
}

/* Emits a decoded code point; the first of the stream is dropped when it is
 * U+FEFF and the BOM is not ignored (the standard's "BOM seen" step). */
static int emit(utfx_decoder *d, struct wout *o, uint32_t cp) {
  if (!(d->flags_ & FLAG_BOM_SEEN) && cp == 0xFEFF && !(d->flags_ & FLAG_IGNORE_BOM)) {
    d->flags_ |= FLAG_BOM_SEEN;
    return 1;
  }
  if (!put_cp(o, cp)) return 0;
  d->flags_ |= FLAG_BOM_SEEN;
  return 1;
}

static int emit_error(utfx_decoder *d, struct wout *o) {
  if (!emit(d, o, 0xFFFD)) return 0;
  o->replaced++;
  return 1;
}

/* Back to the state of a new decoder (same encoding and flags). */
static void reset(utfx_decoder *d) {
  d->held_ = 0;
  d->high_ = 0;
  d->flags_ &= FLAGS_PUBLIC;
}

static utfx_result result(utfx_status s, size_t read, const struct wout *o) {
  return utfxi_result(s, read, o->w, o->replaced);
}

/* Fatal mode: the error ends the stream (TextDecoder throws and starts
 * over); read is its offset in this call's input. */
static utfx_result fail(utfx_decoder *d, size_t at, const struct wout *o) {
  reset(d);
  return result(UTFX_INVALID, at, o);
}

/* ------------------------------------------------------------------ UTF-8 */

/* Sequence length announced by a lead byte; 0 for ASCII and non-leads. */
static size_t utf8_need(unsigned lead) {
  return lead >= 0xC2 && lead <= 0xDF   ? 2
         : lead >= 0xE0 && lead <= 0xEF ? 3
         : lead >= 0xF0 && lead <= 0xF4 ? 4
                                        : 0;
}

/* Whether byte b may stand at index i (>= 1) of a sequence led by `lead`:
 * the standard's lower and upper boundaries for the second byte. */
static int utf8_continues(unsigned lead, size_t i, unsigned b) {
  unsigned lo = 0x80, hi = 0xBF;
  if (i == 1) {
    if (lead == 0xE0) lo = 0xA0;
    if (lead == 0xED) hi = 0x9F;
    if (lead == 0xF0) lo = 0x90;
    if (lead == 0xF4) hi = 0x8F;
  }
  return b >= lo && b <= hi;
}

/* Length of the valid but unfinished sequence that ends p[0..m), or 0. */
static size_t utf8_tail(const unsigned char *p, size_t m) {
  size_t back, j;
  for (back = 1; back <= 3 && back <= m; back++) {
    unsigned lead = p[m - back];
    if ((lead & 0xC0) == 0x80) continue;
    if (utf8_need(lead) <= back) return 0; /* finished, or not a lead byte */
    for (j = 1; j < back; j++)
      if (!utf8_continues(lead, j, p[m - back + j])) return 0;
    return back;
  }
  return 0;
}

static uint32_t utf8_value(const unsigned char *s, size_t len) {
  uint32_t cp = s[0] & (len == 2 ? 0x1Fu : len == 3 ? 0x0Fu : 0x07u);
  size_t i;
  for (i = 1; i < len; i++) cp = cp << 6 | (s[i] & 0x3Fu);
  return cp;
}

/* Completes the held prefix with src[*pos..n): one character, one U+FFFD
 * for a prefix that the next byte breaks (that byte is decoded afresh), or
 * all of src absorbed. The state changes only when the output fits. */
static enum edge utf8_edge(utfx_decoder *d, struct wout *o, const unsigned char *src, size_t n,
                           size_t *pos) {
  unsigned char seq[4];
  size_t len = d->held_, need = utf8_need(d->buf_[0]), i = 0;
  memcpy(seq, d->buf_, len);
  while (len < need && i < n && utf8_continues(seq[0], len, src[i])) seq[len++] = src[i++];
  if (len < need && i == n) { /* still unfinished: keep it all */
    if (i) memcpy(d->buf_ + d->held_, src, i); /* src may be NULL when n is 0 */
    d->held_ = (unsigned char)len;
    *pos = n;
    return EDGE_DONE;
  }
  if (len < need) {
    if (is_fatal(d)) return EDGE_ERROR;
    if (!emit_error(d, o)) return EDGE_FULL;
  } else if (!emit(d, o, utf8_value(seq, len))) {
    return EDGE_FULL;
  }
  d->held_ = 0;
  *pos = i;
  return EDGE_DONE;
}

/* UTF-8 to host-order UTF-16: the tier's conversion kernel. Returns the
 * bytes consumed (fewer than n when cut by room or by an error: *err). */
static size_t utf8_body16(const struct utfxi_kernels *k, struct wout *o, const unsigned char *p,
                          size_t n, int fatal, int *err) {
  char16_t no_room[1]; /* kernels never get NULL; with no room they write nothing */
  size_t cap = room(o);
  char16_t *dst = cap ? (char16_t *)o->dst + o->w : no_room;
  utfx_result r = utfxi_utf8_to_utf16_host(k, p, n, dst, cap, fatal ? UTFX_STRICT : UTFX_REPLACE);
  o->w += r.written;
  o->replaced += r.replaced;
  *err = r.status == UTFX_INVALID;
  return r.read;
}

/* UTF-8 to UTF-8: the validation kernel finds each error; valid runs are
 * copied, an ill-formed subpart becomes EF BF BD (or stops, fatal). */
static size_t utf8_body8(const struct utfxi_kernels *k, struct wout *o, const unsigned char *p,
                         size_t n, int fatal, int *err) {
  size_t i = 0;
  while (i < n) {
    utfx_result v = k->validate_utf8((const char *)p + i, n - i);
    size_t valid = v.status == UTFX_OK ? n - i : v.read, len;
    uint32_t cp;
    if (valid > room(o)) { /* copy up to the character that does not fit */
      size_t c = room(o);
      while (c > 0 && (p[i + c] & 0xC0) == 0x80) c--;
      if (c) memcpy((unsigned char *)o->dst + o->w, p + i, c);
      o->w += c;
      return i + c;
    }
    if (valid) memcpy((unsigned char *)o->dst + o->w, p + i, valid);
    o->w += valid;
    i += valid;
    if (i == n) break;
    if (fatal) {
      *err = 1;
      return i;
    }
    if (!put_cp(o, 0xFFFD)) return i;
    o->replaced++;
    len = utfxi_utf8_decode(p + i, n - i, &cp);
    i += len;
  }
  return n;
}

/* ----------------------------------------------------------------- UTF-16 */

/* Completes a held odd byte and/or high surrogate with src[*pos..n), one
 * character at a time (state committed after each), until neither is held
 * or src is absorbed. An error here began in an earlier write. */
static enum edge utf16_edge(utfx_decoder *d, struct wout *o, const unsigned char *src, size_t n,
                            size_t *pos, int be) {
  for (;;) {
    uint32_t u;
    if (d->held_) { /* the odd byte and src's first byte make a unit */
      unsigned char b[2];
      if (*pos == n) return EDGE_DONE;
      b[0] = d->buf_[0];
      b[1] = src[*pos];
      u = unit_at(b, be);
    } else if (d->high_) {
      if (n - *pos == 0) return EDGE_DONE;
      if (n - *pos == 1) { /* half of the unit after the high surrogate */
        d->buf_[0] = src[*pos];
        d->held_ = 1;
        *pos = n;
        return EDGE_DONE;
      }
      u = unit_at(src + *pos, be);
    } else {
      return EDGE_DONE;
    }
    if (d->high_) {
      if (is_low(u)) {
        if (!emit(d, o, 0x10000 + ((d->high_ - 0xD800u) << 10) + (u - 0xDC00))) return EDGE_FULL;
      } else { /* a lone high surrogate; u is decoded afresh */
        if (is_fatal(d)) return EDGE_ERROR;
        if (!emit_error(d, o)) return EDGE_FULL;
        d->high_ = 0;
        continue;
      }
      d->high_ = 0;
    } else if (is_high(u)) {
      d->high_ = (uint16_t)u;
    } else if (is_low(u)) {
      if (is_fatal(d)) return EDGE_ERROR;
      if (!emit_error(d, o)) return EDGE_FULL;
    } else if (!emit(d, o, u)) {
      return EDGE_FULL;
    }
    *pos += d->held_ ? 1 : 2;
    d->held_ = 0;
  }
}

/* Units (aligned, byte order `be`) to the output: a conversion kernel, or
 * for host order into UTF-16 the validation kernel and copies. Returns the
 * units consumed. */
static size_t units_body(const struct utfxi_kernels *k, struct wout *o, const char16_t *s,
                         size_t units, int be, int fatal, int *err) {
  unsigned mode = fatal ? UTFX_STRICT : UTFX_REPLACE;
  size_t i = 0, cap = room(o);
  utfx_result r;
  if (o->u8) {
    char no_room[1];
    char *dst = cap ? (char *)o->dst + o->w : no_room;
    r = be ? k->convert_utf16be_to_utf8(s, units, dst, cap, mode)
           : k->convert_utf16le_to_utf8(s, units, dst, cap, mode);
  } else if (be == utfxi_host_le()) { /* the other byte order: swap */
    char16_t no_room[1];
    char16_t *dst = cap ? (char16_t *)o->dst + o->w : no_room;
    r = be ? k->convert_utf16be_to_utf16le(s, units, dst, cap, mode)
           : k->convert_utf16le_to_utf16be(s, units, dst, cap, mode);
  } else if (!fatal && units && units <= cap) { /* the common case: one pass, counted */
    size_t n = be ? k->repair_utf16be(s, units, (char16_t *)o->dst + o->w)
                  : k->repair_utf16le(s, units, (char16_t *)o->dst + o->w);
    o->w += units;
    o->replaced += n;
    return units;
  } else { /* fatal, or the capacity may end inside the units */
    while (i < units) {
      utfx_result v = be ? k->validate_utf16be(s + i, units - i)
                         : k->validate_utf16le(s + i, units - i);
      size_t valid = v.status == UTFX_OK ? units - i : v.read;
      if (valid > room(o)) { /* never half a pair */
        size_t c = room(o);
        if (c > 0 && is_high(s[i + c - 1])) c--;
        if (c) memcpy((char16_t *)o->dst + o->w, s + i, 2 * c);
        o->w += c;
        return i + c;
      }
      if (valid) memcpy((char16_t *)o->dst + o->w, s + i, 2 * valid);
      o->w += valid;
      i += valid;
      if (i == units) break;
      if (fatal) {
        *err = 1;
        return i;
      }
      if (!put_cp(o, 0xFFFD)) return i;
      o->replaced++;
      i++;
    }
    return units;
  }
  o->w += r.written;
  o->replaced += r.replaced;
  *err = r.status == UTFX_INVALID;
  return r.read;
}

/* The body's units p[0..2 * units): in place when aligned for char16_t,
 * else through an aligned copy, a pair never split between two copies. */
static size_t utf16_body(const struct utfxi_kernels *k, struct wout *o, const unsigned char *p,
                         size_t units, int be, int fatal, int *err) {
  size_t i = 0;
  if (((uintptr_t)p & (_Alignof(char16_t) - 1)) == 0)
    return 2 * units_body(k, o, (const char16_t *)(const void *)p, units, be, fatal, err);
  while (i < units) {
    char16_t bounce[256];
    size_t cnt = units - i < 256 ? units - i : 256, got;
    if (cnt < units - i && is_high(unit_at(p + 2 * (i + cnt - 1), be))) cnt--;
    memcpy(bounce, p + 2 * i, 2 * cnt);
    got = units_body(k, o, bounce, cnt, be, fatal, err);
    i += got;
    if (got < cnt) break;
  }
  return 2 * i;
}

/* ------------------------------------------------------------- the write */

static size_t bom_length(utfx_encoding enc, const unsigned char *p, size_t m) {
  if (enc == UTFX_UTF8) return m >= 3 && p[0] == 0xEF && p[1] == 0xBB && p[2] == 0xBF ? 3 : 0;
  if (m < 2) return 0;
  return unit_at(p, enc == UTFX_UTF16BE) == 0xFEFF ? 2 : 0;
}

/* The body's first code point is the stream's first when no BOM was seen:
 * a BOM there is skipped. Returns the bytes skipped. */
static size_t skip_bom(utfx_decoder *d, const unsigned char *p, size_t m) {
  size_t skip = 0;
  if (m == 0 || (d->flags_ & FLAG_BOM_SEEN)) return 0;
  if (!(d->flags_ & FLAG_IGNORE_BOM)) skip = bom_length(enc_of(d), p, m);
  d->flags_ |= FLAG_BOM_SEEN;
  return skip;
}

static utfx_result write_utf8(utfx_decoder *d, const struct utfxi_kernels *k, struct wout *o,
                              const unsigned char *src, size_t n, size_t pos) {
  size_t hold = utf8_tail(src + pos, n - pos), end = n - hold, used;
  int err = 0;
  if (end > pos) {
    pos += skip_bom(d, src + pos, end - pos);
    used = o->u8 ? utf8_body8(k, o, src + pos, end - pos, is_fatal(d), &err)
                 : utf8_body16(k, o, src + pos, end - pos, is_fatal(d), &err);
    if (err) return fail(d, pos + used, o);
    if (used < end - pos) return result(UTFX_DST_FULL, pos + used, o);
  }
  memcpy(d->buf_, src + end, hold);
  d->held_ = (unsigned char)hold;
  return result(UTFX_OK, n, o);
}

static utfx_result write_utf16(utfx_decoder *d, const struct utfxi_kernels *k, struct wout *o,
                               const unsigned char *src, size_t n, size_t pos) {
  int be = enc_of(d) == UTFX_UTF16BE, err = 0;
  size_t units = (n - pos) / 2, end, used;
  uint32_t last = units ? unit_at(src + pos + 2 * (units - 1), be) : 0;
  if (units && is_high(last)) units--; /* waits for its low half */
  end = pos + 2 * units;
  if (units) {
    size_t skip = skip_bom(d, src + pos, end - pos);
    pos += skip;
    used = utf16_body(k, o, src + pos, (end - pos) / 2, be, is_fatal(d), &err);
    if (err) return fail(d, pos + used, o);
    if (pos + used < end) return result(UTFX_DST_FULL, pos + used, o);
  }
  if (end + 2 <= n && is_high(last)) {
    d->high_ = (uint16_t)last;
    end += 2;
  }
  if (end < n) {
    d->buf_[0] = src[end];
    d->held_ = 1;
  }
  return result(UTFX_OK, n, o);
}

utfx_result utfxi_whatwg_write(utfx_decoder *d, const unsigned char *src, size_t n, void *dst,
                               size_t cap, int u8) {
  struct wout o = {dst, cap, 0, 0, u8};
  const struct utfxi_kernels *k;
  size_t pos = 0;
  if (d->held_ || d->high_) {
    enum edge e = enc_of(d) == UTFX_UTF8 ? utf8_edge(d, &o, src, n, &pos)
                                         : utf16_edge(d, &o, src, n, &pos,
                                                      enc_of(d) == UTFX_UTF16BE);
    if (e == EDGE_ERROR) return fail(d, 0, &o);
    if (e == EDGE_FULL) return result(UTFX_DST_FULL, pos, &o);
    if (pos == n) return result(UTFX_OK, n, &o);
  }
  if (n == 0) return result(UTFX_OK, 0, &o);
  k = utfxi_active();
  return enc_of(d) == UTFX_UTF8 ? write_utf8(d, k, &o, src, n, pos)
                                : write_utf16(d, k, &o, src, n, pos);
}

/* End of stream: whatever is held is one error (the standard's end-of-queue
 * step, for UTF-16 even an odd byte after a high surrogate), then reset. */
utfx_result utfxi_whatwg_end(utfx_decoder *d, void *dst, size_t cap, int u8) {
  struct wout o = {dst, cap, 0, 0, u8};
  if (d->held_ || d->high_) {
    if (is_fatal(d)) return fail(d, 0, &o);
    if (!emit_error(d, &o)) return result(UTFX_DST_FULL, 0, &o);
  }
  reset(d);
  return result(UTFX_OK, 0, &o);
}

static size_t mul3_sat(size_t a) { return a > SIZE_MAX / 3 ? SIZE_MAX : 3 * a; }

/* Every source byte (UTF-8) or unit (UTF-16, a final odd byte counting as
 * one) gives at most one UTF-16 unit, or at most three UTF-8 bytes. */
size_t utfxi_whatwg_bound(const utfx_decoder *d, size_t n, int u8) {
  size_t total = utfxi_add_sat(n, d->held_), units;
  if (enc_of(d) == UTFX_UTF8)
    units = total;
  else
    units = utfxi_add_sat(total / 2, (total & 1) + (d->high_ ? 1u : 0u));
  return u8 ? mul3_sat(units) : units;
}

/* ------------------------------------------------------------ public API */

/* The encodings and flags the WHATWG mode takes. */
static int args_ok(utfx_encoding enc, unsigned flags) {
  return (enc == UTFX_UTF8 || enc == UTFX_UTF16LE || enc == UTFX_UTF16BE) &&
         !(flags & ~FLAGS_PUBLIC);
}

int utfx_decoder_init_whatwg(utfx_decoder *d, utfx_encoding enc, unsigned flags) {
  memset(d, 0, sizeof *d);
  d->enc_ = UTFXI_DECODER_UNUSABLE;
  if (!args_ok(enc, flags)) return -1;
  d->enc_ = (unsigned char)(UTFXI_DECODER_WHATWG | (unsigned)enc);
  d->flags_ = (unsigned char)flags;
  return 0;
}

/* The whole buffer needs no framing: the stream's first code point is a BOM
 * exactly when the buffer starts with its bytes, and the kernels' STRICT and
 * REPLACE modes already treat an unfinished UTF-8 sequence at the end as the
 * standard's end-of-queue does. Only UTF-16 has a tail of its own (below). */
static utfx_result once_utf16(const struct utfxi_kernels *k, struct wout *o, int be, int fatal,
                              const unsigned char *p, size_t n, size_t skip) {
  size_t units = (n - skip) / 2, body_end, used;
  int err = 0;
  /* An odd byte after a final high surrogate: one error for both. */
  if (((n - skip) & 1) && units && is_high(unit_at(p + skip + 2 * (units - 1), be))) units--;
  body_end = skip + 2 * units;
  used = units ? utf16_body(k, o, p + skip, units, be, fatal, &err) : 0;
  if (err) return result(UTFX_INVALID, skip + used, o);
  if (skip + used < body_end) return result(UTFX_DST_FULL, skip + used, o);
  if (body_end < n) {
    if (fatal) return result(UTFX_INVALID, body_end, o);
    if (!put_cp(o, 0xFFFD)) return result(UTFX_DST_FULL, body_end, o);
    o->replaced++;
  }
  return result(UTFX_OK, n, o);
}

/* The one-shot decode: the BOM test, then the conversion function (UTF-8 to
 * UTF-16, the common case, is exactly utfx_convert_utf8_to_utf16le/be on
 * the rest), or the bodies of the streaming mode. */
static utfx_result decode_once(utfx_encoding enc, unsigned flags, const char *src, size_t n,
                               void *dst, size_t cap, int u8) {
  const unsigned char *p = (const unsigned char *)src;
  int fatal = (flags & UTFX_WHATWG_FATAL) != 0, err = 0;
  size_t skip, used;
  struct wout o = {dst, cap, 0, 0, u8};
  if (!args_ok(enc, flags)) return utfxi_result(UTFX_INVALID, 0, 0, 0);
  if (n == 0) return utfxi_result(UTFX_OK, 0, 0, 0);
  skip = flags & FLAG_IGNORE_BOM ? 0 : bom_length(enc, p, n);
  if (enc == UTFX_UTF8 && !u8) {
    unsigned mode = fatal ? UTFX_STRICT : UTFX_REPLACE;
    utfx_result r = utfxi_host_le()
                        ? utfx_convert_utf8_to_utf16le(src + skip, n - skip, dst, cap, mode)
                        : utfx_convert_utf8_to_utf16be(src + skip, n - skip, dst, cap, mode);
    return utfxi_result_after(&r, skip, 0, 0);
  }
  if (enc != UTFX_UTF8) return once_utf16(utfxi_active(), &o, enc == UTFX_UTF16BE, fatal, p, n, skip);
  used = utf8_body8(utfxi_active(), &o, p + skip, n - skip, fatal, &err);
  return result(err ? UTFX_INVALID : used < n - skip ? UTFX_DST_FULL : UTFX_OK, skip + used, &o);
}

utfx_result utfx_whatwg_decode(utfx_encoding enc, unsigned flags, const char *src, size_t n,
                               char16_t *dst, size_t cap) {
  return decode_once(enc, flags, src, n, dst, cap, 0);
}

utfx_result utfx_whatwg_decode_utf8(utfx_encoding enc, unsigned flags, const char *src, size_t n,
                                    char *dst, size_t cap) {
  return decode_once(enc, flags, src, n, dst, cap, 1);
}

static size_t once_bound(utfx_encoding enc, size_t n, int u8) {
  utfx_decoder d;
  if (utfx_decoder_init_whatwg(&d, enc, 0) != 0) return 0;
  return utfxi_whatwg_bound(&d, n, u8);
}

size_t utfx_whatwg_max_length(utfx_encoding enc, size_t n) { return once_bound(enc, n, 0); }
size_t utfx_whatwg_max_length_utf8(utfx_encoding enc, size_t n) { return once_bound(enc, n, 1); }
