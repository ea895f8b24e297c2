/* Base64 (utfx_base64_*) on every kernel tier, against references written
 * here from the specifications, not from the library:
 *   - TC39 FromBase64 (Uint8Array.fromBase64 / setFromBase64: alphabet,
 *     lastChunkHandling, maxLength), transcribed step by step, and the error
 *     offsets include/utfx.h defines;
 *   - WHATWG forgiving-base64 decode (atob), which loose mode must equal;
 *   - Node's Buffer.from(s, 'base64') as a filter over the characters;
 *   - Node.js itself (node 20: Buffer base64 / base64url both ways, atob,
 *     btoa), one node process for all cases (tests/oracle/base64_oracle.js).
 * Sweeps: hand-made cases of the kinds test262's fromBase64 / setFromBase64 /
 * toBase64 tests cover; random inputs (valid, with whitespace, bad
 * characters, padding and the other alphabet mixed in) at short and SIMD
 * lengths, each tier also against the scalar kernel; a whitespace, bad,
 * '=' or out-of-alphabet character at every offset of 1-3 blocks; every
 * capacity 0..needed+2 with canaries after dst + written; sources against a
 * PROT_NONE page on either side and destinations ending at one. Under
 * UTFX_TEST_EMULATED a deterministic share of each sweep runs. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <spawn.h>
#include <stdint.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "internal.h"
#include "scalar/base64.h"
#include "support/emulated.h"
#include "support/guard.h"
#include "support/slurp.h"
#include "tap.h"

extern char **environ;

#ifndef UTFX_SOURCE_DIR
#define UTFX_SOURCE_DIR "."
#endif

#define MAX_TEXT 4200
#define MAX_BIN (MAX_TEXT / 4 * 3 + 3)

/* ------------------------------------------------------------ references */

static const char std_chars[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
static const char url_chars[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

static int is_space(unsigned c) { return c == 9 || c == 10 || c == 12 || c == 13 || c == 32; }

/* The value of c in the flags' alphabet, or -1. */
static int ref_value(unsigned c, unsigned flags) {
  const char *p;
  int any = (flags & (UTFX_BASE64_ANY_ALPHABET | UTFX_BASE64_NODE)) != 0;
  int url = (flags & UTFX_BASE64_URL) != 0;
  if (c == 0 || c > 127) return -1;
  if ((any || !url) && (p = strchr(std_chars, (int)c)) != NULL) return (int)(p - std_chars);
  if ((any || url) && (p = strchr(url_chars, (int)c)) != NULL) return (int)(p - url_chars);
  return -1;
}

enum { STOP_NONE, STOP_FULL, STOP_PARTIAL };

struct ref_out {
  int error;  /* SyntaxError */
  size_t at;  /* error offset (include/utfx.h's rule) */
  size_t read;
  int stop;   /* why read < n without an error */
  size_t len; /* bytes */
  unsigned char bytes[MAX_BIN];
};

/* DecodeBase64Chunk: 2, 3 or 4 characters to 1, 2 or 3 bytes; with
 * throwOnExtraBits, nonzero unused bits are an error (returns 0). */
static int ref_chunk(const int *ch, size_t k, int throw_extra, struct ref_out *o) {
  uint32_t v = 0;
  size_t j;
  for (j = 0; j < 4; j++) v = v << 6 | (uint32_t)(j < k ? ch[j] : 0);
  if (throw_extra && ((k == 2 && (v & 0xFFFF)) || (k == 3 && (v & 0xFF)))) return 0;
  o->bytes[o->len++] = (unsigned char)(v >> 16);
  if (k > 2) o->bytes[o->len++] = (unsigned char)(v >> 8);
  if (k > 3) o->bytes[o->len++] = (unsigned char)v;
  return 1;
}

static void ref_fail(struct ref_out *o, size_t at) {
  o->error = 1;
  o->at = at;
}

/* TC39 FromBase64(string, alphabet, lastChunkHandling, maxLength), in the
 * spec's order of steps; text as 16-bit units. */
static void ref_tc39(const uint16_t *s, size_t n, unsigned flags, size_t max, struct ref_out *o) {
  int strict = (flags & UTFX_BASE64_STRICT) != 0;
  int stop_partial = !strict && (flags & UTFX_BASE64_STOP_BEFORE_PARTIAL);
  int chunk[4];
  size_t k = 0, index = 0;
  memset(o, 0, sizeof *o);
  if (max == 0) {
    o->stop = n ? STOP_FULL : STOP_NONE;
    return;
  }
  for (;;) {
    unsigned c;
    int v;
    while (index < n && is_space(s[index])) index++;
    if (index == n) {
      if (k > 0) {
        if (stop_partial) {
          o->stop = STOP_PARTIAL;
          return;
        }
        if (k == 1 || strict) return ref_fail(o, n);
        ref_chunk(chunk, k, 0, o);
      }
      o->read = n;
      return;
    }
    c = s[index++];
    if (c == '=') {
      size_t pad_at = index - 1;
      if (k < 2) return ref_fail(o, pad_at);
      while (index < n && is_space(s[index])) index++;
      if (k == 2) {
        if (index == n) {
          if (stop_partial) {
            o->stop = STOP_PARTIAL;
            return;
          }
          return ref_fail(o, n);
        }
        if (s[index] == '=') {
          index++;
          while (index < n && is_space(s[index])) index++;
        }
      }
      if (index < n) return ref_fail(o, index);
      if (!ref_chunk(chunk, k, strict, o)) return ref_fail(o, pad_at);
      o->read = n;
      return;
    }
    v = ref_value(c, flags & (UTFX_BASE64_URL | UTFX_BASE64_ANY_ALPHABET));
    if (v < 0) return ref_fail(o, index - 1);
    if ((max - o->len == 1 && k == 2) || (max - o->len == 2 && k == 3)) {
      o->stop = STOP_FULL;
      return;
    }
    chunk[k++] = v;
    if (k == 4) {
      ref_chunk(chunk, 4, 0, o);
      k = 0;
      o->read = index;
      if (o->len == max) {
        o->stop = index < n ? STOP_FULL : STOP_NONE;
        return;
      }
    }
  }
}

/* WHATWG forgiving-base64 decode: 1 and the bytes, or 0 for failure. */
static int ref_forgiving(const uint16_t *s, size_t n, unsigned char *out, size_t *len) {
  static uint16_t d[MAX_TEXT];
  size_t m = 0, i;
  uint32_t buf = 0, bits = 0;
  for (i = 0; i < n; i++)
    if (!is_space(s[i])) d[m++] = s[i];
  if (m % 4 == 0 && m >= 1 && d[m - 1] == '=') m -= (m >= 2 && d[m - 2] == '=') ? 2 : 1;
  if (m % 4 == 1) return 0;
  *len = 0;
  for (i = 0; i < m; i++) {
    int v = ref_value(d[i], 0);
    if (v < 0) return 0;
    buf = buf << 6 | (uint32_t)v;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[(*len)++] = (unsigned char)(buf >> bits);
      buf &= (1u << bits) - 1;
    }
  }
  return 1;
}

/* Node's Buffer.from(s, 'base64'): the alphabet characters (either alphabet;
 * of a UTF-16 unit only its low byte) before the first '='. Bounded by max:
 * whole groups that fit; read = after the last one. */
static void ref_node(const uint16_t *s, size_t n, size_t max, struct ref_out *o) {
  int group[4];
  size_t k = 0, i;
  memset(o, 0, sizeof *o);
  for (i = 0; i < n; i++) {
    unsigned c = s[i] & 0xFF;
    int v;
    if (c == '=') break;
    if ((v = ref_value(c, UTFX_BASE64_NODE)) < 0) continue;
    group[k++] = v;
    if (k == 4) {
      if (max - o->len < 3) {
        o->stop = STOP_FULL;
        return;
      }
      ref_chunk(group, 4, 0, o);
      k = 0;
      o->read = i + 1;
    }
  }
  if (k >= 2) {
    if (max - o->len < k - 1) {
      o->stop = STOP_FULL;
      return;
    }
    ref_chunk(group, k, 0, o);
  }
  o->read = n;
}

/* What utfx_base64_decode returns, from the references. */
static utfx_result ref_decode(const uint16_t *s, size_t n, unsigned flags, size_t cap,
                              struct ref_out *o) {
  utfx_result r = {UTFX_OK, 0, 0, 0};
  size_t i;
  if (flags & UTFX_BASE64_NODE)
    ref_node(s, n, cap, o);
  else
    ref_tc39(s, n, flags, cap, o);
  r.written = o->len;
  if (o->error) {
    r.status = UTFX_INVALID;
    r.read = o->at;
    /* TC39 writes the whole chunks before the error (setFromBase64). */
    r.written = o->len;
    return r;
  }
  r.read = o->read;
  if (o->stop == STOP_FULL) {
    for (i = o->read; i < n && is_space(s[i]); i++) continue;
    if (i == n)
      r.read = n;
    else
      r.status = UTFX_DST_FULL;
  }
  return r;
}

static size_t ref_encode(const unsigned char *b, size_t n, unsigned flags, char *out) {
  const char *abc = (flags & UTFX_BASE64_URL) ? url_chars : std_chars;
  size_t i, w = 0;
  for (i = 0; i + 3 <= n; i += 3) {
    uint32_t v = (uint32_t)b[i] << 16 | (uint32_t)b[i + 1] << 8 | b[i + 2];
    out[w++] = abc[v >> 18];
    out[w++] = abc[v >> 12 & 63];
    out[w++] = abc[v >> 6 & 63];
    out[w++] = abc[v & 63];
  }
  if (n - i) {
    uint32_t v = (uint32_t)b[i] << 16 | (n - i > 1 ? (uint32_t)b[i + 1] << 8 : 0);
    out[w++] = abc[v >> 18];
    out[w++] = abc[v >> 12 & 63];
    if (n - i > 1) out[w++] = abc[v >> 6 & 63];
    if (!(flags & UTFX_BASE64_NO_PADDING))
      while (w % 4) out[w++] = '=';
  }
  return w;
}

/* ------------------------------------------------------------ checking */

static const unsigned decode_modes[] = {
    0,
    UTFX_BASE64_STRICT,
    UTFX_BASE64_STOP_BEFORE_PARTIAL,
    UTFX_BASE64_URL,
    UTFX_BASE64_URL | UTFX_BASE64_STRICT,
    UTFX_BASE64_ANY_ALPHABET | UTFX_BASE64_STOP_BEFORE_PARTIAL,
    UTFX_BASE64_NODE,
};
#define N_DECODE_MODES (sizeof decode_modes / sizeof decode_modes[0])

static int same_result(utfx_result a, utfx_result b) {
  return a.status == b.status && a.read == b.read && a.written == b.written;
}

#define CANARY 0xA5

static unsigned long decode_checks;

/* Decodes s (units, also as bytes when all are <= 0xFF) with flags and cap
 * into a canaried buffer, through the public functions and the scalar
 * kernel, and compares all with the reference. */
static void check_decode(const uint16_t *s, size_t n, unsigned flags, size_t cap) {
  static unsigned char got[MAX_BIN + 64];
  static char bytes[MAX_TEXT];
  static struct ref_out o;
  utfx_result want = ref_decode(s, n, flags, cap, &o), r;
  size_t i, len;
  int narrow = 1;
  decode_checks++;
  for (i = 0; i < n; i++) {
    if (s[i] > 0xFF) narrow = 0;
    bytes[i] = (char)s[i];
  }
  for (int form = 0; form < 2 + narrow * 2; form++) {
    memset(got, CANARY, cap + 64);
    switch (form) {
      case 0: r = utfx_base64_decode_utf16((const char16_t *)s, n, got, cap, flags); break;
      case 1: r = utfxi_base64_decode_utf16_scalar((const char16_t *)s, n, got, cap, flags); break;
      case 2: r = utfx_base64_decode(bytes, n, got, cap, flags); break;
      default: r = utfxi_base64_decode_scalar(bytes, n, got, cap, flags); break;
    }
    CHECK(same_result(r, want), "decode form %d flags %#x n %zu cap %zu: %d/%zu/%zu, want %d/%zu/%zu",
          form, flags, n, cap, r.status, r.read, r.written, want.status, want.read, want.written);
    CHECK(memcmp(got, o.bytes, r.written < want.written ? r.written : want.written) == 0,
          "decode form %d flags %#x n %zu cap %zu: bytes differ", form, flags, n, cap);
    for (i = r.written; i < cap + 64; i++)
      if (got[i] != CANARY) break;
    CHECK(i == cap + 64, "decode form %d flags %#x n %zu cap %zu: wrote at %zu after written %zu",
          form, flags, n, cap, i, r.written);
  }
  /* The length function is what an unbounded decode writes. */
  if (cap >= MAX_BIN) {
    len = utfx_binary_length_from_base64_utf16((const char16_t *)s, n, flags);
    CHECK(len == want.written, "length_utf16 flags %#x n %zu: %zu, want %zu", flags, n, len,
          want.written);
    if (narrow) {
      len = utfx_binary_length_from_base64(bytes, n, flags);
      CHECK(len == want.written, "length flags %#x n %zu: %zu, want %zu", flags, n, len,
            want.written);
    }
    CHECK(want.written <= UTFX_BINARY_MAX_FROM_BASE64(n), "max bound n %zu", n);
  }
}

static void check_decode_all_modes(const uint16_t *s, size_t n) {
  size_t m;
  for (m = 0; m < N_DECODE_MODES; m++) check_decode(s, n, decode_modes[m], MAX_BIN);
}

static void check_encode(const unsigned char *b, size_t n, unsigned flags, size_t cap) {
  static char got[MAX_TEXT + 64], want[MAX_TEXT];
  size_t full = ref_encode(b, n, flags, want), i, groups, last_out;
  utfx_result r, e;
  memset(got, CANARY, cap + 64);
  r = utfx_base64_encode(b, n, got, cap, flags);
  /* Whole groups that fit, the final partial one counting as a group. */
  groups = cap / 4 < n / 3 ? cap / 4 : n / 3;
  e.status = UTFX_OK;
  e.read = groups * 3;
  e.written = groups * 4;
  last_out = full - groups * 4;
  if (groups < n / 3) {
    e.status = UTFX_DST_FULL;
  } else if (n % 3) {
    if (cap - e.written >= last_out) {
      e.read = n;
      e.written = full;
    } else {
      e.status = UTFX_DST_FULL;
    }
  } else {
    e.read = n;
  }
  CHECK(same_result(r, e), "encode flags %#x n %zu cap %zu: %d/%zu/%zu want %d/%zu/%zu", flags, n,
        cap, r.status, r.read, r.written, e.status, e.read, e.written);
  CHECK(memcmp(got, want, r.written < full ? r.written : full) == 0,
        "encode flags %#x n %zu cap %zu: text differs", flags, n, cap);
  for (i = r.written; i < cap + 64; i++)
    if ((unsigned char)got[i] != CANARY) break;
  CHECK(i == cap + 64, "encode flags %#x n %zu cap %zu: wrote after written", flags, n, cap);
  CHECK(utfx_base64_length_from_binary(n, flags) == full, "encode length n %zu", n);
  r = utfxi_base64_encode_scalar(b, n, got, cap, flags);
  CHECK(same_result(r, e), "scalar encode flags %#x n %zu cap %zu", flags, n, cap);
}

static size_t widen(const char *s, uint16_t *u) {
  size_t n = strlen(s), i;
  for (i = 0; i < n; i++) u[i] = (unsigned char)s[i];
  return n;
}

/* ------------------------------------------------------------ hand-made cases */

struct known {
  const char *text;
  unsigned flags;
  size_t cap;
  utfx_status status;
  size_t read, written;
  const char *hex; /* the bytes written */
};

#define BIG 1000
/* Of the kinds test262 checks (alphabet, padding, whitespace, illegal and
 * late characters, last chunk handling, target sizes), written for utfx's
 * results, including the error offsets. */
static const struct known known_cases[] = {
    {"", 0, BIG, UTFX_OK, 0, 0, ""},
    {"Zm9v", 0, BIG, UTFX_OK, 4, 3, "666f6f"},
    {"Zm9vYg", 0, BIG, UTFX_OK, 6, 4, "666f6f62"},
    {"Zm9vYg==", 0, BIG, UTFX_OK, 8, 4, "666f6f62"},
    {"Zm9vYmE", 0, BIG, UTFX_OK, 7, 5, "666f6f6261"},
    {"Zm9vYmE=", UTFX_BASE64_STRICT, BIG, UTFX_OK, 8, 5, "666f6f6261"},
    {" Z m\t9\nv\fY\rg = = ", 0, BIG, UTFX_OK, 17, 4, "666f6f62"},
    {"Zm9vYg", UTFX_BASE64_STRICT, BIG, UTFX_INVALID, 6, 3, "666f6f"},
    {"Zm9vYh==", UTFX_BASE64_STRICT, BIG, UTFX_INVALID, 6, 3, "666f6f"},
    {"Zm9vYh==", 0, BIG, UTFX_OK, 8, 4, "666f6f62"},
    {"Zm9vYmF=", UTFX_BASE64_STRICT, BIG, UTFX_INVALID, 7, 3, "666f6f"},
    {"Zm9vYg", UTFX_BASE64_STOP_BEFORE_PARTIAL, BIG, UTFX_OK, 4, 3, "666f6f"},
    {"Zm9vYg=", UTFX_BASE64_STOP_BEFORE_PARTIAL, BIG, UTFX_OK, 4, 3, "666f6f"},
    {"Zm9vYg==", UTFX_BASE64_STOP_BEFORE_PARTIAL, BIG, UTFX_OK, 8, 4, "666f6f62"},
    {"Zm9vY", UTFX_BASE64_STOP_BEFORE_PARTIAL, BIG, UTFX_OK, 4, 3, "666f6f"},
    {"Zm9vY", 0, BIG, UTFX_INVALID, 5, 3, "666f6f"},
    {"Zm9vYg=", 0, BIG, UTFX_INVALID, 7, 3, "666f6f"},
    {"Zm9vYg=A", 0, BIG, UTFX_INVALID, 7, 3, "666f6f"},
    {"Zm9v=", 0, BIG, UTFX_INVALID, 4, 3, "666f6f"},
    {"Zm9vY=", 0, BIG, UTFX_INVALID, 5, 3, "666f6f"},
    {"Zm9vYmE==", 0, BIG, UTFX_INVALID, 8, 3, "666f6f"},
    {"Zm9vYg==Zm9v", 0, BIG, UTFX_INVALID, 8, 3, "666f6f"},
    {"Zm9vYg== =", 0, BIG, UTFX_INVALID, 9, 3, "666f6f"},
    {"Zm9v*Zm9v", 0, BIG, UTFX_INVALID, 4, 3, "666f6f"},
    {"Zm*9v", 0, BIG, UTFX_INVALID, 2, 0, ""},
    {"-_-_", 0, BIG, UTFX_INVALID, 0, 0, ""},
    {"+/+/", UTFX_BASE64_URL, BIG, UTFX_INVALID, 0, 0, ""},
    {"-_-_", UTFX_BASE64_URL, BIG, UTFX_OK, 4, 3, "fbffbf"},
    {"+/-_", UTFX_BASE64_ANY_ALPHABET, BIG, UTFX_OK, 4, 3, "fbffbf"},
    /* setFromBase64 into small targets */
    {"Zm9vYmFy", 0, 0, UTFX_DST_FULL, 0, 0, ""},
    {"   ", 0, 0, UTFX_OK, 3, 0, ""},
    {"Zm9vYmFy", 0, 4, UTFX_DST_FULL, 4, 3, "666f6f"},
    {"Zm9vYmFy", 0, 3, UTFX_DST_FULL, 4, 3, "666f6f"},
    {"Zm9v  ", 0, 3, UTFX_OK, 6, 3, "666f6f"},
    {"Zm9vYmE=", 0, 4, UTFX_DST_FULL, 4, 3, "666f6f"},
    {"Zm9vYmE", 0, 4, UTFX_DST_FULL, 4, 3, "666f6f"},
    {"Zm9vYg==", 0, 4, UTFX_OK, 8, 4, "666f6f62"},
    {"Zm9vYmE=", 0, 5, UTFX_OK, 8, 5, "666f6f6261"},
    {"Zm9v*", 0, 3, UTFX_DST_FULL, 4, 3, "666f6f"},
    {"Zm9vYmE", 0, 5, UTFX_OK, 7, 5, "666f6f6261"},
    {"Zm9vYmE", UTFX_BASE64_STOP_BEFORE_PARTIAL, 5, UTFX_OK, 4, 3, "666f6f"},
    {"Zm9vYmE=", UTFX_BASE64_STOP_BEFORE_PARTIAL, 5, UTFX_OK, 8, 5, "666f6f6261"},
    {"Zm9vYmFy", 0, 7, UTFX_OK, 8, 6, "666f6f626172"},
    /* errors after whole groups: those are written */
    {"Zm9vYg===", 0, BIG, UTFX_INVALID, 8, 3, "666f6f"},
    {"Zm9v\vYmFy", 0, BIG, UTFX_INVALID, 4, 3, "666f6f"},
    {"Zm9vYmF\x80", 0, BIG, UTFX_INVALID, 7, 3, "666f6f"},
    {"Zm9vYmFy*", 0, 3, UTFX_DST_FULL, 4, 3, "666f6f"},
    /* Node's Buffer rules */
    {"Zm9v*Ym!Fy", UTFX_BASE64_NODE, BIG, UTFX_OK, 10, 6, "666f6f626172"},
    {"Zm9vYg=Zm9v", UTFX_BASE64_NODE, BIG, UTFX_OK, 11, 4, "666f6f62"},
    {"Zm9vY", UTFX_BASE64_NODE, BIG, UTFX_OK, 5, 3, "666f6f"},
    {"=Zm9v", UTFX_BASE64_NODE, BIG, UTFX_OK, 5, 0, ""},
    {"-_+/", UTFX_BASE64_NODE, BIG, UTFX_OK, 4, 3, "fbffbf"},
    {"Zm9vYmFy", UTFX_BASE64_NODE, 5, UTFX_DST_FULL, 4, 3, "666f6f"},
};

static void hex_of(const unsigned char *b, size_t n, char *out) {
  size_t i;
  for (i = 0; i < n; i++) sprintf(out + 2 * i, "%02x", b[i]);
  out[2 * n] = '\0';
}

static void test_known(void) {
  static uint16_t u[64];
  unsigned char got[BIG];
  char hex[2 * BIG + 1];
  size_t k;
  for (k = 0; k < sizeof known_cases / sizeof known_cases[0]; k++) {
    const struct known *c = &known_cases[k];
    size_t n = widen(c->text, u);
    utfx_result r = utfx_base64_decode(c->text, n, got, c->cap, c->flags);
    CHECK(r.status == c->status && r.read == c->read && r.written == c->written,
          "\"%s\" flags %#x cap %zu: %d/%zu/%zu, want %d/%zu/%zu", c->text, c->flags, c->cap,
          r.status, r.read, r.written, c->status, c->read, c->written);
    hex_of(got, r.written, hex);
    CHECK(strcmp(hex, c->hex) == 0, "\"%s\": bytes %s, want %s", c->text, hex, c->hex);
    check_decode(u, n, c->flags, c->cap); /* the reference agrees */
  }
  /* Modes given together: NODE wins, then STRICT (include/utfx.h). */
  {
    static const char *const texts[] = {"Zm9vYg", "Zm9vYh==", "Zm9v*Yg=", "Zm9vYg=", "Zm9"};
    unsigned char other[16];
    for (k = 0; k < sizeof texts / sizeof texts[0]; k++) {
      size_t n = strlen(texts[k]);
      utfx_result a = utfx_base64_decode(texts[k], n, got, 16, UTFX_BASE64_NODE);
      utfx_result b = utfx_base64_decode(texts[k], n, other, 16,
                                         UTFX_BASE64_NODE | UTFX_BASE64_STRICT |
                                             UTFX_BASE64_STOP_BEFORE_PARTIAL);
      CHECK(same_result(a, b) && memcmp(got, other, a.written) == 0, "NODE wins: %s", texts[k]);
      a = utfx_base64_decode(texts[k], n, got, 16, UTFX_BASE64_STRICT);
      b = utfx_base64_decode(texts[k], n, other, 16,
                             UTFX_BASE64_STRICT | UTFX_BASE64_STOP_BEFORE_PARTIAL);
      CHECK(same_result(a, b) && memcmp(got, other, a.written) == 0, "STRICT wins: %s", texts[k]);
    }
  }
  /* No-break space and other Unicode spaces are not whitespace here. */
  {
    const uint16_t t[] = {'Z', 'm', 0xA0, '9', 'v'};
    utfx_result r = utfx_base64_decode_utf16((const char16_t *)t, 5, got, BIG, 0);
    CHECK(r.status == UTFX_INVALID && r.read == 2, "U+00A0: %d/%zu", r.status, r.read);
  }
  /* Units above 0xFF: bad characters, except that Node reads the low byte. */
  {
    const uint16_t t[] = {'Z', 'm', 0x139, 'v', 0x4100};
    utfx_result r = utfx_base64_decode_utf16((const char16_t *)t, 5, got, BIG, 0);
    CHECK(r.status == UTFX_INVALID && r.read == 2, "unit above 0xFF: %d/%zu", r.status, r.read);
    r = utfx_base64_decode_utf16((const char16_t *)t, 5, got, BIG, UTFX_BASE64_NODE);
    hex_of(got, r.written, hex);
    CHECK(r.status == UTFX_OK && strcmp(hex, "666f6f") == 0, "node low bytes: %s", hex);
    check_decode(t, 5, 0, BIG);
    check_decode(t, 5, UTFX_BASE64_NODE, BIG);
  }
  /* toBase64 */
  {
    static const struct {
      const char *bin;
      unsigned flags;
      const char *text;
    } enc[] = {
        {"", 0, ""},           {"f", 0, "Zg=="},     {"fo", 0, "Zm8="},
        {"foo", 0, "Zm9v"},    {"foob", 0, "Zm9vYg=="}, {"f", UTFX_BASE64_NO_PADDING, "Zg"},
        {"fo", UTFX_BASE64_NO_PADDING, "Zm8"}, {"\xfb\xff\xbf", 0, "+/+/"},
        {"\xfb\xff\xbf", UTFX_BASE64_URL, "-_-_"},
        {"\xfb\xff", UTFX_BASE64_URL | UTFX_BASE64_NO_PADDING, "-_8"},
    };
    char out[16];
    for (k = 0; k < sizeof enc / sizeof enc[0]; k++) {
      size_t n = strlen(enc[k].bin), cap;
      utfx_result r = utfx_base64_encode((const unsigned char *)enc[k].bin, n, out, sizeof out,
                                         enc[k].flags);
      CHECK(r.status == UTFX_OK && r.written == strlen(enc[k].text) &&
                memcmp(out, enc[k].text, r.written) == 0,
            "toBase64 case %zu", k);
      for (cap = 0; cap <= 10; cap++)
        check_encode((const unsigned char *)enc[k].bin, n, enc[k].flags, cap);
    }
  }
  tap_group("base64: hand-made cases (test262's kinds)");
}

/* ------------------------------------------------------------ random inputs */

static test_rng rng;

static const uint16_t odd_units[] = {' ', '\t', '\n', '\r', '\f', '=', '-', '_', '+', '/', '*',
                                     0,   0x0B, 0x80, 0xFF, 0x100, 0x141, 0xFF3D, '.', 'A',
                                     0xC2, 0xA0, 0x8A};
#define N_ODD (sizeof odd_units / sizeof odd_units[0])

/* Base64 of random bytes (either alphabet, padded or not), then a few
 * mutations: odd units inserted or overwritten, a tail cut. */
static size_t gen_text(uint16_t *u, size_t max_bin, unsigned mutations) {
  static unsigned char bin[MAX_BIN];
  static char text[MAX_TEXT];
  size_t nb = (size_t)rng_below(&rng, max_bin + 1), n, i, m;
  unsigned flags = (unsigned)rng_below(&rng, 2) * UTFX_BASE64_URL |
                   (unsigned)rng_below(&rng, 2) * UTFX_BASE64_NO_PADDING;
  for (i = 0; i < nb; i++) bin[i] = (unsigned char)rng_next(&rng);
  n = ref_encode(bin, nb, flags, text);
  for (i = 0; i < n; i++) u[i] = (unsigned char)text[i];
  for (m = 0; m < mutations && n + 1 < MAX_TEXT; m++) {
    size_t at = (size_t)rng_below(&rng, n + 1);
    uint16_t c = odd_units[rng_below(&rng, N_ODD)];
    if (rng_below(&rng, 2) && at < n) {
      u[at] = c;
    } else {
      memmove(u + at + 1, u + at, (n - at) * 2);
      u[at] = c;
      n++;
    }
  }
  if (rng_below(&rng, 8) == 0 && n) n -= (size_t)rng_below(&rng, n < 4 ? n + 1 : 4);
  return n;
}

static void test_random(void) {
  static uint16_t u[MAX_TEXT];
  size_t k, count = 3000 / test_share(8);
  rng_seed(&rng, 0xB64);
  for (k = 0; k < count; k++) {
    size_t n = gen_text(u, k % 3 ? 60 : 400, (unsigned)rng_below(&rng, 4) * (k % 2));
    check_decode_all_modes(u, n);
  }
  for (k = 0; k < 40 / test_share(4); k++) {
    size_t n = gen_text(u, 3000, (unsigned)(k % 3));
    check_decode_all_modes(u, n);
  }
  /* Sparse text: runs of 0..150 whitespace between the characters, so that
   * blocks hold fewer than a group or none at all. */
  for (k = 0; k < 300 / test_share(4); k++) {
    static uint16_t sparse[MAX_TEXT];
    size_t n = gen_text(u, 12, 0), m = 0, i, run;
    for (i = 0; i < n && m + 160 < MAX_TEXT; i++) {
      for (run = (size_t)rng_below(&rng, k % 2 ? 150 : 20); run; run--)
        sparse[m++] = k % 3 ? '\t' : '\n';
      sparse[m++] = u[i];
    }
    check_decode_all_modes(sparse, m);
  }
  tap_group("base64: random inputs, every decode mode, against the references");
}

/* Lines of one length and one separator, as MIME, PEM and coreutils write
 * them (the avx512 tier decodes such lines straight from the text and falls
 * back at the first change): whole, with a shorter first line (a resume in
 * the middle of a line), and with one change (a unit replaced or inserted, a
 * separator unit replaced or dropped), in every mode, some at every capacity. */
static void test_fixed_lines(void) {
  static uint16_t u[MAX_TEXT];
  static unsigned char bin[MAX_BIN];
  static char text[MAX_TEXT];
  static const size_t lens[] = {4, 60, 63, 64, 68, 72, 76, 80, 84, 100, 124, 127, 128, 132};
  static const char *const seps[] = {"\r\n", "\n", " ", "\n\n", "\t\r\n"};
  const size_t nl = sizeof lens / sizeof lens[0], ns = sizeof seps / sizeof seps[0];
  size_t k, i, cap;
  rng_seed(&rng, 0x11E5);
  for (k = 0; k < 1400 / test_share(4); k++) {
    const size_t L = lens[k % nl];
    const char *sep = seps[(k / nl) % ns];
    const size_t S = strlen(sep);
    const unsigned flags = (k & 1 ? UTFX_BASE64_URL : 0) | (k & 2 ? UTFX_BASE64_NO_PADDING : 0);
    size_t nb = (size_t)rng_below(&rng, 3000 * L / (L + 3) + 1), n, m = 0, col = 0, line;
    for (i = 0; i < nb; i++) bin[i] = (unsigned char)rng_next(&rng);
    n = ref_encode(bin, nb, flags, text);
    line = k % 3 == 0 ? (size_t)rng_below(&rng, L) + 1 : L;
    for (i = 0; i < n; i++) {
      u[m++] = (unsigned char)text[i];
      if (++col == line && (i + 1 < n || k % 5 == 0)) {
        for (size_t j = 0; j < S; j++) u[m++] = (unsigned char)sep[j];
        col = 0;
        line = L;
      }
    }
    if (k % 2 && m > 0) { /* one change */
      size_t at = (size_t)rng_below(&rng, m);
      switch (rng_below(&rng, 4)) {
        case 0: u[at] = odd_units[rng_below(&rng, N_ODD)]; break;
        case 1: /* the first or the second unit of a separator */
          while (at < m && !is_space(u[at])) at++;
          if (at + 1 < m && is_space(u[at + 1]) && rng_below(&rng, 2)) at++;
          if (at < m) u[at] = odd_units[rng_below(&rng, N_ODD)];
          break;
        case 2:
          memmove(u + at + 1, u + at, (m - at) * 2);
          u[at] = odd_units[rng_below(&rng, N_ODD)];
          m++;
          break;
        default:
          while (at < m && !is_space(u[at])) at++;
          if (at < m) memmove(u + at, u + at + 1, (m - at - 1) * 2), m--;
      }
    }
    check_decode_all_modes(u, m);
    if (k % 50 == 0 && nb < 400) {
      for (cap = 0; cap <= nb + 2; cap++) check_decode(u, m, decode_modes[k % N_DECODE_MODES], cap);
    } else {
      for (i = 0; i < 4; i++)
        check_decode(u, m, decode_modes[(k + i) % N_DECODE_MODES], (size_t)rng_below(&rng, nb + 3));
    }
  }
  tap_group("base64: lines of one length and separator, whole and with one change, capacities");
}

/* Forgiving-base64 (atob) = loose mode with the standard alphabet. */
static void test_forgiving(void) {
  static uint16_t u[MAX_TEXT];
  static unsigned char want[MAX_BIN], got[MAX_BIN];
  size_t k, len = 0;
  rng_seed(&rng, 0xA70B);
  for (k = 0; k < 4000 / test_share(8); k++) {
    size_t n = gen_text(u, k % 2 ? 20 : 200, (unsigned)rng_below(&rng, 3));
    int ok = ref_forgiving(u, n, want, &len);
    utfx_result r = utfx_base64_decode_utf16((const char16_t *)u, n, got, MAX_BIN, 0);
    CHECK(ok == (r.status == UTFX_OK), "forgiving n %zu: %d vs status %d", n, ok, r.status);
    if (ok && r.status == UTFX_OK)
      CHECK(len == r.written && memcmp(got, want, len) == 0, "forgiving n %zu: bytes", n);
  }
  tap_group("base64: loose mode is WHATWG forgiving-base64 decode");
}

/* A whitespace, bad, '=' or other-alphabet character at every offset of
 * text 1-3 SIMD blocks long, in every mode. */
static void test_every_offset(void) {
  static uint16_t base[260], u[264];
  static unsigned char bin[200];
  static char text[270];
  /* (0xC2, 0xA0, 0x8A: 'B', ' ' and LF with the top bit set) */
  static const uint16_t put[] = {' ', '\n', '=', '*', '-', '+', 0x100, 0xC1, 0xC2, 0xA0, 0x8A};
  size_t lens[] = {64, 96, 192, 256}, li, at, p, i;
  rng_seed(&rng, 0x0FF5);
  for (li = 0; li < sizeof lens / sizeof lens[0]; li++) {
    size_t n = lens[li];
    for (i = 0; i < n / 4 * 3; i++) bin[i] = (unsigned char)rng_next(&rng);
    ref_encode(bin, n / 4 * 3, 0, text);
    for (i = 0; i < n; i++) base[i] = (unsigned char)text[i];
    for (at = 0; at <= n; at++) {
      if (!test_keep(at, 8)) continue;
      for (p = 0; p < sizeof put / sizeof put[0]; p++) {
        memcpy(u, base, at * 2);
        u[at] = put[p];
        memcpy(u + at + 1, base + at, (n - at) * 2);
        check_decode_all_modes(u, n + 1); /* inserted */
        if (at < n) {
          memcpy(u, base, n * 2);
          u[at] = put[p];
          check_decode_all_modes(u, n); /* replaced */
        }
      }
    }
  }
  tap_group("base64: whitespace, bad characters and padding at every offset of 1-4 blocks");
}

/* Clean runs of blocks (avx512: runs of eight, then of four, then single
 * blocks, each run checked before it is stored): texts of 8-24 blocks and a
 * few groups more, clean, with one whitespace, bad character or unit above
 * 0xFF in each block in turn, and capacities that end the runs at every
 * block (every capacity near a block's bytes). */
static void test_runs(void) {
  static uint16_t u[MAX_TEXT];
  static unsigned char bin[MAX_BIN];
  static char text[MAX_TEXT];
  static const uint16_t put[] = {' ', '*', 0x80 | 'B', 0x100, '\n', '='};
  size_t nb, blk, i, cap;
  rng_seed(&rng, 0x8B10C);
  for (nb = 8; nb <= 24; nb++) {
    size_t n = 64 * nb + 4 * (nb % 5), bytes = n / 4 * 3;
    for (i = 0; i < bytes; i++) bin[i] = (unsigned char)rng_next(&rng);
    ref_encode(bin, bytes, 0, text);
    for (i = 0; i < n; i++) u[i] = (unsigned char)text[i];
    check_decode_all_modes(u, n);
    for (blk = 0; blk < nb; blk++) {
      size_t at = 64 * blk + (size_t)rng_below(&rng, 64);
      uint16_t was = u[at];
      u[at] = put[(blk + nb) % (sizeof put / sizeof put[0])];
      check_decode_all_modes(u, n);
      u[at] = was;
    }
    for (cap = 0; cap <= bytes + 2; cap += cap % 48 < 4 || cap % 48 > 44 ? 1 : 5)
      if (test_keep(cap, 2)) check_decode(u, n, 0, cap);
  }
  tap_group("base64: clean runs of 8 and 4 blocks, one odd unit in each block, capacities");
}

/* Every capacity 0..needed+2, decode and encode, with canaries. */
static void test_caps(void) {
  static uint16_t u[MAX_TEXT];
  static unsigned char bin[600];
  size_t k, cap, m;
  rng_seed(&rng, 0xCA95);
  for (k = 0; k < 300 / test_share(8); k++) {
    size_t n = gen_text(u, k < 200 ? 40 : 150, (unsigned)rng_below(&rng, 3));
    for (m = 0; m < N_DECODE_MODES; m++) {
      size_t need = utfx_binary_length_from_base64_utf16((const char16_t *)u, n, decode_modes[m]);
      for (cap = 0; cap <= need + 2; cap++) check_decode(u, n, decode_modes[m], cap);
    }
  }
  for (k = 0; k < 200 / test_share(8); k++) {
    size_t n = (size_t)rng_below(&rng, k < 150 ? 60 : 200), i;
    unsigned flags = (unsigned)(k % 4) * UTFX_BASE64_URL;
    flags = (k & 1 ? UTFX_BASE64_URL : 0) | (k & 2 ? UTFX_BASE64_NO_PADDING : 0);
    for (i = 0; i < n; i++) bin[i] = (unsigned char)rng_next(&rng);
    for (cap = 0; cap <= utfx_base64_length_from_binary(n, flags) + 2; cap++)
      check_encode(bin, n, flags, cap);
  }
  tap_group("base64: every capacity 0..needed+2, canaries after dst + written");
}

/* Encoding random bytes at SIMD lengths, and the round trip. */
static void test_encode_random(void) {
  static unsigned char bin[MAX_BIN], back[MAX_BIN];
  static char text[MAX_TEXT];
  size_t k, i;
  rng_seed(&rng, 0xE7C0);
  for (k = 0; k < 600 / test_share(8); k++) {
    size_t n = (size_t)rng_below(&rng, k % 4 ? 200 : 3000);
    unsigned flags = (k & 1 ? UTFX_BASE64_URL : 0) | (k & 2 ? UTFX_BASE64_NO_PADDING : 0);
    utfx_result r;
    for (i = 0; i < n; i++) bin[i] = (unsigned char)rng_next(&rng);
    check_encode(bin, n, flags, MAX_TEXT);
    r = utfx_base64_encode(bin, n, text, MAX_TEXT, flags);
    r = utfx_base64_decode(text, r.written, back, MAX_BIN,
                           (flags & UTFX_BASE64_URL) | (flags & UTFX_BASE64_NO_PADDING ? 0 : UTFX_BASE64_STRICT));
    CHECK(r.status == UTFX_OK && r.written == n && memcmp(back, bin, n) == 0, "round trip n %zu", n);
    if (k % 8 == 0 && n < 1500) { /* MIME lines: 76 characters and CR LF */
      static uint16_t wrapped[MAX_TEXT];
      size_t len = utfx_base64_length_from_binary(n, flags), m = 0;
      for (i = 0; i < len; i++) {
        wrapped[m++] = (unsigned char)text[i];
        if (i % 76 == 75) wrapped[m++] = '\r', wrapped[m++] = '\n';
      }
      check_decode_all_modes(wrapped, m);
    }
  }
  tap_group("base64: encode at SIMD lengths, round trips, MIME lines");
}

/* Sources against a PROT_NONE page on either side, destinations ending at
 * one (exactly the written size). */
static void test_guard(void) {
  static uint16_t u[MAX_TEXT];
  static struct ref_out o;
  size_t k, m;
  rng_seed(&rng, 0x6A4D);
  for (k = 0; k < 200 / test_share(4); k++) {
    size_t n = gen_text(u, k % 2 ? 50 : 700, (unsigned)(k % 3)), i;
    for (m = 0; m < N_DECODE_MODES; m++) {
      unsigned flags = decode_modes[m];
      size_t need = ref_decode(u, n, flags, MAX_BIN, &o).written;
      /* With exactly that room, a decode stops when dst is full. */
      utfx_result want = ref_decode(u, n, flags, need, &o), r;
      char *front = guard_alloc_front(n), *end = guard_alloc(n);
      char16_t *end16 = guard_alloc(2 * n);
      unsigned char *dst = guard_alloc(need);
      int narrow = 1;
      for (i = 0; i < n; i++) narrow &= u[i] <= 0xFF;
      memcpy(end16, u, 2 * n);
      r = utfx_base64_decode_utf16(end16, n, dst, need, flags);
      CHECK(same_result(r, want) && memcmp(dst, o.bytes, need) == 0, "guard utf16 n %zu", n);
      if (narrow) {
        for (i = 0; i < n; i++) front[i] = end[i] = (char)u[i];
        r = utfx_base64_decode(front, n, dst, need, flags);
        CHECK(same_result(r, want), "guard front n %zu", n);
        r = utfx_base64_decode(end, n, dst, need, flags);
        CHECK(same_result(r, want), "guard end n %zu", n);
        CHECK(utfx_binary_length_from_base64(end, n, flags) == need, "guard length");
      }
      guard_free(dst, need);
      guard_free(end16, 2 * n);
      guard_free(end, n);
      guard_free_front(front, n);
    }
  }
  for (k = 0; k < 200 / test_share(4); k++) {
    size_t n = (size_t)rng_below(&rng, k % 2 ? 80 : 2000), i, len;
    unsigned flags = (k & 1 ? UTFX_BASE64_URL : 0) | (k & 2 ? UTFX_BASE64_NO_PADDING : 0);
    unsigned char *front = guard_alloc_front(n), *end = guard_alloc(n);
    char *dst;
    utfx_result r;
    len = utfx_base64_length_from_binary(n, flags);
    dst = guard_alloc(len);
    for (i = 0; i < n; i++) front[i] = end[i] = (unsigned char)rng_next(&rng);
    r = utfx_base64_encode(front, n, dst, len, flags);
    CHECK(r.status == UTFX_OK && r.written == len, "guard encode front n %zu", n);
    r = utfx_base64_encode(end, n, dst, len, flags);
    CHECK(r.status == UTFX_OK && r.written == len, "guard encode end n %zu", n);
    guard_free(dst, len);
    guard_free(end, n);
    guard_free_front(front, n);
  }
  tap_group("base64: sources and destinations against guard pages");
}

/* Short calls, which the vector tiers take from a few characters or bytes
 * (UTFXI_SHORT_BASE64): every length 0..80, every combination of the six
 * decode flags (encode: the same 64, of which it reads URL and
 * NO_PADDING), sources against a guard page at either end and destinations
 * of exactly the room needed against one at either end, each call against
 * the scalar kernel (result and bytes). */
#define SHORT_MAX 80
static utfx_result short_decode(int form, const uint16_t *u, size_t n, unsigned char *dst,
                                size_t cap, unsigned flags, char16_t *s16, char *s8) {
  size_t i;
  for (i = 0; i < n; i++) s16[i] = u[i], s8[i] = (char)u[i];
  switch (form) {
    case 0: return utfx_base64_decode_utf16(s16, n, dst, cap, flags);
    case 1: return utfxi_base64_decode_utf16_scalar(s16, n, dst, cap, flags);
    case 2: return utfx_base64_decode(s8, n, dst, cap, flags);
    default: return utfxi_base64_decode_scalar(s8, n, dst, cap, flags);
  }
}

static void test_short(void) {
  static const uint16_t put[] = {' ', '\n', '=', '*', '-', '_', 0x100, 0xC2, 0x80, 'A'};
  char *s8_front = guard_alloc_front(SHORT_MAX), *s8_end = guard_alloc(SHORT_MAX);
  char16_t *s16_front = guard_alloc_front(2 * SHORT_MAX), *s16_end = guard_alloc(2 * SHORT_MAX);
  unsigned char *d_front = guard_alloc_front(SHORT_MAX), *d_end = guard_alloc(SHORT_MAX);
  unsigned char *b_front = guard_alloc_front(SHORT_MAX), *b_end = guard_alloc(SHORT_MAX);
  char *t_front = guard_alloc_front(4 * SHORT_MAX / 3 + 4), *t_end = guard_alloc(4 * SHORT_MAX / 3 + 4);
  static unsigned char bin[SHORT_MAX], want_b[SHORT_MAX];
  static char text[2 * SHORT_MAX], want_t[2 * SHORT_MAX];
  static uint16_t u[SHORT_MAX + 1];
  size_t n, v, i, cap, place;
  unsigned flags;
  rng_seed(&rng, 0x5407);
  for (n = 0; n <= SHORT_MAX; n++) {
    /* encode n bytes */
    for (i = 0; i < n; i++) bin[i] = (unsigned char)rng_next(&rng);
    for (flags = 0; flags < 64; flags++) {
      size_t len = utfx_base64_length_from_binary(n, flags);
      utfx_result want = utfxi_base64_encode_scalar(bin, n, want_t, sizeof want_t, flags), r;
      CHECK(want.status == UTFX_OK && want.written == len, "short encode scalar n %zu", n);
      for (place = 0; place < 4; place++) {
        const unsigned char *src = place & 1 ? b_front : b_end + SHORT_MAX - n;
        char *dst = place & 2 ? t_front : t_end + 4 * SHORT_MAX / 3 + 4 - len;
        memcpy((unsigned char *)src, bin, n);
        r = utfx_base64_encode(src, n, dst, len, flags);
        CHECK(same_result(r, want) && memcmp(dst, want_t, len) == 0,
              "short encode n %zu flags %#x placement %zu", n, flags, place);
        if (len) { /* one short of the room: the whole groups that fit */
          utfx_result w1 = utfxi_base64_encode_scalar(bin, n, want_t, len - 1, flags);
          r = utfx_base64_encode(src, n, dst + 1, len - 1, flags);
          CHECK(same_result(r, w1), "short encode n %zu flags %#x cap %zu", n, flags, len - 1);
        }
      }
    }
    /* decode n characters: the text of random bytes, unpadded and (whole
     * groups) padded, and with one odd unit at each of a few offsets */
    if (n == 0) continue;
    for (i = 0; i < SHORT_MAX; i++) bin[i] = (unsigned char)rng_next(&rng);
    ref_encode(bin, n, (n & 1) ? UTFX_BASE64_URL : 0, text); /* >= n characters */
    for (v = 0; v < 2 + 3 * (sizeof put / sizeof put[0]); v++) {
      for (i = 0; i < n; i++) u[i] = (unsigned char)text[i];
      if (v == 1) { /* padding as the encoder writes it */
        size_t tail = (size_t)rng_below(&rng, 3);
        if (n % 4 == 0 && tail) u[n - 1] = '=';
        if (n % 4 == 0 && tail == 2) u[n - 2] = '=';
      } else if (v >= 2) {
        u[(size_t)rng_below(&rng, n)] = put[(v - 2) % (sizeof put / sizeof put[0])];
      }
      for (flags = 0; flags < 64; flags++) {
        utfx_result want[2];
        int narrow = 1, form;
        for (i = 0; i < n; i++) narrow &= u[i] <= 0xFF;
        want[0] = short_decode(1, u, n, want_b, SHORT_MAX, flags, s16_end + SHORT_MAX - n,
                               s8_end + SHORT_MAX - n);
        for (cap = want[0].written; cap + 2 > want[0].written && cap <= want[0].written; cap--) {
          want[1] = short_decode(1, u, n, want_b, cap, flags, s16_end + SHORT_MAX - n,
                                 s8_end + SHORT_MAX - n);
          for (place = 0; place < 4; place++)
            for (form = 0; form < (narrow ? 4 : 2); form += 2) {
              char16_t *s16 = place & 1 ? s16_front : s16_end + SHORT_MAX - n;
              char *s8 = place & 1 ? s8_front : s8_end + SHORT_MAX - n;
              unsigned char *dst = place & 2 ? d_front : d_end + SHORT_MAX - cap;
              utfx_result r = short_decode(form, u, n, dst, cap, flags, s16, s8);
              CHECK(same_result(r, want[1]) &&
                        memcmp(dst, want_b, r.written < want[1].written ? r.written
                                                                         : want[1].written) == 0,
                    "short decode form %d n %zu text %zu flags %#x cap %zu placement %zu: "
                    "%d/%zu/%zu, want %d/%zu/%zu",
                    form, n, v, flags, cap, place, r.status, r.read, r.written, want[1].status,
                    want[1].read, want[1].written);
            }
          if (cap == 0) break;
        }
      }
    }
  }
  guard_free_front(s8_front, SHORT_MAX), guard_free(s8_end, SHORT_MAX);
  guard_free_front(s16_front, 2 * SHORT_MAX), guard_free(s16_end, 2 * SHORT_MAX);
  guard_free_front(d_front, SHORT_MAX), guard_free(d_end, SHORT_MAX);
  guard_free_front(b_front, SHORT_MAX), guard_free(b_end, SHORT_MAX);
  guard_free_front(t_front, 4 * SHORT_MAX / 3 + 4), guard_free(t_end, 4 * SHORT_MAX / 3 + 4);
  tap_group("base64: short calls, lengths 0..80, every flag combination, guard pages");
}

/* ------------------------------------------------------------ node oracle */

/* One line per case to node: "d HEX-UTF16LE" (decode) or "e HEX" (encode);
 * one answer line per case: "base64 base64url atob" hex bytes ('!' = atob
 * threw) or "base64 base64url btoa" text. */
#define N_NODE_DECODE 6000
#define N_NODE_ENCODE 1500
static char *node_answers;
static size_t node_answers_len;
static uint16_t *node_texts;
static size_t node_lens[N_NODE_DECODE];
static unsigned char *node_bins;
static size_t node_bin_lens[N_NODE_ENCODE];
#define NODE_MAX_TEXT 300
#define NODE_MAX_BIN 200


static int ask_node(void) {
  char in_path[] = "/tmp/utfx_b64_inXXXXXX", out_path[] = "/tmp/utfx_b64_outXXXXXX";
  char script[4096];
  char *argv[5];
  const char *node = getenv("NODE");
  int fd_in = mkstemp(in_path), fd_out = mkstemp(out_path), status = 1, rc;
  FILE *f;
  size_t k, i;
  pid_t pid;
  if (fd_in < 0 || fd_out < 0) return 0;
  close(fd_out);
  f = fdopen(fd_in, "w");
  node_texts = malloc(sizeof(uint16_t) * NODE_MAX_TEXT * N_NODE_DECODE);
  node_bins = malloc(NODE_MAX_BIN * N_NODE_ENCODE);
  rng_seed(&rng, 0x40DE);
  for (k = 0; k < N_NODE_DECODE; k++) {
    uint16_t *u = node_texts + k * NODE_MAX_TEXT;
    size_t n = gen_text(u, k % 2 ? 12 : 150, (unsigned)rng_below(&rng, 5));
    if (n > NODE_MAX_TEXT) n = NODE_MAX_TEXT;
    node_lens[k] = n;
    fputs("d ", f);
    for (i = 0; i < n; i++) fprintf(f, "%02x%02x", u[i] & 0xFF, u[i] >> 8);
    fputc('\n', f);
  }
  for (k = 0; k < N_NODE_ENCODE; k++) {
    unsigned char *b = node_bins + k * NODE_MAX_BIN;
    size_t n = (size_t)rng_below(&rng, k % 2 ? 10 : NODE_MAX_BIN);
    node_bin_lens[k] = n;
    fputs("e ", f);
    for (i = 0; i < n; i++) fprintf(f, "%02x", b[i] = (unsigned char)rng_next(&rng));
    fputc('\n', f);
  }
  fclose(f);
  snprintf(script, sizeof script, "%s/tests/oracle/base64_oracle.js", UTFX_SOURCE_DIR);
  if (!node) node = "node";
  argv[0] = (char *)(uintptr_t)node;
  argv[1] = script;
  argv[2] = in_path;
  argv[3] = out_path;
  argv[4] = NULL;
  fflush(stdout);
  rc = posix_spawnp(&pid, node, NULL, NULL, argv, environ);
  if (rc == 0)
    while (waitpid(pid, &status, 0) < 0)
      if (errno != EINTR) break;
  if (rc == 0 && WIFEXITED(status) && WEXITSTATUS(status) == 0)
    node_answers = test_slurp(out_path, &node_answers_len);
  unlink(in_path);
  unlink(out_path);
  return node_answers != NULL;
}

/* The next space- or newline-ended word of the answers. */
static const char *next_word(const char **p, size_t *len) {
  const char *w = *p;
  while (**p && **p != ' ' && **p != '\n') (*p)++;
  *len = (size_t)(*p - w);
  if (**p) (*p)++;
  return w;
}

static int hex_equals(const char *hex, size_t hex_len, const unsigned char *b, size_t n) {
  size_t i;
  char two[3];
  if (hex_len != 2 * n) return 0;
  for (i = 0; i < n; i++) {
    snprintf(two, sizeof two, "%02x", b[i]);
    if (memcmp(two, hex + 2 * i, 2) != 0) return 0;
  }
  return 1;
}

static void test_node(void) {
  static unsigned char got[NODE_MAX_TEXT];
  static char text[NODE_MAX_BIN * 2];
  static char bytes[NODE_MAX_TEXT];
  const char *p = node_answers;
  size_t k, i, len;
  if (!node_answers) {
    tap_fail("base64: node oracle", "node (Node.js) and tests/oracle/base64_oracle.js are required");
    return;
  }
  for (k = 0; k < N_NODE_DECODE; k++) {
    const uint16_t *u = node_texts + k * NODE_MAX_TEXT;
    size_t n = node_lens[k];
    const char *w;
    int narrow = 1;
    utfx_result r;
    for (i = 0; i < n; i++) narrow &= u[i] <= 0xFF, bytes[i] = (char)u[i];
    for (int url = 0; url < 2; url++) {
      w = next_word(&p, &len);
      r = utfx_base64_decode_utf16((const char16_t *)u, n, got, sizeof got, UTFX_BASE64_NODE);
      CHECK(r.status == UTFX_OK && hex_equals(w, len, got, r.written),
            "Buffer.from(s, '%s') case %zu: %.*s", url ? "base64url" : "base64", k, (int)len, w);
      CHECK(utfx_binary_length_from_base64_utf16((const char16_t *)u, n, UTFX_BASE64_NODE) ==
                r.written,
            "node length case %zu", k);
    }
    w = next_word(&p, &len);
    if (narrow) { /* atob: loose, standard alphabet; as bytes */
      r = utfx_base64_decode(bytes, n, got, sizeof got, 0);
      if (len == 1 && w[0] == '!')
        CHECK(r.status == UTFX_INVALID, "atob threw, case %zu: status %d", k, r.status);
      else
        CHECK(r.status == UTFX_OK && hex_equals(w, len, got, r.written), "atob case %zu", k);
    }
  }
  for (k = 0; k < N_NODE_ENCODE; k++) {
    const unsigned char *b = node_bins + k * NODE_MAX_BIN;
    size_t n = node_bin_lens[k];
    for (int form = 0; form < 3; form++) {
      unsigned flags = form == 1 ? UTFX_BASE64_URL | UTFX_BASE64_NO_PADDING : 0;
      const char *w = next_word(&p, &len);
      utfx_result r = utfx_base64_encode(b, n, text, sizeof text, flags);
      CHECK(r.status == UTFX_OK && r.written == len && memcmp(text, w, len) == 0,
            "encode form %d case %zu", form, k);
    }
  }
  tap_group("base64: Node.js Buffer base64/base64url both ways, atob, btoa");
}

/* Encode from every source offset mod 16 into every destination offset mod
 * 64: the avx512 encoder picks its head and where its loads start by both. */
static void test_encode_offsets(void) {
  static _Alignas(64) unsigned char bin[2048 + 64];
  static _Alignas(64) char text[2800 + 128], want[2800];
  static const size_t sizes[] = {383, 385, 1000, 2047};
  size_t so, dof, z, i;
  for (i = 0; i < sizeof bin; i++) bin[i] = (unsigned char)rng_next(&rng);
  for (z = 0; z < sizeof sizes / sizeof sizes[0]; z++)
    for (so = 0; so < 16; so++)
      for (dof = 0; dof < 64; dof += 1 + (z % 2) * 2) {
        size_t n = sizes[z], full = ref_encode(bin + so, n, z & 2 ? UTFX_BASE64_URL : 0, want);
        utfx_result r;
        memset(text, CANARY, sizeof text);
        r = utfx_base64_encode(bin + so, n, text + dof, full, z & 2 ? UTFX_BASE64_URL : 0);
        CHECK(r.status == UTFX_OK && r.written == full && memcmp(text + dof, want, full) == 0 &&
                  (unsigned char)text[dof + full] == CANARY &&
                  (dof == 0 || (unsigned char)text[dof - 1] == CANARY),
              "encode n %zu source offset %zu destination offset %zu", n, so, dof);
      }
  tap_group("base64: encode at every source and destination offset");
}

/* An encode long enough for the avx512 tier's non-temporal stores
 * (UTFXI_B64_STREAM_FROM): at a destination on a cache line (they run from
 * there), 4 bytes past one (they run after the groups up to the next line)
 * and 1 byte past one (ordinary stores), each with a tail after its blocks.
 * Under emulation only the first. */
static void test_encode_stream(void) {
  const size_t n = UTFXI_B64_STREAM_FROM + 47, full = (n + 2) / 3 * 4;
  static const size_t dofs[] = {0, 4, 1};
  unsigned char *bin = malloc(n);
  char *want = malloc(full), *text = aligned_alloc(64, (full + 128 + 63) / 64 * 64);
  size_t i, z;
  if (!bin || !want || !text) {
    CHECK(0, "encode stream: out of memory");
    free(bin), free(want), free(text);
    return;
  }
  for (i = 0; i < n; i++) bin[i] = (unsigned char)rng_next(&rng);
  for (z = 0; z < (test_emulated() ? 1 : sizeof dofs / sizeof dofs[0]); z++) {
    unsigned flags = z == 1 ? UTFX_BASE64_URL : 0;
    size_t dof = dofs[z], w = ref_encode(bin, n, flags, want);
    utfx_result r;
    memset(text, CANARY, full + 128);
    r = utfx_base64_encode(bin, n, text + dof, full, flags);
    CHECK(w == full && r.status == UTFX_OK && r.written == full &&
              memcmp(text + dof, want, full) == 0 && (unsigned char)text[dof + full] == CANARY &&
              (dof == 0 || (unsigned char)text[dof - 1] == CANARY),
          "encode n %zu destination offset %zu", n, dof);
  }
  free(bin), free(want), free(text);
  tap_group("base64: encode beyond the cache (non-temporal stores)");
}

/* ------------------------------------------------------------ main */

static void suite(void) {
  decode_checks = 0;
  test_known();
  test_random();
  test_forgiving();
  test_fixed_lines();
  test_every_offset();
  test_runs();
  test_caps();
  test_encode_random();
  test_encode_offsets();
  test_encode_stream();
  test_guard();
  test_short();
  test_node();
  printf("# %lu decode checks\n", decode_checks);
}

int main(void) {
  ask_node();
  tap_for_each_impl(suite);
  return tap_done();
}
