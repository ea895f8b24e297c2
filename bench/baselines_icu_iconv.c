/* Baselines: ICU and glibc iconv, called the way a program would use them.
 *
 * ICU: the direct UTF-8 <-> UTF-16 <-> UTF-32 functions where they exist
 * (u_strFromUTF8WithSub, u_strToUTF8WithSub, u_strToUTF32WithSub,
 * u_strFromUTF32WithSub; with U+FFFD substitution like UTFX_REPLACE), their
 * preflight mode (NULL destination) for the matching length functions and for
 * UTF-8 validation, and ucnv_convertEx between two converters for the other
 * conversion pairs. iconv: every conversion pair (it stops at ill-formed
 * input, which the corpus does not have). UTF-16 in ICU is host order, so the
 * direct functions stand in for the LE kernels on little-endian hosts only. */
#include <errno.h>
#include <iconv.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unicode/ucnv.h>
#include <unicode/ustring.h>
#include <unicode/utypes.h>

#include "suites.h"

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define HOST_UTF32 "UTF-32BE"
#define HOST_IS_LE 0
#else
#define HOST_UTF32 "UTF-32LE"
#define HOST_IS_LE 1
#endif

/* Charset names of the forms in operation names. */
static const char *charset(const char *form, size_t len) {
  if (len == 4 && memcmp(form, "utf8", 4) == 0) return "UTF-8";
  if (len == 7 && memcmp(form, "utf16le", 7) == 0) return "UTF-16LE";
  if (len == 7 && memcmp(form, "utf16be", 7) == 0) return "UTF-16BE";
  if (len == 5 && memcmp(form, "utf32", 5) == 0) return HOST_UTF32;
  if (len == 6 && memcmp(form, "latin1", 6) == 0) return "ISO-8859-1";
  return NULL;
}

static size_t form_unit(const char *cs) {
  return strcmp(cs, "UTF-8") == 0 || strcmp(cs, "ISO-8859-1") == 0 ? 1
         : strncmp(cs, "UTF-16", 6) == 0                          ? 2
                                                                  : 4;
}

/* "convert_FROM_to_TO" -> charsets; 0 on success. */
static int parse_convert(const char *op, const char **from, const char **to) {
  const char *p, *sep;
  if (strncmp(op, "convert_", 8) != 0) return -1;
  p = op + 8;
  sep = strstr(p, "_to_");
  if (!sep) return -1;
  *from = charset(p, (size_t)(sep - p));
  *to = charset(sep + 4, strlen(sep + 4));
  return *from && *to ? 0 : -1;
}

/* ---- ICU ---------------------------------------------------------------- */

static size_t icu_from_utf8(const void *st, const void *src, size_t n, void *dst, size_t cap) {
  UErrorCode err = U_ZERO_ERROR;
  int32_t len = 0;
  (void)st;
  u_strFromUTF8WithSub(dst, (int32_t)cap, &len, src, (int32_t)n, 0xFFFD, NULL, &err);
  return (size_t)len;
}

static size_t icu_to_utf8(const void *st, const void *src, size_t n, void *dst, size_t cap) {
  UErrorCode err = U_ZERO_ERROR;
  int32_t len = 0;
  (void)st;
  u_strToUTF8WithSub(dst, (int32_t)cap, &len, src, (int32_t)n, 0xFFFD, NULL, &err);
  return (size_t)len;
}

static size_t icu_to_utf32(const void *st, const void *src, size_t n, void *dst, size_t cap) {
  UErrorCode err = U_ZERO_ERROR;
  int32_t len = 0;
  (void)st;
  u_strToUTF32WithSub(dst, (int32_t)cap, &len, src, (int32_t)n, 0xFFFD, NULL, &err);
  return (size_t)len;
}

static size_t icu_from_utf32(const void *st, const void *src, size_t n, void *dst, size_t cap) {
  UErrorCode err = U_ZERO_ERROR;
  int32_t len = 0;
  (void)st;
  u_strFromUTF32WithSub(dst, (int32_t)cap, &len, src, (int32_t)n, 0xFFFD, NULL, &err);
  return (size_t)len;
}

/* Preflight (no destination): validates and measures in one pass. */
static size_t icu_utf16_length_from_utf8(const void *st, const void *src, size_t n, void *dst,
                                         size_t cap) {
  (void)dst, (void)cap;
  return icu_from_utf8(st, src, n, NULL, 0);
}

static size_t icu_utf8_length_from_utf16(const void *st, const void *src, size_t n, void *dst,
                                         size_t cap) {
  (void)dst, (void)cap;
  return icu_to_utf8(st, src, n, NULL, 0);
}

static size_t icu_validate_utf8(const void *st, const void *src, size_t n, void *dst,
                                size_t cap) {
  UErrorCode err = U_ZERO_ERROR;
  int32_t len = 0;
  (void)st, (void)dst, (void)cap;
  u_strFromUTF8(NULL, 0, &len, src, (int32_t)n, &err);
  return err == U_INVALID_CHAR_FOUND ? 0 : n;
}

typedef struct {
  const char *from_name, *to_name;
  UConverter *from, *to;
  size_t from_unit, to_unit;
} icu_pair;

typedef struct {
  const char *from_name, *to_name;
  iconv_t cd;
  size_t from_unit, to_unit;
} iconv_pair;

enum { ICU_PIVOT = 8192, MAX_PAIRS = 32 };

/* Converters and descriptors, opened once per pair and closed at the end. */
static struct {
  icu_pair icu[MAX_PAIRS];
  size_t n_icu;
  iconv_pair iconv[MAX_PAIRS];
  size_t n_iconv;
  int cleanup_set;
} cache;

static void close_all(void *unused) {
  size_t i;
  (void)unused;
  for (i = 0; i < cache.n_icu; i++) {
    ucnv_close(cache.icu[i].from);
    ucnv_close(cache.icu[i].to);
  }
  for (i = 0; i < cache.n_iconv; i++) iconv_close(cache.iconv[i].cd);
  memset(&cache, 0, sizeof cache);
}

static void ensure_cleanup(bench_registry *reg) {
  if (cache.cleanup_set) return;
  cache.cleanup_set = 1;
  bench_at_end(reg, close_all, NULL);
}

static size_t icu_ucnv(const void *st, const void *src, size_t n, void *dst, size_t cap) {
  const icu_pair *p = st;
  UChar pivot[ICU_PIVOT], *pivot_source = pivot, *pivot_target = pivot;
  const char *s = src;
  char *t = dst;
  UErrorCode err = U_ZERO_ERROR;
  ucnv_convertEx(p->to, p->from, &t, t + cap * p->to_unit, &s, s + n * p->from_unit, pivot,
                 &pivot_source, &pivot_target, pivot + ICU_PIVOT, 1, 1, &err);
  return (size_t)(t - (char *)dst) / p->to_unit; /* units written, as utfx reports */
}

static const icu_pair *icu_open_pair(bench_registry *reg, const char *from, const char *to) {
  size_t i;
  UErrorCode err = U_ZERO_ERROR;
  icu_pair *p;
  for (i = 0; i < cache.n_icu; i++)
    if (strcmp(cache.icu[i].from_name, from) == 0 && strcmp(cache.icu[i].to_name, to) == 0)
      return &cache.icu[i];
  if (cache.n_icu == MAX_PAIRS) return NULL;
  ensure_cleanup(reg);
  p = &cache.icu[cache.n_icu];
  p->from = ucnv_open(from, &err);
  p->to = ucnv_open(to, &err);
  if (U_FAILURE(err)) {
    if (p->from) ucnv_close(p->from);
    if (p->to) ucnv_close(p->to);
    memset(p, 0, sizeof *p);
    return NULL;
  }
  p->from_name = from;
  p->to_name = to;
  p->from_unit = form_unit(from);
  p->to_unit = form_unit(to);
  cache.n_icu++;
  return p;
}

int bench_icu_op(bench_registry *reg, const char *op, bench_call *call) {
  const char *from, *to;
  call->state = NULL;
  call->fn = NULL;
  if (HOST_IS_LE) {
    if (strcmp(op, "convert_utf8_to_utf16le") == 0) call->fn = icu_from_utf8;
    if (strcmp(op, "convert_utf16le_to_utf8") == 0) call->fn = icu_to_utf8;
    if (strcmp(op, "convert_utf16le_to_utf32") == 0) call->fn = icu_to_utf32;
    if (strcmp(op, "convert_utf32_to_utf16le") == 0) call->fn = icu_from_utf32;
    if (strcmp(op, "utf16_length_from_utf8") == 0) call->fn = icu_utf16_length_from_utf8;
    if (strcmp(op, "utf8_length_from_utf16le") == 0) call->fn = icu_utf8_length_from_utf16;
  }
  if (strcmp(op, "validate_utf8") == 0) call->fn = icu_validate_utf8;
  if (call->fn) return 0;
  if (parse_convert(op, &from, &to) != 0) return -1;
  call->state = icu_open_pair(reg, from, to);
  if (!call->state) return -1;
  call->fn = icu_ucnv;
  return 0;
}

/* ---- iconv -------------------------------------------------------------- */

static size_t iconv_run(const void *st, const void *src, size_t n, void *dst, size_t cap) {
  const iconv_pair *p = st;
  char *in = (char *)(uintptr_t)src, *out = dst; /* iconv's API is not const-correct */
  size_t in_left = n * p->from_unit, out_left = cap * p->to_unit;
  iconv(p->cd, NULL, NULL, NULL, NULL); /* reset the shift state */
  iconv(p->cd, &in, &in_left, &out, &out_left);
  return (size_t)(out - (char *)dst) / p->to_unit;
}

int bench_iconv_op(bench_registry *reg, const char *op, bench_call *call) {
  const char *from, *to;
  size_t i;
  iconv_pair *p;
  if (parse_convert(op, &from, &to) != 0) return -1;
  call->fn = iconv_run;
  for (i = 0; i < cache.n_iconv; i++)
    if (strcmp(cache.iconv[i].from_name, from) == 0 && strcmp(cache.iconv[i].to_name, to) == 0) {
      call->state = &cache.iconv[i];
      return 0;
    }
  if (cache.n_iconv == MAX_PAIRS) return -1;
  p = &cache.iconv[cache.n_iconv];
  p->cd = iconv_open(to, from);
  if (p->cd == (iconv_t)-1) return -1;
  ensure_cleanup(reg);
  p->from_name = from;
  p->to_name = to;
  p->from_unit = form_unit(from);
  p->to_unit = form_unit(to);
  call->state = p;
  cache.n_iconv++;
  return 0;
}
