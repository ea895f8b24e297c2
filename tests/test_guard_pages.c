/* Guard-page tests for every public function, on every kernel tier.
 *
 * Inputs are placed so that they end exactly at a PROT_NONE page (any read
 * at or after src + n faults) or start right after one (any read before src
 * faults), for lengths 0..70 and some larger ones, with ASCII, valid mixed,
 * truncated-at-the-very-end and random content. Conversions write into a
 * destination whose capacity ends exactly at a protected page, for every
 * capacity from 0 to the needed size (for the larger lengths: the first and
 * last 70 capacities). Results are also compared with the naive reference, so
 * a kernel cannot pass by doing nothing. */
#include <string.h>

#include "support/expect.h"
#include "support/guard.h"
#include "support/ops.h"
#include "support/reference.h"
#include "tap.h"

#define COUNT_OF(a) (sizeof(a) / sizeof((a)[0]))
#define MAX_UNITS 4200
#define REGION (MAX_UNITS * 4 * 4 + 64) /* largest output: 4 UTF-8 bytes per UTF-32 unit */

static unsigned char *in_end_region, *in_front, *out_region;

/* Input of n units of encoding e copied so that it ends at the guard page. */
static void *place_at_end(const void *data, size_t n, enum ref_enc e) {
  unsigned char *p = in_end_region + REGION - n * ref_unit_size(e);
  memcpy(p, data, n * ref_unit_size(e));
  return p;
}
static void *place_at_front(const void *data, size_t n, enum ref_enc e) {
  memcpy(in_front, data, n * ref_unit_size(e));
  return in_front;
}
/* Destination of cap units of encoding e ending at the guard page. */
static void *dst_at_end(size_t cap, enum ref_enc e) {
  return out_region + REGION - cap * ref_unit_size(e);
}

/* ------------------------------------------------------------ contents */
enum content { C_ASCII, C_MIXED, C_TRUNCATED, C_RANDOM, C_COUNT };
static const char *const content_names[C_COUNT] = {"ascii", "mixed", "truncated", "random"};

static union {
  unsigned char b[MAX_UNITS * 4];
  uint32_t align;
} data;

static void make_content(enum ref_enc e, enum content c, size_t n, test_rng *rng) {
  static const uint32_t cycle[] = {0x61, 0xE9, 0x20AC, 0x1F600, 0x62, 0x3042, 0x7FF, 0x10FFFF};
  static const uint32_t latin1_cycle[] = {0x61, 0xE9, 0xFF, 0x80};
  size_t i = 0, k = 0;
  unsigned char tmp[16];
  if (c == C_RANDOM) {
    for (i = 0; i < n; i++) {
      uint64_t x = rng_next(rng);
      uint32_t u = (uint32_t)x;
      switch (e) {
        case REF_UTF16LE:
        case REF_UTF16BE:
          u = (x >> 32) % 4 == 0 ? 0xD800 + (u & 0x7FF) : u & 0xFFFF;
          break;
        case REF_UTF32:
          u = (x >> 32) % 8 == 0 ? u : (x >> 32) % 8 == 1 ? 0xD800 + (u & 0x7FF) : u % 0x110000;
          break;
        default:
          u = (x >> 32) % 2 ? 0x61 : u & 0xFF;
          break;
      }
      ref_put_unit(e, data.b, i, u);
    }
    return;
  }
  while (i < n) {
    uint32_t cp = c == C_ASCII ? 0x61
                  : e == REF_LATIN1 ? latin1_cycle[k++ % COUNT_OF(latin1_cycle)]
                                    : cycle[k++ % COUNT_OF(cycle)];
    size_t units = ref_encode(e, cp, tmp), j;
    if (units > n - i) units = ref_encode(e, 0x61, tmp);
    for (j = 0; j < units; j++) ref_put_unit(e, data.b, i + j, ref_get_unit(e, tmp, j));
    i += units;
  }
  if (c == C_TRUNCATED && n > 0) {
    /* End with the start of a character that never completes. */
    switch (e) {
      case REF_UTF8: {
        static const unsigned char grin[3] = {0xF0, 0x9F, 0x98};
        size_t t = n < 3 ? n : 3;
        for (k = 0; k < t; k++) data.b[n - t + k] = grin[k];
        break;
      }
      case REF_UTF16LE:
      case REF_UTF16BE:
        ref_put_unit(e, data.b, n - 1, 0xD83D);
        break;
      case REF_UTF32:
        ref_put_unit(e, data.b, n - 1, 0xD83D);
        break;
      default:
        ref_put_unit(e, data.b, n - 1, 0xFF);
        break;
    }
  }
}

/* ------------------------------------------------------------ checks */
static ref_char chars[MAX_UNITS];
static union {
  unsigned char b[REGION];
  uint32_t align;
} want;

static void check_conversion(const struct convert_op *op, const void *src, size_t n,
                             size_t count, int all_caps, const char *what) {
  size_t usz = ref_unit_size(op->to), need = 0, i, cap;
  unsigned flags;
  for (i = 0; i < count; i++) need += ref_encoded_units(op->to, chars[i].cp);
  for (flags = 0; flags <= 1; flags++)
    for (cap = 0; cap <= need; cap++) {
      utfx_result w, g;
      void *dst;
      if (!all_caps && cap > 70 && cap + 70 < need) cap = need - 70;
      dst = dst_at_end(cap, op->to);
      w = ref_convert_chars(chars, count, n, op->to, want.b, cap, flags);
      g = op->pub(src, n, cap ? dst : NULL, cap, flags);
      CHECK_RESULT(g, w, op->name);
      CHECK(g.written <= cap && memcmp(dst, want.b, g.written * usz) == 0,
            "%s %s cap %zu flags %u: output", op->name, what, cap, flags);
      if (g.status != w.status || g.written != w.written) {
        CHECK(0, "  ... %s cap %zu flags %u", what, cap, flags);
        return;
      }
    }
}

static void check_input(enum ref_enc e, const void *src, size_t n, int all_caps,
                        const char *what) {
  size_t count = ref_decode(e, src, n, chars), i;
  for (i = 0; i < VALIDATE_OP_COUNT; i++) {
    const struct validate_op *op = &validate_ops[i];
    utfx_result r;
    size_t wantv;
    if (op->enc != e) continue;
    r = op->pub(src, n);
    wantv = ref_validate_op(op, src, n);
    CHECK(r.read == wantv && r.status == (wantv == n ? UTFX_OK : UTFX_INVALID),
          "%s %s: read %zu want %zu", op->name, what, r.read, wantv);
  }
  for (i = 0; i < LENGTH_OP_COUNT; i++) {
    const struct length_op *op = &length_ops[i];
    size_t got, wl = 0, j;
    if (op->from != e) continue;
    for (j = 0; j < count; j++)
      wl += op->to == REF_LATIN1 ? 1 : ref_encoded_units(op->to, chars[j].cp);
    got = op->pub(src, n);
    CHECK(got == wl, "%s %s: %zu want %zu", op->name, what, got, wl);
  }
  for (i = 0; i < CONVERT_OP_COUNT; i++)
    if (convert_ops[i].from == e) check_conversion(&convert_ops[i], src, n, count, all_caps, what);
  if (e == REF_UTF16LE || e == REF_UTF16BE) {
    void (*repair)(const char16_t *, size_t, char16_t *) =
        e == REF_UTF16LE ? utfx_to_well_formed_utf16le : utfx_to_well_formed_utf16be;
    char16_t *dst = dst_at_end(n, e);
    size_t j;
    for (j = 0; j < count; j++) ref_encode(e, chars[j].cp, want.b + 2 * chars[j].start);
    repair(src, n, dst);
    CHECK(memcmp(dst, want.b, 2 * n) == 0, "to_well_formed %s %s", ref_enc_name(e), what);
    /* In place, on a copy at the same guarded position. */
    memcpy(dst, src, 2 * n);
    repair(dst, n, dst);
    CHECK(memcmp(dst, want.b, 2 * n) == 0, "to_well_formed in place %s %s", ref_enc_name(e),
          what);
  }
}

static void suite(void) {
  static const size_t big[] = {127, 128, 129, 255, 256, 257, 1023, 1024, 1025, 4097};
  test_rng rng;
  int e, c;
  size_t li, n;
  char what[96];
  rng_seed(&rng, 0x6775617264ull);
  for (e = 0; e < REF_ENC_COUNT; e++) {
    for (c = 0; c < C_COUNT; c++) {
      for (li = 0; li < 71 + COUNT_OF(big); li++) {
        n = li < 71 ? li : big[li - 71];
        make_content((enum ref_enc)e, (enum content)c, n, &rng);
        snprintf(what, sizeof what, "%s %s n=%zu, input ends at guard",
                 ref_enc_name((enum ref_enc)e), content_names[c], n);
        check_input((enum ref_enc)e, place_at_end(data.b, n, (enum ref_enc)e), n, li < 71,
                    what);
        snprintf(what, sizeof what, "%s %s n=%zu, input starts after guard",
                 ref_enc_name((enum ref_enc)e), content_names[c], n);
        check_input((enum ref_enc)e, place_at_front(data.b, n, (enum ref_enc)e), n, 0, what);
      }
    }
    snprintf(what, sizeof what, "%s sources: every function against guard pages",
             ref_enc_name((enum ref_enc)e));
    tap_group(what);
  }
}

/* utfx_cpu_features writes into the caller's buffer: every capacity, with the
 * buffer ending at a protected page (cap 0: the pointer is the page itself). */
static void check_cpu_features(void) {
  size_t len = utfx_cpu_features(NULL, 0), cap;
  for (cap = 0; cap <= len + 2; cap++) {
    char *buf = dst_at_end(cap, REF_UTF8);
    CHECK(utfx_cpu_features(buf, cap) == len, "utfx_cpu_features cap %zu", cap);
    CHECK(cap == 0 || buf[cap - 1 < len ? cap - 1 : len] == '\0', "cap %zu: NUL", cap);
  }
  tap_group("utfx_cpu_features into a buffer ending at a guard page");
}

int main(void) {
  in_end_region = guard_alloc(REGION);
  in_front = guard_alloc_front(REGION);
  out_region = guard_alloc(REGION);
  tap_for_each_impl(suite);
  check_cpu_features();
  guard_free(in_end_region, REGION);
  guard_free_front(in_front, REGION);
  guard_free(out_region, REGION);
  return tap_done();
}
