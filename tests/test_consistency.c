/* Consistency between functions and between tiers, on many random inputs
 * (valid mixed-script text, and text corrupted with bytes biased toward the
 * interesting ones: C0-C2, E0, ED, F0, F4, F5-FF, continuation bytes, lone
 * surrogates, out-of-range UTF-32), at unaligned source and destination
 * offsets, run once per kernel tier:
 *   - every length function equals what the REPLACE conversion writes;
 *   - the STRICT conversion's read equals the validation's offset;
 *   - round trips of valid text are the identity;
 *   - every public function gives byte-identical results (status, read,
 *     written, replaced, output, untouched bytes after the output) to the
 *     scalar kernel utfxi_*_scalar of src/internal.h, for several capacities;
 *   - length functions on 2 MiB inputs count a sequence that straddles a
 *     1 MiB / 2 MiB chunk boundary exactly once;
 *   - the UTF-32 lengths equal scalar with a class-edge value at every
 *     position, and on long inputs whose class changes, at run ends. */
#include <string.h>

#include "internal.h"
#include "support/emulated.h"
#include "support/expect.h"
#include "support/guard.h"
#include "support/ops.h"
#include "support/reference.h"
#include "tap.h"

#define COUNT_OF(a) (sizeof(a) / sizeof((a)[0]))
#define MAX_CPS 1200
#define MAX_UNITS (MAX_CPS * 4)
#define ALIGN_SLACK 64

static union {
  unsigned char b[(MAX_UNITS + ALIGN_SLACK) * 4];
  uint64_t align;
} src_buf, out_a, out_b, back;

static test_rng rng;

static uint32_t random_cp(void) {
  static const uint32_t ranges[][2] = {
      {0x20, 0x7E},      {0x00, 0x7F},     {0x80, 0xFF},       {0x100, 0x7FF},
      {0x400, 0x4FF},    {0x800, 0xFFFF},  {0x4E00, 0x9FFF},   {0xE000, 0xFFFF},
      {0x10000, 0x1FFFF}, {0x1F300, 0x1FAFF}, {0x100000, 0x10FFFF}};
  size_t r = (size_t)rng_below(&rng, COUNT_OF(ranges));
  uint32_t cp = ranges[r][0] + (uint32_t)rng_below(&rng, ranges[r][1] - ranges[r][0] + 1);
  if (cp >= 0xD800 && cp <= 0xDFFF) cp = 0xFFFD;
  return cp;
}

/* Text of "scripts": long runs from one range, as real text has. */
static size_t make_valid(enum ref_enc e, unsigned char *dst, size_t max_units) {
  size_t n = 0, target = (size_t)rng_below(&rng, max_units + 1);
  int ascii_run = rng_below(&rng, 3) == 0;
  uint32_t base = random_cp();
  unsigned char tmp[16];
  while (n < target) {
    uint32_t cp;
    size_t units, j;
    switch (rng_below(&rng, 8)) {
      case 0:
        base = random_cp();
        cp = base;
        break;
      case 1:
      case 2:
        cp = 0x20 + (uint32_t)rng_below(&rng, 0x5F);
        break;
      default:
        cp = ascii_run ? 0x61 : base + (uint32_t)rng_below(&rng, 16);
        if ((cp >= 0xD800 && cp <= 0xDFFF) || cp > 0x10FFFF) cp = 0x62;
        break;
    }
    if (e == REF_LATIN1) cp &= 0xFF;
    units = ref_encode(e, cp, tmp);
    if (n + units > max_units) break;
    for (j = 0; j < units; j++) ref_put_unit(e, dst, n + j, ref_get_unit(e, tmp, j));
    n += units;
  }
  return n;
}

static uint32_t biased_byte(void) {
  static const unsigned char special[] = {0xC0, 0xC1, 0xC2, 0xDF, 0xE0, 0xED, 0xEF, 0xF0,
                                          0xF4, 0xF5, 0xF7, 0xF8, 0xFE, 0xFF, 0x80, 0x8F,
                                          0x90, 0x9F, 0xA0, 0xBF, 0x41, 0x00};
  switch (rng_below(&rng, 3)) {
    case 0:
      return special[rng_below(&rng, sizeof special)];
    case 1:
      return 0x80 + (uint32_t)rng_below(&rng, 0x40); /* continuation */
    default:
      return (uint32_t)rng_below(&rng, 256);
  }
}

/* Corrupts a few units of valid text. */
static void corrupt(enum ref_enc e, unsigned char *buf, size_t n) {
  size_t k = 1 + (size_t)rng_below(&rng, 4), i;
  if (n == 0) return;
  for (i = 0; i < k; i++) {
    size_t at = (size_t)rng_below(&rng, n);
    uint32_t u;
    switch (e) {
      case REF_UTF8:
        u = biased_byte();
        break;
      case REF_UTF16LE:
      case REF_UTF16BE:
        u = 0xD800 + (uint32_t)rng_below(&rng, 0x800);
        break;
      case REF_UTF32:
        u = rng_below(&rng, 2) ? 0xD800 + (uint32_t)rng_below(&rng, 0x800)
                               : 0x110000 + (uint32_t)rng_below(&rng, 0x7FEF0000);
        break;
      default:
        u = (uint32_t)rng_below(&rng, 256);
        break;
    }
    ref_put_unit(e, buf, at, u);
  }
}

/* Random input: valid, corrupted, or (UTF-8) pure biased noise. */
static size_t make_input(enum ref_enc e, unsigned char *buf, size_t max_units, int *valid) {
  size_t n = make_valid(e, buf, max_units), i;
  *valid = 1;
  switch (rng_below(&rng, 4)) {
    case 0:
      break;
    case 1:
    case 2:
      corrupt(e, buf, n);
      *valid = e == REF_LATIN1;
      break;
    default:
      if (e == REF_UTF8)
        for (i = 0; i < n; i++) buf[i] = (unsigned char)biased_byte();
      else
        corrupt(e, buf, n);
      *valid = e == REF_LATIN1;
      break;
  }
  if (!*valid) *valid = ref_validate(e, buf, n) == n;
  return n;
}

/* ------------------------------------------------------------ checks */
static void compare_with_scalar(const struct convert_op *op, const void *src, size_t n,
                                size_t cap, unsigned flags, size_t dst_off, const char *what) {
  size_t usz = ref_unit_size(op->to), total = (cap + CANARY_UNITS) * usz;
  unsigned char *a = out_a.b + dst_off * usz, *b = out_b.b + dst_off * usz;
  utfx_result ra, rb;
  memset(a, CANARY_BYTE, total);
  memset(b, CANARY_BYTE, total);
  ra = op->pub(src, n, cap ? a : NULL, cap, flags);
  rb = op->scalar(src, n, cap ? b : NULL, cap, flags);
  CHECK_RESULT(ra, rb, op->name);
  CHECK(memcmp(a, b, total) == 0, "%s %s cap %zu flags %u: bytes differ from scalar", op->name,
        what, cap, flags);
}

static void check_input(enum ref_enc e, const void *src, size_t n, int valid,
                        const char *what) {
  size_t i, validate_at = n, dst_off = (size_t)rng_below(&rng, 16);
  for (i = 0; i < VALIDATE_OP_COUNT; i++) {
    const struct validate_op *op = &validate_ops[i];
    utfx_result a, b;
    if (op->enc != e) continue;
    a = op->pub(src, n);
    b = op->scalar(src, n);
    CHECK_RESULT(a, b, op->name);
    if (!op->ascii) validate_at = a.read;
  }
  CHECK(valid == (validate_at == n), "%s: validity", what);
  for (i = 0; i < LENGTH_OP_COUNT; i++) {
    const struct length_op *op = &length_ops[i];
    const struct convert_op *conv;
    size_t len, usz;
    utfx_result r;
    if (op->from != e) continue;
    len = op->pub(src, n);
    CHECK(len == op->scalar(src, n), "%s %s: differs from scalar", op->name, what);
    if (op->to == e) continue; /* utf16 length of a UTF-16 source does not exist */
    conv = find_convert(e, op->to);
    if (!conv) continue;
    usz = ref_unit_size(op->to);
    r = conv->pub(src, n, out_a.b, MAX_UNITS * 4 / usz, UTFX_REPLACE);
    if (op->to == REF_LATIN1 && r.status == UTFX_INVALID) {
      CHECK(len > r.written, "%s %s: %zu, conversion stopped at %zu", op->name, what, len,
            r.written);
      continue;
    }
    CHECK(r.status == UTFX_OK && r.written == len, "%s %s: length %zu, REPLACE wrote %zu",
          op->name, what, len, r.written);
    /* A destination sized by the length function always suffices. */
    r = conv->pub(src, n, out_a.b, len, UTFX_REPLACE);
    CHECK(r.status == UTFX_OK && r.written == len, "%s %s: exact capacity", op->name, what);
  }
  for (i = 0; i < CONVERT_OP_COUNT; i++) {
    const struct convert_op *op = &convert_ops[i];
    size_t need, caps[5], c, room;
    unsigned flags;
    utfx_result r;
    if (op->from != e) continue;
    need = ref_length(op->to == REF_LATIN1 ? REF_UTF32 : op->to, e, src, n);
    r = op->pub(src, n, out_a.b, need + 8, UTFX_STRICT);
    if (op->to != REF_LATIN1)
      CHECK(r.read == validate_at, "%s %s: STRICT read %zu, validate %zu", op->name, what,
            r.read, validate_at);
    else
      CHECK(r.read <= validate_at, "%s %s: STRICT read %zu > validate %zu", op->name, what,
            r.read, validate_at);
    caps[0] = need;
    caps[1] = need ? need - 1 : 0;
    caps[2] = (size_t)rng_below(&rng, need + 1);
    caps[3] = need + 3;
    /* room for the worst case: kernels run unchecked (plain stores that
     * spill past the output) when the capacity is that large */
    room = sizeof out_a.b / ref_unit_size(op->to) - CANARY_UNITS - 16;
    caps[4] = 4 * n < room ? 4 * n : room;
    for (flags = 0; flags <= 1; flags++)
      for (c = 0; c < 5; c++) compare_with_scalar(op, src, n, caps[c], flags, dst_off, what);
  }
  if (e == REF_UTF16LE || e == REF_UTF16BE) {
    void (*pub)(const char16_t *, size_t, char16_t *) =
        e == REF_UTF16LE ? utfx_to_well_formed_utf16le : utfx_to_well_formed_utf16be;
    void (*scalar)(const char16_t *, size_t, char16_t *) =
        e == REF_UTF16LE ? utfxi_to_well_formed_utf16le_scalar
                         : utfxi_to_well_formed_utf16be_scalar;
    memset(out_a.b, CANARY_BYTE, 2 * n + 16);
    memset(out_b.b, CANARY_BYTE, 2 * n + 16);
    pub(src, n, (char16_t *)out_a.b);
    scalar(src, n, (char16_t *)out_b.b);
    CHECK(memcmp(out_a.b, out_b.b, 2 * n + 16) == 0, "to_well_formed %s: differs", what);
    CHECK(validate_ops[e].pub(out_a.b, n).status == UTFX_OK, "to_well_formed %s: not well formed",
          what);
    memcpy(out_b.b, src, 2 * n);
    pub((const char16_t *)out_b.b, n, (char16_t *)out_b.b);
    CHECK(memcmp(out_a.b, out_b.b, 2 * n) == 0, "to_well_formed in place %s: differs", what);
  }
}

/* Valid text: from -> to -> from is the identity (Latin-1 when representable). */
static void check_round_trips(enum ref_enc e, const void *src, size_t n, const char *what) {
  size_t i;
  for (i = 0; i < CONVERT_OP_COUNT; i++) {
    const struct convert_op *there = &convert_ops[i], *home;
    utfx_result r1, r2;
    size_t usz = ref_unit_size(e);
    if (there->from != e) continue;
    home = find_convert(there->to, e);
    r1 = there->pub(src, n, out_a.b, MAX_UNITS * 4 / ref_unit_size(there->to), UTFX_STRICT);
    if (there->to == REF_LATIN1 && r1.status == UTFX_INVALID) continue;
    CHECK(r1.status == UTFX_OK && r1.read == n, "%s %s: status %d", there->name, what,
          (int)r1.status);
    memset(back.b, CANARY_BYTE, n * usz + 8);
    r2 = home->pub(out_a.b, r1.written, back.b, n, UTFX_STRICT);
    CHECK(r2.status == UTFX_OK && r2.written == n && memcmp(back.b, src, n * usz) == 0,
          "%s then %s %s: not the identity", there->name, home->name, what);
  }
}

static void suite(void) {
  int e, i;
  char what[96];
  rng_seed(&rng, 0xC0FFEEull);
  for (e = 0; e < REF_ENC_COUNT; e++) {
    size_t usz = ref_unit_size((enum ref_enc)e);
    for (i = 0; i < 4000; i++) {
      size_t off = (size_t)rng_below(&rng, ALIGN_SLACK), n;
      size_t max = i % 50 == 0 ? MAX_CPS * 4 / usz : (size_t)rng_below(&rng, 300);
      unsigned char *src = src_buf.b + off * usz;
      int valid;
      if (max > MAX_UNITS) max = MAX_UNITS;
      if (!test_keep((size_t)i, 2)) continue; /* half of them under emulation */
      n = make_input((enum ref_enc)e, src, max, &valid);
      snprintf(what, sizeof what, "%s input #%d (n=%zu, offset %zu)",
               ref_enc_name((enum ref_enc)e), i, n, off);
      check_input((enum ref_enc)e, src, n, valid, what);
      if (valid) check_round_trips((enum ref_enc)e, src, n, what);
    }
    snprintf(what, sizeof what, "%s sources: lengths, STRICT read, round trips, = scalar",
             ref_enc_name((enum ref_enc)e));
    tap_group(what);
  }
}

/* ------------------------------------------------------------ big inputs
 * The length kernels count in chunks (UTFXI_LENGTH_CHUNK source units in the
 * scalar code, vector blocks elsewhere): a character or an ill-formed
 * sequence that straddles a chunk boundary must count once. ASCII 'a'
 * around the sequence makes the expected length additive, so the reference
 * only has to decode a small window. */
#define BIG_UNITS (((size_t)1 << 20) * 2 + 64)
static union {
  unsigned char b[BIG_UNITS * 4];
  uint64_t align;
} big;

static void suite_chunk_boundaries(void) {
  static const uint32_t seqs8[][5] = {{4, 0xF0, 0x9F, 0x98, 0x80}, {3, 0xE2, 0x82, 0xAC},
                                      {2, 0xC3, 0xA9},             {2, 0xE2, 0x82},
                                      {3, 0xF0, 0x9F, 0x98},       {3, 0xED, 0xA0, 0x80},
                                      {1, 0xFF}};
  static const uint32_t seqs16[][5] = {{2, 0xD83D, 0xDE00}, {1, 0xD800}, {1, 0xDC00},
                                       {2, 0xDBFF, 0xDFFF}};
  static const uint32_t seqs_other[][5] = {{1, 0xE9}, {1, 0xD800}, {1, 0x1F600}};
  static const size_t boundaries[] = {(size_t)1 << 20, (size_t)2 << 20};
  size_t i, k, bi, j;
  for (i = 0; i < LENGTH_OP_COUNT; i++) {
    const struct length_op *op = &length_ops[i];
    const uint32_t(*seqs)[5] = op->from == REF_UTF8 ? seqs8
                               : op->from == REF_UTF16LE || op->from == REF_UTF16BE ? seqs16
                                                                                   : seqs_other;
    size_t nseqs = op->from == REF_UTF8 ? COUNT_OF(seqs8)
                   : op->from == REF_UTF16LE || op->from == REF_UTF16BE ? COUNT_OF(seqs16)
                                                                       : COUNT_OF(seqs_other);
    for (j = 0; j < BIG_UNITS; j++) ref_put_unit(op->from, big.b, j, 0x61);
    for (k = 0; k < nseqs; k++) {
      size_t len = seqs[k][0];
      if (op->from == REF_LATIN1 && seqs[k][1] > 0xFF) continue;
      for (bi = 0; bi < COUNT_OF(boundaries); bi++) {
        size_t at;
        for (at = boundaries[bi] - len; at <= boundaries[bi]; at++) {
          const size_t win = at - 8, win_len = len + 16;
          size_t want, got;
          for (j = 0; j < len; j++) ref_put_unit(op->from, big.b, at + j, seqs[k][1 + j]);
          want = (BIG_UNITS - win_len) +
                 ref_length(op->to, op->from, big.b + win * ref_unit_size(op->from), win_len);
          got = op->pub(big.b, BIG_UNITS);
          CHECK(got == want, "%s: sequence %X.. at %zu (chunk boundary %zu): %zu, want %zu",
                op->name, (unsigned)seqs[k][1], at, boundaries[bi], got, want);
          for (j = 0; j < len; j++) ref_put_unit(op->from, big.b, at + j, 0x61);
        }
      }
    }
  }
  tap_group("length functions: sequences straddling 1 MiB / 2 MiB chunk boundaries");
}

/* ------------------------------------------------------------ UTF-32 edges
 * The UTF-32 length kernels count classes of values per lane (in vectors of
 * counts, from a head that aligns the loads on long inputs): each value at
 * a class edge, in every position of a short, a middle and a long input
 * (each path of the kernels) on a background of either class, at several
 * alignments, against scalar. */
static void suite_utf32_edges(void) {
  static const uint32_t edges[] = {0x7F,     0x80,       0x7FF,      0x800,     0xD7FF,
                                   0xD800,   0xDFFF,     0xE000,     0xFFFF,    0x10000,
                                   0x10FFFF, 0x110000,   0x1FFFFF,   0x7FFFFFFF, 0x80000000,
                                   0xFFFFFFFF};
  static const uint32_t backgrounds[] = {0x61, 0x1F600};
  static const size_t lengths[] = {70, 300, 1100}, offsets[] = {0, 1, 7, 15};
  size_t i, e, b, l, o, p, calls = 0;
  for (i = 0; i < LENGTH_OP_COUNT; i++) {
    const struct length_op *op = &length_ops[i];
    if (op->from != REF_UTF32) continue;
    for (l = 0; l < COUNT_OF(lengths); l++)
      for (o = 0; o < COUNT_OF(offsets); o++)
        for (b = 0; b < COUNT_OF(backgrounds); b++) {
          uint32_t *s = (uint32_t *)(void *)src_buf.b + offsets[o];
          size_t n = lengths[l];
          for (p = 0; p < n; p++) s[p] = backgrounds[b];
          for (e = 0; e < COUNT_OF(edges); e++) {
            if (!test_keep(e + o, 4)) continue; /* a quarter under emulation */
            for (p = 0; p < n; p++) {
              size_t got, want;
              s[p] = edges[e];
              got = op->pub(s, n);
              want = op->scalar(s, n);
              calls++;
              CHECK(got == want, "%s: %X at %zu of %zu (offset %zu, background %X): %zu, want %zu",
                    op->name, (unsigned)edges[e], p, n, offsets[o], (unsigned)backgrounds[b], got,
                    want);
              s[p] = backgrounds[b];
            }
          }
        }
  }
  CHECK(calls > 0, "no UTF-32 length function");
  tap_group("UTF-32 lengths: class-edge values at every position, = scalar");
}

/* ------------------------------------------------------------ UTF-32 runs
 * Long inputs are counted in runs (avx2: 4064 values, counted first as if
 * below 0x10000 and again with the 4-byte class when they hold more, the
 * next run so too until one holds none; the UTF-16 length's planes: runs
 * of 127 turns, 8128 values on avx2, 16256 on avx512, all multiples of
 * 4064): a class-edge value at the run boundaries and at sampled
 * positions, on backgrounds that change class every 5000 values, at two
 * alignments, against scalar; long enough for two whole avx512 runs. */
static void suite_utf32_runs(void) {
  /* (0x01000000, 0x7FFFFFFF: planes above 0xFF; 0x80000000: the first
   * value whose plane is negative as a signed 16-bit word, v32_planes4) */
  static const uint32_t edges[] = {0x7F,     0x80,       0x800,      0xFFFF,     0x10000,
                                   0x10FFFF, 0x110000,   0x01000000, 0x7FFFFFFF, 0x80000000,
                                   0xFFFFFFFF};
  /* (the third: astral throughout, so that byte-lane counts reach their
   * run's limit) */
  static const uint32_t backgrounds[][2] = {{0x4E00, 0x1F600}, {0x1F600, 0x61}, {0x10FFFF, 0x10000}};
  static uint32_t buf[34000 + 8];
  const size_t n = 34000;
  size_t e, b, o, p, calls = 0;
  for (e = 0; e < LENGTH_OP_COUNT; e++) {
    const struct length_op *op = &length_ops[e];
    size_t k;
    if (op->from != REF_UTF32) continue;
    for (o = 0; o < 2; o++)
      for (b = 0; b < COUNT_OF(backgrounds); b++) {
        uint32_t *s = buf + o * 3;
        for (p = 0; p < n; p++) s[p] = backgrounds[b][(p / 5000) % 2];
        for (k = 0; k < COUNT_OF(edges); k++) {
          if (!test_keep(k + o + b, 4)) continue; /* a quarter under emulation */
          for (p = 0; p < n; p++) {
            size_t got, want, r = p % 4064;
            if (p % 257 != 0 && r >= 40 && r < 4064 - 40) continue;
            s[p] = edges[k];
            got = op->pub(s, n);
            want = op->scalar(s, n);
            calls++;
            CHECK(got == want, "%s: %X at %zu of %zu (offset %zu, backgrounds %zu): %zu, want %zu",
                  op->name, (unsigned)edges[k], p, n, o * 3, b, got, want);
            s[p] = backgrounds[b][(p / 5000) % 2];
          }
        }
      }
  }
  CHECK(calls > 0, "no UTF-32 length function");
  tap_group("UTF-32 lengths: long inputs of changing class, edge values at run ends, = scalar");
}

int main(void) {
  tap_for_each_impl(suite);
  tap_for_each_impl(suite_utf32_edges);
  tap_for_each_impl(suite_utf32_runs);
  tap_for_each_impl(suite_chunk_boundaries);
  return tap_done();
}
