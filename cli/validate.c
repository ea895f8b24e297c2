/* utfx validate: checks that files are well-formed in their encoding, and
 * says where they are not, one line per file (or per error with --all). */
#define _POSIX_C_SOURCE 200809L

#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"

static const char usage[] =
    "Usage: utfx validate [OPTION]... [FILE]...\n"
    "Check that each FILE (or standard input) is well-formed in its encoding.\n"
    "Prints FILE:LINE:COLUMN: and what is wrong for the first error of each\n"
    "invalid file; prints nothing for valid files.\n"
    "\n"
    "  -f, --from=ENC   encoding (default: the byte-order mark's, else utf-8):\n"
    "                   utf-8, utf-16le, utf-16be, utf-16, utf-32le, utf-32be,\n"
    "                   utf-32, latin1 (always valid)\n"
    "  -a, --all        report every error, not only the first of each file\n"
    "  -q, --quiet      print nothing; only the exit status tells\n"
    "  -h, --help       show this help\n"
    "\n"
    "Exit status: 0 all valid, 1 some file invalid, 2 usage error,\n"
    "3 some file could not be read.\n";

struct validate_ctx {
  int all, quiet;
  int invalid;       /* this file */
  struct cli_pos pos; /* position at p + cursor */
  size_t cursor;
};

static void report(struct cli_stream *s, struct validate_ctx *v, const unsigned char *p,
                   size_t e, size_t n) {
  char what[128];
  cli_describe_invalid(s, p, e, n, what, sizeof what);
  if (!s->track) { /* a regular file and one error: re-read to find it */
    cli_report_at(s, &v->pos, p, e, what);
    return;
  }
  cli_pos_advance(&v->pos, s->fam, p + v->cursor, e - v->cursor);
  v->cursor = e;
  cli_report(s, &v->pos, s->offset + e, what);
}

static int on_data(struct cli_stream *s, unsigned char *p, size_t nbytes) {
  struct validate_ctx *v = s->ctx;
  size_t us = cli_unit_size(s->enc), units = nbytes / us, pos = 0;
  v->cursor = 0;
  while (pos < units) {
    utfx_result r = cli_validate(s->fam, p + pos * us, units - pos);
    size_t e, len;
    if (r.status == UTFX_OK) break;
    v->invalid = 1;
    if (v->quiet) return CLI_EXIT_INVALID;
    e = pos + r.read;
    report(s, v, p, e * us, nbytes);
    if (!v->all) return CLI_EXIT_INVALID;
    len = s->fam == FAM_UTF8 ? cli_utf8_sequence_length(p + e, units - e) : 1;
    pos = e + len;
  }
  if (s->track) cli_pos_advance(&v->pos, s->fam, p + v->cursor, nbytes - v->cursor);
  return 0;
}

static int on_tail(struct cli_stream *s, unsigned char *p, size_t nbytes) {
  struct validate_ctx *v = s->ctx;
  v->invalid = 1;
  v->cursor = 0;
  if (!v->quiet) report(s, v, p, 0, nbytes);
  return CLI_EXIT_INVALID;
}

int cli_validate_main(int argc, char **argv) {
  static const struct option longopts[] = {{"from", required_argument, NULL, 'f'},
                                           {"all", no_argument, NULL, 'a'},
                                           {"quiet", no_argument, NULL, 'q'},
                                           {"help", no_argument, NULL, 'h'},
                                           {NULL, 0, NULL, 0}};
  struct cli_encoding from = {CLI_UTF8, 0, 1};
  struct validate_ctx v;
  struct cli_stream s;
  static char dash[] = "-";
  static char *stdin_only[] = {dash};
  char **files;
  int opt, nfiles, i, any_invalid = 0, any_io = 0;
  memset(&v, 0, sizeof v);
  opterr = 0;
  while ((opt = getopt_long(argc, argv, ":f:aqh", longopts, NULL)) != -1) {
    switch (opt) {
      case 'f':
        if (cli_encoding_parse(optarg, &from) != 0) {
          cli_error("unknown encoding '%s' (see utfx validate --help)", optarg);
          return CLI_EXIT_USAGE;
        }
        break;
      case 'a':
        v.all = 1;
        break;
      case 'q':
        v.quiet = 1;
        break;
      case 'h':
        fputs(usage, stdout);
        return cli_flush_stdout();
      default:
        return cli_bad_option("validate", argv, opt == ':');
    }
  }
  files = argv + optind;
  nfiles = argc - optind;
  if (nfiles == 0) {
    files = stdin_only;
    nfiles = 1;
  }
  memset(&s, 0, sizeof s);
  s.want = from;
  s.progress = !v.quiet;
  s.positions = v.quiet ? 0 : v.all ? 2 : 1;
  s.on_data = on_data;
  s.on_tail = on_tail;
  s.ctx = &v;
  for (i = 0; i < nfiles; i++) {
    struct cli_input in;
    int rc = cli_input_open(&in, files[i]);
    if (rc) {
      any_io = 1;
      continue;
    }
    v.invalid = 0;
    memset(&v.pos, 0, sizeof v.pos);
    rc = cli_stream_run(&s, &in);
    cli_input_close(&in);
    if (rc == CLI_EXIT_IO) any_io = 1;
    if (v.invalid) any_invalid = 1;
  }
  return any_io ? CLI_EXIT_IO : any_invalid ? CLI_EXIT_INVALID : CLI_EXIT_OK;
}
