/* Static-inline building blocks of the scalar reference kernels: decoding one
 * character of each encoding, encoding one code point, byte-order-aware
 * UTF-16 unit access and word-at-a-time ASCII tests. Everything here is
 * static inline, so a SIMD file may include it and stays self-contained. */
#ifndef UTFX_SCALAR_UNICODE_H
#define UTFX_SCALAR_UNICODE_H

#include "../internal.h"

/* Marker for "this is an ill-formed sequence", outside the code point range. */
#define UTFXI_BAD 0xFFFFFFFFu

/* Output forms shared by the generic kernel bodies. */
enum utfxi_target { UTFXI_T_UTF8, UTFXI_T_UTF16LE, UTFXI_T_UTF16BE, UTFXI_T_UTF32, UTFXI_T_LATIN1 };

/* A 16-bit unit whose bytes in memory are little-endian (be = 0) or
 * big-endian (be = 1). Byte access keeps this independent of the host's byte
 * order; compilers turn it into one (byte-swapped) load or store. */
UTFXI_INLINE uint32_t utfxi_load16(const char16_t *p, int be) {
  const unsigned char *b = (const unsigned char *)p;
  return be ? ((uint32_t)b[0] << 8 | b[1]) : (b[0] | (uint32_t)b[1] << 8);
}

UTFXI_INLINE void utfxi_store16(char16_t *p, uint32_t v, int be) {
  unsigned char *b = (unsigned char *)p;
  b[be ? 1 : 0] = (unsigned char)(v & 0xFF);
  b[be ? 0 : 1] = (unsigned char)(v >> 8);
}

/* 8 bytes as a word (host order); the masks below are built from byte
 * patterns the same way, so the tests do not depend on host byte order. */
UTFXI_INLINE uint64_t utfxi_load64(const void *p) {
  uint64_t v;
  memcpy(&v, p, 8);
  return v;
}

/* Mask that is nonzero in a word of four UTF-16 units iff some unit >= 0x80
 * (one pattern per memory byte order). */
UTFXI_INLINE uint64_t utfxi_utf16_nonascii_mask(int be) {
  static const unsigned char le[8] = {0x80, 0xFF, 0x80, 0xFF, 0x80, 0xFF, 0x80, 0xFF};
  static const unsigned char bee[8] = {0xFF, 0x80, 0xFF, 0x80, 0xFF, 0x80, 0xFF, 0x80};
  return utfxi_load64(be ? bee : le);
}

/* Decodes the UTF-8 character at s[0..n), n >= 1, by the WHATWG decoder.
 * Returns the number of bytes it spans and stores its code point in *cp; for
 * an ill-formed sequence returns the length of its maximal subpart (1..3) and
 * stores UTFXI_BAD. */
UTFXI_INLINE size_t utfxi_utf8_decode(const unsigned char *s, size_t n, uint32_t *cp) {
  uint32_t c = s[0];
  unsigned lo = 0x80, hi = 0xBF;
  if (c < 0x80) {
    *cp = c;
    return 1;
  }
  *cp = UTFXI_BAD;
  if (c < 0xC2 || c > 0xF4) return 1;
  if (c < 0xE0) {
    if (n < 2 || (s[1] & 0xC0) != 0x80) return 1;
    *cp = (c & 0x1F) << 6 | (s[1] & 0x3Fu);
    return 2;
  }
  if (c < 0xF0) {
    if (c == 0xE0) lo = 0xA0;
    if (c == 0xED) hi = 0x9F;
    if (n < 2 || s[1] < lo || s[1] > hi) return 1;
    if (n < 3 || (s[2] & 0xC0) != 0x80) return 2;
    *cp = (c & 0x0F) << 12 | (s[1] & 0x3Fu) << 6 | (s[2] & 0x3Fu);
    return 3;
  }
  if (c == 0xF0) lo = 0x90;
  if (c == 0xF4) hi = 0x8F;
  if (n < 2 || s[1] < lo || s[1] > hi) return 1;
  if (n < 3 || (s[2] & 0xC0) != 0x80) return 2;
  if (n < 4 || (s[3] & 0xC0) != 0x80) return 3;
  *cp = (c & 0x07) << 18 | (s[1] & 0x3Fu) << 12 | (s[2] & 0x3Fu) << 6 | (s[3] & 0x3Fu);
  return 4;
}

/* Decodes the UTF-16 character at s[0..n), n >= 1: returns 1 or 2 units and
 * the code point, or 1 and UTFXI_BAD for a lone surrogate. */
UTFXI_INLINE size_t utfxi_utf16_decode(const char16_t *s, size_t n, int be, uint32_t *cp) {
  uint32_t c = utfxi_load16(s, be);
  if ((c & 0xF800) != 0xD800) {
    *cp = c;
    return 1;
  }
  if (c <= 0xDBFF && n >= 2) {
    uint32_t d = utfxi_load16(s + 1, be);
    if ((d & 0xFC00) == 0xDC00) {
      *cp = 0x10000 + ((c - 0xD800) << 10) + (d - 0xDC00);
      return 2;
    }
  }
  *cp = UTFXI_BAD;
  return 1;
}

UTFXI_INLINE int utfxi_is_scalar_value(uint32_t c) {
  return c < 0xD800 || (c > 0xDFFF && c <= 0x10FFFF);
}

/* Units needed to write code point c (a scalar value) in the target form. */
UTFXI_INLINE size_t utfxi_units_for(uint32_t c, enum utfxi_target t) {
  switch (t) {
    case UTFXI_T_UTF8:
      return c < 0x80 ? 1 : c < 0x800 ? 2 : c < 0x10000 ? 3 : 4;
    case UTFXI_T_UTF16LE:
    case UTFXI_T_UTF16BE:
      return c < 0x10000 ? 1 : 2;
    case UTFXI_T_UTF32:
    case UTFXI_T_LATIN1:
      return 1;
  }
  return 1;
}

/* Writes scalar value c at unit index w of dst and returns the units written
 * (= utfxi_units_for(c, t)); the caller checked room. */
UTFXI_INLINE size_t utfxi_put(void *dst, size_t w, uint32_t c, enum utfxi_target t) {
  switch (t) {
    case UTFXI_T_UTF8: {
      unsigned char *d = (unsigned char *)dst + w;
      if (c < 0x80) {
        d[0] = (unsigned char)c;
        return 1;
      } else if (c < 0x800) {
        d[0] = (unsigned char)(0xC0 | c >> 6);
        d[1] = (unsigned char)(0x80 | (c & 0x3F));
        return 2;
      } else if (c < 0x10000) {
        d[0] = (unsigned char)(0xE0 | c >> 12);
        d[1] = (unsigned char)(0x80 | (c >> 6 & 0x3F));
        d[2] = (unsigned char)(0x80 | (c & 0x3F));
        return 3;
      } else {
        d[0] = (unsigned char)(0xF0 | c >> 18);
        d[1] = (unsigned char)(0x80 | (c >> 12 & 0x3F));
        d[2] = (unsigned char)(0x80 | (c >> 6 & 0x3F));
        d[3] = (unsigned char)(0x80 | (c & 0x3F));
        return 4;
      }
    }
    case UTFXI_T_UTF16LE:
    case UTFXI_T_UTF16BE: {
      char16_t *d = (char16_t *)dst + w;
      int be = t == UTFXI_T_UTF16BE;
      if (c < 0x10000) {
        utfxi_store16(d, c, be);
        return 1;
      }
      utfxi_store16(d, 0xD800 + ((c - 0x10000) >> 10), be);
      utfxi_store16(d + 1, 0xDC00 + (c & 0x3FF), be);
      return 2;
    }
    case UTFXI_T_UTF32:
      ((char32_t *)dst)[w] = (char32_t)c;
      return 1;
    case UTFXI_T_LATIN1:
      ((unsigned char *)dst)[w] = (unsigned char)c;
      return 1;
  }
  return 0;
}

/* Writes k ASCII bytes (all < 0x80) at unit index w of dst. */
UTFXI_INLINE void utfxi_put_ascii(void *dst, size_t w, const unsigned char *a, size_t k,
                                   enum utfxi_target t) {
  size_t j;
  switch (t) {
    case UTFXI_T_UTF8:
    case UTFXI_T_LATIN1:
      memcpy((unsigned char *)dst + w, a, k);
      return;
    case UTFXI_T_UTF16LE:
    case UTFXI_T_UTF16BE:
      for (j = 0; j < k; j++) utfxi_store16((char16_t *)dst + w + j, a[j], t == UTFXI_T_UTF16BE);
      return;
    case UTFXI_T_UTF32:
      for (j = 0; j < k; j++) ((char32_t *)dst)[w + j] = a[j];
      return;
  }
}

/* The common tail of every conversion step: checks target range and room,
 * then writes. Returns 0 when the character was written, otherwise the status
 * to stop with (the caller reports read = offset of this character). */
UTFXI_INLINE int utfxi_emit(void *dst, size_t cap, size_t *w, uint32_t c,
                             enum utfxi_target t) {
  size_t units;
  if (t == UTFXI_T_LATIN1 && c > 0xFF) return UTFX_INVALID;
  units = utfxi_units_for(c, t);
  if (cap - *w < units) return UTFX_DST_FULL;
  *w += utfxi_put(dst, *w, c, t);
  return 0;
}

/* The careful step every converter takes for one character at source offset
 * i that its fast loop did not handle: c is the decoded code point, or
 * UTFXI_BAD for an ill-formed sequence. STRICT stops there; REPLACE writes
 * U+FFFD. Returns 0 when the character was written (counted in *replaced if
 * it was replaced), else 1 with *stop holding the result to return. */
UTFXI_INLINE int utfxi_careful_step(void *dst, size_t cap, size_t i, size_t *w,
                                    size_t *replaced, uint32_t c, unsigned flags,
                                    enum utfxi_target t, utfx_result *stop) {
  int bad = c == UTFXI_BAD, status;
  if (bad) {
    if (!(flags & UTFX_REPLACE)) {
      *stop = utfxi_result(UTFX_INVALID, i, *w, *replaced);
      return 1;
    }
    c = 0xFFFD;
  }
  status = utfxi_emit(dst, cap, w, c, t);
  if (status) {
    *stop = utfxi_result((utfx_status)status, i, *w, *replaced);
    return 1;
  }
  *replaced += (size_t)bad;
  return 0;
}

/* Length functions count in chunks of this many source units, so the running
 * count of a chunk cannot overflow and the total can saturate cheaply. */
#define UTFXI_LENGTH_CHUNK ((size_t)1 << 20)

/* The chunk loop of a length function: the body advances i up to end (it may
 * read past end, up to n, to finish a character) and adds the chunk's units to
 * count; each chunk's count is added to total with saturation. */
#define UTFXI_LENGTH_CHUNK_END(i, n) ((n) - (i) > UTFXI_LENGTH_CHUNK ? (i) + UTFXI_LENGTH_CHUNK : (n))
#define UTFXI_FOR_LENGTH_CHUNKS(i, n, end, count, total)                                   \
  for (size_t end, count; (i) < (n) && (end = UTFXI_LENGTH_CHUNK_END(i, n), count = 0, 1); \
       (total) = utfxi_add_sat(total, count))

#endif /* UTFX_SCALAR_UNICODE_H */
