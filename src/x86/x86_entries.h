/* An x86-64 tier's table that dispatch.c selects (TIER, defined by the
 * includer: avx2/avx2_entries.c, avx512/avx512_entries.c): one thin entry
 * per operation, generated here from the operation lists (operations.h),
 * around the kernel that x86_kernels.h names for it. Each entry
 *  - takes inputs shorter than two 32-byte vectors to the scalar kernel
 *    (UTFXI_SHORT_BYTES: on them the SIMD kernels run mostly their scalar
 *    tail, behind their set-up), or for the UTF-16 operations of
 *    UTFXI_SHORT_UTF16 (internal.h) shorter than its tier's bound (the base64
 *    codecs have no entry: api.c applies theirs, UTFXI_SHORT_BASE64), and
 *  - returns with the upper halves of the YMM/ZMM registers clean
 *    (VZEROUPPER: XINUSE bits 2 and 6 clear), whatever compiler built the
 *    kernel. gcc, for one, leaves them dirty in kernels that call a helper it
 *    did not inline, and then the caller's next legacy-SSE instruction stalls
 *    on Intel (issue 11). Every public function and every kernel call of the
 *    streaming decoder goes through these tables, so this is the one place.
 *    (VZEROUPPER needs only AVX.) */
#ifndef UTFX_X86_ENTRIES_H
#define UTFX_X86_ENTRIES_H

#ifndef __AVX2__
#error "x86 tier entries must be built with the tier's flags"
#endif
#ifndef TIER
#error "define TIER, the tier's name, before including x86_entries.h"
#endif

#include <immintrin.h>

#include "x86_kernels.h"
#include "../simd/utf16_to_utf8_parts.h"

/* Inputs the scalar kernel takes: UTFXI_IS_SHORT (internal.h), or this
 * tier's column of UTFXI_SHORT_PER_TIER (utfxi_short_TIER, below). */
#define UTFXI_SHORT_PICK_avx512(avx512, avx2) avx512
#define UTFXI_SHORT_PICK_avx2(avx512, avx2) avx2
#define UTFXI_SHORT_FIELD(op, avx512, avx2) .op = UTFXI_PASTE(UTFXI_SHORT_PICK_, TIER)(avx512, avx2),
#define UTFXI_TIER_SHORT_INIT {UTFXI_SHORT_DEFAULTS UTFXI_SHORT_PER_TIER(UTFXI_SHORT_FIELD)}
#define UTFXI_TIER_SHORT UTFXI_PASTE(utfxi_short_, TIER)
#define UTFXI_SHORT_HERE(op, n) ((n) < UTFXI_TIER_SHORT.op)

/* The entries of tier TIER are TIER_op and wrap utfxi_TIER_inner.op, which
 * the compiler resolves to a direct call (the inner table is a static
 * const). */
#define UTFXI_PASTE_(a, b) a##b
#define UTFXI_PASTE(a, b) UTFXI_PASTE_(a, b)
#define UTFXI_STR_(a) #a
#define UTFXI_STR(a) UTFXI_STR_(a)
#define ENTRY(op) UTFXI_PASTE(TIER, _##op)
#define INNER UTFXI_PASTE(utfxi_, UTFXI_PASTE(TIER, _inner))
/* A kernel's result moves on field by field (utfxi_result_after says why). */
static inline utfx_result utfxi_moved(const utfx_result *k) {
  return utfxi_result_after(k, 0, 0, 0);
}
static inline size_t utfxi_moved_size(const size_t *k) { return *k; }

/* R: the result type; MOVE: how it leaves. An operation whose kernel is the
 * scalar one on this tier (the O(1) lengths) jumps straight to it: the
 * comparison is a constant, and without vector code there is nothing to
 * clean (the call and VZEROUPPER would cost more than such a length:
 * docs/perf-decisions.md, 'Tier entries'). */
#define UTFXI_WRAP(R, MOVE, op, S, n, args)                                    \
  do {                                                                         \
    R k;                                                                       \
    if (UTFXI_SHORT_HERE(op, n) || INNER.op == utfxi_##op##_scalar)            \
      return utfxi_##op##_scalar args;                                         \
    k = INNER.op args;                                                         \
    _mm256_zeroupper();                                                        \
    return MOVE(&k);                                                           \
  } while (0)

#define ENTRY_VALIDATE(enc, S)                                            \
  static utfx_result ENTRY(validate_##enc)(const S *s, size_t n) {        \
    UTFXI_WRAP(utfx_result, utfxi_moved, validate_##enc, S, n, (s, n));   \
  }
#define ENTRY_CONVERT(from, S, to, T)                                                  \
  static utfx_result ENTRY(convert_##from##_to_##to)(const S *s, size_t n, T *d,       \
                                                      size_t cap, unsigned flags) {   \
    UTFXI_WRAP(utfx_result, utfxi_moved, convert_##from##_to_##to, S, n,                \
               (s, n, d, cap, flags));                                                 \
  }
#define ENTRY_LENGTH(to, from, S)                                                  \
  static size_t ENTRY(to##_length_from_##from)(const S *s, size_t n) {             \
    UTFXI_WRAP(size_t, utfxi_moved_size, to##_length_from_##from, S, n, (s, n));   \
  }
#define ENTRY_UTF16_MAP(op)                                                   \
  static void ENTRY(op)(const char16_t *s, size_t n, char16_t *d) {        \
    if (UTFXI_SHORT_HERE(op, n)) {                                         \
      utfxi_##op##_scalar(s, n, d);                                        \
      return;                                                              \
    }                                                                      \
    INNER.op(s, n, d);                                                     \
    _mm256_zeroupper();                                                    \
  }
#define ENTRY_REPAIR(op)                                                   \
  static size_t ENTRY(op)(const char16_t *s, size_t n, char16_t *d) {      \
    size_t k;                                                              \
    if (UTFXI_SHORT_HERE(op, n)) return utfxi_##op##_scalar(s, n, d);      \
    k = INNER.op(s, n, d);                                                 \
    _mm256_zeroupper();                                                    \
    return k;                                                              \
  }
/* The base64 codecs have no entry: their table fields are their kernels
 * (FIELD_B64_KERNEL). api.c takes their short inputs to the scalar kernel by
 * this table's own bounds (short_units), and the kernels clear the upper
 * halves themselves (the compiler's VZEROUPPER at each return; they call
 * only the scalar steps), which test_vector_state checks. Every call level
 * returning after the kernel's stores costs a long call time (its loads from
 * the stack wait behind them), and the entry only passed the caller's slot
 * on (docs/perf-decisions.md, 'Base64 codecs: the kernels in the table'). */
#define ENTRY_B64_LINES(op, S, T)                                                      \
  static utfx_result ENTRY(op)(const S *s, size_t n, T *d, size_t cap, unsigned flags,  \
                               size_t line_len, size_t *column) {                       \
    UTFXI_WRAP(utfx_result, utfxi_moved, op, S, n,                                      \
               (s, n, d, cap, flags, line_len, column));                                \
  }
#define ENTRY_B64_LENGTH(op, S)                                                \
  static size_t ENTRY(op)(const S *s, size_t n, unsigned flags) {              \
    UTFXI_WRAP(size_t, utfxi_moved_size, op, S, n, (s, n, flags));             \
  }
/* The UTF-16 checks and flagged lengths (operations.h). */
#define ENTRY_CHECK(op)                                                    \
  static utfx_result ENTRY(op)(const char16_t *s, size_t n) {              \
    UTFXI_WRAP(utfx_result, utfxi_moved, op, char16_t, n, (s, n));         \
  }
#define ENTRY_FLAGGED(op)                                                  \
  static size_t ENTRY(op)(const char16_t *s, size_t n, int *flag) {        \
    UTFXI_WRAP(size_t, utfxi_moved_size, op, char16_t, n, (s, n, flag));   \
  }
/* The decoder's block kernels take whole blocks only: no short path. */
#define ENTRY_BLOCKS(op, params, args)                                     \
  static size_t ENTRY(op) params {                                         \
    size_t r = INNER.op args;                                              \
    _mm256_zeroupper();                                                    \
    return r;                                                              \
  }
#define FIELD_SCAN(op) .op = ENTRY(op),
#define FIELD_SCAN3(op, params, args) .op = ENTRY(op),
#define FIELD_VALIDATE(enc, S) .validate_##enc = ENTRY(validate_##enc),
#define FIELD_CONVERT(from, S, to, T) .convert_##from##_to_##to = ENTRY(convert_##from##_to_##to),
#define FIELD_LENGTH(to, from, S) .to##_length_from_##from = ENTRY(to##_length_from_##from),
#define FIELD_B64(op, ...) .op = ENTRY(op),
#define FIELD_B64_KERNEL(op, ...) .op = UTFXI_PASTE(utfxi_##op##_, TIER),

/* The UTF-16 maps (swap, repair) return nothing (ENTRY_UTF16_MAP). */
#define UTFXI_TIER_TABLE                                                                  \
  UTFXI_VALIDATIONS(ENTRY_VALIDATE)                                                       \
  UTFXI_CONVERSIONS(ENTRY_CONVERT)                                                        \
  UTFXI_LENGTHS(ENTRY_LENGTH)                                                             \
  UTFXI_BASE64_LENGTHS(ENTRY_B64_LENGTH)                                                  \
  UTFXI_BASE64_LINE_CODECS(ENTRY_B64_LINES)                                               \
  UTFXI_UTF16_MAPS(ENTRY_UTF16_MAP) UTFXI_UTF16_CHECKS(ENTRY_CHECK)                        \
  UTFXI_UTF16_COUNTED_REPAIRS(ENTRY_REPAIR)                                               \
  UTFXI_UTF16_FLAGGED_LENGTHS(ENTRY_FLAGGED)                                              \
  UTFXI_DECODER_BLOCKS(ENTRY_BLOCKS)                                                      \
  const struct utfxi_kernels UTFXI_PASTE(utfxi_, UTFXI_PASTE(TIER, _kernels)) = {         \
      .name = UTFXI_STR(TIER),                                                            \
      .inner = &INNER,                                                                    \
      .short_units = UTFXI_TIER_SHORT_INIT,                                               \
      UTFXI_VALIDATIONS(FIELD_VALIDATE) UTFXI_CONVERSIONS(FIELD_CONVERT)                  \
      UTFXI_LENGTHS(FIELD_LENGTH)                                                         \
      UTFXI_BASE64_CODECS(FIELD_B64_KERNEL) UTFXI_BASE64_LENGTHS(FIELD_B64)               \
      UTFXI_BASE64_LINE_CODECS(FIELD_B64)                                                 \
      UTFXI_UTF16_MAPS(FIELD_SCAN) UTFXI_UTF16_CHECKS(FIELD_SCAN)                         \
      UTFXI_UTF16_COUNTED_REPAIRS(FIELD_SCAN)                                             \
      UTFXI_UTF16_FLAGGED_LENGTHS(FIELD_SCAN)                                             \
      UTFXI_DECODER_BLOCKS(FIELD_SCAN3)                                                   \
  };

/* The tier's inner table (its kernels; designated initializers given twice
 * on purpose: the scalar ones, then the tier's), then its entries. */
#if defined(__clang__)
#pragma clang diagnostic ignored "-Winitializer-overrides"
#elif defined(__GNUC__)
#pragma GCC diagnostic ignored "-Woverride-init"
#endif
/* UTF-16 -> UTF-8: the kernel's choice between its two parts
 * (utf16_to_utf8_parts.h), inlined into the entry, which then calls the part
 * itself: one call from here, not two. A tier that defines
 * UTFXI_X86_UTF8_SHORT takes inputs below it to a third part
 * (G16_UTF8_SHORT: one masked step). */
#ifdef UTFXI_X86_UTF8_SHORT /* (units below which the tier has a short part) */
#define UTFXI_X86_UTF8_TO_SHORT(bo, s, n, d, cap, flags) \
  if (n < UTFXI_X86_UTF8_SHORT)                          \
    return UTFXI_PASTE(utfxi_utf16##bo##_to_utf8_short_, TIER)(s, n, d, cap, flags);
#else
#define UTFXI_X86_UTF8_TO_SHORT(bo, s, n, d, cap, flags)
#endif
#define UTFXI_X86_UTF8_PICK(bo, be)                                                         \
  static inline __attribute__((always_inline)) utfx_result                                  \
  UTFXI_PASTE(utfxi_x86_utf16##bo##_to_utf8_, TIER)(                                        \
      const char16_t *s, size_t n, char *d, size_t cap, unsigned flags) {                  \
    UTFXI_X86_UTF8_TO_SHORT(bo, s, n, d, cap, flags)                                        \
    return UTFXI_UTF16_TO_UTF8_PICK(UTFXI_PASTE(utfxi_utf16##bo##_to_utf8_ascii_, TIER),   \
                                    UTFXI_PASTE(utfxi_utf16##bo##_to_utf8_rest_, TIER), s, \
                                    n, d, cap, flags, be);                                  \
  }
UTFXI_X86_UTF8_PICK(le, 0)
UTFXI_X86_UTF8_PICK(be, 1)
/* Long calls (UTFXI_X86_LONG_UNITS units or more) to a kernel of their own,
 * on a tier that has one: its loops are not the short kernel's, whose
 * registers and code stay as they were (a long loop reached from inside
 * the short kernel cost short calls 3-5 %: docs/perf-decisions.md,
 * 'UTF-16 -> UTF-32'). Inlined into the entry: one call from there. */
#define UTFXI_X86_LONG_UNITS 2048
#define UTFXI_X86_LONG_PICK_TYPED(op, longk, S, T, min)                                     \
  static inline __attribute__((always_inline)) utfx_result                                  \
  UTFXI_PASTE(utfxi_x86_##op##_, TIER)(const S *s, size_t n, T *d, size_t cap,             \
                                       unsigned flags) {                                    \
    if (UTFXI_UNLIKELY(n >= (min)))                                                         \
      return UTFXI_PASTE(utfxi_##longk##_, TIER)(s, n, d, cap, flags);                      \
    return UTFXI_PASTE(utfxi_##op##_, TIER)(s, n, d, cap, flags);                           \
  }
#define UTFXI_X86_LONG_PICK(op, longk) \
  UTFXI_X86_LONG_PICK_TYPED(op, longk, char16_t, char32_t, UTFXI_X86_LONG_UNITS)
#ifdef UTFXI_X86_LONG_UTF32
UTFXI_X86_LONG_PICK(convert_utf16le_to_utf32, utf16le_to_utf32_long)
UTFXI_X86_LONG_PICK(convert_utf16be_to_utf32, utf16be_to_utf32_long)
#define UTFXI_X86_LONG_FIELDS_32                                                           \
  .convert_utf16le_to_utf32 = UTFXI_PASTE(utfxi_x86_convert_utf16le_to_utf32_, TIER),      \
  .convert_utf16be_to_utf32 = UTFXI_PASTE(utfxi_x86_convert_utf16be_to_utf32_, TIER),
#else
#define UTFXI_X86_LONG_FIELDS_32
#endif
/* UTF-8 -> UTF-16 / UTF-32 calls of UTFXI_X86_LONG_UTF8 bytes or more: the
 * kernels with the fixed-stride steps (generic_utf8_transcode.h). */
#ifdef UTFXI_X86_LONG_UTF8
UTFXI_X86_LONG_PICK_TYPED(convert_utf8_to_utf16le, utf8_to_utf16le_long, char, char16_t,
                          UTFXI_X86_LONG_UTF8)
UTFXI_X86_LONG_PICK_TYPED(convert_utf8_to_utf16be, utf8_to_utf16be_long, char, char16_t,
                          UTFXI_X86_LONG_UTF8)
UTFXI_X86_LONG_PICK_TYPED(convert_utf8_to_utf32, utf8_to_utf32_long, char, char32_t,
                          UTFXI_X86_LONG_UTF8)
#define UTFXI_X86_LONG_FIELDS_8                                                            \
  .convert_utf8_to_utf16le = UTFXI_PASTE(utfxi_x86_convert_utf8_to_utf16le_, TIER),        \
  .convert_utf8_to_utf16be = UTFXI_PASTE(utfxi_x86_convert_utf8_to_utf16be_, TIER),        \
  .convert_utf8_to_utf32 = UTFXI_PASTE(utfxi_x86_convert_utf8_to_utf32_, TIER),
#else
#define UTFXI_X86_LONG_FIELDS_8
#endif
#define UTFXI_X86_LONG_FIELDS UTFXI_X86_LONG_FIELDS_32 UTFXI_X86_LONG_FIELDS_8
#define UTFXI_X86_TIER TIER
static const struct utfxi_kernels INNER = UTFXI_X86_INNER_TABLE(UTFXI_STR(TIER));
static const struct utfxi_short_units UTFXI_TIER_SHORT = UTFXI_TIER_SHORT_INIT;
UTFXI_TIER_TABLE

#endif
