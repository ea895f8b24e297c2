/* Scalar reference: UTF-16LE/BE to UTF-8, the other UTF-16 byte order,
 * UTF-32 and Latin-1, and the well-formed repair. Runs of four units below
 * 0x80 move a word at a time; a lone surrogate is one error (one U+FFFD). */
#include "unicode.h"

/* Copies four units below 0x80 (the caller checked) to the target form. */
UTFXI_INLINE void utf16_copy_ascii4(const char16_t *s, void *dst, size_t w, int be,
                                    enum utfxi_target t) {
  if (t == UTFXI_T_UTF8 || t == UTFXI_T_LATIN1) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    /* the units' low bytes gathered in the word (gcc made the loop below
     * four byte loads and four stores) */
    uint64_t x = utfxi_load64(s) >> (be ? 8 : 0);
    uint32_t b;
    x |= x >> 8;
    b = (uint32_t)(x & 0xFFFF) | (uint32_t)(x >> 16 & 0xFFFF0000);
    memcpy((unsigned char *)dst + w, &b, 4);
#else
    unsigned char *d = (unsigned char *)dst + w;
    for (size_t j = 0; j < 4; j++) d[j] = (unsigned char)utfxi_load16(s + j, be);
#endif
  } else {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    /* the word's units widened or byte-swapped in registers (gcc made the
     * loop below a loop of four loads and four stores) */
    uint64_t x = utfxi_load64(s);
    if (t == UTFXI_T_UTF32) {
      uint64_t lo, hi;
      x >>= be ? 8 : 0; /* the units' low bytes at even bytes, zeros between */
      lo = (x & 0xFFFF) | (x & 0xFFFF0000u) << 16;
      hi = (x >> 32 & 0xFFFF) | (x >> 48) << 32;
      memcpy((char32_t *)dst + w, &lo, 8);
      memcpy((char32_t *)dst + w + 2, &hi, 8);
    } else {
      /* each unit's high byte is zero: a shift by a byte swaps the order */
      if ((t == UTFXI_T_UTF16BE) != be) x = be ? x >> 8 : x << 8;
      memcpy((char16_t *)dst + w, &x, 8);
    }
#else
    for (size_t j = 0; j < 4; j++) utfxi_put(dst, w + j, utfxi_load16(s + j, be), t);
#endif
  }
}

/* Converts well-formed characters from s[*i] on while the room left surely
 * suffices (3 output units per input unit covers every target), stopping at
 * the end or at the first character the caller's general step must handle
 * (a lone surrogate, a Latin-1 overflow). */
UTFXI_INLINE void utf16_convert_unchecked(const char16_t *s, size_t n, void *dst, size_t *pi,
                                           size_t *pw, int be, enum utfxi_target t) {
  const uint64_t nonascii = utfxi_utf16_nonascii_mask(be);
  size_t i = *pi, w = *pw;
  while (i < n) {
    uint32_t c = utfxi_load16(s + i, be);
    if (c < 0x80) {
      while (n - i >= 4 && !(utfxi_load64(s + i) & nonascii)) {
        utf16_copy_ascii4(s + i, dst, w, be, t);
        i += 4;
        w += 4;
      }
      if (i < n && (c = utfxi_load16(s + i, be)) < 0x80) {
        utfxi_put(dst, w++, c, t);
        i++;
      }
      continue;
    }
    if ((c & 0xF800) == 0xD800) {
      uint32_t d;
      if (c > 0xDBFF || n - i < 2) break;
      d = utfxi_load16(s + i + 1, be);
      if ((d & 0xFC00) != 0xDC00) break;
      if (t == UTFXI_T_LATIN1) break; /* above U+00FF */
      w += utfxi_put(dst, w, 0x10000 + ((c - 0xD800) << 10) + (d - 0xDC00), t);
      i += 2;
      continue;
    }
    if (t == UTFXI_T_LATIN1 && c > 0xFF) break;
    if (t == UTFXI_T_UTF8 && c < 0x800) {
      /* Runs of 2-byte characters (Cyrillic, Greek, Hebrew, Arabic...). */
      unsigned char *d = (unsigned char *)dst + w;
      d[0] = (unsigned char)(0xC0 | c >> 6);
      d[1] = (unsigned char)(0x80 | (c & 0x3F));
      w += 2;
      i++;
      continue;
    }
    w += utfxi_put(dst, w, c, t);
    i++;
  }
  *pi = i;
  *pw = w;
}

UTFXI_INLINE utfx_result utf16_convert(const char16_t *s, size_t n, void *dst, size_t cap,
                                        unsigned flags, int be, enum utfxi_target t) {
  const uint64_t nonascii = utfxi_utf16_nonascii_mask(be);
  const size_t per_unit = t == UTFXI_T_UTF8 ? 3 : 1; /* worst-case output per input unit */
  size_t i = 0, w = 0, replaced = 0;
  while (i < n) {
    uint32_t c;
    size_t len;
    utfx_result stop;
    if ((cap - w) / per_unit >= n - i) {
      utf16_convert_unchecked(s, n, dst, &i, &w, be, t);
      if (i == n) break;
    } else {
      while (n - i >= 4 && cap - w >= 4 && !(utfxi_load64(s + i) & nonascii)) {
        utf16_copy_ascii4(s + i, dst, w, be, t);
        i += 4;
        w += 4;
      }
      if (i == n) break;
    }
    /* General step: one character, with every check. */
    len = utfxi_utf16_decode(s + i, n - i, be, &c);
    if (utfxi_careful_step(dst, cap, i, &w, &replaced, c, flags, t, &stop)) return stop;
    i += len;
  }
  return utfxi_result(UTFX_OK, n, w, replaced);
}

#define UTFXI_DEFINE_FROM_UTF16(from, be, to, T, target)                                  \
  utfx_result utfxi_convert_##from##_to_##to##_scalar(const char16_t *s, size_t n, T *d, \
                                                      size_t cap, unsigned flags) {      \
    return utf16_convert(s, n, d, cap, flags, be, target);                               \
  }

/* UTF-8: where the room surely suffices, the unchecked loop first, in a
 * function of few live values (no callee-saved register, no general step:
 * the public entries send every call under 64 bytes here); the general loop,
 * out of line, takes the rest from unit i, output byte w, the first character
 * the unchecked loop stopped at. */
#define UTFXI_DEFINE_TO_UTF8(from, be)                                                      \
  __attribute__((noinline)) static utfx_result from##_to_utf8_general(                     \
      const char16_t *s, size_t n, char *d, size_t cap, unsigned flags, size_t i,           \
      size_t w) {                                                                           \
    /* (d may be NULL with no room, and then w is 0: NULL + 0 is undefined) */              \
    utfx_result r = utf16_convert(s + i, n - i, w ? d + w : d, cap - w, flags, be,          \
                                  UTFXI_T_UTF8);                                            \
    return utfxi_result_after(&r, i, w, 0);                                                 \
  }                                                                                         \
  utfx_result utfxi_convert_##from##_to_utf8_scalar(const char16_t *s, size_t n, char *d,   \
                                                    size_t cap, unsigned flags) {           \
    size_t i = 0, w = 0;                                                                    \
    if (cap / 3 >= n) {                                                                     \
      utf16_convert_unchecked(s, n, d, &i, &w, be, UTFXI_T_UTF8);                           \
      if (i == n) return utfxi_result(UTFX_OK, n, w, 0);                                    \
    }                                                                                       \
    return from##_to_utf8_general(s, n, d, cap, flags, i, w);                               \
  }
UTFXI_DEFINE_TO_UTF8(utf16le, 0)
UTFXI_DEFINE_FROM_UTF16(utf16le, 0, utf16be, char16_t, UTFXI_T_UTF16BE)
UTFXI_DEFINE_FROM_UTF16(utf16le, 0, utf32, char32_t, UTFXI_T_UTF32)
UTFXI_DEFINE_FROM_UTF16(utf16le, 0, latin1, char, UTFXI_T_LATIN1)
UTFXI_DEFINE_TO_UTF8(utf16be, 1)
UTFXI_DEFINE_FROM_UTF16(utf16be, 1, utf16le, char16_t, UTFXI_T_UTF16LE)
UTFXI_DEFINE_FROM_UTF16(utf16be, 1, utf32, char32_t, UTFXI_T_UTF32)
UTFXI_DEFINE_FROM_UTF16(utf16be, 1, latin1, char, UTFXI_T_LATIN1)

/* dst may equal src: each unit is read before it (or its pair) is written.
 * Unit by unit, as the validation (a run of non-surrogates is a plain copy):
 * a lone surrogate becomes U+FFFD. Returns the units replaced (the repair_
 * kernels; the void ones drop it). */
UTFXI_INLINE size_t utf16_to_well_formed(const char16_t *s, size_t n, char16_t *d, int be) {
  size_t i = 0, replaced = 0;
  while (i < n) {
    uint32_t c = utfxi_load16(s + i, be);
    if ((c & 0xF800) != 0xD800) {
      d[i] = s[i];
      i++;
    } else if (c <= 0xDBFF && i + 1 < n && (utfxi_load16(s + i + 1, be) & 0xFC00) == 0xDC00) {
      d[i] = s[i];
      d[i + 1] = s[i + 1];
      i += 2;
    } else {
      utfxi_store16(d + i, 0xFFFD, be);
      replaced++;
      i++;
    }
  }
  return replaced;
}

void utfxi_to_well_formed_utf16le_scalar(const char16_t *s, size_t n, char16_t *d) {
  utf16_to_well_formed(s, n, d, 0);
}
void utfxi_to_well_formed_utf16be_scalar(const char16_t *s, size_t n, char16_t *d) {
  utf16_to_well_formed(s, n, d, 1);
}
size_t utfxi_repair_utf16le_scalar(const char16_t *s, size_t n, char16_t *d) {
  return utf16_to_well_formed(s, n, d, 0);
}
size_t utfxi_repair_utf16be_scalar(const char16_t *s, size_t n, char16_t *d) {
  return utf16_to_well_formed(s, n, d, 1);
}
