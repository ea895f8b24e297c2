/* Encoding names and aliases, byte-order marks, and where a chunk may end
 * inside a character. */
#include <ctype.h>
#include <string.h>

#include "cli.h"

/* Names are compared after lower-casing and dropping '-', '_' and ' ', so
 * "UTF-16LE", "utf16le" and "utf_16_le" are one name. */
static const struct {
  const char *key;
  enum cli_enc enc;
  int generic;
} names[] = {
    {"utf8", CLI_UTF8, 0},          {"unicode11utf8", CLI_UTF8, 0}, {"utf16le", CLI_UTF16LE, 0},
    {"utf16be", CLI_UTF16BE, 0},    {"utf16", CLI_UTF16LE, 1},      {"utf32le", CLI_UTF32LE, 0},
    {"utf32be", CLI_UTF32BE, 0},    {"utf32", CLI_UTF32LE, 1},      {"ucs4le", CLI_UTF32LE, 0},
    {"ucs4be", CLI_UTF32BE, 0},     {"latin1", CLI_LATIN1, 0},      {"iso88591", CLI_LATIN1, 0},
    {"iso885911987", CLI_LATIN1, 0}, {"l1", CLI_LATIN1, 0},         {"cp819", CLI_LATIN1, 0},
    {"ibm819", CLI_LATIN1, 0},      {"isoir100", CLI_LATIN1, 0},    {"csisolatin1", CLI_LATIN1, 0},
};

int cli_encoding_parse(const char *name, struct cli_encoding *out) {
  char key[32];
  size_t k = 0, i;
  for (; *name; name++) {
    if (*name == '-' || *name == '_' || *name == ' ') continue;
    if (k + 1 >= sizeof key) return -1;
    key[k++] = (char)tolower((unsigned char)*name);
  }
  key[k] = '\0';
  if (strcmp(key, "auto") == 0) { /* input only: the callers refuse it for -t */
    out->enc = CLI_UTF8;
    out->generic = 0;
    out->detect = 2;
    return 0;
  }
  for (i = 0; i < sizeof names / sizeof names[0]; i++) {
    if (strcmp(key, names[i].key) == 0) {
      out->enc = names[i].enc;
      out->generic = names[i].generic;
      out->detect = 0;
      return 0;
    }
  }
  return -1;
}

const char *cli_encoding_name(enum cli_enc enc) {
  switch (enc) {
    case CLI_UTF8:
      return "UTF-8";
    case CLI_UTF16LE:
      return "UTF-16LE";
    case CLI_UTF16BE:
      return "UTF-16BE";
    case CLI_UTF32LE:
      return "UTF-32LE";
    case CLI_UTF32BE:
      return "UTF-32BE";
    case CLI_LATIN1:
      return "ISO-8859-1";
  }
  return "?";
}

size_t cli_unit_size(enum cli_enc enc) {
  switch (enc) {
    case CLI_UTF16LE:
    case CLI_UTF16BE:
      return 2;
    case CLI_UTF32LE:
    case CLI_UTF32BE:
      return 4;
    case CLI_UTF8:
    case CLI_LATIN1:
      return 1;
  }
  return 1;
}

static int host_is_little_endian(void) {
  const uint16_t one = 1;
  unsigned char first;
  memcpy(&first, &one, 1);
  return first == 1;
}

enum cli_fam cli_family(enum cli_enc enc) {
  switch (enc) {
    case CLI_UTF8:
      return FAM_UTF8;
    case CLI_UTF16LE:
      return FAM_UTF16LE;
    case CLI_UTF16BE:
      return FAM_UTF16BE;
    case CLI_UTF32LE:
    case CLI_UTF32BE:
      return FAM_UTF32;
    case CLI_LATIN1:
      return FAM_LATIN1;
  }
  return FAM_UTF8;
}

int cli_needs_swap32(enum cli_enc enc) {
  if (enc == CLI_UTF32BE) return host_is_little_endian();
  if (enc == CLI_UTF32LE) return !host_is_little_endian();
  return 0;
}

void cli_swap32(unsigned char *p, size_t units) {
  size_t i;
  for (i = 0; i < units; i++, p += 4) {
    uint32_t v;
    memcpy(&v, p, 4);
    v = (v >> 24) | (v >> 8 & 0xFF00u) | (v << 8 & 0xFF0000u) | (v << 24);
    memcpy(p, &v, 4);
  }
}

size_t cli_bom_bytes(enum cli_enc enc, unsigned char out[4]) {
  static const unsigned char boms[][4] = {
      {0xEF, 0xBB, 0xBF, 0}, {0xFF, 0xFE, 0, 0}, {0xFE, 0xFF, 0, 0},
      {0xFF, 0xFE, 0, 0},    {0, 0, 0xFE, 0xFF},
  };
  static const size_t lens[] = {3, 2, 2, 4, 4};
  if (enc == CLI_LATIN1) return 0;
  memcpy(out, boms[enc], 4);
  return lens[enc];
}

/* -f auto without a BOM: utfx_detect_encoding's guess (utfx.h states the
 * rule), UTF-8 when no form fits. Of a stream's first chunk only the part
 * that ends where no character of any form is cut is looked at: a multiple
 * of 4 bytes, not inside a UTF-8 sequence or a UTF-16 surrogate pair. */
static enum cli_enc guess_form(const unsigned char *p, size_t n, int whole) {
  size_t m = whole ? n : n & ~(size_t)3, k;
  if (!whole)
    for (k = m; k >= 4 && k + 16 > m; k -= 4) {
      int hi_le = p[k - 1] >= 0xD8 && p[k - 1] <= 0xDB;
      int hi_be = p[k - 2] >= 0xD8 && p[k - 2] <= 0xDB;
      if (utfx_trim_partial_utf8((const char *)p, k) == k && !hi_le && !hi_be) {
        m = k;
        break;
      }
    }
  switch (utfx_detect_encoding((const char *)p, m)) {
    case UTFX_DETECT_UTF16LE:
      return CLI_UTF16LE;
    case UTFX_DETECT_UTF16BE:
      return CLI_UTF16BE;
    case UTFX_DETECT_UTF32LE:
      return CLI_UTF32LE;
    case UTFX_DETECT_UTF32BE:
      return CLI_UTF32BE;
    default:
      return CLI_UTF8;
  }
}

size_t cli_detect_bom(const struct cli_encoding *want, const unsigned char *p, size_t n,
                      int whole, enum cli_enc *enc) {
  static const enum cli_enc order_detect[] = {CLI_UTF32LE, CLI_UTF32BE, CLI_UTF8, CLI_UTF16LE,
                                              CLI_UTF16BE};
  size_t i;
  *enc = want->enc;
  for (i = 0; i < sizeof order_detect / sizeof order_detect[0]; i++) {
    enum cli_enc cand = order_detect[i];
    unsigned char bom[4];
    size_t len = cli_bom_bytes(cand, bom);
    if (want->generic && cli_unit_size(cand) != cli_unit_size(want->enc)) continue;
    if (!want->detect && !want->generic) continue;
    if (n >= len && memcmp(p, bom, len) == 0) {
      *enc = cand;
      return len;
    }
  }
  if (want->detect == 2) *enc = guess_form(p, n, whole);
  return 0;
}

/* Bytes a UTF-8 lead byte announces; 1 for ASCII, bytes that are never a lead
 * (F8..FF) and continuation bytes. C0, C1 and F5..F7 announce 2 and 4 like
 * their neighbours, so a reader sees "C0 AF" as one bad sequence. */
static size_t utf8_announced(unsigned char b) {
  if (b < 0xC0) return 1;
  if (b < 0xE0) return 2;
  if (b < 0xF0) return 3;
  if (b < 0xF8) return 4;
  return 1;
}

size_t cli_utf8_sequence_length(const unsigned char *p, size_t n) {
  size_t want = utf8_announced(p[0]), len = 1;
  if (p[0] >= 0x80 && p[0] < 0xC0) return 1;
  while (len < want && len < n && (p[len] & 0xC0) == 0x80) len++;
  return len;
}

size_t cli_incomplete_tail(enum cli_enc enc, const unsigned char *p, size_t n) {
  switch (enc) {
    case CLI_UTF8: {
      /* Every byte that is not a continuation byte starts a decoding step, so
       * cutting before the last one is a character boundary of the whole
       * input; keep it when the bytes it announces run past the chunk. */
      size_t i = n, back = 0;
      while (i > 0 && back < 3) {
        i--;
        back++;
        if ((p[i] & 0xC0) != 0x80) return i + utf8_announced(p[i]) > n ? n - i : 0;
      }
      return 0;
    }
    case CLI_UTF16LE:
    case CLI_UTF16BE: {
      /* A high surrogate always starts a step (it never pairs with what comes
       * before it): keep it with the odd byte, if any, for the next chunk. */
      size_t odd = n & 1, m = n - odd;
      if (m >= 2) {
        unsigned hi = enc == CLI_UTF16LE ? p[m - 1] : p[m - 2];
        if ((hi & 0xFC) == 0xD8) return odd + 2;
      }
      return odd;
    }
    case CLI_UTF32LE:
    case CLI_UTF32BE:
      return n & 3;
    case CLI_LATIN1:
      return 0;
  }
  return 0;
}

size_t cli_split_point(enum cli_enc enc, const unsigned char *p, size_t n, size_t at) {
  size_t unit = cli_unit_size(enc), i;
  at -= at % unit;
  if (at >= n) return n;
  switch (enc) {
    case CLI_UTF8:
      /* A byte that is not a continuation byte ends any pending sequence
       * (which becomes one U+FFFD, as it does at the end of a piece) and
       * starts a new step. Back up over at most 3 continuation bytes to one;
       * if there are more, the one at `at` cannot belong to a sequence (a
       * lead byte has at most 3 after it) and is itself a fresh step. */
      for (i = 0; i <= 3 && i <= at; i++)
        if ((p[at - i] & 0xC0) != 0x80) return at - i;
      return at;
    case CLI_UTF16LE:
    case CLI_UTF16BE:
      /* Only a high surrogate followed by a low one must stay together. */
      if (at >= 2 && at + 2 <= n) {
        unsigned prev = enc == CLI_UTF16LE ? p[at - 1] : p[at - 2];
        unsigned next = enc == CLI_UTF16LE ? p[at + 1] : p[at];
        if ((prev & 0xFC) == 0xD8 && (next & 0xFC) == 0xDC) return at + 2;
      }
      return at;
    case CLI_UTF32LE:
    case CLI_UTF32BE:
    case CLI_LATIN1:
      return at;
  }
  return at;
}
