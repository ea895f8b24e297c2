/* Known answers for every public function of include/utfx.h.
 *
 * Conversions, validations and lengths are driven by hand-written samples:
 * each sample is a list of pieces, and each piece is either a character from
 * the table `kchars` (whose encodings in every form are typed out below) or
 * an ill-formed sequence (its source units, which the hand segmentation says
 * form exactly one maximal subpart / lone surrogate / bad UTF-32 value). From
 * this data alone the test derives, for every target and capacity, what the
 * contract of design.md section 2 requires: the output, status, read,
 * written and replaced. The naive reference (tests/support/reference.c) is
 * checked against the same answers, so the two cross-validate each other. */
#include <string.h>

#include "support/expect.h"
#include "support/guard.h"
#include "support/ops.h"
#include "support/reference.h"
#include "tap.h"

/* ------------------------------------------------------------ characters */
struct kchar {
  uint32_t cp;
  unsigned char u8[4];
  unsigned n8;
  uint16_t u16[2];
  unsigned n16;
};

enum {
  K_A, K_NUL, K_7F, K_80, K_E9, K_FF, K_100, K_7FF, K_800, K_EURO, K_D7FF, K_E000, K_FFFD,
  K_FFFF, K_10000, K_GRIN, K_MAX, K_COUNT
};

static const struct kchar kchars[K_COUNT] = {
    [K_A] = {0x41, {0x41}, 1, {0x0041}, 1},
    [K_NUL] = {0x00, {0x00}, 1, {0x0000}, 1},
    [K_7F] = {0x7F, {0x7F}, 1, {0x007F}, 1},
    [K_80] = {0x80, {0xC2, 0x80}, 2, {0x0080}, 1},
    [K_E9] = {0xE9, {0xC3, 0xA9}, 2, {0x00E9}, 1},
    [K_FF] = {0xFF, {0xC3, 0xBF}, 2, {0x00FF}, 1},
    [K_100] = {0x100, {0xC4, 0x80}, 2, {0x0100}, 1},
    [K_7FF] = {0x7FF, {0xDF, 0xBF}, 2, {0x07FF}, 1},
    [K_800] = {0x800, {0xE0, 0xA0, 0x80}, 3, {0x0800}, 1},
    [K_EURO] = {0x20AC, {0xE2, 0x82, 0xAC}, 3, {0x20AC}, 1},
    [K_D7FF] = {0xD7FF, {0xED, 0x9F, 0xBF}, 3, {0xD7FF}, 1},
    [K_E000] = {0xE000, {0xEE, 0x80, 0x80}, 3, {0xE000}, 1},
    [K_FFFD] = {0xFFFD, {0xEF, 0xBF, 0xBD}, 3, {0xFFFD}, 1},
    [K_FFFF] = {0xFFFF, {0xEF, 0xBF, 0xBF}, 3, {0xFFFF}, 1},
    [K_10000] = {0x10000, {0xF0, 0x90, 0x80, 0x80}, 4, {0xD800, 0xDC00}, 2},
    [K_GRIN] = {0x1F600, {0xF0, 0x9F, 0x98, 0x80}, 4, {0xD83D, 0xDE00}, 2},
    [K_MAX] = {0x10FFFF, {0xF4, 0x8F, 0xBF, 0xBF}, 4, {0xDBFF, 0xDFFF}, 2},
};

/* Units of kchar k in encoding e (hand-typed data only; Latin-1 and UTF-32
 * are the code point itself). Returns the count. */
static size_t kchar_units(int k, enum ref_enc e, uint32_t *out) {
  const struct kchar *c = &kchars[k];
  size_t i;
  switch (e) {
    case REF_UTF8:
      for (i = 0; i < c->n8; i++) out[i] = c->u8[i];
      return c->n8;
    case REF_UTF16LE:
    case REF_UTF16BE:
      for (i = 0; i < c->n16; i++) out[i] = c->u16[i];
      return c->n16;
    default:
      out[0] = c->cp;
      return 1;
  }
}

/* ------------------------------------------------------------ samples */
#define MAX_PIECES 32
struct piece {
  int k;           /* kchar index, or -1 for an ill-formed piece */
  uint32_t bad[4]; /* ill-formed: its source units */
  unsigned nbad;
};

struct sample {
  const char *name;
  struct piece p[MAX_PIECES];
  size_t count;
};

#define V(k) {k, {0}, 0}
#define B1(a) {-1, {a}, 1}
#define B2(a, b) {-1, {a, b}, 2}
#define B3(a, b, c) {-1, {a, b, c}, 3}
#define AX4 V(K_A), V(K_A), V(K_A), V(K_A)
#define AX16 AX4, AX4, AX4, AX4
#define PIECES(...) {__VA_ARGS__}, sizeof((struct piece[]){__VA_ARGS__}) / sizeof(struct piece)

/* UTF-8 sources: design.md section 2's examples first. */
static const struct sample utf8_samples[] = {
    {"E0 80 -> 2 x U+FFFD", PIECES(B1(0xE0), B1(0x80))},
    {"ED A0 80 (surrogate) -> 3", PIECES(B1(0xED), B1(0xA0), B1(0x80))},
    {"F4 90 80 80 (> U+10FFFF) -> 4", PIECES(B1(0xF4), B1(0x90), B1(0x80), B1(0x80))},
    {"C0 AF (overlong) -> 2", PIECES(B1(0xC0), B1(0xAF))},
    {"E2 82 41 -> U+FFFD A", PIECES(B2(0xE2, 0x82), V(K_A))},
    {"F0 9F 98 at the end -> 1", PIECES(B3(0xF0, 0x9F, 0x98))},
    {"F8 88 80 80 80 -> 5", PIECES(B1(0xF8), B1(0x88), B1(0x80), B1(0x80), B1(0x80))},
    {"61 E2 82 41 (strict read 1)", PIECES(V(K_A), B2(0xE2, 0x82), V(K_A))},
    {"empty", {{0}}, 0},
    {"mixed valid", PIECES(V(K_A), V(K_E9), V(K_EURO), V(K_GRIN), V(K_MAX), V(K_A))},
    {"boundaries", PIECES(V(K_NUL), V(K_7F), V(K_80), V(K_7FF), V(K_800), V(K_D7FF), V(K_E000),
                          V(K_FFFD), V(K_FFFF), V(K_10000), V(K_MAX))},
    {"Latin-1 range", PIECES(V(K_A), V(K_E9), V(K_FF), V(K_80), V(K_NUL))},
    {"E0 9F BF (overlong) -> 3", PIECES(B1(0xE0), B1(0x9F), B1(0xBF))},
    {"F0 80 80 80 (overlong) -> 4", PIECES(B1(0xF0), B1(0x80), B1(0x80), B1(0x80))},
    {"C2 at the end", PIECES(V(K_A), B1(0xC2))},
    {"C2 41", PIECES(B1(0xC2), V(K_A))},
    {"lone continuations 80 BF", PIECES(B1(0x80), B1(0xBF))},
    {"FE FF C1 F5", PIECES(B1(0xFE), B1(0xFF), B1(0xC1), B1(0xF5))},
    {"E1 80 E1 80", PIECES(B2(0xE1, 0x80), B2(0xE1, 0x80))},
    {"F4 8F BF 41", PIECES(B3(0xF4, 0x8F, 0xBF), V(K_A))},
    {"F0 9F 98 then a whole emoji", PIECES(V(K_A), B3(0xF0, 0x9F, 0x98), V(K_GRIN), B1(0xED),
                                           B1(0xA0), B1(0x80), V(K_E9))},
    {"ASCII run then truncated", PIECES(AX16, V(K_A), B2(0xE2, 0x82))},
    {"ASCII run then 4-byte", PIECES(AX4, AX4, V(K_A), V(K_GRIN), AX4)},
    {"ED 9F BF ok, ED A0 bad", PIECES(V(K_D7FF), B1(0xED), B1(0xA0), V(K_A))},
    {"EF BF BD is U+FFFD, not a replacement", PIECES(V(K_FFFD), B1(0xFF))},
    {"E9 then U+20AC (Latin-1 stops)", PIECES(V(K_E9), V(K_EURO), V(K_A))},
    {"Latin-1 prefix then bad", PIECES(V(K_E9), V(K_A), B1(0xC0))},
};

/* UTF-16 sources (run as LE and as BE). */
static const struct sample utf16_samples[] = {
    {"empty", {{0}}, 0},
    {"mixed valid", PIECES(V(K_A), V(K_E9), V(K_EURO), V(K_GRIN), V(K_MAX), V(K_A))},
    {"boundaries", PIECES(V(K_NUL), V(K_7F), V(K_80), V(K_7FF), V(K_800), V(K_D7FF), V(K_E000),
                          V(K_FFFD), V(K_FFFF), V(K_10000), V(K_MAX))},
    {"Latin-1 range", PIECES(V(K_A), V(K_E9), V(K_FF), V(K_80), V(K_NUL))},
    {"lone high at the end", PIECES(V(K_A), B1(0xD800))},
    {"lone low", PIECES(B1(0xDC00), V(K_A))},
    {"high then non-low", PIECES(B1(0xD83D), V(K_A))},
    {"reversed pair", PIECES(B1(0xDE00), B1(0xD83D))},
    {"high, high, pair", PIECES(B1(0xDBFF), B1(0xDBFF), V(K_GRIN))},
    {"ASCII run then lone low", PIECES(AX4, AX4, V(K_A), B1(0xDFFF), V(K_A))},
    {"pair then lone high", PIECES(V(K_GRIN), B1(0xD800))},
    {"U+FFFD itself", PIECES(V(K_FFFD), B1(0xDC00))},
    {"E9 then U+0100 (Latin-1 stops)", PIECES(V(K_E9), V(K_100), V(K_A))},
};

static const struct sample utf32_samples[] = {
    {"empty", {{0}}, 0},
    {"mixed valid", PIECES(V(K_A), V(K_E9), V(K_EURO), V(K_GRIN), V(K_MAX), V(K_A))},
    {"boundaries", PIECES(V(K_NUL), V(K_7F), V(K_80), V(K_7FF), V(K_800), V(K_D7FF), V(K_E000),
                          V(K_FFFD), V(K_FFFF), V(K_10000), V(K_MAX))},
    {"Latin-1 range", PIECES(V(K_A), V(K_E9), V(K_FF), V(K_80), V(K_NUL))},
    {"surrogates and out of range",
     PIECES(V(K_A), B1(0xD800), B1(0xDFFF), B1(0x110000), B1(0xFFFFFFFF), B1(0x7FFFFFFF),
            B1(0xDBFF), V(K_E9))},
    {"0x110000 alone", PIECES(B1(0x110000))},
    {"E9 then U+0100 (Latin-1 stops)", PIECES(V(K_E9), V(K_100), V(K_A))},
};

static const struct sample latin1_samples[] = {
    {"empty", {{0}}, 0},
    {"Latin-1 range", PIECES(V(K_A), V(K_E9), V(K_FF), V(K_80), V(K_NUL), V(K_7F))},
    {"long mixed", PIECES(AX4, V(K_E9), AX4, AX4, V(K_FF), V(K_FF), AX4, V(K_80))},
    {"ASCII only", PIECES(AX16, AX4)},
};

/* ------------------------------------------------------------ expectations */
struct built {
  unsigned char src[512];
  size_t n;                 /* source units */
  size_t starts[MAX_PIECES]; /* source offset of each piece */
};

static void build_source(const struct sample *s, enum ref_enc from, struct built *b) {
  size_t i, j;
  b->n = 0;
  for (i = 0; i < s->count; i++) {
    uint32_t u[4];
    size_t k = s->p[i].k >= 0 ? kchar_units(s->p[i].k, from, u) : s->p[i].nbad;
    if (s->p[i].k < 0) memcpy(u, s->p[i].bad, sizeof u);
    b->starts[i] = b->n;
    for (j = 0; j < k; j++) ref_put_unit(from, b->src, b->n++, u[j]);
  }
}

/* The contract, applied to the hand segmentation. */
static utfx_result expected(const struct sample *s, const struct built *b, enum ref_enc to,
                            size_t cap, unsigned flags, unsigned char *out) {
  utfx_result r = {UTFX_OK, b->n, 0, 0};
  size_t i, j;
  for (i = 0; i < s->count; i++) {
    int bad = s->p[i].k < 0, k = bad ? K_FFFD : s->p[i].k;
    uint32_t u[4];
    size_t units = kchar_units(k, to, u);
    if ((bad && !(flags & UTFX_REPLACE)) || (to == REF_LATIN1 && kchars[k].cp > 0xFF)) {
      r.status = UTFX_INVALID;
      r.read = b->starts[i];
      return r;
    }
    if (r.written + units > cap) {
      r.status = UTFX_DST_FULL;
      r.read = b->starts[i];
      return r;
    }
    for (j = 0; j < units; j++) ref_put_unit(to, out, r.written + j, u[j]);
    r.written += units;
    r.replaced += (size_t)bad;
  }
  return r;
}

static size_t first_bad(const struct sample *s, const struct built *b) {
  size_t i;
  for (i = 0; i < s->count; i++)
    if (s->p[i].k < 0) return b->starts[i];
  return b->n;
}

/* Units the REPLACE conversion writes; for Latin-1: characters. */
static size_t needed(const struct sample *s, enum ref_enc to) {
  size_t i, total = 0;
  uint32_t u[4];
  for (i = 0; i < s->count; i++)
    total += to == REF_LATIN1 ? 1 : kchar_units(s->p[i].k < 0 ? K_FFFD : s->p[i].k, to, u);
  return total;
}

/* Aligned scratch for outputs, with room for a canary after cap units. */
static union {
  unsigned char b[2048];
  uint32_t align;
} want_buf, got_buf;

static void run_conversion(const struct sample *s, const struct built *b,
                           const struct convert_op *op) {
  size_t usz = ref_unit_size(op->to), need = needed(s, op->to), cap;
  unsigned flags;
  for (flags = 0; flags <= 1; flags++) {
    for (cap = 0; cap <= need + 2; cap++) {
      utfx_result want, got;
      char what[160];
      size_t total = (cap + CANARY_UNITS) * usz;
      snprintf(what, sizeof what, "%s [%s] cap %zu %s", op->name, s->name, cap,
               flags ? "REPLACE" : "STRICT");
      memset(want_buf.b, CANARY_BYTE, sizeof want_buf.b);
      memset(got_buf.b, CANARY_BYTE, sizeof got_buf.b);
      want = expected(s, b, op->to, cap, flags, want_buf.b);
      got = op->pub(b->n ? b->src : NULL, b->n, cap ? got_buf.b : NULL, cap, flags);
      CHECK_RESULT(got, want, what);
      CHECK(got.written <= cap && memcmp(got_buf.b, want_buf.b, got.written * usz) == 0,
            "%s: output differs", what);
      CHECK(got.written <= cap && canary_intact(got_buf.b, got.written * usz, total),
            "%s: bytes at or after dst + written modified", what);
      /* The reference must agree with the hand-derived answer. */
      memset(got_buf.b, CANARY_BYTE, sizeof got_buf.b);
      got = ref_convert(op->from, b->src, b->n, op->to, got_buf.b, cap, flags);
      CHECK_RESULT(got, want, "reference");
      CHECK(memcmp(got_buf.b, want_buf.b, total) == 0, "%s: reference output differs", what);
    }
  }
}

static void run_samples(const struct sample *samples, size_t count, enum ref_enc from) {
  size_t i, j;
  for (i = 0; i < count; i++) {
    const struct sample *s = &samples[i];
    struct built b;
    build_source(s, from, &b);
    for (j = 0; j < CONVERT_OP_COUNT; j++)
      if (convert_ops[j].from == from) run_conversion(s, &b, &convert_ops[j]);
    for (j = 0; j < VALIDATE_OP_COUNT; j++) {
      const struct validate_op *op = &validate_ops[j];
      utfx_result r;
      size_t want = first_bad(s, &b);
      if (op->enc != from || op->ascii) continue;
      r = op->pub(b.n ? b.src : NULL, b.n);
      CHECK(r.status == (want == b.n ? UTFX_OK : UTFX_INVALID) && r.read == want &&
                r.written == 0,
            "%s [%s]: status %d read %zu, want read %zu", op->name, s->name, (int)r.status,
            r.read, want);
      CHECK(ref_validate(from, b.src, b.n) == want, "reference validate [%s]", s->name);
    }
    for (j = 0; j < LENGTH_OP_COUNT; j++) {
      const struct length_op *op = &length_ops[j];
      size_t got, want = needed(s, op->to);
      if (op->from != from) continue;
      got = op->pub(b.n ? b.src : NULL, b.n);
      CHECK(got == want, "%s [%s]: %zu, want %zu", op->name, s->name, got, want);
      CHECK(ref_length(op->to, from, b.src, b.n) == want, "reference length [%s]", s->name);
    }
  }
}

#define COUNT_OF(a) (sizeof(a) / sizeof((a)[0]))

static void suite_conversions(void) {
  run_samples(utf8_samples, COUNT_OF(utf8_samples), REF_UTF8);
  tap_group("UTF-8 sources: conversions, validation, lengths, every capacity");
  run_samples(utf16_samples, COUNT_OF(utf16_samples), REF_UTF16LE);
  tap_group("UTF-16LE sources: conversions, validation, lengths, every capacity");
  run_samples(utf16_samples, COUNT_OF(utf16_samples), REF_UTF16BE);
  tap_group("UTF-16BE sources: conversions, validation, lengths, every capacity");
  run_samples(utf32_samples, COUNT_OF(utf32_samples), REF_UTF32);
  tap_group("UTF-32 sources: conversions, validation, lengths, every capacity");
  run_samples(latin1_samples, COUNT_OF(latin1_samples), REF_LATIN1);
  tap_group("Latin-1 sources: conversions, lengths, every capacity");
}

/* ------------------------------------------------------------ explicit rows
 * A few answers spelled out literally, so the rules read directly in code. */
static void suite_explicit(void) {
  char16_t u16[16];
  char32_t u32[8];
  char l1[8];
  char u8[16];
  utfx_result r;

  /* 61 E2 82 41 STRICT: read 1 (first byte of the maximal subpart), not 3. */
  r = utfx_convert_utf8_to_utf16le("a\xE2\x82\x41", 4, u16, 16, UTFX_STRICT);
  CHECK(r.status == UTFX_INVALID && r.read == 1 && r.written == 1 && r.replaced == 0,
        "61 E2 82 41 strict");
  r = utfx_validate_utf8("a\xE2\x82\x41", 4);
  CHECK(r.status == UTFX_INVALID && r.read == 1, "61 E2 82 41 validate");
  /* The valid prefix fills cap exactly, then an ill-formed unit: INVALID. */
  r = utfx_convert_utf8_to_utf32("ab\xFF", 3, u32, 2, UTFX_STRICT);
  CHECK(r.status == UTFX_INVALID && r.read == 2 && r.written == 2, "prefix fills cap, strict");
  r = utfx_convert_utf8_to_utf32("ab\xFF", 3, u32, 2, UTFX_REPLACE);
  CHECK(r.status == UTFX_DST_FULL && r.read == 2 && r.written == 2 && r.replaced == 0,
        "prefix fills cap, replace");
  /* A 4-byte character that does not fit is not split. */
  memset(u16, 0, sizeof u16);
  r = utfx_convert_utf8_to_utf16le("a\xF0\x9F\x98\x80", 5, u16, 2, UTFX_STRICT);
  CHECK(r.status == UTFX_DST_FULL && r.read == 1 && r.written == 1 && u16[1] == 0,
        "surrogate pair does not fit");
  memset(u8, 0x55, sizeof u8);
  {
    /* utf16le input is little-endian in memory whatever the host. */
    char16_t pair[3];
    ref_put_unit(REF_UTF16LE, pair, 0, 0x61);
    ref_put_unit(REF_UTF16LE, pair, 1, 0xD83D);
    ref_put_unit(REF_UTF16LE, pair, 2, 0xDE00);
    r = utfx_convert_utf16le_to_utf8(pair, 3, u8, 4, UTFX_STRICT);
    CHECK(r.status == UTFX_DST_FULL && r.read == 1 && r.written == 1 && u8[1] == 0x55,
          "4-byte UTF-8 does not fit");
    r = utfx_convert_utf16le_to_utf8(pair, 3, u8, 5, UTFX_STRICT);
    CHECK(r.status == UTFX_OK && r.read == 3 && r.written == 5 &&
              memcmp(u8, "a\xF0\x9F\x98\x80", 5) == 0,
          "4-byte UTF-8 fits exactly");
  }
  /* Latin-1 targets: a code point above U+00FF is INVALID at its offset in
   * both modes, U+FFFD included. */
  r = utfx_convert_utf8_to_latin1("\xC3\xA9\xE2\x82\xAC", 5, l1, 8, UTFX_REPLACE);
  CHECK(r.status == UTFX_INVALID && r.read == 2 && r.written == 1 && (unsigned char)l1[0] == 0xE9,
        "utf8->latin1 euro");
  r = utfx_convert_utf8_to_latin1("a\x80", 2, l1, 8, UTFX_REPLACE);
  CHECK(r.status == UTFX_INVALID && r.read == 1 && r.written == 1, "utf8->latin1 bad byte");
  {
    static const char32_t big[] = {0x41, 0x100};
    r = utfx_convert_utf32_to_latin1(big, 2, l1, 8, UTFX_STRICT);
    CHECK(r.status == UTFX_INVALID && r.read == 1 && r.written == 1, "utf32->latin1 U+0100");
  }
  /* REPLACE writes U+FFFD as EF BF BD and counts it. */
  {
    char16_t lone[3];
    ref_put_unit(REF_UTF16LE, lone, 0, 0x41);
    ref_put_unit(REF_UTF16LE, lone, 1, 0xD800);
    ref_put_unit(REF_UTF16LE, lone, 2, 0x42);
    r = utfx_convert_utf16le_to_utf8(lone, 3, u8, 16, UTFX_REPLACE);
    CHECK(r.status == UTFX_OK && r.read == 3 && r.written == 5 && r.replaced == 1 &&
              memcmp(u8, "A\xEF\xBF\xBD" "B", 5) == 0,
          "lone surrogate -> EF BF BD");
  }
  /* cap 0, dst NULL. */
  r = utfx_convert_latin1_to_utf8("a", 1, NULL, 0, UTFX_STRICT);
  CHECK(r.status == UTFX_DST_FULL && r.read == 0 && r.written == 0, "cap 0");
  r = utfx_convert_latin1_to_utf8(NULL, 0, NULL, 0, UTFX_STRICT);
  CHECK(r.status == UTFX_OK && r.read == 0 && r.written == 0, "n 0, cap 0");
  /* ASCII validation. */
  r = utfx_validate_ascii("abc", 3);
  CHECK(r.status == UTFX_OK && r.read == 3 && r.written == 0, "ascii ok");
  r = utfx_validate_ascii("ab\x80", 3);
  CHECK(r.status == UTFX_INVALID && r.read == 2, "ascii 0x80");
  r = utfx_validate_ascii("aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\xFF", 33);
  CHECK(r.status == UTFX_INVALID && r.read == 32, "ascii 0xFF after 32");
  r = utfx_validate_ascii("\x7F\x00", 2);
  CHECK(r.status == UTFX_OK && r.read == 2, "ascii 7F 00");
  r = utfx_validate_ascii(NULL, 0);
  CHECK(r.status == UTFX_OK && r.read == 0, "ascii empty");
  r = utfx_validate_ascii("\xC3\xA9", 2);
  CHECK(r.status == UTFX_INVALID && r.read == 0, "ascii: valid UTF-8 is not ASCII");
  tap_group("explicit rows (design.md section 2 rules)");
}

/* ------------------------------------------------------------ repair */
static void repair_case(int be, const uint16_t *in, const uint16_t *want, size_t n,
                        const char *what) {
  enum ref_enc e = be ? REF_UTF16BE : REF_UTF16LE;
  char16_t src[32] = {0}, dst[40], exp[32] = {0};
  size_t i;
  for (i = 0; i < n; i++) {
    ref_put_unit(e, src, i, in[i]);
    ref_put_unit(e, exp, i, want[i]);
  }
  memset(dst, CANARY_BYTE, sizeof dst);
  (be ? utfx_to_well_formed_utf16be : utfx_to_well_formed_utf16le)(src, n, dst);
  CHECK(memcmp(dst, exp, n * 2) == 0, "%s %s: output", be ? "be" : "le", what);
  CHECK(canary_intact((unsigned char *)dst, n * 2, sizeof dst), "%s %s: wrote past n",
        be ? "be" : "le", what);
  /* In place. */
  (be ? utfx_to_well_formed_utf16be : utfx_to_well_formed_utf16le)(src, n, src);
  CHECK(memcmp(src, exp, n * 2) == 0, "%s %s: in place", be ? "be" : "le", what);
}

static void suite_repair(void) {
  static const struct {
    const char *name;
    uint16_t in[12], want[12];
    size_t n;
  } rows[] = {
      {"valid", {0x41, 0xE9, 0xD83D, 0xDE00, 0xFFFD}, {0x41, 0xE9, 0xD83D, 0xDE00, 0xFFFD}, 5},
      {"lone high at end", {0x41, 0xD800}, {0x41, 0xFFFD}, 2},
      {"lone low", {0xDC00, 0x41}, {0xFFFD, 0x41}, 2},
      {"reversed pair", {0xDE00, 0xD83D}, {0xFFFD, 0xFFFD}, 2},
      {"high high low", {0xD800, 0xD801, 0xDC01}, {0xFFFD, 0xD801, 0xDC01}, 3},
      {"high low low", {0xDBFF, 0xDFFF, 0xDFFF}, {0xDBFF, 0xDFFF, 0xFFFD}, 3},
      {"run", {0x61, 0x62, 0x63, 0x64, 0x65, 0x66, 0x67, 0x68, 0xDC00, 0x69},
       {0x61, 0x62, 0x63, 0x64, 0x65, 0x66, 0x67, 0x68, 0xFFFD, 0x69}, 10},
      {"one unit", {0xD800}, {0xFFFD}, 1},
  };
  size_t i;
  for (i = 0; i < COUNT_OF(rows); i++) {
    repair_case(0, rows[i].in, rows[i].want, rows[i].n, rows[i].name);
    repair_case(1, rows[i].in, rows[i].want, rows[i].n, rows[i].name);
  }
  utfx_to_well_formed_utf16le(NULL, 0, NULL);
  utfx_to_well_formed_utf16be(NULL, 0, NULL);
  tap_group("to_well_formed_utf16le/be (also in place)");
}

static void suite(void) {
  suite_conversions();
  suite_explicit();
  suite_repair();
}

/* ------------------------------------------------------------ once only */
static void check_misc(void) {
  char buf[16];
  CHECK(strcmp(utfx_status_string(UTFX_OK), "OK") == 0, "status OK");
  CHECK(strcmp(utfx_status_string(UTFX_INVALID), "invalid input") == 0, "status INVALID");
  CHECK(strcmp(utfx_status_string(UTFX_DST_FULL), "destination full") == 0, "status DST_FULL");
  CHECK(strcmp(utfx_version(), UTFX_VERSION_STRING) == 0, "version %s", utfx_version());
  snprintf(buf, sizeof buf, "%d.%d.%d", UTFX_VERSION_MAJOR, UTFX_VERSION_MINOR,
           UTFX_VERSION_PATCH);
  CHECK(strcmp(utfx_version(), buf) == 0, "version is MAJOR.MINOR.PATCH: %s", buf);
  CHECK(utfx_version_number() == UTFX_VERSION_NUMBER, "version number");
  tap_group("status strings and version");
}

/* utfx_cpu_features: space-separated known names, truncated to cap - 1
 * characters plus a NUL, returning the full length, writing nothing else. */
static void check_cpu_features(void) {
  static const char *const known[] = {"avx2",     "bmi1",     "bmi2",       "lzcnt",
                                      "popcnt",   "avx512f",  "avx512bw",   "avx512vl",
                                      "avx512vbmi", "avx512vbmi2", "neon",
                                      "avx512cd"};
  char full[512], buf[600], copy[512];
  size_t len = utfx_cpu_features(full, sizeof full), cap;
  char *word;
  CHECK(len < sizeof full && strlen(full) == len, "full string, length %zu", len);
  CHECK(utfx_cpu_features(NULL, 0) == len, "cap 0 with NULL gives the length");
  memcpy(copy, full, len + 1);
  for (word = strtok(copy, " "); word; word = strtok(NULL, " ")) {
    size_t i, found = 0;
    for (i = 0; i < sizeof known / sizeof known[0]; i++) found |= strcmp(word, known[i]) == 0;
    CHECK(found, "unknown feature name '%s'", word);
  }
  CHECK(len == 0 || (full[0] != ' ' && full[len - 1] != ' ' && !strstr(full, "  ")),
        "single spaces between names: '%s'", full);
  for (cap = 1; cap <= len + 2; cap++) {
    size_t k = cap - 1 < len ? cap - 1 : len;
    memset(buf, CANARY_BYTE, sizeof buf);
    CHECK(utfx_cpu_features(buf, cap) == len, "cap %zu: returns the full length", cap);
    CHECK(memcmp(buf, full, k) == 0 && buf[k] == '\0', "cap %zu: truncated copy", cap);
    CHECK(canary_intact((unsigned char *)buf, k + 1, sizeof buf), "cap %zu: wrote past NUL",
          cap);
  }
  printf("# cpu features: %s\n", full);
  tap_group("utfx_cpu_features: names, truncation, return value");
}

static void check_dispatch_api(void) {
  size_t i, count = utfx_implementation_count();
  const char *before;
  CHECK(count >= 1, "at least one implementation");
  CHECK(strcmp(utfx_implementation_name(count - 1), "scalar") == 0, "scalar is last");
  CHECK(utfx_implementation_name(count) == NULL, "name past the end is NULL");
  CHECK(utfx_implementation_supported("scalar") == 1, "scalar supported");
  CHECK(utfx_implementation_supported("no-such-impl") == 0, "unknown not supported");
  CHECK(utfx_set_implementation("scalar") == 0, "scalar always accepted");
  CHECK(strcmp(utfx_implementation(), "scalar") == 0, "scalar active");
  for (i = 0; i < count; i++) {
    const char *name = utfx_implementation_name(i);
    int ok;
    CHECK(name != NULL && *name, "name %zu", i);
    before = utfx_implementation();
    ok = utfx_set_implementation(name) == 0;
    CHECK(ok == utfx_implementation_supported(name), "%s: set agrees with supported", name);
    CHECK(strcmp(utfx_implementation(), ok ? name : before) == 0, "%s: active after set",
          name);
    /* An unknown name is rejected and leaves the choice unchanged. */
    before = utfx_implementation();
    CHECK(utfx_set_implementation("no-such-impl") != 0, "unknown name rejected");
    CHECK(utfx_set_implementation("") != 0, "empty name rejected");
    CHECK(strcmp(utfx_implementation(), before) == 0, "unknown name leaves %s", before);
  }
  CHECK(utfx_set_implementation("scalar") == 0, "back to scalar");
  tap_group("dispatch API: count, names, supported, set");
}

int main(void) {
  tap_for_each_impl(suite);
  check_misc();
  check_cpu_features();
  check_dispatch_api();
  return tap_done();
}
