/* The one bench file that reads library internals: it tells the engine when a
 * tier's table entry for an operation is the same function as the next lower
 * supported tier's (a tier without its own kernel for that operation), so the
 * harness does not time the same code twice under two names. */
#include <string.h>

#include "engine.h"
/* utfxi_active: dispatch.h, or internal.h in trees from before the split
 * (bench/compare.sh builds this file against other revisions' src/). */
#if defined(__has_include)
#if __has_include("dispatch.h")
#include "dispatch.h"
#endif
#endif
#include "internal.h"

void bench_install_kernel_probe(void);

typedef void (*any_fn)(void);

/* The table entry for op as a generic function pointer (compared, never
 * called), or NULL for an unknown op. */
static any_fn entry(const struct utfxi_kernels *k, const char *op) {
#define PROBE_VALIDATE(enc, S) \
  if (strcmp(op, "validate_" #enc) == 0) return (any_fn)k->validate_##enc;
  UTFXI_VALIDATIONS(PROBE_VALIDATE)
#define PROBE_CONVERT(from, S, to, T) \
  if (strcmp(op, "convert_" #from "_to_" #to) == 0) return (any_fn)k->convert_##from##_to_##to;
  UTFXI_CONVERSIONS(PROBE_CONVERT)
#define PROBE_LENGTH(to, from, S) \
  if (strcmp(op, #to "_length_from_" #from) == 0) return (any_fn)k->to##_length_from_##from;
  UTFXI_LENGTHS(PROBE_LENGTH)
#ifdef UTFXI_BASE64_CODECS /* (older trees have none) */
#define PROBE_B64(name, ...) \
  if (strcmp(op, #name) == 0) return (any_fn)k->name;
  UTFXI_BASE64_CODECS(PROBE_B64)
  UTFXI_BASE64_LENGTHS(PROBE_B64)
#endif
#ifdef UTFXI_BASE64_LINE_CODECS
  UTFXI_BASE64_LINE_CODECS(PROBE_B64)
#endif
#ifdef UTFXI_UTF16_MAPS /* issue 35's scans */
#define PROBE_UTF16(name) \
  if (strcmp(op, #name) == 0) return (any_fn)k->name;
  UTFXI_UTF16_MAPS(PROBE_UTF16)
  UTFXI_UTF16_CHECKS(PROBE_UTF16)
  UTFXI_UTF16_FLAGGED_LENGTHS(PROBE_UTF16)
  /* the _detail forms are the validation's kernel and an O(1) look */
#define PROBE_DETAIL(enc, S) \
  if (strcmp(op, "validate_" #enc "_detail") == 0) return (any_fn)k->validate_##enc;
  UTFXI_VALIDATIONS(PROBE_DETAIL)
  /* no kernel: the same code on every tier */
  if (strcmp(op, "trim_partial_utf8") == 0) return (any_fn)utfx_trim_partial_utf8;
  if (strcmp(op, "trim_partial_utf16le") == 0) return (any_fn)utfx_trim_partial_utf16le;
  if (strcmp(op, "trim_partial_utf16be") == 0) return (any_fn)utfx_trim_partial_utf16be;
#endif
  if (strcmp(op, "to_well_formed_utf16le") == 0) return (any_fn)k->to_well_formed_utf16le;
  if (strcmp(op, "to_well_formed_utf16be") == 0) return (any_fn)k->to_well_formed_utf16be;
  return NULL;
}

static any_fn entry_of_tier(const char *tier, const char *op) {
  any_fn f;
  const struct utfxi_kernels *k;
  if (utfx_set_implementation(tier) != 0) return NULL;
  k = utfxi_active();
#ifdef UTFXI_KERNELS_HAVE_INNER
  if (k->inner) k = k->inner; /* the kernel, not the tier's entry around it */
#endif
  f = entry(k, op);
  return f;
}

static int same_as_lower(const char *tier, const char *op) {
  const char *tiers[8], *saved = utfx_implementation();
  size_t n = bench_tiers(tiers, 8), i;
  any_fn mine, lower;
  for (i = 0; i + 1 < n; i++)
    if (strcmp(tiers[i], tier) == 0) break;
  if (i + 1 >= n) return 0; /* the lowest tier, or unknown */
  mine = entry_of_tier(tier, op);
  lower = entry_of_tier(tiers[i + 1], op);
  (void)utfx_set_implementation(saved);
  return mine != NULL && mine == lower;
}

void bench_install_kernel_probe(void) { bench_set_kernel_probe(same_as_lower); }
