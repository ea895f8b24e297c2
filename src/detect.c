/* Issue 35: byte-order marks and which encodings a byte buffer is valid in.
 * The scans are the public validators (SIMD on every tier); bytes that are
 * not aligned for the unit type, or UTF-32 of the other byte order, go
 * through a small aligned buffer in chunks. */
#include "internal.h"
#include "scalar/unicode.h"

size_t utfx_detect_bom(const char *src, size_t n, unsigned *form) {
  const unsigned char *s = (const unsigned char *)src;
  unsigned f = 0;
  size_t len = 0;
  /* FF FE 00 00 is UTF-32LE's BOM before it is UTF-16LE's and a U+0000 */
  if (n >= 4 && s[0] == 0xFF && s[1] == 0xFE && s[2] == 0 && s[3] == 0)
    f = UTFX_DETECT_UTF32LE, len = 4;
  else if (n >= 4 && s[0] == 0 && s[1] == 0 && s[2] == 0xFE && s[3] == 0xFF)
    f = UTFX_DETECT_UTF32BE, len = 4;
  else if (n >= 3 && s[0] == 0xEF && s[1] == 0xBB && s[2] == 0xBF)
    f = UTFX_DETECT_UTF8, len = 3;
  else if (n >= 2 && s[0] == 0xFF && s[1] == 0xFE)
    f = UTFX_DETECT_UTF16LE, len = 2;
  else if (n >= 2 && s[0] == 0xFE && s[1] == 0xFF)
    f = UTFX_DETECT_UTF16BE, len = 2;
  if (form) *form = f;
  return len;
}

/* Units per chunk of the copying paths (on the stack). */
#define DETECT_CHUNK 512

static int host_is_be(void) {
  const uint16_t one = 1;
  unsigned char first;
  memcpy(&first, &one, 1);
  return first == 0;
}

static int valid_utf16(const char *src, size_t n, int be) {
  char16_t buf[DETECT_CHUNK];
  size_t units = n / 2, i = 0;
  if (n % 2) return 0;
  if ((uintptr_t)src % sizeof(char16_t) == 0) {
    const char16_t *s = (const char16_t *)(const void *)src;
    return (be ? utfx_validate_utf16be(s, units) : utfx_validate_utf16le(s, units)).status ==
           UTFX_OK;
  }
  while (i < units) {
    size_t k = units - i < DETECT_CHUNK ? units - i : DETECT_CHUNK;
    memcpy(buf, src + 2 * i, 2 * k);
    /* a high surrogate last is judged with its pair, in the next chunk */
    if (i + k < units && (utfxi_load16(buf + k - 1, be) & 0xFC00) == 0xD800) k--;
    if ((be ? utfx_validate_utf16be(buf, k) : utfx_validate_utf16le(buf, k)).status != UTFX_OK)
      return 0;
    i += k;
  }
  return 1;
}

static int valid_utf32(const char *src, size_t n, int be) {
  char32_t buf[DETECT_CHUNK];
  size_t units = n / 4, i = 0, j;
  const int swap = be != host_is_be();
  if (n % 4) return 0;
  if (!swap && (uintptr_t)src % sizeof(char32_t) == 0)
    return utfx_validate_utf32((const char32_t *)(const void *)src, units).status == UTFX_OK;
  while (i < units) {
    size_t k = units - i < DETECT_CHUNK ? units - i : DETECT_CHUNK;
    memcpy(buf, src + 4 * i, 4 * k);
    if (swap)
      for (j = 0; j < k; j++) {
        uint32_t v = (uint32_t)buf[j];
        buf[j] = (char32_t)((v >> 24) | (v >> 8 & 0xFF00) | (v << 8 & 0xFF0000) | (v << 24));
      }
    if (utfx_validate_utf32(buf, k).status != UTFX_OK) return 0;
    i += k;
  }
  return 1;
}

/* The leading ASCII (one scan) is valid UTF-8, and as UTF-16 of either byte
 * order its whole units are below 0x8000, none a surrogate: the UTF-8 and
 * UTF-16 scans start after it (at a unit boundary), so ASCII text is read
 * once for the three, not three times (docs/perf-decisions.md,
 * 'detect_encodings: the leading ASCII once'). */
unsigned utfx_detect_encodings(const char *src, size_t n) {
  unsigned set = 0;
  utfx_result a = utfx_validate_ascii(src, n);
  if (a.status == UTFX_OK) {
    set = UTFX_DETECT_UTF8 | (n % 2 ? 0 : UTFX_DETECT_UTF16LE | UTFX_DETECT_UTF16BE);
  } else { /* (a.read < n: the first byte that is not ASCII) */
    const size_t p = a.read, q = p & ~(size_t)1;
    if (utfx_validate_utf8(src + p, n - p).status == UTFX_OK) set |= UTFX_DETECT_UTF8;
    if (valid_utf16(src + q, n - q, 0)) set |= UTFX_DETECT_UTF16LE; /* (n - q: n's parity) */
    if (valid_utf16(src + q, n - q, 1)) set |= UTFX_DETECT_UTF16BE;
  }
  if (valid_utf32(src, n, 0)) set |= UTFX_DETECT_UTF32LE;
  if (valid_utf32(src, n, 1)) set |= UTFX_DETECT_UTF32BE;
  return set;
}

/* UTF-16 valid both ways: text is mostly below U+0100, so its zero bytes are
 * the high halves (odd offsets in UTF-16LE); LE on a tie. */
static unsigned utf16_by_zeros(const char *src, size_t n) {
  const unsigned char *s = (const unsigned char *)src;
  size_t i, even = 0, odd = 0;
  for (i = 0; i + 1 < n; i += 2) {
    even += s[i] == 0;
    odd += s[i + 1] == 0;
  }
  return even > odd ? UTFX_DETECT_UTF16BE : UTFX_DETECT_UTF16LE;
}

unsigned utfx_detect_encoding(const char *src, size_t n) {
  unsigned bom, le, be;
  if (utfx_detect_bom(src, n, &bom)) return bom;
  if (utfx_validate_utf8(src, n).status == UTFX_OK) return UTFX_DETECT_UTF8;
  if (valid_utf32(src, n, 0)) return UTFX_DETECT_UTF32LE;
  if (valid_utf32(src, n, 1)) return UTFX_DETECT_UTF32BE;
  le = valid_utf16(src, n, 0) ? UTFX_DETECT_UTF16LE : 0;
  be = valid_utf16(src, n, 1) ? UTFX_DETECT_UTF16BE : 0;
  return le && be ? utf16_by_zeros(src, n) : le | be;
}
