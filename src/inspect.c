/* Issue 35's questions about a buffer rather than conversions of it: where a
 * stream may be cut (trim_partial), what an error is (error_at, the
 * validations' _detail forms). Each looks at a few units at a known place,
 * so none has a kernel of its own: the scans they need are the validators'. */
#include "internal.h"
#include "scalar/unicode.h"

/* ---- incomplete tails --------------------------------------------------- */

/* The sequence length a UTF-8 lead byte announces (0 for a byte that starts
 * none: ASCII, a continuation, C0, C1, F5..FF) and the range its second
 * byte must be in (Unicode Table 3-7). */
static size_t utf8_lead(unsigned b, unsigned *lo, unsigned *hi) {
  *lo = 0x80, *hi = 0xBF;
  if (b >= 0xC2 && b <= 0xDF) return 2;
  if (b >= 0xE0 && b <= 0xEF) {
    if (b == 0xE0) *lo = 0xA0;
    if (b == 0xED) *hi = 0x9F;
    return 3;
  }
  if (b >= 0xF0 && b <= 0xF4) {
    if (b == 0xF0) *lo = 0x90;
    if (b == 0xF4) *hi = 0x8F;
    return 4;
  }
  return 0;
}

/* How many bytes of s[0..k) are a valid prefix of the sequence that s[0]
 * leads (k when all are), for k up to the sequence's length. */
static size_t utf8_valid_prefix(const unsigned char *s, size_t k) {
  unsigned lo, hi;
  size_t j;
  if (!utf8_lead(s[0], &lo, &hi)) return 0;
  if (k < 2) return k;
  if (s[1] < lo || s[1] > hi) return 1;
  for (j = 2; j < k; j++)
    if ((s[j] & 0xC0) != 0x80) return j;
  return k;
}

/* n - k when the last k bytes (led by s[n - k]) are a valid prefix of a
 * longer sequence, else n. */
static size_t trim_led(const unsigned char *s, size_t n, size_t k) {
  unsigned lo, hi;
  return k < utf8_lead(s[n - k], &lo, &hi) && utf8_valid_prefix(s + n - k, k) == k ? n - k : n;
}

/* back over at most 3 continuation bytes to the byte that leads them */
static size_t trim_tail(const unsigned char *s, size_t n) {
  if (n == 0 || s[n - 1] < 0x80) return n;
  if (s[n - 1] >= 0xC0) return trim_led(s, n, 1);
  if (n < 2 || s[n - 2] < 0x80) return n;
  if (s[n - 2] >= 0xC0) return trim_led(s, n, 2);
  if (n < 3 || s[n - 3] < 0xF0) return n; /* no 4-byte lead: whole, or not a prefix */
  return trim_led(s, n, 3);
}

/* (out of line: the word test rarely sends an input here) */
__attribute__((noinline)) static size_t trim_cut(const unsigned char *s, size_t n) {
  return trim_tail(s, n);
}

size_t utfx_trim_partial_utf8(const char *src, size_t n) {
  const unsigned char *s = (const unsigned char *)src;
  uint32_t w, y;
  /* Below 4 bytes: an ASCII byte last returns at once, the rest goes out
   * of line. */
  if (UTFXI_UNLIKELY(n < 4)) {
    size_t r = n;
    if (UTFXI_UNLIKELY(n == 0 || s[n - 1] >= 0x80)) return trim_cut(s, n);
    __asm__("" : "+r"(r));
    return r;
  }
  /* Only a lead k bytes from the end that announces more than k bytes can be
   * cut: s[n-1] >= C0, s[n-2] >= E0 or s[n-3] >= F0, that is a byte b with
   * (b & m) == m for m = C0, E0, F0. In the word of the last 4 bytes, y has a
   * zero byte just where one is; without one the end is whole, whether the
   * last byte is ASCII or ends a longer character: one branch for both. */
  memcpy(&w, s + n - 4, 4);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
  w = __builtin_bswap32(w);
#endif
  y = (~w & 0xC0E0F000u) | 0xFFu;
  if (UTFXI_UNLIKELY((y - 0x01010101u) & ~y & 0x80808080u)) return trim_cut(s, n);
  return n;
}

/* A high surrogate last: the unit's high byte is D8..DB. */
size_t utfx_trim_partial_utf16le(const char16_t *src, size_t n) {
  return n && (((const unsigned char *)(src + n - 1))[1] & 0xFC) == 0xD8 ? n - 1 : n;
}
size_t utfx_trim_partial_utf16be(const char16_t *src, size_t n) {
  return n && (((const unsigned char *)(src + n - 1))[0] & 0xFC) == 0xD8 ? n - 1 : n;
}

/* ---- what an error is --------------------------------------------------- */

static utfx_error error_of(utfx_error_kind kind, size_t offset, size_t length) {
  utfx_error e;
  e.status = kind == UTFX_ERROR_NONE ? UTFX_OK : UTFX_INVALID;
  e.offset = offset;
  e.kind = kind;
  e.length = length;
  return e;
}

/* The kind of the maximal subpart at s[0] (k >= 1 bytes left) and its length,
 * 0 when the input ends inside a sequence that more bytes could complete. */
static utfx_error utf8_error(const unsigned char *s, size_t k, size_t offset) {
  unsigned b = s[0], lo, hi;
  size_t len = utf8_lead(b, &lo, &hi), valid;
  if (len == 0) {
    if (b < 0x80) return error_of(UTFX_ERROR_NONE, offset, 0);
    if (b < 0xC0) return error_of(UTFX_ERROR_TOO_LONG, offset, 1);
    return error_of(b < 0xC2 ? UTFX_ERROR_OVERLONG : UTFX_ERROR_TOO_LARGE, offset, 1);
  }
  valid = utf8_valid_prefix(s, k < len ? k : len);
  if (valid == len) return error_of(UTFX_ERROR_NONE, offset, 0);
  if (valid == 1 && k >= 2 && (s[1] & 0xC0) == 0x80) { /* a continuation out of range */
    if (b == 0xE0 || b == 0xF0) return error_of(UTFX_ERROR_OVERLONG, offset, 1);
    if (b == 0xED) return error_of(UTFX_ERROR_SURROGATE, offset, 1);
    return error_of(UTFX_ERROR_TOO_LARGE, offset, 1); /* F4 90..BF */
  }
  return error_of(UTFX_ERROR_TOO_SHORT, offset, valid == k ? 0 : valid);
}

utfx_error utfx_utf8_error_at(const char *src, size_t n, size_t offset) {
  if (offset >= n) return error_of(UTFX_ERROR_NONE, n, 0);
  return utf8_error((const unsigned char *)src + offset, n - offset, offset);
}

static utfx_error utf16_error(const char16_t *s, size_t n, size_t offset, int be) {
  uint32_t c;
  if (offset >= n) return error_of(UTFX_ERROR_NONE, n, 0);
  c = utfxi_load16(s + offset, be);
  if ((c & 0xFC00) == 0xDC00) return error_of(UTFX_ERROR_LONE_LOW, offset, 1);
  if ((c & 0xFC00) != 0xD800) return error_of(UTFX_ERROR_NONE, offset, 0);
  if (offset + 1 == n) return error_of(UTFX_ERROR_LONE_HIGH, offset, 0);
  if ((utfxi_load16(s + offset + 1, be) & 0xFC00) == 0xDC00)
    return error_of(UTFX_ERROR_NONE, offset, 0);
  return error_of(UTFX_ERROR_LONE_HIGH, offset, 1);
}
utfx_error utfx_utf16le_error_at(const char16_t *src, size_t n, size_t offset) {
  return utf16_error(src, n, offset, 0);
}
utfx_error utfx_utf16be_error_at(const char16_t *src, size_t n, size_t offset) {
  return utf16_error(src, n, offset, 1);
}

utfx_error utfx_utf32_error_at(const char32_t *src, size_t n, size_t offset) {
  uint32_t c;
  if (offset >= n) return error_of(UTFX_ERROR_NONE, n, 0);
  c = (uint32_t)src[offset];
  if (c > 0x10FFFF) return error_of(UTFX_ERROR_TOO_LARGE, offset, 1);
  if ((c & 0xFFFFF800) == 0xD800) return error_of(UTFX_ERROR_SURROGATE, offset, 1);
  return error_of(UTFX_ERROR_NONE, offset, 0);
}

/* The fast validator finds the offset; the kind costs a look at the few
 * units there, only on invalid input. */
#define DETAIL(name, S, validate, error_at)         \
  utfx_error name(const S *src, size_t n) {         \
    return error_at(src, n, validate(src, n).read); \
  }
DETAIL(utfx_validate_utf8_detail, char, utfx_validate_utf8, utfx_utf8_error_at)
DETAIL(utfx_validate_utf16le_detail, char16_t, utfx_validate_utf16le, utfx_utf16le_error_at)
DETAIL(utfx_validate_utf16be_detail, char16_t, utfx_validate_utf16be, utfx_utf16be_error_at)
DETAIL(utfx_validate_utf32_detail, char32_t, utfx_validate_utf32, utfx_utf32_error_at)
#undef DETAIL

const char *utfx_error_kind_string(utfx_error_kind kind) {
  switch (kind) {
    case UTFX_ERROR_NONE:
      return "no error";
    case UTFX_ERROR_TOO_SHORT:
      return "incomplete sequence";
    case UTFX_ERROR_TOO_LONG:
      return "unexpected continuation byte";
    case UTFX_ERROR_OVERLONG:
      return "overlong encoding";
    case UTFX_ERROR_SURROGATE:
      return "encoded surrogate";
    case UTFX_ERROR_TOO_LARGE:
      return "code point above U+10FFFF";
    case UTFX_ERROR_LONE_HIGH:
      return "lone high surrogate";
    case UTFX_ERROR_LONE_LOW:
      return "lone low surrogate";
  }
  return "unknown error";
}
