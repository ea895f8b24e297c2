/* utfx bench: the benchmark harness of bench/ (the engine behind `make
 * bench`, linked in), with defaults for users: the kernel suite, the headline
 * functions, utfx's tiers next to memcpy, a quick run. It benchmarks the
 * UTF-8 FILEs, else the corpus shipped in the source tree, else (an installed
 * utfx without the sources) a generated multilingual text. The engine checks
 * every implementation against the scalar tier before timing it, so a broken
 * kernel never reports a speed. */
#define _POSIX_C_SOURCE 200809L

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../bench/engine.h"
#include "cli.h"

#ifndef UTFX_BENCH_SRC_DIR
#define UTFX_BENCH_SRC_DIR "bench"
#endif

static const char usage[] =
    "Usage: utfx bench [OPTION]... [FILE]...\n"
    "Measure in-memory speed (GB/s of input, CPU time, median) of validation,\n"
    "conversion and length functions for each implementation this CPU supports,\n"
    "next to memcpy, on the UTF-8 FILEs, the shipped corpus, or generated text.\n"
    "Each implementation is checked against the scalar one before it is timed.\n"
    "\n"
    "  --impl=NAME|all   implementation to measure (default: all supported)\n"
    "  --func=LIST       functions (globs), e.g. 'convert_utf8_*,validate_utf8'\n"
    "  -r, --runs=N      timed batches per measurement (default 7)\n"
    "  -s, --size=MIB    size of the generated text (default 1)\n"
    "  --csv=FILE        also write every measurement as CSV\n"
    "  -h, --help        show this help\n"
    "\n"
    "The developer harness (make bench, build/utfx-bench --help) runs the same\n"
    "engine with baselines (ICU, iconv, simdutf) and more suites.\n"
    "Exit status: 0 ok, 2 usage error, 3 I/O error.\n";

/* The engine's argv wants char *: these are its fixed words. */
static char arg_suite[] = "--suite", arg_kernels[] = "kernels", arg_quick[] = "--quick",
            arg_samples[] = "--samples", arg_impl[] = "--impl", arg_func[] = "--func",
            arg_data[] = "--data", arg_csv[] = "--csv", arg_file[] = "--file",
            arg_name[] = "utfx bench", default_runs[] = "7",
            default_funcs[] =
                "validate_utf8,convert_utf8_to_utf16le,convert_utf16le_to_utf8,"
                "convert_utf8_to_utf32,utf16_length_from_utf8,convert_latin1_to_utf8";

/* Words of several scripts (\u escapes keep this source ASCII). */
static const char *const words[] = {
    "lorem", "ipsum", "dolor", "\u00e9t\u00e9", "na\u00efve",
    "\u0436\u0438\u0437\u043d\u044c",
    "\u043c\u0438\u0440", "\u05e9\u05dc\u05d5\u05dd", "\u0633\u0644\u0627\u0645",
    "\u0928\u092e\u0938\u094d\u0924\u0947", "\u65e5\u672c\u8a9e", "\u4e2d\u6587",
    "\ud55c\uad6d\uc5b4", "\U0001F600", "\U0001F680\U0001F30D", "text", "data"};

static char *generate(size_t size, size_t *n) {
  char *s = malloc(size + 64);
  uint32_t x = 2463534242u; /* xorshift: the same text on every run */
  size_t len = 0, col = 0;
  if (!s) return NULL;
  while (len < size) {
    const char *w;
    size_t wl;
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    w = words[x % (sizeof words / sizeof words[0])];
    wl = strlen(w);
    if (len + wl + 1 > size) break;
    memcpy(s + len, w, wl);
    len += wl;
    col += wl;
    s[len++] = col > 70 ? '\n' : ' ';
    if (col > 70) col = 0;
  }
  *n = len;
  return s;
}

/* Writes n bytes of generated text to a new temporary file; returns its
 * path (static storage) or NULL. */
static char *write_generated(size_t mib) {
  static char path[4096];
  const char *dir = getenv("TMPDIR");
  size_t n, done = 0;
  char *text = generate(mib << 20, &n);
  int fd;
  snprintf(path, sizeof path, "%s/utfx-bench-XXXXXX", dir && *dir ? dir : "/tmp");
  fd = text ? mkstemp(path) : -1;
  if (fd < 0) {
    free(text);
    return NULL;
  }
  while (done < n) {
    ssize_t k = write(fd, text + done, n - done);
    if (k <= 0) break;
    done += (size_t)k;
  }
  free(text);
  if (close(fd) != 0 || done < n) {
    unlink(path);
    return NULL;
  }
  return path;
}

int utfx_cli_bench(int argc, char **argv) {
  static const struct option longopts[] = {{"impl", required_argument, NULL, 'I'},
                                           {"func", required_argument, NULL, 'F'},
                                           {"csv", required_argument, NULL, 'C'},
                                           {"runs", required_argument, NULL, 'r'},
                                           {"size", required_argument, NULL, 's'},
                                           {"help", no_argument, NULL, 'h'},
                                           {NULL, 0, NULL, 0}};
  char impls[128] = "utfx*,memcpy", data_dir[4096];
  char *funcs = default_funcs, *csv = NULL, *runs = default_runs, *generated = NULL;
  char **args;
  size_t mib = 1;
  int opt, nargs = 0, rc, i;
  opterr = 0;
  while ((opt = getopt_long(argc, argv, ":r:s:h", longopts, NULL)) != -1) {
    switch (opt) {
      case 'I':
        if (strcmp(optarg, "all") != 0) {
          if (!utfx_implementation_supported(optarg)) {
            cli_error("bench: unknown or unsupported implementation '%s' (see utfx info)",
                      optarg);
            return CLI_EXIT_USAGE;
          }
          snprintf(impls, sizeof impls, "utfx-%s,memcpy", optarg);
        }
        break;
      case 'F':
        funcs = optarg;
        break;
      case 'C':
        csv = optarg;
        break;
      case 'r':
        runs = optarg;
        if (atoi(runs) < 1 || atoi(runs) > 1000) {
          cli_error("bench: --runs must be 1..1000");
          return CLI_EXIT_USAGE;
        }
        break;
      case 's':
        mib = (size_t)atol(optarg);
        if (mib < 1 || mib > 4096) {
          cli_error("bench: --size must be 1..4096 (MiB)");
          return CLI_EXIT_USAGE;
        }
        break;
      case 'h':
        fputs(usage, stdout);
        return cli_flush_stdout();
      default:
        return cli_bad_option("bench", argv, opt == ':');
    }
  }
  snprintf(data_dir, sizeof data_dir, "%s/data", UTFX_BENCH_SRC_DIR);
  if (optind == argc && access(data_dir, R_OK) != 0) {
    generated = write_generated(mib);
    if (!generated) {
      cli_error("bench: cannot write a temporary file for the generated text");
      return CLI_EXIT_IO;
    }
  }
  args = malloc((size_t)(2 * (argc - optind) + 24) * sizeof *args);
  if (!args) {
    cli_error("out of memory");
    return CLI_EXIT_IO;
  }
  args[nargs++] = arg_name;
  args[nargs++] = arg_suite;
  args[nargs++] = arg_kernels;
  args[nargs++] = arg_quick;
  args[nargs++] = arg_samples;
  args[nargs++] = runs;
  args[nargs++] = arg_impl;
  args[nargs++] = impls;
  args[nargs++] = arg_func;
  args[nargs++] = funcs;
  args[nargs++] = arg_data;
  args[nargs++] = data_dir;
  if (csv) {
    args[nargs++] = arg_csv;
    args[nargs++] = csv;
  }
  for (i = optind; i < argc; i++) {
    args[nargs++] = arg_file;
    args[nargs++] = argv[i];
  }
  if (generated) {
    args[nargs++] = arg_file;
    args[nargs++] = generated;
  }
  args[nargs] = NULL;
  fflush(stdout);
  bench_register_standard_suites();
  rc = utfx_bench_main(nargs, args);
  if (generated) unlink(generated);
  free(args);
  if (cli_flush_stdout() != 0) rc = CLI_EXIT_IO;
  return rc;
}
