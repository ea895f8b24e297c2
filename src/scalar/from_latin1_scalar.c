/* Scalar reference: Latin-1 (bytes = U+0000..U+00FF) to UTF-8, UTF-16LE/BE
 * and UTF-32. Latin-1 input is always valid; only the capacity can stop it. */
#include "unicode.h"

#define UTFXI_HIGH_BITS 0x8080808080808080ull

/* How many bytes of the word at s come before its first byte >= 0x80; h,
 * the word's high bits, is not 0. */
UTFXI_INLINE size_t latin1_ascii_prefix(const unsigned char *s, uint64_t h) {
#if defined(__GNUC__) && defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
  (void)s;
  return (size_t)__builtin_ctzll(h) >> 3;
#elif defined(__GNUC__) && defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
  (void)s;
  return (size_t)__builtin_clzll(h) >> 3;
#else
  size_t a = 0;
  (void)h;
  while (s[a] < 0x80) a++;
  return a;
#endif
}

utfx_result utfxi_convert_latin1_to_utf8_scalar(const char *src, size_t n, char *dst,
                                                size_t cap, unsigned flags) {
  const unsigned char *s = (const unsigned char *)src;
  unsigned char *d = (unsigned char *)dst;
  const size_t k = n < cap ? n : cap;
  size_t i = 0, w;
  (void)flags;
  /* Leading ASCII, a word a step in a loop of its own (one taken branch a
   * word; the general loop below takes three): every input under 64 bytes
   * runs this kernel (docs/perf-decisions.md, 'Latin-1 -> UTF-8'). An ASCII
   * byte is one output byte, so k bounds the input and the room at once. */
  while (k - i >= 8) {
    uint64_t x = utfxi_load64(s + i);
    if (x & UTFXI_HIGH_BITS) break;
    memcpy(d + i, &x, 8);
    i += 8;
  }
  w = i;
  while (i < n) {
    if (n - i >= 8 && cap - w >= 8) {
      uint64_t x = utfxi_load64(s + i), h = x & UTFXI_HIGH_BITS;
      if (!h) {
        memcpy(d + w, &x, 8);
        i += 8;
        w += 8;
        continue;
      }
      if (cap - w >= 16) {
        /* The ASCII bytes before the first other one by one store of the
         * word, then that one: a step per non-ASCII byte, not per byte. The
         * word's output (8 to 16 bytes) surely fits, so the bytes stored
         * past the ASCII ones are rewritten before the call ends. */
        size_t a = latin1_ascii_prefix(s + i, h);
        memcpy(d + w, &x, 8);
        i += a;
        w += a;
        d[w++] = (unsigned char)(0xC0 | s[i] >> 6);
        d[w++] = (unsigned char)(0x80 | (s[i] & 0x3F));
        i++;
        continue;
      }
    }
    if (s[i] < 0x80) {
      if (w == cap) break;
      d[w++] = s[i];
    } else {
      if (cap - w < 2) break;
      d[w++] = (unsigned char)(0xC0 | s[i] >> 6);
      d[w++] = (unsigned char)(0x80 | (s[i] & 0x3F));
    }
    i++;
  }
  return utfxi_result(i == n ? UTFX_OK : UTFX_DST_FULL, i, w, 0);
}

UTFXI_INLINE utfx_result latin1_widen(const char *src, size_t n, void *dst, size_t cap,
                                       enum utfxi_target t) {
  const unsigned char *s = (const unsigned char *)src;
  size_t k = n < cap ? n : cap, i;
  for (i = 0; i < k; i++) utfxi_put(dst, i, s[i], t);
  return utfxi_result(k == n ? UTFX_OK : UTFX_DST_FULL, k, k, 0);
}

utfx_result utfxi_convert_latin1_to_utf16le_scalar(const char *s, size_t n, char16_t *d,
                                                   size_t cap, unsigned flags) {
  (void)flags;
  return latin1_widen(s, n, d, cap, UTFXI_T_UTF16LE);
}
utfx_result utfxi_convert_latin1_to_utf16be_scalar(const char *s, size_t n, char16_t *d,
                                                   size_t cap, unsigned flags) {
  (void)flags;
  return latin1_widen(s, n, d, cap, UTFXI_T_UTF16BE);
}
utfx_result utfxi_convert_latin1_to_utf32_scalar(const char *s, size_t n, char32_t *d,
                                                 size_t cap, unsigned flags) {
  (void)flags;
  return latin1_widen(s, n, d, cap, UTFXI_T_UTF32);
}
