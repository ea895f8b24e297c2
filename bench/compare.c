/* The compare mode of the benchmark engine: two harness builds run
 * interleaved, or two result files, and each row's change with its Welch
 * t-test confidence (as Node's benchmark/compare.js and compare.R).
 * Each side may be K builds of the same code in K code layouts (a comma
 * list, bench/compare.sh -k): round r runs layout r % K of both sides, and
 * a row's change is then the mean over layouts, tested with the layouts as
 * the samples, since one layout per side measures the layout as much as
 * the code (Mytkowicz et al., "Producing wrong data without doing anything
 * obviously wrong!", ASPLOS 2009). */
#define _POSIX_C_SOURCE 200809L

#include "engine_internal.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

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
    t->rows = bench_xrealloc(t->rows, t->cap * sizeof *t->rows);
  }
  memset(&t->rows[t->count], 0, sizeof t->rows[0]);
  snprintf(t->rows[t->count].key, sizeof t->rows[0].key, "%s", key);
  return &t->rows[t->count++];
}

static void push_value(double **v, size_t *n, double x) {
  *v = bench_xrealloc(*v, (*n + 1) * sizeof **v);
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

/* The K per-layout means of v (run i is layout i % k) into m; returns how
 * many layouts have runs. */
static size_t layout_means(const double *v, size_t n, size_t k, double *m) {
  size_t l, i, got = 0;
  for (l = 0; l < k; l++) {
    double s = 0;
    size_t c = 0;
    for (i = l; i < n; i += k) s += v[i], c++;
    if (c) m[got++] = s / (double)c;
  }
  return got;
}

/* (max - min) / mean of the layout means, in %. */
static double spread(const double *m, size_t n) {
  double lo = m[0], hi = m[0], mean, var;
  size_t i;
  for (i = 1; i < n; i++) {
    if (m[i] < lo) lo = m[i];
    if (m[i] > hi) hi = m[i];
  }
  bench_mean_var(m, n, &mean, &var);
  return 100 * (hi - lo) / mean;
}

static void cmp_print_layouts(const cmp_table *t, size_t k, FILE *out) {
  size_t i, width = 20;
  double *mo_l = bench_xrealloc(NULL, 2 * k * sizeof *mo_l), *mn_l = mo_l + k;
  for (i = 0; i < t->count; i++)
    if (strlen(t->rows[i].key) > width) width = strlen(t->rows[i].key);
  fprintf(out, "\n%-*s %10s %10s %9s %4s %9s %7s %7s %7s\n", (int)width,
          "suite,benchmark,impl", "old GB/s", "new GB/s", "change", "", "p-value", "layouts",
          "old spr", "new spr");
  for (i = 0; i < t->count; i++) {
    const cmp_row *r = &t->rows[i];
    double mo, vo, mn, vn, p;
    size_t ko = layout_means(r->old_v, r->n_old, k, mo_l);
    size_t kn = layout_means(r->new_v, r->n_new, k, mn_l);
    if (!ko || !kn) continue;
    bench_mean_var(mo_l, ko, &mo, &vo);
    bench_mean_var(mn_l, kn, &mn, &vn);
    p = bench_welch_p(mo_l, ko, mn_l, kn);
    fprintf(out, "%-*s %10.3f %10.3f %+8.2f%% %4s %9.2g %3zu/%zu %6.1f%% %6.1f%%\n", (int)width,
            r->key, mo, mn, 100 * (mn / mo - 1), bench_stars(p), p, ko, kn, spread(mo_l, ko),
            spread(mn_l, kn));
  }
  fprintf(out, "\nold / new GB/s = mean over the %zu layouts of each layout's mean; change = new / "
               "old - 1 (positive: faster); Welch t-test over the layout means: * p<0.05, "
               "** p<0.01, *** p<0.001; spr = (max - min) / mean of a side's layout means\n",
          k);
  free(mo_l);
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
    bench_mean_var(r->old_v, r->n_old, &mo, &vo);
    bench_mean_var(r->new_v, r->n_new, &mn, &vn);
    p = bench_welch_p(r->old_v, r->n_old, r->new_v, r->n_new);
    fprintf(out, "%-*s %10.3f %10.3f %+8.2f%% %4s %9.2g %3zu/%zu\n", (int)width, r->key, mo, mn,
            100 * (mn / mo - 1), bench_stars(p), p, r->n_old, r->n_new);
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

int bench_run_child(const char *bin, char **pass, size_t npass, const char *out_flag,
                    const char *out_file) {
  char **argv = bench_xrealloc(NULL, (npass + 5) * sizeof *argv);
  size_t k = 0, i;
  pid_t pid;
  int status = 0;
  argv[k++] = (char *)(uintptr_t)bin;
  for (i = 0; i < npass; i++) argv[k++] = pass[i];
  argv[k++] = (char *)(uintptr_t)"--quiet";
  argv[k++] = (char *)(uintptr_t)out_flag;
  argv[k++] = (char *)(uintptr_t)out_file;
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

/* Splits a comma list in place into at most `max` entries. */
static size_t split_list(char *s, char **out, size_t max) {
  size_t n = 0;
  while (n < max) {
    out[n++] = s;
    s = strchr(s, ',');
    if (!s) break;
    *s++ = '\0';
  }
  return n;
}

/* Runs OLD and NEW in alternating order, `rounds` times each, so slow drifts
 * of the machine (heat, other load) hit both sides alike; each run gives one
 * median per benchmark, and the t-test compares those. OLD and NEW may each
 * be a comma list of K layouts of one build: round r runs layout r % K. */
int bench_compare_binaries(const char *old_list, const char *new_list, int rounds, char **pass,
                            size_t npass, const char *csv_out) {
  enum { MAX_LAYOUTS = 64 };
  cmp_table t = {NULL, 0, 0};
  char tmp[] = "/tmp/utfx-bench-XXXXXX";
  char *lists[2], *bins[2][MAX_LAYOUTS];
  size_t nbin[2], layouts;
  int fd, r, rc = 0;
  lists[0] = bench_xrealloc(NULL, strlen(old_list) + 1);
  lists[1] = bench_xrealloc(NULL, strlen(new_list) + 1);
  strcpy(lists[0], old_list);
  strcpy(lists[1], new_list);
  nbin[0] = split_list(lists[0], bins[0], MAX_LAYOUTS);
  nbin[1] = split_list(lists[1], bins[1], MAX_LAYOUTS);
  layouts = nbin[0];
  if (nbin[1] != layouts) {
    fprintf(stderr, "utfx-bench: --compare needs as many layouts on each side (%zu, %zu)\n",
            nbin[0], nbin[1]);
    rc = 2;
  } else if (layouts > 1 && (size_t)rounds < 2 * layouts) {
    fprintf(stderr, "utfx-bench: %zu layouts need --rounds of at least %zu\n", layouts,
            2 * layouts);
    rc = 2;
  }
  fd = rc ? -1 : mkstemp(tmp);
  if (fd < 0) {
    if (!rc) perror("utfx-bench: mkstemp");
    free(lists[0]);
    free(lists[1]);
    return 2;
  }
  close(fd);
  for (r = 0; r < rounds && rc == 0; r++) {
    int k;
    for (k = 0; k < 2 && rc == 0; k++) {
      int side = (r % 2) ^ k; /* old,new then new,old */
      const char *bin = bins[side][(size_t)r % layouts];
      fprintf(stderr, "compare: round %d/%d: %s, layout %zu\n", r + 1, rounds,
              side ? "new" : "old", (size_t)r % layouts);
      bench_set_place(r); /* (both sides of a round alike) */
      if (bench_run_child(bin, pass, npass, "--csv", tmp) != 0) {
        fprintf(stderr, "utfx-bench: %s failed\n", bin);
        rc = 2;
        break;
      }
      if (cmp_load_csv(&t, tmp, side) != 0) rc = 2;
    }
  }
  unlink(tmp);
  if (rc == 0) {
    if (layouts > 1)
      cmp_print_layouts(&t, layouts, stdout);
    else
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
  free(lists[0]);
  free(lists[1]);
  return rc;
}

/* The compare table of two result files (rows that repeat a benchmark are
 * runs). */
int bench_compare_csv(const char *old_csv, const char *new_csv) {
  cmp_table t = {NULL, 0, 0};
  int rc = cmp_load_csv(&t, old_csv, 0) || cmp_load_csv(&t, new_csv, 1) ? 2 : 0;
  if (!rc) cmp_print(&t, stdout);
  cmp_free(&t);
  return rc;
}
