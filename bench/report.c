/* Reports of the benchmark engine: the pivot tables (a row per benchmark, a
 * column per implementation), the headline (geometric means per function),
 * the long listing, CSV of the statistics and of every batch, the chart data,
 * and what the numbers were measured on (CPU model, compiler). */
#define _POSIX_C_SOURCE 200809L

#include "engine_internal.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "limit.h"
#include "utfx.h"

static double metric_of(const summary *s, enum metric m) {
  return m == METRIC_GBPS ? s->gbps : m == METRIC_CPNS ? s->cpns : s->median_ns;
}

static const char *metric_label(enum metric m) {
  return m == METRIC_GBPS ? "GB/s of input" : m == METRIC_CPNS ? "characters per ns"
                                                                : "ns per call";
}

/* The pivot column an implementation lands in: simdutf kernels collapse into
 * "simdutf" (the best of them), "limit-read", "limit-rw" and "limit-write"
 * into "limit" (the slowest of them: suite_kernels.c), everything else is its own column. */
static void column_of(const char *impl, char *col, size_t cap) {
  if (strncmp(impl, "simdutf-", 8) == 0) impl = "simdutf";
  if (strncmp(impl, "limit-", 6) == 0) impl = "limit";
  snprintf(col, cap, "%s", impl);
}

typedef struct {
  char names[64][BENCH_IMPL_MAX];
  size_t count;
} columns;

static size_t column_index(columns *c, const char *name, int add) {
  size_t i;
  for (i = 0; i < c->count; i++)
    if (strcmp(c->names[i], name) == 0) return i;
  if (!add || c->count == 64) return (size_t)-1;
  snprintf(c->names[c->count], BENCH_IMPL_MAX, "%s", name);
  return c->count++;
}

/* Rows of one suite in first-registration order. */
static size_t suite_rows(const bench_registry *reg, const char *suite, const char ***rows) {
  size_t i, j, n = 0;
  const char **out = bench_xrealloc(NULL, (reg->count ? reg->count : 1) * sizeof *out);
  for (i = 0; i < reg->count; i++) {
    if (strcmp(reg->res[i].e.suite, suite) != 0 || !reg->res[i].count) continue;
    for (j = 0; j < n; j++)
      if (strcmp(out[j], reg->res[i].e.name) == 0) break;
    if (j == n) out[n++] = reg->res[i].e.name;
  }
  *rows = out;
  return n;
}

/* Column order: memcpy, the limit, utfx's tiers (best first), then the baselines. */
static int column_rank(const char *col) {
  static const char *const order[] = {"memcpy", "limit", "utfx-", "icu", "iconv", "simdutf",
                                      "node"};
  size_t i, t;
  for (i = 0; i < sizeof order / sizeof order[0]; i++)
    if (strncmp(col, order[i], strlen(order[i])) == 0) break;
  if (i == 2)
    for (t = 0; t < utfx_implementation_count() && t < 16; t++)
      if (strcmp(col + 5, utfx_implementation_name(t)) == 0) return 64 + (int)t;
  return 32 * (int)i;
}

static void suite_columns(const bench_registry *reg, const char *suite, columns *cols) {
  size_t i, j;
  char col[BENCH_IMPL_MAX];
  cols->count = 0;
  for (i = 0; i < reg->count; i++) {
    if (strcmp(reg->res[i].e.suite, suite) != 0 || !reg->res[i].count) continue;
    column_of(reg->res[i].e.impl, col, sizeof col);
    column_index(cols, col, 1);
  }
  /* Insertion sort by rank keeps first-appearance order within a rank. */
  for (i = 1; i < cols->count; i++) {
    char tmp[BENCH_IMPL_MAX];
    memcpy(tmp, cols->names[i], sizeof tmp);
    for (j = i; j > 0 && column_rank(cols->names[j - 1]) > column_rank(tmp); j--)
      memcpy(cols->names[j], cols->names[j - 1], sizeof tmp);
    memcpy(cols->names[j], tmp, sizeof tmp);
  }
}

/* Best value of a (row, column) cell (for "limit", the worst: the slowest
 * of reading the input, writing the output and both); NAN when empty. */
static double cell(const bench_registry *reg, const char *suite, const char *row,
                   const char *col_name, enum metric m, double *spread) {
  size_t i;
  char col[BENCH_IMPL_MAX];
  double best = NAN;
  int worst = strcmp(col_name, "limit") == 0;
  for (i = 0; i < reg->count; i++) {
    const bench_result *r = &reg->res[i];
    summary s;
    double v;
    if (!r->count || strcmp(r->e.suite, suite) || strcmp(r->e.name, row)) continue;
    column_of(r->e.impl, col, sizeof col);
    if (strcmp(col, col_name)) continue;
    s = bench_summarize(r);
    v = metric_of(&s, m);
    if (isnan(best) || ((m == METRIC_NS) != worst ? v < best : v > best)) {
      best = v;
      if (spread) *spread = s.spread_pct;
    }
  }
  return best;
}


/* The distinct functions (the part of a row name before '/') of rows, in
 * order, at most 64; *width grows to the longest when given. */
static size_t row_functions(const char **rows, size_t nrows, char funcs[64][BENCH_NAME_MAX],
                            size_t *width) {
  size_t i, j, nf = 0;
  for (i = 0; i < nrows; i++) {
    char func[BENCH_NAME_MAX];
    const char *input;
    bench_split_name(rows[i], func, sizeof func, &input);
    for (j = 0; j < nf; j++)
      if (strcmp(funcs[j], func) == 0) break;
    if (j == nf && nf < 64) {
      snprintf(funcs[nf++], BENCH_NAME_MAX, "%s", func);
      if (width && strlen(func) > *width) *width = strlen(func);
    }
  }
  return nf;
}

/* The small suite is about the cost of a call: its tables are in ns. */
static enum metric suite_metric(const char *suite, enum metric m) {
  return strcmp(suite, "small") == 0 ? METRIC_NS : m;
}

/* Each cell's fraction of its row's limit; NAN without one. */
static double of_limit(const bench_registry *reg, const char *suite, const char *row,
                       const char *col) {
  double limit = cell(reg, suite, row, "limit", METRIC_GBPS, NULL);
  return limit > 0 ? cell(reg, suite, row, col, METRIC_GBPS, NULL) / limit : NAN;
}

/* A suite with a limit column gets a second table: every contestant's
 * fraction of the limit (1.00 = as fast as the machine allows). */
static void print_limit_fractions(const bench_registry *reg, FILE *out, const char *suite,
                                  const char **rows, size_t nrows, size_t width,
                                  const columns *cols) {
  size_t i, j;
  int has_limit = 0;
  for (j = 0; j < cols->count; j++) has_limit |= strcmp(cols->names[j], "limit") == 0;
  if (!has_limit) return;
  fprintf(out, "\n%s: fraction of the limit (input bytes / the slowest of reading the input "
               "once with %s loads, memcpy of the output, and both at once)\n", suite,
          bench_read_width());
  fprintf(out, "%-*s", (int)width, "benchmark");
  for (j = 0; j < cols->count; j++)
    if (strcmp(cols->names[j], "limit") && strcmp(cols->names[j], "memcpy"))
      fprintf(out, " %14s", cols->names[j]);
  fputc('\n', out);
  for (i = 0; i < nrows; i++) {
    fprintf(out, "%-*s", (int)width, rows[i]);
    for (j = 0; j < cols->count; j++) {
      double f;
      if (!strcmp(cols->names[j], "limit") || !strcmp(cols->names[j], "memcpy")) continue;
      f = of_limit(reg, suite, rows[i], cols->names[j]);
      if (isnan(f))
        fprintf(out, " %14s", "-");
      else
        fprintf(out, " %14.2f", f);
    }
    fputc('\n', out);
  }
}

void bench_print_pivot(const bench_registry *reg, FILE *out, enum metric metric) {
  size_t si;
  for (si = 0; si < bench_suite_count(); si++) {
    const char *suite = bench_suite_name(si), **rows;
    enum metric m = suite_metric(suite, metric);
    size_t nrows = suite_rows(reg, suite, &rows), i, j, width = 4;
    columns cols;
    int any_simdutf = 0;
    if (!nrows) {
      free(rows);
      continue;
    }
    suite_columns(reg, suite, &cols);
    for (i = 0; i < nrows; i++)
      if (strlen(rows[i]) > width) width = strlen(rows[i]);
    fprintf(out, "\n%s: %s, median (+-MAD %%)\n", suite, metric_label(m));
    fprintf(out, "%-*s", (int)width, "benchmark");
    for (j = 0; j < cols.count; j++) {
      fprintf(out, " %14s", cols.names[j]);
      any_simdutf |= strcmp(cols.names[j], "simdutf") == 0;
    }
    fputc('\n', out);
    for (i = 0; i < nrows; i++) {
      fprintf(out, "%-*s", (int)width, rows[i]);
      for (j = 0; j < cols.count; j++) {
        double spread = 0, v = cell(reg, suite, rows[i], cols.names[j], m, &spread);
        char buf[64];
        if (isnan(v))
          snprintf(buf, sizeof buf, "-");
        else
          snprintf(buf, sizeof buf, "%.3g +-%.0f%%", v, spread);
        fprintf(out, " %14s", buf);
      }
      fputc('\n', out);
    }
    if (any_simdutf) fprintf(out, "(simdutf: the best of its kernels; --long lists each)\n");
    print_limit_fractions(reg, out, suite, rows, nrows, width, &cols);
    free(rows);
  }
}

/* The headline: per suite, one row per function (the part of the row name
 * before the first '/'), the geometric mean over its inputs of each column's
 * median. Inputs a column lacks are left out of its mean; the count says how
 * many went in. */
void bench_print_headline(const bench_registry *reg, FILE *out, enum metric metric) {
  size_t si;
  for (si = 0; si < bench_suite_count(); si++) {
    const char *suite = bench_suite_name(si), **rows;
    enum metric m = suite_metric(suite, metric);
    size_t nrows = suite_rows(reg, suite, &rows), i, j, nf = 0, width = 10;
    char funcs[64][BENCH_NAME_MAX];
    columns cols;
    if (!nrows) {
      free(rows);
      continue;
    }
    suite_columns(reg, suite, &cols);
    nf = row_functions(rows, nrows, funcs, &width);
    fprintf(out, "\nHEADLINE %s: %s, geometric mean over the inputs (count)\n", suite,
            metric_label(m));
    fprintf(out, "%-*s", (int)width, "function");
    for (j = 0; j < cols.count; j++) fprintf(out, " %14s", cols.names[j]);
    fputc('\n', out);
    for (i = 0; i < nf; i++) {
      fprintf(out, "%-*s", (int)width, funcs[i]);
      for (j = 0; j < cols.count; j++) {
        double logsum = 0;
        size_t count = 0, r;
        char buf[64];
        for (r = 0; r < nrows; r++) {
          char func[BENCH_NAME_MAX];
          const char *input;
          double v;
          bench_split_name(rows[r], func, sizeof func, &input);
          if (strcmp(func, funcs[i])) continue;
          v = cell(reg, suite, rows[r], cols.names[j], m, NULL);
          if (isnan(v) || v <= 0) continue;
          logsum += log(v);
          count++;
        }
        if (count)
          snprintf(buf, sizeof buf, "%.3g (%zu)", exp(logsum / (double)count), count);
        else
          snprintf(buf, sizeof buf, "-");
        fprintf(out, " %14s", buf);
      }
      fputc('\n', out);
    }
    free(rows);
  }
}

void bench_print_long(const bench_registry *reg, FILE *out) {
  size_t i, width = 10;
  for (i = 0; i < reg->count; i++)
    if (strlen(reg->res[i].e.name) > width) width = strlen(reg->res[i].e.name);
  fprintf(out, "\n%-8s %-*s %-18s %10s %7s %9s %9s %8s\n", "suite", (int)width, "benchmark",
          "impl", "ns/call", "+-MAD%", "GB/s", "chars/ns", "samples");
  for (i = 0; i < reg->count; i++) {
    const bench_result *r = &reg->res[i];
    summary s;
    if (!r->count) continue;
    s = bench_summarize(r);
    fprintf(out, "%-8s %-*s %-18s %10.1f %7.1f %9.3f %9.3f %8zu\n", r->e.suite, (int)width,
            r->e.name, r->e.impl, s.median_ns, s.spread_pct, s.gbps, s.cpns, r->count);
  }
}

/* ---- what the numbers were measured on ---------------------------------- */

/* No commas: the values go into CSV fields as they are. */
static void no_commas(char *p) {
  for (; *p; p++)
    if (*p == ',') *p = ';';
}

/* The CPU model with its family / model numbers (x86: "AMD EPYC (family 25
 * model 17)", from /proc/cpuinfo; a VM may show a short brand only), or
 * "unknown". */
const char *bench_cpu_model(void) {
  static char model[192];
  char line[512], brand[128] = "", family[16] = "", number[16] = "";
  FILE *f;
  if (model[0]) return model;
  f = fopen("/proc/cpuinfo", "r");
  while (f && fgets(line, sizeof line, f) && line[0] != '\n') {
    char *colon = strchr(line, ':'), *v;
    if (!colon) continue;
    v = colon + 1 + (colon[1] == ' ');
    v[strcspn(v, "\n")] = '\0';
    if (strncmp(line, "model name", 10) == 0 || strncmp(line, "Model", 5) == 0)
      snprintf(brand, sizeof brand, "%s", v);
    else if (strncmp(line, "cpu family", 10) == 0)
      snprintf(family, sizeof family, "%s", v);
    else if (strncmp(line, "model\t", 6) == 0)
      snprintf(number, sizeof number, "%s", v);
  }
  if (f) fclose(f);
  if (family[0])
    snprintf(model, sizeof model, "%s (family %s model %s)", brand[0] ? brand : "unknown",
             family, number);
  else
    snprintf(model, sizeof model, "%s", brand[0] ? brand : "unknown");
  no_commas(model);
  return model;
}

/* The compiler of this harness; the Makefile builds the library with the same
 * $(CC). */
const char *bench_compiler_name(void) {
  static char name[128];
#if defined(__clang__)
  snprintf(name, sizeof name, "clang %s", __clang_version__);
#elif defined(__GNUC__)
  snprintf(name, sizeof name, "gcc %s", __VERSION__);
#else
  snprintf(name, sizeof name, "unknown compiler");
#endif
  no_commas(name);
  return name;
}

int bench_write_csv(const bench_registry *reg, const char *path) {
  FILE *f = fopen(path, "w");
  size_t i;
  if (!f) {
    fprintf(stderr, "utfx-bench: cannot write %s: %s\n", path, strerror(errno));
    return -1;
  }
  fprintf(f, "suite,name,impl,bytes,chars,samples,iters,median_ns,mad_ns,min_ns,max_ns,"
             "gbps,chars_per_ns,spread_pct,utfx_version,cpu,compiler,limit_gbps,of_limit\n");
  for (i = 0; i < reg->count; i++) {
    const bench_result *r = &reg->res[i];
    summary s;
    double limit;
    if (!r->count) continue;
    s = bench_summarize(r);
    limit = cell(reg, r->e.suite, r->e.name, "limit", METRIC_GBPS, NULL);
    fprintf(f, "%s,%s,%s,%.0f,%.0f,%zu,%zu,%.4f,%.4f,%.4f,%.4f,%.5f,%.5f,%.2f,%s,%s,%s,",
            r->e.suite, r->e.name, r->e.impl, r->e.bytes, r->e.chars, r->count, r->iters,
            s.median_ns, s.mad_ns, s.min_ns, s.max_ns, s.gbps, s.cpns, s.spread_pct,
            utfx_version(), bench_cpu_model(), bench_compiler_name());
    if (isnan(limit))
      fprintf(f, ",\n");
    else
      fprintf(f, "%.5f,%.4f\n", limit, s.gbps / limit);
  }
  return fclose(f);
}

int bench_write_raw(const bench_registry *reg, const char *path) {
  FILE *f = fopen(path, "w");
  size_t i, k;
  if (!f) {
    fprintf(stderr, "utfx-bench: cannot write %s: %s\n", path, strerror(errno));
    return -1;
  }
  fprintf(f, "suite,name,impl,sample,iters,ns_per_call\n");
  for (i = 0; i < reg->count; i++)
    for (k = 0; k < reg->res[i].count; k++)
      fprintf(f, "%s,%s,%s,%zu,%zu,%.4f\n", reg->res[i].e.suite, reg->res[i].e.name,
              reg->res[i].e.impl, k, reg->res[i].iters, reg->res[i].ns[k]);
  return fclose(f);
}

/* Chart data for gnuplot: one block per kernel function (blocks separated by
 * two blank lines), a row per input, a column per pivot column, GB/s. */
int bench_write_plot_data(const bench_registry *reg, const char *path) {
  const char **rows;
  size_t nrows = suite_rows(reg, "kernels", &rows), i, j, nf = 0;
  char funcs[64][BENCH_NAME_MAX];
  columns cols;
  FILE *f;
  if (!nrows) {
    free(rows);
    return 0;
  }
  f = fopen(path, "w");
  if (!f) {
    free(rows);
    fprintf(stderr, "utfx-bench: cannot write %s: %s\n", path, strerror(errno));
    return -1;
  }
  suite_columns(reg, "kernels", &cols);
  nf = row_functions(rows, nrows, funcs, NULL);
  fprintf(f, "# funcs:");
  for (j = 0; j < nf; j++) fprintf(f, " %s", funcs[j]);
  fprintf(f, "\n# utfx %s, GB/s of input (median)\n", utfx_version());
  for (j = 0; j < nf; j++) {
    size_t c;
    if (j) fprintf(f, "\n\n");
    fprintf(f, "input");
    for (c = 0; c < cols.count; c++) fprintf(f, "\t%s", cols.names[c]);
    fputc('\n', f);
    for (i = 0; i < nrows; i++) {
      char func[BENCH_NAME_MAX];
      const char *input;
      bench_split_name(rows[i], func, sizeof func, &input);
      if (strcmp(func, funcs[j])) continue;
      fprintf(f, "%s", input);
      for (c = 0; c < cols.count; c++) {
        double v = cell(reg, "kernels", rows[i], cols.names[c], METRIC_GBPS, NULL);
        if (isnan(v))
          fprintf(f, "\t-");
        else
          fprintf(f, "\t%.4f", v);
      }
      fputc('\n', f);
    }
  }
  free(rows);
  return fclose(f);
}
