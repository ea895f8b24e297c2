/* Shared by the suites and the baselines: a uniform kernel call, so every
 * implementation of an operation (utfx tiers, memcpy, ICU, iconv, simdutf)
 * is timed by the same loop. */
#ifndef UTFX_BENCH_SUITES_H
#define UTFX_BENCH_SUITES_H

#include <stddef.h>

#include "engine.h"

/* One call of an operation: returns something derived from the result (units
 * written, a length, an offset) for the engine to sink. `state` is the
 * implementation's own data (an ICU converter, an iconv descriptor...). */
typedef size_t (*bench_kernel)(const void *state, const void *src, size_t n, void *dst,
                               size_t cap);

typedef struct {
  bench_kernel fn;
  const void *state;
  const void *src;
  size_t n; /* source units */
  void *dst;
  size_t cap; /* destination units */
} bench_call;

/* bench_entry.run for a bench_call context. */
size_t bench_run_call(void *ctx, size_t iters);

/* Registers one bench_call benchmark (the call is copied). */
void bench_add_call(bench_registry *reg, const bench_entry *e, const bench_call *call);

/* Operation names are the public function names without "utfx_":
 * validate_utf8, convert_utf8_to_utf16le, utf16_length_from_utf8,
 * to_well_formed_utf16le... Baselines return 0 and fill *call's fn/state
 * when they have an equivalent of op, else -1. */
int bench_icu_op(bench_registry *reg, const char *op, bench_call *call);
int bench_iconv_op(bench_registry *reg, const char *op, bench_call *call);

#ifdef UTFX_BENCH_SIMDUTF
/* simdutf's kernels this CPU runs ("icelake", "haswell", ...). */
size_t bench_simdutf_count(void);
const char *bench_simdutf_name(size_t i);
int bench_simdutf_op(size_t impl, const char *op, bench_call *call);
/* UTF-16LE / Latin-1 to UTF-8 through simdutf's best kernel (encode suite):
 * plain (room for all), _safe (bounded destination), replacing (lone
 * surrogates become U+FFFD). */
size_t bench_simdutf_utf16le_to_utf8(const void *, const void *, size_t, void *, size_t);
size_t bench_simdutf_utf16le_to_utf8_safe(const void *, const void *, size_t, void *, size_t);
size_t bench_simdutf_utf16le_to_utf8_replacing(const void *, const void *, size_t, void *,
                                               size_t);
size_t bench_simdutf_latin1_to_utf8(const void *, const void *, size_t, void *, size_t);
/* The base64 suite's bounded decoding (base64_to_binary_safe, simdutf's
 * best kernel) of op base64_decode, base64_decode_url or base64_decode_utf16:
 * 0 and *call filled, or -1. */
int bench_simdutf_safe_op(const char *op, bench_call *call);
size_t bench_simdutf_latin1_to_utf8_safe(const void *, const void *, size_t, void *, size_t);
#endif

#endif
