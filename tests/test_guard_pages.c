/* Guard-page tests for every public function, on every kernel tier: each
 * result must equal the scalar kernel's (the specification) exactly, and no
 * call may touch memory outside its buffers.
 *
 * Placement. A source starts exactly at a page whose previous page is
 * PROT_NONE ("front") or ends exactly at a PROT_NONE page ("end"); a
 * destination ends exactly at a PROT_NONE page. To put buffers at every
 * address mod 64 as well, a placement may leave a gap of 0-63 bytes between
 * the buffer and its guard page: the gap holds a canary (destinations) and is
 * poisoned for AddressSanitizer (the sanitizer pass), so a stray access there
 * is caught too; gap 0 is the hardware fault.
 *
 * Inputs: runs of ASCII or of multi-byte characters with one ill-formed or
 * multi-byte item at a given offset (or none), per source encoding. The
 * sweeps, each covering one dimension completely (counts in the TAP lines):
 *   offsets    every length 0..200 with the item at its end, middle and a
 *              rotating offset, and lengths 33, 65, 129, 200 with the item at
 *              every offset; every input in the front and end placements
 *              (gap 0) and one rotating placement; capacities 0, 1, 2, around
 *              the item's output position, full - 1, full, full + 1, 2,
 *              8, 32 and one rotating; both modes;
 *   caps       lengths 0..96 with the item at the end and middle, lengths 32,
 *              64, 65 with the item at every offset: every capacity from 0 to
 *              full + 1 (outputs up to 96 units), both modes, front or end;
 *   alignment  a few inputs per encoding in all 128 source placements (both
 *              sides, every offset 0..63) and all 64 destination gaps;
 *   long       lengths up to 4097 with the item at block edges;
 *   decoder    utfx_decoder_write / _end and the _utf8 forms, every encoding,
 *              one write, or two cut inside the item's first unit, each
 *              continued after DST_FULL with src + read, capacities 0..8 and
 *              around the full output; every cut must be at a character
 *              boundary and the output the one-shot result.
 * Validation and length functions run on every input and placement, the
 * UTF-16 repair functions and the byte swap out of place and in place, and
 * the UTF-8 lengths with the lone-surrogate flag. In the caps sweep the
 * scalar kernels' full outputs are also checked against the naive reference
 * (tests/support/reference.c), so the specification is not taken on trust. */
#define _DEFAULT_SOURCE
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "internal.h"
#include "support/expect.h"
#include "support/guard.h"
#include "support/ops.h"
#include "support/reference.h"
#include "tap.h"

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define GP_ASAN 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__)
#define GP_ASAN 1
#endif
#ifdef GP_ASAN
#include <sanitizer/asan_interface.h>
#define POISON(p, n) ASAN_POISON_MEMORY_REGION((p), (n))
#define UNPOISON(p, n) ASAN_UNPOISON_MEMORY_REGION((p), (n))
#else
#define POISON(p, n) ((void)(p), (void)(n))
#define UNPOISON(p, n) ((void)(p), (void)(n))
#endif

#define COUNT_OF(a) (sizeof(a) / sizeof((a)[0]))
#define MAX_UNITS 4200
#define REGION (MAX_UNITS * 4 * 4 + 4096) /* largest output: 4 UTF-8 bytes per UTF-32 unit */
#define NO_ITEM ((size_t)-1)
#define FULL_CAPS_UP_TO 96

static unsigned long calls; /* public calls made in the current group */

/* ------------------------------------------------------------ placement */

/* Where one source copy goes: the side of its guard page and the gap. */
struct placement {
  int front;
  size_t src_gap, dst_gap; /* bytes */
};

/* Source regions: [data][PROT_NONE] and [PROT_NONE][data], one pair per
 * placement slot so an input can sit in several placements at once. */
#define SLOTS 3
static unsigned char *src_end[SLOTS], *src_front[SLOTS], *dst_region;

struct placed {
  struct placement at;
  unsigned char *p, *gap;
  size_t gap_len;
};

static size_t round_down(size_t x, size_t unit) { return x / unit * unit; }

static struct placed place_src(int slot, struct placement at, const void *data, size_t bytes,
                               size_t unit) {
  struct placed s;
  s.at = at;
  s.gap_len = round_down(at.src_gap, unit);
  if (at.front) {
    s.gap = src_front[slot];
    s.p = s.gap + s.gap_len;
  } else {
    s.p = src_end[slot] + REGION - s.gap_len - bytes;
    s.gap = s.p + bytes;
  }
  memcpy(s.p, data, bytes);
  POISON(s.gap, s.gap_len);
  return s;
}

static void unplace_src(const struct placed *s) { UNPOISON(s->gap, s->gap_len); }

/* A destination of cap units ending gap bytes before the guard page; the cap
 * units and the gap hold the canary. */
static unsigned char *dst_at(size_t cap, size_t unit, size_t gap) {
  unsigned char *p = dst_region + REGION - round_down(gap, unit) - cap * unit;
  memset(p, CANARY_BYTE, dst_region + REGION - p);
  POISON(p + cap * unit, round_down(gap, unit));
  return p;
}

/* After the call: unpoisons the gap; true when nothing at or after
 * dst + written changed. */
static int dst_done(unsigned char *p, size_t cap, size_t unit, size_t written) {
  size_t end = (size_t)(dst_region + REGION - p);
  UNPOISON(p + cap * unit, end - cap * unit);
  return canary_intact(p, written * unit, end);
}

/* ------------------------------------------------------------ inputs */

struct item {
  const char *name;
  size_t units;
  uint32_t u[4]; /* code units (UTF-8: bytes) */
};

/* Per source encoding: the multi-byte base run (a cycle of code points) and
 * the items (ill-formed ones first). */
struct source {
  enum ref_enc e;
  uint32_t multi[3];
  struct item items[5];
  size_t nitems;
};

static const struct source sources[] = {
    {REF_UTF8,
     {0xE9, 0x65E5, 0x1F600},
     {{"E8 (unfinished lead)", 1, {0xE8}},
      {"80 (stray continuation)", 1, {0x80}},
      {"ED A0 80 (surrogate)", 3, {0xED, 0xA0, 0x80}},
      {"F0 9F 98 80 (U+1F600)", 4, {0xF0, 0x9F, 0x98, 0x80}}},
     4},
    {REF_UTF16LE,
     {0xE9, 0x3042, 0x1F600},
     {{"lone high", 1, {0xD83D}}, {"lone low", 1, {0xDE00}}, {"pair", 2, {0xD83D, 0xDE00}}},
     3},
    {REF_UTF16BE,
     {0xE9, 0x3042, 0x1F600},
     {{"lone high", 1, {0xD83D}}, {"lone low", 1, {0xDE00}}, {"pair", 2, {0xD83D, 0xDE00}}},
     3},
    {REF_UTF32,
     {0xE9, 0x3042, 0x1F600},
     {{"surrogate", 1, {0xD800}}, {"above U+10FFFF", 1, {0x110000}}, {"U+1F600", 1, {0x1F600}},
      {"U+0100", 1, {0x100}}},
     4},
    {REF_LATIN1, {0xE9, 0xFF, 0x80}, {{"FF", 1, {0xFF}}, {"80", 1, {0x80}}}, 2},
};
#define SOURCES COUNT_OF(sources)

static union {
  unsigned char b[MAX_UNITS * 4];
  uint32_t align;
} input;

/* Base characters filling units [i, to) of the input, as whole characters
 * (ASCII where the next one does not fit). */
static size_t fill_base(const struct source *s, int multi, size_t i, size_t to, size_t *k) {
  unsigned char tmp[16];
  while (i < to) {
    /* (ASCII: a cycle of letters, not one, so that shifted bytes show) */
    uint32_t cp = multi ? s->multi[*k % 3] : (uint32_t)(0x61 + *k % 26);
    size_t units = ref_encode(s->e, cp, tmp), j;
    ++*k;
    if (units > to - i) units = ref_encode(s->e, 0x61, tmp);
    for (j = 0; j < units; j++) ref_put_unit(s->e, input.b, i + j, ref_get_unit(s->e, tmp, j));
    i += units;
  }
  return i;
}

/* n units: the base run with item `it` at unit offset p (cut short at the
 * end when it does not fit), or none when p is NO_ITEM. */
static void make_input(const struct source *s, int multi, const struct item *it, size_t n,
                       size_t p) {
  size_t k = 0, i, j;
  if (p == NO_ITEM || p >= n) {
    fill_base(s, multi, 0, n, &k);
    return;
  }
  i = fill_base(s, multi, 0, p, &k);
  for (j = 0; j < it->units && i < n; j++) ref_put_unit(s->e, input.b, i++, it->u[j]);
  fill_base(s, multi, i, n, &k);
}

/* ------------------------------------------------------------ the checks */

static union {
  unsigned char b[REGION];
  uint32_t align;
} want, full_out;

#define MAX_CAPS 160
struct caps {
  size_t v[MAX_CAPS], n;
};

static void add_cap(struct caps *c, size_t cap, size_t limit) {
  size_t i;
  if (cap > limit) return;
  for (i = 0; i < c->n; i++)
    if (c->v[i] == cap) return;
  if (c->n < MAX_CAPS) c->v[c->n++] = cap;
}

/* The capacities of a sweep: every one for outputs up to FULL_CAPS_UP_TO
 * units when `every`, else the edges, the item's output position q and one
 * rotating value. */
static void pick_caps(struct caps *c, size_t full, size_t q, int every, uint64_t spin) {
  size_t i;
  c->n = 0;
  if (every && full <= FULL_CAPS_UP_TO) {
    for (i = 0; i <= full + 1; i++) add_cap(c, i, full + 1);
    return;
  }
  add_cap(c, 0, full + 1);
  add_cap(c, 1, full + 1);
  add_cap(c, 2, full + 1);
  if (full) add_cap(c, full - 1, full + 1);
  add_cap(c, full, full + 1);
  add_cap(c, full + 1, full + 1);
  /* Room past the output: the UTF-8 transcoders' last masked step runs only
   * with room for a unit per byte left, and its store windows then reach
   * the guard page past the capacity (the tails at a page's end). */
  for (i = 2; i <= 32; i *= 4) add_cap(c, full + i, full + i);
  for (i = 0; i < 5; i++)
    if (q + i >= 2) add_cap(c, q + i - 2, full + 1);
  add_cap(c, (size_t)(spin % (full + 2)), full + 1);
}

/* Output units of the REPLACE conversion of the first p units (the item's
 * position in the output), by the scalar kernel. */
static size_t out_pos(const struct convert_op *op, const void *data, size_t p) {
  utfx_result r = op->scalar(data, p, full_out.b, sizeof full_out.b / ref_unit_size(op->to),
                             UTFX_REPLACE);
  return r.written;
}

struct input_case {
  const struct source *s;
  const char *what;
  size_t n, p; /* p: the item's offset, or NO_ITEM */
  int every_cap;
  uint64_t spin;
};

static void check_validate_and_lengths(const struct input_case *ic, const struct placed *pl,
                                       size_t npl) {
  size_t i, k;
  for (i = 0; i < VALIDATE_OP_COUNT; i++) {
    const struct validate_op *op = &validate_ops[i];
    utfx_result w;
    if (op->enc != ic->s->e) continue;
    w = op->scalar(input.b, ic->n);
    for (k = 0; k < npl; k++) {
      utfx_result g = op->pub(pl[k].p, ic->n);
      calls++;
      CHECK(g.status == w.status && g.read == w.read, "%s %s n=%zu item at %zu, %s gap %zu: "
            "read %zu want %zu", op->name, ic->what, ic->n, ic->p,
            pl[k].at.front ? "front" : "end", pl[k].at.src_gap, g.read, w.read);
    }
  }
  for (i = 0; i < LENGTH_OP_COUNT; i++) {
    const struct length_op *op = &length_ops[i];
    size_t w;
    if (op->from != ic->s->e) continue;
    w = op->scalar(input.b, ic->n);
    for (k = 0; k < npl; k++) {
      size_t g = op->pub(pl[k].p, ic->n);
      calls++;
      CHECK(g == w, "%s %s n=%zu item at %zu, %s gap %zu: %zu want %zu", op->name, ic->what,
            ic->n, ic->p, pl[k].at.front ? "front" : "end", pl[k].at.src_gap, g, w);
    }
  }
}

static void check_conversions(const struct input_case *ic, const struct placed *pl,
                              size_t npl) {
  size_t i, k, c;
  for (i = 0; i < CONVERT_OP_COUNT; i++) {
    const struct convert_op *op = &convert_ops[i];
    size_t usz = ref_unit_size(op->to), full, q;
    struct caps caps;
    if (op->from != ic->s->e) continue;
    full = out_pos(op, input.b, ic->n);
    q = ic->p == NO_ITEM ? full / 2 : out_pos(op, input.b, ic->p < ic->n ? ic->p : ic->n);
    if (ic->every_cap) { /* the specification itself: scalar against the naive reference */
      unsigned flags;
      for (flags = 0; flags <= 1; flags++) {
        utfx_result sc = op->scalar(input.b, ic->n, full ? want.b : NULL, full, flags);
        utfx_result rf = ref_convert(op->from, input.b, ic->n, op->to, full ? full_out.b : NULL,
                                     full, flags);
        CHECK(sc.status == rf.status && sc.read == rf.read && sc.written == rf.written &&
                  memcmp(want.b, full_out.b, sc.written * usz) == 0,
              "%s %s n=%zu item at %zu %s: scalar differs from the reference", op->name,
              ic->what, ic->n, ic->p, flags ? "REPLACE" : "STRICT");
      }
    }
    pick_caps(&caps, full, q, ic->every_cap, ic->spin + i);
    for (c = 0; c < caps.n; c++) {
      size_t cap = caps.v[c];
      unsigned flags;
      for (flags = 0; flags <= 1; flags++) {
        utfx_result w = op->scalar(input.b, ic->n, cap ? want.b : NULL, cap, flags);
        for (k = 0; k < npl; k++) {
          unsigned char *dst = dst_at(cap, usz, pl[k].at.dst_gap);
          utfx_result g = op->pub(pl[k].p, ic->n, cap ? dst : NULL, cap, flags);
          int intact = dst_done(dst, cap, usz, g.written < cap ? g.written : cap);
          calls++;
          CHECK(g.status == w.status && g.read == w.read && g.written == w.written &&
                    g.replaced == w.replaced && memcmp(dst, want.b, w.written * usz) == 0 &&
                    intact,
                "%s %s n=%zu item at %zu, src %s gap %zu, dst gap %zu, cap %zu %s: got {%s "
                "read %zu written %zu replaced %zu}%s, scalar {%s read %zu written %zu "
                "replaced %zu}",
                op->name, ic->what, ic->n, ic->p, pl[k].at.front ? "front" : "end",
                pl[k].at.src_gap, pl[k].at.dst_gap, cap, flags ? "REPLACE" : "STRICT",
                expect_status_name(g.status), g.read, g.written, g.replaced,
                intact ? "" : " (wrote past written)", expect_status_name(w.status), w.read,
                w.written, w.replaced);
        }
      }
    }
  }
}

/* The byte swap (out of place, then in place twice, which restores the
 * source) and the UTF-8 length with the lone-surrogate flag, on one placed
 * UTF-16 source: the short inputs some tiers take to their kernels
 * (UTFXI_SHORT_UTF16) read exactly their n units. */
static void check_swap_and_flagged(const struct input_case *ic, const struct placed *pl) {
  enum ref_enc e = ic->s->e;
  size_t n = ic->n, i, len, want_len = 0;
  const char16_t *src = (const char16_t *)(const void *)pl->p;
  char16_t *dst = (char16_t *)(void *)dst_at(n, 2, pl->at.dst_gap);
  char16_t *in_place = (char16_t *)(void *)pl->p;
  const char16_t *orig = (const char16_t *)(const void *)input.b;
  int flag = -1, want_flag = 0, swapped = 1, restored = 1;
  utfx_swap_bytes_utf16(src, n, dst);
  for (i = 0; i < n; i++) swapped &= dst[i] == (char16_t)(orig[i] << 8 | orig[i] >> 8);
  CHECK(swapped && dst_done((unsigned char *)dst, n, 2, n), "swap_bytes_utf16 %s n=%zu item at %zu",
        ic->what, n, ic->p);
  utfx_swap_bytes_utf16(in_place, n, in_place);
  for (i = 0; i < n; i++) swapped &= in_place[i] == dst[i];
  utfx_swap_bytes_utf16(in_place, n, in_place);
  for (i = 0; i < n; i++) restored &= in_place[i] == orig[i];
  CHECK(swapped && restored, "swap_bytes_utf16 in place %s n=%zu item at %zu", ic->what, n, ic->p);
  if (n)
    want_len = e == REF_UTF16LE
                   ? utfxi_utf8_length_from_utf16le_with_surrogates_scalar(orig, n, &want_flag)
                   : utfxi_utf8_length_from_utf16be_with_surrogates_scalar(orig, n, &want_flag);
  len = e == REF_UTF16LE ? utfx_utf8_length_from_utf16le_with_surrogates(src, n, &flag)
                         : utfx_utf8_length_from_utf16be_with_surrogates(src, n, &flag);
  calls += 4;
  CHECK(len == want_len && flag == want_flag,
        "utf8_length_from_%s_with_surrogates %s n=%zu item at %zu: got %zu / %d, scalar %zu / %d",
        ref_enc_name(e), ic->what, n, ic->p, len, flag, want_len, want_flag);
}

static void check_repair(const struct input_case *ic, const struct placed *pl, size_t npl) {
  enum ref_enc e = ic->s->e;
  void (*pub)(const char16_t *, size_t, char16_t *);
  void (*scalar)(const char16_t *, size_t, char16_t *);
  size_t k, n = ic->n;
  if (e != REF_UTF16LE && e != REF_UTF16BE) return;
  pub = e == REF_UTF16LE ? utfx_to_well_formed_utf16le : utfx_to_well_formed_utf16be;
  scalar = e == REF_UTF16LE ? utfxi_to_well_formed_utf16le_scalar
                            : utfxi_to_well_formed_utf16be_scalar;
  scalar((const char16_t *)(const void *)input.b, n, (char16_t *)(void *)want.b);
  for (k = 0; k < npl; k++) {
    unsigned char *dst = dst_at(n, 2, pl[k].at.dst_gap);
    int intact;
    pub((const char16_t *)(const void *)pl[k].p, n, (char16_t *)(void *)dst);
    intact = dst_done(dst, n, 2, n);
    calls += 2;
    CHECK(memcmp(dst, want.b, 2 * n) == 0 && intact, "to_well_formed_%s %s n=%zu item at %zu",
          ref_enc_name(e), ic->what, n, ic->p);
    check_swap_and_flagged(ic, &pl[k]);
    /* In place, on the placed source itself (last: it changes the source). */
    pub((const char16_t *)(const void *)pl[k].p, n, (char16_t *)(void *)pl[k].p);
    CHECK(memcmp(pl[k].p, want.b, 2 * n) == 0, "to_well_formed_%s in place %s n=%zu item at %zu",
          ref_enc_name(e), ic->what, n, ic->p);
  }
}

/* Every function of the input's encoding, in each placement. */
static void check_placed(const struct input_case *ic, const struct placement *at, size_t nat) {
  struct placed pl[SLOTS];
  size_t k, usz = ref_unit_size(ic->s->e);
  for (k = 0; k < nat; k++) pl[k] = place_src((int)k, at[k], input.b, ic->n * usz, usz);
  check_validate_and_lengths(ic, pl, nat);
  check_conversions(ic, pl, nat);
  check_repair(ic, pl, nat);
  for (k = 0; k < nat; k++) unplace_src(&pl[k]);
}

/* The two exact placements and one that rotates through the offsets. */
static size_t standard_placements(struct placement *at, uint64_t spin) {
  at[0].front = 1;
  at[0].src_gap = at[0].dst_gap = 0;
  at[1].front = 0;
  at[1].src_gap = at[1].dst_gap = 0;
  at[2].front = (int)(spin & 1);
  at[2].src_gap = (size_t)(spin * 7 % 64);
  at[2].dst_gap = (size_t)(spin * 13 % 64);
  return 3;
}

static unsigned long inputs_checked;

static void run_case(const struct source *s, int multi, const struct item *it, size_t n,
                     size_t p, int every_cap, const struct placement *at, size_t nat,
                     uint64_t spin) {
  char what[96];
  struct input_case ic;
  snprintf(what, sizeof what, "%s %s run%s%s", ref_enc_name(s->e), multi ? "multi-byte" : "ASCII",
           p == NO_ITEM ? "" : ", item ", p == NO_ITEM ? "" : it->name);
  make_input(s, multi, it, n, p);
  ic.s = s;
  ic.what = what;
  ic.n = n;
  ic.p = p;
  ic.every_cap = every_cap;
  ic.spin = spin;
  check_placed(&ic, at, nat);
  inputs_checked++;
}

static void end_group(const char *name) {
  char line[200];
  snprintf(line, sizeof line, "%s (%lu inputs, %lu calls)", name, inputs_checked, calls);
  tap_group(line);
  inputs_checked = 0;
  calls = 0;
}

/* ------------------------------------------------------------ the sweeps */

static void sweep_offsets(void) {
  static const size_t every_p[] = {33, 65, 129, 200};
  size_t si, ii, n, p, j;
  uint64_t spin = 0;
  for (si = 0; si < SOURCES; si++) {
    const struct source *s = &sources[si];
    int multi;
    for (multi = 0; multi < 2; multi++) {
      struct placement at[SLOTS];
      for (n = 0; n <= 200; n++) {
        size_t nat = standard_placements(at, ++spin);
        run_case(s, multi, NULL, n, NO_ITEM, 0, at, nat, spin);
      }
      for (ii = 0; ii < s->nitems; ii++) {
        const struct item *it = &s->items[ii];
        for (n = 1; n <= 200; n++) {
          size_t ps[3];
          ps[0] = n - 1;
          ps[1] = n / 2;
          ps[2] = (size_t)(spin * 37 + 11) % n;
          for (j = 0; j < 3; j++) {
            size_t nat = standard_placements(at, ++spin);
            if (j > 0 && (ps[j] == ps[0] || ps[j] == ps[j - 1])) continue;
            run_case(s, multi, it, n, ps[j], 0, at, nat, spin);
          }
        }
        for (j = 0; j < COUNT_OF(every_p); j++)
          for (p = 0; p < every_p[j]; p++) {
            size_t nat = standard_placements(at, ++spin);
            run_case(s, multi, it, every_p[j], p, 0, at, nat, spin);
          }
      }
    }
    {
      char name[120];
      snprintf(name, sizeof name,
               "offsets: %s, lengths 0..200, items at every offset, front/end/rotating "
               "placements",
               ref_enc_name(s->e));
      end_group(name);
    }
  }
}

static void sweep_caps(void) {
  static const size_t every_p[] = {32, 64, 65};
  size_t si, ii, n, p, j;
  uint64_t spin = 0;
  for (si = 0; si < SOURCES; si++) {
    const struct source *s = &sources[si];
    int multi;
    for (multi = 0; multi < 2; multi++)
      for (ii = 0; ii < s->nitems; ii++) {
        const struct item *it = &s->items[ii];
        struct placement at;
        at.src_gap = at.dst_gap = 0;
        for (n = 0; n <= FULL_CAPS_UP_TO; n++) {
          at.front = (int)(++spin & 1);
          run_case(s, multi, it, n, n ? n - 1 : NO_ITEM, 1, &at, 1, spin);
          at.front = !at.front;
          if (n > 2) run_case(s, multi, it, n, n / 2, 1, &at, 1, spin);
        }
        for (j = 0; j < COUNT_OF(every_p); j++)
          for (p = 0; p < every_p[j]; p++) {
            at.front = (int)(++spin & 1);
            run_case(s, multi, it, every_p[j], p, 1, &at, 1, spin);
          }
      }
    {
      char name[120];
      snprintf(name, sizeof name, "caps: %s, every capacity 0..full+1 (outputs <= %d units)",
               ref_enc_name(s->e), FULL_CAPS_UP_TO);
      end_group(name);
    }
  }
}

static void sweep_alignment(void) {
  size_t si;
  for (si = 0; si < SOURCES; si++) {
    const struct source *s = &sources[si];
    /* The issue-10 shape (64 ASCII units, then the first item), a
     * multi-byte run with a multi-unit item inside, and plain ASCII. */
    struct {
      int multi;
      size_t item, n, p;
    } shapes[3];
    size_t h, off, gap;
    shapes[0].multi = 0, shapes[0].item = 0, shapes[0].n = 65, shapes[0].p = 64;
    shapes[1].multi = 1, shapes[1].item = s->nitems - 1, shapes[1].n = 100, shapes[1].p = 50;
    shapes[2].multi = 0, shapes[2].item = 0, shapes[2].n = 64, shapes[2].p = NO_ITEM;
    for (h = 0; h < 3; h++) {
      const struct item *it = &s->items[shapes[h].item];
      struct placement at;
      int front;
      for (front = 0; front < 2; front++)
        for (off = 0; off < 64; off++) { /* every source placement */
          at.front = front;
          at.src_gap = off;
          at.dst_gap = (off * 29 + (size_t)front) % 64;
          run_case(s, shapes[h].multi, it, shapes[h].n, shapes[h].p, 0, &at, 1, off);
        }
      for (front = 0; front < 2; front++)
        for (gap = 0; gap < 64; gap++) { /* every destination gap */
          at.front = front;
          at.src_gap = 0;
          at.dst_gap = gap;
          run_case(s, shapes[h].multi, it, shapes[h].n, shapes[h].p, 0, &at, 1, gap);
        }
    }
    {
      char name[120];
      snprintf(name, sizeof name,
               "alignment: %s, all 128 source placements and all 64 destination gaps",
               ref_enc_name(s->e));
      end_group(name);
    }
  }
}

static void sweep_long(void) {
  static const size_t lengths[] = {255, 256, 257, 511, 1000, 1023, 1024, 1025, 4097};
  size_t si, li, j;
  uint64_t spin = 0;
  for (si = 0; si < SOURCES; si++) {
    const struct source *s = &sources[si];
    int multi;
    for (multi = 0; multi < 2; multi++)
      for (li = 0; li < COUNT_OF(lengths); li++) {
        size_t n = lengths[li];
        size_t ps[] = {NO_ITEM, 0, 15, 16, 31, 32, 63, 64, n / 2, n - 1, n - 2};
        for (j = 0; j < COUNT_OF(ps); j++) {
          struct placement at[SLOTS];
          size_t nat = standard_placements(at, ++spin);
          run_case(s, multi, &s->items[(j + li) % s->nitems], n, ps[j], 0, at, nat, spin);
        }
      }
  }
  end_group("long: lengths 255..4097, items at block edges, front/end/rotating placements");
}

/* ------------------------------------------------------------ decoder */

static int host_le(void) {
  const uint16_t one = 1;
  unsigned char b;
  memcpy(&b, &one, 1);
  return b == 1;
}

/* The whole stream decoded at once (write everything, then end), UTF-16
 * host order, from the scalar kernels and the plain definitions. */
static size_t one_shot16(utfx_encoding enc, const unsigned char *p, size_t n, char16_t *out) {
  static const char b64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  size_t i, w = 0, k;
  switch (enc) {
    case UTFX_UTF8:
      return (host_le() ? utfxi_convert_utf8_to_utf16le_scalar
                        : utfxi_convert_utf8_to_utf16be_scalar)((const char *)p, n, out, n,
                                                                UTFX_REPLACE)
          .written;
    case UTFX_UTF16LE:
      for (i = 0; i + 1 < n; i += 2) out[w++] = (char16_t)(p[i] | p[i + 1] << 8);
      return w;
    case UTFX_LATIN1:
    case UTFX_ASCII:
      for (i = 0; i < n; i++) out[w++] = (char16_t)(enc == UTFX_ASCII ? p[i] & 0x7F : p[i]);
      return w;
    case UTFX_HEX:
      for (i = 0; i < n; i++) {
        out[w++] = (char16_t)"0123456789abcdef"[p[i] >> 4];
        out[w++] = (char16_t)"0123456789abcdef"[p[i] & 15];
      }
      return w;
    default: /* base64, base64url */
      for (i = 0; i < n; i += 3) {
        size_t rest = n - i < 3 ? n - i : 3;
        uint32_t x = (uint32_t)p[i] << 16 | (rest > 1 ? (uint32_t)p[i + 1] << 8 : 0) |
                     (rest > 2 ? p[i + 2] : 0);
        for (k = 0; k < 4; k++) {
          unsigned v = x >> (18 - 6 * k) & 63;
          char c = b64[v];
          if (enc == UTFX_BASE64URL && v >= 62) c = v == 62 ? '-' : '_';
          if (k > rest) {
            if (enc == UTFX_BASE64URL) break;
            c = '=';
          }
          out[w++] = (char16_t)c;
        }
      }
      return w;
  }
}

static union {
  char16_t u16[REGION / 2];
  unsigned char b[REGION];
} dec_want;
static char dec_want8[REGION];

/* One stream: write [0, cut), write [cut, n), each continued after DST_FULL
 * with src + read, then end; every call with capacity `cap` (a stalled call
 * below 4 is retried with 4: "a cap of 4 always progresses"). */
static void decode_with_cap(utfx_encoding enc, int u8, const struct placed *src, size_t n,
                            size_t cut, size_t cap, size_t dst_gap, const unsigned char *want_b,
                            size_t want_units, const char *what) {
  utfx_decoder d;
  size_t unit = u8 ? 1 : 2, got = 0, pos = 0, guard = 0, stop = cut;
  int is_end = 0, ok = 1;
  (void)utfx_decoder_init(&d, enc);
  while (ok) {
    size_t c = cap;
    utfx_result r;
    unsigned char *dst;
    int intact;
    for (;;) {
      dst = dst_at(c, unit, dst_gap);
      if (is_end)
        r = u8 ? utfx_decoder_end_utf8(&d, c ? (char *)dst : NULL, c)
               : utfx_decoder_end(&d, c ? (char16_t *)(void *)dst : NULL, c);
      else
        r = u8 ? utfx_decoder_write_utf8(&d, (const char *)src->p + pos, stop - pos,
                                         c ? (char *)dst : NULL, c)
               : utfx_decoder_write(&d, (const char *)src->p + pos, stop - pos,
                                    c ? (char16_t *)(void *)dst : NULL, c);
      calls++;
      intact = dst_done(dst, c, unit, r.written < c ? r.written : c);
      if (r.status == UTFX_DST_FULL && r.written == 0 && r.read == 0 && c < 4) {
        c = 4;
        continue;
      }
      break;
    }
    CHECK(intact && r.written <= c && r.status != UTFX_INVALID, "decoder %s cut %zu cap %zu: "
          "status %s written %zu%s", what, cut, c, expect_status_name(r.status), r.written,
          intact ? "" : " (wrote past written)");
    CHECK(r.status != UTFX_DST_FULL || c < 4 || r.written > 0, "decoder %s cap %zu: no progress",
          what, c);
    if (got + r.written > want_units ||
        memcmp(dst, want_b + got * unit, r.written * unit) != 0) {
      CHECK(0, "decoder %s cap %zu: output differs from the one-shot result at unit %zu", what,
            c, got);
      return;
    }
    got += r.written;
    if (r.status == UTFX_DST_FULL && r.written > 0) { /* the cut: at a character boundary */
      if (u8)
        CHECK(utfxi_validate_utf8_scalar((const char *)dst, r.written).status == UTFX_OK,
              "decoder %s cap %zu: cut inside a UTF-8 character", what, c);
      else if (got > 0 && got < want_units) {
        char16_t last, next;
        memcpy(&last, want_b + 2 * (got - 1), 2);
        memcpy(&next, want_b + 2 * got, 2);
        CHECK(!((last & 0xFC00) == 0xD800 && (next & 0xFC00) == 0xDC00),
              "decoder %s cut %zu cap %zu: DST_FULL between the halves of a pair (unit %zu)",
              what, cut, c, got);
      }
    }
    if (!is_end) pos += r.read;
    if (r.status == UTFX_OK) {
      if (is_end) break;
      if (stop < n)
        stop = n; /* the second write */
      else
        is_end = 1;
    }
    if (++guard > 8 * (want_units + n) + 16) ok = 0;
  }
  CHECK(ok && got == want_units, "decoder %s cap %zu: %zu units, the one-shot result has %zu",
        what, cap, got, want_units);
}

/* Decodes bytes[0..n) in every placement, both forms, capacities 0..8 and
 * around the full output, as one write and as two writes cut right after the
 * item's first byte (inside its first unit: the held-byte paths) or, in the
 * rotating placement, at a rotating offset. */
static void check_decoder_at(utfx_encoding enc, const char *enc_name,
                             const unsigned char *bytes, size_t n, size_t item_at, uint64_t spin,
                             const struct placement *at, size_t nat) {
  size_t k, w16, w8, c;
  struct placed pl[SLOTS];
  int u8;
  w16 = one_shot16(enc, bytes, n, dec_want.u16);
  w8 = (host_le() ? utfxi_convert_utf16le_to_utf8_scalar
                  : utfxi_convert_utf16be_to_utf8_scalar)(dec_want.u16, w16, dec_want8,
                                                          sizeof dec_want8, UTFX_REPLACE)
           .written;
  for (k = 0; k < nat; k++) pl[k] = place_src((int)k, at[k], bytes, n, 1);
  for (u8 = 0; u8 < 2; u8++) {
    size_t full = u8 ? w8 : w16;
    struct caps caps;
    char what[120];
    caps.n = 0;
    for (c = 0; c <= 8; c++) add_cap(&caps, c, full + 1);
    if (full) add_cap(&caps, full - 1, full + 1);
    add_cap(&caps, full, full + 1);
    add_cap(&caps, full + 1, full + 1);
    add_cap(&caps, (size_t)(spin % (full + 2)), full + 1);
    for (k = 0; k < nat; k++) {
      snprintf(what, sizeof what, "%s%s n=%zu, src %s gap %zu, dst gap %zu", enc_name,
               u8 ? " (UTF-8 form)" : "", n, at[k].front ? "front" : "end", at[k].src_gap,
               at[k].dst_gap);
      size_t cuts[2], nc = 0, j;
      if (k < 2 || nat == 1) {
        cuts[nc++] = n;
        if (item_at != NO_ITEM && item_at + 1 < n) cuts[nc++] = item_at + 1;
      } else {
        cuts[nc++] = n ? (size_t)(spin % (n + 1)) : 0;
      }
      for (j = 0; j < nc; j++)
        for (c = 0; c < caps.n; c++)
          decode_with_cap(enc, u8, &pl[k], n, cuts[j], caps.v[c], at[k].dst_gap,
                          u8 ? (const unsigned char *)dec_want8 : dec_want.b, full, what);
    }
  }
  for (k = 0; k < nat; k++) unplace_src(&pl[k]);
  inputs_checked++;
}

static void check_decoder(utfx_encoding enc, const char *enc_name, const unsigned char *bytes,
                          size_t n, size_t item_at, uint64_t spin) {
  struct placement at[SLOTS];
  size_t nat = standard_placements(at, spin);
  check_decoder_at(enc, enc_name, bytes, n, item_at, spin, at, nat);
}

/* The issue-10 shape through the UTF-8 decoder (64 ASCII bytes, E8, b: the
 * body reaches the kernel with the E8 in its second block) in all 128 source
 * placements, each with a rotating destination gap. */
static void decoder_alignment(void) {
  unsigned char in[66];
  size_t off;
  int front;
  memset(in, 'a', 64);
  in[64] = 0xE8;
  in[65] = 'b';
  for (front = 0; front < 2; front++)
    for (off = 0; off < 64; off++) {
      struct placement at;
      at.front = front;
      at.src_gap = off;
      at.dst_gap = (off * 29 + (size_t)front) % 64;
      check_decoder_at(UTFX_UTF8, "utf8", in, sizeof in, 64, off, &at, 1);
    }
  end_group("decoder: utf8, 64 x 61 E8 62 in all 128 source placements, both forms");
}

static void sweep_decoder(void) {
  static const struct {
    utfx_encoding enc;
    const char *name;
    size_t source; /* index into sources[]: what the bytes are made of */
  } decs[] = {{UTFX_UTF8, "utf8", 0},        {UTFX_UTF16LE, "utf16le", 1},
              {UTFX_LATIN1, "latin1", 4},    {UTFX_ASCII, "ascii", 0},
              {UTFX_BASE64, "base64", 4},    {UTFX_BASE64URL, "base64url", 4},
              {UTFX_HEX, "hex", 4}};
  size_t di, ii, n;
  uint64_t spin = 0;
  for (di = 0; di < COUNT_OF(decs); di++) {
    const struct source *s = &sources[decs[di].source];
    size_t usz = ref_unit_size(s->e);
    int multi;
    for (multi = 0; multi < 2; multi++)
      for (ii = 0; ii < s->nitems; ii++)
        for (n = 0; n <= 100; n += (n < 40 ? 1 : 3)) {
          size_t ps[2] = {n ? n - 1 : NO_ITEM, n / 2}, j, bytes = n * usz;
          for (j = 0; j < 2; j++) {
            size_t at_byte = ps[j] == NO_ITEM ? NO_ITEM : ps[j] * usz;
            make_input(s, multi, &s->items[ii], n, ps[j]);
            check_decoder(decs[di].enc, decs[di].name, input.b, bytes, at_byte, ++spin);
            if (usz == 2 && bytes) /* an odd byte at the end too */
              check_decoder(decs[di].enc, decs[di].name, input.b, bytes - 1, at_byte, ++spin);
          }
        }
    {
      char name[120];
      snprintf(name, sizeof name,
               "decoder: %s, both forms, one or two writes continued after DST_FULL, caps "
               "0..8 and around the full output",
               decs[di].name);
      end_group(name);
    }
  }
}

static void suite(void) {
  sweep_offsets();
  sweep_caps();
  sweep_alignment();
  sweep_long();
  sweep_decoder();
  decoder_alignment();
}

/* utfx_cpu_features writes into the caller's buffer: every capacity, with the
 * buffer ending at a protected page (cap 0: the pointer is the page itself). */
static void check_cpu_features(void) {
  size_t len = utfx_cpu_features(NULL, 0), cap;
  for (cap = 0; cap <= len + 2; cap++) {
    char *buf = (char *)dst_region + REGION - cap;
    CHECK(utfx_cpu_features(buf, cap) == len, "utfx_cpu_features cap %zu", cap);
    CHECK(cap == 0 || buf[cap - 1 < len ? cap - 1 : len] == '\0', "cap %zu: NUL", cap);
  }
  tap_group("utfx_cpu_features into a buffer ending at a guard page");
}

int main(void) {
  int k;
  for (k = 0; k < SLOTS; k++) {
    src_end[k] = guard_alloc(REGION);
    src_front[k] = guard_alloc_front(REGION);
  }
  dst_region = guard_alloc(REGION);
  tap_for_each_impl(suite);
  check_cpu_features();
  for (k = 0; k < SLOTS; k++) {
    guard_free(src_end[k], REGION);
    guard_free_front(src_front[k], REGION);
  }
  guard_free(dst_region, REGION);
  return tap_done();
}
