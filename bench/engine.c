/* The benchmark engine: options, registry, timing loop, statistics, tables,
 * CSV, and the compare mode. See engine.h for the model. Public API only. */
#define _POSIX_C_SOURCE 200809L

#include "engine.h"

#include <errno.h>
#include <fnmatch.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "utfx.h"

#ifndef UTFX_BENCH_SRC_DIR
#define UTFX_BENCH_SRC_DIR "bench"
#endif

/* ---- registry ----------------------------------------------------------- */

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

static bench_kernel_probe kernel_probe;

void bench_set_kernel_probe(bench_kernel_probe probe) { kernel_probe = probe; }

static void *xrealloc(void *p, size_t size) {
  void *q = realloc(p, size ? size : 1);
  if (!q) {
    fprintf(stderr, "utfx-bench: out of memory\n");
    exit(2);
  }
  return q;
}

void *bench_alloc(bench_registry *reg, size_t size) {
  void *p = xrealloc(NULL, size);
  memset(p, 0, size);
  if (reg->nblocks == reg->blocks_cap) {
    reg->blocks_cap = reg->blocks_cap ? 2 * reg->blocks_cap : 64;
    reg->blocks = xrealloc(reg->blocks, reg->blocks_cap * sizeof *reg->blocks);
  }
  reg->blocks[reg->nblocks++] = p;
  return p;
}

void bench_at_end(bench_registry *reg, void (*fn)(void *), void *arg) {
  if (reg->n_at_end == sizeof reg->at_end / sizeof reg->at_end[0]) {
    fprintf(stderr, "utfx-bench: too many cleanups\n");
    exit(2);
  }
  reg->at_end[reg->n_at_end].fn = fn;
  reg->at_end[reg->n_at_end++].arg = arg;
}

const bench_options *bench_opts(const bench_registry *reg) { return &reg->opt; }

const char *bench_filter(const bench_registry *reg, char which) {
  return which == 'f' ? reg->funcs : which == 'i' ? reg->inputs : reg->impls;
}

/* 1 if s matches one of the comma-separated globs (an empty or NULL list
 * matches everything). */
static int match_list(const char *list, const char *s) {
  char pat[128];
  const char *p = list;
  if (!list || !*list) return 1;
  if (!s) return 1;
  while (*p) {
    size_t len = strcspn(p, ",");
    if (len < sizeof pat) {
      memcpy(pat, p, len);
      pat[len] = '\0';
      if (fnmatch(pat, s, 0) == 0) return 1;
    }
    p += len;
    if (*p == ',') p++;
  }
  return 0;
}

/* A family name selects all its members: "simdutf" matches simdutf-haswell,
 * "utfx" every tier, "node" every node row. */
static int match_impl(const char *list, const char *impl) {
  char family[BENCH_IMPL_MAX];
  size_t len;
  if (match_list(list, impl)) return 1;
  len = strcspn(impl, "-");
  if (len >= sizeof family || impl[len] != '-') return 0;
  memcpy(family, impl, len);
  family[len] = '\0';
  return match_list(list, family);
}

int bench_wanted(const bench_registry *reg, const char *suite, const char *func,
                 const char *input, const char *impl) {
  return match_list(reg->suites, suite) && match_list(reg->funcs, func) &&
         match_list(reg->inputs, input) && (!impl || match_impl(reg->impls, impl));
}

static void split_name(const char *name, char *func, size_t cap, const char **input) {
  size_t len = strcspn(name, "/");
  if (len >= cap) len = cap - 1;
  memcpy(func, name, len);
  func[len] = '\0';
  *input = name[len] == '/' ? name + len + 1 : "";
}

/* Node's rows belong to the decode / encode tables but are selected by the
 * "node" suite. */
static int entry_wanted(const bench_registry *reg, const bench_entry *e) {
  char func[BENCH_NAME_MAX];
  const char *input;
  split_name(e->name, func, sizeof func, &input);
  if (strncmp(e->impl, "node", 4) == 0)
    return match_list(reg->suites, "node") && bench_wanted(reg, NULL, func, input, e->impl);
  return bench_wanted(reg, e->suite, func, input, e->impl);
}

static bench_result *push_result(bench_registry *reg, const bench_entry *e) {
  bench_result *r;
  if (reg->count == reg->cap) {
    reg->cap = reg->cap ? 2 * reg->cap : 256;
    reg->res = xrealloc(reg->res, reg->cap * sizeof *reg->res);
  }
  r = &reg->res[reg->count++];
  memset(r, 0, sizeof *r);
  r->e = *e;
  return r;
}

void bench_add(bench_registry *reg, const bench_entry *e) {
  if (entry_wanted(reg, e)) push_result(reg, e);
}

void bench_add_external(bench_registry *reg, const bench_entry *e, const double *ns,
                        size_t count) {
  bench_result *r;
  if (!entry_wanted(reg, e) || count == 0) return;
  r = push_result(reg, e);
  r->e.run = NULL;
  r->ns = xrealloc(NULL, count * sizeof *ns);
  memcpy(r->ns, ns, count * sizeof *ns);
  r->count = count;
  r->iters = 0;
}

size_t bench_tiers(const char **names, size_t cap) {
  size_t i, k = 0, n = utfx_implementation_count();
  for (i = 0; i < n; i++) {
    const char *name = utfx_implementation_name(i);
    if (utfx_implementation_supported(name) && k < cap) names[k++] = name;
  }
  return k;
}

int bench_tier_distinct(const bench_options *opt, const char *tier, const char *op) {
  if (opt->all_tiers || !kernel_probe || strcmp(tier, "scalar") == 0) return 1;
  return !kernel_probe(tier, op);
}

char *bench_read_file(bench_registry *reg, const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  char *buf = NULL;
  size_t size = 0, cap = 0, got;
  if (!f) return NULL;
  do {
    if (size + 65536 > cap) {
      cap = cap ? 2 * cap : 262144;
      buf = xrealloc(buf, cap + 1);
    }
    got = fread(buf + size, 1, cap - size, f);
    size += got;
  } while (got > 0);
  fclose(f);
  {
    char *out = bench_alloc(reg, size + 1);
    if (size) memcpy(out, buf, size);
    out[size] = '\0';
    free(buf);
    *len = size;
    return out;
  }
}

/* ---- statistics --------------------------------------------------------- */

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

double bench_median(double *v, size_t n) {
  if (n == 0) return NAN;
  qsort(v, n, sizeof *v, cmp_double);
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* Median absolute deviation from the median (a robust spread). */
static double mad(const double *v, size_t n, double med) {
  double *d = xrealloc(NULL, (n ? n : 1) * sizeof *d), m;
  size_t i;
  for (i = 0; i < n; i++) d[i] = fabs(v[i] - med);
  m = bench_median(d, n);
  free(d);
  return m;
}

/* Continued fraction of the incomplete beta function (modified Lentz). */
static double ibeta_cf(double x, double a, double b) {
  const double tiny = 1e-300, eps = 1e-15;
  double c = 1, d = 1 - (a + b) * x / (a + 1), h;
  int m;
  if (fabs(d) < tiny) d = tiny;
  d = 1 / d;
  h = d;
  for (m = 1; m <= 1000; m++) {
    double num = m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m)), delta;
    d = 1 + num * d;
    c = 1 + num / c;
    if (fabs(d) < tiny) d = tiny;
    if (fabs(c) < tiny) c = tiny;
    d = 1 / d;
    h *= d * c;
    num = -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1));
    d = 1 + num * d;
    c = 1 + num / c;
    if (fabs(d) < tiny) d = tiny;
    if (fabs(c) < tiny) c = tiny;
    d = 1 / d;
    delta = d * c;
    h *= delta;
    if (fabs(delta - 1) < eps) break;
  }
  return h;
}

double bench_ibeta(double x, double a, double b) {
  double front;
  if (x <= 0) return 0;
  if (x >= 1) return 1;
  front = exp(lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) + b * log1p(-x));
  /* The fraction converges fast on this side of the mean; use symmetry else. */
  if (x < (a + 1) / (a + b + 2)) return front * ibeta_cf(x, a, b) / a;
  return 1 - front * ibeta_cf(1 - x, b, a) / b;
}

static void mean_var(const double *v, size_t n, double *mean, double *var) {
  double s = 0, ss = 0;
  size_t i;
  for (i = 0; i < n; i++) s += v[i];
  *mean = s / (double)n;
  for (i = 0; i < n; i++) ss += (v[i] - *mean) * (v[i] - *mean);
  *var = n > 1 ? ss / (double)(n - 1) : 0;
}

/* Welch's unequal-variance t-test; p = P(|T| >= |t|) with the Welch-
 * Satterthwaite degrees of freedom, via the Student t CDF
 * P(|T| >= t) = I_{df / (df + t^2)}(df / 2, 1 / 2). */
double bench_welch_p(const double *a, size_t na, const double *b, size_t nb) {
  double ma, va, mb, vb, sa, sb, se2, t, df;
  if (na < 2 || nb < 2) return NAN;
  mean_var(a, na, &ma, &va);
  mean_var(b, nb, &mb, &vb);
  sa = va / (double)na;
  sb = vb / (double)nb;
  se2 = sa + sb;
  if (se2 <= 0) return ma == mb ? 1.0 : 0.0;
  t = (ma - mb) / sqrt(se2);
  df = se2 * se2 / (sa * sa / (double)(na - 1) + sb * sb / (double)(nb - 1));
  return bench_ibeta(df / (df + t * t), df / 2, 0.5);
}

static const char *stars(double p) {
  if (isnan(p)) return "";
  return p < 0.001 ? "***" : p < 0.01 ? "**" : p < 0.05 ? "*" : "";
}

/* ---- timing ------------------------------------------------------------- */

/* CPU time of this thread by default: on a shared machine, time spent
 * descheduled is not the code's cost (wall time is --clock wall). */
static clockid_t bench_clock = CLOCK_THREAD_CPUTIME_ID;

static double now_ns(void) {
  struct timespec ts;
  clock_gettime(bench_clock, &ts);
  return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static volatile size_t sink;

static void measure(bench_result *r, const bench_options *opt) {
  double batch_ns = opt->batch_ms * 1e6, t0, t, start;
  size_t iters = 1, i, samples = (size_t)opt->samples;
  if (r->e.tier[0] && utfx_set_implementation(r->e.tier) != 0) {
    fprintf(stderr, "utfx-bench: cannot select tier %s\n", r->e.tier);
    return;
  }
  /* Warm-up doubles as calibration: grow the batch until it lasts batch_ms,
   * and keep running for at least warmup_ms. */
  start = now_ns();
  for (;;) {
    t0 = now_ns();
    sink += r->e.run(r->e.ctx, iters);
    t = now_ns() - t0;
    if (t < batch_ns && iters < ((size_t)1 << 40)) {
      double grow = t > 0 ? batch_ns / t * 1.2 : 16;
      iters = (size_t)((double)iters * (grow > 16 ? 16 : grow < 2 ? 2 : grow));
      continue;
    }
    if (now_ns() - start >= opt->warmup_ms * 1e6) break;
  }
  r->iters = iters;
  r->ns = xrealloc(NULL, (samples ? samples : 1) * sizeof *r->ns);
  for (i = 0; i < samples; i++) {
    t0 = now_ns();
    sink += r->e.run(r->e.ctx, iters);
    t = now_ns() - t0;
    r->ns[i] = t / (double)iters;
  }
  r->count = samples;
}

/* ---- summaries ---------------------------------------------------------- */

typedef struct {
  double median_ns, mad_ns, min_ns, max_ns, gbps, cpns, spread_pct;
} summary;

static summary summarize(const bench_result *r) {
  summary s;
  double *v = xrealloc(NULL, (r->count ? r->count : 1) * sizeof *v);
  memset(&s, 0, sizeof s);
  if (r->count) memcpy(v, r->ns, r->count * sizeof *v);
  s.median_ns = bench_median(v, r->count);
  s.min_ns = r->count ? v[0] : NAN;
  s.max_ns = r->count ? v[r->count - 1] : NAN;
  s.mad_ns = mad(v, r->count, s.median_ns);
  free(v);
  s.gbps = r->e.bytes / s.median_ns;
  s.cpns = r->e.chars / s.median_ns;
  s.spread_pct = 100 * s.mad_ns / s.median_ns;
  return s;
}

enum metric { METRIC_GBPS, METRIC_CPNS, METRIC_NS };

static double metric_of(const summary *s, enum metric m) {
  return m == METRIC_GBPS ? s->gbps : m == METRIC_CPNS ? s->cpns : s->median_ns;
}

static const char *metric_label(enum metric m) {
  return m == METRIC_GBPS ? "GB/s of input" : m == METRIC_CPNS ? "characters per ns"
                                                                : "ns per call";
}

/* The pivot column an implementation lands in: simdutf kernels collapse into
 * "simdutf" (the best of them), everything else is its own column. */
static void column_of(const char *impl, char *col, size_t cap) {
  if (strncmp(impl, "simdutf-", 8) == 0) impl = "simdutf";
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
  const char **out = xrealloc(NULL, (reg->count ? reg->count : 1) * sizeof *out);
  for (i = 0; i < reg->count; i++) {
    if (strcmp(reg->res[i].e.suite, suite) != 0 || !reg->res[i].count) continue;
    for (j = 0; j < n; j++)
      if (strcmp(out[j], reg->res[i].e.name) == 0) break;
    if (j == n) out[n++] = reg->res[i].e.name;
  }
  *rows = out;
  return n;
}

/* Column order: the limit, utfx's tiers (best first), then the baselines. */
static int column_rank(const char *col) {
  static const char *const order[] = {"memcpy", "utfx-", "icu", "iconv", "simdutf", "node"};
  size_t i, t;
  for (i = 0; i < sizeof order / sizeof order[0]; i++)
    if (strncmp(col, order[i], strlen(order[i])) == 0) break;
  if (i == 1)
    for (t = 0; t < utfx_implementation_count() && t < 16; t++)
      if (strcmp(col + 5, utfx_implementation_name(t)) == 0) return 16 + (int)t;
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

/* Best value of a (row, column) cell; NAN when empty. */
static double cell(const bench_registry *reg, const char *suite, const char *row,
                   const char *col_name, enum metric m, double *spread) {
  size_t i;
  char col[BENCH_IMPL_MAX];
  double best = NAN;
  for (i = 0; i < reg->count; i++) {
    const bench_result *r = &reg->res[i];
    summary s;
    double v;
    if (!r->count || strcmp(r->e.suite, suite) || strcmp(r->e.name, row)) continue;
    column_of(r->e.impl, col, sizeof col);
    if (strcmp(col, col_name)) continue;
    s = summarize(r);
    v = metric_of(&s, m);
    if (isnan(best) || (m == METRIC_NS ? v < best : v > best)) {
      best = v;
      if (spread) *spread = s.spread_pct;
    }
  }
  return best;
}

static const char *suite_names[] = {"kernels", "small", "decode", "encode"};

/* The small suite is about the cost of a call: its tables are in ns. */
static enum metric suite_metric(const char *suite, enum metric m) {
  return strcmp(suite, "small") == 0 ? METRIC_NS : m;
}

static void print_pivot(const bench_registry *reg, FILE *out, enum metric metric) {
  size_t si;
  for (si = 0; si < sizeof suite_names / sizeof suite_names[0]; si++) {
    const char *suite = suite_names[si], **rows;
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
    free(rows);
  }
}

/* The headline: per suite, one row per function (the part of the row name
 * before the first '/'), the geometric mean over its inputs of each column's
 * median. Inputs a column lacks are left out of its mean; the count says how
 * many went in. */
static void print_headline(const bench_registry *reg, FILE *out, enum metric metric) {
  size_t si;
  for (si = 0; si < sizeof suite_names / sizeof suite_names[0]; si++) {
    const char *suite = suite_names[si], **rows;
    enum metric m = suite_metric(suite, metric);
    size_t nrows = suite_rows(reg, suite, &rows), i, j, nf = 0, width = 10;
    char funcs[64][BENCH_NAME_MAX];
    columns cols;
    if (!nrows) {
      free(rows);
      continue;
    }
    suite_columns(reg, suite, &cols);
    for (i = 0; i < nrows; i++) {
      char func[BENCH_NAME_MAX];
      const char *input;
      split_name(rows[i], func, sizeof func, &input);
      for (j = 0; j < nf; j++)
        if (strcmp(funcs[j], func) == 0) break;
      if (j == nf && nf < 64) {
        snprintf(funcs[nf++], BENCH_NAME_MAX, "%s", func);
        if (strlen(func) > width) width = strlen(func);
      }
    }
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
          split_name(rows[r], func, sizeof func, &input);
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

static void print_long(const bench_registry *reg, FILE *out) {
  size_t i, width = 10;
  for (i = 0; i < reg->count; i++)
    if (strlen(reg->res[i].e.name) > width) width = strlen(reg->res[i].e.name);
  fprintf(out, "\n%-8s %-*s %-18s %10s %7s %9s %9s %8s\n", "suite", (int)width, "benchmark",
          "impl", "ns/call", "+-MAD%", "GB/s", "chars/ns", "samples");
  for (i = 0; i < reg->count; i++) {
    const bench_result *r = &reg->res[i];
    summary s;
    if (!r->count) continue;
    s = summarize(r);
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
static const char *cpu_model(void) {
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
static const char *compiler_name(void) {
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

static int write_csv(const bench_registry *reg, const char *path) {
  FILE *f = fopen(path, "w");
  size_t i;
  if (!f) {
    fprintf(stderr, "utfx-bench: cannot write %s: %s\n", path, strerror(errno));
    return -1;
  }
  fprintf(f, "suite,name,impl,bytes,chars,samples,iters,median_ns,mad_ns,min_ns,max_ns,"
             "gbps,chars_per_ns,spread_pct,utfx_version,cpu,compiler\n");
  for (i = 0; i < reg->count; i++) {
    const bench_result *r = &reg->res[i];
    summary s;
    if (!r->count) continue;
    s = summarize(r);
    fprintf(f, "%s,%s,%s,%.0f,%.0f,%zu,%zu,%.4f,%.4f,%.4f,%.4f,%.5f,%.5f,%.2f,%s,%s,%s\n",
            r->e.suite, r->e.name, r->e.impl, r->e.bytes, r->e.chars, r->count, r->iters,
            s.median_ns, s.mad_ns, s.min_ns, s.max_ns, s.gbps, s.cpns, s.spread_pct,
            utfx_version(), cpu_model(), compiler_name());
  }
  return fclose(f);
}

static int write_raw(const bench_registry *reg, const char *path) {
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
static int write_plot_data(const bench_registry *reg, const char *path) {
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
  for (i = 0; i < nrows; i++) {
    char func[BENCH_NAME_MAX];
    const char *input;
    split_name(rows[i], func, sizeof func, &input);
    for (j = 0; j < nf; j++)
      if (strcmp(funcs[j], func) == 0) break;
    if (j == nf && nf < 64) snprintf(funcs[nf++], BENCH_NAME_MAX, "%s", func);
  }
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
      split_name(rows[i], func, sizeof func, &input);
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

/* ---- compare mode ------------------------------------------------------- */

typedef struct {
  char key[BENCH_NAME_MAX + 48];
  double *old_v, *new_v; /* GB/s per run */
  size_t n_old, n_new;
} cmp_row;

typedef struct {
  cmp_row *rows;
  size_t count, cap;
} cmp_table;

static cmp_row *cmp_find(cmp_table *t, const char *key) {
  size_t i;
  for (i = 0; i < t->count; i++)
    if (strcmp(t->rows[i].key, key) == 0) return &t->rows[i];
  if (t->count == t->cap) {
    t->cap = t->cap ? 2 * t->cap : 128;
    t->rows = xrealloc(t->rows, t->cap * sizeof *t->rows);
  }
  memset(&t->rows[t->count], 0, sizeof t->rows[0]);
  snprintf(t->rows[t->count].key, sizeof t->rows[0].key, "%s", key);
  return &t->rows[t->count++];
}

static void push_value(double **v, size_t *n, double x) {
  *v = xrealloc(*v, (*n + 1) * sizeof **v);
  (*v)[(*n)++] = x;
}

/* Adds every row of a results CSV (ours) to side 0 (old) or 1 (new). */
static int cmp_load_csv(cmp_table *t, const char *path, int side) {
  FILE *f = fopen(path, "r");
  char line[1024];
  if (!f) {
    fprintf(stderr, "utfx-bench: cannot read %s: %s\n", path, strerror(errno));
    return -1;
  }
  while (fgets(line, sizeof line, f)) {
    char *field[16], *p = line, key[BENCH_NAME_MAX + 48];
    size_t nf = 0;
    cmp_row *row;
    double gbps;
    if (strncmp(line, "suite,", 6) == 0) continue;
    line[strcspn(line, "\r\n")] = '\0';
    while (nf < 16) {
      field[nf++] = p;
      p = strchr(p, ',');
      if (!p) break;
      *p++ = '\0';
    }
    if (nf < 12) continue;
    gbps = strtod(field[11], NULL);
    snprintf(key, sizeof key, "%s,%s,%s", field[0], field[1], field[2]);
    row = cmp_find(t, key);
    if (side)
      push_value(&row->new_v, &row->n_new, gbps);
    else
      push_value(&row->old_v, &row->n_old, gbps);
  }
  fclose(f);
  return 0;
}

static void cmp_print(const cmp_table *t, FILE *out) {
  size_t i, width = 20;
  for (i = 0; i < t->count; i++)
    if (strlen(t->rows[i].key) > width) width = strlen(t->rows[i].key);
  fprintf(out, "\n%-*s %10s %10s %9s %4s %9s %7s\n", (int)width, "suite,benchmark,impl",
          "old GB/s", "new GB/s", "change", "", "p-value", "runs");
  for (i = 0; i < t->count; i++) {
    const cmp_row *r = &t->rows[i];
    double mo, vo, mn, vn, p;
    if (!r->n_old || !r->n_new) continue;
    mean_var(r->old_v, r->n_old, &mo, &vo);
    mean_var(r->new_v, r->n_new, &mn, &vn);
    p = bench_welch_p(r->old_v, r->n_old, r->new_v, r->n_new);
    fprintf(out, "%-*s %10.3f %10.3f %+8.2f%% %4s %9.2g %3zu/%zu\n", (int)width, r->key, mo, mn,
            100 * (mn / mo - 1), stars(p), p, r->n_old, r->n_new);
  }
  fprintf(out, "\nchange = mean new / mean old throughput - 1 (positive: faster); "
               "Welch t-test: * p<0.05, ** p<0.01, *** p<0.001\n");
}

static void cmp_free(cmp_table *t) {
  size_t i;
  for (i = 0; i < t->count; i++) {
    free(t->rows[i].old_v);
    free(t->rows[i].new_v);
  }
  free(t->rows);
}

static int run_child(const char *bin, char **pass, size_t npass, const char *csv) {
  char **argv = xrealloc(NULL, (npass + 5) * sizeof *argv);
  size_t k = 0, i;
  pid_t pid;
  int status = 0;
  argv[k++] = (char *)(uintptr_t)bin;
  for (i = 0; i < npass; i++) argv[k++] = pass[i];
  argv[k++] = (char *)(uintptr_t)"--quiet";
  argv[k++] = (char *)(uintptr_t)"--csv";
  argv[k++] = (char *)(uintptr_t)csv;
  argv[k] = NULL;
  fflush(NULL);
  pid = fork();
  if (pid == 0) {
    execv(bin, argv);
    fprintf(stderr, "utfx-bench: cannot run %s: %s\n", bin, strerror(errno));
    _exit(127);
  }
  free(argv);
  if (pid < 0 || waitpid(pid, &status, 0) < 0) return -1;
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* Runs OLD and NEW in alternating order, `rounds` times each, so slow drifts
 * of the machine (heat, other load) hit both sides alike; each run gives one
 * median per benchmark, and the t-test compares those. */
static int compare_binaries(const char *old_bin, const char *new_bin, int rounds, char **pass,
                            size_t npass, const char *csv_out) {
  cmp_table t = {NULL, 0, 0};
  char tmp[] = "/tmp/utfx-bench-XXXXXX";
  int fd = mkstemp(tmp), r, rc = 0;
  if (fd < 0) {
    perror("utfx-bench: mkstemp");
    return 2;
  }
  close(fd);
  for (r = 0; r < rounds && rc == 0; r++) {
    int k;
    for (k = 0; k < 2 && rc == 0; k++) {
      int side = (r % 2) ^ k; /* old,new then new,old */
      fprintf(stderr, "compare: round %d/%d: %s\n", r + 1, rounds, side ? "new" : "old");
      if (run_child(side ? new_bin : old_bin, pass, npass, tmp) != 0) {
        fprintf(stderr, "utfx-bench: %s failed\n", side ? new_bin : old_bin);
        rc = 2;
        break;
      }
      if (cmp_load_csv(&t, tmp, side) != 0) rc = 2;
    }
  }
  unlink(tmp);
  if (rc == 0) {
    cmp_print(&t, stdout);
    if (csv_out) {
      FILE *f = fopen(csv_out, "w");
      size_t i, k;
      if (f) {
        fprintf(f, "key_suite,key_name,key_impl,side,run,gbps\n");
        for (i = 0; i < t.count; i++) {
          for (k = 0; k < t.rows[i].n_old; k++)
            fprintf(f, "%s,old,%zu,%.5f\n", t.rows[i].key, k, t.rows[i].old_v[k]);
          for (k = 0; k < t.rows[i].n_new; k++)
            fprintf(f, "%s,new,%zu,%.5f\n", t.rows[i].key, k, t.rows[i].new_v[k]);
        }
        fclose(f);
      }
    }
  }
  cmp_free(&t);
  return rc;
}

/* ---- self-test of the statistics --------------------------------------- */

static int selftest(void) {
  /* Reference values: Student t two-sided tails and a textbook Welch case. */
  static const double a[] = {27.5, 21.0, 19.0, 23.6, 17.0, 17.9, 16.9, 20.1, 21.9, 22.6,
                             23.1, 19.6, 19.0, 21.7, 21.4};
  static const double b[] = {27.1, 22.0, 20.8, 23.4, 23.4, 23.5, 25.8, 22.0, 24.8, 20.2,
                             21.9, 22.1, 22.9, 20.5, 24.4};
  double v[] = {5, 1, 4, 2, 3};
  int fails = 0;
  struct {
    double x, a, b, want;
  } ib[] = {{0.5, 2, 3, 0.6875}, {0.2, 1, 1, 0.2}, {0.9, 0.5, 0.5, 0.7951672353008665}};
  size_t i;
  for (i = 0; i < sizeof ib / sizeof ib[0]; i++) {
    double got = bench_ibeta(ib[i].x, ib[i].a, ib[i].b);
    if (fabs(got - ib[i].want) > 1e-9) {
      printf("not ok: ibeta(%g,%g,%g) = %.12g, want %.12g\n", ib[i].x, ib[i].a, ib[i].b, got,
             ib[i].want);
      fails++;
    }
  }
  /* t = 2.228 with 10 df is the 0.05 two-sided critical value. */
  {
    double p = bench_ibeta(10 / (10 + 2.228 * 2.228), 5, 0.5);
    if (fabs(p - 0.05) > 1e-3) {
      printf("not ok: t(10) tail at 2.228 = %g\n", p);
      fails++;
    }
  }
  /* Welch on the two samples above: t = -2.455, df = 24.99, p = 0.02138
   * (checked by integrating the t density numerically). */
  {
    double p = bench_welch_p(a, 15, b, 15);
    if (fabs(p - 0.02138) > 1e-4) {
      printf("not ok: welch p = %g, want 0.02138\n", p);
      fails++;
    }
  }
  if (bench_median(v, 5) != 3) {
    printf("not ok: median\n");
    fails++;
  }
  printf("statistics self-test: %s\n", fails ? "FAILED" : "ok");
  return fails ? 1 : 0;
}

/* ---- command line ------------------------------------------------------- */

static void usage(FILE *out) {
  fprintf(out,
          "usage: utfx-bench [options]\n"
          "  --suite LIST      suites: kernels,small,decode,encode,node (default: all)\n"
          "  --func LIST       function globs, e.g. 'convert_utf8_*,validate_utf8'\n"
          "                    (decode: the encoding, encode: the string kind)\n"
          "  --input LIST      input globs, e.g. 'Arabic,Emoji' or 'in=4096/*'\n"
          "  --impl LIST       implementation globs: utfx, utfx-scalar, memcpy, icu,\n"
          "                    iconv, simdutf, simdutf-icelake, node (default: all)\n"
          "  --all-tiers       also time tiers that run the same kernel as a lower one\n"
          "  --samples N       timed batches per benchmark (default 15)\n"
          "  --batch-ms X      minimum duration of one batch (default 2)\n"
          "  --warmup-ms X     minimum warm-up per benchmark (default 20)\n"
          "  --clock C         cpu (default: this thread's CPU time, robust on a\n"
          "                    shared machine) or wall (monotonic wall time)\n"
          "  --quick           --samples 7 --batch-ms 1 --warmup-ms 5\n"
          "  --tiny            smoke mode: tiny inputs, one short sample\n"
          "  --metric M        table cells: gbps (default), cpns (chars/ns), ns\n"
          "  --long            one line per measurement instead of the pivot tables\n"
          "  --headline        only the headline tables (per function, geometric mean\n"
          "                    over the inputs)\n"
          "  --csv FILE        write every benchmark's statistics as CSV\n"
          "  --raw FILE        write every timed batch as CSV\n"
          "  --plot-data FILE  write the kernel suite's GB/s table for bench/plot.gp\n"
          "  --small-lengths L the small suite's input lengths, e.g. '0-64,100,200'\n"
          "                    (default 1,2,4,8,16,32,64,128,256)\n"
          "  --data DIR        corpus directory (default %s/data)\n"
          "  --file PATH       a UTF-8 text to use instead of the corpus (repeatable)\n"
          "  --node PATH       node executable (default: node)\n"
          "  --list            list the selected benchmarks, do not run them\n"
          "  --quiet           no progress and no table (with --csv)\n"
          "  --compare OLD NEW run two utfx-bench builds interleaved and print each\n"
          "                    row's change with Welch t-test stars (other options are\n"
          "                    passed to both; --rounds N, default 6)\n"
          "  --compare-csv OLD.csv NEW.csv   the same from result files (rows that\n"
          "                    repeat a benchmark are runs)\n"
          "  --selftest        check the statistics code and exit\n",
          UTFX_BENCH_SRC_DIR);
}

static int need_arg(int i, int argc, const char *opt) {
  if (i + 1 < argc) return 1;
  fprintf(stderr, "utfx-bench: %s needs an argument\n", opt);
  return 0;
}

int utfx_bench_main(int argc, char **argv) {
  static char data_default[4096], node_script[4096];
  bench_registry reg;
  const char *csv = NULL, *raw = NULL, *plot = NULL, *cmp_old = NULL, *cmp_new = NULL;
  const char *cmp_csv_old = NULL, *cmp_csv_new = NULL;
  enum metric m = METRIC_GBPS;
  int list = 0, quiet = 0, longfmt = 0, headline_only = 0, rounds = 6, rc = 0, i;
  char **pass = xrealloc(NULL, (size_t)(argc + 1) * sizeof *pass);
  size_t npass = 0, k;

  memset(&reg, 0, sizeof reg);
  snprintf(data_default, sizeof data_default, "%s/data", UTFX_BENCH_SRC_DIR);
  snprintf(node_script, sizeof node_script, "%s/node_bench.js", UTFX_BENCH_SRC_DIR);
  reg.opt.data_dir = data_default;
  reg.opt.node_script = node_script;
  reg.opt.node = "node";
  reg.opt.samples = 15;
  reg.opt.batch_ms = 2;
  reg.opt.warmup_ms = 20;
  reg.opt.files = xrealloc(NULL, (size_t)argc * sizeof *reg.opt.files); /* room for every --file */

  for (i = 1; i < argc; i++) {
    const char *a = argv[i];
    const int first = i;
    int passes = 1; /* forwarded to children in compare mode */
#define ARG(name) (strcmp(a, name) == 0 && need_arg(i, argc, name))
    if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
      usage(stdout);
      free(pass);
      free(reg.opt.files);
      return 0;
    } else if (ARG("--suite")) {
      reg.suites = argv[++i];
    } else if (ARG("--func")) {
      reg.funcs = argv[++i];
    } else if (ARG("--input")) {
      reg.inputs = argv[++i];
    } else if (ARG("--impl")) {
      reg.impls = argv[++i];
    } else if (strcmp(a, "--all-tiers") == 0) {
      reg.opt.all_tiers = 1;
    } else if (ARG("--samples")) {
      reg.opt.samples = atof(argv[++i]);
    } else if (ARG("--batch-ms")) {
      reg.opt.batch_ms = atof(argv[++i]);
    } else if (ARG("--warmup-ms")) {
      reg.opt.warmup_ms = atof(argv[++i]);
    } else if (strcmp(a, "--quick") == 0) {
      reg.opt.samples = 7;
      reg.opt.batch_ms = 1;
      reg.opt.warmup_ms = 5;
    } else if (ARG("--clock")) {
      reg.opt.wall_clock = strcmp(argv[++i], "wall") == 0;
    } else if (strcmp(a, "--tiny") == 0) {
      reg.opt.tiny = 1;
    } else if (ARG("--metric")) {
      const char *v = argv[++i];
      m = strcmp(v, "cpns") == 0 ? METRIC_CPNS : strcmp(v, "ns") == 0 ? METRIC_NS : METRIC_GBPS;
    } else if (strcmp(a, "--long") == 0) {
      longfmt = 1;
    } else if (strcmp(a, "--headline") == 0) {
      headline_only = 1;
    } else if (ARG("--csv")) {
      csv = argv[++i];
      passes = 0;
    } else if (ARG("--raw")) {
      raw = argv[++i];
      passes = 0;
    } else if (ARG("--plot-data")) {
      plot = argv[++i];
      passes = 0;
    } else if (ARG("--small-lengths")) {
      reg.opt.small_lengths = argv[++i];
    } else if (ARG("--data")) {
      reg.opt.data_dir = argv[++i];
    } else if (ARG("--file")) {
      reg.opt.files[reg.opt.nfiles++] = argv[++i];
    } else if (ARG("--node")) {
      reg.opt.node = argv[++i];
    } else if (strcmp(a, "--list") == 0) {
      list = 1;
    } else if (strcmp(a, "--quiet") == 0) {
      quiet = 1;
      passes = 0;
    } else if (strcmp(a, "--compare") == 0 && i + 2 < argc) {
      cmp_old = argv[++i];
      cmp_new = argv[++i];
      passes = 0;
    } else if (ARG("--rounds")) {
      rounds = atoi(argv[++i]);
      passes = 0;
    } else if (strcmp(a, "--compare-csv") == 0 && i + 2 < argc) {
      cmp_csv_old = argv[++i];
      cmp_csv_new = argv[++i];
    } else if (strcmp(a, "--selftest") == 0) {
      free(pass);
      free(reg.opt.files);
      return selftest();
    } else {
      fprintf(stderr, "utfx-bench: unknown or incomplete option %s (try --help)\n", a);
      free(pass);
      free(reg.opt.files);
      return 2;
    }
#undef ARG
    if (passes) {
      int j; /* forward the option and the values it consumed */
      for (j = first; j <= i; j++) pass[npass++] = argv[j];
    }
  }
  if (reg.opt.samples < 1) reg.opt.samples = 1;
  bench_clock = reg.opt.wall_clock ? CLOCK_MONOTONIC : CLOCK_THREAD_CPUTIME_ID;
  if (reg.opt.tiny) {
    reg.opt.samples = 1;
    reg.opt.batch_ms = 0.05;
    reg.opt.warmup_ms = 0;
  }

  if (cmp_csv_old) {
    cmp_table t = {NULL, 0, 0};
    rc = cmp_load_csv(&t, cmp_csv_old, 0) || cmp_load_csv(&t, cmp_csv_new, 1) ? 2 : 0;
    if (!rc) cmp_print(&t, stdout);
    cmp_free(&t);
    free(pass);
    free(reg.opt.files);
    return rc;
  }
  if (cmp_old) {
    rc = compare_binaries(cmp_old, cmp_new, rounds < 2 ? 2 : rounds, pass, npass, csv);
    free(pass);
    free(reg.opt.files);
    return rc;
  }
  free(pass);

  bench_suite_kernels(&reg);
  bench_suite_small(&reg);
  bench_suite_decode(&reg);
  bench_suite_encode(&reg);
  if (list) {
    for (k = 0; k < reg.count; k++)
      printf("%s %s %s\n", reg.res[k].e.suite, reg.res[k].e.name, reg.res[k].e.impl);
  } else {
    const int tty = isatty(2);
    for (k = 0; k < reg.count; k++) {
      bench_result *r = &reg.res[k];
      if (!quiet && tty)
        fprintf(stderr, "\r\033[K[%zu/%zu] %s %s %s", k + 1, reg.count, r->e.suite, r->e.name,
                r->e.impl);
      if (r->e.run) measure(r, &reg.opt);
    }
    if (!quiet && tty) fprintf(stderr, "\r\033[K");
    /* Node runs after ours, in its own process, on the same grids. */
    bench_suite_node(&reg);
    if (!quiet) {
      char features[256];
      utfx_cpu_features(features, sizeof features);
      printf("utfx %s; CPU: %s; compiler: %s\n", utfx_version(), cpu_model(), compiler_name());
      printf("CPU features: %s; %g batches of >= %g ms %s time per benchmark\n",
             features[0] ? features : "(none)", reg.opt.samples,
             reg.opt.batch_ms, reg.opt.wall_clock ? "wall" : "CPU");
      if (longfmt)
        print_long(&reg, stdout);
      else if (!headline_only)
        print_pivot(&reg, stdout, m);
      print_headline(&reg, stdout, m);
    }
    if (csv && write_csv(&reg, csv) != 0) rc = 2;
    if (raw && write_raw(&reg, raw) != 0) rc = 2;
    if (plot && write_plot_data(&reg, plot) != 0) rc = 2;
  }
  while (reg.n_at_end > 0) {
    reg.n_at_end--;
    reg.at_end[reg.n_at_end].fn(reg.at_end[reg.n_at_end].arg);
  }
  for (k = 0; k < reg.count; k++) free(reg.res[k].ns);
  free(reg.res);
  for (k = 0; k < reg.nblocks; k++) free(reg.blocks[k]);
  free(reg.blocks);
  free(reg.opt.files);
  return rc;
}
