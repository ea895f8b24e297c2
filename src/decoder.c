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
 * Everything is a piece decoded into a bounded destination (piece(), with
 * each encoding's codec, in decoder_codecs.h), which returns how many bytes
 * it consumed, always at a character boundary. That
 * makes DST_FULL continuation simple: a body that does not fit reports the
 * bytes consumed as read and keeps no tail (the caller passes the rest
 * again); a held piece that does not fit stays in buf_ as "complete"
 * (missing_ == 0) and is finished first by the next call. */
#include "decoder_codecs.h"
#include "decoder_whatwg.h"
#include "dispatch.h"

#define ENC_UNUSABLE UTFXI_DECODER_UNUSABLE

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

/* ---------------------------------------------------------- the framing */

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

/* UTF-16 form: a high surrogate still waiting when the write (or end) has
 * no more units is the last unit of its output. */
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

/* A write that consumed all n bytes: OK once a waiting high surrogate is
 * written (UTF-16 form); without room for it, DST_FULL with read = n, and
 * the next call (n = 0) writes it. */
static utfx_result finish_write(utfx_decoder *d, size_t n, struct out *o) {
  return done(flush_high16(d, o) ? UTFX_OK : UTFX_DST_FULL, n, o);
}

static utfx_result decoder_write(utfx_decoder *d, const unsigned char *src, size_t n,
                                 struct out *o) {
  const struct utfxi_kernels *k;
  size_t pos = 0, m, hold = 0, body;
  unsigned missing = 0;
  if (d->enc_ == ENC_UNUSABLE) return done(UTFX_INVALID, 0, o);
  k = utfxi_active();
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
    if (d->missing_) return finish_write(d, n, o); /* all of src was held */
    if (!flush_held(d, k, o)) return done(UTFX_DST_FULL, pos, o);
  }
  if (pos == n) return finish_write(d, n, o);
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
  return finish_write(d, n, o);
}

static utfx_result decoder_end(utfx_decoder *d, struct out *o) {
  const struct utfxi_kernels *k;
  if (d->enc_ == ENC_UNUSABLE) return done(UTFX_INVALID, 0, o);
  if (!d->held_ && !d->high_) return done(UTFX_OK, 0, o); /* the common case: nothing held */
  k = utfxi_active();
  if (d->missing_) { /* what Node's end() decodes: the held bytes as they are */
    if (d->enc_ == UTFX_UTF16LE && (d->held_ & 1)) d->held_--; /* a lone byte is dropped */
    d->missing_ = 0;
  }
  if (d->held_ && !flush_held(d, k, o)) return done(UTFX_DST_FULL, 0, o);
  if (!flush_high16(d, o)) return done(UTFX_DST_FULL, 0, o);
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

/* The public write and end, for UTF-16 (u8 = 0) or UTF-8 output: the WHATWG
 * decoder or this file's. */
UTFXI_INLINE utfx_result write_to(utfx_decoder *d, const char *src, size_t n, void *dst,
                                  size_t cap, int u8) {
  struct out o = {dst, cap, 0, 0, u8};
  if (utfxi_decoder_is_whatwg(d))
    return utfxi_whatwg_write(d, (const unsigned char *)src, n, dst, cap, u8);
  return decoder_write(d, (const unsigned char *)src, n, &o);
}
UTFXI_INLINE utfx_result end_to(utfx_decoder *d, void *dst, size_t cap, int u8) {
  struct out o = {dst, cap, 0, 0, u8};
  if (utfxi_decoder_is_whatwg(d)) return utfxi_whatwg_end(d, dst, cap, u8);
  return decoder_end(d, &o);
}

utfx_result utfx_decoder_write(utfx_decoder *d, const char *src, size_t n, char16_t *dst,
                               size_t cap) {
  return write_to(d, src, n, dst, cap, 0);
}
utfx_result utfx_decoder_end(utfx_decoder *d, char16_t *dst, size_t cap) {
  return end_to(d, dst, cap, 0);
}
utfx_result utfx_decoder_write_utf8(utfx_decoder *d, const char *src, size_t n, char *dst,
                                    size_t cap) {
  return write_to(d, src, n, dst, cap, 1);
}
utfx_result utfx_decoder_end_utf8(utfx_decoder *d, char *dst, size_t cap) {
  return end_to(d, dst, cap, 1);
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

size_t utfx_decoder_max_length(const utfx_decoder *d, size_t n) {
  return utfxi_decoder_is_whatwg(d) ? utfxi_whatwg_bound(d, n, 0) : bound(d, n, 0);
}
size_t utfx_decoder_max_length_utf8(const utfx_decoder *d, size_t n) {
  return utfxi_decoder_is_whatwg(d) ? utfxi_whatwg_bound(d, n, 1) : bound(d, n, 1);
}
