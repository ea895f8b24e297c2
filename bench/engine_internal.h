/* What the parts of the benchmark engine share (the engine files of bench/:
 * registry.c, timing.c, stats.c, report.c, compare.c, processes.c, options.c,
 * limit.c); not for
 * suites, which see engine.h only. */
#ifndef UTFX_BENCH_ENGINE_INTERNAL_H
#define UTFX_BENCH_ENGINE_INTERNAL_H

#include <stddef.h>
#include <stdio.h>

#include "engine.h"

typedef struct {
  bench_entry e;
  double *ns;     /* ns per call, one per timed batch */
  size_t count;
  size_t iters;   /* calls per batch */
} bench_result;

struct bench_registry {
  bench_options opt;
  const char *suites, *funcs, *inputs, *impls; /* comma-separated glob lists */
  bench_result *res;
  size_t count, cap;
  void **blocks;
  size_t nblocks, blocks_cap;
  struct {
    void (*fn)(void *);
    void *arg;
  } at_end[64];
  size_t n_at_end;
};

typedef struct {
  double median_ns, mad_ns, min_ns, max_ns, gbps, cpns, spread_pct;
} summary;

enum metric { METRIC_GBPS, METRIC_CPNS, METRIC_NS };

/* registry.c */
void *bench_xrealloc(void *p, size_t size); /* exits when out of memory */
/* "function/input" into its parts. */
void bench_split_name(const char *name, char *func, size_t cap, const char **input);
/* The registered suites, in registration order. */
size_t bench_suite_count(void);
const char *bench_suite_name(size_t i);
/* Runs the suites registered with the given `after_timing` flag. */
void bench_run_suites(bench_registry *reg, int after_timing);

/* timing.c */
void bench_use_wall_clock(int wall);
void bench_measure(bench_result *r, const bench_options *opt);

/* stats.c (with bench_median, bench_welch_p, bench_ibeta of engine.h) */
summary bench_summarize(const bench_result *r);
void bench_mean_var(const double *v, size_t n, double *mean, double *var);
const char *bench_stars(double p); /* "*", "**", "***" for p < 0.05, 0.01, 0.001 */
int bench_selftest(void);

/* report.c */
void bench_print_pivot(const bench_registry *reg, FILE *out, enum metric metric);
void bench_print_headline(const bench_registry *reg, FILE *out, enum metric metric);
void bench_print_long(const bench_registry *reg, FILE *out);
const char *bench_cpu_model(void);
const char *bench_compiler_name(void);
int bench_write_csv(const bench_registry *reg, const char *path);
int bench_write_raw(const bench_registry *reg, const char *path);
int bench_write_plot_data(const bench_registry *reg, const char *path);

/* compare.c */
int bench_compare_csv(const char *old_csv, const char *new_csv);
int bench_compare_binaries(const char *old_list, const char *new_list, int rounds, char **pass,
                           size_t npass, const char *csv_out);
/* Runs `bin` with the options pass plus --quiet and `out_flag out_file`
 * (--csv or --raw); returns its exit status (-1: it did not run or died). */
int bench_run_child(const char *bin, char **pass, size_t npass, const char *out_flag,
                    const char *out_file);

/* processes.c: the registered benchmarks timed in n fresh processes of this
 * harness (--processes), their batches pooled into reg's results. */
int bench_time_in_processes(bench_registry *reg, int n, char **pass, size_t npass);
/* 1 in such a child: the suites that run after the timing (Node's, in a
 * process of its own anyway) are the parent's. */
int bench_is_child(void);
/* Sets BENCH_PLACE_ENV (engine.h) for the children to come. */
void bench_set_place(int index);

#endif
