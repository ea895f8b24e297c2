/* What every kernel needs: the kernel table type that every instruction-set
 * tier fills, the scalar reference kernels that every other tier falls back
 * to (for tails, error regions and operations it does not accelerate), and
 * the small helpers kernels share. The dispatcher (which table is active) is
 * dispatch.h: kernels never see it.
 * Non-static internal names start with utfxi_ so they can never clash with, or
 * leak into, the public utfx_ namespace (the library is built with
 * -fvisibility=hidden and a test checks the exported symbols). */
#ifndef UTFX_INTERNAL_H
#define UTFX_INTERNAL_H

#include "utfx.h"

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* The operation lists (UTFXI_VALIDATIONS, UTFXI_CONVERSIONS, ...,
 * UTFXI_DECODER_BLOCKS). */
#include "operations.h"

/* Inputs shorter than two 32-byte vectors run the scalar kernel on every
 * tier: on them the SIMD kernels run one block and then their scalar tail
 * (or, for UTF-16 text with surrogates, a scalar region), slower than the
 * scalar kernel alone (docs/perf-decisions.md, 'Short inputs'). The public
 * functions test it before dispatch (api.c: a direct call, no table), the
 * SIMD tier tables again for the decoder's kernel calls (x86/x86_entries.h). */
#define UTFXI_SHORT_BYTES 64
#define UTFXI_IS_SHORT(S, n) ((n) < UTFXI_SHORT_BYTES / sizeof(S))

/* The exceptions: UTF-16 operations whose kernel on a tier beats the scalar
 * one on every text from fewer units (a masked whole-input step on avx512, a
 * whole 16-unit vector on avx2): X(op, avx512 units, avx2 units), the
 * length from which that tier's entry runs its kernel (docs/perf-decisions.md,
 * 'Short UTF-16 inputs'). The one list: api.c calls the scalar kernel
 * directly below the smaller bound and, between the two bounds, below the
 * active table's own (`short_units`); x86_entries.h tests its tier's column. */
#define UTFXI_SHORT_UTF16(X)                           \
  X(validate_utf16le, 12, 32)                          \
  X(validate_utf16be, 16, 32)                          \
  X(convert_utf16le_to_utf16be, 12, 32)                \
  X(convert_utf16be_to_utf16le, 12, 32)                \
  X(convert_utf16le_to_utf8, 24, 32)                   \
  X(convert_utf16be_to_utf8, 24, 32)                   \
  X(convert_utf16le_to_utf32, 24, 32)                  \
  X(convert_utf16be_to_utf32, 24, 32)                  \
  X(utf8_length_from_utf16le, 16, 32)                  \
  X(utf8_length_from_utf16be, 16, 32)                  \
  X(utf32_length_from_utf16le, 12, 32)                 \
  X(utf32_length_from_utf16be, 12, 32)                 \
  X(latin1_length_from_utf16le, 12, 32)                \
  X(latin1_length_from_utf16be, 12, 32)                \
  X(utf8_length_from_utf16le_with_surrogates, 16, 32)  \
  X(utf8_length_from_utf16be_with_surrogates, 16, 32)  \
  X(swap_bytes_utf16, 24, 16)                          \
  X(to_well_formed_utf16le, 16, 32)                    \
  X(to_well_formed_utf16be, 16, 32)

/* The same for the base64 codecs (bytes to encode, characters or UTF-16
 * units to decode): avx512 encodes and decodes a short input as one masked
 * block (g64_encode_all, g64_decode_end), cheaper than the scalar loop from
 * a group or two; avx2 takes whole vectors ('Base64 short calls on the
 * vector tiers', docs/perf-decisions.md). UTFXI_SHORT_PER_TIER: both lists,
 * what api.c and x86_entries.h expand. */
#define UTFXI_SHORT_BASE64(X) \
  X(base64_encode, 4, 28)     \
  X(base64_decode, 6, 32)     \
  X(base64_decode_utf16, 6, 32)
#define UTFXI_SHORT_PER_TIER(X) UTFXI_SHORT_UTF16(X) UTFXI_SHORT_BASE64(X)

/* Per operation, the units below which a table's entry takes the scalar
 * kernel (UTFXI_SHORT_DEFAULTS: UTFXI_IS_SHORT's, as designated
 * initializers; a tier overrides the operations of UTFXI_SHORT_UTF16). */
struct utfxi_short_units {
#define UTFXI_SU_VALIDATE(enc, S) unsigned char validate_##enc;
#define UTFXI_SU_CONVERT(from, S, to, T) unsigned char convert_##from##_to_##to;
#define UTFXI_SU_LENGTH(to, from, S) unsigned char to##_length_from_##from;
#define UTFXI_SU_OP1(op) unsigned char op;
#define UTFXI_SU_OP2(op, S) unsigned char op;
#define UTFXI_SU_OP3(op, S, T) unsigned char op;
  UTFXI_VALIDATIONS(UTFXI_SU_VALIDATE)
  UTFXI_CONVERSIONS(UTFXI_SU_CONVERT)
  UTFXI_LENGTHS(UTFXI_SU_LENGTH)
  UTFXI_BASE64_CODECS(UTFXI_SU_OP3)
  UTFXI_BASE64_LENGTHS(UTFXI_SU_OP2)
  UTFXI_BASE64_LINE_CODECS(UTFXI_SU_OP3)
  UTFXI_UTF16_MAPS(UTFXI_SU_OP1)
  UTFXI_UTF16_COUNTED_REPAIRS(UTFXI_SU_OP1)
  UTFXI_UTF16_CHECKS(UTFXI_SU_OP1)
  UTFXI_UTF16_FLAGGED_LENGTHS(UTFXI_SU_OP1)
#undef UTFXI_SU_VALIDATE
#undef UTFXI_SU_CONVERT
#undef UTFXI_SU_LENGTH
#undef UTFXI_SU_OP1
#undef UTFXI_SU_OP2
#undef UTFXI_SU_OP3
};
#define UTFXI_SU_UNITS(S) (UTFXI_SHORT_BYTES / sizeof(S))
#define UTFXI_SU_INIT_VALIDATE(enc, S) .validate_##enc = UTFXI_SU_UNITS(S),
#define UTFXI_SU_INIT_CONVERT(from, S, to, T) .convert_##from##_to_##to = UTFXI_SU_UNITS(S),
#define UTFXI_SU_INIT_LENGTH(to, from, S) .to##_length_from_##from = UTFXI_SU_UNITS(S),
#define UTFXI_SU_INIT_OP2(op, S) .op = UTFXI_SU_UNITS(S),
#define UTFXI_SU_INIT_OP3(op, S, T) .op = UTFXI_SU_UNITS(S),
#define UTFXI_SU_INIT_OP16(op) .op = UTFXI_SU_UNITS(char16_t),
#define UTFXI_SHORT_DEFAULTS                                                  \
  UTFXI_VALIDATIONS(UTFXI_SU_INIT_VALIDATE)                                   \
  UTFXI_CONVERSIONS(UTFXI_SU_INIT_CONVERT)                                    \
  UTFXI_LENGTHS(UTFXI_SU_INIT_LENGTH)                                         \
  UTFXI_BASE64_CODECS(UTFXI_SU_INIT_OP3)                                      \
  UTFXI_BASE64_LENGTHS(UTFXI_SU_INIT_OP2)                                     \
  UTFXI_BASE64_LINE_CODECS(UTFXI_SU_INIT_OP3)                                 \
  UTFXI_UTF16_MAPS(UTFXI_SU_INIT_OP16)                                        \
  UTFXI_UTF16_COUNTED_REPAIRS(UTFXI_SU_INIT_OP16)                             \
  UTFXI_UTF16_CHECKS(UTFXI_SU_INIT_OP16)                                      \
  UTFXI_UTF16_FLAGGED_LENGTHS(UTFXI_SU_INIT_OP16)

/* Kernel signatures are those of the public functions, except that `flags`
 * arrives already reduced to UTFX_STRICT or UTFX_REPLACE. */
struct utfxi_kernels {
  const char *name;
  /* The table of kernels these entries wrap (the x86 tiers, x86_entries.h),
   * or NULL when the entries are the kernels themselves (scalar). */
  const struct utfxi_kernels *inner;
#define UTFXI_KERNELS_HAVE_INNER 1 /* for bench/kernel_probe.c, built against older trees too */
#define UTFXI_FIELD_VALIDATE(enc, S) utfx_result (*validate_##enc)(const S *, size_t);
  UTFXI_VALIDATIONS(UTFXI_FIELD_VALIDATE)
#undef UTFXI_FIELD_VALIDATE
#define UTFXI_FIELD_CONVERT(from, S, to, T) \
  utfx_result (*convert_##from##_to_##to)(const S *, size_t, T *, size_t, unsigned);
  UTFXI_CONVERSIONS(UTFXI_FIELD_CONVERT)
#undef UTFXI_FIELD_CONVERT
#define UTFXI_FIELD_LENGTH(to, from, S) size_t (*to##_length_from_##from)(const S *, size_t);
  UTFXI_LENGTHS(UTFXI_FIELD_LENGTH)
#undef UTFXI_FIELD_LENGTH
#define UTFXI_FIELD_B64(op, S, T) utfx_result (*op)(const S *, size_t, T *, size_t, unsigned);
  UTFXI_BASE64_CODECS(UTFXI_FIELD_B64)
#undef UTFXI_FIELD_B64
#define UTFXI_FIELD_B64_LENGTH(op, S) size_t (*op)(const S *, size_t, unsigned);
  UTFXI_BASE64_LENGTHS(UTFXI_FIELD_B64_LENGTH)
#undef UTFXI_FIELD_B64_LENGTH
#define UTFXI_FIELD_B64_LINES(op, S, T) \
  utfx_result (*op)(const S *, size_t, T *, size_t, unsigned, size_t, size_t *);
  UTFXI_BASE64_LINE_CODECS(UTFXI_FIELD_B64_LINES)
#undef UTFXI_FIELD_B64_LINES
#define UTFXI_FIELD_BLOCKS(op, params, args) size_t (*op) params;
  UTFXI_DECODER_BLOCKS(UTFXI_FIELD_BLOCKS)
#undef UTFXI_FIELD_BLOCKS
  /* The UTF-16 maps (byte swap, repair), checks and flagged lengths. */
#define UTFXI_FIELD_MAP(op) void (*op)(const char16_t *, size_t, char16_t *);
#define UTFXI_FIELD_CHECK(op) utfx_result (*op)(const char16_t *, size_t);
#define UTFXI_FIELD_FLAGGED(op) size_t (*op)(const char16_t *, size_t, int *);
#define UTFXI_FIELD_REPAIR(op) size_t (*op)(const char16_t *, size_t, char16_t *);
  UTFXI_UTF16_MAPS(UTFXI_FIELD_MAP)
  UTFXI_UTF16_COUNTED_REPAIRS(UTFXI_FIELD_REPAIR)
  UTFXI_UTF16_CHECKS(UTFXI_FIELD_CHECK)
  UTFXI_UTF16_FLAGGED_LENGTHS(UTFXI_FIELD_FLAGGED)
#undef UTFXI_FIELD_MAP
#undef UTFXI_FIELD_CHECK
#undef UTFXI_FIELD_FLAGGED
#undef UTFXI_FIELD_REPAIR
  /* Per operation, the inputs this table's entries take to the scalar
   * kernel (api.c reads it for the operations of UTFXI_SHORT_UTF16). Last:
   * the other fields keep their offsets. */
  struct utfxi_short_units short_units;
};

/* The scalar reference kernels: utfxi_<op>_scalar. */
#define UTFXI_DECL_VALIDATE(enc, S) utfx_result utfxi_validate_##enc##_scalar(const S *, size_t);
UTFXI_VALIDATIONS(UTFXI_DECL_VALIDATE)
#undef UTFXI_DECL_VALIDATE
#define UTFXI_DECL_CONVERT(from, S, to, T)                                                  \
  utfx_result utfxi_convert_##from##_to_##to##_scalar(const S *, size_t, T *, size_t, \
                                                       unsigned);
UTFXI_CONVERSIONS(UTFXI_DECL_CONVERT)
#undef UTFXI_DECL_CONVERT
#define UTFXI_DECL_LENGTH(to, from, S) \
  size_t utfxi_##to##_length_from_##from##_scalar(const S *, size_t);
UTFXI_LENGTHS(UTFXI_DECL_LENGTH)
#undef UTFXI_DECL_LENGTH
#define UTFXI_DECL_B64(op, S, T) \
  utfx_result utfxi_##op##_scalar(const S *, size_t, T *, size_t, unsigned);
UTFXI_BASE64_CODECS(UTFXI_DECL_B64)
#undef UTFXI_DECL_B64
#define UTFXI_DECL_B64_LENGTH(op, S) size_t utfxi_##op##_scalar(const S *, size_t, unsigned);
UTFXI_BASE64_LENGTHS(UTFXI_DECL_B64_LENGTH)
#undef UTFXI_DECL_B64_LENGTH
#define UTFXI_DECL_B64_LINES(op, S, T) \
  utfx_result utfxi_##op##_scalar(const S *, size_t, T *, size_t, unsigned, size_t, size_t *);
UTFXI_BASE64_LINE_CODECS(UTFXI_DECL_B64_LINES)
#undef UTFXI_DECL_B64_LINES
#define UTFXI_DECL_BLOCKS(op, params, args) size_t utfxi_##op##_scalar params;
UTFXI_DECODER_BLOCKS(UTFXI_DECL_BLOCKS)
#undef UTFXI_DECL_BLOCKS
#define UTFXI_DECL_MAP(op) void utfxi_##op##_scalar(const char16_t *, size_t, char16_t *);
#define UTFXI_DECL_CHECK(op) utfx_result utfxi_##op##_scalar(const char16_t *, size_t);
#define UTFXI_DECL_FLAGGED(op) size_t utfxi_##op##_scalar(const char16_t *, size_t, int *);
#define UTFXI_DECL_REPAIR(op) size_t utfxi_##op##_scalar(const char16_t *, size_t, char16_t *);
UTFXI_UTF16_MAPS(UTFXI_DECL_MAP)
UTFXI_UTF16_COUNTED_REPAIRS(UTFXI_DECL_REPAIR)
UTFXI_UTF16_CHECKS(UTFXI_DECL_CHECK)
UTFXI_UTF16_FLAGGED_LENGTHS(UTFXI_DECL_FLAGGED)
#undef UTFXI_DECL_MAP
#undef UTFXI_DECL_CHECK
#undef UTFXI_DECL_FLAGGED
#undef UTFXI_DECL_REPAIR

/* Designated initializers naming every scalar kernel, each ending in a comma.
 * A SIMD tier's table starts with these and overrides the entries it
 * accelerates (the files that define tier tables, x86/x86_kernels.h and
 * arm/neon_entries.c, turn -Woverride-init off for exactly this). */
#define UTFXI_INIT_VALIDATE(enc, S) .validate_##enc = utfxi_validate_##enc##_scalar,
#define UTFXI_INIT_CONVERT(from, S, to, T) \
  .convert_##from##_to_##to = utfxi_convert_##from##_to_##to##_scalar,
#define UTFXI_INIT_LENGTH(to, from, S) \
  .to##_length_from_##from = utfxi_##to##_length_from_##from##_scalar,
#define UTFXI_INIT_B64(op, ...) .op = utfxi_##op##_scalar,
#define UTFXI_INIT_BLOCKS(op, params, args) .op = utfxi_##op##_scalar,
#define UTFXI_INIT_SCAN(op) .op = utfxi_##op##_scalar,
#define UTFXI_SCALAR_KERNELS                                                            \
  .short_units = {UTFXI_SHORT_DEFAULTS},                                                \
  UTFXI_VALIDATIONS(UTFXI_INIT_VALIDATE)                                                \
  UTFXI_CONVERSIONS(UTFXI_INIT_CONVERT)                                                 \
  UTFXI_LENGTHS(UTFXI_INIT_LENGTH)                                                      \
  UTFXI_BASE64_CODECS(UTFXI_INIT_B64)                                                   \
  UTFXI_BASE64_LENGTHS(UTFXI_INIT_B64)                                                  \
  UTFXI_BASE64_LINE_CODECS(UTFXI_INIT_B64)                                              \
  UTFXI_UTF16_MAPS(UTFXI_INIT_SCAN)                                                     \
  UTFXI_UTF16_COUNTED_REPAIRS(UTFXI_INIT_SCAN)                                          \
  UTFXI_UTF16_CHECKS(UTFXI_INIT_SCAN)                                                   \
  UTFXI_UTF16_FLAGGED_LENGTHS(UTFXI_INIT_SCAN)                                          \
  UTFXI_DECODER_BLOCKS(UTFXI_INIT_BLOCKS)

/* Inputs from this many bytes on start with a head that aligns a kernel's
 * loads or stores (utfxi_aligning_step, or a few values by the scalar kernel):
 * below it the head, and the tail it leaves, cost more than the alignment
 * saves (a buffer that small stays in L1, where a split line costs little;
 * docs/perf-decisions.md, 'Aligning heads'). */
#define UTFXI_ALIGN_HEAD_BYTES 4096
#define UTFXI_ALIGN_HEAD(S, n) ((n) >= UTFXI_ALIGN_HEAD_BYTES / sizeof(S))

/* The units a step of a SIMD kernel advances, having done `step` units
 * (of `unit` bytes) at p, a source or destination pointer: before a long
 * run (`long_run`: the caller has checked input and room for one), only as
 * far as makes p `align`-byte aligned, so that the run's loads or stores
 * never straddle cache lines (an access across two lines costs two). The
 * step itself when p is aligned, or cannot be aligned by whole units. With
 * step 0: the units before p's next aligned address (0 if none). */
static inline size_t utfxi_aligning_step(const void *p, size_t unit, size_t align, size_t step,
                                         int long_run) {
  size_t mis = (size_t)((uintptr_t)p % align);
  return long_run && mis && mis % unit == 0 ? (align - mis) / unit : step;
}

/* Generic kernel bodies take their variant (byte order, target form) as a
 * constant argument; forcing them inline makes the compiler stamp out one
 * specialised copy per wrapper instead of branching at run time. */
#if defined(__GNUC__) || defined(__clang__)
#define UTFXI_INLINE static inline __attribute__((always_inline))
#else
#define UTFXI_INLINE static inline
#endif

/* Code placement hints: UTFXI_UNLIKELY(c) lays the c path out of the fall-through
 * line; UTFXI_COLD marks a function called once (dispatch's resolve), so
 * its call does not shape the register use of the paths around it. */
#if defined(__GNUC__) || defined(__clang__)
#define UTFXI_UNLIKELY(c) __builtin_expect(!!(c), 0)
#define UTFXI_COLD __attribute__((cold))
#else
#define UTFXI_UNLIKELY(c) (c)
#define UTFXI_COLD
#endif

/* An entry point that is a kernel body with its variant fixed (a byte
 * order, a target form): name is the whole function name (G_NAME(op) in the
 * generic layer), so grep finds where each entry is made. */
#define UTFXI_CONVERT_ENTRY(name, S, T, body, ...)                           \
  utfx_result name(const S *s, size_t n, T *d, size_t cap, unsigned flags) { \
    return body(s, n, d, cap, flags, __VA_ARGS__);                           \
  }

/* Result constructors. */
static inline utfx_result utfxi_result(utfx_status status, size_t read, size_t written,
                                       size_t replaced) {
  utfx_result r;
  r.status = status;
  r.read = read;
  r.written = written;
  r.replaced = replaced;
  return r;
}

/* *k, the result of a kernel that started at offset `read` of the input and
 * unit `written` of the output, as the result of the whole call. A result
 * comes back from a call through memory, stored field by field; copied with
 * 16-byte loads (what compilers do unless stopped) it cannot be forwarded
 * from those stores and costs a ~20-cycle stall, more than a short input
 * takes. So the fields move one by one (the empty asm keeps them apart). */
#if defined(__GNUC__) || defined(__clang__)
#define UTFXI_OPAQUE(x) __asm__("" : "+r"(x))
#else
#define UTFXI_OPAQUE(x) (void)0
#endif
static inline utfx_result utfxi_result_after(const utfx_result *k, size_t read, size_t written,
                                             size_t replaced) {
  unsigned status = (unsigned)k->status;
  size_t r = k->read, w = k->written, x = k->replaced;
  UTFXI_OPAQUE(status);
  UTFXI_OPAQUE(r);
  UTFXI_OPAQUE(w);
  UTFXI_OPAQUE(x);
  return utfxi_result((utfx_status)status, r + read, w + written, x + replaced);
}

/* Saturating addition for length functions (results never wrap). */
static inline size_t utfxi_add_sat(size_t a, size_t b) {
  return a > SIZE_MAX - b ? SIZE_MAX : a + b;
}

/* The scalar UTF-16 byte swap either way (be: the source is UTF-16BE): the
 * SIMD swaps' heads, lone-surrogate regions and tails. */
static inline utfx_result utfxi_swap_utf16_scalar(const char16_t *s, size_t n, char16_t *d,
                                                  size_t cap, unsigned flags, int be) {
  return be ? utfxi_convert_utf16be_to_utf16le_scalar(s, n, d, cap, flags)
            : utfxi_convert_utf16le_to_utf16be_scalar(s, n, d, cap, flags);
}

#endif /* UTFX_INTERNAL_H */
