/* The utfx benchmark engine: a registry of benchmarks, a timing loop, robust
 * statistics, Welch's t-test for comparisons, and table / CSV output, in
 * registry.c, timing.c, stats.c, report.c, compare.c and options.c (what
 * they share: engine_internal.h).
 *
 * A benchmark is one (suite, name, implementation) triple with a `run`
 * callback that performs the operation `iters` times. The engine warms it up,
 * sizes a batch so that one batch lasts at least --batch-ms (far above the
 * timer's resolution), times --samples batches and keeps the time per call of
 * each batch. Results are reported as the median with the median absolute
 * deviation as spread, in GB/s of input and characters per nanosecond.
 *
 * The engine uses the public API of utfx only (utfx.h), so the `utfx bench`
 * subcommand of the CLI can link it as is; the only entry point it needs is
 * utfx_bench_main(). A program that may use library internals can install a
 * kernel probe (bench_set_kernel_probe) to skip tiers that run the very same
 * kernel as a lower tier. */
#ifndef UTFX_BENCH_ENGINE_H
#define UTFX_BENCH_ENGINE_H

#include <stddef.h>

/* Runs the harness with command-line arguments (see --help); returns the exit
 * status. argv[0] is used in messages only. */
int utfx_bench_main(int argc, char **argv);

/* ---- what suites see ---------------------------------------------------- */

#define BENCH_NAME_MAX 96
#define BENCH_IMPL_MAX 32

typedef struct bench_entry bench_entry;
struct bench_entry {
  char suite[16];                  /* "kernels", "small", "decode", "encode" */
  char name[BENCH_NAME_MAX];       /* row name: "function/input" */
  char impl[BENCH_IMPL_MAX];       /* column: "utfx-avx2", "icu", "memcpy", "node-write" */
  char tier[16];                   /* utfx tier selected before running, or "" */
  double bytes;                    /* input bytes per call */
  double chars;                    /* characters (code points) per call */
  /* Performs the operation iters times; returns a value that the engine sinks
   * so the compiler cannot drop the work. */
  size_t (*run)(void *ctx, size_t iters);
  void *ctx;
};

/* Options every suite may read. */
typedef struct {
  int tiny;           /* smoke mode: tiny inputs, one sample */
  int wall_clock;     /* time with the wall clock instead of thread CPU time */
  int all_tiers;      /* measure tiers even when they run the same kernel as a lower tier */
  const char *data_dir;  /* corpus: every *.utf8.txt in it ... */
  const char **files; /* ... or, when given (--file), these UTF-8 files only */
  size_t nfiles;
  const char *node_script;
  const char *node;   /* node executable */
  double samples, batch_ms, warmup_ms;
  const char *small_lengths; /* --small-lengths: "0-64,100", or NULL */
  /* --placement (kernels and small suites, utfx contestants): 0 heap, else
   * bit 1 the source and bit 2 the destination end just before a PROT_NONE
   * page (a destination then has the exact output's size). */
  int placement;
  /* --dst-offset: the kernels suite's (destination - source) mod 4096, or
   * -1: an entry of a fixed set per process / compare round. */
  int dst_offset;
} bench_options;

typedef struct bench_registry bench_registry;

/* The placement index of a child process (--processes: its number;
 * --compare: the round), in this environment variable: the kernels suite's
 * (dst - src) mod 4096 is the index's entry of a fixed set
 * (suite_kernels.c, dst_offsets). */
#define BENCH_PLACE_ENV "UTFX_BENCH_PLACE"

/* Adds a benchmark (copied). Entries that the --func/--input/--impl filters
 * exclude are dropped here, so suites may register freely. */
void bench_add(bench_registry *reg, const bench_entry *e);
/* Memory that lives until the engine finishes (zeroed); aborts when out of
 * memory, as benchmarks cannot run without their inputs. */
void *bench_alloc(bench_registry *reg, size_t size);
/* 1 if a benchmark with this function/input/impl would pass the filters
 * (lets suites skip building inputs nobody asked for). NULL matches all. */
int bench_wanted(const bench_registry *reg, const char *suite, const char *func,
                 const char *input, const char *impl);
/* Runs fn(arg) when the engine finishes (closing converters, descriptors). */
void bench_at_end(bench_registry *reg, void (*fn)(void *), void *arg);
const bench_options *bench_opts(const bench_registry *reg);
/* The raw --func ('f'), --input ('i') or --impl ('m') glob list, or NULL. */
const char *bench_filter(const bench_registry *reg, char which);

/* Adds measured samples from outside (the node suite): ns per call. */
void bench_add_external(bench_registry *reg, const bench_entry *e, const double *ns,
                        size_t count);

/* The utfx tiers this CPU runs, best first ("avx512", "avx2", "scalar"). */
size_t bench_tiers(const char **names, size_t cap);

/* Kernel probe: returns 1 if `tier` runs exactly the same kernel for `op`
 * (a public function name without the utfx_ prefix) as the next lower
 * supported tier, so measuring it again would only repeat that tier. */
typedef int (*bench_kernel_probe)(const char *tier, const char *op);
void bench_set_kernel_probe(bench_kernel_probe probe);
/* 1 if the tier should be measured for op (always 1 without a probe). */
int bench_tier_distinct(const bench_options *opt, const char *tier, const char *op);

/* A suite registers its benchmarks. The front end (bench/main.c, the CLI's
 * `utfx bench`) registers the suites before utfx_bench_main, in the order
 * their tables print; --suite selects by name. A suite with after_timing set
 * runs after the engine timed the others (the node suite, which measures in
 * a process of its own and adds its samples with bench_add_external). */
void bench_register_suite(const char *name, void (*fn)(bench_registry *reg), int after_timing);
/* The suites of bench/suite_*.c; bench_register_standard_suites registers
 * them all, in the usual order (kernels, small, decode, encode, node). */
void bench_register_standard_suites(void);
void bench_suite_kernels(bench_registry *reg);
void bench_suite_small(bench_registry *reg);
void bench_suite_decode(bench_registry *reg);
void bench_suite_encode(bench_registry *reg);
void bench_suite_node(bench_registry *reg);
void bench_suite_base64(bench_registry *reg);

/* Reads a whole file (bench_alloc'd, NUL-terminated); NULL if unreadable. */
char *bench_read_file(bench_registry *reg, const char *path, size_t *len);

/* Statistics (exposed for the smoke test and the CLI). */
double bench_median(double *v, size_t n); /* sorts v */
/* Two-sided p-value of Welch's t-test for the means of a and b. */
double bench_welch_p(const double *a, size_t na, const double *b, size_t nb);
/* Regularised incomplete beta function I_x(a, b). */
double bench_ibeta(double x, double a, double b);

#endif
