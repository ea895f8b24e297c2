/* Scalar steps shared by the SIMD UTF-8 kernels of every ISA (static inline, baseline C:
 * each kernel file that includes it compiles it with its own flags).
 *
 * The SIMD loops hand every block they cannot take (an ill-formed sequence,
 * a code point Latin-1 cannot hold, the tail, a nearly full destination) to
 * these steps. They decode with the WHATWG decoder over the whole remaining
 * input (n), exactly as the scalar kernels do, and stop at the first
 * character boundary at or after `stop`; so the characters they see, the
 * errors they report and the U+FFFD they write are the scalar kernel's. */
#ifndef UTFX_SIMD_UTF8_STEPS_H
#define UTFX_SIMD_UTF8_STEPS_H

#include "../scalar/unicode.h"

/* Conversion state of one call. */
struct utfxi_u8state {
  size_t i;        /* source offset, always at a character boundary */
  size_t w;        /* units written */
  size_t replaced; /* U+FFFD written */
};

/* Converts characters from st->i until st->i >= stop (or the input ends).
 * Returns 0, or the status to stop with (st->i is then the offending
 * character's offset, as the scalar kernel reports it). */
UTFXI_INLINE int utfxi_utf8_steps(const unsigned char *s, size_t n, size_t stop,
                                 struct utfxi_u8state *st, void *dst, size_t cap, unsigned flags,
                                 enum utfxi_target t) {
  size_t i = st->i, w = st->w, replaced = st->replaced;
  int status = 0;
  if (stop > n) stop = n;
  while (i < stop) {
    uint32_t c;
    size_t len;
    int bad;
    if (s[i] < 0x80 && cap - w > 0) { /* ASCII needs no decoding */
      utfxi_put(dst, w, s[i], t);
      i++;
      w++;
      continue;
    }
    len = utfxi_utf8_decode(s + i, n - i, &c);
    bad = c == UTFXI_BAD;
    if (bad) {
      if (!(flags & UTFX_REPLACE)) {
        status = UTFX_INVALID;
        break;
      }
      c = 0xFFFD;
    }
    status = utfxi_emit(dst, cap, &w, c, t);
    if (status) break;
    replaced += (size_t)bad;
    i += len;
  }
  st->i = i;
  st->w = w;
  st->replaced = replaced;
  return status;
}

/* The rest of the input, from st->i (a character boundary) on, through the
 * scalar kernel: it decodes from any character boundary exactly as it would
 * have from the start, and its unchecked fast path beats the careful steps. */
UTFXI_INLINE utfx_result utfxi_utf8_rest(const char *s, size_t n, const struct utfxi_u8state *st,
                                        void *dst, size_t cap, unsigned flags,
                                        enum utfxi_target t) {
  utfx_result r;
  if (st->i == n) return utfxi_result(UTFX_OK, n, st->w, st->replaced); /* no call for nothing */
  s += st->i, n -= st->i, cap -= st->w;
  switch (t) {
    case UTFXI_T_UTF16LE:
      r = utfxi_convert_utf8_to_utf16le_scalar(s, n, (char16_t *)dst + st->w, cap, flags);
      break;
    case UTFXI_T_UTF16BE:
      r = utfxi_convert_utf8_to_utf16be_scalar(s, n, (char16_t *)dst + st->w, cap, flags);
      break;
    case UTFXI_T_UTF32:
      r = utfxi_convert_utf8_to_utf32_scalar(s, n, (char32_t *)dst + st->w, cap, flags);
      break;
    default:
      r = utfxi_convert_utf8_to_latin1_scalar(s, n, (char *)dst + st->w, cap, flags);
      break;
  }
  return utfxi_result_after(&r, st->i, st->w, st->replaced);
}

/* Counts, from *pi until *pi >= stop, what the REPLACE conversion writes:
 * UTF-16 units (utf16 = 1) or code points (utf16 = 0). */
static inline size_t utfxi_utf8_count_steps(const unsigned char *s, size_t n, size_t stop,
                                            size_t *pi, int utf16) {
  size_t i = *pi, count = 0;
  if (stop > n) stop = n;
  while (i < stop) {
    uint32_t c;
    i += utfxi_utf8_decode(s + i, n - i, &c);
    count += 1 + (size_t)(utf16 && c != UTFXI_BAD && c >= 0x10000);
  }
  *pi = i;
  return count;
}

/* A character boundary at or before p from which decoding reaches p's
 * errors, given that s[0..p) is well-formed UTF-8 except perhaps for an
 * unfinished last character: the last non-continuation byte among the three
 * before p (it starts a character), else p itself. Reads only s[p-3..p). */
static inline size_t utfxi_utf8_back_to_boundary(const unsigned char *s, size_t p) {
  size_t k;
  for (k = 1; k <= 3 && k <= p; k++)
    if ((s[p - k] & 0xC0) != 0x80) return p - k;
  return p;
}

/* For the SIMD length kernels: the data from c on holds an error and
 * everything before c was counted. Takes back the unfinished character before
 * c, counts with the scalar decoder through stop, and returns the new offset
 * (a character boundary). */
static inline size_t utfxi_utf8_recount(const unsigned char *s, size_t n, size_t c, size_t stop,
                                        size_t *count, int utf16) {
  size_t q = utfxi_utf8_back_to_boundary(s, c), j;
  for (j = q; j < c; j++)
    if ((s[j] & 0xC0) != 0x80) *count -= 1 + (size_t)(utf16 && s[j] >= 0xF0);
  *count += utfxi_utf8_count_steps(s, n, stop, &q, utf16);
  return q;
}

#endif
