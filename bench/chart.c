/* utfx-chart: SVG bar charts of a utfx-bench results.csv, with nothing to
 * install (make bench runs it after the benchmarks).
 *
 *   utfx-chart RESULTS.csv OUTDIR      writes OUTDIR/SUITE.svg for each of
 *                                      kernels, decode, encode in the file
 *
 * One panel per function (kernels) / encoding (decode) / string kind
 * (encode): the first part of the benchmark name. In it, one group of bars
 * per input (the rest of the name: the text, or in=N/chunk=C), one bar per
 * implementation: utfx's tiers, simdutf, ICU, iconv, Node (node-*), memcpy,
 * the machine's limit (kernels: the CSV's limit_gbps), in that order and
 * with fixed colours, whichever the file has. Bars are the median GB/s on
 * a log scale shared by the panels of a chart (memcpy is 10-100x faster
 * than a transcoder); a whisker spans median +- MAD; each bar
 * has a tooltip with its numbers. The title names the CPU: the file's
 * cpu / cpu_model column if it has one, else /proc/cpuinfo, else the machine
 * type from uname.
 *
 * Why our own writer and not gnuplot or a JS plotting package: a fresh
 * machine has neither, installing one needs root or the network, and a bar
 * chart is ~300 lines of C that the bench build already compiles. SVG opens
 * in any browser. Columns are found by their names in the CSV header, so
 * columns added later do not break it. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#define MAXF 64 /* fields in a CSV line */

typedef struct {
  char *suite, *panel, *group, *impl;
  double gbps, lo, hi; /* median, and median -+ MAD */
} row;

typedef struct {
  row *rows;
  size_t n, cap;
  char cpu[256], version[64];
} results;

static char *dup_str(const char *s) {
  size_t n = strlen(s) + 1;
  char *d = malloc(n);
  if (!d) {
    fprintf(stderr, "utfx-chart: out of memory\n");
    exit(2);
  }
  return memcpy(d, s, n);
}

/* Splits a CSV line in place (fields may be "quoted", with "" for a quote). */
static int split_csv(char *line, char **f) {
  int n = 0;
  char *p = line;
  line[strcspn(line, "\r\n")] = 0;
  while (n < MAXF) {
    char *w = p;
    f[n++] = p;
    if (*p == '"') {
      for (p++; *p; p++) {
        if (*p == '"' && p[1] == '"') *w++ = '"', p++;
        else if (*p == '"') { p++; break; }
        else *w++ = *p;
      }
      while (*p && *p != ',') p++;
    } else {
      while (*p && *p != ',') w++, p++;
    }
    if (!*p) { *w = 0; break; }
    *w = 0;
    p++;
  }
  return n;
}

static int column(char **head, int n, const char *name) {
  for (int i = 0; i < n; i++)
    if (strcmp(head[i], name) == 0) return i;
  return -1;
}

/* "model name" of the first CPU in /proc/cpuinfo (a VM may say only "AMD
 * EPYC": family and model numbers follow when there are any). */
static void cpu_model(char *out, size_t cap) {
  FILE *f = fopen("/proc/cpuinfo", "r");
  char line[512], name[256] = "", family[32] = "", model[32] = "";
  out[0] = 0;
  while (f && fgets(line, sizeof line, f)) {
    char *v = strchr(line, ':');
    if (!v) continue;
    if (line[0] == '\n' || (name[0] && family[0] && model[0])) break;
    v += 1 + strspn(v + 1, " \t");
    v[strcspn(v, "\n")] = 0;
    if (strncmp(line, "model name", 10) == 0 || strncmp(line, "Model", 5) == 0)
      snprintf(name, sizeof name, "%s", v);
    else if (strncmp(line, "cpu family", 10) == 0)
      snprintf(family, sizeof family, "%s", v);
    else if (strncmp(line, "model\t", 6) == 0 || strncmp(line, "model ", 6) == 0)
      snprintf(model, sizeof model, "%s", v);
  }
  if (f) fclose(f);
  if (name[0] && family[0] && model[0])
    snprintf(out, cap, "%s (family %s, model %s)", name, family, model);
  else if (name[0])
    snprintf(out, cap, "%s", name);
  if (!out[0]) {
    struct utsname u;
    snprintf(out, cap, "%s (CPU model unknown)", uname(&u) == 0 ? u.machine : "unknown machine");
  }
}

static int load(const char *path, results *r) {
  FILE *f = fopen(path, "r");
  char head_line[4096], line[4096], *head[MAXF], *f_[MAXF];
  int nh, c_suite, c_name, c_impl, c_bytes, c_med, c_mad, c_cpu, c_ver, c_limit;
  if (!f) {
    perror(path);
    return -1;
  }
  if (!fgets(head_line, sizeof head_line, f)) {
    fprintf(stderr, "utfx-chart: %s is empty\n", path);
    fclose(f);
    return -1;
  }
  nh = split_csv(head_line, head);
  c_suite = column(head, nh, "suite");
  c_name = column(head, nh, "name");
  c_impl = column(head, nh, "impl");
  c_bytes = column(head, nh, "bytes");
  c_med = column(head, nh, "median_ns");
  c_mad = column(head, nh, "mad_ns");
  c_cpu = column(head, nh, "cpu") >= 0 ? column(head, nh, "cpu") : column(head, nh, "cpu_model");
  c_ver = column(head, nh, "utfx_version");
  c_limit = column(head, nh, "limit_gbps");
  if (c_suite < 0 || c_name < 0 || c_impl < 0 || c_bytes < 0 || c_med < 0) {
    fprintf(stderr, "utfx-chart: %s: no suite,name,impl,bytes,median_ns columns\n", path);
    fclose(f);
    return -1;
  }
  while (fgets(line, sizeof line, f)) {
    int n = split_csv(line, f_);
    char *slash;
    double bytes, med, mad;
    row *w;
    if (n <= c_med || n <= c_name || n <= c_impl || n <= c_suite || n <= c_bytes) continue;
    bytes = atof(f_[c_bytes]);
    med = atof(f_[c_med]);
    mad = c_mad >= 0 && c_mad < n ? atof(f_[c_mad]) : 0;
    if (!(bytes > 0) || !(med > 0)) continue;
    /* The limit's timings become one bar, "limit", at the CSV's
     * limit_gbps (the slowest of them). */
    if (strncmp(f_[c_impl], "limit-", 6) == 0) {
      if (strcmp(f_[c_impl], "limit-read") || c_limit < 0 || c_limit >= n ||
          !(atof(f_[c_limit]) > 0))
        continue;
      static char limit[] = "limit";
      f_[c_impl] = limit;
      med = bytes / atof(f_[c_limit]);
      mad = 0;
    }
    if (r->n == r->cap) {
      size_t cap = r->cap ? 2 * r->cap : 256;
      row *rows = realloc(r->rows, cap * sizeof *rows);
      if (!rows) {
        fprintf(stderr, "utfx-chart: out of memory\n");
        fclose(f);
        return -1;
      }
      r->rows = rows;
      r->cap = cap;
    }
    w = &r->rows[r->n++];
    slash = strchr(f_[c_name], '/');
    w->group = dup_str(slash ? slash + 1 : "");
    if (slash) *slash = 0;
    w->panel = dup_str(f_[c_name]);
    w->suite = dup_str(f_[c_suite]);
    w->impl = dup_str(f_[c_impl]);
    w->gbps = bytes / med;
    w->lo = bytes / (med + mad);
    w->hi = med > mad ? bytes / (med - mad) : w->gbps;
    if (c_cpu >= 0 && c_cpu < n && f_[c_cpu][0] && !r->cpu[0])
      snprintf(r->cpu, sizeof r->cpu, "%s", f_[c_cpu]);
    if (c_ver >= 0 && c_ver < n && !r->version[0])
      snprintf(r->version, sizeof r->version, "%s", f_[c_ver]);
  }
  fclose(f);
  if (!r->cpu[0]) cpu_model(r->cpu, sizeof r->cpu);
  return 0;
}

static void free_results(results *r) {
  for (size_t i = 0; i < r->n; i++) {
    free(r->rows[i].suite);
    free(r->rows[i].panel);
    free(r->rows[i].group);
    free(r->rows[i].impl);
  }
  free(r->rows);
}

/* ---- implementations: order and colour */
static int impl_rank(const char *impl) {
  static const char *const order[] = {"utfx-avx512", "utfx-avx2", "utfx-neon", "utfx-scalar",
                                      "simdutf", "icu", "iconv", "node-", "memcpy", "limit",
                                      "whatwg-"}; /* (utfx_whatwg_decode, kernels suite) */
  for (int i = 0; i < (int)(sizeof order / sizeof order[0]); i++)
    if (strncmp(impl, order[i], strlen(order[i])) == 0) return i;
  return 100;
}

/* Within a family (simdutf's kernels, Node's functions): best kernel first. */
static int impl_subrank(const char *impl) {
  static const char *const order[] = {"simdutf", "simdutf-icelake", "simdutf-haswell",
                                      "simdutf-westmere", "simdutf-fallback"};
  for (int i = 0; i < (int)(sizeof order / sizeof order[0]); i++)
    if (strcmp(impl, order[i]) == 0) return i;
  return 100;
}

/* k: the implementation's place among those of its family in the chart. */
static const char *impl_colour(const char *impl, int k) {
  static const char *const node[] = {"#2ca02c", "#98df8a", "#bcbd22", "#dbdb8d"};
  static const char *const simdutf[] = {"#ff7f0e", "#fdae6b", "#a63603", "#fdd0a2", "#e6550d"};
  switch (impl_rank(impl)) {
    case 0: return "#08306b";
    case 1: return "#2171b5";
    case 2: return "#4292c6";
    case 3: return "#9ecae1";
    case 4: return simdutf[k % 5];
    case 5: return "#d62728";
    case 6: return "#9467bd";
    case 7: return node[k % 4];
    case 8: return "#7f7f7f";
    case 9: return "#252525";
    case 10: return k % 2 ? "#9edae5" : "#17becf";
    default: return "#e377c2";
  }
}

/* Distinct strings in order of first appearance (rows of one suite); past
 * 512 (no chart of ours has a tenth of that), more are left out. */
typedef struct {
  const char *s[512];
  int n;
} strset;

static int index_of(strset *set, const char *s, int add) {
  for (int i = 0; i < set->n; i++)
    if (strcmp(set->s[i], s) == 0) return i;
  if (!add || set->n == (int)(sizeof set->s / sizeof set->s[0])) return -1;
  set->s[set->n] = s;
  return set->n++;
}

static int by_rank(const void *a, const void *b) {
  const char *x = *(const char *const *)a, *y = *(const char *const *)b;
  int d = impl_rank(x) - impl_rank(y);
  if (!d) d = impl_subrank(x) - impl_subrank(y);
  return d ? d : strcmp(x, y);
}

static void xml_text(FILE *o, const char *s) {
  for (; *s; s++) {
    if (*s == '<') fputs("&lt;", o);
    else if (*s == '>') fputs("&gt;", o);
    else if (*s == '&') fputs("&amp;", o);
    else if (*s == '"') fputs("&quot;", o);
    else fputc(*s, o);
  }
}

static const row *find(const results *r, const char *suite, const char *panel, const char *group,
                       const char *impl) {
  for (size_t i = 0; i < r->n; i++) {
    const row *w = &r->rows[i];
    if (!strcmp(w->suite, suite) && !strcmp(w->panel, panel) && !strcmp(w->group, group) &&
        !strcmp(w->impl, impl))
      return w;
  }
  return NULL;
}

/* The groups of one panel, and which implementations it has (has[k] for
 * impls->s[k]); returns how many. */
static int panel_contents(const results *r, const char *suite, const char *panel,
                          strset *impls, strset *groups, int *has) {
  int nimpl = 0;
  for (size_t i = 0; i < r->n; i++) {
    const row *w = &r->rows[i];
    if (strcmp(w->suite, suite) || strcmp(w->panel, panel)) continue;
    int k = index_of(impls, w->impl, 0);
    index_of(groups, w->group, 1);
    if (k >= 0) has[k] = 1;
  }
  for (int k = 0; k < impls->n; k++) nimpl += has[k];
  return nimpl;
}

/* Layout, in pixels. */
enum { BAR = 9, GROUP_GAP = 12, LEFT = 90, RIGHT = 30, PANEL_H = 250 };

static int chart(const results *r, const char *suite, const char *what, const char *path) {
  strset panels = {{0}, 0}, impls = {{0}, 0};
  double lo = INFINITY, hi = 0;
  int width = 0, height, in_family = 0, label_h = 0, top, legend_rows = 1;
  const char *colour[512];
  FILE *o;
  for (size_t i = 0; i < r->n; i++) {
    const row *w = &r->rows[i];
    if (strcmp(w->suite, suite) != 0) continue;
    index_of(&panels, w->panel, 1);
    index_of(&impls, w->impl, 1);
    if (w->lo < lo) lo = w->lo;
    if (w->hi > hi) hi = w->hi;
    /* x labels are rotated by 40 degrees: ~6.5 px a character, sin 40 = 0.64 */
    {
      int lh = (int)strlen(w->group) * 21 / 5 + 34;
      if (lh > label_h) label_h = lh;
    }
  }
  if (panels.n == 0) { /* the suite did not run: no chart (not last run's) */
    remove(path);
    return 0;
  }
  qsort(impls.s, (size_t)impls.n, sizeof impls.s[0], by_rank);
  for (int k = 0; k < impls.n; k++) {
    int fam = impl_rank(impls.s[k]);
    colour[k] = impl_colour(impls.s[k], k > 0 && impl_rank(impls.s[k - 1]) == fam ? ++in_family
                                                                                  : (in_family = 0));
  }
  lo = pow(10, floor(log10(lo)));
  hi = pow(10, ceil(log10(hi)));
  if (hi <= lo) hi = lo * 10;

  /* Width: the widest panel (groups x the implementations it has). */
  for (int p = 0; p < panels.n; p++) {
    strset groups = {{0}, 0};
    int has[512] = {0}, nimpl = 0, wpx;
    nimpl = panel_contents(r, suite, panels.s[p], &impls, &groups, has);
    wpx = groups.n * (nimpl * BAR + GROUP_GAP);
    if (wpx > width) width = wpx;
  }
  width += LEFT + RIGHT;
  if (width < 900) width = 900;
  {
    int x = LEFT;
    for (int k = 0; k < impls.n; k++) {
      int wtext = 7 * (int)strlen(impls.s[k]) + 30;
      if (x + wtext > width - RIGHT) x = LEFT, legend_rows++;
      x += wtext;
    }
  }
  top = 78 + 18 * legend_rows + 20;
  height = top + panels.n * (PANEL_H + label_h) + 10;

  o = fopen(path, "w");
  if (!o) {
    perror(path);
    return -1;
  }
  fprintf(o, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
             "viewBox=\"0 0 %d %d\" font-family=\"DejaVu Sans, Helvetica, Arial, sans-serif\" "
             "font-size=\"11\">\n", width, height, width, height);
  fprintf(o, "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n");
  fprintf(o, "<text x=\"%d\" y=\"24\" font-size=\"16\" font-weight=\"bold\">utfx %s: %s</text>\n",
          LEFT, r->version, what);
  fprintf(o, "<text x=\"%d\" y=\"44\" font-size=\"14\">CPU: ", LEFT);
  xml_text(o, r->cpu);
  fprintf(o, "</text>\n<text x=\"%d\" y=\"62\" fill=\"#444\">GB/s of input, median of the "
             "timed batches (log scale); whisker: median &#177; MAD; hover a bar for its "
             "numbers. Higher is faster.</text>\n", LEFT);
  /* Legend */
  {
    int x = LEFT, y = 76;
    for (int k = 0; k < impls.n; k++) {
      int wtext = 7 * (int)strlen(impls.s[k]) + 30;
      if (x + wtext > width - RIGHT) x = LEFT, y += 18;
      fprintf(o, "<rect x=\"%d\" y=\"%d\" width=\"12\" height=\"12\" fill=\"%s\"/>"
                 "<text x=\"%d\" y=\"%d\">", x, y, colour[k], x + 16, y + 10);
      xml_text(o, impls.s[k]);
      fprintf(o, "</text>\n");
      x += wtext;
    }
  }

  for (int p = 0; p < panels.n; p++) {
    strset groups = {{0}, 0};
    int has[512] = {0}, y0 = top + p * (PANEL_H + label_h) + 18, x;
    double span = log10(hi) - log10(lo);
#define YPOS(v) (y0 + PANEL_H - (int)lround(PANEL_H * (log10(v) - log10(lo)) / span))
    panel_contents(r, suite, panels.s[p], &impls, &groups, has);
    fprintf(o, "<text x=\"%d\" y=\"%d\" font-size=\"13\" font-weight=\"bold\">", LEFT, y0 - 6);
    xml_text(o, panels.s[p]);
    fprintf(o, "</text>\n");
    /* Axis and grid: 1, 2, 5 per decade, labels on 1 and 10. */
    for (double d = lo; d < hi * 1.001; d *= 10)
      for (int m = 1; m <= 5; m += (m == 1 ? 1 : 3)) {
        double v = d * m;
        int y;
        if (v > hi * 1.001) break;
        y = YPOS(v);
        fprintf(o, "<line x1=\"%d\" x2=\"%d\" y1=\"%d\" y2=\"%d\" stroke=\"%s\"/>\n", LEFT,
                width - RIGHT, y, y, m == 1 ? "#bbb" : "#eee");
        fprintf(o, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\" fill=\"#444\">%g</text>\n",
                LEFT - 4, y + 4, v);
      }
    fprintf(o, "<text transform=\"translate(%d,%d) rotate(-90)\" text-anchor=\"middle\" "
               "fill=\"#444\">GB/s</text>\n", LEFT - 48, y0 + PANEL_H / 2);
    x = LEFT + GROUP_GAP / 2;
    for (int g = 0; g < groups.n; g++) {
      int gx = x;
      for (int k = 0; k < impls.n; k++) {
        const row *w;
        if (!has[k]) continue;
        w = find(r, suite, panels.s[p], groups.s[g], impls.s[k]);
        if (w) {
          int y = YPOS(w->gbps), cx = x + BAR / 2;
          fprintf(o, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"%s\">"
                     "<title>", x, y, BAR - 1, y0 + PANEL_H - y, colour[k]);
          xml_text(o, panels.s[p]);
          fputc('/', o);
          xml_text(o, groups.s[g]);
          fputc(' ', o);
          xml_text(o, w->impl);
          fprintf(o, ": %.3g GB/s (%.3g-%.3g)</title></rect>\n", w->gbps, w->lo, w->hi);
          if (YPOS(w->lo) - YPOS(w->hi) >= 2)
            fprintf(o, "<line x1=\"%d\" x2=\"%d\" y1=\"%d\" y2=\"%d\" stroke=\"black\" "
                       "stroke-width=\"1\"/>\n", cx, cx, YPOS(w->lo), YPOS(w->hi));
        }
        x += BAR;
      }
      fprintf(o, "<text transform=\"translate(%d,%d) rotate(-40)\" text-anchor=\"end\">",
              (gx + x) / 2 + 3, y0 + PANEL_H + 12);
      xml_text(o, groups.s[g]);
      fprintf(o, "</text>\n");
      x += GROUP_GAP;
    }
    fprintf(o, "<line x1=\"%d\" x2=\"%d\" y1=\"%d\" y2=\"%d\" stroke=\"black\"/>\n", LEFT,
            width - RIGHT, y0 + PANEL_H, y0 + PANEL_H);
#undef YPOS
  }
  fprintf(o, "</svg>\n");
  if (fclose(o) != 0) {
    perror(path);
    return -1;
  }
  printf("chart: %s\n", path);
  return 1;
}

int main(int argc, char **argv) {
  static const char *const suites[][2] = {
      {"kernels", "kernels per function and text"},
      {"decode", "streaming decoder vs Node's StringDecoder (in=bytes, chunk=bytes)"},
      {"encode", "UTF-16 to UTF-8 into a buffer vs Node's Buffer.write and encodeInto"},
  };
  results r = {0};
  int drawn = 0, rc = 0;
  if (argc != 3) {
    fprintf(stderr, "usage: utfx-chart RESULTS.csv OUTDIR\n");
    return 2;
  }
  if (load(argv[1], &r) != 0) rc = 1;
  for (size_t i = 0; rc == 0 && i < sizeof suites / sizeof suites[0]; i++) {
    char path[4096];
    int done;
    snprintf(path, sizeof path, "%s/%s.svg", argv[2], suites[i][0]);
    done = chart(&r, suites[i][0], suites[i][1], path);
    if (done < 0) rc = 1;
    else drawn += done;
  }
  if (rc == 0 && !drawn) {
    fprintf(stderr, "utfx-chart: %s has no kernels, decode or encode rows\n", argv[1]);
    rc = 1;
  }
  free_results(&r);
  return rc;
}
