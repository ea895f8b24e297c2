/* libFuzzer target: everything that reads UTF-32 or Latin-1. The input bytes
 * are read twice: as host-order UTF-32 (size / 4 units) and as Latin-1.
 *   - utfx_validate_utf32;
 *   - UTF-32 and Latin-1 to every other form, STRICT and REPLACE, with exact,
 *     short and hashed capacities;
 *   - the lengths from UTF-32 and Latin-1 == what REPLACE writes;
 * each on every tier against scalar (fuzz_common.h); plus ICU's
 * u_strFromUTF32WithSub as an oracle for UTF-32 to UTF-16 (surrogates and
 * values above U+10FFFF become U+FFFD), and round trips of valid input. */
#include "fuzz_common.h"

#include <unicode/ustring.h>

static void utf32_input(const uint8_t *data, size_t size, uint64_t h) {
  size_t n = size / 4, i;
  struct fz_place placed = fz_place_src(data, n, 4);
  char32_t *src = (char32_t *)(void *)placed.p;
  utfx_result v = fz_validate("validate_utf32", fz_validate_utf32, src, n);
  size_t len8 = fz_length("utf8_length_from_utf32", fz_utf8_length_from_utf32, src, n);
  size_t len16 = fz_length("utf16_length_from_utf32", fz_utf16_length_from_utf32, src, n);
  size_t lenl1 = fz_length("latin1_length_from_utf32", fz_latin1_length_from_utf32, src, n);
  struct fz_output o8, le, be, l1;
  FZ_REQUIRE(lenl1 == n && len16 >= n && len16 <= 2 * n && len8 <= 4 * n, "utf32", "lengths");
  for (i = 0; i < v.read; i++)
    FZ_REQUIRE(src[i] <= 0x10FFFF && (src[i] < 0xD800 || src[i] > 0xDFFF), "validate_utf32",
               "accepted a non-scalar value");
  FZ_REQUIRE(v.read == n || src[v.read] > 0x10FFFF || (src[v.read] >= 0xD800 &&
                                                       src[v.read] <= 0xDFFF),
             "validate_utf32", "rejected a scalar value");
  o8 = fz_convert_family("utf32_to_utf8", fz_utf32_to_utf8, src, n, 1, len8, v.read, 0, h);
  le = fz_convert_family("utf32_to_utf16le", fz_utf32_to_utf16le, src, n, 2, len16, v.read, 0,
                         h >> 5);
  be = fz_convert_family("utf32_to_utf16be", fz_utf32_to_utf16be, src, n, 2, len16, v.read, 0,
                         h >> 9);
  l1 = fz_convert_family("utf32_to_latin1", fz_utf32_to_latin1, src, n, 1, lenl1, v.read, 1,
                         h >> 13);
  FZ_REQUIRE(o8.r.replaced == le.r.replaced && le.r.replaced == be.r.replaced, "utf32",
             "replacement counts");
  {
    const uint16_t one = 1;
    UChar *icu = malloc(2 * n * sizeof(UChar) + 2);
    int32_t icu_len = -1, subs = -1;
    UErrorCode err = U_ZERO_ERROR;
    if (!icu) abort();
    FZ_REQUIRE(*(const unsigned char *)&one == 1, "ICU comparison", "little-endian host");
    if (n <= INT32_MAX / 2) {
      u_strFromUTF32WithSub(icu, (int32_t)(2 * n + 1), &icu_len, (const UChar32 *)src,
                            (int32_t)n, 0xFFFD, &subs, &err);
      FZ_REQUIRE(U_SUCCESS(err) && (size_t)icu_len == len16 && (size_t)subs == le.r.replaced,
                 "utf32_to_utf16le", "ICU length / substitutions");
      FZ_REQUIRE(len16 == 0 || memcmp(icu, le.bytes, 2 * len16) == 0, "utf32_to_utf16le",
                 "ICU output");
    }
    free(icu);
  }
  if (v.status == UTFX_OK) {
    fz_round_trip("utf8_to_utf32", fz_utf8_to_utf32, &o8, src, n, 4);
    fz_round_trip("utf16le_to_utf32", fz_utf16le_to_utf32, &le, src, n, 4);
    fz_round_trip("utf16be_to_utf32", fz_utf16be_to_utf32, &be, src, n, 4);
  }
  free(o8.bytes);
  free(le.bytes);
  free(be.bytes);
  free(l1.bytes);
  fz_unplace(&placed);
}

static void latin1_input(const uint8_t *data, size_t n, uint64_t h) {
  struct fz_place placed = fz_place_src(data, n, 1);
  char *src = (char *)placed.p;
  size_t len8 = fz_length("utf8_length_from_latin1", fz_utf8_length_from_latin1, src, n);
  size_t len16 = fz_length("utf16_length_from_latin1", fz_utf16_length_from_latin1, src, n);
  size_t len32 = fz_length("utf32_length_from_latin1", fz_utf32_length_from_latin1, src, n);
  size_t high = 0, i;
  struct fz_output o8, le, be, o32;
  for (i = 0; i < n; i++) high += data[i] >= 0x80;
  FZ_REQUIRE(len8 == n + high && len16 == n && len32 == n, "latin1", "lengths");
  o8 = fz_convert_family("latin1_to_utf8", fz_latin1_to_utf8, src, n, 1, len8, n, 0, h);
  le = fz_convert_family("latin1_to_utf16le", fz_latin1_to_utf16le, src, n, 2, n, n, 0, h >> 3);
  be = fz_convert_family("latin1_to_utf16be", fz_latin1_to_utf16be, src, n, 2, n, n, 0, h >> 7);
  o32 = fz_convert_family("latin1_to_utf32", fz_latin1_to_utf32, src, n, 4, n, n, 0, h >> 11);
  for (i = 0; i < n; i++)
    FZ_REQUIRE(le.bytes[2 * i] == data[i] && le.bytes[2 * i + 1] == 0 &&
                   be.bytes[2 * i] == 0 && be.bytes[2 * i + 1] == data[i],
               "latin1_to_utf16", "U+0000..U+00FF");
  fz_round_trip("utf8_to_latin1", fz_utf8_to_latin1, &o8, src, n, 1);
  fz_round_trip("utf16le_to_latin1", fz_utf16le_to_latin1, &le, src, n, 1);
  fz_round_trip("utf16be_to_latin1", fz_utf16be_to_latin1, &be, src, n, 1);
  fz_round_trip("utf32_to_latin1", fz_utf32_to_latin1, &o32, src, n, 1);
  free(o8.bytes);
  free(le.bytes);
  free(be.bytes);
  free(o32.bytes);
  fz_unplace(&placed);
}

static void check_input(const uint8_t *data, size_t size) {
  uint64_t h = fz_hash(data, size);
  utf32_input(data, size, h);
  latin1_input(data, size, h >> 23);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fz_run_tiers(check_input, data, size);
  return 0;
}
