/* Reads before the source, on every tier: the UTF-8 kernels' look-behind.
 *
 * SIMD UTF-8 checks need the bytes one to three before each block. Issue 10:
 * on the avx512 tier, an all-ASCII first block that advanced only a few bytes
 * (to align the destination) let the next block load them from before src.
 * It shows only with the source at the start of a page after a PROT_NONE
 * page, a non-ASCII byte right after the first 64, and a destination whose
 * address mod 64 makes the ASCII step advance fewer than 3 units.
 *
 * So: inputs of k ASCII bytes (k = 0..200) followed by one multi-byte or
 * ill-formed item and a short or long ASCII tail, placed right after a
 * PROT_NONE page and also ending at one; every UTF-8 source function on it,
 * and the streaming decoder. Conversions write into a destination that ends
 * at a PROT_NONE page, for the capacity n (the issue's case) and for
 * capacities that put dst at every unit-aligned address mod 64. Results and
 * output must equal the scalar kernel's, so a kernel cannot pass by reading
 * nothing. Under emulation (UTFX_TEST_EMULATED) k runs over the sizes
 * around the block edges only. */
#include <string.h>

#include "support/expect.h"
#include "support/guard.h"
#include "support/ops.h"
#include "tap.h"

#define COUNT_OF(a) (sizeof(a) / sizeof((a)[0]))
#define MAX_ASCII 200
#define MAX_TAIL 70
#define MAX_IN (MAX_ASCII + 4 + MAX_TAIL)
#define POISON_MAX 4200 /* the longest input of poison_before */
/* largest output: UTF-32 of POISON_MAX units (MAX_IN * 4 + 256 for the suite) */
#define REGION (POISON_MAX * 4 + 256)

static unsigned char *in_front, *in_end, *out_end;
static int emulated;

/* Destination of cap units of `unit` bytes ending at the guard page. */
static void *dst_at_end(size_t cap, size_t unit) { return out_end + REGION - cap * unit; }

static const struct {
  const char *name;
  unsigned char b[4];
  size_t len;
} items[] = {
    {"E8 (unfinished)", {0xE8}, 1},       {"C3 A9", {0xC3, 0xA9}, 2},
    {"E2 82 AC", {0xE2, 0x82, 0xAC}, 3},  {"F0 9F 98 80", {0xF0, 0x9F, 0x98, 0x80}, 4},
    {"E0 80 (ill-formed)", {0xE0, 0x80}, 2}, {"ED A0 80 (surrogate)", {0xED, 0xA0, 0x80}, 3},
    {"80 (stray)", {0x80}, 1},
};
static const size_t tails[] = {0, 1, MAX_TAIL};

static union {
  unsigned char b[REGION];
  uint32_t align;
} want;

/* One conversion at one capacity against the scalar kernel. */
static void check_cap(const struct convert_op *op, const void *src, size_t n, size_t cap,
                      unsigned flags, const char *what) {
  size_t unit = ref_unit_size(op->to);
  void *dst = dst_at_end(cap, unit);
  utfx_result w = op->scalar(src, n, want.b, cap, flags);
  utfx_result g = op->pub(src, n, dst, cap, flags);
  char name[160];
  snprintf(name, sizeof name, "%s %s cap %zu (dst %% 64 = %zu) flags %u", op->name, what, cap,
           (size_t)((uintptr_t)dst & 63), flags);
  CHECK_RESULT(g, w, name);
  CHECK(g.written <= cap && memcmp(dst, want.b, g.written * unit) == 0, "%s: output", name);
}

static void check_conversions(const void *src, size_t n, const char *what) {
  size_t i;
  unsigned flags;
  for (i = 0; i < CONVERT_OP_COUNT; i++) {
    const struct convert_op *op = &convert_ops[i];
    size_t unit = ref_unit_size(op->to), s;
    if (op->from != REF_UTF8) continue;
    for (flags = 0; flags <= 1; flags++) {
      check_cap(op, src, n, n, flags, what);
      /* cap = n + 1 .. n + 64 / unit: dst at every aligned address mod 64 */
      for (s = 1; s <= 64 / unit; s++) check_cap(op, src, n, n + s, flags, what);
    }
  }
}

static void check_others(const void *src, size_t n, const char *what) {
  size_t i;
  for (i = 0; i < VALIDATE_OP_COUNT; i++) {
    const struct validate_op *op = &validate_ops[i];
    utfx_result g, w;
    if (op->enc != REF_UTF8) continue;
    g = op->pub(src, n);
    w = op->scalar(src, n);
    CHECK(g.status == w.status && g.read == w.read, "%s %s: read %zu want %zu", op->name, what,
          g.read, w.read);
  }
  for (i = 0; i < LENGTH_OP_COUNT; i++) {
    const struct length_op *op = &length_ops[i];
    size_t g, w;
    if (op->from != REF_UTF8) continue;
    g = op->pub(src, n);
    w = op->scalar(src, n);
    CHECK(g == w, "%s %s: %zu want %zu", op->name, what, g, w);
  }
}

/* The streaming decoder (both output forms) on the whole input in one write,
 * into a destination of exactly max_length units ending at the guard page
 * and one of max_length + 1, then end; compared with the same calls on the
 * scalar tier. */
struct dec_run {
  utfx_result write, end;
  unsigned char end_out[8];
};

static void run_decoder(int utf8_out, const char *src, size_t n, void *dst, size_t cap,
                        struct dec_run *r) {
  utfx_decoder d;
  utfx_decoder_init(&d, UTFX_UTF8);
  if (utf8_out) {
    r->write = utfx_decoder_write_utf8(&d, src, n, (char *)dst, cap);
    r->end = utfx_decoder_end_utf8(&d, (char *)r->end_out, 4);
  } else {
    r->write = utfx_decoder_write(&d, src, n, (char16_t *)dst, cap);
    r->end = utfx_decoder_end(&d, (char16_t *)(void *)r->end_out, 4);
  }
}

static void check_decoder(const char *src, size_t n, const char *what) {
  const char *tier = utfx_implementation();
  int utf8_out;
  size_t extra;
  for (utf8_out = 0; utf8_out <= 1; utf8_out++)
    for (extra = 0; extra <= 1; extra++) {
      const char *name = utf8_out ? "utfx_decoder_write_utf8" : "utfx_decoder_write";
      size_t unit = utf8_out ? 1 : 2, cap;
      struct dec_run g, w;
      void *dst;
      utfx_decoder d;
      utfx_decoder_init(&d, UTFX_UTF8);
      cap = (utf8_out ? utfx_decoder_max_length_utf8(&d, n) : utfx_decoder_max_length(&d, n)) +
            extra;
      dst = dst_at_end(cap, unit);
      run_decoder(utf8_out, src, n, dst, cap, &g);
      utfx_set_implementation("scalar");
      run_decoder(utf8_out, src, n, want.b, cap, &w);
      utfx_set_implementation(tier);
      CHECK_RESULT(g.write, w.write, name);
      CHECK(memcmp(dst, want.b, unit * w.write.written) == 0, "%s %s: output", name, what);
      CHECK_RESULT(g.end, w.end, name);
      CHECK(memcmp(g.end_out, w.end_out, unit * w.end.written) == 0, "%s %s: end", name, what);
    }
}

/* Under emulation: the sizes around one and two 64-byte blocks, and a few
 * past four (enough for every first-block and second-block case). */
static int k_selected(size_t k) {
  if (!emulated) return 1;
  return k <= 4 || (k >= 58 && k <= 72) || (k >= 122 && k <= 134) || k >= 190;
}

static void suite(void) {
  static unsigned char buf[MAX_IN];
  char what[128];
  size_t it, k, ti;
  for (it = 0; it < COUNT_OF(items); it++) {
    for (k = 0; k <= MAX_ASCII; k++) {
      if (!k_selected(k)) continue;
      for (ti = 0; ti < COUNT_OF(tails); ti++) {
        size_t n = k + items[it].len + tails[ti];
        memset(buf, 0x61, n);
        memcpy(buf + k, items[it].b, items[it].len);
        /* Right after a PROT_NONE page: any read before src faults. */
        memcpy(in_front, buf, n);
        snprintf(what, sizeof what, "%zu x 61, %s, %zu x 61 (n %zu) after a guard page", k,
                 items[it].name, tails[ti], n);
        check_conversions(in_front, n, what);
        check_others(in_front, n, what);
        check_decoder((const char *)in_front, n, what);
        /* Ending at a PROT_NONE page: any read at or after src + n faults. */
        memcpy(in_end + REGION - n, buf, n);
        snprintf(what, sizeof what, "%zu x 61, %s, %zu x 61 (n %zu) before a guard page", k,
                 items[it].name, tails[ti], n);
        check_conversions(in_end + REGION - n, n, what);
        check_others(in_end + REGION - n, n, what);
        check_decoder((const char *)in_end + REGION - n, n, what);
      }
    }
    snprintf(what, sizeof what, "ASCII then %s: UTF-8 sources at guard pages", items[it].name);
    tap_group(what);
  }
}

/* The case of issue 10 exactly: 64 x 61 then E8, cap 65, dst 1-2 units short
 * of 64-byte alignment (UTF-16), 53..60 bytes mod 64 (UTF-32), 62..63
 * (Latin-1). check_cap covers it too; this names it in the TAP output. */
static void issue_case(void) {
  static const char *const targets[] = {"utfx_convert_utf8_to_utf16le",
                                        "utfx_convert_utf8_to_utf16be",
                                        "utfx_convert_utf8_to_utf32",
                                        "utfx_convert_utf8_to_latin1"};
  size_t i, t, n = 65;
  unsigned flags;
  memset(in_front, 0x61, 64);
  in_front[64] = 0xE8;
  for (i = 0; i < CONVERT_OP_COUNT; i++)
    for (t = 0; t < COUNT_OF(targets); t++)
      if (strcmp(convert_ops[i].name, targets[t]) == 0) {
        const struct convert_op *op = &convert_ops[i];
        size_t unit = ref_unit_size(op->to), cap;
        for (flags = 0; flags <= 1; flags++)
          for (cap = 65; cap <= 65 + 64 / unit; cap++) {
            /* dst ends at the guard page; cap - 65 extra units move it down */
            check_cap(op, in_front, n, cap, flags, "64 x 61, E8 after a guard page");
          }
      }
  check_decoder((const char *)in_front, n, "64 x 61, E8 after a guard page");
  tap_group("issue 10: 64 x 61, E8 at the start of a page, dst against a guard page");
}

/* Bytes before the source that are not its own: the source starts at every
 * offset 0..64 from a PROT_NONE page, and the bytes from the page to it are
 * 0xF0 (a 4-byte lead, so a look-behind that reads them finds a character
 * without its continuations); inputs long enough for the kernels' aligning
 * heads (from UTFXI_ALIGN_HEAD_BYTES, 4 KiB: validate_utf8 checks one extra
 * vector where that aligns its loads, and that vector's 3 bytes before must
 * be the source's own). */
static void poison_before(void) {
  static const size_t lengths[] = {4100, POISON_MAX};
  char what[128];
  size_t off, li, it, i;
  for (off = 0; off <= 64; off++) {
    if (emulated && off > 3 && (off < 29 || off > 35) && off < 61) continue;
    for (li = 0; li < COUNT_OF(lengths); li++)
      for (it = 0; it <= COUNT_OF(items); it++) {
        size_t n = lengths[li];
        unsigned char *src = in_front + off;
        memset(in_front, 0xF0, off);
        memset(src, 0x61, n);
        if (it < COUNT_OF(items)) memcpy(src + 70, items[it].b, items[it].len);
        snprintf(what, sizeof what, "n %zu, %s at 70, 0xF0 x %zu before src",
                 n, it < COUNT_OF(items) ? items[it].name : "nothing", off);
        check_others(src, n, what);
        for (i = 0; i < CONVERT_OP_COUNT; i++)
          if (convert_ops[i].from == REF_UTF8) check_cap(&convert_ops[i], src, n, n, 0, what);
      }
  }
  tap_group("UTF-8 sources at every offset after a guard page, 0xF0 before them");
}

int main(void) {
  const char *emu = getenv("UTFX_TEST_EMULATED");
  emulated = emu && *emu && strcmp(emu, "0") != 0;
  in_front = guard_alloc_front(REGION);
  in_end = guard_alloc(REGION);
  out_end = guard_alloc(REGION);
  tap_for_each_impl(issue_case);
  tap_for_each_impl(suite);
  tap_for_each_impl(poison_before);
  guard_free_front(in_front, REGION);
  guard_free(in_end, REGION);
  guard_free(out_end, REGION);
  return tap_done();
}
