/* Differential tests of the UTF-8-side SIMD kernels against the scalar
 * kernels (the specification), run on every tier this CPU supports:
 * validate_utf8, validate_ascii, the four conversions from UTF-8 (STRICT and
 * REPLACE) and the three length functions.
 *
 * - valid random text of six scripts, every length 0..300, every start
 *   offset 0..63 of a 64-byte aligned buffer;
 * - one corrupted byte (80 C0 E0 ED F0 F4 FF, or the text cut short there)
 *   at every position, for every length 0..300 (lengths above 160 every
 *   third one, and in the sanitized build every third length of all, to keep
 *   run time bounded);
 * - every destination capacity from 0 to the needed size, for lengths up to
 *   100 (valid text; corrupted text: every 16th position and corruption),
 *   STRICT and REPLACE; other cases use the needed size and n;
 * - "byte soup": valid runs mixed with lone leads, continuations and bytes
 *   that are never valid, so one error follows another;
 * - every source also ends exactly at a PROT_NONE page (guard_alloc), and
 *   every destination is followed by canary units that must stay untouched,
 *   as must everything at or after dst + written.
 * Compared: status, read, written, replaced and the output units. */
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "support/emulated.h"
#include "support/guard.h"
#include "support/put_utf8.h"
#include "tap.h"

#define MAX_LEN 300
#define OUT_MAX 2048 /* the longest input of any check (the fixed-stride entry's: 1900) */
#define CANARY 0xA5

#ifdef __SANITIZE_ADDRESS__
#define SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SANITIZED 1
#endif
#endif
#ifndef SANITIZED
#define SANITIZED 0
#endif

typedef utfx_result (*conv_fn)(const char *, size_t, void *, size_t, unsigned);

#define WRAP(to, T)                                                                    \
  static utfx_result pub_##to(const char *s, size_t n, void *d, size_t cap, unsigned f) { \
    return utfx_convert_utf8_to_##to(s, n, (T *)d, cap, f);                            \
  }                                                                                    \
  static utfx_result ref_##to(const char *s, size_t n, void *d, size_t cap, unsigned f) { \
    return utfxi_convert_utf8_to_##to##_scalar(s, n, (T *)d, cap, f);                  \
  }
WRAP(utf16le, char16_t)
WRAP(utf16be, char16_t)
WRAP(utf32, char32_t)
WRAP(latin1, char)

static const struct conv {
  const char *name;
  conv_fn pub, ref;
  size_t unit;
} convs[] = {{"utf16le", pub_utf16le, ref_utf16le, 2},
             {"utf16be", pub_utf16be, ref_utf16be, 2},
             {"utf32", pub_utf32, ref_utf32, 4},
             {"latin1", pub_latin1, ref_latin1, 1}};
#define NCONV (sizeof convs / sizeof convs[0])

/* ---------------------------------------------------------------- text */
enum { S_ASCII, S_LATIN1, S_LATIN1_DENSE, S_TWO, S_CJK, S_EMOJI, S_MIXED, NSCRIPT };
static const char *const script_names[] = {"ascii", "latin1",  "latin1-dense", "2-byte",
                                            "cjk",   "emoji", "mixed"};

static uint32_t random_cp(test_rng *r, int script) {
  static const uint32_t edges[] = {0x00,   0x7F,   0x80,    0xFF,    0x100,   0x7FF,
                                   0x800,  0xD7FF, 0xE000,  0xFFFD,  0xFFFF,  0x10000,
                                   0x10FFFF, 0x20, 0x41,    0x3000};
  uint32_t c;
  switch (script) {
    case S_ASCII:
      return 0x20 + (uint32_t)rng_below(r, 0x5F);
    case S_LATIN1:
      return rng_below(r, 3) ? 0xA0 + (uint32_t)rng_below(r, 0x60)
                             : 0x20 + (uint32_t)rng_below(r, 0x5F);
    case S_LATIN1_DENSE: /* mostly 2-byte: every split of a block's output */
      return rng_below(r, 10) ? 0xA0 + (uint32_t)rng_below(r, 0x60) : 0x41;
    case S_TWO:
      if (rng_below(r, 6) == 0) return 0x20;
      return rng_below(r, 2) ? 0x400 + (uint32_t)rng_below(r, 0x100)
                             : 0x600 + (uint32_t)rng_below(r, 0x100);
    case S_CJK:
      if (rng_below(r, 10) == 0) return 0x3002;
      return 0x4E00 + (uint32_t)rng_below(r, 0x5200);
    case S_EMOJI:
      if (rng_below(r, 5) == 0) return 0x20;
      return 0x1F300 + (uint32_t)rng_below(r, 0x300);
    default:
      switch (rng_below(r, 6)) {
        case 0: return (uint32_t)rng_below(r, 0x80);
        case 1: return 0x80 + (uint32_t)rng_below(r, 0x780);
        case 2: c = 0x800 + (uint32_t)rng_below(r, 0xF800);
                return (c >= 0xD800 && c <= 0xDFFF) ? 0xFFFD : c;
        case 3: return 0x10000 + (uint32_t)rng_below(r, 0x100000);
        case 4: return edges[rng_below(r, sizeof edges / sizeof edges[0])];
        default: return 0xA0 + (uint32_t)rng_below(r, 0x60);
      }
  }
}

/* Exactly len bytes of valid UTF-8 (ASCII fills the last gap). */
static void random_text(test_rng *r, int script, unsigned char *d, size_t len) {
  size_t i = 0;
  while (i < len) {
    unsigned char tmp[4];
    size_t k = put_utf8(tmp, random_cp(r, script));
    if (k > len - i) { d[i++] = 'x'; continue; }
    memcpy(d + i, tmp, k);
    i += k;
  }
}

/* ---------------------------------------------------------------- checks */
static unsigned char *out_pub, *out_ref;
static unsigned long cases;

static int same_result(utfx_result a, utfx_result b) {
  return a.status == b.status && a.read == b.read && a.written == b.written &&
         a.replaced == b.replaced;
}

/* One conversion at one capacity: the tier against scalar, with canaries. */
static void check_conv(const struct conv *cv, const char *src, size_t n, size_t cap,
                       unsigned flags, const char *what) {
  size_t bytes = (cap + 8) * cv->unit, k;
  utfx_result a, b;
  memset(out_pub, CANARY, bytes);
  memset(out_ref, CANARY, bytes);
  a = cv->pub(src, n, out_pub, cap, flags);
  b = cv->ref(src, n, out_ref, cap, flags);
  cases++;
  CHECK(same_result(a, b),
        "%s %s n=%zu cap=%zu %s: got st%d r%zu w%zu x%zu, scalar st%d r%zu w%zu x%zu", what,
        cv->name, n, cap, flags ? "REPLACE" : "STRICT", a.status, a.read, a.written, a.replaced,
        b.status, b.read, b.written, b.replaced);
  CHECK(a.written <= cap, "%s %s wrote past cap", what, cv->name);
  if (a.written <= cap)
    CHECK(memcmp(out_pub, out_ref, a.written * cv->unit) == 0, "%s %s n=%zu cap=%zu output differs",
          what, cv->name, n, cap);
  for (k = a.written * cv->unit; k < bytes && k < (cap + 8) * cv->unit; k++)
    if (out_pub[k] != CANARY) break;
  CHECK(k == bytes, "%s %s n=%zu cap=%zu: unit at/after written (%zu) modified", what, cv->name,
        n, cap, a.written);
}

/* The n bytes of src copied to buf + off, byte p made `byte` (0: none):
 * their UTF-16 and UTF-32 lengths against the scalar kernels'. */
static void check_lengths(unsigned char *buf, size_t off, const unsigned char *src, size_t n,
                          size_t p, unsigned byte, const char *what) {
  const char *t = (const char *)buf + off;
  size_t la, lb;
  memcpy(buf + off, src, n);
  if (byte) buf[off + p] = (unsigned char)byte;
  la = utfx_utf16_length_from_utf8(t, n);
  lb = utfxi_utf16_length_from_utf8_scalar(t, n);
  CHECK(la == lb, "%s utf16_length n=%zu, offset %zu, byte %zu = %02X: %zu vs %zu", what, n, off,
        p, byte, la, lb);
  la = utfx_utf32_length_from_utf8(t, n);
  lb = utfxi_utf32_length_from_utf8_scalar(t, n);
  CHECK(la == lb, "%s utf32_length n=%zu, offset %zu, byte %zu = %02X: %zu vs %zu", what, n, off,
        p, byte, la, lb);
}

/* Everything on one input: validation, lengths, every conversion with a
 * destination of exactly the needed size (and every smaller one when
 * all_caps). */
static void check_all(const char *src, size_t n, int all_caps, const char *what) {
  utfx_result a, b;
  size_t c, la, lb;
  unsigned flags;
  a = utfx_validate_utf8(src, n);
  b = utfxi_validate_utf8_scalar(src, n);
  CHECK(a.status == b.status && a.read == b.read, "%s validate_utf8 n=%zu: %d@%zu vs %d@%zu",
        what, n, a.status, a.read, b.status, b.read);
  a = utfx_validate_ascii(src, n);
  b = utfxi_validate_ascii_scalar(src, n);
  CHECK(a.status == b.status && a.read == b.read, "%s validate_ascii n=%zu: %d@%zu vs %d@%zu",
        what, n, a.status, a.read, b.status, b.read);
  la = utfx_utf16_length_from_utf8(src, n);
  lb = utfxi_utf16_length_from_utf8_scalar(src, n);
  CHECK(la == lb, "%s utf16_length n=%zu: %zu vs %zu", what, n, la, lb);
  la = utfx_utf32_length_from_utf8(src, n);
  lb = utfxi_utf32_length_from_utf8_scalar(src, n);
  CHECK(la == lb, "%s utf32_length n=%zu: %zu vs %zu", what, n, la, lb);
  la = utfx_latin1_length_from_utf8(src, n);
  lb = utfxi_latin1_length_from_utf8_scalar(src, n);
  CHECK(la == lb, "%s latin1_length n=%zu: %zu vs %zu", what, n, la, lb);
  for (c = 0; c < NCONV; c++) {
    const struct conv *cv = &convs[c];
    for (flags = 0; flags <= UTFX_REPLACE; flags++) {
      size_t need = cv->unit == 2 ? utfxi_utf16_length_from_utf8_scalar(src, n)
                                  : utfxi_utf32_length_from_utf8_scalar(src, n);
      size_t cap;
      check_conv(cv, src, n, need, flags, what);
      if (all_caps)
        for (cap = 0; cap < need; cap++) check_conv(cv, src, n, cap, flags, what);
      else
        check_conv(cv, src, n, n, flags, what); /* the worst-case bound */
    }
  }
}

static const unsigned char corruptions[] = {0x80, 0xC0, 0xE0, 0xED, 0xF0, 0xF4, 0xFF};
#define NCORRUPT (sizeof corruptions / sizeof corruptions[0] + 1) /* + truncation */

static void suite(void) {
  test_rng rng;
  unsigned char *text, *aligned, *work;
  size_t len, off, pos, k;
  int script;
  char *guard, *guard_end;
  if (strcmp(utfx_implementation(), "scalar") == 0) {
    printf("# scalar tier: it is the reference these tests compare against\n");
    return;
  }
  out_pub = malloc((OUT_MAX + 16) * 4);
  out_ref = malloc((OUT_MAX + 16) * 4);
  text = malloc(MAX_LEN + 4);
  aligned = aligned_alloc(64, (MAX_LEN + 64 + 63) / 64 * 64); /* a multiple of 64 */
  work = malloc(MAX_LEN + 4);
  /* One guard buffer; an input of n bytes sits at guard_end - n. */
  guard = guard_alloc(MAX_LEN);
  guard_end = guard + MAX_LEN;
  rng_seed(&rng, 20261130);

  /* Valid text, every length and start offset. */
  for (script = 0; script < NSCRIPT; script++) {
    for (len = 0; len <= MAX_LEN; len++) {
      char *g = guard_end - len;
      random_text(&rng, script, text, len);
      memcpy(g, text, len);
      check_all(g, len, len <= 100, script_names[script]);
      for (off = 0; off < 64; off++) {
        if (SANITIZED && off % 8 != len % 8) continue;
        if (!test_keep(off + len, 8)) continue;
        memcpy(aligned + off, text, len);
        check_all((const char *)aligned + off, len, 0, script_names[script]);
      }
    }
  }
  tap_group("valid text: every length 0..300, start offset 0..63, guard page");

  /* One corrupted byte at every position. */
  for (script = 0; script < NSCRIPT; script++) {
    for (len = 1; len <= MAX_LEN; len++) {
      if (len > 160 && len % 3 != (size_t)script % 3) continue;
      if (SANITIZED && len % 3 != (size_t)script % 3) continue;
      if (!test_keep(len + (size_t)script, 6)) continue;
      random_text(&rng, script, text, len);
      for (pos = 0; pos < len; pos++) {
        for (k = 0; k < NCORRUPT; k++) {
          size_t n = len;
          char *g;
          memcpy(work, text, len);
          if (k < NCORRUPT - 1) work[pos] = corruptions[k];
          else n = pos + 1 + (size_t)(pos + 1 < len && (text[pos] & 0xC0) == 0xC0);
          if (n > len) n = len;
          g = guard_end - n;
          memcpy(g, work, n);
          check_all(g, n, n <= 100 && pos % 16 == (k + len) % 16, script_names[script]);
        }
      }
    }
  }
  tap_group("one corrupted byte at every position, every capacity (n <= 100)");

  /* Byte soup: valid characters mixed with runs of lead, continuation and
   * never-valid bytes, so errors follow errors (the SIMD code must not trust
   * the bytes before a block it resumes at after an error). */
  for (k = 0; k < (SANITIZED ? 1500u : 6000u); k++) {
    static const unsigned char soup[] = {0x41, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xC2,
                                         0xDF, 0xE0, 0xE1, 0xED, 0xEF, 0xF0, 0xF4, 0xF5, 0xFF};
    size_t n = (size_t)rng_below(&rng, MAX_LEN + 1), i = 0;
    if (!test_keep(k, 8)) continue;
    while (i < n) {
      if (rng_below(&rng, 3) == 0) {
        text[i++] = soup[rng_below(&rng, sizeof soup)];
      } else {
        size_t run = 1 + (size_t)rng_below(&rng, 40);
        if (run > n - i) run = n - i;
        random_text(&rng, (int)rng_below(&rng, NSCRIPT), text + i, run);
        i += run;
      }
    }
    memcpy(guard_end - n, text, n);
    check_all(guard_end - n, n, n <= 100 && k % 8 == 0, "soup");
  }
  tap_group("byte soup: errors next to errors");

  /* validate_ascii of a long input checks one vector, then aligns its loads:
   * a non-ASCII byte in, at the end of or just after that first vector, at
   * every start offset. */
  {
    static unsigned char buf[1100 + 64];
    size_t off, p;
    for (off = 0; off < 64; off++) {
      unsigned char *t = buf + off;
      for (p = 0; p <= 140; p++) {
        utfx_result a, b;
        memset(t, 'a', 1100);
        if (p < 140) t[p] = 0x80; /* p = 140: no error */
        a = utfx_validate_ascii((const char *)t, 1100);
        b = utfxi_validate_ascii_scalar((const char *)t, 1100);
        CHECK(a.status == b.status && a.read == b.read,
              "validate_ascii long, offset %zu, error at %zu: %d@%zu vs %d@%zu", off, p, a.status,
              a.read, b.status, b.read);
      }
    }
  }
  tap_group("validate_ascii of long inputs: an error near the first vector, every offset");

  /* validate_utf8, the UTF-16 / UTF-32 lengths of UTF-8 (and the avx2
   * utf8_length_from_latin1) of a long input
   * takes its leading ASCII eight vectors at a time before the general loop:
   * ASCII, then one other byte (ill-formed, or the lead of a valid
   * character, whose check starts there) at every position of the first
   * 2 KiB and some start offsets, then valid text. */
  {
    enum { LEAD_LEN = 4096 };
    static const unsigned char other[] = {0x80, 0xC3, 0xE2, 0xF0, 0xFF};
    unsigned char *buf = malloc(LEAD_LEN + 64);
    size_t off, p, b;
    for (off = 0; off < 64; off += 13) {
      unsigned char *t = buf + off;
      for (p = 0; p <= 2048; p++) {
        for (b = 0; b < sizeof other; b++) {
          utfx_result x, y;
          if (!test_keep(p + b + off, 4)) continue;
          memset(t, 'a', LEAD_LEN);
          t[p] = other[b];
          if (b == 1) t[p + 1] = 0xA9;                          /* U+00E9 */
          if (b == 2) t[p + 1] = 0x82, t[p + 2] = 0xAC;         /* U+20AC */
          if (b == 3) t[p + 1] = 0x9F, t[p + 2] = 0x98, t[p + 3] = 0x80; /* U+1F600 */
          x = utfx_validate_utf8((const char *)t, LEAD_LEN);
          y = utfxi_validate_utf8_scalar((const char *)t, LEAD_LEN);
          CHECK(x.status == y.status && x.read == y.read,
                "validate_utf8 long ASCII, offset %zu, byte %zu = %02X: %d@%zu vs %d@%zu", off, p,
                other[b], x.status, x.read, y.status, y.read);
          CHECK(utfx_utf8_length_from_latin1((const char *)t, LEAD_LEN) ==
                    utfxi_utf8_length_from_latin1_scalar((const char *)t, LEAD_LEN),
                "utf8_length_from_latin1 long ASCII, offset %zu, byte %zu = %02X", off, p, other[b]);
          CHECK(utfx_utf16_length_from_utf8((const char *)t, LEAD_LEN) ==
                    utfxi_utf16_length_from_utf8_scalar((const char *)t, LEAD_LEN),
                "utf16_length_from_utf8 long ASCII, offset %zu, byte %zu = %02X", off, p, other[b]);
          CHECK(utfx_utf32_length_from_utf8((const char *)t, LEAD_LEN) ==
                    utfxi_utf32_length_from_utf8_scalar((const char *)t, LEAD_LEN),
                "utf32_length_from_utf8 long ASCII, offset %zu, byte %zu = %02X", off, p, other[b]);
        }
      }
    }
    free(buf);
  }
  tap_group("validate_utf8, lengths of long inputs: ASCII, then another byte anywhere");

  /* The UTF-8 lengths of a long input (UTFXI_ALIGN_HEAD) count a first
   * step only up to the first vector boundary, so that the loop's loads are
   * aligned: every start offset, valid text of each script (characters cut
   * by that boundary), and an ill-formed byte at every position near it. */
  {
    enum { LONG_LEN = UTFXI_ALIGN_HEAD_BYTES + 100 };
    static const unsigned char bad[] = {0x80, 0xC0, 0xE0, 0xF0, 0xFF};
    unsigned char *src = malloc(LONG_LEN);
    unsigned char *buf = aligned_alloc(64, (LONG_LEN + 128 + 63) / 64 * 64); /* a multiple of 64 */
    size_t off, p, b;
    for (script = 0; script < NSCRIPT; script++) {
      random_text(&rng, script, src, LONG_LEN);
      for (off = 0; off < 64; off++) {
        size_t edge = 64 - off; /* the first 64-byte boundary after buf + off */
        for (p = edge - 4; p <= edge + 4; p++) {
          for (b = 0; b <= sizeof bad; b++) {
            if (b > 0 && p == edge - 4) continue; /* b == 0: no error (once per offset) */
            check_lengths(buf, off, src, LONG_LEN, p, b ? bad[b - 1] : 0, script_names[script]);
          }
        }
      }
    }
    free(src);
    free(buf);
  }
  tap_group("UTF-8 lengths of long inputs: every offset, an error near the first boundary");

  /* The UTF-16 length of UTF-8 takes long calls (16 vectors and more: 512
   * bytes on avx2, 1024 on avx512) to a kernel of its own, with a check of
   * its own on avx512: lengths on both sides of that, and well past it, of
   * valid text of each script (cut anywhere: an unfinished last character)
   * and with one ill-formed byte at spread positions. */
  {
    static const size_t around[] = {500, 512, 1000, 1023, 1024, 1025, 2047, 2048, 2049, 4100};
    static const unsigned char bad[] = {0x80, 0xC0, 0xE0, 0xF0, 0xFF};
    enum { AROUND_MAX = 4100 + 8 };
    unsigned char *src = malloc(AROUND_MAX), *buf = malloc(AROUND_MAX + 8);
    size_t a, d, p, b;
    for (script = 0; script < NSCRIPT; script++) {
      random_text(&rng, script, src, AROUND_MAX);
      for (a = 0; a < sizeof around / sizeof around[0]; a++) {
        for (d = 0; d < 3; d++) {
          size_t n = around[a] + d, off = (a + d + (size_t)script) % 8;
          check_lengths(buf, off, src, n, 0, 0, script_names[script]); /* no error */
          for (p = d; p < n; p += 37) {
            if (!test_keep(p + a, 4)) continue;
            for (b = 0; b < sizeof bad; b++)
              check_lengths(buf, off, src, n, p, bad[b], script_names[script]);
          }
        }
      }
    }
    free(src);
    free(buf);
  }
  tap_group("UTF-8 lengths around the long calls' kernel (512 / 1024 bytes) and past it");

  /* Runs of 4-byte characters only (emoji runs: after a block of them, the
   * next blocks are checked in their 32-bit lanes, not by the lookup
   * check), valid and with one byte changed at every position: overlong
   * (F0 8F), above U+10FFFF (F4 90, F5..F7), not a continuation, a lead. */
  {
    static const unsigned char bad[] = {0x80, 0x8F, 0x90, 0xBF, 0xC0, 0x41,
                                        0xE0, 0xF0, 0xF4, 0xF5, 0xF7, 0xF8};
    static const size_t lens[] = {64, 127, 128, 192, 257, MAX_LEN};
    size_t a, p, b;
    for (a = 0; a < sizeof lens / sizeof lens[0]; a++) {
      size_t n = lens[a];
      for (k = 0; k + 4 <= n; k += 4) {
        uint32_t c = 0x10000 + (uint32_t)rng_below(&rng, 0x100000);
        if (k % 64 == 16) c = k % 128 ? 0x10000 : 0x10FFFF; /* the range's ends */
        put_utf8(text + k, c);
      }
      for (; k < n; k++) text[k] = 'x';
      memcpy(work, text, n);
      check_all((const char *)work, n, 0, "emoji run");
      for (p = 0; p < n; p++) {
        if (!test_keep(p + a, 2)) continue;
        for (b = 0; b < sizeof bad; b++) {
          memcpy(work, text, n);
          work[p] = bad[b];
          check_all((const char *)work, n, 0, "emoji run, one byte changed");
        }
      }
    }
  }
  tap_group("runs of 4-byte characters, one byte changed at every position");

  /* Fixed-stride steps (avx512: after a general block, steps of 64 bytes
   * whatever the characters; each puts those whose last byte is in bytes
   * -1..62 of its block): longer mixed text after 0..63 ASCII bytes, so
   * that characters of every length cross the steps' edges at every
   * offset; valid, at every capacity near the end and a few below it, and
   * one byte changed at every position of the first 320. */
  {
    enum { STRIDE_LEN = 1100 }; /* the long kernels: 1024 bytes or more */
    static const unsigned char bad[] = {0x80, 0xBF, 0xC0, 0xC3, 0xE0, 0xED, 0xF0, 0xF4, 0xFF, 0x41};
    unsigned char *src = malloc(STRIDE_LEN), *buf = malloc(STRIDE_LEN);
    size_t shift, p, b, c;
    for (shift = 0; shift < 64; shift++) {
      memset(src, 'a', shift);
      random_text(&rng, shift % 4 ? S_MIXED : S_TWO + (int)(shift / 4 % 3), src + shift,
                  STRIDE_LEN - shift);
      memcpy(buf, src, STRIDE_LEN);
      check_all((const char *)buf, STRIDE_LEN, 0, "stride");
      for (c = 0; c < NCONV; c++) {
        const struct conv *cv = &convs[c];
        size_t need = cv->unit == 2 ? utfxi_utf16_length_from_utf8_scalar((const char *)buf, STRIDE_LEN)
                                    : utfxi_utf32_length_from_utf8_scalar((const char *)buf, STRIDE_LEN);
        size_t cap;
        for (cap = need > 200 ? need - 200 : 0; cap < need; cap += 1 + (cap + shift) % 7)
          check_conv(cv, (const char *)buf, STRIDE_LEN, cap, UTFX_REPLACE * (unsigned)(cap & 1),
                     "stride, small capacity");
      }
      for (p = 0; p < 320; p++) {
        if (!test_keep(p + shift, SANITIZED ? 8 : 2)) continue;
        for (b = 0; b < sizeof bad; b++) {
          if ((p + b + shift) % 3) continue;
          memcpy(buf, src, STRIDE_LEN);
          buf[p] = bad[b];
          check_all((const char *)buf, STRIDE_LEN, 0, "stride, one byte changed");
        }
      }
    }
    free(src);
    free(buf);
  }
  tap_group("fixed-stride steps: mixed text at every phase, capacities, one byte changed");

  /* Long calls (the avx512 long kernels: 1,016 bytes or more) of ASCII up
   * to their last block: the rest, under a block, in one masked step when
   * it is ASCII and fits, else by the short kernel. Every length around
   * the threshold, capacities short of the end, one byte changed in the
   * last 72. */
  {
    static const unsigned char other[] = {0x80, 0xC3, 0xE2, 0xF0, 0xFF};
    unsigned char *buf = malloc(1100);
    size_t n, p, b, c;
    for (n = 1000; n <= 1100; n++) {
      memset(buf, 'a', n);
      check_all((const char *)buf, n, 0, "long ASCII");
      for (c = 0; c < NCONV; c++) {
        size_t cap;
        for (cap = n - 72; cap < n; cap++)
          check_conv(&convs[c], (const char *)buf, n, cap, UTFX_REPLACE * (unsigned)(cap & 1),
                     "long ASCII, small capacity");
      }
      for (p = n - 72; p < n; p++) {
        if (!test_keep(p + n, SANITIZED ? 8 : 2)) continue;
        for (b = 0; b < sizeof other; b++) {
          buf[p] = other[b];
          check_all((const char *)buf, n, 0, "long ASCII, one byte changed");
        }
        buf[p] = 'a';
      }
    }
    free(buf);
  }
  tap_group("long calls of ASCII: the rest after the last block, capacities, one byte changed");

  /* The fixed-stride steps' entry (avx512 long kernels): after `need`
   * general blocks in a row, 3 at first, more after entries that leave
   * soon. Mixed text alternating with runs of 3-byte characters (the
   * entries leave at the runs: CJK), then a long mixed tail, where the
   * steps are entered again after the back-off; in it, at every position
   * (of a few phases), an invalid sequence whose first bytes are a lead and
   * a continuation and whose third a continuation too (F0 80 80, E0 80 80,
   * F5 80 80, ...): the scalar steps stop before that third byte, a block
   * boundary that general blocks counted up to `need` may meet, and the
   * bytes before it are not context the lookup check may take (with them
   * it finds the third byte continuing a 3- or 4-byte lead). */
  {
    enum { ENTRY_LEN = 1900, ENTRY_TAIL = 3 * (200 + 192) };
    static const unsigned char lead[] = {0xF0, 0xE0, 0xF5, 0xF4, 0xED, 0xC0};
    unsigned char *src = malloc(ENTRY_LEN), *buf = malloc(ENTRY_LEN);
    size_t shift, p, b, k;
    for (shift = 0; shift < 64; shift += SANITIZED ? 21 : 7) {
      size_t at = shift;
      memset(src, 'a', shift);
      for (k = 0; k < 3; k++) {
        random_text(&rng, S_MIXED, src + at, 200);
        random_text(&rng, S_CJK, src + at + 200, 192);
        at += 392;
      }
      random_text(&rng, S_MIXED, src + at, ENTRY_LEN - at);
      check_all((const char *)src, ENTRY_LEN, 0, "stride entry");
      for (p = ENTRY_TAIL; p + 3 <= ENTRY_LEN; p++) {
        if (!test_keep(p + shift, SANITIZED ? 8 : 1)) continue;
        for (b = 0; b < sizeof lead; b++) {
          if ((p + b) % 2) continue;
          memcpy(buf, src, ENTRY_LEN);
          buf[p] = lead[b];
          buf[p + 1] = 0x80;
          buf[p + 2] = 0x80 + (unsigned char)(p % 64);
          check_all((const char *)buf, ENTRY_LEN, 0, "stride entry, invalid sequence");
        }
      }
    }
    free(src);
    free(buf);
  }
  tap_group("fixed-stride entry: after the back-off, after an invalid sequence");

  /* The long kernels (avx512: 1024 bytes and more) after ASCII to the last
   * block: the rest goes to the kernel of any call, its offsets added. */
  {
    static const size_t lens[] = {1024, 1025, 1030, 1087, 1088, 1100, 1151};
    static const size_t tails[] = {5, 20, 40, 63, 100};
    static const unsigned char bad[] = {0, 0x80, 0xC3, 0xE3, 0xF0, 0xFF};
    unsigned char *src = malloc(1151);
    size_t li, p, b;
    for (li = 0; li < sizeof lens / sizeof lens[0] * (sizeof tails / sizeof tails[0]); li++) {
      size_t n = lens[li % 7], tail = tails[li / 7];
      memset(src, 'a', n - tail);
      random_text(&rng, S_MIXED, src + n - tail, tail);
      for (p = n - tail; p < n; p++) {
        if (!test_keep(p, SANITIZED ? 8 : 1)) continue;
        for (b = 0; b < sizeof bad; b++) {
          unsigned char keep = src[p];
          if (bad[b]) src[p] = bad[b];
          check_all((const char *)src, n, 0, "long kernel, ASCII then the rest");
          src[p] = keep;
          if (!bad[b]) break; /* (the unchanged text once) */
        }
      }
    }
    free(src);
  }
  tap_group("long kernels: ASCII to the last block, then anything");

  /* The ASCII run loop (four vectors a test, after the first ASCII block of
   * a long enough input; avx512 widens it by one permutation per 32 units):
   * varied ASCII (the byte values vary from lane to lane and step to step:
   * a text of one repeated byte hides a lane taken from the wrong place),
   * every length around the run's steps, every start offset mod 64 and the
   * source ending at a PROT_NONE page, then a byte that ends the run (a
   * 2-byte character or an ill-formed byte) at positions of its last steps. */
  {
    enum { RUN_MAX = 1100 };
    static const size_t lens[] = {255, 256, 257, 319, 320, 321, 383, 384, 385, 511, 512,
                                  513, 575, 576, 577, 639, 640, 703, 767, 1023, 1024, 1100};
    static const unsigned char stop[] = {0xC3, 0xFF};
    unsigned char *src = malloc(RUN_MAX);
    unsigned char *abuf = aligned_alloc(64, (RUN_MAX + 64 + 63) / 64 * 64); /* a multiple of 64 */
    char *g = guard_alloc(RUN_MAX), *gend = g + RUN_MAX;
    size_t li, i, o, p, b;
    for (i = 0; i < RUN_MAX; i++) src[i] = (unsigned char)((i * 37 + i / 128) & 0x7F);
    for (li = 0; li < sizeof lens / sizeof lens[0]; li++) {
      size_t n = lens[li];
      memcpy(gend - n, src, n);
      check_all(gend - n, n, 0, "ASCII run, guard page");
      for (o = 0; o < 64; o++) {
        if (!test_keep(o + n, SANITIZED ? 16 : 4)) continue;
        memcpy(abuf + o, src, n);
        check_all((const char *)abuf + o, n, 0, "ASCII run, offset");
      }
      for (p = n > 320 ? n - 320 : 64; p < n; p++) {
        if (!test_keep(p * 3 + n, SANITIZED ? 24 : 6)) continue;
        for (b = 0; b < sizeof stop; b++) {
          char *t = gend - n;
          memcpy(t, src, n);
          t[p] = (char)stop[b];
          if (b == 0 && p + 1 < n) t[p + 1] = (char)0xA9;
          check_all(t, n, 0, "ASCII run, then another byte");
        }
      }
    }
    guard_free(g, RUN_MAX);
    free(src);
    free(abuf);
  }
  tap_group("ASCII runs: varied bytes, lengths around the run's steps, offsets, guard page, a stop");

  guard_free(guard, MAX_LEN);
  free(text);
  free(aligned);
  free(work);
  free(out_pub);
  free(out_ref);
}

int main(void) {
  tap_for_each_impl(suite);
  printf("# %lu conversion cases\n", cases);
  return tap_done();
}
