/* Stand-in for baselines_icu_iconv.c in programs that link the engine without
 * ICU (the utfx CLI's `bench` subcommand): no ICU or iconv columns. */
#include "suites.h"

int bench_icu_op(bench_registry *reg, const char *op, bench_call *call) {
  (void)reg, (void)op, (void)call;
  return -1;
}

int bench_iconv_op(bench_registry *reg, const char *op, bench_call *call) {
  (void)reg, (void)op, (void)call;
  return -1;
}
