/* libFuzzer target: everything that reads UTF-16. The input bytes are the
 * UTF-16 data in memory (size / 2 units; an odd last byte is ignored), read
 * once as utf16le and once as utf16be.
 *   - utfx_validate_utf16le / be;
 *   - utf16le and utf16be to UTF-8, the other byte order, UTF-32 and Latin-1,
 *     STRICT and REPLACE, with exact, short and hashed capacities;
 *   - the utf8/utf32/latin1 lengths == what REPLACE writes;
 *   - utfx_to_well_formed_utf16le / be, out of place and in place;
 *   - issue 35: utfx_validate_ascii_utf16le / be, the UTF-8 lengths with the
 *     lone-surrogate flag, utfx_swap_bytes_utf16 (the byte-swapped twin),
 *     utfx_validate_utf16le / be_detail and utfx_trim_partial_utf16le / be;
 * each on every tier against scalar (fuzz_common.h); plus ICU's
 * u_strToUTF8WithSub as an oracle for the UTF-8 output, the byte-order twins
 * against each other, and round trips of valid input. */
#include "fuzz_common.h"

#include <unicode/ustring.h>

/* The length and the flag in one size_t (the flag in the low bit). */
static size_t fz_flagged_le(const void *s, size_t n) {
  int flag = -1;
  size_t len = utfx_utf8_length_from_utf16le_with_surrogates((const char16_t *)s, n, &flag);
  return len * 2 + (size_t)flag;
}
static size_t fz_flagged_be(const void *s, size_t n) {
  int flag = -1;
  size_t len = utfx_utf8_length_from_utf16be_with_surrogates((const char16_t *)s, n, &flag);
  return len * 2 + (size_t)flag;
}

struct family {
  fz_convert_fn to_utf8, to_other16, to_utf32, to_latin1, utf8_back, utf32_back;
  fz_length_fn len8, len32, lenl1;
  fz_validate_fn validate, ascii;
  fz_length_fn flagged;
  utfx_error (*detail)(const char16_t *, size_t);
  size_t (*trim)(const char16_t *, size_t);
  void (*well_formed)(const char16_t *, size_t, char16_t *);
  const char *name;
};

static const struct family families[2] = {
    {fz_utf16le_to_utf8, fz_utf16le_to_utf16be, fz_utf16le_to_utf32, fz_utf16le_to_latin1,
     fz_utf8_to_utf16le, fz_utf32_to_utf16le, fz_utf8_length_from_utf16le,
     fz_utf32_length_from_utf16le, fz_latin1_length_from_utf16le, fz_validate_utf16le,
     fz_validate_ascii_utf16le, fz_flagged_le, utfx_validate_utf16le_detail,
     utfx_trim_partial_utf16le, utfx_to_well_formed_utf16le, "utf16le"},
    {fz_utf16be_to_utf8, fz_utf16be_to_utf16le, fz_utf16be_to_utf32, fz_utf16be_to_latin1,
     fz_utf8_to_utf16be, fz_utf32_to_utf16be, fz_utf8_length_from_utf16be,
     fz_utf32_length_from_utf16be, fz_latin1_length_from_utf16be, fz_validate_utf16be,
     fz_validate_ascii_utf16be, fz_flagged_be, utfx_validate_utf16be_detail,
     utfx_trim_partial_utf16be, utfx_to_well_formed_utf16be, "utf16be"},
};

/* to_well_formed (current tier), out of place and in place: both must equal
 * `expect` (the REPLACE conversion to the same byte order). */
static void check_well_formed(const struct family *f, const char16_t *src, size_t n,
                              const unsigned char *expect) {
  struct fz_place placed = fz_place(1, 2 * n, 2, 1000, fz_seed);
  char16_t *out = (char16_t *)(void *)placed.p, *inplace = fz_copy(src, n, 2);
  if (n) memset(out, FZ_CANARY, 2 * n);
  f->well_formed(src, n, out);
  f->well_formed(inplace, n, inplace);
  FZ_REQUIRE(n == 0 || memcmp(out, expect, 2 * n) == 0, f->name, "to_well_formed");
  FZ_REQUIRE(n == 0 || memcmp(inplace, expect, 2 * n) == 0, f->name, "to_well_formed in place");
  FZ_REQUIRE(fz_unplace(&placed), f->name, "to_well_formed wrote outside dst");
  free(inplace);
}

/* The unit at p in byte order be. */
static unsigned unit_at(const char16_t *p, int be) {
  const unsigned char *b = (const unsigned char *)p;
  return be ? (unsigned)(b[0] << 8 | b[1]) : (unsigned)(b[0] | b[1] << 8);
}

/* Issue 35's UTF-16 functions against the validator v and the UTF-8
 * length len8 of the same input (both checked against scalar). */
static void check_issue35(const struct family *f, const char16_t *src, size_t n, utfx_result v,
                          size_t len8) {
  utfx_result a = fz_validate(f->name, f->ascii, src, n);
  size_t flagged = fz_length(f->name, f->flagged, src, n), i, t = f->trim(src, n);
  utfx_error d = f->detail(src, n);
  int be = f->ascii == fz_validate_ascii_utf16be;
  for (i = 0; i < a.read; i++) FZ_REQUIRE(unit_at(src + i, be) < 0x80, f->name, "ascii");
  FZ_REQUIRE(a.read == n || unit_at(src + a.read, be) >= 0x80, f->name, "ascii offset");
  FZ_REQUIRE(flagged / 2 == len8 && (flagged & 1) == (v.status != UTFX_OK), f->name,
             "length with surrogates");
  FZ_REQUIRE(d.status == v.status && d.offset == v.read &&
                 (d.kind == UTFX_ERROR_NONE) == (v.status == UTFX_OK),
             f->name, "validate detail");
  FZ_REQUIRE(t == n || (t == n - 1 && (unit_at(src + t, be) & 0xFC00) == 0xD800), f->name,
             "trim_partial");
}

static void check_input(const uint8_t *data, size_t size) {
  size_t n = size / 2, i, fi;
  uint64_t h = fz_hash(data, size);
  struct fz_place placed = fz_place_src(data, n, 2);
  char16_t *src = (char16_t *)(void *)placed.p;
  struct fz_output utf8_of[2];
  for (fi = 0; fi < 2; fi++) {
    const struct family *f = &families[fi];
    utfx_result v = fz_validate(f->name, f->validate, src, n);
    size_t len8 = fz_length(f->name, f->len8, src, n);
    size_t len32 = fz_length(f->name, f->len32, src, n);
    size_t lenl1 = fz_length(f->name, f->lenl1, src, n);
    struct fz_output o16, o32, l1;
    FZ_REQUIRE(lenl1 == len32 && len32 <= n && len8 <= 3 * n, f->name, "lengths");
    check_issue35(f, src, n, v, len8);
    utf8_of[fi] = fz_convert_family(f->name, f->to_utf8, src, n, 1, len8, v.read, 0, h);
    o16 = fz_convert_family(f->name, f->to_other16, src, n, 2, n, v.read, 0, h >> 5);
    o32 = fz_convert_family(f->name, f->to_utf32, src, n, 4, len32, v.read, 0, h >> 11);
    l1 = fz_convert_family(f->name, f->to_latin1, src, n, 1, lenl1, v.read, 1, h >> 17);
    FZ_REQUIRE(utf8_of[fi].r.replaced == o16.r.replaced && o16.r.replaced == o32.r.replaced,
               f->name, "replacement counts");
    FZ_REQUIRE((o16.r.replaced == 0) == (v.status == UTFX_OK), f->name, "replaced vs valid");
    /* to_well_formed == the REPLACE conversion to the other byte order, swapped back. */
    for (i = 0; i < n; i++) {
      unsigned char tmp = o16.bytes[2 * i];
      o16.bytes[2 * i] = o16.bytes[2 * i + 1];
      o16.bytes[2 * i + 1] = tmp;
    }
    check_well_formed(f, src, n, o16.bytes);
    if (v.status == UTFX_OK) {
      fz_round_trip(f->name, f->utf8_back, &utf8_of[fi], src, n, 2);
      fz_round_trip(f->name, f->utf32_back, &o32, src, n, 2);
    }
    free(o16.bytes);
    free(o32.bytes);
    free(l1.bytes);
  }

  /* ICU on the little-endian reading (UChar is host order: little-endian
   * hosts only, checked). */
  {
    const uint16_t one = 1;
    size_t len8 = utf8_of[0].r.written;
    char *icu = malloc(3 * n + 1);
    int32_t icu_len = -1, subs = -1;
    UErrorCode err = U_ZERO_ERROR;
    if (!icu) abort();
    FZ_REQUIRE(*(const unsigned char *)&one == 1, "ICU comparison", "little-endian host");
    if (n <= INT32_MAX / 3) {
      u_strToUTF8WithSub(icu, (int32_t)(3 * n + 1), &icu_len, (const UChar *)src, (int32_t)n,
                         0xFFFD, &subs, &err);
      FZ_REQUIRE(U_SUCCESS(err) && (size_t)icu_len == len8 &&
                     (size_t)subs == utf8_of[0].r.replaced,
                 "utf16le_to_utf8", "ICU length / substitutions");
      FZ_REQUIRE(len8 == 0 || memcmp(icu, utf8_of[0].bytes, len8) == 0, "utf16le_to_utf8",
                 "ICU output");
    }
    free(icu);
  }

  /* The byte-swapped data read as utf16be is the same text as utf16le. */
  {
    char16_t *swapped = fz_copy(src, n, 2);
    struct fz_output o;
    char16_t *raw = fz_copy(src, n, 2);
    for (i = 0; i < n; i++) {
      unsigned char *b = (unsigned char *)(swapped + i), tmp = b[0];
      b[0] = b[1];
      b[1] = tmp;
    }
    if (n) utfx_swap_bytes_utf16(raw, n, raw); /* in place */
    FZ_REQUIRE(n == 0 || memcmp(raw, swapped, 2 * n) == 0, "swap_bytes_utf16", "byte swap");
    free(raw);
    o = fz_convert("utf16be_to_utf8 (swapped)", fz_utf16be_to_utf8, swapped, n, 1,
                   utf8_of[0].r.written, UTFX_REPLACE);
    FZ_REQUIRE(o.r.written == utf8_of[0].r.written &&
                   (o.r.written == 0 || memcmp(o.bytes, utf8_of[0].bytes, o.r.written) == 0),
               "utf16be_to_utf8", "byte-swapped twin");
    free(o.bytes);
    free(swapped);
  }
  free(utf8_of[0].bytes);
  free(utf8_of[1].bytes);
  fz_unplace(&placed);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fz_run_tiers(check_input, data, size);
  return 0;
}
