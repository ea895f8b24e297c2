/* UTF-16 and UTF-32 (= Latin-1) lengths of UTF-8 after replacement (what the
 * UTFX_REPLACE conversion writes), at any vector width (generic.h).
 *
 * The bytes are checked as in generic_utf8_validate.h, four vectors per
 * step, and well-formed text is counted as one unit per non-continuation
 * byte, plus one per 4-byte lead for UTF-16 (the four-vector steps may
 * count that one at the character's last byte instead, G8_MODE: the step
 * loop then evens up at its ends). In a step with an error, the
 * vectors before the first error are counted as usual; then the scalar
 * decoder counts from the character boundary before that vector through the
 * first error byte (the lead of an unfinished character counted before is
 * taken back first); the next step starts at a boundary with zero context,
 * as a stream start does. Tail (under one vector): a zero-masked vector
 * where the ISA has them (V_MASKED_TAIL), else the scalar kernel, after the
 * character that straddles its start. The count never exceeds n, so it
 * cannot overflow. */
#ifndef UTFX_SIMD_GENERIC_UTF8_LENGTH_H
#define UTFX_SIMD_GENERIC_UTF8_LENGTH_H

#include "generic_utf8_validate.h"

/* A byte mask (v_bits) of the first k bytes of a vector, k <= V_BYTES. */
static inline uint64_t g8_live(size_t k) {
  return k * V_BYTE_BITS >= 64 ? ~0ull : (1ull << (k * V_BYTE_BITS)) - 1;
}
#define G8_ALL g8_live(V_BYTES)
#define G8_COUNT(m) ((size_t)(g_popcnt64(m) / V_BYTE_BITS))

/* Units of the well-formed bytes of v selected by live (a v_bits mask). */
UTFXI_INLINE size_t g8_block_count(vu8 v, uint64_t live, int utf16) {
  size_t c = G8_COUNT(~v_bits(v_is_cont(v)) & live);
  if (utf16) c += G8_COUNT(v_bits(v_ge(v, 0xF0)) & live);
  return c;
}

/* UTF-16 units of the four well-formed vectors as byte weights by high
 * nibble (the table `weights`: 1 for ASCII and leads, 0 for continuations,
 * 2 for a 4-byte lead), summed into acc: the nibbles are the ones the check
 * looked up (k's). Other modes (G8_MODE) count inside the check. */
UTFXI_INLINE vu8 g8_utf16_count4(const struct g_utf8_check_k *k, vu8 weights, vu8 acc, vu8 v0,
                                 vu8 v1, vu8 v2, vu8 v3) {
  vu8 a = v_add(v_lookup16(weights, v_shr4(v0, k->nibble)), v_lookup16(weights, v_shr4(v1, k->nibble)));
  vu8 b = v_add(v_lookup16(weights, v_shr4(v2, k->nibble)), v_lookup16(weights, v_shr4(v3, k->nibble)));
  return v_sum_bytes(acc, v_add(a, b));
}

/* How the four-vector steps count (the vocabulary's V_UTF8_COUNT16 and
 * V_UTF8_COUNT32): G8_AFTER, after the check (UTF-16: weights looked up by
 * the check's nibbles; UTF-32: compare, mask and POPCNT); G8_BITS, inside
 * the check: the bytes passed less the bytes that add no unit
 * (g_utf8_errors4_counted_k: one mask move and POPCNT a vector, from the
 * check's own lookup). */
#define G8_AFTER 0
#define G8_BITS 1
#ifndef V_UTF8_COUNT16
#define V_UTF8_COUNT16 G8_AFTER
#endif
#ifndef V_UTF8_COUNT32
#define V_UTF8_COUNT32 G8_AFTER
#endif
#define G8_MODE(utf16) ((utf16) ? V_UTF8_COUNT16 : V_UTF8_COUNT32)

/* 4-byte leads among the three bytes before p: with G8_BITS, the steps
 * from p on count their second units at their last bytes, where everything
 * else counts them at the lead (g8_block_count). */
UTFXI_INLINE size_t g8_lead4s_before(const unsigned char *p) {
  return (size_t)(p[-1] >= 0xF0) + (p[-2] >= 0xF0) + (p[-3] >= 0xF0);
}

/* Index of the first nonzero byte of err (v_any(err)). */
UTFXI_INLINE unsigned g8_first_error(vu8 err) {
  return g_ctz64(v_bits(v_nonzero(err))) / V_BYTE_BITS;
}

/* The vector v at c holds its first error at byte c + pos; everything before
 * c is counted. Count the well-formed characters before the error's
 * boundary from the vector, the rest through the error byte with the scalar
 * decoder; returns the new offset (a character boundary). */
UTFXI_INLINE size_t g8_count_through_error(const unsigned char *s, size_t n, size_t c, vu8 v,
                                          unsigned pos, size_t *count, int utf16) {
  size_t e = c + pos, q = utfxi_utf8_back_to_boundary(s, e);
  if (q < c) return utfxi_utf8_recount(s, n, c, e + 1, count, utf16);
  *count += g8_block_count(v, g8_live(q - c), utf16);
  *count += utfxi_utf8_count_steps(s, n, e + 1, &q, utf16);
  return q;
}

/* The step of four vectors at i holds an error: count the vectors before the
 * first error, then through the error byte (the scalar decoder goes only
 * that far, so rare errors stay cheap). Returns the new offset. It loads the
 * vectors again: kept from the loop (in an array), gcc stored all four to
 * the stack on every step. */
UTFXI_INLINE size_t g8_count_error_step(const unsigned char *s, size_t n, size_t i,
                                        size_t *count, int utf16) {
  size_t at = i;
  vu8 v = v_load(s + at), err = g_utf8_block_errors(s + at, v);
  int b;
  for (b = 0; b < 3 && !v_any(err); b++) {
    *count += g8_block_count(v, G8_ALL, utf16);
    at += V_BYTES;
    v = v_load(s + at);
    err = g_utf8_block_errors(s + at, v);
  }
  return g8_count_through_error(s, n, at, v, g8_first_error(err), count, utf16);
}

/* How far the first step, v at s (checked, no error), goes: a whole vector,
 * or for a long input only up to the first vector boundary (at least 3
 * bytes on, so that the loads of the bytes before a vector stay in the
 * input): the loop's loads are then vector-aligned, as validation's are (a
 * load across two cache lines costs two). The count is additive (one unit
 * per lead byte), so a cut inside a character is fine, and no character is
 * unfinished at the cut: its next byte is in v, which has no error. */
UTFXI_INLINE size_t g8_first_step(const unsigned char *s, size_t n, vu8 v, vu8 *pending) {
  size_t q = V_BYTES - (size_t)((uintptr_t)s % V_BYTES);
  if (!UTFXI_ALIGN_HEAD(*s, n) || q < 3 || q == V_BYTES) {
    *pending = g_utf8_ends_inside(v);
    return V_BYTES;
  }
  *pending = v_zero();
  return q;
}

/* The counts (generic_utf8_count_body.h): g8_count_utf8, and where the
 * vocabulary looks up nibbles without masks (V_LOOKUP_NIBBLES) the long
 * calls' g8_count_utf8_nib, whose four-vector steps do so; short calls keep
 * the masks' code as it was (docs/perf-decisions.md, 'UTF-8 lengths'). The
 * forms' names are whole identifiers, declared here, for the amalgamation. */
UTFXI_INLINE size_t g8_count_utf8(const char *src, size_t n, int utf16);
#define G8_COUNT_UTF8 g8_count_utf8
#define G8_ERRORS4_W g_utf8_errors4_counted_k
#define G8_FORM_MODE G8_MODE
#include "generic_utf8_count_body.h"
#ifdef V_LOOKUP_NIBBLES
UTFXI_INLINE vu8 g_utf8_error_bytes_kw_nib(const struct g_utf8_check_k *k, vu8 cur, vu8 prev1,
                                           vu8 prev2, vu8 prev3, int utf16, vu8 *w);
UTFXI_INLINE vu8 g_utf8_errors4_counted_nib_k(const struct g_utf8_check_k *k,
                                              const unsigned char *p, vu8 v0, vu8 v1, vu8 v2,
                                              vu8 v3, int utf16, size_t *none);
UTFXI_INLINE size_t g8_count_utf8_nib(const char *src, size_t n, int utf16);
#define G_UTF8_NIB 1
#define G_UTF8_KW g_utf8_error_bytes_kw_nib
#define G_UTF8_ERRORS4_W g_utf8_errors4_counted_nib_k
#include "generic_utf8_check_w.h"
#define G8_COUNT_UTF8 g8_count_utf8_nib
#define G8_ERRORS4_W g_utf8_errors4_counted_nib_k
#define G8_FORM_MODE(utf16) G8_BITS
#include "generic_utf8_count_body.h"
#endif

/* Long inputs: the leading ASCII, eight vectors a test (a unit a byte), as
 * validate_utf8 does (g_validate_utf8_long), then the rest; out of line, one
 * function per count (a count that is a parameter slowed every other text:
 * docs/perf-decisions.md, 'UTF-16 / UTF-32 lengths of UTF-8: leading ASCII'). */
UTFXI_INLINE size_t g8_count_long(const char *src, size_t n, int utf16) {
  size_t i = g_ascii_prefix8((const unsigned char *)src, n);
  return i + g8_count_utf8(src + i, n - i, utf16);
}
__attribute__((noinline)) static size_t g8_count_long16(const char *s, size_t n) {
#ifdef V_LOOKUP_NIBBLES
  size_t i = g_ascii_prefix8((const unsigned char *)s, n);
  return i + g8_count_utf8_nib(s + i, n - i, 1);
#else
  return g8_count_long(s, n, 1);
#endif
}
__attribute__((noinline)) static size_t g8_count_long32(const char *s, size_t n) {
#ifdef V_LOOKUP_NIBBLES
  size_t i = g_ascii_prefix8((const unsigned char *)s, n);
  return i + g8_count_utf8_nib(s + i, n - i, 0);
#else
  return g8_count_long(s, n, 0);
#endif
}

size_t G_NAME(utf16_length_from_utf8)(const char *s, size_t n) {
  return n >= 16 * V_BYTES ? g8_count_long16(s, n) : g8_count_utf8(s, n, 1);
}
size_t G_NAME(utf32_length_from_utf8)(const char *s, size_t n) {
  return n >= 16 * V_BYTES ? g8_count_long32(s, n) : g8_count_utf8(s, n, 0);
}

#endif
