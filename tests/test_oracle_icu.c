/* Differential tests against two independent implementations: ICU (ustring.h
 * conversions with U+FFFD substitution, utf8.h / utf16.h iteration macros,
 * the ISO-8859-1 converter) and glibc iconv.
 *
 * ICU >= 60 substitutes U+FFFD per maximal subpart of ill-formed UTF-8, the
 * WHATWG rule; the first group checks that on design.md's examples before
 * ICU is trusted as an oracle (and fails if a future ICU changed). ICU and
 * utfx agree everywhere we compare, so nothing is excluded.
 *
 * iconv has no replacement mode: it is compared on strict validity, on the
 * offset of the first error (iconv leaves its input pointer at the start of
 * the sequence it rejects, EILSEQ, or cannot complete, EINVAL) and on the
 * output for valid input (or the valid prefix). glibc iconv agrees with ICU
 * and utfx on every input so far: it rejects overlongs, encoded surrogates,
 * values above U+10FFFF and lone UTF-16 / UTF-32 surrogates, and stops at
 * the first byte of the offending sequence, as STRICT does.
 *
 * The inputs (tests/oracle/gen.h) are random but biased toward the bytes that
 * matter. The normal build checks UTFX_ORACLE_CASES (10^6) UTF-8 and as many
 * UTF-16 inputs per tier, plus a quarter as many UTF-32 and Latin-1 inputs; an
 * ASan build (detected through __SANITIZE_ADDRESS__ / __has_feature) does half
 * as many, to keep `make test` short. -DUTFX_ORACLE_CASES=N overrides both.
 * Under AVX-512 emulation (support/emulated.h) a tenth of that. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <iconv.h>
#include <string.h>
#include <unicode/ucnv.h>
#include <unicode/ustring.h>
#include <unicode/utf16.h>
#include <unicode/utf8.h>

#include "oracle/gen.h"
#include "support/emulated.h"
#include "support/guard.h"
#include "tap.h"

/* ICU's UChar / UChar32 and the iconv buffers are host words, so the UTF-16
 * functions under test are those whose memory byte order is the host's, and
 * iconv is asked for the host's byte order too. */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define HOST16(le, be) be
#else
#define HOST16(le, be) le
#endif
#define convert_utf8_to_utf16h HOST16(utfx_convert_utf8_to_utf16le, utfx_convert_utf8_to_utf16be)
#define convert_utf16h_to_utf8 HOST16(utfx_convert_utf16le_to_utf8, utfx_convert_utf16be_to_utf8)
#define convert_utf16h_to_utf32 \
  HOST16(utfx_convert_utf16le_to_utf32, utfx_convert_utf16be_to_utf32)
#define convert_utf32_to_utf16h \
  HOST16(utfx_convert_utf32_to_utf16le, utfx_convert_utf32_to_utf16be)
#define convert_latin1_to_utf16h \
  HOST16(utfx_convert_latin1_to_utf16le, utfx_convert_latin1_to_utf16be)
#define utf8_length_from_utf16h \
  HOST16(utfx_utf8_length_from_utf16le, utfx_utf8_length_from_utf16be)
#define utf32_length_from_utf16h \
  HOST16(utfx_utf32_length_from_utf16le, utfx_utf32_length_from_utf16be)
#define validate_utf16h HOST16(utfx_validate_utf16le, utfx_validate_utf16be)
#define ICONV_UTF16 HOST16("UTF-16LE", "UTF-16BE")
#define ICONV_UTF32 HOST16("UTF-32LE", "UTF-32BE")

#if defined(__SANITIZE_ADDRESS__)
#define UTFX_ORACLE_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define UTFX_ORACLE_SANITIZED 1
#endif
#endif

static unsigned long oracle_cases; /* UTFX_ORACLE_CASES, or less under emulation */
#ifndef UTFX_ORACLE_CASES
#ifdef UTFX_ORACLE_SANITIZED
#define UTFX_ORACLE_CASES 500000
#else
#define UTFX_ORACLE_CASES 1000000
#endif
#endif

#define MAX_IN 600   /* input buffer size, in units */
#define GEN_MAX 320  /* longest random UTF-8 / UTF-16 input: several 64-byte blocks */
#define CANARY 0xA5  /* fill byte of output buffers, checked after `written` */
#define SLACK 8      /* extra output units some cases offer beyond the exact size */

static iconv_t cd_utf8_utf16, cd_utf8_latin1, cd_utf16_utf8, cd_utf32_utf8, cd_latin1_utf8;
static UConverter *icu_latin1;
/* iconv's UTF-8, UTF-16 and UTF-32 decoders are checked against ICU in the
 * first tier's pass only: the inputs are the same in every pass, and every
 * tier is checked against ICU, so agreement carries over (saves half the
 * run time). */
static int first_pass = 1;
/* UTFX_ORACLE_NO_ICONV=reason leaves out the iconv UTF-8/16/32 comparisons
 * (tests/cross/run.sh sets it where the emulated iconv is wrong); never set
 * in a normal run. */
static const char *no_iconv;
static unsigned long n_icu, n_iconv, n_invalid8, n_invalid16, n_invalid32;
static unsigned long long bytes8, cases8;

/* Runs iconv on the whole input. Returns the error offset in input bytes
 * (SIZE_MAX when valid) and the output size in *out_len. */
static size_t run_iconv(iconv_t cd, const void *in, size_t in_len, void *out, size_t out_cap,
                        size_t *out_len) {
  char *ip = (char *)(uintptr_t)in, *op = out;
  size_t il = in_len, ol = out_cap, rc;
  iconv(cd, NULL, NULL, NULL, NULL);
  rc = iconv(cd, &ip, &il, &op, &ol);
  *out_len = out_cap - ol;
  n_iconv++;
  if (rc == (size_t)-1) {
    if (errno == E2BIG) return (size_t)-2; /* cannot happen: out_cap is generous */
    return (size_t)(ip - (char *)(uintptr_t)in);
  }
  return SIZE_MAX;
}

static int canary_intact(const void *buf, size_t from, size_t to) {
  const unsigned char *b = buf;
  size_t i;
  for (i = from; i < to; i++)
    if (b[i] != CANARY) return 0;
  return 1;
}

/* ---------------------------------------------------------------- ICU self-check */

/* design.md section 2's examples with their WHATWG decodings. */
static void icu_follows_maximal_subparts(void) {
  static const struct {
    const char *in;
    int n;
    const char16_t out[12];
    int out_n;
  } ex[] = {
      {"\xE0\x80", 2, {0xFFFD, 0xFFFD}, 2},
      {"\xED\xA0\x80", 3, {0xFFFD, 0xFFFD, 0xFFFD}, 3},
      {"\xF4\x90\x80\x80", 4, {0xFFFD, 0xFFFD, 0xFFFD, 0xFFFD}, 4},
      {"\xC0\xAF", 2, {0xFFFD, 0xFFFD}, 2},
      {"\xE2\x82\x41", 3, {0xFFFD, 0x41}, 2},
      {"\xF0\x9F\x98", 3, {0xFFFD}, 1},
      {"\xF8\x88\x80\x80\x80", 5, {0xFFFD, 0xFFFD, 0xFFFD, 0xFFFD, 0xFFFD}, 5},
      /* the example of table 3-8 in chapter 3 of the Unicode Standard */
      {"\x61\xF1\x80\x80\xE1\x80\xC2\x62\x80\x63\x80\xBF\x64", 13,
       {0x61, 0xFFFD, 0xFFFD, 0xFFFD, 0x62, 0xFFFD, 0x63, 0xFFFD, 0xFFFD, 0x64}, 10},
  };
  size_t i;
  for (i = 0; i < sizeof ex / sizeof ex[0]; i++) {
    UChar out[16];
    int32_t len = -1, subs = -1;
    UErrorCode err = U_ZERO_ERROR;
    u_strFromUTF8WithSub(out, 16, &len, ex[i].in, ex[i].n, 0xFFFD, &subs, &err);
    CHECK(U_SUCCESS(err) && len == ex[i].out_n &&
              memcmp(out, ex[i].out, (size_t)len * 2) == 0,
          "ICU decodes example %zu differently from WHATWG (len %d)", i, (int)len);
  }
  tap_group("ICU substitutes per maximal subpart on design.md's examples");
}

/* ---------------------------------------------------------------- UTF-8 input */

/* ICU's verdict on s: offset of the first ill-formed maximal subpart (SIZE_MAX
 * if valid), the UTF-16 length of the valid prefix, and the subpart count. */
static size_t icu_utf8_first_error(const unsigned char *s, int32_t n, size_t *prefix16,
                                   size_t *subparts) {
  int32_t i = 0;
  size_t first = SIZE_MAX, u16 = 0, bad = 0;
  while (i < n) {
    int32_t start = i;
    UChar32 c;
    U8_NEXT(s, i, n, c);
    if (c < 0) {
      if (first == SIZE_MAX) first = (size_t)start;
      bad++;
    } else if (first == SIZE_MAX) {
      u16 += (size_t)U16_LENGTH(c);
    }
  }
  *prefix16 = u16;
  *subparts = bad;
  return first;
}

static void check_utf8_case(const unsigned char *in, size_t n, unsigned long k) {
  static UChar icu16[MAX_IN + 4];
  static UChar32 icu32[MAX_IN + 4];
  static char16_t u16[MAX_IN + SLACK];
  static char32_t u32[MAX_IN + SLACK];
  static unsigned char ic[4 * MAX_IN + 16], l1[MAX_IN + SLACK];
  const char *src = (const char *)in;
  int32_t len16 = -1, len32 = -1, subs = -1;
  UErrorCode err = U_ZERO_ERROR;
  size_t need16, need32, cap, first, prefix16, subparts, ic_len, ic_first, i;
  utfx_result r;

  /* REPLACE to UTF-16LE against u_strFromUTF8WithSub. */
  u_strFromUTF8WithSub(icu16, MAX_IN + 4, &len16, src, (int32_t)n, 0xFFFD, &subs, &err);
  n_icu++;
  CHECK(U_SUCCESS(err), "case %lu: ICU error %s", k, u_errorName(err));
  need16 = utfx_utf16_length_from_utf8(src, n);
  CHECK(need16 == (size_t)len16, "case %lu: utf16 length %zu, ICU %d", k, need16, (int)len16);
  cap = need16 + (k % 3 == 0 ? (size_t)(k / 3 % SLACK) : 0);
  memset(u16, CANARY, (cap + SLACK) * 2);
  r = convert_utf8_to_utf16h(src, n, u16, cap, UTFX_REPLACE);
  CHECK(r.status == UTFX_OK && r.read == n && r.written == (size_t)len16 &&
            r.replaced == (size_t)subs,
        "case %lu: utf8->utf16le REPLACE status %d read %zu written %zu replaced %zu; ICU "
        "%d units, %d substitutions",
        k, (int)r.status, r.read, r.written, r.replaced, (int)len16, (int)subs);
  CHECK(r.written != (size_t)len16 || memcmp(u16, icu16, (size_t)len16 * 2) == 0,
        "case %lu: utf8->utf16le REPLACE output differs from ICU", k);
  CHECK(canary_intact(u16, r.written * 2, (cap + SLACK) * 2), "case %lu: wrote past `written`", k);

  /* REPLACE to UTF-32 against ICU's UTF-16 result widened by u_strToUTF32. */
  err = U_ZERO_ERROR;
  u_strToUTF32(icu32, MAX_IN + 4, &len32, icu16, len16, &err);
  need32 = utfx_utf32_length_from_utf8(src, n);
  r = utfx_convert_utf8_to_utf32(src, n, u32, need32, UTFX_REPLACE);
  CHECK(U_SUCCESS(err) && need32 == (size_t)len32 && r.status == UTFX_OK &&
            r.written == (size_t)len32 && memcmp(u32, icu32, (size_t)len32 * 4) == 0,
        "case %lu: utf8->utf32 REPLACE differs from ICU", k);

  /* STRICT: the first ill-formed subpart where ICU's U8_NEXT finds it. */
  first = icu_utf8_first_error(in, (int32_t)n, &prefix16, &subparts);
  n_invalid8 += first != SIZE_MAX;
  bytes8 += n;
  cases8++;
  CHECK(subparts == (size_t)subs, "case %lu: U8_NEXT saw %zu subparts, WithSub %d", k,
        subparts, (int)subs);
  r = utfx_validate_utf8(src, n);
  CHECK(first == SIZE_MAX ? (r.status == UTFX_OK && r.read == n)
                          : (r.status == UTFX_INVALID && r.read == first),
        "case %lu: validate_utf8 status %d read %zu, ICU first error %lld", k, (int)r.status,
        r.read, (long long)first);
  r = convert_utf8_to_utf16h(src, n, u16, MAX_IN + SLACK, UTFX_STRICT);
  CHECK(first == SIZE_MAX
            ? (r.status == UTFX_OK && r.read == n && r.written == need16)
            : (r.status == UTFX_INVALID && r.read == first && r.written == prefix16 &&
               memcmp(u16, icu16, prefix16 * 2) == 0),
        "case %lu: utf8->utf16le STRICT status %d read %zu written %zu, ICU error at %lld "
        "after %zu units",
        k, (int)r.status, r.read, r.written, (long long)first, prefix16);

  /* glibc iconv: the same error offset; the same output for valid input. */
  if (first_pass && !no_iconv) {
    ic_first = run_iconv(cd_utf8_utf16, in, n, ic, sizeof ic, &ic_len);
    CHECK(ic_first == first, "case %lu: iconv UTF-8 error at %lld, ICU at %lld", k,
          (long long)ic_first, (long long)first);
    CHECK(ic_len == prefix16 * 2 && memcmp(ic, icu16, ic_len) == 0,
          "case %lu: iconv UTF-16LE output (%zu bytes) differs", k, ic_len);
  }

  /* To Latin-1 (every 16th case): INVALID at the first ill-formed subpart or
   * code point above U+00FF, in both modes; iconv stops at the same place. */
  if (k % 16 == 0) {
    size_t stop = SIZE_MAX, w = 0;
    int32_t j = 0;
    while (j < (int32_t)n) {
      UChar32 c;
      int32_t start = j;
      U8_NEXT(in, j, (int32_t)n, c);
      if (c < 0 || c > 0xFF) {
        stop = (size_t)start;
        break;
      }
      w++;
    }
    ic_first = run_iconv(cd_utf8_latin1, in, n, ic, sizeof ic, &ic_len);
    CHECK(ic_first == stop && ic_len == w, "case %lu: iconv to Latin-1 stops at %lld, ICU at %lld",
          k, (long long)ic_first, (long long)stop);
    for (i = 0; i < 2; i++) {
      r = utfx_convert_utf8_to_latin1(src, n, (char *)l1, MAX_IN + SLACK, (unsigned)i);
      CHECK(stop == SIZE_MAX ? (r.status == UTFX_OK && r.written == w)
                             : (r.status == UTFX_INVALID && r.read == stop && r.written == w),
            "case %lu: utf8->latin1 (flags %zu) status %d read %zu written %zu", k, i,
            (int)r.status, r.read, r.written);
      CHECK(memcmp(l1, ic, w < r.written ? w : r.written) == 0,
            "case %lu: utf8->latin1 output differs from iconv", k);
    }
  }
}

static void utf8_suite(void) {
  static unsigned char in[MAX_IN];
  test_rng rng;
  unsigned long k;
  rng_seed(&rng, 0x1C0FFEE8);
  for (k = 0; k < oracle_cases; k++) check_utf8_case(in, gen_utf8(&rng, in, GEN_MAX), k);
  tap_group("UTF-8 input vs ICU and iconv: REPLACE output, STRICT offsets, validity");
}

/* ---------------------------------------------------------------- UTF-16 input */

static void check_utf16_case(const uint16_t *in, size_t n, unsigned long k) {
  static char icu8[3 * MAX_IN + 8];
  static UChar32 icu32[MAX_IN + 4];
  static char u8[3 * MAX_IN + SLACK];
  static char32_t u32[MAX_IN + SLACK];
  static unsigned char ic[4 * MAX_IN + 16];
  const char16_t *src = (const char16_t *)in;
  int32_t len8 = -1, len32 = -1, subs = -1, subs32 = -1, i = 0;
  UErrorCode err = U_ZERO_ERROR;
  size_t need8, cap, first = SIZE_MAX, prefix8 = 0, lone = 0, ic_len, ic_first;
  utfx_result r;

  /* REPLACE to UTF-8 against u_strToUTF8WithSub (UChar is host order). */
  u_strToUTF8WithSub(icu8, (int32_t)sizeof icu8, &len8, in, (int32_t)n, 0xFFFD, &subs, &err);
  n_icu++;
  CHECK(U_SUCCESS(err), "case %lu: ICU error %s", k, u_errorName(err));
  need8 = utf8_length_from_utf16h(src, n);
  CHECK(need8 == (size_t)len8, "case %lu: utf8 length %zu, ICU %d", k, need8, (int)len8);
  cap = need8 + (k % 3 == 0 ? (size_t)(k / 3 % SLACK) : 0);
  memset(u8, CANARY, cap + SLACK);
  r = convert_utf16h_to_utf8(src, n, u8, cap, UTFX_REPLACE);
  CHECK(r.status == UTFX_OK && r.read == n && r.written == (size_t)len8 &&
            r.replaced == (size_t)subs && memcmp(u8, icu8, (size_t)len8) == 0,
        "case %lu: utf16le->utf8 REPLACE status %d written %zu replaced %zu; ICU %d bytes, "
        "%d substitutions",
        k, (int)r.status, r.written, r.replaced, (int)len8, (int)subs);
  CHECK(canary_intact(u8, r.written, cap + SLACK), "case %lu: wrote past `written`", k);

  /* REPLACE to UTF-32 against u_strToUTF32WithSub. */
  err = U_ZERO_ERROR;
  u_strToUTF32WithSub(icu32, MAX_IN + 4, &len32, in, (int32_t)n, 0xFFFD, &subs32, &err);
  r = convert_utf16h_to_utf32(src, n, u32, utf32_length_from_utf16h(src, n),
                                    UTFX_REPLACE);
  CHECK(U_SUCCESS(err) && r.status == UTFX_OK && r.written == (size_t)len32 &&
            r.replaced == (size_t)subs32 && memcmp(u32, icu32, (size_t)len32 * 4) == 0,
        "case %lu: utf16le->utf32 REPLACE differs from ICU", k);

  /* STRICT: the first lone surrogate by ICU's U16_NEXT. */
  while (i < (int32_t)n) {
    int32_t start = i;
    UChar32 c;
    U16_NEXT(in, i, (int32_t)n, c);
    if (U_IS_SURROGATE(c)) {
      if (first == SIZE_MAX) first = (size_t)start;
      lone++;
    } else if (first == SIZE_MAX) {
      prefix8 += (size_t)U8_LENGTH(c);
    }
  }
  n_invalid16 += first != SIZE_MAX;
  CHECK(lone == (size_t)subs, "case %lu: U16_NEXT saw %zu lone surrogates, WithSub %d", k, lone,
        (int)subs);
  r = validate_utf16h(src, n);
  CHECK(first == SIZE_MAX ? (r.status == UTFX_OK && r.read == n)
                          : (r.status == UTFX_INVALID && r.read == first),
        "case %lu: validate_utf16le status %d read %zu, ICU first error %lld", k, (int)r.status,
        r.read, (long long)first);
  r = convert_utf16h_to_utf8(src, n, u8, sizeof u8, UTFX_STRICT);
  CHECK(first == SIZE_MAX ? (r.status == UTFX_OK && r.written == need8)
                          : (r.status == UTFX_INVALID && r.read == first && r.written == prefix8 &&
                             memcmp(u8, icu8, prefix8) == 0),
        "case %lu: utf16le->utf8 STRICT status %d read %zu written %zu, ICU error at %lld", k,
        (int)r.status, r.read, r.written, (long long)first);

  /* glibc iconv (offsets in bytes, so halve them). */
  if (first_pass && !no_iconv) {
    ic_first = run_iconv(cd_utf16_utf8, in, n * 2, ic, sizeof ic, &ic_len);
    CHECK((ic_first == SIZE_MAX ? SIZE_MAX : ic_first / 2) == first,
          "case %lu: iconv UTF-16LE error at byte %lld, ICU at unit %lld", k,
          (long long)ic_first, (long long)first);
    CHECK(ic_len == prefix8 && memcmp(ic, icu8, ic_len) == 0,
          "case %lu: iconv UTF-8 output (%zu bytes) differs", k, ic_len);
  }
}

static void utf16_suite(void) {
  static uint16_t in[MAX_IN];
  test_rng rng;
  unsigned long k;
  rng_seed(&rng, 0x16161616);
  for (k = 0; k < oracle_cases; k++) check_utf16_case(in, gen_utf16(&rng, in, GEN_MAX), k);
  tap_group("UTF-16LE input vs ICU and iconv: REPLACE output, STRICT offsets, validity");
}

/* ---------------------------------------------------------------- UTF-32, Latin-1 */

static void check_utf32_case(const uint32_t *in, size_t n, unsigned long k) {
  static UChar icu16[2 * MAX_IN + 4];
  static char icu8[4 * MAX_IN + 8];
  static char16_t u16[2 * MAX_IN + SLACK];
  static char u8[4 * MAX_IN + SLACK];
  static unsigned char ic[4 * MAX_IN + 16];
  const char32_t *src = (const char32_t *)in;
  int32_t len16 = -1, len8 = -1, subs = -1;
  UErrorCode err = U_ZERO_ERROR;
  size_t first = SIZE_MAX, prefix8 = 0, i, ic_len, ic_first;
  utfx_result r;

  /* REPLACE to UTF-16LE against u_strFromUTF32WithSub (ICU sees values of
   * 2^31 and above as negative UChar32: also invalid). */
  u_strFromUTF32WithSub(icu16, 2 * MAX_IN + 4, &len16, (const UChar32 *)in, (int32_t)n, 0xFFFD,
                        &subs, &err);
  n_icu++;
  r = convert_utf32_to_utf16h(src, n, u16, utfx_utf16_length_from_utf32(src, n),
                                    UTFX_REPLACE);
  CHECK(U_SUCCESS(err) && r.status == UTFX_OK && r.written == (size_t)len16 &&
            r.replaced == (size_t)subs && memcmp(u16, icu16, (size_t)len16 * 2) == 0,
        "case %lu: utf32->utf16le REPLACE written %zu replaced %zu; ICU %d units, %d subs", k,
        r.written, r.replaced, (int)len16, (int)subs);
  /* REPLACE to UTF-8 against ICU's (valid) UTF-16 result encoded by u_strToUTF8. */
  err = U_ZERO_ERROR;
  u_strToUTF8(icu8, (int32_t)sizeof icu8, &len8, icu16, len16, &err);
  r = utfx_convert_utf32_to_utf8(src, n, u8, utfx_utf8_length_from_utf32(src, n), UTFX_REPLACE);
  CHECK(U_SUCCESS(err) && r.status == UTFX_OK && r.written == (size_t)len8 &&
            memcmp(u8, icu8, (size_t)len8) == 0,
        "case %lu: utf32->utf8 REPLACE differs from ICU", k);

  /* STRICT against ICU's validity (u_strFromUTF32 without substitution) and
   * iconv's error offset. */
  for (i = 0; i < n; i++) {
    if (in[i] > 0x10FFFF || U_IS_SURROGATE(in[i])) break;
    prefix8 += (size_t)U8_LENGTH(in[i]);
  }
  first = i < n ? i : SIZE_MAX;
  n_invalid32 += first != SIZE_MAX;
  err = U_ZERO_ERROR;
  u_strFromUTF32(icu16, 2 * MAX_IN + 4, &len16, (const UChar32 *)in, (int32_t)n, &err);
  CHECK((first == SIZE_MAX) == (U_SUCCESS(err) != 0), "case %lu: ICU validity differs", k);
  if (first_pass && !no_iconv) {
    ic_first = run_iconv(cd_utf32_utf8, in, n * 4, ic, sizeof ic, &ic_len);
    CHECK((ic_first == SIZE_MAX ? SIZE_MAX : ic_first / 4) == first && ic_len == prefix8 &&
              memcmp(ic, icu8, ic_len) == 0,
          "case %lu: iconv UTF-32LE error at byte %lld (%zu bytes out), expected unit %lld", k,
          (long long)ic_first, ic_len, (long long)first);
  }
  r = utfx_validate_utf32(src, n);
  CHECK(first == SIZE_MAX ? (r.status == UTFX_OK && r.read == n)
                          : (r.status == UTFX_INVALID && r.read == first),
        "case %lu: validate_utf32 status %d read %zu, oracles say %lld", k, (int)r.status, r.read,
        (long long)first);
  r = utfx_convert_utf32_to_utf8(src, n, u8, sizeof u8, UTFX_STRICT);
  CHECK(first == SIZE_MAX ? r.status == UTFX_OK
                          : (r.status == UTFX_INVALID && r.read == first && r.written == prefix8 &&
                             memcmp(u8, icu8, prefix8) == 0),
        "case %lu: utf32->utf8 STRICT status %d read %zu written %zu", k, (int)r.status, r.read,
        r.written);
}

static void check_latin1_case(const unsigned char *in, size_t n, unsigned long k) {
  static UChar icu16[MAX_IN + 4];
  static char16_t u16[MAX_IN];
  static char u8[2 * MAX_IN];
  static unsigned char ic[4 * MAX_IN + 16];
  const char *src = (const char *)in;
  UErrorCode err = U_ZERO_ERROR;
  int32_t len16 = ucnv_toUChars(icu_latin1, icu16, MAX_IN + 4, src, (int32_t)n, &err);
  size_t ic_len, ic_first = run_iconv(cd_latin1_utf8, in, n, ic, sizeof ic, &ic_len);
  utfx_result r = convert_latin1_to_utf16h(src, n, u16, n, UTFX_STRICT);
  n_icu++;
  CHECK(U_SUCCESS(err) && r.status == UTFX_OK && r.written == (size_t)len16 &&
            memcmp(u16, icu16, n * 2) == 0,
        "case %lu: latin1->utf16le differs from ICU's ISO-8859-1 converter", k);
  r = utfx_convert_latin1_to_utf8(src, n, u8, utfx_utf8_length_from_latin1(src, n),
                                  UTFX_STRICT);
  CHECK(ic_first == SIZE_MAX && r.status == UTFX_OK && r.written == ic_len &&
            memcmp(u8, ic, ic_len) == 0,
        "case %lu: latin1->utf8 differs from iconv ISO-8859-1", k);
}

static void utf32_latin1_suite(void) {
  static uint32_t in32[MAX_IN];
  static unsigned char in8[MAX_IN];
  test_rng rng;
  unsigned long k;
  rng_seed(&rng, 0x32323232);
  for (k = 0; k < oracle_cases / 4; k++) check_utf32_case(in32, gen_utf32(&rng, in32, 64), k);
  tap_group("UTF-32 input vs ICU and iconv: REPLACE output, STRICT offsets, validity");
  for (k = 0; k < oracle_cases / 4; k++) {
    size_t n = (size_t)rng_below(&rng, 80), i;
    for (i = 0; i < n; i++) in8[i] = (unsigned char)(rng_below(&rng, 3) ? rng_next(&rng) : 'a');
    check_latin1_case(in8, n, k);
  }
  tap_group("Latin-1 input vs ICU and iconv");
}

static void suite(void) {
  icu_follows_maximal_subparts();
  utf8_suite();
  utf16_suite();
  utf32_latin1_suite();
  first_pass = 0;
}

static int open_oracles(void) {
  UErrorCode err = U_ZERO_ERROR;
  cd_utf8_utf16 = iconv_open(ICONV_UTF16, "UTF-8");
  cd_utf8_latin1 = iconv_open("ISO-8859-1", "UTF-8");
  cd_utf16_utf8 = iconv_open("UTF-8", ICONV_UTF16);
  cd_utf32_utf8 = iconv_open("UTF-8", ICONV_UTF32);
  cd_latin1_utf8 = iconv_open("UTF-8", "ISO-8859-1");
  icu_latin1 = ucnv_open("ISO-8859-1", &err);
  if (cd_utf8_utf16 == (iconv_t)-1 || cd_utf8_latin1 == (iconv_t)-1 ||
      cd_utf16_utf8 == (iconv_t)-1 || cd_utf32_utf8 == (iconv_t)-1 ||
      cd_latin1_utf8 == (iconv_t)-1) {
    tap_fail("iconv_open", "glibc iconv cannot open the UTF-8/UTF-16LE/UTF-32LE converters");
    return 0;
  }
  if (U_FAILURE(err)) {
    tap_fail("ucnv_open", u_errorName(err));
    return 0;
  }
  return 1;
}

int main(void) {
  no_iconv = getenv("UTFX_ORACLE_NO_ICONV");
  if (no_iconv && !*no_iconv) no_iconv = NULL;
  if (no_iconv) printf("# iconv UTF-8/16/32 comparisons left out: %s\n", no_iconv);
  if (!open_oracles()) return tap_done();
  oracle_cases = UTFX_ORACLE_CASES / test_share(10);
  printf("# %lu cases per input family and tier\n", oracle_cases);
  tap_for_each_impl(suite);
  printf("# oracle calls: ICU %lu, iconv %lu; ill-formed inputs: UTF-8 %lu (mean length %.1f), "
         "UTF-16 %lu, UTF-32 %lu\n",
         n_icu, n_iconv, n_invalid8, cases8 ? (double)bytes8 / (double)cases8 : 0.0,
         n_invalid16, n_invalid32);
  iconv_close(cd_utf8_utf16);
  iconv_close(cd_utf8_latin1);
  iconv_close(cd_utf16_utf8);
  iconv_close(cd_utf32_utf8);
  iconv_close(cd_latin1_utf8);
  ucnv_close(icu_latin1);
  return tap_done();
}
