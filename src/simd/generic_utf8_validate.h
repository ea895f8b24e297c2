/* UTF-8 and ASCII validation at any vector width (the vocabulary of
 * generic.h). Instantiated by a tier's kernel file: utfxi_validate_utf8_TIER
 * and utfxi_validate_ascii_TIER.
 *
 * UTF-8: lookup-based validation (Keiser and Lemire, "Validating UTF-8 in
 * less than one instruction per byte", 2021; tables in utf8_lookup_tables.h).
 * The bytes one, two and three back come from unaligned loads at -1, -2, -3
 * (the first vector, with nothing readable before it, shifts zeros in, in
 * registers). Errors accumulate over a chunk of four vectors, tested once; a
 * chunk of ASCII is skipped with one test, after checking that the previous
 * chunk did not end inside a character. The tail (under one vector) is a
 * zero-masked vector where the ISA has them (V_MASKED_TAIL); without, and
 * for any chunk with an error, the scalar kernel runs from the character
 * boundary before it, so every offset reported is the scalar kernel's. */
#ifndef UTFX_SIMD_GENERIC_UTF8_VALIDATE_H
#define UTFX_SIMD_GENERIC_UTF8_VALIDATE_H

#include "generic_ascii.h"
#include "generic_utf8_check.h"
#include "utf8_steps.h"

static utfx_result g_utf8_locate_error(const unsigned char *s, size_t n, size_t p) {
  size_t q = utfxi_utf8_back_to_boundary(s, p);
  utfx_result r = utfxi_validate_utf8_scalar((const char *)s + q, n - q);
  return utfxi_result(r.status, q + r.read, 0, 0);
}

UTFXI_INLINE utfx_result g_validate_utf8(const char *src, size_t n) {
  const unsigned char *s = (const unsigned char *)src;
  size_t i;
  vu8 err, pending, v;
  if (n < V_BYTES) {
#ifdef V_MASKED_TAIL /* one zero-padded vector: the zeros expose an unfinished character */
    if (v_any(g_utf8_errors_alone(v_load_tail(s, n)))) return g_utf8_locate_error(s, n, 0);
    return utfxi_result(UTFX_OK, n, 0, 0);
#else
    return utfxi_validate_utf8_scalar(src, n);
#endif
  }
  v = v_load(s);
  pending = v_zero();
  if (v_any_high(v)) { /* not ASCII: check it, with nothing before it */
    err = g_utf8_errors_alone(v);
    if (v_any(err)) return g_utf8_locate_error(s, n, 0);
    pending = g_utf8_ends_inside(v);
  }
  i = V_BYTES; /* from here on, the 3 bytes before a vector are readable */
  if (UTFXI_ALIGN_HEAD(*s, n)) {
    /* One more vector, overlapping the first, where that makes the chunks
     * below vector-aligned: the loop is load-bound on ASCII, and a load
     * across two cache lines costs two. Its own 3 bytes before must be
     * readable (q >= 3). */
    size_t q = V_BYTES - (size_t)((uintptr_t)s % V_BYTES);
    if (q >= 3 && q < V_BYTES) {
      v = v_load(s + q);
      if (v_any_high(v) || v_any(pending)) {
        err = g_utf8_block_errors(s + q, v);
        if (v_any(err)) return g_utf8_locate_error(s, n, q);
        pending = g_utf8_ends_inside(v);
      }
      i = q + V_BYTES;
    }
  }
  if (n - i >= 4 * V_BYTES) {
    /* the check's constants made once and pinned: gcc rebuilt three of them
     * a chunk on avx512 (docs/perf-decisions.md, 'UTF-8 validation') */
    struct g_utf8_check_k k;
    g_utf8_check_k_init(&k);
    g_utf8_check_k_pin(&k);
    for (; n - i >= 4 * V_BYTES; i += 4 * V_BYTES) {
      const unsigned char *p = s + i;
      vu8 v0 = v_load(p), v1 = v_load(p + V_BYTES);
      vu8 v2 = v_load(p + 2 * V_BYTES), v3 = v_load(p + 3 * V_BYTES);
      if (UTFXI_UNLIKELY(!v_any_high(v_or(v_or(v0, v1), v_or(v2, v3))))) {
        if (v_any(pending)) return g_utf8_locate_error(s, n, i);
        continue;
      }
      err = g_utf8_errors4_k(&k, p, v0, v1, v2, v3);
      if (v_any(err)) return g_utf8_locate_error(s, n, i);
      pending = g_utf8_ends_inside(v3);
    }
  }
  for (; n - i >= V_BYTES; i += V_BYTES) {
    v = v_load(s + i);
    if (!v_any_high(v) && !v_any(pending)) continue; /* ASCII */
    err = g_utf8_block_errors(s + i, v);
    if (v_any(err)) return g_utf8_locate_error(s, n, i);
    pending = g_utf8_ends_inside(v);
  }
#ifdef V_MASKED_TAIL
  { /* the last n - i < V_BYTES bytes and their context, zero-padded (at
     * least one zero follows them: it exposes an unfinished character) */
    size_t r = n - i;
    vu8 t = v_load_tail(s + i, r);
    if (!v_any_high(t) && !v_any(pending)) /* ASCII (or nothing) after a character */
      return utfxi_result(UTFX_OK, n, 0, 0);
    err = g_utf8_error_bytes(v_load_tail(s + i, r), v_load_tail(s + i - 1, r + 1),
                             v_load_tail(s + i - 2, r + 2), v_load_tail(s + i - 3, r + 3));
    if (v_any(err)) return g_utf8_locate_error(s, n, i);
    return utfxi_result(UTFX_OK, n, 0, 0);
  }
#else
  /* The tail: ASCII after a complete character is done here (a call costs
   * more than these few bytes), the rest by the scalar kernel from the
   * character boundary before it. */
  if (!v_any(pending)) {
    while (n - i >= 8 && !(utfxi_load64(s + i) & 0x8080808080808080ull)) i += 8;
    while (i < n && s[i] < 0x80) i++;
    if (i == n) return utfxi_result(UTFX_OK, n, 0, 0);
  }
  return g_utf8_locate_error(s, n, i);
#endif
}

/* The bytes of leading ASCII of s (n >= 9 vectors) that g_ascii_prefix8
 * takes: none if its first vector is not ASCII, else up to the first vector
 * boundary (a load across two cache lines costs two) and then eight vectors
 * a test while they are ASCII. */
UTFXI_INLINE size_t g_ascii_prefix8(const unsigned char *s, size_t n) {
  size_t i;
  if (v_any_high(v_load(s))) return 0;
  i = V_BYTES - (size_t)((uintptr_t)s % V_BYTES);
  return g_ascii_run8(s, n, i);
}

/* Long inputs: the leading ASCII, eight vectors a test, then the rest, from
 * a character boundary with nothing before it to check (out of line: short
 * inputs do not pay for its registers). */
__attribute__((noinline)) static utfx_result g_validate_utf8_long(const char *src, size_t n) {
  size_t i = g_ascii_prefix8((const unsigned char *)src, n);
  utfx_result r;
  r = g_validate_utf8(src + i, n - i);
  return utfxi_result_after(&r, i, 0, 0);
}

/* Long inputs start with their leading ASCII, eight vectors a test (the
 * loop of g_validate_utf8 tests four vectors at a time, and there the test
 * and its branch cost as much as the loads); inside that loop, or inline before it, it slowed other text or
 * short inputs (docs/perf-decisions.md, 'UTF-8 validation'). */
utfx_result G_NAME(validate_utf8)(const char *src, size_t n) {
  if (n >= 16 * V_BYTES) return g_validate_utf8_long(src, n);
  return g_validate_utf8(src, n);
}


utfx_result G_NAME(validate_ascii)(const char *src, size_t n) {
  const unsigned char *s = (const unsigned char *)src;
  size_t i = 0;
  if (n >= 8 * V_BYTES) {
    /* One unaligned vector, then vector-aligned loads: the loop is
     * load-bound, and a load across two cache lines costs two. */
    vu8 v = v_load(s);
    if (v_any_high(v)) return utfxi_result(UTFX_INVALID, v_first_high(v), 0, 0);
    i = V_BYTES - (size_t)((uintptr_t)s % V_BYTES);
  }
  for (; n - i >= 4 * V_BYTES; i += 4 * V_BYTES) {
    const unsigned char *p = s + i;
    vu8 any = v_or(v_or(v_load(p), v_load(p + V_BYTES)),
                   v_or(v_load(p + 2 * V_BYTES), v_load(p + 3 * V_BYTES)));
    if (v_any_high(any)) break;
  }
  for (; n - i >= V_BYTES; i += V_BYTES) {
    vu8 v = v_load(s + i);
    if (v_any_high(v)) return utfxi_result(UTFX_INVALID, i + v_first_high(v), 0, 0);
  }
  if (i == n) return utfxi_result(UTFX_OK, n, 0, 0); /* no call for nothing */
#ifdef V_MASKED_TAIL
  {
    vu8 v = v_load_tail(s + i, n - i);
    if (v_any_high(v)) return utfxi_result(UTFX_INVALID, i + v_first_high(v), 0, 0);
    return utfxi_result(UTFX_OK, n, 0, 0);
  }
#else
  if (n >= V_BYTES) {
    /* The last vector, overlapping bytes already checked (all ASCII, so
     * the first high byte it finds is the input's): no scalar tail. */
    vu8 v = v_load(s + n - V_BYTES);
    if (v_any_high(v)) return utfxi_result(UTFX_INVALID, n - V_BYTES + v_first_high(v), 0, 0);
    return utfxi_result(UTFX_OK, n, 0, 0);
  }
  {
    utfx_result r = utfxi_validate_ascii_scalar(src + i, n - i);
    return utfxi_result(r.status, i + r.read, 0, 0);
  }
#endif
}

#endif
