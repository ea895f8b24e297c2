/* utfx validate: checks that files are well-formed in their encoding, and
 * says where they are not, one line per file (or per error with --all). */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <getopt.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

static const char usage[] =
    "Usage: utfx validate [OPTION]... [FILE]...\n"
    "Check that each FILE (or standard input) is well-formed in its encoding.\n"
    "Prints FILE:LINE:COLUMN: and what is wrong for the first error of each\n"
    "invalid file; prints nothing for valid files.\n"
    "\n"
    "  -f, --from=ENC   encoding (default: the byte-order mark's, else utf-8):\n"
    "                   utf-8, utf-16le, utf-16be, utf-16, utf-32le, utf-32be,\n"
    "                   utf-32, latin1 (always valid), auto (below)\n"
    "  -a, --all        report every error, not only the first of each file\n"
    "  -q, --quiet      print nothing; only the exit status tells\n"
    "  -j, --threads=N  threads for a regular FILE (default: every CPU)\n"
    "  -h, --help       show this help\n"
    "\n"
"auto (input only): a byte-order mark decides, else the form the input is\n"
    "valid in: UTF-8 first, then UTF-32LE, UTF-32BE, then UTF-16LE or UTF-16BE\n"
    "(valid in both: the one whose high bytes hold more zero bytes); a regular\n"
    "file is looked at whole, a pipe by its first MiB.\n"
    "Exit status: 0 all valid, 1 some file invalid, 2 usage error,\n"
    "3 some file could not be read.\n";

struct validate_ctx {
  int all, quiet;
  size_t *errors; /* mapped path: per slot, offset of the first error in the piece */
  int invalid;       /* this file */
  struct cli_pos pos; /* position at p + cursor */
  size_t cursor;
  unsigned threads;
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

/* The mapped path (mapped.c): pieces validated on every core; the first
 * invalid one is reported. --all wants every error with its position, which
 * the sequential loop keeps: an invalid file is handed to it again
 * (RESTREAM), so the mapped path only has to be fast for valid files. */
#define NO_ERROR SIZE_MAX
#define OUT_OF_MEMORY (SIZE_MAX - 1)
enum { RESTREAM = -3 };

static int map_work(struct cli_mapped *m, size_t i, unsigned slot, const unsigned char *p,
                    size_t nbytes) {
  struct validate_ctx *v = m->ctx;
  size_t us = cli_unit_size(m->s->enc);
  utfx_result r;
  (void)i;
  if (!p) {
    v->errors[slot] = OUT_OF_MEMORY;
    return 1;
  }
  r = cli_validate(m->s->fam, p, nbytes / us);
  v->errors[slot] = r.status == UTFX_OK ? NO_ERROR : r.read * us;
  return r.status != UTFX_OK;
}

static int map_emit(struct cli_mapped *m, size_t i, unsigned slot) {
  struct validate_ctx *v = m->ctx;
  unsigned char win[16];
  size_t e = v->errors[slot], n;
  if (e == NO_ERROR) return 0;
  if (e == OUT_OF_MEMORY) {
    cli_error("out of memory");
    return CLI_EXIT_IO;
  }
  v->invalid = 1;
  if (v->quiet) return CLI_EXIT_INVALID;
  if (v->all) return RESTREAM;
  n = cli_mapped_window(m, cli_mapped_cut(m, i) + e, win);
  report(m->s, v, win, 0, n);
  return CLI_EXIT_INVALID;
}

static int map_tail(struct cli_stream *s, unsigned char *p, size_t nbytes) {
  struct validate_ctx *v = s->ctx;
  return v->all && !v->quiet ? RESTREAM : on_tail(s, p, nbytes);
}

static int validate_one(struct validate_ctx *v, struct cli_stream *s, struct cli_input *in) {
  struct cli_mapped m;
  off_t start = lseek(in->fd, 0, SEEK_CUR);
  int rc;
  memset(&m, 0, sizeof m);
  m.threads = v->threads;
  m.work = map_work;
  m.emit = map_emit;
  m.ctx = v;
  s->on_tail = map_tail;
  rc = cli_mapped_run(&m, s, in);
  s->on_tail = on_tail;
  if (rc == RESTREAM) {
    if (lseek(in->fd, start, SEEK_SET) != start) {
      cli_error("%s: cannot read it again: %s", in->display, strerror(errno));
      return CLI_EXIT_IO;
    }
    rc = CLI_NOT_MAPPED;
  }
  if (rc == CLI_NOT_MAPPED) {
    v->invalid = 0;
    memset(&v->pos, 0, sizeof v->pos);
    rc = cli_stream_run(s, in);
  }
  return rc;
}

int cli_validate_main(int argc, char **argv) {
  static const struct option longopts[] = {{"from", required_argument, NULL, 'f'},
                                           {"all", no_argument, NULL, 'a'},
                                           {"quiet", no_argument, NULL, 'q'},
                                           {"help", no_argument, NULL, 'h'},
                                           {"threads", required_argument, NULL, 'j'},
                                           {NULL, 0, NULL, 0}};
  struct cli_encoding from = {CLI_UTF8, 0, 1};
  struct validate_ctx v;
  struct cli_stream s;
  static char dash[] = "-";
  static char *stdin_only[] = {dash};
  char **files;
  unsigned threads = 0;
  int opt, nfiles, i, any_invalid = 0, any_io = 0;
  memset(&v, 0, sizeof v);
  opterr = 0;
  while ((opt = getopt_long(argc, argv, ":f:aqj:h", longopts, NULL)) != -1) {
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
      case 'j':
        if (cli_parse_threads(optarg, &threads) != 0) {
          cli_error("invalid thread count '%s' (see utfx validate --help)", optarg);
          return CLI_EXIT_USAGE;
        }
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
  v.threads = cli_threads(threads);
  v.errors = calloc(cli_par_slots(v.threads), sizeof *v.errors);
  if (!v.errors) {
    cli_error("out of memory");
    return CLI_EXIT_IO;
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
    rc = validate_one(&v, &s, &in);
    cli_input_close(&in);
    if (rc == CLI_EXIT_IO) any_io = 1;
    if (v.invalid) any_invalid = 1;
  }
  free(v.errors);
  return any_io ? CLI_EXIT_IO : any_invalid ? CLI_EXIT_INVALID : CLI_EXIT_OK;
}
