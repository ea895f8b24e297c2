/* Exhaustive sweeps, run once per kernel tier:
 *   - every scalar value U+0000..U+10FFFF through every conversion pair
 *     (Latin-1 where representable), in blocks and one at a time;
 *   - every surrogate and out-of-range value rejected where it must be;
 *   - every 1-, 2- and 3-byte UTF-8 sequence and every 4-byte sequence with a
 *     lead byte F0..F4, against the naive WHATWG reference;
 *   - every UTF-16 unit alone and every surrogate pair, LE and BE;
 *   - short sequences at every offset of a 64-unit block padded with ASCII,
 *     and at the very end of the input, so SIMD lane and tail boundaries are
 *     covered.
 * Cost control: the 1- and 2-byte UTF-8 sweeps check every function; the
 * 3-byte sweep and the 84M 4-byte sequences check validation, both modes of
 * UTF-8 -> UTF-16LE (which together pin the error offset and the exact
 * maximal-subpart segmentation) and the UTF-16 / UTF-32 lengths. Under the
 * sanitizers (UTFX_SANITIZED=1 in the environment, as `make test` sets it, or
 * an ASan build) the 4-byte sweep visits the third byte with stride 3 and a
 * rotating phase (deterministic, still every lead / second / fourth byte);
 * the normal build always does the full sweep. Under AVX-512 emulation
 * (support/emulated.h) the big sweeps take a deterministic sample: the
 * scalar values alone 1 in 8, the 3-byte sequences 1 in 16, the surrogate
 * pairs 1 in 8, the 4-byte sweep a third-byte stride 48 times larger, half
 * of the block placements; the group names of the sweeps say so. */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "support/emulated.h"
#include "support/expect.h"
#include "support/ops.h"
#include "support/reference.h"
#include "tap.h"

#if defined(__SANITIZE_ADDRESS__)
#define BUILT_WITH_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define BUILT_WITH_ASAN 1
#endif
#endif
#ifndef BUILT_WITH_ASAN
#define BUILT_WITH_ASAN 0
#endif

static unsigned sweep_stride = 1;

/* tap_group plus the CPU time the group took, as a TAP comment (the
 * sweeps have a time budget; this shows where it goes). */
static clock_t group_start;
static void timed_group(const char *name) {
  clock_t now = clock();
  tap_group(name);
  printf("#   %.2f s CPU, %lu checks so far\n", (double)(now - group_start) / CLOCKS_PER_SEC,
         tap_checks);
  group_start = clock();
}

#define COUNT_OF(a) (sizeof(a) / sizeof((a)[0]))

/* A group name, with the share of a sampled sweep (test_keep) appended. */
static const char *sampled(const char *name, size_t every) {
  static char buf[160];
  if (test_share(every) == 1) return name;
  snprintf(buf, sizeof buf, "%s (emulated tier: 1 in %zu)", name, test_share(every));
  return buf;
}

/* Aligned scratch buffers. */
static union {
  unsigned char b[8192];
  uint32_t align;
} bufs[REF_ENC_COUNT], out_buf;

static int is_scalar_value(uint32_t cp) { return cp < 0xD800 || (cp > 0xDFFF && cp <= 0x10FFFF); }

/* ------------------------------------------------- every scalar value */
/* Converts the n code points in cps (encoded in every form in bufs) through
 * every pair and compares with the expected form, exact capacity. */
static void convert_block(const uint32_t *cps, size_t count, int latin1_ok, unsigned flags,
                          const char *what) {
  size_t len[REF_ENC_COUNT], i, j;
  int e;
  for (e = 0; e < REF_ENC_COUNT; e++) {
    len[e] = 0;
    if (e == REF_LATIN1 && !latin1_ok) continue;
    for (j = 0; j < count; j++)
      len[e] += ref_encode((enum ref_enc)e, cps[j],
                           bufs[e].b + len[e] * ref_unit_size((enum ref_enc)e));
  }
  for (i = 0; i < CONVERT_OP_COUNT; i++) {
    const struct convert_op *op = &convert_ops[i];
    size_t usz = ref_unit_size(op->to);
    utfx_result r;
    if (op->from == REF_LATIN1 && !latin1_ok) continue;
    memset(out_buf.b, CANARY_BYTE, (len[op->to] + CANARY_UNITS) * usz + 4 * 4);
    r = op->pub(bufs[op->from].b, len[op->from], out_buf.b,
                latin1_ok || op->to != REF_LATIN1 ? len[op->to] : 4 * count, flags);
    if (op->to == REF_LATIN1 && !latin1_ok) {
      /* The first code point above U+00FF stops it, in both modes. */
      size_t k = 0, off = 0;
      while (k < count && cps[k] <= 0xFF) off += ref_encoded_units(op->from, cps[k++]);
      CHECK(r.status == UTFX_INVALID && r.read == off && r.written == k,
            "%s %s: status %d read %zu written %zu, want INVALID at %zu", op->name, what,
            (int)r.status, r.read, r.written, off);
      continue;
    }
    CHECK(r.status == UTFX_OK && r.read == len[op->from] && r.written == len[op->to] &&
              r.replaced == 0,
          "%s %s: status %d read %zu written %zu", op->name, what, (int)r.status, r.read,
          r.written);
    CHECK(memcmp(out_buf.b, bufs[op->to].b, len[op->to] * usz) == 0, "%s %s: output", op->name,
          what);
    CHECK(canary_intact(out_buf.b, len[op->to] * usz, (len[op->to] + CANARY_UNITS) * usz),
          "%s %s: canary", op->name, what);
  }
  for (i = 0; i < VALIDATE_OP_COUNT; i++) {
    const struct validate_op *op = &validate_ops[i];
    utfx_result r;
    if (op->ascii) continue;
    r = op->pub(bufs[op->enc].b, len[op->enc]);
    CHECK(r.status == UTFX_OK && r.read == len[op->enc], "%s %s", op->name, what);
  }
  for (i = 0; i < LENGTH_OP_COUNT; i++) {
    const struct length_op *op = &length_ops[i];
    size_t want = op->to == REF_LATIN1 ? count : len[op->to];
    if (op->from == REF_LATIN1 && !latin1_ok) continue;
    CHECK(op->pub(bufs[op->from].b, len[op->from]) == want, "%s %s", op->name, what);
  }
}

static void suite_scalar_values(void) {
  uint32_t cps[128], cp, k;
  size_t count, bsize = 1;
  unsigned flags = 0;
  char what[64];
  /* One at a time. */
  for (cp = 0; cp <= 0x10FFFF; cp++) {
    if (!is_scalar_value(cp) || !test_keep(cp, 8)) continue;
    snprintf(what, sizeof what, "U+%04X alone", (unsigned)cp);
    convert_block(&cp, 1, cp <= 0xFF, cp & 1, what);
  }
  timed_group(sampled("every scalar value alone through every conversion pair", 8));
  /* Consecutive runs of 1..67 code points (so every alignment occurs). */
  cp = 0;
  while (cp <= 0x10FFFF) {
    count = 0;
    while (count < bsize && cp <= 0x10FFFF) {
      if (is_scalar_value(cp)) cps[count++] = cp;
      cp++;
    }
    snprintf(what, sizeof what, "run ending U+%04X", (unsigned)(cp - 1));
    if (count) convert_block(cps, count, cps[count - 1] <= 0xFF, flags, what);
    bsize = bsize % 67 + 1;
    flags ^= 1;
  }
  timed_group("every scalar value in runs of 1..67 through every pair");
  /* Mixed lengths: a permutation of 0..0x10FFFF (40503 is coprime with
   * 0x110000) cut into blocks of 64, so every value also sits among
   * characters of every UTF-8 / UTF-16 length. */
  count = 0;
  for (k = 0; k <= 0x10FFFF; k++) {
    cp = (uint32_t)(((uint64_t)k * 40503u + 7u) % 0x110000u);
    if (is_scalar_value(cp)) cps[count++] = cp;
    if (count == 64 || (k == 0x10FFFF && count)) {
      snprintf(what, sizeof what, "mixed block at k=%u", (unsigned)k);
      convert_block(cps, count, 0, k & 1, what);
      count = 0;
    }
  }
  timed_group("every scalar value in mixed-length blocks of 64 through every pair");
}

/* ------------------------------------------------- generic reference check */
static ref_char chars[4096];
static union {
  unsigned char b[4 * 4096 + 64];
  uint32_t align;
} ref_out;

/* Every validation, length and conversion that reads `enc` on src (n units),
 * against the reference: REPLACE with the exact capacity (and one less when
 * `tight`), STRICT with room to spare. Allocation-free for speed. */
static void check_all(enum ref_enc enc, const void *src, size_t n, int tight,
                      const char *what) {
  size_t count = ref_decode(enc, src, n, chars), fe = n, i;
  for (i = 0; i < count; i++)
    if (chars[i].bad) {
      fe = chars[i].start;
      break;
    }
  for (i = 0; i < VALIDATE_OP_COUNT; i++) {
    const struct validate_op *op = &validate_ops[i];
    utfx_result r;
    size_t want;
    if (op->enc != enc) continue;
    want = op->ascii ? ref_validate_ascii(src, n) : fe;
    r = op->pub(src, n);
    CHECK(r.status == (want == n ? UTFX_OK : UTFX_INVALID) && r.read == want,
          "%s %s: status %d read %zu want %zu", op->name, what, (int)r.status, r.read, want);
  }
  for (i = 0; i < LENGTH_OP_COUNT; i++) {
    const struct length_op *op = &length_ops[i];
    size_t want = 0, j, got;
    if (op->from != enc) continue;
    for (j = 0; j < count; j++)
      want += op->to == REF_LATIN1 ? 1 : ref_encoded_units(op->to, chars[j].cp);
    got = op->pub(src, n);
    CHECK(got == want, "%s %s: %zu want %zu", op->name, what, got, want);
  }
  for (i = 0; i < CONVERT_OP_COUNT; i++) {
    const struct convert_op *op = &convert_ops[i];
    size_t usz = ref_unit_size(op->to), need = 0, j, cap;
    unsigned flags;
    int pass;
    if (op->from != enc) continue;
    for (j = 0; j < count; j++) need += ref_encoded_units(op->to, chars[j].cp);
    for (pass = 0; pass < 3; pass++) {
      utfx_result want, got;
      if (pass == 2 && (!tight || need == 0)) break;
      flags = pass == 1 ? UTFX_STRICT : UTFX_REPLACE;
      cap = pass == 0 ? need : pass == 1 ? need + 4 : need - 1;
      want = ref_convert_chars(chars, count, n, op->to, ref_out.b, cap, flags);
      memset(out_buf.b, CANARY_BYTE, (cap + CANARY_UNITS) * usz);
      got = op->pub(src, n, out_buf.b, cap, flags);
      CHECK_RESULT(got, want, op->name);
      if (got.status != want.status || got.written != want.written) {
        CHECK(0, "  ... %s (cap %zu, flags %u)", what, cap, flags);
        continue;
      }
      CHECK(memcmp(out_buf.b, ref_out.b, got.written * usz) == 0, "%s %s: output", op->name,
            what);
      CHECK(canary_intact(out_buf.b, got.written * usz, (cap + CANARY_UNITS) * usz),
            "%s %s: canary", op->name, what);
    }
  }
}

/* ------------------------------------------------- surrogates, range */
static void suite_surrogates(void) {
  union {
    uint32_t u[4];
    char16_t h[4];
  } in;
  uint32_t v;
  char what[64];
  int e;
  for (v = 0xD800; v <= 0xDFFF; v++) {
    /* UTF-32: alone and between two letters. */
    snprintf(what, sizeof what, "UTF-32 %04X", (unsigned)v);
    in.u[0] = v;
    check_all(REF_UTF32, in.u, 1, 1, what);
    in.u[0] = 0x41;
    in.u[1] = v;
    in.u[2] = 0x42;
    check_all(REF_UTF32, in.u, 3, 1, what);
    {
      utfx_result r = utfx_validate_utf32(in.u, 3);
      CHECK(r.status == UTFX_INVALID && r.read == 1, "%s rejected", what);
    }
    /* UTF-16: alone, LE and BE. */
    for (e = REF_UTF16LE; e <= REF_UTF16BE; e++) {
      ref_put_unit((enum ref_enc)e, in.h, 0, 0x41);
      ref_put_unit((enum ref_enc)e, in.h, 1, v);
      ref_put_unit((enum ref_enc)e, in.h, 2, 0x42);
      snprintf(what, sizeof what, "%s A %04X B", ref_enc_name((enum ref_enc)e), (unsigned)v);
      check_all((enum ref_enc)e, in.h, 3, 1, what);
      {
        utfx_result r = validate_ops[e].pub(in.h, 3);
        CHECK(r.status == UTFX_INVALID && r.read == 1, "%s rejected", what);
      }
    }
  }
  /* UTF-8: every surrogate encoded as ED A0..BF 80..BF is three maximal
   * subparts (ED is only followed by 80..9F), also as a CESU-8 pair. */
  for (v = 0xD800; v <= 0xDFFF; v++) {
    unsigned char s[8] = {0x41, 0xED, (unsigned char)(0x80 | (v >> 6 & 0x3F)),
                          (unsigned char)(0x80 | (v & 0x3F)), 0xED, 0xB0, 0x80, 0x42};
    char16_t o[16];
    utfx_result r = utfx_validate_utf8((const char *)s, 8);
    CHECK(r.status == UTFX_INVALID && r.read == 1, "UTF-8 ED %02X %02X rejected", s[2], s[3]);
    r = utfx_convert_utf8_to_utf16le((const char *)s, 8, o, 16, UTFX_REPLACE);
    CHECK(r.status == UTFX_OK && r.written == 8 && r.replaced == 6, "UTF-8 ED %02X %02X: %zu",
          s[2], s[3], r.replaced);
    snprintf(what, sizeof what, "UTF-8 A ED %02X %02X ED B0 80 B", s[2], s[3]);
    check_all(REF_UTF8, s, 8, 1, what);
  }
  /* Values above U+10FFFF: the first 64K, the last 64K, and a stride. */
  for (v = 0x110000; v < 0x120000; v++) {
    in.u[0] = v;
    CHECK(utfx_validate_utf32(in.u, 1).status == UTFX_INVALID, "UTF-32 %X", (unsigned)v);
    CHECK(utfx_utf8_length_from_utf32(in.u, 1) == 3, "UTF-32 %X length", (unsigned)v);
  }
  for (v = 0xFFFFFFFFu; v >= 0xFFFF0000u; v--) {
    in.u[0] = v;
    CHECK(utfx_validate_utf32(in.u, 1).status == UTFX_INVALID, "UTF-32 %X", (unsigned)v);
  }
  for (v = 0x120000; v < 0xFFFF0000u; v += 0x10001) {
    in.u[0] = 0x41;
    in.u[1] = v;
    snprintf(what, sizeof what, "UTF-32 A %X", (unsigned)v);
    check_all(REF_UTF32, in.u, 2, 1, what);
  }
  timed_group("every surrogate (UTF-8 / UTF-16 / UTF-32) and out-of-range UTF-32 rejected");
}

/* ------------------------------------------------- UTF-8 sweeps */
static void suite_utf8_short(void) {
  unsigned char s[2];
  unsigned a, b;
  char what[32];
  for (a = 0; a < 256; a++) {
    s[0] = (unsigned char)a;
    snprintf(what, sizeof what, "%02X", a);
    check_all(REF_UTF8, s, 1, 1, what);
  }
  timed_group("every 1-byte UTF-8 sequence, every function");
  for (a = 0; a < 256; a++)
    for (b = 0; b < 256; b++) {
      s[0] = (unsigned char)a;
      s[1] = (unsigned char)b;
      snprintf(what, sizeof what, "%02X %02X", a, b);
      check_all(REF_UTF8, s, 2, 1, what);
    }
  timed_group("every 2-byte UTF-8 sequence, every function");
}

/* Expected UTF-16LE units of the REPLACE decoding, from the reference. */
static size_t expected_utf16(const ref_char *c, size_t count, uint16_t *u, size_t *replaced) {
  size_t i, w = 0;
  *replaced = 0;
  for (i = 0; i < count; i++) {
    uint32_t cp = c[i].cp;
    *replaced += (size_t)c[i].bad;
    if (cp < 0x10000) {
      u[w++] = (uint16_t)cp;
    } else {
      u[w++] = (uint16_t)(0xD800 + ((cp - 0x10000) >> 10));
      u[w++] = (uint16_t)(0xDC00 + (cp & 0x3FF));
    }
  }
  return w;
}

/* The cheap per-sequence check of the long sweeps: validation, the REPLACE
 * conversion to UTF-16LE (units read back byte-order-independently) and the
 * UTF-16 length. With `strict`, also the STRICT conversion and the UTF-32
 * length. */
static void sweep_check(const unsigned char *s, size_t n, int strict) {
  ref_char c[4];
  uint16_t want[8];
  char16_t got[8];
  size_t count = ref_decode(REF_UTF8, s, n, c), fe = n, i, w, replaced;
  utfx_result r;
  for (i = 0; i < count; i++)
    if (c[i].bad) {
      fe = c[i].start;
      break;
    }
  w = expected_utf16(c, count, want, &replaced);
  r = utfx_validate_utf8((const char *)s, n);
  CHECK(r.status == (fe == n ? UTFX_OK : UTFX_INVALID) && r.read == fe,
        "validate %02X %02X %02X %02X (n=%zu): read %zu want %zu", s[0], n > 1 ? s[1] : 0,
        n > 2 ? s[2] : 0, n > 3 ? s[3] : 0, n, r.read, fe);
  r = utfx_convert_utf8_to_utf16le((const char *)s, n, got, 8, UTFX_REPLACE);
  CHECK(r.status == UTFX_OK && r.read == n && r.written == w && r.replaced == replaced,
        "REPLACE %02X %02X %02X %02X (n=%zu): written %zu want %zu, replaced %zu want %zu",
        s[0], n > 1 ? s[1] : 0, n > 2 ? s[2] : 0, n > 3 ? s[3] : 0, n, r.written, w,
        r.replaced, replaced);
  for (i = 0; i < w && i < r.written; i++)
    if (ref_get_unit(REF_UTF16LE, got, i) != want[i]) break;
  CHECK(i == w, "REPLACE %02X %02X %02X %02X (n=%zu): unit %zu", s[0], n > 1 ? s[1] : 0,
        n > 2 ? s[2] : 0, n > 3 ? s[3] : 0, n, i);
  CHECK(utfx_utf16_length_from_utf8((const char *)s, n) == w, "utf16 length %02X %02X",
        s[0], n > 1 ? s[1] : 0);
  if (!strict) return;
  r = utfx_convert_utf8_to_utf16le((const char *)s, n, got, 8, UTFX_STRICT);
  {
    size_t pre = 0;
    for (i = 0; i < count && !c[i].bad; i++) pre += c[i].cp < 0x10000 ? 1 : 2;
    CHECK(r.status == (fe == n ? UTFX_OK : UTFX_INVALID) && r.read == fe && r.written == pre &&
              r.replaced == 0,
          "STRICT %02X %02X %02X: read %zu want %zu", s[0], n > 1 ? s[1] : 0,
          n > 2 ? s[2] : 0, r.read, fe);
  }
  CHECK(utfx_utf32_length_from_utf8((const char *)s, n) == count, "utf32 length %02X %02X %02X",
        s[0], n > 1 ? s[1] : 0, n > 2 ? s[2] : 0);
}

static void suite_utf8_3byte(void) {
  unsigned char s[3];
  unsigned a, b, c;
  for (a = 0; a < 256; a++)
    for (b = 0; b < 256; b++)
      for (c = 0; c < 256; c++) {
        if (!test_keep(a << 16 | b << 8 | c, 16)) continue;
        s[0] = (unsigned char)a;
        s[1] = (unsigned char)b;
        s[2] = (unsigned char)c;
        sweep_check(s, 3, 1);
      }
  timed_group(
      sampled("every 3-byte UTF-8 sequence (validate, STRICT/REPLACE to UTF-16LE, lengths)", 16));
}

static void suite_utf8_4byte(void) {
  unsigned char s[4];
  unsigned a, b, c, d, phase = 0;
  char name[160], stride[64] = "";
  for (a = 0xF0; a <= 0xF4; a++)
    for (b = 0; b < 256; b++)
      for (c = phase++ % sweep_stride; c < 256; c += sweep_stride)
        for (d = 0; d < 256; d++) {
          s[0] = (unsigned char)a;
          s[1] = (unsigned char)b;
          s[2] = (unsigned char)c;
          s[3] = (unsigned char)d;
          sweep_check(s, 4, 1);
        }
  if (sweep_stride > 1)
    snprintf(stride, sizeof stride, " (third byte stride %u, rotating phase)", sweep_stride);
  snprintf(name, sizeof name,
           "every 4-byte UTF-8 sequence with lead F0..F4%s (validate, STRICT/REPLACE to "
           "UTF-16LE, lengths)",
           stride);
  timed_group(name);
}

/* ------------------------------------------------- UTF-16 sweeps */
static void suite_utf16(void) {
  char16_t in[4];
  uint32_t u, hi, lo;
  char what[48];
  int e;
  for (e = REF_UTF16LE; e <= REF_UTF16BE; e++) {
    enum ref_enc enc = (enum ref_enc)e;
    for (u = 0; u < 0x10000; u++) {
      ref_put_unit(enc, in, 0, u);
      snprintf(what, sizeof what, "%s %04X", ref_enc_name(enc), (unsigned)u);
      check_all(enc, in, 1, 1, what);
    }
  }
  timed_group("every UTF-16 unit alone, LE and BE, every function");
  for (e = REF_UTF16LE; e <= REF_UTF16BE; e++) {
    enum ref_enc enc = (enum ref_enc)e;
    const struct convert_op *to8 = find_convert(enc, REF_UTF8);
    const struct convert_op *to32 = find_convert(enc, REF_UTF32);
    const struct validate_op *val = &validate_ops[e];
    for (hi = 0xD800; hi <= 0xDBFF; hi++)
      for (lo = 0xDC00; lo <= 0xDFFF; lo++) {
        uint32_t cp = 0x10000 + ((hi - 0xD800) << 10) + (lo - 0xDC00), o32[4];
        unsigned char o8[8], w8[4];
        utfx_result r;
        if (!test_keep(cp, 8)) continue;
        ref_put_unit(enc, in, 0, hi);
        ref_put_unit(enc, in, 1, lo);
        r = val->pub(in, 2);
        CHECK(r.status == UTFX_OK && r.read == 2, "%s pair %04X %04X", val->name,
              (unsigned)hi, (unsigned)lo);
        r = to32->pub(in, 2, o32, 1, UTFX_STRICT);
        CHECK(r.status == UTFX_OK && r.written == 1 && o32[0] == cp, "%s pair %04X %04X",
              to32->name, (unsigned)hi, (unsigned)lo);
        r = to8->pub(in, 2, o8, 4, UTFX_STRICT);
        ref_encode(REF_UTF8, cp, w8);
        CHECK(r.status == UTFX_OK && r.written == 4 && memcmp(o8, w8, 4) == 0,
              "%s pair %04X %04X", to8->name, (unsigned)hi, (unsigned)lo);
        /* Reversed: two lone surrogates. */
        ref_put_unit(enc, in, 0, lo);
        ref_put_unit(enc, in, 1, hi);
        r = val->pub(in, 2);
        CHECK(r.status == UTFX_INVALID && r.read == 0, "%s reversed %04X %04X", val->name,
              (unsigned)lo, (unsigned)hi);
        r = to32->pub(in, 2, o32, 2, UTFX_REPLACE);
        CHECK(r.status == UTFX_OK && r.written == 2 && r.replaced == 2 && o32[0] == 0xFFFD &&
                  o32[1] == 0xFFFD,
              "%s reversed %04X %04X", to32->name, (unsigned)lo, (unsigned)hi);
      }
  }
  timed_group(sampled("every UTF-16 surrogate pair and reversed pair, LE and BE", 8));
}

/* ------------------------------------------------- embedded at every offset */
/* Each sequence at offsets 0..63 of a block of ASCII 'a' of 64 + len units
 * (and at the very end of an input of offset + len units). */
static void embed(enum ref_enc enc, const uint32_t *seq, size_t len) {
  union {
    unsigned char b[4 * 160];
    uint32_t align;
  } buf;
  static size_t placements; /* under emulation half of them */
  size_t o, i;
  char what[96];
  for (o = 0; o < 64; o++) {
    if (!test_keep(placements++, 2)) continue;
    for (i = 0; i < 64 + len; i++) ref_put_unit(enc, buf.b, i, 0x61);
    for (i = 0; i < len; i++) ref_put_unit(enc, buf.b, o + i, seq[i]);
    snprintf(what, sizeof what, "%s seq %X.. (len %zu) at %zu", ref_enc_name(enc),
             (unsigned)seq[0], len, o);
    check_all(enc, buf.b, 64 + len, 0, what);
    check_all(enc, buf.b, o + len, 1, what);
  }
}

static void suite_embedded(void) {
  static const unsigned char leads[] = {0x80, 0xBF, 0xC0, 0xC1, 0xC2, 0xDF, 0xE0, 0xE1,
                                        0xED, 0xEE, 0xEF, 0xF0, 0xF1, 0xF4, 0xF5, 0xFF};
  static const unsigned char second[] = {0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0x41};
  static const unsigned char later[] = {0x80, 0xBF, 0x41};
  static const uint32_t u16seqs[][3] = {
      {1, 0xD800}, {1, 0xDBFF}, {1, 0xDC00}, {1, 0xDFFF}, {2, 0xD83D, 0xDE00},
      {2, 0xDE00, 0xD83D}, {2, 0xD83D, 0x41}, {2, 0xD800, 0xD800}, {1, 0xE9}, {1, 0x20AC},
      {1, 0xFFFD}, {1, 0x7F}, {1, 0x80}, {1, 0x7FF}, {1, 0x800}, {2, 0xDBFF, 0xDFFF}};
  static const uint32_t u32vals[] = {0xD800, 0xDFFF, 0x110000, 0xFFFFFFFF, 0x1F600, 0x10FFFF,
                                     0xE9,   0x100,  0xFFFD,   0x80,       0x800};
  size_t l, i, j, k;
  for (l = 0; l < sizeof leads; l++) {
    uint32_t seq[4];
    seq[0] = leads[l];
    embed(REF_UTF8, seq, 1);
    for (i = 0; i < sizeof second; i++) {
      seq[1] = second[i];
      embed(REF_UTF8, seq, 2);
      for (j = 0; j < sizeof later; j++) {
        seq[2] = later[j];
        embed(REF_UTF8, seq, 3);
        for (k = 0; k < sizeof later; k++) {
          seq[3] = later[k];
          embed(REF_UTF8, seq, 4);
        }
      }
    }
  }
  timed_group(sampled("UTF-8 sequences at every offset of a 64-byte ASCII block and at the end", 2));
  for (i = 0; i < COUNT_OF(u16seqs); i++) {
    embed(REF_UTF16LE, u16seqs[i] + 1, u16seqs[i][0]);
    embed(REF_UTF16BE, u16seqs[i] + 1, u16seqs[i][0]);
  }
  for (i = 0; i < COUNT_OF(u32vals); i++) embed(REF_UTF32, &u32vals[i], 1);
  for (i = 0x80; i < 0x100; i += 0x11) {
    uint32_t b = (uint32_t)i;
    embed(REF_LATIN1, &b, 1);
  }
  timed_group(
      sampled("UTF-16 / UTF-32 / Latin-1 units at every offset of a 64-unit block and at the end", 2));
}

static void suite(void) {
  suite_scalar_values();
  suite_surrogates();
  suite_utf8_short();
  suite_utf8_3byte();
  suite_utf8_4byte();
  suite_utf16();
  suite_embedded();
}

int main(void) {
  const char *san = getenv("UTFX_SANITIZED");
  if (BUILT_WITH_ASAN || (san && strcmp(san, "1") == 0)) sweep_stride = 3;
  sweep_stride *= (unsigned)test_share(48);
  group_start = clock();
  tap_for_each_impl(suite);
  return tap_done();
}
