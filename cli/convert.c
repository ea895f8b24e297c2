/* utfx convert: conversion between encodings.
 *
 * Each piece of whole characters goes through one library conversion into an
 * output buffer of 4x its size, the most any pair can produce (ASCII to
 * UTF-32), then out in one write. The pieces are the chunks of stream.c for
 * pipes, or those of mapped.c for regular files, converted on every core and
 * written in order. The same encoding on both sides is a validation plus a
 * copy (the library has no UTF-8 to UTF-8 conversion), or no copy at all for
 * valid input. Strict runs on a pipe keep a line / column count for the
 * message (a regular file is re-read for it after an error); replace runs
 * only count what the library reports in utfx_result.replaced. */
#define _POSIX_C_SOURCE 200809L

#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"

static const char usage[] =
    "Usage: utfx convert [OPTION]... [FILE]...\n"
    "Convert FILEs (or standard input) from one encoding to another; write the\n"
    "concatenated result to standard output or to OUT.\n"
    "\n"
    "  -f, --from=ENC     input encoding (default: by byte-order mark, else utf-8)\n"
    "  -t, --to=ENC       output encoding (default: utf-8)\n"
    "      --strict       stop at the first ill-formed sequence, exit 1 (default)\n"
    "  -r, --replace      write U+FFFD for each ill-formed sequence ('?' in latin1)\n"
    "                     and report how many on stderr\n"
    "  -o, --output=OUT   write OUT atomically (a temporary file renamed on success)\n"
    "  -i, --in-place     convert each FILE in place, atomically\n"
    "      --bom          start the output with a byte-order mark\n"
    "      --strip-bom    remove a leading byte-order mark, write none\n"
    "  -q, --quiet        do not report replacements\n"
    "  -j, --threads=N    threads for a regular FILE (default: every CPU)\n"
    "  -h, --help         show this help\n"
    "\n"
    "ENC: utf-8, utf-16le, utf-16be, utf-16 (BOM decides; output: LE with BOM),\n"
    "utf-32le, utf-32be, utf-32, latin1 (iso-8859-1); case and '-' do not matter.\n"
    "auto (input only): a byte-order mark decides, else the form the input is\n"
    "valid in: UTF-8 first, then UTF-32LE, UTF-32BE, then UTF-16LE or UTF-16BE\n"
    "(valid in both: the one whose high bytes hold more zero bytes); a regular\n"
    "file is looked at whole, a pipe by its first MiB.\n"
    "Exit status: 0 ok, 1 invalid input, 2 usage error, 3 I/O error.\n";

/* The conversion of whole characters p[0..nbytes): in buf, or, for valid
 * input already in the target's form, the input itself (no copy). */
struct piece {
  unsigned char *buf; /* where this piece is converted: mem, or the output's slot ring */
  unsigned char *mem; /* the mapped path's own buffer, when the output gives none */
  size_t cap; /* 4 * nbytes + 64: the most any pair writes (ASCII to UTF-32) */
  const unsigned char *out;
  size_t olen;
  uint64_t replaced;
  size_t error; /* strict: byte offset in p of the first error; NO_ERROR if none */
  const char *fail; /* why it could not be converted (exit 3), or NULL */
};
#define NO_ERROR SIZE_MAX

struct convert_ctx {
  enum cli_enc to;
  enum cli_fam tofam;
  int replace;
  struct cli_output *out;
  struct piece chunk; /* the streaming path's one piece */
  struct piece *pieces; /* the mapped path's, one per slot */
  unsigned threads;
  uint64_t replaced; /* this file */
  struct cli_pos pos;
};

/* Appends the replacement character in the target form (host order for
 * UTF-32: convert_piece swaps the whole buffer). */
static void put_replacement(const struct convert_ctx *c, struct piece *o) {
  if (c->tofam == FAM_UTF32) {
    const char32_t fffd = 0xFFFD;
    memcpy(o->buf + o->olen, &fffd, 4);
    o->olen += 4;
  } else {
    unsigned char rep[4];
    size_t len = cli_replacement_bytes(c->to, rep);
    memcpy(o->buf + o->olen, rep, len);
    o->olen += len;
  }
  o->replaced++;
}

/* The same family on both sides: a validation plus a copy (the library has
 * no UTF-8 to UTF-8 conversion). */
static void same_family(const struct convert_ctx *c, const struct cli_stream *s,
                        const unsigned char *p, size_t nbytes, struct piece *o) {
  size_t us = cli_unit_size(s->enc), units = nbytes / us, pos = 0;
  while (pos < units) {
    utfx_result r = cli_validate(s->fam, p + pos * us, units - pos);
    if (r.status == UTFX_OK && pos == 0 && !cli_needs_swap32(c->to)) {
      o->out = p; /* the common case: write the input as it is */
      o->olen = nbytes;
      return;
    }
    memcpy(o->buf + o->olen, p + pos * us, r.read * us);
    o->olen += r.read * us;
    if (r.status == UTFX_OK) break;
    pos += r.read;
    if (!c->replace) {
      o->error = pos * us;
      return;
    }
    {
      uint32_t cp;
      size_t len;
      cli_decode_one(s->fam, p + pos * us, units - pos, &cp, &len);
      put_replacement(c, o);
      pos += len;
    }
  }
}

/* Runs on any thread: reads only c's settings and s's encoding. */
static void convert_piece(const struct convert_ctx *c, const struct cli_stream *s,
                          const unsigned char *p, size_t nbytes, struct piece *o) {
  size_t us = cli_unit_size(s->enc), ts = cli_unit_size(c->to), units = nbytes / us, pos = 0;
  unsigned flags = c->replace ? UTFX_REPLACE : UTFX_STRICT;
  o->out = o->buf;
  o->olen = 0;
  o->replaced = 0;
  o->error = NO_ERROR;
  o->fail = NULL;
  if (s->fam == c->tofam) {
    same_family(c, s, p, nbytes, o);
  } else {
    while (pos < units) {
      utfx_result r = cli_convert(s->fam, c->tofam, p + pos * us, units - pos, o->buf + o->olen,
                                  (o->cap - o->olen) / ts, flags);
      o->olen += r.written * ts;
      o->replaced += r.replaced;
      pos += r.read;
      if (r.status == UTFX_OK) break;
      if (r.status == UTFX_DST_FULL) { /* cannot happen with 4x room */
        o->fail = "internal error: output buffer too small";
        return;
      }
      if (!c->replace) {
        o->error = pos * us;
        break;
      }
      {
        /* Only a Latin-1 target stops in replace mode: a character above
         * U+00FF, or the U+FFFD of an ill-formed sequence. Write '?'. */
        uint32_t cp;
        size_t len;
        cli_decode_one(s->fam, p + pos * us, units - pos, &cp, &len);
        put_replacement(c, o);
        pos += len;
      }
    }
  }
  if (o->out == o->buf && cli_needs_swap32(c->to)) cli_swap32(o->buf, o->olen / 4);
}

/* Writes a converted piece (before a strict error: what was converted before
 * it, as iconv does on stdout; an -o file is discarded anyway). */
static int put_piece(struct convert_ctx *c, const struct piece *o) {
  if (o->fail) {
    cli_error("%s", o->fail);
    return CLI_EXIT_IO;
  }
  c->replaced += o->replaced;
  return o->olen ? cli_output_write(c->out, o->out, o->olen) : 0;
}

/* The message for the error at byte e_bytes of p (n bytes available). */
static int strict_error(struct cli_stream *s, struct convert_ctx *c, const unsigned char *p,
                        size_t e_bytes, size_t nbytes) {
  char what[128];
  uint32_t cp;
  size_t len;
  if (c->tofam == FAM_LATIN1 && e_bytes < nbytes &&
      !cli_decode_one(s->fam, p + e_bytes, (nbytes - e_bytes) / cli_unit_size(s->enc), &cp,
                      &len) &&
      cp > 0xFF)
    snprintf(what, sizeof what, "U+%04" PRIX32 " cannot be encoded in ISO-8859-1", cp);
  else
    cli_describe_invalid(s, p, e_bytes, nbytes, what, sizeof what);
  cli_report_at(s, &c->pos, p, e_bytes, what);
  return CLI_EXIT_INVALID;
}

static int on_data(struct cli_stream *s, unsigned char *p, size_t nbytes) {
  struct convert_ctx *c = s->ctx;
  int rc;
  convert_piece(c, s, p, nbytes, &c->chunk);
  rc = put_piece(c, &c->chunk);
  if (!rc && c->chunk.error != NO_ERROR) rc = strict_error(s, c, p, c->chunk.error, nbytes);
  if (!rc && s->track) cli_pos_advance(&c->pos, s->fam, p, nbytes);
  return rc;
}

/* 1-3 bytes of a code unit cut off by the end of input. */
static int on_tail(struct cli_stream *s, unsigned char *p, size_t nbytes) {
  struct convert_ctx *c = s->ctx;
  if (!c->replace) return strict_error(s, c, p, 0, nbytes);
  c->chunk.out = c->chunk.buf;
  c->chunk.olen = 0;
  c->chunk.replaced = 0;
  c->chunk.fail = NULL;
  put_replacement(c, &c->chunk);
  if (cli_needs_swap32(c->to)) cli_swap32(c->chunk.buf, 1);
  return put_piece(c, &c->chunk);
}

/* The mapped path (mapped.c): pieces converted on every core into per-slot
 * buffers, written in order. */
static int map_work(struct cli_mapped *m, size_t i, unsigned slot, const unsigned char *p,
                    size_t nbytes) {
  struct convert_ctx *c = m->ctx;
  struct piece *o = &c->pieces[slot];
  (void)i;
  o->cap = 4 * m->split + 64;
  o->buf = cli_output_slot_buffer(c->out, slot, o->cap);
  if (!o->buf) {
    if (!o->mem) o->mem = malloc(o->cap);
    o->buf = o->mem;
  }
  if (!o->buf || !p) {
    o->olen = 0;
    o->fail = "out of memory";
    return 1;
  }
  convert_piece(c, m->s, p, nbytes, o);
  return o->fail || o->error != NO_ERROR;
}

static int map_emit(struct cli_mapped *m, size_t i, unsigned slot) {
  struct convert_ctx *c = m->ctx;
  const struct piece *o = &c->pieces[slot];
  int rc = put_piece(c, o);
  if (!rc && o->error != NO_ERROR) {
    unsigned char win[16];
    size_t n = cli_mapped_window(m, cli_mapped_cut(m, i) + o->error, win);
    rc = strict_error(m->s, c, win, 0, n);
  }
  return rc;
}

static int convert_one(struct convert_ctx *c, struct cli_stream *s, const char *path,
                       int quiet) {
  struct cli_input in;
  int rc = cli_input_open(&in, path);
  if (rc) return rc;
  c->replaced = 0;
  memset(&c->pos, 0, sizeof c->pos);
  {
    struct cli_mapped m;
    memset(&m, 0, sizeof m);
    m.threads = c->threads;
    m.work = map_work;
    m.emit = map_emit;
    m.ctx = c;
    m.copy = 0; /* on the map: no copy of the input (see mapped.c) */
    cli_output_slots(c->out, cli_par_slots(c->threads));
    rc = cli_mapped_run(&m, s, &in);
  }
  if (rc == CLI_NOT_MAPPED) rc = cli_stream_run(s, &in);
  if (!rc && !quiet && c->replaced)
    cli_error("%s: %" PRIu64 " replacement%s with %s", in.display, c->replaced,
              c->replaced == 1 ? "" : "s", c->tofam == FAM_LATIN1 ? "'?'" : "U+FFFD");
  cli_input_close(&in);
  s->in = NULL;
  return rc;
}

enum { OPT_STRICT = 256, OPT_BOM, OPT_STRIP_BOM };

int cli_convert_main(int argc, char **argv) {
  static const struct option longopts[] = {
      {"from", required_argument, NULL, 'f'},  {"to", required_argument, NULL, 't'},
      {"strict", no_argument, NULL, OPT_STRICT}, {"replace", no_argument, NULL, 'r'},
      {"output", required_argument, NULL, 'o'}, {"in-place", no_argument, NULL, 'i'},
      {"bom", no_argument, NULL, OPT_BOM},       {"strip-bom", no_argument, NULL, OPT_STRIP_BOM},
      {"quiet", no_argument, NULL, 'q'},         {"help", no_argument, NULL, 'h'},
      {"threads", required_argument, NULL, 'j'}, {NULL, 0, NULL, 0}};
  struct cli_encoding from = {CLI_UTF8, 0, 1}, to = {CLI_UTF8, 0, 0};
  struct convert_ctx c;
  struct cli_stream s;
  struct cli_output out;
  const char *out_path = NULL;
  unsigned threads = 0;
  int opt, in_place = 0, bom = 0, strip_bom = 0, quiet = 0, replace = 0, rc = 0, i;
  static char dash[] = "-";
  static char *stdin_only[] = {dash};
  char **files;
  int nfiles;
  opterr = 0;
  while ((opt = getopt_long(argc, argv, ":f:t:ro:iqj:h", longopts, NULL)) != -1) {
    switch (opt) {
      case 'f':
      case 't':
        if (cli_encoding_parse(optarg, opt == 'f' ? &from : &to) != 0) {
          cli_error("unknown encoding '%s' (see utfx convert --help)", optarg);
          return CLI_EXIT_USAGE;
        }
        if (opt == 't' && to.detect) {
          cli_error("'%s' is an input encoding (-f) only", optarg);
          return CLI_EXIT_USAGE;
        }
        break;
      case OPT_STRICT:
        replace = 0;
        break;
      case 'r':
        replace = 1;
        break;
      case 'o':
        out_path = optarg;
        break;
      case 'i':
        in_place = 1;
        break;
      case OPT_BOM:
        bom = 1;
        break;
      case OPT_STRIP_BOM:
        strip_bom = 1;
        break;
      case 'q':
        quiet = 1;
        break;
      case 'j':
        if (cli_parse_threads(optarg, &threads) != 0) {
          cli_error("invalid thread count '%s' (see utfx convert --help)", optarg);
          return CLI_EXIT_USAGE;
        }
        break;
      case 'h':
        fputs(usage, stdout);
        return cli_flush_stdout();
      default:
        return cli_bad_option("convert", argv, opt == ':');
    }
  }
  files = argv + optind;
  nfiles = argc - optind;
  if (nfiles == 0) {
    files = stdin_only;
    nfiles = 1;
  }
  if (bom && strip_bom) {
    cli_error("--bom and --strip-bom contradict each other");
    return CLI_EXIT_USAGE;
  }
  if (bom && to.enc == CLI_LATIN1) {
    cli_error("ISO-8859-1 has no byte-order mark (--bom)");
    return CLI_EXIT_USAGE;
  }
  if (in_place && out_path) {
    cli_error("--in-place and --output cannot be combined");
    return CLI_EXIT_USAGE;
  }
  for (i = 0; in_place && i < nfiles; i++) {
    if (strcmp(files[i], "-") == 0) {
      cli_error("--in-place needs FILE arguments, not standard input");
      return CLI_EXIT_USAGE;
    }
  }
  if (out_path && strcmp(out_path, "-") != 0) {
    struct stat st;
    if (stat(out_path, &st) == 0 && S_ISDIR(st.st_mode)) {
      cli_error("%s: Is a directory", out_path);
      return CLI_EXIT_IO;
    }
  }

  memset(&c, 0, sizeof c);
  c.to = to.enc;
  c.tofam = cli_family(to.enc);
  c.replace = replace;
  c.threads = cli_threads(threads);
  c.chunk.cap = 4 * cli_chunk_size() + 64;
  c.chunk.buf = malloc(c.chunk.cap);
  c.pieces = calloc(cli_par_slots(c.threads), sizeof *c.pieces);
  if (!c.chunk.buf || !c.pieces) {
    free(c.chunk.buf);
    free(c.pieces);
    cli_error("out of memory");
    return CLI_EXIT_IO;
  }
  memset(&s, 0, sizeof s);
  s.want = from;
  s.progress = 1;
  s.positions = replace ? 0 : 1;
  s.on_data = on_data;
  s.on_tail = on_tail;
  s.ctx = &c;
  c.out = &out;
  /* A BOM on output: asked for, or implied by a generic utf-16 / utf-32. */
  bom = bom || (to.generic && !strip_bom);
  /* Never two marks: a leading U+FEFF of the input goes when one is written. */
  s.strip_bom = strip_bom || bom;

  for (i = 0; i < nfiles && rc == 0; i++) {
    if (in_place || i == 0) {
      rc = cli_output_open(&out, in_place ? files[i] : out_path, in_place ? files[i] : NULL);
      if (rc) break;
      if (bom) {
        unsigned char b[4];
        rc = cli_output_write(&out, b, cli_bom_bytes(to.enc, b));
      }
    }
    if (!rc) rc = convert_one(&c, &s, files[i], quiet);
    if (in_place || i == nfiles - 1 || rc) {
      if (rc)
        cli_output_abort(&out);
      else
        rc = cli_output_commit(&out);
    }
  }
  for (i = 0; i < (int)cli_par_slots(c.threads); i++) free(c.pieces[i].mem);
  free(c.pieces);
  free(c.chunk.buf);
  return rc;
}
