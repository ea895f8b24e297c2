/* utfx bench: a small in-memory benchmark of the public API, for users (like
 * `xxhsum -b` or `zstd -b`); the developer harness with baselines and
 * statistics lives in bench/. Each implementation is first checked against
 * the scalar one on the input and on a set of tricky inputs, so a broken kernel
 * never reports a speed. Speed = input bytes / time, median of several runs. */
#define _POSIX_C_SOURCE 200809L

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <time.h>

#include "cli.h"

static const char usage[] =
    "Usage: utfx bench [OPTION]... [FILE]...\n"
    "Measure in-memory speed (GB of input per CPU second) of validation and\n"
    "conversion for each implementation this CPU supports, on the UTF-8 FILEs\n"
    "(concatenated) or on generated multilingual text. Each implementation is\n"
    "self-tested against the scalar one first.\n"
    "\n"
    "  --impl=NAME|all  implementations to measure (default: all supported)\n"
    "  -r, --runs=N     runs per measurement, the median is shown (default 5)\n"
    "  -s, --size=MIB   size of the generated text (default 1)\n"
    "  -h, --help       show this help\n"
    "\n"
    "Exit status: 0 ok, 1 a self-test failed, 2 usage error, 3 I/O error.\n";

/* Words of several scripts (\u escapes keep this source ASCII). */
static const char *const words[] = {
    "lorem", "ipsum", "dolor", "\u00e9t\u00e9", "na\u00efve",
    "\u0436\u0438\u0437\u043d\u044c",
    "\u043c\u0438\u0440", "\u05e9\u05dc\u05d5\u05dd", "\u0633\u0644\u0627\u0645",
    "\u0928\u092e\u0938\u094d\u0924\u0947", "\u65e5\u672c\u8a9e", "\u4e2d\u6587",
    "\ud55c\uad6d\uc5b4", "\U0001F600", "\U0001F680\U0001F30D", "text", "data"};

enum { OP_VALIDATE, OP_TO_UTF16, OP_FROM_UTF16, OP_TO_UTF32, OP_COUNT };
static const char *const op_names[OP_COUNT] = {"validate utf-8", "utf-8 -> utf-16le",
                                               "utf-16le -> utf-8", "utf-8 -> utf-32"};

struct bench_data {
  char *u8;
  size_t n8;
  char16_t *u16;
  size_t n16;
  void *out; /* room for any op's output */
  size_t out_bytes;
};

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

static int load_files(char **files, int nfiles, struct bench_data *d) {
  int i;
  size_t cap = 1 << 20;
  d->u8 = malloc(cap);
  d->n8 = 0;
  for (i = 0; i < nfiles && d->u8; i++) {
    struct cli_input in;
    size_t got;
    int rc = cli_input_open(&in, files[i]);
    if (rc) return rc;
    do {
      if (cap - d->n8 < (1 << 16)) {
        char *bigger = realloc(d->u8, cap * 2);
        if (!bigger) break;
        d->u8 = bigger;
        cap *= 2;
      }
      rc = cli_read_full(&in, (unsigned char *)d->u8 + d->n8, cap - d->n8, &got);
      d->n8 += got;
    } while (!rc && got > 0);
    cli_input_close(&in);
    if (rc) return rc;
  }
  if (!d->u8) {
    cli_error("out of memory");
    return CLI_EXIT_IO;
  }
  return 0;
}

static utfx_result run_op(int op, const struct bench_data *d, unsigned flags) {
  size_t cap = d->out_bytes / 4;
  switch (op) {
    case OP_VALIDATE:
      return utfx_validate_utf8(d->u8, d->n8);
    case OP_TO_UTF16:
      return utfx_convert_utf8_to_utf16le(d->u8, d->n8, d->out, cap, flags);
    case OP_FROM_UTF16:
      return utfx_convert_utf16le_to_utf8(d->u16, d->n16, d->out, cap, flags);
    default:
      return utfx_convert_utf8_to_utf32(d->u8, d->n8, d->out, cap, flags);
  }
}

static size_t out_unit(int op) { return op == OP_TO_UTF16 ? 2 : op == OP_TO_UTF32 ? 4 : 1; }

static int same_result(utfx_result a, utfx_result b) {
  return a.status == b.status && a.read == b.read && a.written == b.written &&
         a.replaced == b.replaced;
}

/* Runs every op in both modes on d with impl and with scalar; compares the
 * results and the output bytes. */
static int self_test_on(const char *impl, struct bench_data *d, char *scratch) {
  int op;
  unsigned mode;
  for (op = 0; op < OP_COUNT; op++) {
    for (mode = 0; mode < 2; mode++) {
      utfx_result a, b;
      if (utfx_set_implementation("scalar") != 0) return -1;
      a = run_op(op, d, mode);
      memcpy(scratch, d->out, a.written * out_unit(op));
      if (utfx_set_implementation(impl) != 0) return -1;
      b = run_op(op, d, mode);
      if (!same_result(a, b) || memcmp(scratch, d->out, b.written * out_unit(op)) != 0) {
        cli_error("bench: %s: self-test FAILED for %s (%s mode): no speed reported", impl,
                  op_names[op], mode ? "replace" : "strict");
        return -1;
      }
    }
  }
  return 0;
}

/* The input itself, then short tricky cases: the design's maximal-subpart
 * examples and a corruption of the input at several places. */
static int self_test(const char *impl, const struct bench_data *full, char *scratch) {
  static const char *const tricky[] = {"\xE0\x80",         "\xED\xA0\x80", "\xF4\x90\x80\x80",
                                       "\xC0\xAF",         "a\xE2\x82\x41", "\xF0\x9F\x98",
                                       "\xF8\x88\x80\x80\x80", "ok \xC3\xA9\xE2\x82\xAC"};
  struct bench_data d = *full;
  char buf[300];
  char16_t u16[300];
  size_t i, k;
  if (self_test_on(impl, &d, scratch) != 0) return -1;
  for (i = 0; i < sizeof tricky / sizeof tricky[0] + 8; i++) {
    if (i < sizeof tricky / sizeof tricky[0]) {
      /* Padded with ASCII so wide kernels see the bytes inside a block. */
      memset(buf, 'x', sizeof buf);
      k = strlen(tricky[i]);
      memcpy(buf + 70, tricky[i], k);
      d.n8 = 150;
    } else {
      size_t at = (full->n8 / 9) * (i - sizeof tricky / sizeof tricky[0]);
      d.n8 = full->n8 - at < 256 ? full->n8 - at : 256;
      memcpy(buf, full->u8 + at, d.n8);
      if (d.n8) buf[d.n8 / 2] = (char)0x80;
    }
    d.u8 = buf;
    d.u16 = u16;
    d.n16 = utfx_convert_utf8_to_utf16le(buf, d.n8, u16, 300, UTFX_REPLACE).written;
    if (d.n16) u16[d.n16 / 3] = 0xD800; /* a lone surrogate */
    if (self_test_on(impl, &d, scratch) != 0) return -1;
  }
  return 0;
}

/* Process CPU time: on a shared machine wall time also counts other
 * processes' turns; the kernels are single-threaded either way. */
static double cpu_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

/* Median over runs of GB/s; each run repeats the op for at least 20 ms of
 * CPU time. */
static double measure(int op, const struct bench_data *d, int runs) {
  double speeds[64];
  size_t bytes = op == OP_FROM_UTF16 ? d->n16 * 2 : d->n8;
  int r;
  for (r = 0; r < runs; r++) {
    double t0 = cpu_now(), t;
    long reps = 0;
    do {
      utfx_result res = run_op(op, d, UTFX_REPLACE);
      if (res.status == UTFX_DST_FULL) return 0.0;
      reps++;
      t = cpu_now() - t0;
    } while (t < 0.02);
    speeds[r] = (double)bytes * (double)reps / t / 1e9;
  }
  qsort(speeds, (size_t)runs, sizeof speeds[0], cmp_double);
  return speeds[runs / 2];
}

int utfx_cli_bench(int argc, char **argv) {
  static const struct option longopts[] = {{"impl", required_argument, NULL, 'I'},
                                           {"runs", required_argument, NULL, 'r'},
                                           {"size", required_argument, NULL, 's'},
                                           {"help", no_argument, NULL, 'h'},
                                           {NULL, 0, NULL, 0}};
  const char *want = "all";
  const char *impls[16];
  double speed[16][OP_COUNT];
  size_t nimpl = 0, i, mib = 1;
  int runs = 5, opt, op, rc = 0;
  struct bench_data d;
  char *scratch;
  opterr = 0;
  while ((opt = getopt_long(argc, argv, ":r:s:h", longopts, NULL)) != -1) {
    switch (opt) {
      case 'I':
        want = optarg;
        break;
      case 'r':
        runs = atoi(optarg);
        if (runs < 1 || runs > 64) {
          cli_error("bench: --runs must be 1..64");
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
  for (i = 0; i < utfx_implementation_count() && nimpl < 16; i++) {
    const char *name = utfx_implementation_name(i);
    if (strcmp(want, "all") == 0 ? utfx_implementation_supported(name)
                                 : strcmp(want, name) == 0)
      impls[nimpl++] = name;
  }
  if (nimpl == 0 || (strcmp(want, "all") != 0 && !utfx_implementation_supported(want))) {
    cli_error("bench: unknown or unsupported implementation '%s' (see utfx info)", want);
    return CLI_EXIT_USAGE;
  }

  memset(&d, 0, sizeof d);
  if (optind < argc) {
    rc = load_files(argv + optind, argc - optind, &d);
    if (rc) {
      free(d.u8);
      return rc;
    }
  } else {
    d.u8 = generate(mib << 20, &d.n8);
  }
  d.out_bytes = 4 * d.n8 + 64;
  d.u16 = malloc(2 * d.n8 + 64);
  d.out = malloc(d.out_bytes);
  scratch = malloc(d.out_bytes);
  if (!d.u8 || !d.u16 || !d.out || !scratch) {
    cli_error("out of memory");
    rc = CLI_EXIT_IO;
    goto done;
  }
  d.n16 = utfx_convert_utf8_to_utf16le(d.u8, d.n8, d.u16, d.n8 + 16, UTFX_REPLACE).written;

  printf("input: %s, %zu bytes of UTF-8, %zu UTF-16 units; GB/s of input (CPU time), "
         "median of %d\n",
         optind < argc ? "files" : "generated multilingual text", d.n8, d.n16, runs);
  printf("%-20s", "operation");
  for (i = 0; i < nimpl; i++) printf(" %9s", impls[i]);
  printf("\n");
  for (i = 0; i < nimpl; i++) {
    int ok = self_test(impls[i], &d, scratch) == 0;
    if (!ok) rc = CLI_EXIT_INVALID;
    if (utfx_set_implementation(impls[i]) != 0) ok = 0;
    for (op = 0; op < OP_COUNT; op++) speed[i][op] = ok ? measure(op, &d, runs) : -1.0;
  }
  for (op = 0; op < OP_COUNT; op++) {
    printf("%-20s", op_names[op]);
    for (i = 0; i < nimpl; i++) {
      if (speed[i][op] < 0)
        printf(" %9s", "FAILED");
      else
        printf(" %9.2f", speed[i][op]);
    }
    printf("\n");
  }
  if (cli_flush_stdout() != 0) rc = CLI_EXIT_IO;
done:
  free(d.u8);
  free(d.u16);
  free(d.out);
  free(scratch);
  return rc;
}
