/* utfx count: lines, code points, UTF-16 units and bytes, like wc. Counts
 * what the --replace decoding sees: each ill-formed sequence counts as the
 * U+FFFD characters it becomes (validate says whether there are any). */
#define _POSIX_C_SOURCE 200809L

#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static const char usage[] =
    "Usage: utfx count [OPTION]... [FILE]...\n"
    "Print line, code point, UTF-16 unit and byte counts for each FILE (or\n"
    "standard input), and a total line for several files, like wc.\n"
    "\n"
    "  -f, --from=ENC   encoding (default: the byte-order mark's, else utf-8;\n"
    "                   auto: as utfx convert --help says)\n"
    "  -l, --lines      print the LF count\n"
    "  -m, --chars      print the code point count\n"
    "  -u, --utf16      print the UTF-16 code unit count\n"
    "  -c, --bytes      print the byte count\n"
    "  -h, --help       show this help\n"
    "\n"
    "Without -l/-m/-u/-c all four are printed, in that order. A byte-order mark\n"
    "found without -f counts as bytes only. Ill-formed sequences count as the\n"
    "U+FFFD characters --replace would write for them.\n"
    "Exit status: 0 ok, 2 usage error, 3 some file could not be read.\n";

struct counts {
  uint64_t v[4]; /* lines, code points, UTF-16 units, bytes */
};

static int on_data(struct cli_stream *s, unsigned char *p, size_t nbytes) {
  struct counts *c = s->ctx;
  size_t units = nbytes / cli_unit_size(s->enc);
  c->v[0] += cli_count_lf(s->fam, p, nbytes);
  c->v[1] += cli_code_points(s->fam, p, units);
  c->v[2] += cli_utf16_units(s->fam, p, units);
  c->v[3] += nbytes;
  return 0;
}

static int on_tail(struct cli_stream *s, unsigned char *p, size_t nbytes) {
  struct counts *c = s->ctx;
  (void)p;
  c->v[1] += 1; /* an incomplete unit is one U+FFFD */
  c->v[2] += 1;
  c->v[3] += nbytes;
  return 0;
}

static int digits(uint64_t v) {
  int d = 1;
  while (v >= 10) {
    v /= 10;
    d++;
  }
  return d;
}

static void print_row(const struct counts *c, const int *show, int width, const char *name) {
  int k, first = 1;
  for (k = 0; k < 4; k++) {
    if (!show[k]) continue;
    printf(first ? "%*" PRIu64 : " %*" PRIu64, width, c->v[k]);
    first = 0;
  }
  if (name) printf(" %s", name);
  putchar('\n');
}

int cli_count_main(int argc, char **argv) {
  static const struct option longopts[] = {
      {"from", required_argument, NULL, 'f'}, {"lines", no_argument, NULL, 'l'},
      {"chars", no_argument, NULL, 'm'},      {"utf16", no_argument, NULL, 'u'},
      {"bytes", no_argument, NULL, 'c'},      {"help", no_argument, NULL, 'h'},
      {NULL, 0, NULL, 0}};
  struct cli_encoding from = {CLI_UTF8, 0, 1};
  struct cli_stream s;
  struct counts total, *each;
  int show[4] = {0, 0, 0, 0}, any = 0, opt, nfiles, i, k, width, rc = 0, named;
  int *ok;
  static char dash[] = "-";
  static char *stdin_only[] = {dash};
  char **files;
  opterr = 0;
  while ((opt = getopt_long(argc, argv, ":f:lmuch", longopts, NULL)) != -1) {
    switch (opt) {
      case 'f':
        if (cli_encoding_parse(optarg, &from) != 0) {
          cli_error("unknown encoding '%s' (see utfx count --help)", optarg);
          return CLI_EXIT_USAGE;
        }
        break;
      case 'l':
      case 'm':
      case 'u':
      case 'c':
        show[opt == 'l' ? 0 : opt == 'm' ? 1 : opt == 'u' ? 2 : 3] = any = 1;
        break;
      case 'h':
        fputs(usage, stdout);
        return cli_flush_stdout();
      default:
        return cli_bad_option("count", argv, opt == ':');
    }
  }
  if (!any) show[0] = show[1] = show[2] = show[3] = 1;
  files = argv + optind;
  nfiles = argc - optind;
  named = nfiles > 0;
  if (nfiles == 0) {
    files = stdin_only;
    nfiles = 1;
  }
  /* All rows are printed at the end so the columns can line up. */
  each = calloc((size_t)nfiles, sizeof *each);
  ok = calloc((size_t)nfiles, sizeof *ok);
  if (!each || !ok) {
    free(each);
    free(ok);
    cli_error("out of memory");
    return CLI_EXIT_IO;
  }
  memset(&total, 0, sizeof total);
  memset(&s, 0, sizeof s);
  s.want = from;
  s.progress = 1;
  s.on_data = on_data;
  s.on_tail = on_tail;
  for (i = 0; i < nfiles; i++) {
    struct cli_input in;
    int r = cli_input_open(&in, files[i]);
    if (r) {
      rc = r;
      continue;
    }
    s.ctx = &each[i];
    r = cli_stream_run(&s, &in);
    each[i].v[3] += s.bom_len;
    cli_input_close(&in);
    if (r) {
      rc = r;
      continue;
    }
    ok[i] = 1;
    for (k = 0; k < 4; k++) total.v[k] += each[i].v[k];
  }
  width = 1;
  for (k = 0; k < 4; k++)
    if (show[k] && digits(total.v[k]) > width) width = digits(total.v[k]);
  if (nfiles == 1 && any && (show[0] + show[1] + show[2] + show[3]) == 1) width = 1;
  for (i = 0; i < nfiles; i++)
    if (ok[i]) print_row(&each[i], show, width, named ? files[i] : NULL);
  if (nfiles > 1) print_row(&total, show, width, "total");
  free(each);
  free(ok);
  k = cli_flush_stdout();
  return rc ? rc : k;
}
