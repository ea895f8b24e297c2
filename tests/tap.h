/* A minimal TAP producer for the test programs; `prove` is the runner.
 *
 *   CHECK(cond, fmt, ...)  counts a failed check and prints its first few
 *                          diagnostics as TAP comments (millions of cases
 *                          stay one TAP line each);
 *   tap_group(name)        ends the current group: prints "ok N - name" or
 *                          "not ok N - name (K failed checks)";
 *   tap_for_each_impl(fn)  runs fn once per kernel tier this CPU supports,
 *                          with that tier forced, and says which it skips;
 *   tap_done()             prints the plan; its value is main's exit code. */
#ifndef UTFX_TESTS_TAP_H
#define UTFX_TESTS_TAP_H

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "utfx.h"

static int tap_count, tap_failed_groups;
static unsigned long tap_group_failures, tap_checks;

static inline void tap_diag(const char *file, int line, const char *fmt, ...) {
  va_list ap;
  if (tap_group_failures > 10) return;
  printf("#   %s:%d: ", file, line);
  va_start(ap, fmt);
  vprintf(fmt, ap);
  va_end(ap);
  printf("\n");
}

#define CHECK(cond, ...)                                        \
  do {                                                          \
    tap_checks++;                                               \
    if (!(cond)) {                                              \
      tap_group_failures++;                                     \
      tap_diag(__FILE__, __LINE__, __VA_ARGS__);                \
    }                                                           \
  } while (0)

static inline int tap_group(const char *name) {
  int ok = tap_group_failures == 0;
  tap_count++;
  if (ok)
    printf("ok %d - %s [impl %s]\n", tap_count, name, utfx_implementation());
  else
    printf("not ok %d - %s [impl %s] (%lu failed checks)\n", tap_count, name,
           utfx_implementation(), tap_group_failures);
  fflush(stdout);
  tap_failed_groups += !ok;
  tap_group_failures = 0;
  return ok;
}

/* A test that cannot run where it must (a missing oracle) is a failure. */
static inline void tap_fail(const char *name, const char *why) {
  tap_count++;
  tap_failed_groups++;
  printf("not ok %d - %s: %s\n", tap_count, name, why);
  fflush(stdout);
}

/* $UTFX_TEST_IMPLS, when set, names the tiers to run (a comma-separated list;
 * the AVX-512 emulation build runs "avx512,scalar"). */
static inline int tap_impl_selected(const char *name) {
  const char *list = getenv("UTFX_TEST_IMPLS"), *p;
  size_t len = strlen(name);
  if (!list || !*list) return 1;
  for (p = list; (p = strstr(p, name)) != NULL; p += len)
    if ((p == list || p[-1] == ',') && (p[len] == ',' || p[len] == '\0')) return 1;
  return 0;
}

static inline void tap_for_each_impl(void (*suite)(void)) {
  size_t i, n = utfx_implementation_count();
  for (i = 0; i < n; i++) {
    const char *name = utfx_implementation_name(i);
    if (!utfx_implementation_supported(name)) {
      printf("# skipping implementation %s: not supported by this CPU\n", name);
      continue;
    }
    if (!tap_impl_selected(name)) {
      printf("# skipping implementation %s: not in UTFX_TEST_IMPLS\n", name);
      continue;
    }
    if (utfx_set_implementation(name) != 0) {
      tap_fail("utfx_set_implementation", name);
      continue;
    }
    suite();
  }
}

static inline int tap_done(void) {
  printf("1..%d\n# %lu checks\n", tap_count, tap_checks);
  return tap_failed_groups ? 1 : 0;
}

#endif
