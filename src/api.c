/* Public entry points: reduce the flags, then call the active tier's kernel,
 * or the scalar one directly for short inputs (UTFXI_IS_SHORT, internal.h:
 * what every tier would run on them, without the table's indirect call).
 *
 * The contract lets src be NULL when n == 0 and dst be NULL when cap == 0.
 * Kernels compute addresses such as src + i, and NULL + 0 is undefined
 * behaviour in C (clang's UBSan reports it), so empty input returns here and a
 * NULL zero-capacity destination becomes a local dummy the kernel never
 * writes (it has no room). */
#include "dispatch.h"
#include "scalar/base64.h"
#include "scalar/utf16_ascii.h"

/* The short path: the scalar kernel below the smallest bound any tier has
 * for the operation (a constant), and for the operations of
 * UTFXI_SHORT_PER_TIER (internal.h) also below the active table's own,
 * which is read only below the largest bound (a constant): longer calls pay
 * one compare with an immediate and no load (docs/perf-decisions.md, 'Short
 * UTF-16 inputs: the table's bound read only below the largest') and no
 * taken branch after it: the read is laid out of line, so the table's call
 * follows that compare ('Short UTF-16 inputs: the long path falls
 * through'). Only x86
 * builds have tiers with bounds of their own; elsewhere the largest bound is
 * UTFXI_IS_SHORT's, so the table's (that one) is read below it. */
#if defined(__clang__)
#pragma clang diagnostic ignored "-Winitializer-overrides"
#elif defined(__GNUC__)
#pragma GCC diagnostic ignored "-Woverride-init"
#endif
#define UTFXI_SHORT_MIN_FIELD(op, avx512, avx2) .op = (avx512) < (avx2) ? (avx512) : (avx2),
#define UTFXI_SHORT_MAX_FIELD(op, avx512, avx2) .op = (avx512) > (avx2) ? (avx512) : (avx2),
#if defined(__x86_64__) && !defined(UTFX_NO_SIMD)
#define UTFXI_SHORT_MAX_LIST(X) UTFXI_SHORT_PER_TIER(X)
#else
#define UTFXI_SHORT_MAX_LIST(X)
#endif
static const struct utfxi_short_units utfxi_short_min = {
    UTFXI_SHORT_DEFAULTS UTFXI_SHORT_PER_TIER(UTFXI_SHORT_MIN_FIELD)};
static const struct utfxi_short_units utfxi_short_max = {
    UTFXI_SHORT_DEFAULTS UTFXI_SHORT_MAX_LIST(UTFXI_SHORT_MAX_FIELD)};
#define UTFXI_SHORT_ANY(op, n) ((n) < utfxi_short_min.op)
#define UTFXI_SHORT_IN(k, op, n) (UTFXI_UNLIKELY((n) < utfxi_short_max.op) && (n) < (k)->short_units.op)

/* UTFXI_SHORT_validate_*: the short path. validate_ascii runs its scalar
 * body inline, as the UTF-16 ASCII checks below (no call on it). */
#define UTFXI_API_VALIDATE(enc, S)                                  \
  utfx_result utfx_validate_##enc(const S *s, size_t n) {           \
    const struct utfxi_kernels *k;                                  \
    if (n == 0) return utfxi_result(UTFX_OK, 0, 0, 0);              \
    if (UTFXI_SHORT_HINT_##enc(UTFXI_SHORT_ANY(validate_##enc, n))) \
      return UTFXI_SHORT_validate_##enc(s, n);                      \
    k = utfxi_active();                                             \
    if (UTFXI_SHORT_IN(k, validate_##enc, n)) return UTFXI_SHORT_validate_##enc(s, n); \
    return k->validate_##enc(s, n);                                 \
  }
#define UTFXI_SHORT_validate_utf8 utfxi_validate_utf8_scalar
#define UTFXI_SHORT_validate_utf16le utfxi_validate_utf16le_scalar
#define UTFXI_SHORT_validate_utf16be utfxi_validate_utf16be_scalar
#define UTFXI_SHORT_validate_utf32 utfxi_validate_utf32_scalar
#define UTFXI_SHORT_validate_ascii utfxi_ascii_bytes
/* The inline body laid out after the long path's call, as below. */
#define UTFXI_SHORT_HINT_utf8(c) (c)
#define UTFXI_SHORT_HINT_utf16le(c) (c)
#define UTFXI_SHORT_HINT_utf16be(c) (c)
#define UTFXI_SHORT_HINT_utf32(c) (c)
#define UTFXI_SHORT_HINT_ascii UTFXI_UNLIKELY
UTFXI_VALIDATIONS(UTFXI_API_VALIDATE)

#define UTFXI_API_CONVERT(from, S, to, T)                                                     \
  utfx_result utfx_convert_##from##_to_##to(const S *restrict src, size_t n, T *restrict dst, \
                                            size_t cap, unsigned flags) {                     \
    T no_room[1];                                                                             \
    const struct utfxi_kernels *k;                                                            \
    if (n == 0) return utfxi_result(UTFX_OK, 0, 0, 0);                                        \
    if (!dst && cap == 0) dst = no_room;                                                      \
    if (UTFXI_SHORT_ANY(convert_##from##_to_##to, n))                                         \
      return utfxi_convert_##from##_to_##to##_scalar(src, n, dst, cap, flags & UTFX_REPLACE); \
    k = utfxi_active();                                                                       \
    if (UTFXI_SHORT_IN(k, convert_##from##_to_##to, n))                                    \
      return utfxi_convert_##from##_to_##to##_scalar(src, n, dst, cap, flags & UTFX_REPLACE); \
    return k->convert_##from##_to_##to(src, n, dst, cap, flags & UTFX_REPLACE);               \
  }
UTFXI_CONVERSIONS(UTFXI_API_CONVERT)

#define UTFXI_API_LENGTH(to, from, S)                                                          \
  size_t utfx_##to##_length_from_##from(const S *src, size_t n) {                              \
    const struct utfxi_kernels *k;                                                             \
    if (UTFXI_SHORT_ANY(to##_length_from_##from, n))                                           \
      return n ? utfxi_##to##_length_from_##from##_scalar(src, n) : 0;                         \
    k = utfxi_active();                                                                        \
    if (UTFXI_SHORT_IN(k, to##_length_from_##from, n))                                      \
      return utfxi_##to##_length_from_##from##_scalar(src, n);                                 \
    return k->to##_length_from_##from(src, n);                                                 \
  }
UTFXI_LENGTHS(UTFXI_API_LENGTH)

/* Base64: short inputs run the scalar kernel, as for conversions (the
 * bounds per tier: UTFXI_SHORT_BASE64). */
#define UTFXI_API_B64(op, S, T)                                                            \
  utfx_result utfx_##op(const S *restrict src, size_t n, T *restrict dst, size_t cap,      \
                        unsigned flags) {                                                  \
    T no_room[1];                                                                          \
    const struct utfxi_kernels *k;                                                         \
    if (n == 0) return utfxi_result(UTFX_OK, 0, 0, 0);                                     \
    if (!dst && cap == 0) dst = no_room;                                                   \
    if (UTFXI_SHORT_ANY(op, n)) return utfxi_##op##_scalar(src, n, dst, cap, flags);       \
    k = utfxi_active();                                                                    \
    if (UTFXI_SHORT_IN(k, op, n)) return utfxi_##op##_scalar(src, n, dst, cap, flags);  \
    return k->op(src, n, dst, cap, flags);                                                 \
  }
UTFXI_BASE64_CODECS(UTFXI_API_B64)

#define UTFXI_API_B64_LENGTH(op, S)                                             \
  size_t utfx_##op(const S *src, size_t n, unsigned flags) {                    \
    if (UTFXI_IS_SHORT(S, n)) return n ? utfxi_##op##_scalar(src, n, flags) : 0; \
    return utfxi_active()->op(src, n, flags);                                   \
  }
UTFXI_BASE64_LENGTHS(UTFXI_API_B64_LENGTH)

/* 4 characters per whole group of 3 bytes; a final partial group takes 4
 * padded, else 2 or 3. */
size_t utfx_base64_length_from_binary(size_t n, unsigned flags) {
  size_t groups = n / 3, tail = n % 3;
  size_t last = tail == 0 ? 0 : (flags & UTFX_BASE64_NO_PADDING) ? tail + 1 : 4;
  if (groups > (SIZE_MAX - last) / 4) return SIZE_MAX;
  return groups * 4 + last;
}

/* Lines: the kernels take 1 <= L <= SIZE_MAX / 4 and a column <= L. A
 * longer line keeps the room left on the current one (beyond it no output
 * can reach), and the column is mapped back while on that line. */
utfx_result utfx_base64_encode_lines(const unsigned char *restrict src, size_t n,
                                     char *restrict dst, size_t cap, unsigned flags,
                                     size_t line_len, size_t *column) {
  char no_room[1];
  size_t c = column ? *column : 0, L = line_len, c0, given;
  utfx_result r;
  if (line_len == 0) {
    r = utfx_base64_encode(src, n, dst, cap, flags);
    if (column) *column = utfxi_add_sat(c, r.written);
    return r;
  }
  if (n == 0) return utfxi_result(UTFX_OK, 0, 0, 0);
  if (!dst && cap == 0) dst = no_room;
  if (c > L) c = L;
  given = c;
  if (L > SIZE_MAX / 4) { /* the room on this line, in a line of SIZE_MAX / 4 */
    size_t room = L - c;
    L = SIZE_MAX / 4;
    c = room >= L ? 0 : L - room;
  }
  c0 = c;
  if (UTFXI_IS_SHORT(unsigned char, n))
    r = utfxi_base64_encode_lines_scalar(src, n, dst, cap, flags, L, &c);
  else
    r = utfxi_active()->base64_encode_lines(src, n, dst, cap, flags, L, &c);
  /* no line feed written: on the line it began on */
  if (column) *column = L != line_len && c - c0 == r.written ? given + r.written : c;
  return r;
}

size_t utfx_base64_length_from_binary_lines(size_t n, unsigned flags, size_t line_len,
                                            size_t column) {
  size_t k = utfx_base64_length_from_binary(n, flags), L = line_len, c = column, f;
  if (L == 0 || k == SIZE_MAX) return k;
  if (c > L) c = L;
  if (L > SIZE_MAX / 4) {
    size_t room = L - c;
    L = SIZE_MAX / 4;
    c = room >= L ? 0 : L - room;
  }
  f = utfxi_b64_feeds(c, k, L); /* line breaks, one or two bytes each */
  return utfxi_add_sat(utfxi_add_sat(k, f), (flags & UTFX_BASE64_CRLF) ? f : 0);
}

/* The UTF-16 maps (byte swap, repair), checks and flagged lengths
 * (operations.h). The ASCII checks run their scalar body inline on short
 * inputs, laid out after the long path's call (docs/perf-decisions.md,
 * 'Short inputs'). */
#define UTFXI_API_MAP(op)                                                \
  void utfx_##op(const char16_t *src, size_t n, char16_t *dst) {         \
    const struct utfxi_kernels *k;                                       \
    if (UTFXI_SHORT_ANY(op, n)) {                                        \
      if (n) utfxi_##op##_scalar(src, n, dst);                           \
      return;                                                            \
    }                                                                    \
    k = utfxi_active();                                                  \
    if (UTFXI_SHORT_IN(k, op, n))                              \
      utfxi_##op##_scalar(src, n, dst);                                  \
    else                                                                 \
      k->op(src, n, dst);                                                \
  }
UTFXI_UTF16_MAPS(UTFXI_API_MAP)

#define UTFXI_API_CHECK(op)                                                 \
  utfx_result utfx_##op(const char16_t *s, size_t n) {                      \
    if (n == 0) return utfxi_result(UTFX_OK, 0, 0, 0);                      \
    if (UTFXI_UNLIKELY(UTFXI_IS_SHORT(char16_t, n))) return UTFXI_SHORT_##op(s, n); \
    return utfxi_active()->op(s, n);                                        \
  }
#define UTFXI_SHORT_validate_ascii_utf16le(s, n) utfxi_ascii_utf16(s, n, 0)
#define UTFXI_SHORT_validate_ascii_utf16be(s, n) utfxi_ascii_utf16(s, n, 1)
UTFXI_UTF16_CHECKS(UTFXI_API_CHECK)

/* flag may be NULL (then the call is the plain length, with the check). */
#define UTFXI_API_FLAGGED(op)                                                \
  size_t utfx_##op(const char16_t *src, size_t n, int *flag) {               \
    int ignored;                                                             \
    const struct utfxi_kernels *k;                                           \
    if (!flag) flag = &ignored;                                              \
    if (n == 0) return (size_t)(*flag = 0);                                  \
    if (UTFXI_SHORT_ANY(op, n)) return utfxi_##op##_scalar(src, n, flag);    \
    k = utfxi_active();                                                      \
    if (UTFXI_SHORT_IN(k, op, n)) return utfxi_##op##_scalar(src, n, flag); \
    return k->op(src, n, flag);                                              \
  }
UTFXI_UTF16_FLAGGED_LENGTHS(UTFXI_API_FLAGGED)

const char *utfx_status_string(utfx_status status) {
  switch (status) {
    case UTFX_OK:
      return "OK";
    case UTFX_INVALID:
      return "invalid input";
    case UTFX_DST_FULL:
      return "destination full";
  }
  return "unknown status";
}

const char *utfx_version(void) { return UTFX_VERSION_STRING; }
unsigned utfx_version_number(void) { return UTFX_VERSION_NUMBER; }
