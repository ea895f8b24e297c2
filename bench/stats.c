/* Robust statistics of the benchmark engine: median, median absolute
 * deviation, Welch's t-test (Student t via the regularised incomplete beta
 * function), the summary of one benchmark, and their self-test. */
#define _POSIX_C_SOURCE 200809L

#include "engine_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

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
  double *d = bench_xrealloc(NULL, (n ? n : 1) * sizeof *d), m;
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

void bench_mean_var(const double *v, size_t n, double *mean, double *var) {
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
  bench_mean_var(a, na, &ma, &va);
  bench_mean_var(b, nb, &mb, &vb);
  sa = va / (double)na;
  sb = vb / (double)nb;
  se2 = sa + sb;
  if (se2 <= 0) return ma == mb ? 1.0 : 0.0;
  t = (ma - mb) / sqrt(se2);
  df = se2 * se2 / (sa * sa / (double)(na - 1) + sb * sb / (double)(nb - 1));
  return bench_ibeta(df / (df + t * t), df / 2, 0.5);
}

const char *bench_stars(double p) {
  if (isnan(p)) return "";
  return p < 0.001 ? "***" : p < 0.01 ? "**" : p < 0.05 ? "*" : "";
}

summary bench_summarize(const bench_result *r) {
  summary s;
  double *v = bench_xrealloc(NULL, (r->count ? r->count : 1) * sizeof *v);
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

int bench_selftest(void) {
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
