/* The command line of the benchmark engine (utfx_bench_main): options, then
 * the suites the front end registered, the timing, the reports. */
#define _POSIX_C_SOURCE 200809L

#include "engine_internal.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "utfx.h"

#ifndef UTFX_BENCH_SRC_DIR
#define UTFX_BENCH_SRC_DIR "bench"
#endif

static void usage(FILE *out) {
  fprintf(out,
          "usage: utfx-bench [options]\n"
          "  --suite LIST      suites: kernels,small,decode,encode,base64,node (default: all)\n"
          "  --func LIST       function globs, e.g. 'convert_utf8_*,validate_utf8'\n"
          "                    (decode: the encoding, encode: the string kind)\n"
          "  --input LIST      input globs, e.g. 'Arabic,Emoji' or 'in=4096/*'\n"
          "  --impl LIST       implementation globs: utfx, utfx-scalar, memcpy, icu,\n"
          "                    iconv, simdutf, simdutf-icelake, node (default: all)\n"
          "  --all-tiers       also time tiers that run the same kernel as a lower one\n"
          "  --samples N       timed batches per benchmark (default 15)\n"
          "  --batch-ms X      minimum duration of one batch (default 2)\n"
          "  --warmup-ms X     minimum warm-up per benchmark (default 20)\n"
          "  --processes N     time every benchmark in N fresh processes, one after\n"
          "                    the other, and pool their batches (a figure then does\n"
          "                    not hang on one process's addresses; default 1)\n"
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
          "  --placement P     kernels and small suites, utfx rows: heap (default),\n"
          "                    src-end, dst-end or ends: the source, the destination\n"
          "                    (of the exact output size) or both end just before an\n"
          "                    unmapped (PROT_NONE) page, as mapped files do\n"
          "  --dst-offset D    kernels suite: (destination - source) mod 4096 in bytes\n"
          "                    (default: one of 8 spread over the page, a different\n"
          "                    one in each --processes child and --compare round)\n"
          "  --data DIR        corpus directory (default %s/data)\n"
          "  --file PATH       a UTF-8 text to use instead of the corpus (repeatable)\n"
          "  --node PATH       node executable (default: node)\n"
          "  --list            list the selected benchmarks, do not run them\n"
          "  --quiet           no progress and no table (with --csv)\n"
          "  --compare OLD NEW run two utfx-bench builds interleaved and print each\n"
          "                    row's change with Welch t-test stars (other options are\n"
          "                    passed to both; --rounds N, default 6); OLD and NEW\n"
          "                    may be comma lists of K layouts of each build\n"
          "                    (bench/compare.sh -k): round r runs layout r %% K\n"
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
  int list = 0, quiet = 0, longfmt = 0, headline_only = 0, rounds = 6, processes = 1, rc = 0, i;
  char **pass = bench_xrealloc(NULL, (size_t)(argc + 1) * sizeof *pass);
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
  reg.opt.dst_offset = -1;
  reg.opt.files = bench_xrealloc(NULL, (size_t)argc * sizeof *reg.opt.files); /* room for every --file */

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
    } else if (ARG("--placement")) {
      const char *v = argv[++i];
      reg.opt.placement = !strcmp(v, "src-end")   ? 1
                          : !strcmp(v, "dst-end") ? 2
                          : !strcmp(v, "ends")    ? 3
                                                  : 0;
      if (!reg.opt.placement && strcmp(v, "heap") != 0) {
        fprintf(stderr, "utfx-bench: --placement: heap, src-end, dst-end or ends\n");
        free(pass);
        free(reg.opt.files);
        return 2;
      }
    } else if (ARG("--dst-offset")) {
      reg.opt.dst_offset = atoi(argv[++i]) & 4095;
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
    } else if (ARG("--processes")) {
      processes = atoi(argv[++i]);
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
      return bench_selftest();
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
  bench_use_wall_clock(reg.opt.wall_clock);
  if (reg.opt.tiny) {
    reg.opt.samples = 1;
    reg.opt.batch_ms = 0.05;
    reg.opt.warmup_ms = 0;
  }

  if (cmp_csv_old) {
    rc = bench_compare_csv(cmp_csv_old, cmp_csv_new);
    free(pass);
    free(reg.opt.files);
    return rc;
  }
  if (cmp_old) {
    rc = bench_compare_binaries(cmp_old, cmp_new, rounds < 2 ? 2 : rounds, pass, npass, csv);
    free(pass);
    free(reg.opt.files);
    return rc;
  }

  bench_run_suites(&reg, 0);
  if (processes > 1 && !list) {
    rc = bench_time_in_processes(&reg, processes, pass, npass);
    if (rc) list = 1; /* nothing to report */
  }
  free(pass);
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
      if (r->e.run && processes <= 1) bench_measure(r, &reg.opt);
    }
    if (!quiet && tty) fprintf(stderr, "\r\033[K");
    /* Node runs after ours, in its own process, on the same grids (in the
     * parent only, with --processes). */
    if (!bench_is_child()) bench_run_suites(&reg, 1);
    if (!quiet) {
      char features[256];
      utfx_cpu_features(features, sizeof features);
      printf("utfx %s; CPU: %s; compiler: %s\n", utfx_version(), bench_cpu_model(), bench_compiler_name());
      printf("CPU features: %s; %g batches of >= %g ms %s time per benchmark%s\n",
             features[0] ? features : "(none)", reg.opt.samples * (processes > 1 ? processes : 1),
             reg.opt.batch_ms, reg.opt.wall_clock ? "wall" : "CPU",
             processes > 1 ? ", from as many processes as --processes says" : "");
      if (longfmt)
        bench_print_long(&reg, stdout);
      else if (!headline_only)
        bench_print_pivot(&reg, stdout, m);
      bench_print_headline(&reg, stdout, m);
    }
    if (csv && bench_write_csv(&reg, csv) != 0) rc = 2;
    if (raw && bench_write_raw(&reg, raw) != 0) rc = 2;
    if (plot && bench_write_plot_data(&reg, plot) != 0) rc = 2;
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
