/* Test sizes for the AVX-512 emulation run.
 *
 * `make test-avx512-emu` runs the test programs with the avx512 kernels
 * emulated in plain C (tests/emu/avx512_emu.h), several times slower than
 * hardware, and sets UTFX_TEST_EMULATED=1. Tests whose full size would take
 * minutes there keep the same kinds of input but take a deterministic share
 * of them: test_keep(k, every) keeps one k in `every` under emulation and
 * every k otherwise. UTFX_SANITIZED=1 (the sanitizer pass) doubles `every`. */
#ifndef UTFX_TESTS_SUPPORT_EMULATED_H
#define UTFX_TESTS_SUPPORT_EMULATED_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static inline int test_env_flag(const char *name) {
  const char *v = getenv(name);
  return v && *v && strcmp(v, "0") != 0;
}

/* 1 when the run is on emulated kernels (read once). */
static inline int test_emulated(void) {
  static int emulated = -1;
  if (emulated < 0) emulated = test_env_flag("UTFX_TEST_EMULATED");
  return emulated;
}

/* How many k share one kept k: 1 normally, `every` (twice that in the
 * sanitizer pass) under emulation. */
static inline size_t test_share(size_t every) {
  static int sanitized = -1;
  if (!test_emulated() || every <= 1) return 1;
  if (sanitized < 0) sanitized = test_env_flag("UTFX_SANITIZED");
  return sanitized ? 2 * every : every;
}

/* Whether to run case k: all normally, one in test_share(every) under
 * emulation, picked by a multiplicative hash of k so that the kept cases do
 * not all share their low bits (k = a code point, a length, an offset). */
static inline int test_keep(size_t k, size_t every) {
  size_t share = test_share(every);
  return share == 1 || ((uint32_t)((uint32_t)k * 2654435761u) >> 8) % share == 0;
}

#endif
