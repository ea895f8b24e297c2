/* libFuzzer target: everything that reads UTF-8. The input is UTF-8 text.
 *   - utfx_validate_utf8 / utfx_validate_ascii;
 *   - UTF-8 to UTF-16LE, UTF-16BE, UTF-32 and Latin-1, STRICT and REPLACE,
 *     with exact, short and hashed capacities (fz_convert_family);
 *   - utfx_utf16/utf32/latin1_length_from_utf8 == what REPLACE writes;
 *   - issue 35: utfx_validate_utf8_detail (the validator's offset, a kind,
 *     a length that is 0 exactly for an incomplete tail), utfx_trim_partial_utf8
 *     (cuts at most 3 bytes, and only a tail that error_at calls incomplete),
 *     utfx_detect_encodings' UTF-8 bit;
 * each on every tier against scalar (fuzz_common.h); plus ICU's
 * u_strFromUTF8WithSub (maximal subparts, ICU >= 60) as an independent
 * oracle of the UTF-16 output and the replacement count, and round trips
 * of valid input back to the same bytes. */
#include "fuzz_common.h"

#include <unicode/ustring.h>

/* Issue 35's error kinds, incomplete tails and detection, against the
 * validator v of the same input (so against scalar's too). */
static void check_detail(const char *src, size_t size, utfx_result v) {
  utfx_error d = utfx_validate_utf8_detail(src, size);
  size_t t = utfx_trim_partial_utf8(src, size);
  unsigned set = utfx_detect_encodings(src, size);
  FZ_REQUIRE(d.status == v.status && d.offset == v.read, "validate_utf8_detail", "offset");
  FZ_REQUIRE((d.kind == UTFX_ERROR_NONE) == (v.status == UTFX_OK) && d.length <= 3,
             "validate_utf8_detail", "kind / length");
  FZ_REQUIRE(d.length != 0 || v.status == UTFX_OK || t == d.offset, "validate_utf8_detail",
             "length 0 only for the incomplete tail that trim_partial cuts");
  FZ_REQUIRE(t <= size && size - t <= 3, "trim_partial_utf8", "at most 3 bytes");
  if (t < size) {
    utfx_error e = utfx_utf8_error_at(src, size, t);
    FZ_REQUIRE(e.kind == UTFX_ERROR_TOO_SHORT && e.length == 0, "trim_partial_utf8",
               "cuts only an incomplete sequence");
  }
  FZ_REQUIRE(!(set & UTFX_DETECT_UTF8) == (v.status != UTFX_OK), "detect_encodings", "UTF-8 bit");
}

static void check_input(const uint8_t *data, size_t size) {
  uint64_t h = fz_hash(data, size);
  struct fz_place placed = fz_place_src(data, size, 1);
  char *src = (char *)placed.p;
  utfx_result v = fz_validate("validate_utf8", fz_validate_utf8, src, size);
  utfx_result a = fz_validate("validate_ascii", fz_validate_ascii, src, size);
  size_t len16 = fz_length("utf16_length_from_utf8", fz_utf16_length_from_utf8, src, size);
  size_t len32 = fz_length("utf32_length_from_utf8", fz_utf32_length_from_utf8, src, size);
  size_t lenl1 = fz_length("latin1_length_from_utf8", fz_latin1_length_from_utf8, src, size);
  struct fz_output le, be, u32, l1;
  size_t i;

  FZ_REQUIRE(a.read <= v.read, "validate_ascii", "ASCII prefix is valid UTF-8");
  for (i = 0; i < a.read; i++) FZ_REQUIRE((data[i] & 0x80) == 0, "validate_ascii", "offset");
  FZ_REQUIRE(a.read == size || (data[a.read] & 0x80), "validate_ascii", "offset");
  FZ_REQUIRE(lenl1 == len32, "latin1_length_from_utf8", "== code points");
  FZ_REQUIRE(len16 >= len32 && len16 <= 2 * len32, "utf16_length_from_utf8", "vs utf32");

  le = fz_convert_family("utf8_to_utf16le", fz_utf8_to_utf16le, src, size, 2, len16, v.read, 0,
                         h);
  be = fz_convert_family("utf8_to_utf16be", fz_utf8_to_utf16be, src, size, 2, len16, v.read, 0,
                         h >> 7);
  u32 = fz_convert_family("utf8_to_utf32", fz_utf8_to_utf32, src, size, 4, len32, v.read, 0,
                          h >> 13);
  l1 = fz_convert_family("utf8_to_latin1", fz_utf8_to_latin1, src, size, 1, lenl1, v.read, 1,
                         h >> 19);
  FZ_REQUIRE(le.r.replaced == be.r.replaced && le.r.replaced == u32.r.replaced,
             "utf8 REPLACE", "replacement counts");
  FZ_REQUIRE((le.r.replaced == 0) == (v.status == UTFX_OK), "utf8 REPLACE", "replaced vs valid");
  for (i = 0; i < len16; i++)
    FZ_REQUIRE(le.bytes[2 * i] == be.bytes[2 * i + 1] && le.bytes[2 * i + 1] == be.bytes[2 * i],
               "utf8_to_utf16be", "byte-swapped utf16le");

  /* ICU: the same UTF-16 (ICU's UChar is host order; the fuzzers run on
   * little-endian hosts, checked here) and the same number of U+FFFD. */
  {
    const uint16_t one = 1;
    UChar *icu = malloc((size + 1) * sizeof(UChar));
    int32_t icu_len = -1, subs = -1;
    UErrorCode err = U_ZERO_ERROR;
    if (!icu) abort();
    FZ_REQUIRE(*(const unsigned char *)&one == 1, "ICU comparison", "little-endian host");
    if (size <= INT32_MAX) {
      u_strFromUTF8WithSub(icu, (int32_t)size + 1, &icu_len, src, (int32_t)size, 0xFFFD, &subs,
                           &err);
      FZ_REQUIRE(U_SUCCESS(err) && (size_t)icu_len == len16 && (size_t)subs == le.r.replaced,
                 "utf8_to_utf16le", "ICU length / substitutions");
      FZ_REQUIRE(len16 == 0 || memcmp(icu, le.bytes, len16 * 2) == 0, "utf8_to_utf16le",
                 "ICU output");
    }
    free(icu);
  }

  /* Lossless round trips of valid input; Latin-1 round trips when it fits. */
  if (v.status == UTFX_OK) {
    fz_round_trip("utf16le_to_utf8", fz_utf16le_to_utf8, &le, data, size, 1);
    fz_round_trip("utf16be_to_utf8", fz_utf16be_to_utf8, &be, data, size, 1);
    fz_round_trip("utf32_to_utf8", fz_utf32_to_utf8, &u32, data, size, 1);
    if (l1.r.status == UTFX_OK)
      fz_round_trip("latin1_to_utf8", fz_latin1_to_utf8, &l1, data, size, 1);
  }
  check_detail(src, size, v);
  free(le.bytes);
  free(be.bytes);
  free(u32.bytes);
  free(l1.bytes);
  fz_unplace(&placed);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fz_run_tiers(check_input, data, size);
  return 0;
}
