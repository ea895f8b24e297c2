/* Naive reference codecs; see reference.h. Written for obviousness, not speed:
 * one unit at a time, no tables, no word tricks. */
#include "reference.h"

#include <string.h>

size_t ref_unit_size(enum ref_enc e) {
  switch (e) {
    case REF_UTF16LE:
    case REF_UTF16BE:
      return 2;
    case REF_UTF32:
      return 4;
    default:
      return 1;
  }
}

const char *ref_enc_name(enum ref_enc e) {
  static const char *const names[REF_ENC_COUNT] = {"utf8", "utf16le", "utf16be", "utf32",
                                                   "latin1"};
  return e < REF_ENC_COUNT ? names[e] : "?";
}

uint32_t ref_get_unit(enum ref_enc e, const void *buf, size_t i) {
  const unsigned char *b = buf;
  uint32_t v;
  switch (e) {
    case REF_UTF16LE:
      return (uint32_t)b[2 * i] | (uint32_t)b[2 * i + 1] << 8;
    case REF_UTF16BE:
      return (uint32_t)b[2 * i] << 8 | (uint32_t)b[2 * i + 1];
    case REF_UTF32:
      memcpy(&v, b + 4 * i, 4);
      return v;
    default:
      return b[i];
  }
}

void ref_put_unit(enum ref_enc e, void *buf, size_t i, uint32_t unit) {
  unsigned char *b = buf;
  switch (e) {
    case REF_UTF16LE:
      b[2 * i] = (unsigned char)(unit & 0xFF);
      b[2 * i + 1] = (unsigned char)(unit >> 8 & 0xFF);
      return;
    case REF_UTF16BE:
      b[2 * i] = (unsigned char)(unit >> 8 & 0xFF);
      b[2 * i + 1] = (unsigned char)(unit & 0xFF);
      return;
    case REF_UTF32:
      memcpy(b + 4 * i, &unit, 4);
      return;
    default:
      b[i] = (unsigned char)(unit & 0xFF);
      return;
  }
}

/* ------------------------------------------------------------------ UTF-8
 * The WHATWG Encoding Standard, section "UTF-8 decoder", step by step. The
 * handler sees one byte (or end-of-queue) at a time. "Restore byte to
 * ioQueue" is modelled by not advancing the position. The error offset of a
 * maximal subpart is where its first byte was (seq_start). */
static size_t utf8_decode_chars(const unsigned char *s, size_t n, ref_char *out) {
  uint32_t code_point = 0;
  unsigned bytes_seen = 0, bytes_needed = 0, lower = 0x80, upper = 0xBF;
  size_t pos = 0, count = 0, seq_start = 0;
  for (;;) {
    unsigned byte;
    if (pos == n) {
      /* end-of-queue */
      if (bytes_needed != 0) {
        bytes_needed = 0;
        out[count].cp = 0xFFFD;
        out[count].start = seq_start;
        out[count].len = pos - seq_start;
        out[count].bad = 1;
        count++;
      }
      return count;
    }
    byte = s[pos];
    if (bytes_needed == 0) {
      seq_start = pos;
      pos++;
      if (byte <= 0x7F) {
        out[count].cp = byte;
        out[count].start = seq_start;
        out[count].len = 1;
        out[count].bad = 0;
        count++;
      } else if (byte >= 0xC2 && byte <= 0xDF) {
        bytes_needed = 1;
        code_point = byte & 0x1F;
      } else if (byte >= 0xE0 && byte <= 0xEF) {
        if (byte == 0xE0) lower = 0xA0;
        if (byte == 0xED) upper = 0x9F;
        bytes_needed = 2;
        code_point = byte & 0xF;
      } else if (byte >= 0xF0 && byte <= 0xF4) {
        if (byte == 0xF0) lower = 0x90;
        if (byte == 0xF4) upper = 0x8F;
        bytes_needed = 3;
        code_point = byte & 0x7;
      } else {
        out[count].cp = 0xFFFD;
        out[count].start = seq_start;
        out[count].len = 1;
        out[count].bad = 1;
        count++;
      }
      continue;
    }
    if (byte < lower || byte > upper) {
      /* error; the byte is restored to the queue (pos not advanced) */
      code_point = 0;
      bytes_needed = 0;
      bytes_seen = 0;
      lower = 0x80;
      upper = 0xBF;
      out[count].cp = 0xFFFD;
      out[count].start = seq_start;
      out[count].len = pos - seq_start;
      out[count].bad = 1;
      count++;
      continue;
    }
    pos++;
    lower = 0x80;
    upper = 0xBF;
    code_point = (code_point << 6) | (byte & 0x3F);
    bytes_seen++;
    if (bytes_seen != bytes_needed) continue;
    out[count].cp = code_point;
    out[count].start = seq_start;
    out[count].len = pos - seq_start;
    out[count].bad = 0;
    count++;
    code_point = 0;
    bytes_needed = 0;
    bytes_seen = 0;
  }
}

/* ------------------------------------------------------------ other forms */
static int is_high_surrogate(uint32_t u) { return u >= 0xD800 && u <= 0xDBFF; }
static int is_low_surrogate(uint32_t u) { return u >= 0xDC00 && u <= 0xDFFF; }

static void put_char(ref_char *c, uint32_t cp, size_t start, size_t len, int bad) {
  c->cp = cp;
  c->start = start;
  c->len = len;
  c->bad = bad;
}

size_t ref_decode(enum ref_enc e, const void *src, size_t n, ref_char *out) {
  size_t i = 0, count = 0;
  switch (e) {
    case REF_UTF8:
      return utf8_decode_chars(src, n, out);
    case REF_UTF16LE:
    case REF_UTF16BE:
      while (i < n) {
        uint32_t u = ref_get_unit(e, src, i);
        if (is_high_surrogate(u) && i + 1 < n && is_low_surrogate(ref_get_unit(e, src, i + 1))) {
          uint32_t lo = ref_get_unit(e, src, i + 1);
          put_char(&out[count++], 0x10000 + (u - 0xD800) * 0x400 + (lo - 0xDC00), i, 2, 0);
          i += 2;
        } else if (is_high_surrogate(u) || is_low_surrogate(u)) {
          put_char(&out[count++], 0xFFFD, i, 1, 1);
          i++;
        } else {
          put_char(&out[count++], u, i, 1, 0);
          i++;
        }
      }
      return count;
    case REF_UTF32:
      for (i = 0; i < n; i++) {
        uint32_t u = ref_get_unit(e, src, i);
        int bad = (u >= 0xD800 && u <= 0xDFFF) || u > 0x10FFFF;
        put_char(&out[count++], bad ? 0xFFFD : u, i, 1, bad);
      }
      return count;
    case REF_LATIN1:
    default:
      for (i = 0; i < n; i++) put_char(&out[count++], ref_get_unit(e, src, i), i, 1, 0);
      return count;
  }
}

size_t ref_validate_ascii(const void *src, size_t n) {
  const unsigned char *s = src;
  size_t i;
  for (i = 0; i < n; i++)
    if (s[i] >= 0x80) return i;
  return n;
}

/* ref_decode needs an array of n characters; the tests' inputs are small
 * enough to decode in pieces of this many units, restarting each piece at a
 * character boundary of the previous one. */
#define REF_PIECE 1024

/* Calls fn on every character of src, in order; stops early when fn returns
 * nonzero (and returns that value). */
typedef int (*char_fn)(const ref_char *c, void *ctx);

static int for_each_char(enum ref_enc e, const void *src, size_t n, char_fn fn, void *ctx) {
  static _Thread_local ref_char chars[REF_PIECE];
  const unsigned char *bytes = src;
  size_t base = 0, usz = ref_unit_size(e);
  while (base < n) {
    size_t piece = n - base < REF_PIECE ? n - base : REF_PIECE, count, i, keep;
    count = ref_decode(e, bytes + base * usz, piece, chars);
    /* Unless this is the end of the input, the last character of the piece
     * may be cut short: drop it and start the next piece there. */
    keep = base + piece == n || count == 1 ? count : count - 1;
    for (i = 0; i < keep; i++) {
      ref_char c = chars[i];
      int stop;
      c.start += base;
      stop = fn(&c, ctx);
      if (stop) return stop;
    }
    base += keep == count ? piece : chars[keep].start;
  }
  return 0;
}

struct first_bad {
  size_t offset;
};

static int find_bad(const ref_char *c, void *ctx) {
  if (!c->bad) return 0;
  ((struct first_bad *)ctx)->offset = c->start;
  return 1;
}

size_t ref_validate(enum ref_enc e, const void *src, size_t n) {
  struct first_bad fb;
  fb.offset = n;
  for_each_char(e, src, n, find_bad, &fb);
  return fb.offset;
}

size_t ref_encoded_units(enum ref_enc e, uint32_t cp) {
  switch (e) {
    case REF_UTF8:
      if (cp <= 0x7F) return 1;
      if (cp <= 0x7FF) return 2;
      if (cp <= 0xFFFF) return 3;
      return 4;
    case REF_UTF16LE:
    case REF_UTF16BE:
      return cp <= 0xFFFF ? 1 : 2;
    default:
      return 1;
  }
}

size_t ref_encode(enum ref_enc e, uint32_t cp, void *dst) {
  unsigned char *d = dst;
  switch (e) {
    case REF_UTF8:
      if (cp <= 0x7F) {
        d[0] = (unsigned char)cp;
        return 1;
      }
      if (cp <= 0x7FF) {
        d[0] = (unsigned char)(0xC0 + cp / 64);
        d[1] = (unsigned char)(0x80 + cp % 64);
        return 2;
      }
      if (cp <= 0xFFFF) {
        d[0] = (unsigned char)(0xE0 + cp / 4096);
        d[1] = (unsigned char)(0x80 + cp / 64 % 64);
        d[2] = (unsigned char)(0x80 + cp % 64);
        return 3;
      }
      d[0] = (unsigned char)(0xF0 + cp / 262144);
      d[1] = (unsigned char)(0x80 + cp / 4096 % 64);
      d[2] = (unsigned char)(0x80 + cp / 64 % 64);
      d[3] = (unsigned char)(0x80 + cp % 64);
      return 4;
    case REF_UTF16LE:
    case REF_UTF16BE:
      if (cp <= 0xFFFF) {
        ref_put_unit(e, dst, 0, cp);
        return 1;
      }
      ref_put_unit(e, dst, 0, 0xD800 + (cp - 0x10000) / 0x400);
      ref_put_unit(e, dst, 1, 0xDC00 + (cp - 0x10000) % 0x400);
      return 2;
    default:
      ref_put_unit(e, dst, 0, cp);
      return 1;
  }
}

struct convert_state {
  enum ref_enc to;
  unsigned char *dst;
  size_t cap, written, replaced, read;
  unsigned flags;
  utfx_status status;
};

static int convert_char(const ref_char *c, void *ctx) {
  struct convert_state *st = ctx;
  unsigned char tmp[16];
  size_t units;
  if (c->bad && !(st->flags & UTFX_REPLACE)) {
    st->status = UTFX_INVALID;
    st->read = c->start;
    return 1;
  }
  if (st->to == REF_LATIN1 && c->cp > 0xFF) {
    st->status = UTFX_INVALID;
    st->read = c->start;
    return 1;
  }
  units = ref_encode(st->to, c->cp, tmp);
  if (st->written + units > st->cap) {
    st->status = UTFX_DST_FULL;
    st->read = c->start;
    return 1;
  }
  memcpy(st->dst + st->written * ref_unit_size(st->to), tmp, units * ref_unit_size(st->to));
  st->written += units;
  st->replaced += (size_t)c->bad;
  return 0;
}

utfx_result ref_convert(enum ref_enc from, const void *src, size_t n, enum ref_enc to,
                        void *dst, size_t cap, unsigned flags) {
  struct convert_state st;
  utfx_result r;
  st.to = to;
  st.dst = dst;
  st.cap = cap;
  st.written = 0;
  st.replaced = 0;
  st.read = n;
  st.flags = flags;
  st.status = UTFX_OK;
  for_each_char(from, src, n, convert_char, &st);
  r.status = st.status;
  r.read = st.read;
  r.written = st.written;
  r.replaced = st.replaced;
  return r;
}

utfx_result ref_convert_chars(const ref_char *chars, size_t count, size_t n, enum ref_enc to,
                              void *dst, size_t cap, unsigned flags) {
  struct convert_state st;
  utfx_result r;
  size_t i;
  st.to = to;
  st.dst = dst;
  st.cap = cap;
  st.written = 0;
  st.replaced = 0;
  st.read = n;
  st.flags = flags;
  st.status = UTFX_OK;
  for (i = 0; i < count; i++)
    if (convert_char(&chars[i], &st)) break;
  r.status = st.status;
  r.read = st.read;
  r.written = st.written;
  r.replaced = st.replaced;
  return r;
}

struct cp_list {
  uint32_t *cps;
  size_t count, first_error;
};

static int collect_cp(const ref_char *c, void *ctx) {
  struct cp_list *l = ctx;
  l->cps[l->count++] = c->cp;
  if (c->bad && l->first_error == (size_t)-1) l->first_error = c->start;
  return 0;
}

size_t ref_utf8_decode(const unsigned char *s, size_t n, uint32_t *cps, size_t *first_error) {
  struct cp_list l;
  l.cps = cps;
  l.count = 0;
  l.first_error = (size_t)-1;
  for_each_char(REF_UTF8, s, n, collect_cp, &l);
  *first_error = l.first_error == (size_t)-1 ? n : l.first_error;
  return l.count;
}

struct length_state {
  enum ref_enc to;
  size_t total;
};

static int count_char(const ref_char *c, void *ctx) {
  struct length_state *st = ctx;
  st->total += ref_encoded_units(st->to, c->cp);
  return 0;
}

size_t ref_length(enum ref_enc to, enum ref_enc from, const void *src, size_t n) {
  struct length_state st;
  st.to = to;
  st.total = 0;
  for_each_char(from, src, n, count_char, &st);
  return st.total;
}
