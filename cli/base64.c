/* utfx base64: base64 encode or decode a file or standard input, with the
 * output of coreutils' base64 (and of basenc --base64url with --url):
 * encoded lines of 76 characters (-w), decoding that ignores line feeds
 * (and with -i every character outside the alphabet), accepts padded
 * groups one after the other, and on invalid input writes the bytes before
 * the bad character and fails. Streams in chunks; -o writes atomically. */
#define _POSIX_C_SOURCE 200809L

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"

static const char usage[] =
    "Usage: utfx base64 [OPTION]... [FILE]\n"
    "Base64 encode or decode FILE (or standard input) to standard output,\n"
    "as coreutils' base64 does.\n"
    "\n"
    "  -d, --decode          decode data\n"
    "  -i, --ignore-garbage  when decoding, ignore non-alphabet characters\n"
    "  -w, --wrap=COLS       wrap encoded lines after COLS characters (default 76);\n"
    "                        0 disables line wrapping\n"
    "      --url             the URL and file name safe alphabet ('-' '_')\n"
    "  -o, --output=FILE     write to FILE, replaced only on success\n"
    "  -h, --help            show this help\n"
    "\n"
    "Decoding skips line feeds, accepts padded groups one after another, and\n"
    "stops at the first invalid character after writing the bytes before it.\n"
    "Exit status: 0 ok, 1 invalid input, 2 usage error, 3 I/O error.\n";

struct b64_job {
  unsigned flags; /* UTFX_BASE64_URL or 0 */
  size_t wrap;    /* encode: line length, 0 for none */
  int garbage;    /* decode: -i */
  struct cli_output *out;
  unsigned char *in, *buf; /* read buffer, output buffer */
  size_t chunk, buf_cap;
};

/* ---------------------------------------------------------------- encode */

/* Writes text[0..n) broken into lines of job->wrap characters; *col is the
 * length of the line written so far. */
static int write_wrapped(struct b64_job *job, const char *text, size_t n, size_t *col) {
  size_t w = 0, room = job->buf_cap / 2;
  int rc;
  if (!job->wrap) return cli_output_write(job->out, text, n);
  while (n) {
    size_t take = job->wrap - *col < n ? job->wrap - *col : n;
    if (take > room - 1 - w) take = room - 1 - w;
    memcpy(job->buf + w, text, take);
    w += take, text += take, n -= take, *col += take;
    if (*col == job->wrap) job->buf[w++] = '\n', *col = 0;
    if (room - w < 2 && (rc = cli_output_write(job->out, job->buf, w)) != 0) return rc;
    if (room - w < 2) w = 0;
  }
  return cli_output_write(job->out, job->buf, w);
}

static int encode_stream(struct b64_job *job, const struct cli_input *in) {
  char *text = (char *)job->buf + job->buf_cap / 2;
  size_t col = 0, got;
  int rc;
  do {
    utfx_result r;
    rc = cli_read_full(in, job->in, job->chunk, &got);
    if (rc) return rc;
    r = utfx_base64_encode(job->in, got, text, job->buf_cap / 2, job->flags);
    rc = write_wrapped(job, text, r.written, &col);
  } while (!rc && got == job->chunk);
  if (!rc && job->wrap && col) rc = cli_output_write(job->out, "\n", 1);
  return rc;
}

/* ---------------------------------------------------------------- decode */

static int in_alphabet(unsigned char c, unsigned flags) {
  if ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')) return 1;
  return (flags & UTFX_BASE64_URL) ? c == '-' || c == '_' : c == '+' || c == '/';
}

/* What decoding does with each byte: keep it (bit 0: alphabet and '='),
 * drop it (0: LF, and with -i everything else), or stop (bit 1). */
enum { B64_DROP = 0, B64_KEEP = 1, B64_STOP = 2 };
static void byte_actions(const struct b64_job *job, unsigned char act[256]) {
  unsigned c;
  for (c = 0; c < 256; c++) {
    if (c == '=' || in_alphabet((unsigned char)c, job->flags))
      act[c] = B64_KEEP;
    else
      act[c] = c == '\n' || job->garbage ? B64_DROP : B64_STOP;
  }
}

/* The bytes of the first m characters of a group, all in the alphabet (as
 * many as they hold: 2 -> 1, 3 -> 2, 4 -> 3). */
static size_t group_bytes(const unsigned char *q, size_t m, unsigned flags, unsigned char *d) {
  if (m < 2) return 0;
  return utfx_base64_decode((const char *)q, m, d, 3, flags).written;
}

/* One group of k <= 4 characters that holds a '=' or ends the input: the
 * bytes of its leading alphabet characters; 1 when it is a valid padded
 * group ("xx==", "xxx="), 0 when not. */
static int odd_group(const unsigned char *q, size_t k, unsigned flags, unsigned char *d,
                     size_t *w) {
  size_t m = 0;
  while (m < k && q[m] != '=') m++;
  *w += group_bytes(q, m, flags, d + *w);
  return k == 4 && (m == 3 || (m == 2 && q[3] == '='));
}

/* Decodes f[0..n) (alphabet characters and '=' only) group by group into
 * job->buf; runs of whole groups without '=' go to the library in one call.
 * Returns the characters used (what is left is less than a group), or
 * SIZE_MAX after an invalid group; *w = bytes written. */
static size_t decode_groups(struct b64_job *job, const unsigned char *f, size_t n, size_t *w) {
  size_t at = 0;
  *w = 0;
  while (n - at >= 4) {
    const unsigned char *pad = memchr(f + at, '=', n - at);
    size_t run = ((pad ? (size_t)(pad - f) : n) - at) / 4 * 4;
    if (run) {
      *w += utfx_base64_decode((const char *)f + at, run, job->buf + *w,
                               job->buf_cap / 2 - *w, job->flags).written;
      at += run;
    } else {
      if (!odd_group(f + at, 4, job->flags, job->buf, w)) return SIZE_MAX;
      at += 4;
    }
  }
  return at;
}

static int decode_stream(struct b64_job *job, const struct cli_input *in) {
  /* f holds the characters kept from the chunk after the carried ones. */
  unsigned char *f = job->buf + job->buf_cap / 2, act[256];
  size_t carried = 0, got, i, k, used, w;
  int rc, bad = 0, eof;
  byte_actions(job, act);
  do {
    rc = cli_read_full(in, job->in, job->chunk, &got);
    if (rc) return rc;
    eof = got < job->chunk;
    /* Branch-free but for the stop: every byte is written, kept ones advance. */
    for (i = 0, k = carried; i < got; i++) {
      unsigned char c = job->in[i], a = act[c];
      f[k] = c;
      k += a & B64_KEEP;
      if (a & B64_STOP) {
        bad = eof = 1;
        break;
      }
    }
    used = decode_groups(job, f, k, &w);
    if (used == SIZE_MAX) {
      bad = 1;
    } else if (eof && used < k) { /* a last group short of 4 characters */
      odd_group(f + used, k - used, job->flags, job->buf, &w);
      bad = 1;
    }
    if (w && (rc = cli_output_write(job->out, job->buf, w)) != 0) return rc;
    if (bad) {
      cli_error("%s: invalid input", in->display);
      return CLI_EXIT_INVALID;
    }
    carried = k - used;
    memmove(f, f + used, carried);
  } while (!eof);
  return 0;
}

/* ---------------------------------------------------------------- main */

enum { OPT_URL = 256 };

static int parse_wrap(const char *arg, size_t *wrap) {
  char *end;
  unsigned long long v;
  if (!*arg || *arg == '-') return -1;
  v = strtoull(arg, &end, 10);
  if (*end || v > (1u << 30)) return -1;
  *wrap = (size_t)v;
  return 0;
}

int cli_base64_main(int argc, char **argv) {
  static const struct option longopts[] = {
      {"decode", no_argument, NULL, 'd'}, {"ignore-garbage", no_argument, NULL, 'i'},
      {"wrap", required_argument, NULL, 'w'}, {"url", no_argument, NULL, OPT_URL},
      {"output", required_argument, NULL, 'o'}, {"help", no_argument, NULL, 'h'},
      {NULL, 0, NULL, 0}};
  struct b64_job job;
  struct cli_output out;
  struct cli_input in;
  const char *out_path = NULL, *path = "-";
  int opt, decode = 0, rc;
  memset(&job, 0, sizeof job);
  job.wrap = 76;
  opterr = 0;
  while ((opt = getopt_long(argc, argv, ":diw:o:h", longopts, NULL)) != -1) {
    switch (opt) {
      case 'd':
        decode = 1;
        break;
      case 'i':
        job.garbage = 1;
        break;
      case 'w':
        if (parse_wrap(optarg, &job.wrap) != 0) {
          cli_error("invalid wrap size '%s' (see utfx base64 --help)", optarg);
          return CLI_EXIT_USAGE;
        }
        break;
      case OPT_URL:
        job.flags = UTFX_BASE64_URL;
        break;
      case 'o':
        out_path = optarg;
        break;
      case 'h':
        fputs(usage, stdout);
        return cli_flush_stdout();
      default:
        return cli_bad_option("base64", argv, opt == ':');
    }
  }
  if (argc - optind > 1) {
    cli_error("extra operand '%s' (see utfx base64 --help)", argv[optind + 1]);
    return CLI_EXIT_USAGE;
  }
  if (argc - optind == 1) path = argv[optind];
  if (out_path && strcmp(out_path, "-") != 0) {
    struct stat st;
    if (stat(out_path, &st) == 0 && S_ISDIR(st.st_mode)) {
      cli_error("%s: Is a directory", out_path);
      return CLI_EXIT_IO;
    }
  }
  /* Encoding reads whole groups of 3 bytes per chunk; the output buffer
   * holds the encoded chunk and its wrapped copy, or the kept characters
   * and their bytes. */
  job.chunk = cli_chunk_size() / 3 * 3 + 3;
  job.buf_cap = 2 * (2 * job.chunk + 64);
  job.in = malloc(job.chunk);
  job.buf = malloc(job.buf_cap);
  job.out = &out;
  if (!job.in || !job.buf) {
    free(job.in);
    free(job.buf);
    cli_error("out of memory");
    return CLI_EXIT_IO;
  }
  rc = cli_input_open(&in, path);
  if (!rc) {
    rc = cli_output_open(&out, out_path, NULL);
    if (!rc) {
      rc = decode ? decode_stream(&job, &in) : encode_stream(&job, &in);
      if (rc)
        cli_output_abort(&out);
      else
        rc = cli_output_commit(&out);
    }
    cli_input_close(&in);
  }
  free(job.in);
  free(job.buf);
  return rc;
}
