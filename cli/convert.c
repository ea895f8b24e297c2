/* utfx convert: streaming conversion between encodings.
 *
 * Each chunk of whole characters (see stream.c) goes through one library
 * conversion into an output buffer of 4x the chunk size, the most any pair
 * can produce (ASCII to UTF-32), then out in one write. The same encoding on
 * both sides is a validation plus a copy (the library has no UTF-8 to UTF-8
 * conversion). Strict runs keep a line / column count for the message; replace
 * runs skip it and only count what the library reports in
 * utfx_result.replaced. */
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
    "  -h, --help         show this help\n"
    "\n"
    "ENC: utf-8, utf-16le, utf-16be, utf-16 (BOM decides; output: LE with BOM),\n"
    "utf-32le, utf-32be, utf-32, latin1 (iso-8859-1); case and '-' do not matter.\n"
    "Exit status: 0 ok, 1 invalid input, 2 usage error, 3 I/O error.\n";

struct convert_ctx {
  enum cli_enc to;
  enum cli_fam tofam;
  int replace;
  struct cli_output *out;
  unsigned char *obuf;
  size_t ocap, olen;
  uint64_t replaced; /* this file */
  struct cli_pos pos;
};

static int flush(struct convert_ctx *c) {
  int rc;
  if (!c->olen) return 0;
  if (cli_needs_swap32(c->to)) cli_swap32(c->obuf, c->olen / 4);
  rc = cli_output_write(c->out, c->obuf, c->olen);
  c->olen = 0;
  return rc;
}

/* Appends the replacement character in the target form (host order for
 * UTF-32: flush swaps the whole buffer). */
static void put_replacement(struct convert_ctx *c) {
  if (c->tofam == FAM_UTF32) {
    const char32_t fffd = 0xFFFD;
    memcpy(c->obuf + c->olen, &fffd, 4);
    c->olen += 4;
  } else {
    unsigned char rep[4];
    size_t len = cli_replacement_bytes(c->to, rep);
    memcpy(c->obuf + c->olen, rep, len);
    c->olen += len;
  }
  c->replaced++;
}

/* Writes what was converted before the error (as iconv does on stdout; an
 * -o file is discarded anyway), then the message. */
static int strict_error(struct cli_stream *s, struct convert_ctx *c, const unsigned char *p,
                        size_t e_bytes, size_t nbytes) {
  char what[128];
  uint32_t cp;
  size_t len;
  int rc = flush(c);
  if (rc) return rc;
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

static int same_family(struct cli_stream *s, struct convert_ctx *c, unsigned char *p,
                       size_t nbytes) {
  size_t us = cli_unit_size(s->enc), units = nbytes / us, pos = 0;
  while (pos < units) {
    utfx_result r = cli_validate(s->fam, p + pos * us, units - pos);
    if (r.status == UTFX_OK && pos == 0 && !cli_needs_swap32(c->to)) {
      int rc = flush(c); /* the common case: write the chunk as it is */
      return rc ? rc : cli_output_write(c->out, p, nbytes);
    }
    memcpy(c->obuf + c->olen, p + pos * us, r.read * us);
    c->olen += r.read * us;
    if (r.status == UTFX_OK) break;
    pos += r.read;
    if (!c->replace) return strict_error(s, c, p, pos * us, nbytes);
    {
      uint32_t cp;
      size_t len;
      cli_decode_one(s->fam, p + pos * us, units - pos, &cp, &len);
      put_replacement(c);
      pos += len;
    }
  }
  return flush(c);
}

static int on_data(struct cli_stream *s, unsigned char *p, size_t nbytes) {
  struct convert_ctx *c = s->ctx;
  size_t us = cli_unit_size(s->enc), ts = cli_unit_size(c->to), units = nbytes / us, pos = 0;
  unsigned flags = c->replace ? UTFX_REPLACE : UTFX_STRICT;
  int rc;
  if (s->fam == c->tofam) {
    rc = same_family(s, c, p, nbytes);
  } else {
    rc = 0;
    while (pos < units) {
      utfx_result r = cli_convert(s->fam, c->tofam, p + pos * us, units - pos,
                                  c->obuf + c->olen, (c->ocap - c->olen) / ts, flags);
      c->olen += r.written * ts;
      c->replaced += r.replaced;
      pos += r.read;
      if (r.status == UTFX_OK) break;
      if (r.status == UTFX_DST_FULL) { /* cannot happen with 4x room; be safe */
        rc = flush(c);
        if (rc) return rc;
        continue;
      }
      if (!c->replace) return strict_error(s, c, p, pos * us, nbytes);
      {
        /* Only a Latin-1 target stops in replace mode: a character above
         * U+00FF, or the U+FFFD of an ill-formed sequence. Write '?'. */
        uint32_t cp;
        size_t len;
        cli_decode_one(s->fam, p + pos * us, units - pos, &cp, &len);
        put_replacement(c);
        pos += len;
      }
    }
    if (!rc) rc = flush(c);
  }
  if (!rc && s->track) cli_pos_advance(&c->pos, s->fam, p, nbytes);
  return rc;
}

/* 1-3 bytes of a code unit cut off by the end of input. */
static int on_tail(struct cli_stream *s, unsigned char *p, size_t nbytes) {
  struct convert_ctx *c = s->ctx;
  if (!c->replace) return strict_error(s, c, p, 0, nbytes);
  put_replacement(c);
  return flush(c);
}

static int convert_one(struct convert_ctx *c, struct cli_stream *s, const char *path,
                       int quiet) {
  struct cli_input in;
  int rc = cli_input_open(&in, path);
  if (rc) return rc;
  c->replaced = 0;
  memset(&c->pos, 0, sizeof c->pos);
  c->olen = 0;
  rc = cli_stream_run(s, &in);
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
      {NULL, 0, NULL, 0}};
  struct cli_encoding from = {CLI_UTF8, 0, 1}, to = {CLI_UTF8, 0, 0};
  struct convert_ctx c;
  struct cli_stream s;
  struct cli_output out;
  const char *out_path = NULL;
  int opt, in_place = 0, bom = 0, strip_bom = 0, quiet = 0, replace = 0, rc = 0, i;
  static char dash[] = "-";
  static char *stdin_only[] = {dash};
  char **files;
  int nfiles;
  opterr = 0;
  while ((opt = getopt_long(argc, argv, ":f:t:ro:iqh", longopts, NULL)) != -1) {
    switch (opt) {
      case 'f':
      case 't':
        if (cli_encoding_parse(optarg, opt == 'f' ? &from : &to) != 0) {
          cli_error("unknown encoding '%s' (see utfx convert --help)", optarg);
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
  c.ocap = 4 * cli_chunk_size() + 64;
  c.obuf = malloc(c.ocap);
  if (!c.obuf) {
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
  free(c.obuf);
  return rc;
}
