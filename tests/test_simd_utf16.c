/* Differential tests of the UTF-16 / UTF-32 / Latin-1 side kernels: on every
 * tier the CPU supports, each public function (dispatched to that tier) must
 * return exactly what the scalar reference kernel returns (status, read,
 * written, replaced, output bytes) and must write nothing at or after
 * dst + written. Inputs: random valid text of several scripts at every length
 * 0..MAX_LEN and every start offset 0..63 units; a single corrupted unit at
 * every position; every destination capacity from 0 to the needed size (for
 * lengths up to CAP_LEN); STRICT and REPLACE. Sources end exactly at a
 * PROT_NONE page (and start right after one), destinations end at one.
 * Each length runs every start offset 1..63 once across the scripts (see
 * offset_in_share). Long inputs check the lengths' aligning heads at every
 * offset (check_long_lengths). One input above 2^20 units checks the long-input paths
 * (length chunks) with errors at the chunk edge. The scalar tier is skipped
 * (it is the reference).
 * Corruptions: all lengths up to 100, then every 11th (every 3rd for mixed
 * text). Under AddressSanitizer the length grid is thinned (every length up to 80,
 * then every 7th) to keep the sanitized run short. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dispatch.h"
#include "internal.h"
#include "support/emulated.h"
#include "support/guard.h"
#include "tap.h"

#if defined(__SANITIZE_ADDRESS__)
#define THIN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define THIN 1
#endif
#endif
#ifndef THIN
#define THIN 0
#endif

#define MAX_LEN 300
#define MAX_OFF 64
#define CAP_LEN 100
#define MAX_OUT (4 * (MAX_LEN + MAX_OFF) + 16) /* units of any destination */
#define CANARY 0xA5

enum enc { E_UTF8, E_UTF16LE, E_UTF16BE, E_UTF32, E_LATIN1 };

static size_t unit_size(enum enc e) {
  return e == E_UTF16LE || e == E_UTF16BE ? 2 : e == E_UTF32 ? 4 : 1;
}

static enum enc enc_of(const char *name) {
  if (!strcmp(name, "utf8")) return E_UTF8;
  if (!strcmp(name, "utf16le")) return E_UTF16LE;
  if (!strcmp(name, "utf16be")) return E_UTF16BE;
  if (!strcmp(name, "utf32")) return E_UTF32;
  return E_LATIN1;
}

/* ------------------------------------------------------------ kernels */

typedef utfx_result (*conv_fn)(const void *, size_t, void *, size_t, unsigned);
typedef size_t (*len_fn)(const void *, size_t);
typedef utfx_result (*valid_fn)(const void *, size_t);

#define WRAP_CONV(from, S, to, T)                                                                \
  static utfx_result pub_##from##_##to(const void *s, size_t n, void *d, size_t c, unsigned f) { \
    return utfx_convert_##from##_to_##to((const S *)s, n, (T *)d, c, f);                         \
  }                                                                                              \
  static utfx_result ref_##from##_##to(const void *s, size_t n, void *d, size_t c, unsigned f) { \
    return utfxi_convert_##from##_to_##to##_scalar((const S *)s, n, (T *)d, c, f);               \
  }
UTFXI_CONVERSIONS(WRAP_CONV)
#undef WRAP_CONV

#define WRAP_LEN(to, from, S)                                         \
  static size_t pub_len_##to##_##from(const void *s, size_t n) {      \
    return utfx_##to##_length_from_##from((const S *)s, n);           \
  }                                                                   \
  static size_t ref_len_##to##_##from(const void *s, size_t n) {      \
    return utfxi_##to##_length_from_##from##_scalar((const S *)s, n); \
  }
UTFXI_LENGTHS(WRAP_LEN)
#undef WRAP_LEN

#define WRAP_VALID(enc, S)                                      \
  static utfx_result pub_valid_##enc(const void *s, size_t n) { \
    return utfx_validate_##enc((const S *)s, n);                \
  }                                                             \
  static utfx_result ref_valid_##enc(const void *s, size_t n) { \
    return utfxi_validate_##enc##_scalar((const S *)s, n);      \
  }
UTFXI_VALIDATIONS(WRAP_VALID)
#undef WRAP_VALID

struct conv_entry {
  const char *name;
  enum enc from, to;
  conv_fn pub, ref;
};
#define ENTRY_CONV(from, S, to, T) \
  {#from "_to_" #to, E_LATIN1, E_LATIN1, pub_##from##_##to, ref_##from##_##to},
static struct conv_entry convs[] = {UTFXI_CONVERSIONS(ENTRY_CONV)};
#undef ENTRY_CONV

struct len_entry {
  const char *name;
  enum enc from;
  len_fn pub, ref;
};
#define ENTRY_LEN(to, from, S) \
  {#to "_length_from_" #from, E_LATIN1, pub_len_##to##_##from, ref_len_##to##_##from},
static struct len_entry lens[] = {UTFXI_LENGTHS(ENTRY_LEN)};
#undef ENTRY_LEN

struct valid_entry {
  const char *name;
  enum enc from;
  valid_fn pub, ref;
};
#define ENTRY_VALID(enc, S) {#enc, E_LATIN1, pub_valid_##enc, ref_valid_##enc},
static struct valid_entry valids[] = {UTFXI_VALIDATIONS(ENTRY_VALID)};
#undef ENTRY_VALID

static void init_tables(void) {
  size_t i;
  for (i = 0; i < sizeof convs / sizeof convs[0]; i++) {
    char from[16], to[16];
    const char *sep = strstr(convs[i].name, "_to_");
    size_t k = (size_t)(sep - convs[i].name);
    memcpy(from, convs[i].name, k);
    from[k] = 0;
    strcpy(to, sep + 4);
    convs[i].from = enc_of(from);
    convs[i].to = enc_of(to);
  }
  for (i = 0; i < sizeof lens / sizeof lens[0]; i++)
    lens[i].from = enc_of(strstr(lens[i].name, "_from_") + 6);
  for (i = 0; i < sizeof valids / sizeof valids[0]; i++)
    valids[i].from = !strcmp(valids[i].name, "ascii") ? E_UTF8 : enc_of(valids[i].name);
}

/* ------------------------------------------------------------ text */

enum script { S_ASCII, S_LATIN1, S_TWO, S_CJK, S_EMOJI, S_MIXED, S_COUNT };
static const char *const script_names[S_COUNT] = {"ascii", "latin1", "2-byte",
                                                  "cjk",   "emoji",  "mixed"};

static test_rng rng;

static uint32_t random_cp(enum script s) {
  static const uint32_t edges[] = {0,        0x7F,    0x80,   0xFF,   0x100,  0x7FF,
                                   0x800,    0xD7FF,  0xE000, 0xFFFD, 0xFFFF, 0x10000,
                                   0x10FFFF, 0x1F600, 0x20AC, 0x4E2D};
  uint64_t r = rng_below(&rng, 100);
  switch (s) {
    case S_ASCII:
      return (uint32_t)rng_below(&rng, 0x80);
    case S_LATIN1:
      return (uint32_t)rng_below(&rng, 0x100);
    case S_TWO:
      return r < 20 ? 0x20 : 0x80 + (uint32_t)rng_below(&rng, 0x780);
    case S_CJK:
      return r < 10 ? 0x20 + (uint32_t)rng_below(&rng, 0x5F)
                    : 0x4E00 + (uint32_t)rng_below(&rng, 0x5200);
    case S_EMOJI:
      return r < 20 ? 0x20 : 0x1F300 + (uint32_t)rng_below(&rng, 0x800);
    default:
      if (r < 20) return edges[rng_below(&rng, sizeof edges / sizeof edges[0])];
      if (r < 40) return (uint32_t)rng_below(&rng, 0x80);
      if (r < 55) return 0x80 + (uint32_t)rng_below(&rng, 0x780);
      if (r < 75) return 0x800 + (uint32_t)rng_below(&rng, 0xD000);
      if (r < 85) return 0xE000 + (uint32_t)rng_below(&rng, 0x2000);
      return 0x10000 + (uint32_t)rng_below(&rng, 0x100000);
  }
}

static void put16(unsigned char *p, uint32_t v, int be) {
  p[be ? 1 : 0] = (unsigned char)(v & 0xFF);
  p[be ? 0 : 1] = (unsigned char)(v >> 8);
}

/* Fills buf with exactly n units of valid text in encoding e. */
static void gen_text(unsigned char *buf, size_t n, enum enc e, enum script s) {
  size_t i = 0;
  while (i < n) {
    uint32_t c = random_cp(s);
    switch (e) {
      case E_UTF16LE:
      case E_UTF16BE:
        if (c >= 0x10000 && i + 1 < n) {
          put16(buf + 2 * i, 0xD800 + ((c - 0x10000) >> 10), e == E_UTF16BE);
          put16(buf + 2 * i + 2, 0xDC00 + (c & 0x3FF), e == E_UTF16BE);
          i += 2;
          continue;
        }
        if (c >= 0x10000) c = 0x4E00 + (c & 0xFF);
        put16(buf + 2 * i, c, e == E_UTF16BE);
        break;
      case E_UTF32: {
        uint32_t v = c;
        memcpy(buf + 4 * i, &v, 4);
        break;
      }
      default:
        buf[i] = (unsigned char)c;
        break;
    }
    i++;
  }
}

/* Replaces unit p (and for kind 2 also p + 1) with an ill-formed value. */
static int corrupt(unsigned char *buf, size_t n, size_t p, enum enc e, int kind) {
  uint32_t r = (uint32_t)rng_below(&rng, 0x400);
  if (e == E_UTF16LE || e == E_UTF16BE) {
    int be = e == E_UTF16BE;
    if (kind == 0) put16(buf + 2 * p, 0xD800 + r, be);
    if (kind == 1) put16(buf + 2 * p, 0xDC00 + r, be);
    if (kind == 2) {
      if (p + 1 >= n) return 0;
      put16(buf + 2 * p, 0xDC00 + r, be);
      put16(buf + 2 * p + 2, 0xD800 + r, be);
    }
    return kind <= 2;
  }
  if (e == E_UTF32) {
    uint32_t v = kind == 0 ? 0xD800 + 2 * r : kind == 1 ? 0x110000 + r * 977 : 0xFFFFFFFFu;
    memcpy(buf + 4 * p, &v, 4);
    return kind <= 2;
  }
  return 0;
}

/* ------------------------------------------------------------ buffers */

static unsigned char *src_guard_end, *src_guard_front, *dst_guard, *aligned_src;
static unsigned char out_pub[MAX_OUT * 4 + 64], out_ref[MAX_OUT * 4 + 64];
/* Units of the validation inputs long enough for the kernels' aligned loops
 * (a scalar head up to the first vector-aligned unit). */
#define HEAD_LEN 1100
#define SRC_BYTES (4 * (HEAD_LEN + MAX_OFF) + 64)
#define DST_BYTES (4 * MAX_OUT)

static const char *cur_name;
static const char *cur_script;
static int cur_script_index;

/* Each length runs every start offset 1..63 once over the scripts: script s
 * takes the offsets congruent to s + n modulo the number of scripts, so
 * every (length, offset) pair is covered and each script sees many offsets. */
static int offset_in_share(size_t off, size_t n) {
  return cur_script_index < 0 || (off + n) % S_COUNT == (size_t)cur_script_index;
}

static void compare_conv(const struct conv_entry *k, const void *src, size_t n, void *dst,
                         size_t cap, unsigned flags, const char *where) {
  size_t du = unit_size(k->to), j;
  utfx_result a, b;
  unsigned char *d = dst;
  memset(d, CANARY, cap * du);
  memset(out_ref, CANARY, cap * du);
  a = k->pub(src, n, d, cap, flags);
  b = k->ref(src, n, out_ref, cap, flags);
  CHECK(a.status == b.status && a.read == b.read && a.written == b.written &&
            a.replaced == b.replaced,
        "%s %s %s n=%zu cap=%zu flags=%u: got (%d,%zu,%zu,%zu) want (%d,%zu,%zu,%zu)", cur_name,
        cur_script, where, n, cap, flags, a.status, a.read, a.written, a.replaced, b.status, b.read,
        b.written, b.replaced);
  if (a.written != b.written || a.written > cap) return;
  CHECK(memcmp(d, out_ref, a.written * du) == 0, "%s %s %s n=%zu cap=%zu flags=%u: output",
        cur_name, cur_script, where, n, cap, flags);
  for (j = a.written * du; j < cap * du; j++)
    if (d[j] != CANARY) break;
  CHECK(j == cap * du, "%s %s %s n=%zu cap=%zu flags=%u: wrote at %zu >= written %zu", cur_name,
        cur_script, where, n, cap, flags, j / du, a.written);
}

/* Runs every check of one conversion kernel on the n units at text. */
static void check_conv_text(const struct conv_entry *k, const unsigned char *text, size_t n,
                            int offsets, int caps) {
  size_t su = unit_size(k->from), du = unit_size(k->to), off, cap, need;
  unsigned flags;
  void *src;
  for (flags = 0; flags <= 1; flags++) {
    utfx_result full = k->ref(text, n, out_ref, MAX_OUT, flags);
    size_t roomy;
    need = full.written;
    roomy = need + 8 + (size_t)rng_below(&rng, 3 * n + 1); /* sometimes >= 3n: unchecked */
    /* input against the end guard and the front guard, destination roomy */
    src = src_guard_end + SRC_BYTES - n * su;
    memcpy(src, text, n * su);
    compare_conv(k, src, n, out_pub, roomy, flags, "guard-end");
    compare_conv(k, src, n, out_pub, 3 * n, flags, "cap-3n");
    src = src_guard_front;
    memcpy(src, text, n * su);
    compare_conv(k, src, n, out_pub, roomy, flags, "guard-front");
    if (offsets) {
      for (off = 1; off < MAX_OFF; off++) {
        if (!offset_in_share(off, n)) continue;
        src = aligned_src + off * su;
        memcpy(src, text, n * su);
        compare_conv(k, src, n, out_pub, roomy, flags, "offset");
      }
    }
    src = src_guard_end + SRC_BYTES - n * su;
    if (caps) {
      for (cap = 0; cap <= need + 1; cap++)
        compare_conv(k, src, n, dst_guard + DST_BYTES - cap * du, cap, flags, "cap");
    } else {
      /* exact fit and one short */
      for (cap = need > 1 ? need - 1 : 0; cap <= need; cap++)
        compare_conv(k, src, n, dst_guard + DST_BYTES - cap * du, cap, flags, "cap-near");
    }
  }
}

static void check_len_text(const struct len_entry *k, const unsigned char *text, size_t n,
                           int offsets) {
  size_t su = unit_size(k->from), off, want = k->ref(text, n);
  void *src = src_guard_end + SRC_BYTES - n * su;
  memcpy(src, text, n * su);
  CHECK(k->pub(src, n) == want, "%s %s n=%zu: got %zu want %zu", k->name, cur_script, n,
        k->pub(src, n), want);
  if (!offsets) return;
  for (off = 1; off < MAX_OFF; off++) {
    if (!offset_in_share(off, n)) continue;
    src = aligned_src + off * su;
    memcpy(src, text, n * su);
    CHECK(k->pub(src, n) == want, "%s %s n=%zu off=%zu", k->name, cur_script, n, off);
  }
}

static void check_valid_text(const struct valid_entry *k, const unsigned char *text, size_t n,
                             int offsets) {
  size_t su = unit_size(k->from), off;
  utfx_result want = k->ref(text, n), got;
  void *src = src_guard_end + SRC_BYTES - n * su;
  memcpy(src, text, n * su);
  got = k->pub(src, n);
  CHECK(got.status == want.status && got.read == want.read,
        "validate %s %s n=%zu: (%d,%zu) want (%d,%zu)", k->name, cur_script, n, got.status,
        got.read, want.status, want.read);
  if (!offsets) return;
  for (off = 1; off < MAX_OFF; off++) {
    if (!offset_in_share(off, n)) continue;
    src = aligned_src + off * su;
    memcpy(src, text, n * su);
    got = k->pub(src, n);
    CHECK(got.status == want.status && got.read == want.read, "validate %s %s n=%zu off=%zu",
          k->name, cur_script, n, off);
  }
}

static void check_repair_text(enum enc e, const unsigned char *text, size_t n) {
  int be = e == E_UTF16BE;
  unsigned char *src = src_guard_end + SRC_BYTES - 2 * n, *dst = dst_guard + DST_BYTES - 2 * n;
  memcpy(src, text, 2 * n);
  (be ? utfxi_to_well_formed_utf16be_scalar : utfxi_to_well_formed_utf16le_scalar)(
      (const char16_t *)text, n, (char16_t *)out_ref);
  memset(dst, CANARY, 2 * n);
  (be ? utfx_to_well_formed_utf16be : utfx_to_well_formed_utf16le)((const char16_t *)src, n,
                                                                   (char16_t *)dst);
  CHECK(memcmp(dst, out_ref, 2 * n) == 0, "to_well_formed %s %s n=%zu out of place",
        be ? "be" : "le", cur_script, n);
  CHECK(memcmp(src, text, 2 * n) == 0, "to_well_formed source modified");
  (be ? utfx_to_well_formed_utf16be : utfx_to_well_formed_utf16le)((const char16_t *)src, n,
                                                                   (char16_t *)src);
  CHECK(memcmp(src, out_ref, 2 * n) == 0, "to_well_formed %s %s n=%zu in place", be ? "be" : "le",
        cur_script, n);
  { /* the counted repair (the WHATWG decoder's): the same units, and as many
     * replaced as units changed (a replaced unit is a surrogate, never U+FFFD) */
    const struct utfxi_kernels *k = utfxi_active();
    size_t want = 0, i, got;
    for (i = 0; i < 2 * n; i += 2) want += memcmp(text + i, out_ref + i, 2) != 0;
    memcpy(src, text, 2 * n);
    memset(dst, CANARY, 2 * n);
    got = (be ? k->repair_utf16be : k->repair_utf16le)((const char16_t *)src, n, (char16_t *)dst);
    CHECK(got == want && memcmp(dst, out_ref, 2 * n) == 0, "repair %s %s n=%zu: %zu want %zu",
          be ? "be" : "le", cur_script, n, got, want);
    got = (be ? utfxi_repair_utf16be_scalar : utfxi_repair_utf16le_scalar)(
        (const char16_t *)text, n, (char16_t *)dst);
    CHECK(got == want, "repair scalar %s %s n=%zu: %zu want %zu", be ? "be" : "le", cur_script,
          n, got, want);
  }
}

/* ------------------------------------------------------------ driver */

/* Under emulation (support/emulated.h) every fifth length, and the shortest. */
static int length_in_grid(size_t n) {
  return (!THIN || n <= 80 || n % 7 == 0) && (n <= 8 || test_keep(n, 5));
}

static unsigned char text[SRC_BYTES], work[SRC_BYTES];

static void run_all_on(enum enc e, const unsigned char *t, size_t n, int offsets, int caps) {
  size_t i;
  for (i = 0; i < sizeof convs / sizeof convs[0]; i++) {
    if (convs[i].from != e) continue;
    cur_name = convs[i].name;
    check_conv_text(&convs[i], t, n, offsets, caps);
  }
  for (i = 0; i < sizeof lens / sizeof lens[0]; i++)
    if (lens[i].from == e) check_len_text(&lens[i], t, n, offsets);
  for (i = 0; i < sizeof valids / sizeof valids[0]; i++)
    if (valids[i].from == e) check_valid_text(&valids[i], t, n, offsets);
  if (e == E_UTF16LE || e == E_UTF16BE) check_repair_text(e, t, n);
}

/* One input of BIG units (past the length functions' 2^20-unit chunks),
 * mixed text with ill-formed units around the chunk edge: every kernel of
 * the source encoding, roomy, exact and one-short destinations. */
#define BIG (((size_t)1 << 20) + 777)

static void check_big(enum enc e) {
  size_t su = unit_size(e), i, j, k;
  unsigned char *src = guard_alloc(BIG * su);
  unsigned char *a = malloc(4 * BIG + 64), *b = malloc(4 * BIG + 64);
  cur_script = "big";
  gen_text(src, BIG, e, e == E_LATIN1 ? S_LATIN1 : S_MIXED);
  for (k = 0; k < 2; k++) {
    if (k == 1) { /* second round: errors around the chunk edge */
      if (e == E_LATIN1) break;
      for (j = ((size_t)1 << 20) - 3; j < ((size_t)1 << 20) + 3; j += 2) corrupt(src, BIG, j, e, 0);
    }
    for (i = 0; i < sizeof convs / sizeof convs[0]; i++) {
      const struct conv_entry *c = &convs[i];
      size_t du = unit_size(c->to), caps[3], ci;
      unsigned flags;
      if (c->from != e) continue;
      for (flags = 0; flags <= 1; flags++) {
        utfx_result want = c->ref(src, BIG, b, 4 * BIG / du, flags);
        caps[0] = 4 * BIG / du;
        caps[1] = want.written;
        caps[2] = want.written ? want.written - 1 : 0;
        for (ci = 0; ci < 3; ci++) {
          utfx_result x;
          if (test_emulated() && ci < 2) continue; /* emulated: the one-short cap only */
          x = c->pub(src, BIG, a, caps[ci], flags);
          utfx_result y = c->ref(src, BIG, b, caps[ci], flags);
          CHECK(x.status == y.status && x.read == y.read && x.written == y.written &&
                    x.replaced == y.replaced && memcmp(a, b, x.written * du) == 0,
                "%s big round %zu cap %zu flags %u", c->name, k, caps[ci], flags);
        }
      }
    }
    for (i = 0; i < sizeof lens / sizeof lens[0]; i++)
      if (lens[i].from == e)
        CHECK(lens[i].pub(src, BIG) == lens[i].ref(src, BIG), "%s big round %zu", lens[i].name, k);
    for (i = 0; i < sizeof valids / sizeof valids[0]; i++) {
      if (valids[i].from != e) continue;
      {
        utfx_result x = valids[i].pub(src, BIG), y = valids[i].ref(src, BIG);
        CHECK(x.status == y.status && x.read == y.read, "validate %s big", valids[i].name);
      }
    }
    if (e == E_UTF16LE || e == E_UTF16BE) {
      int be = e == E_UTF16BE;
      (be ? utfx_to_well_formed_utf16be : utfx_to_well_formed_utf16le)((const char16_t *)src, BIG,
                                                                       (char16_t *)a);
      (be ? utfxi_to_well_formed_utf16be_scalar : utfxi_to_well_formed_utf16le_scalar)(
          (const char16_t *)src, BIG, (char16_t *)b);
      CHECK(memcmp(a, b, 2 * BIG) == 0, "to_well_formed big");
      CHECK((be ? utfxi_active()->repair_utf16be : utfxi_active()->repair_utf16le)(
                (const char16_t *)src, BIG, (char16_t *)a) ==
                (be ? utfxi_repair_utf16be_scalar : utfxi_repair_utf16le_scalar)(
                    (const char16_t *)src, BIG, (char16_t *)b) &&
                memcmp(a, b, 2 * BIG) == 0,
            "repair big");
    }
  }
  free(a);
  free(b);
  guard_free(src, BIG * su);
}

/* The UTF-16 lengths of long inputs (from UTFXI_ALIGN_HEAD_BYTES) count a
 * scalar head up to the first vector-aligned unit, which ends at a different
 * unit for each start offset and vector width (at most 32 units in): at
 * every offset, a pair, a lone high, a lone low and high-high-low planted in
 * ASCII at every position of the first LONG_AT units, against the scalar
 * kernels (and their lone-surrogate flag). */
#define LONG_LEN (UTFXI_ALIGN_HEAD_BYTES / 2 + 100)
#define LONG_AT 40
_Static_assert(2 * (LONG_LEN + MAX_OFF) <= SRC_BYTES, "long inputs fit the source buffers");

static void check_long_lengths(enum enc e) {
  static const uint32_t plants[4][3] = {
      {0xD83D, 0xDE00, 'a'}, {0xD83D, 'a', 'a'}, {'a', 0xDE00, 'a'}, {0xD83D, 0xD83D, 0xDE00}};
  int be = e == E_UTF16BE, kind;
  size_t p, i, off, j;
  cur_script = "long";
  for (p = 0; p < LONG_AT; p++) {
    for (kind = 0; kind < 4; kind++) {
      size_t want[8], got, nl = 0;
      int lone = -1, flag;
      const unsigned char *src;
      if (!test_keep(p * 4 + (size_t)kind, 4)) continue;
      gen_text(text, LONG_LEN, e, S_MIXED);
      for (j = 0; j < LONG_AT + 4; j++) put16(text + 2 * j, 'a', be);
      for (j = 0; j < 3; j++) put16(text + 2 * (p + j), plants[kind][j], be);
      for (i = 0; i < sizeof lens / sizeof lens[0]; i++)
        if (lens[i].from == e) want[nl++] = lens[i].ref(text, LONG_LEN);
      want[nl] = (be ? utfxi_utf8_length_from_utf16be_with_surrogates_scalar
                     : utfxi_utf8_length_from_utf16le_with_surrogates_scalar)(
          (const char16_t *)text, LONG_LEN, &lone);
      for (off = 0; off < MAX_OFF; off++) {
        src = aligned_src + 2 * off;
        memcpy(aligned_src + 2 * off, text, 2 * LONG_LEN);
        for (i = 0, j = 0; i < sizeof lens / sizeof lens[0]; i++) {
          if (lens[i].from != e) continue;
          got = lens[i].pub(src, LONG_LEN);
          CHECK(got == want[j], "%s long, plant %d at %zu, off=%zu: got %zu want %zu",
                lens[i].name, kind, p, off, got, want[j]);
          j++;
        }
        flag = -1;
        got = (be ? utfx_utf8_length_from_utf16be_with_surrogates
                  : utfx_utf8_length_from_utf16le_with_surrogates)((const char16_t *)src,
                                                                   LONG_LEN, &flag);
        CHECK(got == want[nl] && flag == lone,
              "utf8_length_with_surrogates %s long, plant %d at %zu, off=%zu: %zu/%d want %zu/%d",
              be ? "be" : "le", kind, p, off, got, flag, want[nl], lone);
      }
    }
  }
}

/* The UTF-8 length of long text without surrogates screens whole runs of
 * steps once (after a first screened run) and, when that screen fires,
 * screens the run's steps again and the next runs step by step: a pair, a
 * lone high, a lone low, or one of each every 3000 units from a point, planted
 * in two-byte text past the first run and across the later runs' ends; and
 * (kind 4) 1500 ASCII units (0x00-0x7F) from a point, a pair after them:
 * runs after one without an ASCII step count ASCII steps untested. */
#define RUNS_LEN 30000
static void check_run_screens(enum enc e) {
  static const size_t starts[] = {900, 1030, 2100, 8190, 9100, 17000, 26000, 29990};
  static const uint32_t plants[3][2] = {{0xD83D, 0xDE00}, {0xD83D, 0x044F}, {0x044F, 0xDE00}};
  int be = e == E_UTF16BE, kind, lone, flag;
  size_t si, j, off, want, wantl, got;
  char16_t *buf = malloc(2 * (RUNS_LEN + 8)), *t;
  if (!buf) return;
  cur_script = "runs";
  for (si = 0; si < sizeof starts / sizeof starts[0]; si++)
    for (kind = 0; kind < 5; kind++)
      for (off = 0; off < 2; off++) {
        t = buf + off;
        for (j = 0; j < RUNS_LEN; j++) put16((unsigned char *)(t + j), j % 7 ? 0x044F : ' ', be);
        for (j = starts[si]; kind == 4 && j < starts[si] + 1500 && j < RUNS_LEN; j++)
          put16((unsigned char *)(t + j), (unsigned)(j * 37 % 128), be);
        for (j = starts[si] + (kind == 4 ? 1500 : 0); j + 1 < RUNS_LEN; j += kind == 3 ? 3000 : RUNS_LEN) {
          put16((unsigned char *)(t + j), plants[kind % 4 % 3][0], be);
          put16((unsigned char *)(t + j + 1), plants[kind % 4 % 3][1], be);
        }
        lone = -1;
        want = (be ? utfxi_utf8_length_from_utf16be_scalar : utfxi_utf8_length_from_utf16le_scalar)(t, RUNS_LEN);
        wantl = (be ? utfxi_utf8_length_from_utf16be_with_surrogates_scalar
                    : utfxi_utf8_length_from_utf16le_with_surrogates_scalar)(t, RUNS_LEN, &lone);
        got = (be ? utfx_utf8_length_from_utf16be : utfx_utf8_length_from_utf16le)(t, RUNS_LEN);
        CHECK(got == want, "utf8_length runs %s, plant %d from %zu, off=%zu: got %zu want %zu",
              be ? "be" : "le", kind, starts[si], off, got, want);
        flag = -1;
        got = (be ? utfx_utf8_length_from_utf16be_with_surrogates
                  : utfx_utf8_length_from_utf16le_with_surrogates)(t, RUNS_LEN, &flag);
        CHECK(got == wantl && flag == lone,
              "utf8_length_with_surrogates runs %s, plant %d from %zu, off=%zu: %zu/%d want %zu/%d",
              be ? "be" : "le", kind, starts[si], off, got, flag, wantl, lone);
      }
  free(buf);
}

/* A lone high surrogate, then a gap of units without surrogates (two-byte
 * or ASCII), then a lone low one, in the UTF-8 length's step-screened runs
 * (a pair and lone units every 500 units before keep them screened step by
 * step): a high carried from the last step with surrogates must not pair a
 * low one steps later. Every position of the high over 256 units, gaps of 1
 * unit to past two steps of 128 units, at offsets 0-1. */
#define CARRY_LEN 6000
static void check_carried_highs(enum enc e) {
  static const size_t gaps[] = {1, 2, 65, 127, 128, 129, 130, 257, 385};
  int be = e == E_UTF16BE;
  size_t p, gi, j, off, fill, want, got;
  char16_t *buf = malloc(2 * (CARRY_LEN + 8)), *t;
  if (!buf) return;
  cur_script = "carry";
  for (fill = 0; fill < 2; fill++)
    for (off = 0; off < 2; off++)
      for (gi = 0; gi < sizeof gaps / sizeof gaps[0]; gi++)
        for (p = 3000; p < 3256; p++) {
          t = buf + off;
          for (j = 0; j < CARRY_LEN; j++) put16((unsigned char *)(t + j), fill ? 'a' : 0x044F, be);
          for (j = 100; j + 2 < 2900; j += 500) {
            put16((unsigned char *)(t + j), 0xD83D, be);
            put16((unsigned char *)(t + j + 1), 0xDE00, be);
            put16((unsigned char *)(t + j + 250), j % 1000 ? 0xD83D : 0xDE00, be);
          }
          put16((unsigned char *)(t + p), 0xD83D, be);
          put16((unsigned char *)(t + p + gaps[gi]), 0xDE00, be);
          want = (be ? utfxi_utf8_length_from_utf16be_scalar : utfxi_utf8_length_from_utf16le_scalar)(t, CARRY_LEN);
          got = (be ? utfx_utf8_length_from_utf16be : utfx_utf8_length_from_utf16le)(t, CARRY_LEN);
          CHECK(got == want, "utf8_length carry %s, high at %zu, gap %zu, fill %zu, off=%zu: got %zu want %zu",
                be ? "be" : "le", p, gaps[gi], fill, off, got, want);
        }
  free(buf);
}

/* The lengths of long inputs (2,048 units and more: on avx512 a function
 * of their own, which counts surrogate-dense blocks at their lows with the
 * last block's highs carried): random stretches of two-byte text and of
 * dense text (pairs, with lone highs and lows, pairs across every block
 * edge by chance), at offsets 0-1, against the scalar kernels. */
#define DENSE_MAX 3300
static void check_dense_lengths(enum enc e) {
  int be = e == E_UTF16BE;
  size_t t, j, off, i, len, end;
  char16_t *buf = malloc(2 * (DENSE_MAX + 8));
  if (!buf) return;
  cur_script = "dense";
  for (t = 0; t < 400; t++) {
    if (!test_keep(t, 8)) continue;
    len = 2048 + (size_t)rng_below(&rng, DENSE_MAX - 2048);
    for (j = 0; j < len;) {
      int dense = (int)rng_below(&rng, 3) != 0;
      end = j + 1 + (size_t)rng_below(&rng, t % 2 ? 40 : 700);
      for (; j < end && j < len; j++) {
        unsigned r = (unsigned)rng_below(&rng, 64), u;
        if (!dense) u = r ? 0x044F : 'a';
        else if (r < 2) u = 0xD83D; /* lone, or the high of a pair by chance */
        else if (r < 4) u = 0xDE00;
        else if (r < 10) u = 0x044F;
        else {
          if (j + 1 < len) put16((unsigned char *)(buf + 2 + j + 1), 0xDE00, be);
          u = 0xD83D;
          put16((unsigned char *)(buf + 2 + j), u, be);
          j++;
          continue;
        }
        put16((unsigned char *)(buf + 2 + j), u, be);
      }
    }
    for (off = 0; off < 2; off++) {
      const char16_t *src = buf + 2 - off;
      if (off) memmove(buf + 1, buf + 2, 2 * len);
      for (i = 0; i < sizeof lens / sizeof lens[0]; i++) {
        size_t got, want;
        if (lens[i].from != e) continue;
        got = lens[i].pub(src, len);
        want = lens[i].ref(src, len);
        CHECK(got == want, "%s dense, trial %zu n=%zu off=%zu: got %zu want %zu", lens[i].name, t,
              len, off, got, want);
      }
    }
  }
  free(buf);
}

/* UTF-16 -> UTF-32 of s (len units) by kernel k against the scalar one,
 * STRICT and REPLACE, destinations roomy, exact and one short: d (inside
 * a, which holds len + 32 values) and b (len + 8). */
static void check_utf32_caps(const struct conv_entry *k, const char16_t *s, size_t len,
                             char32_t *a, char32_t *d, char32_t *b, int kind, size_t p, size_t off) {
  unsigned flags;
  size_t ci, j;
  for (flags = 0; flags <= 1; flags++) {
    utfx_result want = k->ref(s, len, b, len + 8, flags), x, y;
    size_t caps[3];
    caps[0] = len + 8;
    caps[1] = want.written;
    caps[2] = want.written ? want.written - 1 : 0;
    for (ci = 0; ci < 3; ci++) {
      memset(a, CANARY, 4 * (len + 32));
      x = k->pub(s, len, d, caps[ci], flags);
      y = k->ref(s, len, b, caps[ci], flags);
      for (j = x.written; j < caps[ci]; j++)
        if (d[j] != (char32_t)0xA5A5A5A5u) break;
      CHECK(x.status == y.status && x.read == y.read && x.written == y.written &&
                x.replaced == y.replaced && memcmp(d, b, 4 * y.written) == 0 && j == caps[ci],
            "%s n=%zu, plant %d at %zu, off=%zu cap=%zu flags=%u: got (%d,%zu,%zu,%zu) "
            "want (%d,%zu,%zu,%zu), canary to %zu",
            k->name, len, kind, p, off, caps[ci], flags, x.status, x.read, x.written, x.replaced,
            y.status, y.read, y.written, y.replaced, j);
    }
  }
}

/* UTF-16 -> UTF-32 of long inputs (from UTFXI_ALIGN_HEAD_BYTES: a head that
 * aligns the destination, then runs without surrogates that must stop at
 * the vector with surrogates, whatever their step). A pair, a lone high, a lone
 * low and high-high-low planted in two-byte text at every position of the
 * first units, around the middle and at the end, at start offsets 0-3
 * (source and destination), STRICT and REPLACE, destinations roomy, exact
 * and one short, against the scalar kernels. */
#define LONG32_LEN (UTFXI_ALIGN_HEAD_BYTES / 2 + 77)
static void check_long_to_utf32(enum enc e) {
  static const uint32_t plants[4][3] = {
      {0xD83D, 0xDE00, 'a'}, {0xD83D, 0x044F, 'a'}, {'a', 0xDE00, 'a'}, {0xD83D, 0xD83D, 0xDE00}};
  const struct conv_entry *k = NULL;
  int be = e == E_UTF16BE, kind;
  size_t i, p, off, j;
  unsigned char *buf = malloc(2 * LONG32_LEN + 64);
  char32_t *a = malloc(4 * (LONG32_LEN + 32)), *b = malloc(4 * (LONG32_LEN + 32));
  for (i = 0; i < sizeof convs / sizeof convs[0]; i++)
    if (convs[i].from == e && convs[i].to == E_UTF32) k = &convs[i];
  if (!buf || !a || !b || !k) {
    CHECK(0, "check_long_to_utf32: no memory or no kernel");
    goto done;
  }
  for (p = 0; p + 3 <= LONG32_LEN; p++) {
    if (p >= 130 && (p < 1000 || p >= 1040) && p + 80 < LONG32_LEN) continue;
    for (kind = 0; kind < 4; kind++) {
      if (!test_keep(p * 4 + (size_t)kind, 4)) continue;
      for (off = 0; off < 4; off++) {
        const char16_t *s = (const char16_t *)(buf + 2 * off);
        char32_t *d = a + (off * 5) % 16;
        for (j = 0; j < LONG32_LEN; j++) put16(buf + 2 * (off + j), j % 7 ? 0x044F : ' ', be);
        for (j = 0; j < 3; j++) put16(buf + 2 * (off + p + j), plants[kind][j], be);
        check_utf32_caps(k, s, LONG32_LEN, a, d, b, kind, p, off);
      }
    }
  }
done:
  free(buf);
  free(a);
  free(b);
}

/* UTF-16 -> UTF-32 around the x86 entries' length for long calls (2,048
 * units, a kernel of its own on avx512: after its first run stops at a
 * surrogate, runs go one vector a step): lengths just below, at and above
 * it; a first pair stops the first run near the start, then a pair, a lone
 * high, a lone low or high-high-low at every position of the next 130
 * units (two vectors' runs' worth on every width, so each unit of a
 * one-vector run's test) and of the last 70, offsets 0-1, in two-byte text
 * against the scalar kernel. */
static void check_long_runs_to_utf32(enum enc e) {
  static const size_t lens32[] = {2047, 2048, 2049, 2200};
  static const size_t firsts[] = {5, 70};
  static const uint32_t plants[4][3] = {
      {0xD83D, 0xDE00, 'a'}, {0xD83D, 0x044F, 'a'}, {'a', 0xDE00, 'a'}, {0xD83D, 0xD83D, 0xDE00}};
  const struct conv_entry *k = NULL;
  int be = e == E_UTF16BE, kind;
  size_t i, li, fi, p, off, j, len, q;
  unsigned char *buf = malloc(2 * 2200 + 64);
  char32_t *a = malloc(4 * (2200 + 32)), *b = malloc(4 * (2200 + 32));
  for (i = 0; i < sizeof convs / sizeof convs[0]; i++)
    if (convs[i].from == e && convs[i].to == E_UTF32) k = &convs[i];
  if (!buf || !a || !b || !k) {
    CHECK(0, "check_long_runs_to_utf32: no memory or no kernel");
    goto done;
  }
  for (li = 0; li < sizeof lens32 / sizeof lens32[0]; li++)
    for (fi = 0; fi < sizeof firsts / sizeof firsts[0]; fi++) {
      len = lens32[li];
      q = firsts[fi];
      for (p = q + 2; p + 3 <= len; p++) {
        if (p >= q + 132 && p + 70 < len) continue;
        for (kind = 0; kind < 4; kind++) {
          if (!test_keep(p * 4 + (size_t)kind, 4)) continue;
          for (off = 0; off < 2; off++) {
            const char16_t *s = (const char16_t *)(buf + 2 * off);
            for (j = 0; j < len; j++) put16(buf + 2 * (off + j), j % 7 ? 0x044F : ' ', be);
            put16(buf + 2 * (off + q), 0xD83D, be);
            put16(buf + 2 * (off + q + 1), 0xDE00, be);
            for (j = 0; j < 3; j++) put16(buf + 2 * (off + p + j), plants[kind][j], be);
            check_utf32_caps(k, s, len, a, a + (off * 5) % 16, b, kind, p, off);
          }
        }
      }
    }
done:
  free(buf);
  free(a);
  free(b);
}

/* UTF-16 -> UTF-32 of long inputs with runs of pairs (emoji in long text:
 * on avx512 the long calls' big-endian kernel works on the units as they lie
 * in memory, so its pair lanes and paired stores differ from the other
 * forms'): 120 pairs after the first units or up to the end, on both
 * parities, in two-byte text, each of their units in turn made a lone high,
 * a lone low or a BMP unit, offsets 0-1, against the scalar kernel. */
#define LONGP_LEN 2200
#define LONGP_PAIRS 120
static void check_long_pairs_to_utf32(enum enc e) {
  static const uint32_t plants[4] = {0, 0xD83D, 0xDE00, 'a'};
  const struct conv_entry *k = NULL;
  int be = e == E_UTF16BE, kind;
  size_t i, qi, p, off, j, q, len;
  unsigned char *buf = malloc(2 * (LONGP_LEN + 1) + 64);
  char32_t *a = malloc(4 * (LONGP_LEN + 1 + 32)), *b = malloc(4 * (LONGP_LEN + 1 + 32));
  for (i = 0; i < sizeof convs / sizeof convs[0]; i++)
    if (convs[i].from == e && convs[i].to == E_UTF32) k = &convs[i];
  if (!buf || !a || !b || !k) {
    CHECK(0, "check_long_pairs_to_utf32: no memory or no kernel");
    goto done;
  }
  for (qi = 0; qi < 4; qi++) {
    /* the pairs from unit 5 or 6, or up to the end of 2,200 or 2,201 units */
    len = LONGP_LEN + (qi == 3);
    q = qi < 2 ? 5 + qi : len - 2 * LONGP_PAIRS;
    for (p = q; p < q + 2 * LONGP_PAIRS; p++)
      for (kind = 0; kind < 4; kind++) {
        if (kind == 0 ? p != q : !test_keep(p * 4 + (size_t)kind, 4)) continue;
        for (off = 0; off < 2; off++) {
          const char16_t *s = (const char16_t *)(buf + 2 * off);
          for (j = 0; j < len; j++) put16(buf + 2 * (off + j), j % 7 ? 0x044F : ' ', be);
          for (j = 0; j < LONGP_PAIRS; j++) {
            put16(buf + 2 * (off + q + 2 * j), 0xD83D, be);
            put16(buf + 2 * (off + q + 2 * j + 1), 0xDE00 + (uint32_t)j, be);
          }
          if (kind) put16(buf + 2 * (off + p), plants[kind], be);
          check_utf32_caps(k, s, len, a, a + (off * 5) % 16, b, kind, p, off);
        }
      }
  }
done:
  free(buf);
  free(a);
  free(b);
}

/* UTF-16 -> UTF-32 of long mixed text (runs of two-byte units and runs of
 * pairs, their lengths random, so that runs switch at every unit of a
 * vector and a pair straddles every step's end: on avx512 the long calls'
 * steps of one vector write V16_UNITS - 1 units each and carry a low half
 * written into the next step): lengths from the long-call length on, seeds
 * 0-7, each text valid (caps roomy, exact, one short) and with a lone high,
 * a lone low or a BMP unit over a pair's half in turn at each unit of its
 * first 200, middle 200 and last 100; sources ending 0-3 units before a
 * PROT_NONE page, STRICT and REPLACE, against the scalar kernel. */
#define LMIX_MAX 2600
static void check_long_mixed_to_utf32(enum enc e) {
  static const size_t lens_[] = {2048, 2111, LMIX_MAX};
  static const uint32_t plants[3] = {0xD83D, 0xDE00, 0x044F};
  const struct conv_entry *k = NULL;
  int be = e == E_UTF16BE;
  size_t i, li, seed, p, j, len, soff;
  unsigned char *src = guard_alloc(2 * (LMIX_MAX + 4));
  char32_t *a = malloc(4 * (LMIX_MAX + 32)), *b = malloc(4 * (LMIX_MAX + 32));
  for (i = 0; i < sizeof convs / sizeof convs[0]; i++)
    if (convs[i].from == e && convs[i].to == E_UTF32) k = &convs[i];
  if (!src || !a || !b || !k) {
    CHECK(0, "check_long_mixed_to_utf32: no memory or no kernel");
    goto done;
  }
  for (li = 0; li < sizeof lens_ / sizeof lens_[0]; li++)
    for (seed = 0; seed < 8; seed++) {
      test_rng g;
      unsigned char *t;
      const char16_t *s;
      len = lens_[li];
      soff = (seed + li) % 4;
      t = src + 2 * (LMIX_MAX + 4 - len - soff);
      s = (const char16_t *)(void *)t;
      rng_seed(&g, 0x6D697865ull + 16 * li + seed);
      for (j = 0; j < len;) { /* a run of two-byte units, then one of pairs */
        size_t run = (size_t)rng_below(&g, 40), pairs = 1 + (size_t)rng_below(&g, seed < 4 ? 4 : 20);
        for (; run && j < len; run--, j++) put16(t + 2 * j, 0x0400 + (uint32_t)(j % 0xFF), be);
        for (; pairs && j + 1 < len; pairs--, j += 2) {
          put16(t + 2 * j, 0xD83C + (uint32_t)(j % 3), be);
          put16(t + 2 * j + 2, 0xDC00 + (uint32_t)(j % 0x3FF), be);
        }
        if (pairs && j < len) put16(t + 2 * j++, 'a', be);
      }
      check_utf32_caps(k, s, len, a, a + seed % 16, b, -1, 0, soff);
      if (len != LMIX_MAX) continue;
      for (p = 0; p < len; p++) {
        const int kind = (int)((p + seed) % 3);
        uint32_t was;
        if (p >= 200 && (p < len / 2 - 100 || p >= len / 2 + 100) && p + 100 < len) continue;
        if (!test_keep(p * 8 + seed, 4)) continue;
        was = be ? (uint32_t)(t[2 * p] << 8 | t[2 * p + 1]) : (uint32_t)(t[2 * p + 1] << 8 | t[2 * p]);
        if ((was & 0xF800) != 0xD800 && kind == 2) continue; /* (BMP over BMP: no change) */
        put16(t + 2 * p, plants[kind], be);
        check_utf32_caps(k, s, len, a, a + (seed + p) % 16, b, kind, p, soff);
        put16(t + 2 * p, was, be);
      }
    }
done:
  if (src) guard_free(src, 2 * (LMIX_MAX + 4));
  free(a);
  free(b);
}

/* The validating byte swap of long text of pairs only (from 2,048 units,
 * where a step's first and last lanes are pairs, its loop of pair lanes:
 * g16_swap_pair_lanes): valid text of 2,048-5,999 units, and text of
 * LSWAP_LEN units with a lone high, a lone low or a BMP unit planted at each
 * unit in turn of its first 300, 300 around its middle and its last 300
 * (every unit of two 256-byte steps in each, their edges among them; with
 * REPLACE the lanes go on after it, on the other parity after a BMP unit).
 * Pairs from unit 0 or 1, destinations 0 or 1 unit after a 64-byte boundary
 * (the steps start there: with and without a carried high), sources
 * ending 0-3 units before a PROT_NONE page (a lanes run ends near n), STRICT
 * and REPLACE, destinations roomy (and, for the valid text, one short and
 * half), against the scalar kernel; the repair of each text too
 * (check_long_pair_repair). */
#define LSWAP_LEN 2600
#define LSWAP_MAX 5999
static void check_swap_caps(const struct conv_entry *k, const char16_t *s, size_t len,
                            unsigned char *a, char16_t *d, char16_t *b, const size_t *caps,
                            size_t ncaps, int kind, size_t p, size_t lead, size_t doff) {
  unsigned flags;
  size_t ci, j;
  for (flags = 0; flags <= 1; flags++)
    for (ci = 0; ci < ncaps; ci++) {
      utfx_result x, y;
      memset(a, CANARY, 2 * (LSWAP_MAX + 8) + 128);
      x = k->pub(s, len, d, caps[ci], flags);
      y = k->ref(s, len, b, caps[ci], flags);
      for (j = 2 * x.written; j < 2 * caps[ci]; j++)
        if (((unsigned char *)d)[j] != CANARY) break;
      CHECK(x.status == y.status && x.read == y.read && x.written == y.written &&
                x.replaced == y.replaced && x.written <= caps[ci] &&
                memcmp(d, b, 2 * y.written) == 0 && j == 2 * caps[ci],
            "%s n=%zu, plant %d at %zu, lead %zu doff %zu cap=%zu flags=%u: got "
            "(%d,%zu,%zu,%zu) want (%d,%zu,%zu,%zu), canary to %zu",
            k->name, len, kind, p, lead, doff, caps[ci], flags, x.status, x.read, x.written,
            x.replaced, y.status, y.read, y.written, y.replaced, j / 2);
    }
}

/* The repair of the same long text (its loop of pair lanes,
 * g16_repair_pair_lanes, and its pair steps), the source at the PROT_NONE
 * page: out of place into d (its canaries after len kept), counted, and in
 * place (s is rewritten: the caller's last check), against the scalar
 * kernel. */
static void check_long_pair_repair(int be, char16_t *s, size_t len, unsigned char *a,
                                   char16_t *d, char16_t *b, int kind, size_t p, size_t lead,
                                   size_t doff) {
  const struct utfxi_kernels *k = utfxi_active();
  size_t want, got, j;
  (be ? utfxi_to_well_formed_utf16be_scalar : utfxi_to_well_formed_utf16le_scalar)(s, len, b);
  want = (be ? utfxi_repair_utf16be_scalar : utfxi_repair_utf16le_scalar)(s, len, b);
  memset(a, CANARY, 2 * (LSWAP_MAX + 8) + 128);
  (be ? utfx_to_well_formed_utf16be : utfx_to_well_formed_utf16le)(s, len, d);
  for (j = 2 * len; j < 2 * (len + 8); j++)
    if (((unsigned char *)d)[j] != CANARY) break;
  CHECK(memcmp(d, b, 2 * len) == 0 && j == 2 * (len + 8),
        "to_well_formed %s n=%zu, plant %d at %zu, lead %zu doff %zu: out of place",
        be ? "be" : "le", len, kind, p, lead, doff);
  memset(a, CANARY, 2 * (LSWAP_MAX + 8) + 128);
  got = (be ? k->repair_utf16be : k->repair_utf16le)(s, len, d);
  CHECK(got == want && memcmp(d, b, 2 * len) == 0,
        "repair %s n=%zu, plant %d at %zu, lead %zu doff %zu: %zu want %zu", be ? "be" : "le",
        len, kind, p, lead, doff, got, want);
  (be ? utfx_to_well_formed_utf16be : utfx_to_well_formed_utf16le)(s, len, s);
  CHECK(memcmp(s, b, 2 * len) == 0,
        "to_well_formed %s n=%zu, plant %d at %zu, lead %zu doff %zu: in place",
        be ? "be" : "le", len, kind, p, lead, doff);
}

static void check_long_pair_swaps(enum enc e) {
  static const size_t lens_[] = {2048, 2049, 2111, 4097, LSWAP_MAX};
  static const uint32_t plants[3] = {0xD83D, 0xDE00, 0x044F};
  const struct conv_entry *k = NULL;
  int be = e == E_UTF16BE, kind;
  size_t i, li, lead, doff, soff, p, j, len, caps[3];
  unsigned char *src = guard_alloc(2 * (LSWAP_MAX + 4)), *a = malloc(2 * (LSWAP_MAX + 8) + 128);
  char16_t *b = malloc(2 * (LSWAP_MAX + 8)), *d;
  for (i = 0; i < sizeof convs / sizeof convs[0]; i++)
    if (convs[i].from == e && convs[i].to == (be ? E_UTF16LE : E_UTF16BE)) k = &convs[i];
  if (!src || !a || !b || !k) {
    CHECK(0, "check_long_pair_swaps: no memory or no kernel");
    goto done;
  }
  for (li = 0; li <= sizeof lens_ / sizeof lens_[0]; li++) /* the last: the plants */
    for (lead = 0; lead < 2; lead++)
      for (doff = 0; doff < 2; doff++) {
        const int planted = li == sizeof lens_ / sizeof lens_[0];
        len = planted ? LSWAP_LEN : lens_[li];
        d = (char16_t *)(void *)(a + (64 - (uintptr_t)a % 64) % 64 + 2 * doff);
        for (p = 0; p < (planted ? len : 1); p++) {
          const char16_t *s;
          unsigned char *t;
          if (planted && p >= 300 && (p < len / 2 - 150 || p >= len / 2 + 150) && p + 300 < len)
            continue;
          if (!test_keep(p, 4)) continue;
          /* the source ends soff units before a PROT_NONE page */
          soff = (p + lead + li) % 4;
          s = (const char16_t *)(void *)(src + 2 * (LSWAP_MAX + 4 - len - soff));
          kind = (int)((p + lead + doff) % 3); /* each unit gets each kind over lead, doff */
          t = (unsigned char *)(void *)s;
          if (lead) put16(t, 0x044F, be);
          for (j = lead; j + 1 < len; j += 2) {
            put16(t + 2 * j, 0xD83C + (uint32_t)(j % 3), be);
            put16(t + 2 * j + 2, 0xDC00 + (uint32_t)(j % 0x3FF), be);
          }
          if (j < len) put16(t + 2 * j, 0x044F, be);
          if (planted) {
            put16(t + 2 * p, plants[kind], be);
            caps[0] = len + 8;
            check_swap_caps(k, s, len, a, d, b, caps, 1, kind, p, lead, doff);
          } else {
            caps[0] = len + 8;
            caps[1] = len - 1;
            caps[2] = len / 2 + 3;
            check_swap_caps(k, s, len, a, d, b, caps, 3, -1, 0, lead, doff);
          }
          check_long_pair_repair(be, (char16_t *)(void *)t, len, a, d, b, planted ? kind : -1,
                                 p, lead, doff);
        }
      }
done:
  if (src) guard_free(src, 2 * (LSWAP_MAX + 4));
  free(a);
  free(b);
}

/* Text of pairs only (emoji), after none or one BMP unit (the pairs then
 * start at an odd unit): the byte swap's loop of pair lanes, and every
 * kernel, with each unit in turn made a lone high, a lone low, a low-high
 * swap or a BMP unit (valid, the pairs after it on the other parity). */
#define PAIRS_LEN 300
static void check_pair_runs(enum enc e) {
  int be = e == E_UTF16BE, kind;
  size_t lead, p, j;
  cur_script = "pairs";
  for (lead = 0; lead < 2; lead++) {
    for (j = 0; j < lead; j++) put16(text + 2 * j, 0x044F, be);
    for (j = lead; j + 1 < PAIRS_LEN; j += 2) {
      uint32_t c = 0x1F300 + (uint32_t)rng_below(&rng, 0x800);
      put16(text + 2 * j, 0xD800 + ((c - 0x10000) >> 10), be);
      put16(text + 2 * j + 2, 0xDC00 + (c & 0x3FF), be);
    }
    if (j < PAIRS_LEN) put16(text + 2 * j, 0x044F, be);
    run_all_on(e, text, PAIRS_LEN, 1, 0);
    for (p = 0; p < PAIRS_LEN; p++)
      for (kind = 0; kind < 4; kind++) {
        if (!test_keep(p * 4 + (size_t)kind, 3)) continue;
        memcpy(work, text, 2 * PAIRS_LEN);
        if (kind == 3)
          put16(work + 2 * p, 0x044F, be);
        else if (!corrupt(work, PAIRS_LEN, p, e, kind))
          continue;
        run_all_on(e, work, PAIRS_LEN, 0, 0);
      }
  }
}

/* The byte swap's tail (the last units after the blocks; on avx2 and neon
 * the last block again, over units already written): two-byte text or
 * pairs only, lengths 1..200, with in the last 70 units in turn a pair (a
 * high surrogate carried into the tail when it straddles the last block), a
 * lone high, a lone low, or, in pairs-only text, a BMP unit or a lone unit;
 * sources at the end guard, offsets 1-2, roomy, exact and one-short
 * destinations at the destination guard. */
#define TAIL_MAX 200
static void check_swap_tails(enum enc e) {
  int be = e == E_UTF16BE, kind, emoji;
  size_t n, q, j, i, off;
  cur_script = "swap-tails";
  cur_script_index = -1;
  for (i = 0; i < sizeof convs / sizeof convs[0]; i++) {
    const struct conv_entry *k = &convs[i];
    if (k->from != e || (k->to != E_UTF16LE && k->to != E_UTF16BE)) continue;
    cur_name = k->name;
    for (emoji = 0; emoji < 3; emoji++)
      for (n = 1; n <= TAIL_MAX; n++)
        for (q = n > 70 ? n - 70 : 0; q < n; q++)
          for (kind = 0; kind < 3; kind++) {
            unsigned flags;
            for (j = 0; j < n; j++) put16(work + 2 * j, j % 5 ? 0x044F : ' ', be);
            if (emoji) /* pairs from unit 0 (emoji 1) or 1 (emoji 2) */
              for (j = (size_t)emoji - 1; j + 1 < n; j += 2) {
                put16(work + 2 * j, 0xD83D, be);
                put16(work + 2 * j + 2, 0xDE00 + (uint32_t)(j & 0x3F), be);
              }
            if (kind == 0 && !emoji) {
              if (q + 1 == n) continue;
              put16(work + 2 * q, 0xD83D, be);
              put16(work + 2 * q + 2, 0xDE01, be);
            } else {
              put16(work + 2 * q, kind == 0 ? 0x044F : kind == 1 ? 0xD83D : 0xDE02, be);
            }
            for (flags = 0; flags <= 1; flags++) {
              unsigned char *src = src_guard_end + SRC_BYTES - 2 * n;
              memcpy(src, work, 2 * n);
              compare_conv(k, src, n, out_pub, n + 8, flags, "tail guard-end");
              compare_conv(k, src, n, dst_guard + DST_BYTES - 2 * n, n, flags, "tail cap-exact");
              compare_conv(k, src, n, dst_guard + DST_BYTES - 2 * (n - 1), n - 1, flags,
                           "tail cap-short");
              for (off = 1; off <= 2; off++) {
                src = aligned_src + 2 * off;
                memcpy(src, work, 2 * n);
                compare_conv(k, src, n, out_pub, n, flags, "tail offset");
              }
            }
          }
  }
}

/* The UTF-8 length's class of each unit at its corners, in long inputs
 * (the runs with the class bytes): stretches of one corner value (every
 * boundary 0x7F/0x80, 0x7FF/0x800, 0xD7FF/0xD800, 0xDBFF/0xDC00,
 * 0xDFFF/0xE000, 0xFFFF, and high bytes 0x80-0x87 and 0xD0-0xD7 with bit 7
 * of the low byte clear and set, whose low seven bits are those of the
 * one- and two-byte classes) or of all of them mixed, lone surrogates
 * among them, in stretches from 1 unit to past a run, at offsets 0-1,
 * against the scalar kernels, both byte orders, with and without the flag;
 * and high surrogates to the end of inputs that end at a PROT_NONE page. */
#define CORNER_LEN 9000
_Static_assert(UTFXI_ALIGN_HEAD_BYTES + 64 <= SRC_BYTES, "the guarded source holds the corners' long inputs");
static void check_class_corners(enum enc e) {
  static const uint16_t corners[] = {0x0000, 0x0001, 0x007F, 0x0080, 0x00FF, 0x0100, 0x017F,
                                     0x0180, 0x07FF, 0x0800, 0x0880, 0x7FFF, 0x8000, 0x807F,
                                     0x8080, 0x8100, 0x8780, 0x87FF, 0x8800, 0xC8FF, 0xD000,
                                     0xD07F, 0xD080, 0xD7FF, 0xD800, 0xDBFF, 0xDC00, 0xDFFF,
                                     0xE000, 0xFF0C, 0xFFFF};
  const size_t nc = sizeof corners / sizeof corners[0];
  int be = e == E_UTF16BE, lone, flag;
  size_t t, j, off, end, want, wantl, got, len;
  char16_t *buf = malloc(2 * (CORNER_LEN + 8)), *src;
  if (!buf) return;
  cur_script = "corners";
  for (t = 0; t < 3 * nc; t++) {
    len = 4096 + (size_t)rng_below(&rng, CORNER_LEN - 4096);
    for (off = 0; off < 2; off++) {
      src = buf + off;
      for (j = 0; j < len;) {
        int mixed = t >= nc && rng_below(&rng, 2);
        uint16_t one = corners[t % nc];
        end = j + 1 + (size_t)rng_below(&rng, t % 3 ? 9000 : 300);
        for (; j < end && j < len; j++)
          put16((unsigned char *)(src + j), mixed ? corners[rng_below(&rng, (uint32_t)nc)] : one, be);
      }
      want = (be ? utfxi_utf8_length_from_utf16be_scalar : utfxi_utf8_length_from_utf16le_scalar)(src, len);
      lone = -1;
      wantl = (be ? utfxi_utf8_length_from_utf16be_with_surrogates_scalar
                  : utfxi_utf8_length_from_utf16le_with_surrogates_scalar)(src, len, &lone);
      got = (be ? utfx_utf8_length_from_utf16be : utfx_utf8_length_from_utf16le)(src, len);
      CHECK(got == want, "utf8_length corners %s, trial %zu (0x%04X) n=%zu off=%zu: got %zu want %zu",
            be ? "be" : "le", t, corners[t % nc], len, off, got, want);
      flag = -1;
      got = (be ? utfx_utf8_length_from_utf16be_with_surrogates
                : utfx_utf8_length_from_utf16le_with_surrogates)(src, len, &flag);
      CHECK(got == wantl && flag == lone,
            "utf8_length_with_surrogates corners %s, trial %zu n=%zu off=%zu: %zu/%d want %zu/%d",
            be ? "be" : "le", t, len, off, got, flag, wantl, lone);
    }
  }
  free(buf);
  /* high surrogates to the end, the input's end at a PROT_NONE page, at
   * every start mod 64: the long calls' head must stop at n */
  for (len = UTFXI_ALIGN_HEAD_BYTES / 2; len < UTFXI_ALIGN_HEAD_BYTES / 2 + 32; len++) {
    src = (char16_t *)(void *)(src_guard_end + SRC_BYTES - 2 * len);
    for (j = 0; j < len; j++) put16((unsigned char *)(src + j), j % 3 ? 0xD800 : 0xDBFF, be);
    got = (be ? utfx_utf8_length_from_utf16be : utfx_utf8_length_from_utf16le)(src, len);
    CHECK(got == 3 * len, "utf8_length corners %s, highs to a guard page, n=%zu: got %zu", be ? "be" : "le", len, got);
    flag = -1;
    got = (be ? utfx_utf8_length_from_utf16be_with_surrogates
              : utfx_utf8_length_from_utf16le_with_surrogates)(src, len, &flag);
    CHECK(got == 3 * len && flag == 1, "utf8_length_with_surrogates corners %s, highs to a guard page, n=%zu: %zu/%d",
          be ? "be" : "le", len, got, flag);
  }
}

/* ASCII to the end of a long input (the UTF-8 length's long calls), the end
 * at a PROT_NONE page: the unscreened runs test the step after an ASCII step
 * on its units, and the last run ends at n, where the steps from the run's
 * start may leave one to three blocks (one that is not whole): that step
 * must not be tested. Every length from UTFXI_ALIGN_HEAD's 2048 units to 300
 * more (every residue of n and of the aligned head modulo a step of 4
 * blocks), both byte orders, with and without the flag. */
static void check_ascii_to_guard(enum enc e) {
  int be = e == E_UTF16BE, flag;
  size_t len, j, got;
  char16_t *src;
  for (len = UTFXI_ALIGN_HEAD_BYTES / 2; len < UTFXI_ALIGN_HEAD_BYTES / 2 + 300; len++) {
    if (!test_keep(len, 4)) continue;
    src = (char16_t *)(void *)(src_guard_end + SRC_BYTES - 2 * len);
    for (j = 0; j < len; j++) put16((unsigned char *)(src + j), (uint32_t)(j * 37 % 128), be);
    got = (be ? utfx_utf8_length_from_utf16be : utfx_utf8_length_from_utf16le)(src, len);
    CHECK(got == len, "utf8_length %s, ASCII to a guard page, n=%zu: got %zu", be ? "be" : "le", len, got);
    flag = -1;
    got = (be ? utfx_utf8_length_from_utf16be_with_surrogates
              : utfx_utf8_length_from_utf16le_with_surrogates)(src, len, &flag);
    CHECK(got == len && flag == 0, "utf8_length_with_surrogates %s, ASCII to a guard page, n=%zu: %zu/%d",
          be ? "be" : "le", len, got, flag);
  }
}

/* The UTF-8 length's class of every unit value: for each high byte, its 256
 * units in order with a quarter of them replaced at random (each unit at
 * many lane positions), in a long call (6000 units) and a short one (256),
 * offsets 0-1, against the scalar kernels, both byte orders, with and
 * without the flag: a unit whose class a kernel gets wrong changes the
 * count. */
#define EVERY_LEN 6000
static void check_every_unit(enum enc e) {
  int be = e == E_UTF16BE, lone, flag;
  unsigned hb, k;
  size_t j, off, len, want, wantl, got;
  char16_t *buf = malloc(2 * (EVERY_LEN + 8)), *src;
  test_rng saved = rng; /* (its own seed; the later checks' inputs as before) */
  if (!buf) return;
  cur_script = "every unit";
  rng_seed(&rng, 0xE7E8u + (unsigned)be);
  for (hb = 0; hb < 256; hb++)
    for (off = 0; off < 2; off++)
      for (k = 0; k < 2; k++) {
        len = k ? 256 + off : EVERY_LEN - off;
        src = buf + off;
        for (j = 0; j < len; j++) {
          unsigned u = hb << 8 | (unsigned)(j % 256);
          if (j % 256 == 0 || rng_below(&rng, 4) == 0) u = hb << 8 | rng_below(&rng, 256);
          put16((unsigned char *)(src + j), (uint16_t)u, be);
        }
        want = (be ? utfxi_utf8_length_from_utf16be_scalar : utfxi_utf8_length_from_utf16le_scalar)(src, len);
        lone = -1;
        wantl = (be ? utfxi_utf8_length_from_utf16be_with_surrogates_scalar
                    : utfxi_utf8_length_from_utf16le_with_surrogates_scalar)(src, len, &lone);
        got = (be ? utfx_utf8_length_from_utf16be : utfx_utf8_length_from_utf16le)(src, len);
        CHECK(got == want, "utf8_length every unit %s, high byte 0x%02X n=%zu off=%zu: got %zu want %zu",
              be ? "be" : "le", hb, len, off, got, want);
        flag = -1;
        got = (be ? utfx_utf8_length_from_utf16be_with_surrogates
                  : utfx_utf8_length_from_utf16le_with_surrogates)(src, len, &flag);
        CHECK(got == wantl && flag == lone,
              "utf8_length_with_surrogates every unit %s, high byte 0x%02X n=%zu off=%zu: %zu/%d want %zu/%d",
              be ? "be" : "le", hb, len, off, got, flag, wantl, lone);
      }
  rng = saved;
  free(buf);
}

/* Validation of long UTF-16 with surrogates (runs of pair tests at a fixed
 * stride; a high surrogate that ends a step or a run is carried into the
 * next): text of pairs only, or with a pair every ~40 units, each unit in
 * turn (every one in the first and last 300, every 5th between) made a lone
 * high, a lone low, or the high of a pair across it (a pair split across
 * every block edge, lone units at every block end, the last unit a high);
 * lengths around block multiples, sources ending at a guard page (so some
 * start vector-aligned), against the scalar kernel. */
#define VLONG_MAX 4400
static void check_long_validation(enum enc e) {
  static const size_t lens_[] = {4096, 4095, 4097, 2111, 2048, 2047, 1280, 1281, 600};
  int be = e == E_UTF16BE, dense, kind;
  size_t li, j, p, n, i;
  unsigned char *g = guard_alloc(2 * VLONG_MAX);
  char16_t *base = malloc(2 * VLONG_MAX), *t;
  if (!base || !g) {
    free(base);
    return;
  }
  cur_script = "long validation";
  for (dense = 0; dense < 2; dense++)
    for (li = 0; li < sizeof lens_ / sizeof lens_[0]; li++) {
      n = lens_[li];
      t = (char16_t *)(g + 2 * VLONG_MAX - 2 * n);
      for (j = 0; j < n;) {
        if (j + 1 < n && (dense || rng_below(&rng, 40) == 0)) {
          put16((unsigned char *)(base + j), 0xD800 + (uint32_t)rng_below(&rng, 0x400), be);
          put16((unsigned char *)(base + j + 1), 0xDC00 + (uint32_t)rng_below(&rng, 0x400), be);
          j += 2;
        } else {
          put16((unsigned char *)(base + j), dense || rng_below(&rng, 2) ? 0x044F : 'a', be);
          j++;
        }
      }
      for (p = 0; p <= n; p++) {
        if (p > 300 && p + 300 < n && p % 5) continue;
        for (kind = 0; kind < 3; kind++) {
          if ((p == n && kind) || !test_keep(p * 3 + (size_t)kind, 4)) continue;
          memcpy(t, base, 2 * n);
          if (p < n) put16((unsigned char *)(t + p), kind == 1 ? 0xDE00 : 0xD83D, be);
          if (kind == 2 && p + 1 < n) put16((unsigned char *)(t + p + 1), 0xDE00, be);
          for (i = 0; i < sizeof valids / sizeof valids[0]; i++) {
            utfx_result got, want;
            if (valids[i].from != e) continue;
            got = valids[i].pub(t, n);
            want = valids[i].ref(t, n);
            CHECK(got.status == want.status && got.read == want.read,
                  "validate %s long, %s n=%zu, kind %d at %zu: (%d,%zu) want (%d,%zu)",
                  valids[i].name, dense ? "pairs" : "sparse", n, kind, p, got.status, got.read,
                  want.status, want.read);
          }
        }
      }
    }
  free(base);
  guard_free(g, 2 * VLONG_MAX);
}

/* UTF-16 -> UTF-8 of whole vectors of mixed BMP text (ASCII, 2- and 3-byte
 * units, so every vector takes the pairs step's 16-bit-lane form): one pair
 * at every unit in turn, so at every lane and across every vector's end (a
 * high in the last lane waits: the step takes 31 units, the last vector's
 * high the tail step), and with a lone high or low at the last unit. STRICT
 * and REPLACE, every capacity around the output's length (a cut pair). */
static void check_pair_every_lane(enum enc e) {
  static const uint16_t bmp[5] = {0x61, 0x4E16, 0xC7, 0x20AC, 0x754C};
  static const size_t lens[] = {32, 64, 96, 97};
  int be = e == E_UTF16BE, tailk;
  size_t li, n, p, j, i;
  cur_script = "pair-every-lane";
  for (li = 0; li < sizeof lens / sizeof lens[0]; li++) {
    n = lens[li];
    for (p = 0; p + 1 < n; p++)
      for (tailk = 0; tailk < 3; tailk++) {
        for (j = 0; j < n; j++) put16(text + 2 * j, bmp[(j * 3 + li) % 5], be);
        put16(text + 2 * p, 0xD83D, be);
        put16(text + 2 * p + 2, 0xDE00 + (uint32_t)(p & 0x3F), be);
        if (tailk && p + 2 < n) put16(text + 2 * (n - 1), tailk == 1 ? 0xD801 : 0xDC01, be);
        for (i = 0; i < sizeof convs / sizeof convs[0]; i++) {
          if (convs[i].from != e || convs[i].to != E_UTF8) continue;
          cur_name = convs[i].name;
          check_conv_text(&convs[i], text, n, 0, n <= 64);
        }
      }
  }
}

/* UTF-32 sources of long inputs (from UTFXI_ALIGN_HEAD_BYTES) start with a
 * head up to the first vector-aligned value (one masked step on avx512):
 * every start mod 64 with the source ending at a PROT_NONE page, a
 * non-ASCII, astral or ill-formed value at each position of the longest
 * head and just past it, STRICT and REPLACE, capacities inside the head,
 * exact and one short, against the scalar kernels; lengths and validation
 * too. */
static void check_long_utf32_heads(void) {
  static const uint32_t items[] = {0x80,   0xFF,     0x100,    0x800,     0xD7FF,     0xD800,
                                   0xDFFF, 0xE000,   0xFFFF,   0x10000,   0x10FFFF,   0x110000,
                                   0x7FFFFFFFu, 0xFFFFFFFFu};
  static const enum script scripts[] = {S_ASCII, S_LATIN1, S_CJK, S_EMOJI};
  const size_t ni = sizeof items / sizeof items[0];
  size_t si, n, p, it, i, c;
  unsigned flags;
  for (si = 0; si < sizeof scripts / sizeof scripts[0]; si++) {
    cur_script = script_names[scripts[si]];
    cur_script_index = -1;
    for (n = HEAD_LEN; n < HEAD_LEN + 16; n++) { /* every start mod 64 */
      unsigned char *src = src_guard_end + SRC_BYTES - 4 * n;
      size_t head = (size_t)(-(uintptr_t)src % 64) / 4;
      gen_text(text, n, E_UTF32, scripts[si]);
      for (p = 0; p < 17; p++)
        for (it = 0; it <= ni; it++) { /* (ni: none) */
          if (!test_keep(n + p + it, THIN ? 8 : 2)) continue;
          memcpy(work, text, 4 * n);
          if (it < ni) memcpy(work + 4 * p, &items[it], 4);
          memcpy(src, work, 4 * n);
          for (i = 0; i < sizeof convs / sizeof convs[0]; i++) {
            const struct conv_entry *k = &convs[i];
            size_t du = unit_size(k->to);
            if (k->from != E_UTF32) continue;
            cur_name = k->name;
            for (flags = 0; flags <= 1; flags++) {
              size_t need = k->ref(work, n, out_ref, DST_BYTES / du, flags).written;
              size_t caps[] = {0, 1, p, p + 1, head, head + 1, 3 * head, need - 1, need, need + 8};
              for (c = 0; c < sizeof caps / sizeof caps[0]; c++)
                if (caps[c] * du <= DST_BYTES)
                  compare_conv(k, src, n, dst_guard + DST_BYTES - caps[c] * du, caps[c], flags,
                               "long head");
            }
          }
          for (i = 0; i < sizeof lens / sizeof lens[0]; i++)
            if (lens[i].from == E_UTF32)
              CHECK(lens[i].pub(src, n) == lens[i].ref(work, n), "%s %s long head n=%zu p=%zu %X",
                    lens[i].name, cur_script, n, p, it < ni ? (unsigned)items[it] : 0u);
          for (i = 0; i < sizeof valids / sizeof valids[0]; i++)
            if (valids[i].from == E_UTF32) {
              utfx_result a = valids[i].pub(src, n), b = valids[i].ref(work, n);
              CHECK(a.status == b.status && a.read == b.read, "validate %s %s long head n=%zu p=%zu",
                    valids[i].name, cur_script, n, p);
            }
        }
    }
  }
  tap_group("UTF-32 long inputs: the aligning head at every start, an item at each of its "
            "positions, caps inside it, both modes");
}

static void suite(void) {
  static const enum enc sources[] = {E_UTF16LE, E_UTF16BE, E_UTF32, E_LATIN1};
  static const char *const source_names[] = {"utf16le", "utf16be", "utf32", "latin1"};
  size_t si;
  char group[128];
  for (si = 0; si < sizeof sources / sizeof sources[0]; si++) {
    enum enc e = sources[si];
    size_t su = unit_size(e), n, p;
    int sc, kind;
    rng_seed(&rng, 0x5EED0000u + si);
    for (sc = 0; sc < S_COUNT; sc++) {
      if (e == E_LATIN1 && sc > S_LATIN1) continue;
      cur_script = script_names[sc];
      cur_script_index = e == E_LATIN1 ? -1 : sc;
      for (n = 0; n <= MAX_LEN; n++) {
        if (!length_in_grid(n)) continue;
        gen_text(text, n, e, (enum script)sc);
        run_all_on(e, text, n, 1, n <= CAP_LEN);
      }
    }
    snprintf(group, sizeof group, "%s sources: valid text, lengths 0..%d, offsets 0..%d, caps",
             source_names[si], MAX_LEN, MAX_OFF - 1);
    tap_group(group);
    if (e == E_LATIN1) continue;
    for (sc = S_ASCII; sc < S_COUNT; sc++) {
      if (sc == S_LATIN1) continue;
      cur_script = script_names[sc];
      for (n = 1; n <= MAX_LEN; n++) {
        if (!length_in_grid(n) || (n > 100 && n % (sc == S_MIXED ? 3 : 11))) continue;
        gen_text(text, n, e, (enum script)sc);
        for (p = 0; p < n; p++) {
          for (kind = 0; kind < 3; kind++) {
            if (!test_keep(p + (size_t)kind, 2)) continue;
            memcpy(work, text, n * su);
            if (!corrupt(work, n, p, e, kind)) continue;
            run_all_on(e, work, n, 0, n <= 24);
          }
        }
      }
    }
    snprintf(group, sizeof group, "%s sources: one corrupted unit at every position",
             source_names[si]);
    tap_group(group);
  }
  /* every start offset with errors, and several errors in one block */
  {
    size_t n, k;
    for (n = 0; n <= MAX_LEN; n += 13) {
      cur_script = "many-errors";
      cur_script_index = -1;
      gen_text(text, n, E_UTF16LE, S_MIXED);
      for (k = 0; k < n / 8; k++)
        corrupt(text, n, (size_t)rng_below(&rng, n), E_UTF16LE, (int)rng_below(&rng, 3));
      run_all_on(E_UTF16LE, text, n, 1, n <= CAP_LEN);
      gen_text(text, n, E_UTF32, S_MIXED);
      for (k = 0; k < n / 8; k++)
        corrupt(text, n, (size_t)rng_below(&rng, n), E_UTF32, (int)rng_below(&rng, 3));
      run_all_on(E_UTF32, text, n, 1, n <= CAP_LEN);
    }
    tap_group("several errors per block, every offset");
  }
  /* Validation of long inputs aligns its loads after a scalar head: an
   * error in or just after the head, or a pair across its end, at every
   * start offset. */
  {
    static const enum enc encs[] = {E_UTF16LE, E_UTF16BE, E_UTF32};
    size_t ei, i, p;
    int kind, sc;
    for (ei = 0; ei < 3; ei++) {
      enum enc e = encs[ei];
      for (sc = S_EMOJI; sc <= S_MIXED; sc++) {
        cur_script = script_names[sc];
        cur_script_index = -1; /* every offset */
        gen_text(text, HEAD_LEN, e, (enum script)sc);
        for (i = 0; i < sizeof valids / sizeof valids[0]; i++) {
          if (valids[i].from != e) continue;
          check_valid_text(&valids[i], text, HEAD_LEN, 1);
          for (p = 0; p < 80; p++) {
            for (kind = 0; kind < 3; kind++) {
              memcpy(work, text, HEAD_LEN * unit_size(e));
              if (corrupt(work, HEAD_LEN, p, e, kind)) check_valid_text(&valids[i], work, HEAD_LEN, 1);
            }
          }
        }
      }
    }
    tap_group("validation of long inputs: an error near the aligned loop's start, every offset");
  }
  check_long_lengths(E_UTF16LE);
  check_long_lengths(E_UTF16BE);
  check_run_screens(E_UTF16LE);
  check_run_screens(E_UTF16BE);
  check_dense_lengths(E_UTF16LE);
  check_dense_lengths(E_UTF16BE);
  check_carried_highs(E_UTF16LE);
  check_carried_highs(E_UTF16BE);
  check_class_corners(E_UTF16LE);
  check_class_corners(E_UTF16BE);
  check_ascii_to_guard(E_UTF16LE);
  check_ascii_to_guard(E_UTF16BE);
  check_every_unit(E_UTF16LE);
  check_every_unit(E_UTF16BE);
  check_long_validation(E_UTF16LE);
  check_long_validation(E_UTF16BE);
  tap_group("lengths of long inputs: a pair or lone surrogates across the aligning head's end, "
            "every offset; surrogates past the first run of the UTF-8 length; "
            "long inputs of random dense and two-byte stretches; a lone high, a gap, a lone low; "
            "stretches of the UTF-8 length's class corners; ASCII to a guard page, every length "
            "from 2048 units; every unit value, long and short; "
            "validation of long text with pairs, "
            "each unit in turn made lone");
  check_long_utf32_heads();
  check_pair_runs(E_UTF16LE);
  check_pair_runs(E_UTF16BE);
  check_swap_tails(E_UTF16LE);
  check_swap_tails(E_UTF16BE);
  check_long_pair_swaps(E_UTF16LE);
  check_long_pair_swaps(E_UTF16BE);
  tap_group("text of pairs only, after none or one BMP unit, each unit in turn corrupted; "
            "the byte swap's tails: a pair, a lone high or low in turn in the last 70 units; "
            "the byte swap and the repair of long pairs-only text (their pair lanes), a lone "
            "high, lone low or BMP unit at each unit of the first, middle and last 300");
  check_pair_every_lane(E_UTF16LE);
  check_pair_every_lane(E_UTF16BE);
  tap_group("UTF-16 -> UTF-8 of whole vectors (32-97 units) of mixed BMP text: a pair at every "
            "unit in turn, then with a lone high or low at the last unit; caps");
  check_long_to_utf32(E_UTF16LE);
  check_long_to_utf32(E_UTF16BE);
  check_long_runs_to_utf32(E_UTF16LE);
  check_long_runs_to_utf32(E_UTF16BE);
  check_long_pairs_to_utf32(E_UTF16LE);
  check_long_pairs_to_utf32(E_UTF16BE);
  check_long_mixed_to_utf32(E_UTF16LE);
  check_long_mixed_to_utf32(E_UTF16BE);
  tap_group("UTF-16 -> UTF-32 of long inputs: a pair or lone surrogates planted near the start, "
            "the middle and the end of two-byte text, offsets 0-3, caps roomy, exact, one short; "
            "around the long-call length, surrogates after the first run's end; runs of 120 "
            "pairs near the start or at the end, each unit in turn a lone high, lone low, BMP; "
            "long mixed text of random runs, each unit of three windows in turn a lone half or "
            "BMP, sources at a PROT_NONE page");
  check_big(E_UTF16LE);
  check_big(E_UTF16BE);
  check_big(E_UTF32);
  check_big(E_LATIN1);
  tap_group("inputs above 2^20 units (length chunks, long runs), with errors near the chunk edge");
}

/* The scalar tier is the reference itself: comparing it with itself proves
 * nothing, so the suite runs on the SIMD tiers only. */
static void simd_suite(void) {
  if (strcmp(utfx_implementation(), "scalar") == 0) {
    printf("# scalar tier: it is the reference, nothing to compare\n");
    return;
  }
  suite();
}

int main(void) {
  init_tables();
  src_guard_end = guard_alloc(SRC_BYTES);
  src_guard_front = guard_alloc_front(SRC_BYTES);
  dst_guard = guard_alloc(DST_BYTES);
  {
    static unsigned char raw[SRC_BYTES + 128];
    aligned_src = raw + (64 - (uintptr_t)raw % 64) % 64;
  }
  tap_for_each_impl(simd_suite);
  guard_free(src_guard_end, SRC_BYTES);
  guard_free_front(src_guard_front, SRC_BYTES);
  guard_free(dst_guard, DST_BYTES);
  return tap_done();
}
