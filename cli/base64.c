/* utfx base64: base64 encode or decode a file or standard input, with the
 * output of coreutils' base64 (and of basenc --base64url with --url):
 * encoded lines of 76 characters (-w), decoding that ignores line feeds
 * (and with -i every character outside the alphabet), accepts padded
 * groups one after the other, and on invalid input writes the bytes before
 * the bad character and fails. -o writes atomically.
 *
 * A regular file is cut into pieces that every core reads and encodes or
 * decodes, written in order (parallel.c); a pipe is read in chunks. Both
 * run the library's codec over whole pieces: encoding writes its lines with
 * utfx_base64_encode_lines; decoding takes the library's result when it is
 * provably what coreutils does (only line feeds skipped, no error, the piece
 * starts a group) and otherwise hands the piece to the byte-at-a-time
 * reference decoder (decode_slow), so errors and odd input behave as
 * before. */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

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
    "  -j, --threads=N       threads for a regular FILE (default: every CPU)\n"
    "  -h, --help            show this help\n"
    "\n"
    "Decoding skips line feeds, accepts padded groups one after another, and\n"
    "stops at the first invalid character after writing the bytes before it.\n"
    "Exit status: 0 ok, 1 invalid input, 2 usage error, 3 I/O error.\n";

struct b64_job {
  unsigned flags; /* UTFX_BASE64_URL or 0 */
  size_t wrap;    /* encode: line length, 0 for none */
  int garbage;    /* decode: -i */
  unsigned threads;
  struct cli_output *out;
  const char *display; /* the input's name, for messages */
  size_t chunk;        /* read size of the streaming path */
  unsigned char act[256]; /* decode: byte_actions */
  /* The byte-at-a-time decoder's state (decode_slow, on the writing thread):
   * f holds the kept characters of a block after the carried ones (at most
   * 3 of an unfinished group), buf the bytes they decode to. */
  unsigned char *f, *buf;
  size_t carried;
  /* The parallel path (a regular file): pieces of `piece` bytes from file
   * offset `start`, `size` bytes in all; encode cuts after whole groups of 3
   * bytes, decode (probably) after whole groups of 4 characters. */
  const struct cli_input *in;
  int64_t start;
  uint64_t size;
  size_t piece, pieces;
  struct b64_slot *slots;
  const unsigned char *mapped; /* the input mapped (else pread) */
  const struct cli_map *map;
  uint64_t released; /* bytes of the map given back (cli_input_release) */
};

/* One piece's input and result, worked on by any thread, written in order. */
struct b64_slot {
  const unsigned char *p; /* the piece: in the map, or read into data */
  unsigned char *data;
  size_t n;
  int err;             /* errno of reading it, or -1: the file shrank */
  unsigned char *buf; /* the result: in mem, or in the output's slot ring */
  unsigned char *mem;
  size_t cap, len;
  int fast;    /* decode: the fast decoding of the piece is exact */
  size_t read; /* decode: characters it used (the rest is a partial group) */
};

/* Pieces and blocks. A piece is the unit of the parallel loop: large enough
 * that handing it over is noise, small enough that its output is still in
 * the cache when it is written. UTFX_CLI_SPLIT overrides the piece size
 * (tests: tiny pieces). */
enum {
  SLOW_BLOCK = 1 << 16,    /* characters filtered at a time by decode_slow */
  CARRY_MAX = 256          /* stream decode: unused characters moved to the next read */
};
static size_t piece_size(void) { return cli_env_size("UTFX_CLI_SPLIT", 1, (size_t)1 << 20); }

/* Points s->buf at room for cap bytes: where the output takes slot's next
 * piece without a copy (cli_output_slot_buffer), else s's own buffer. */
static int slot_alloc(struct b64_job *job, unsigned slot, struct b64_slot *s, size_t cap) {
  s->buf = job ? cli_output_slot_buffer(job->out, slot, cap) : NULL;
  if (!s->buf) {
    if (!s->mem) s->mem = malloc(cap);
    s->buf = s->mem;
  }
  s->cap = cap;
  return s->buf ? 0 : -1;
}

/* Points the slot at piece i (any thread), in the map or read into the
 * slot's buffer; 0, or 1 when it could not be read (the emitter says why). */
static int read_piece(struct b64_job *job, size_t i, struct b64_slot *s) {
  uint64_t a = (uint64_t)i * job->piece;
  size_t want = job->size - a < job->piece ? (size_t)(job->size - a) : job->piece;
  s->err = 0;
  if (job->mapped) { /* (no offset on a null pointer: UB even when a is 0) */
    s->n = want;
    s->p = job->mapped + a;
    return 0;
  }
  s->n = 0;
  s->p = s->data;
  if (!s->data && !(s->p = s->data = malloc(job->piece))) s->err = ENOMEM;
  if (!s->err) s->err = cli_pread_full(job->in, s->data, want, job->start + (int64_t)a, &s->n);
  if (!s->err && s->n < want) s->err = -1;
  return s->err != 0;
}

/* ---------------------------------------------------------------- encode */

/* The encoding of in[0..n), which starts at byte `at` (a multiple of 3) of
 * the input, as coreutils lays it out: a line feed after every wrap
 * characters counted from the start of the output (utfx_base64_encode_lines
 * from the column the characters before `at` leave), and after the last line
 * when `last`. Returns the bytes written to out. */
static size_t encode_piece(const struct b64_job *job, uint64_t at, const unsigned char *in,
                           size_t n, int last, char *out) {
  uint64_t before = at / 3 * 4;
  size_t w = job->wrap, col, len;
  if (!w)
    return utfx_base64_encode(in, n, out, utfx_base64_length_from_binary(n, job->flags),
                              job->flags).written;
  col = before ? (size_t)((before - 1) % w) + 1 : 0; /* w: that line's feed is due */
  len = utfx_base64_length_from_binary_lines(n, job->flags, w, col);
  len = utfx_base64_encode_lines(in, n, out, len, job->flags, w, &col).written;
  if (last && col) out[len++] = '\n';
  return len;
}

/* The most encode_piece writes for n bytes. */
static size_t encode_bound(const struct b64_job *job, size_t n) {
  size_t t = n / 3 * 4 + 4;
  return job->wrap ? t + t / job->wrap + 2 : t;
}

static int encode_stream(struct b64_job *job, const struct cli_input *in) {
  size_t chunk = job->chunk / 3 * 3 + 3, got;
  unsigned char *data = malloc(chunk);
  char *text = malloc(encode_bound(job, chunk));
  uint64_t at = 0;
  int rc = 0;
  if (!data || !text) {
    cli_error("out of memory");
    rc = CLI_EXIT_IO;
  }
  while (!rc) {
    rc = cli_read_full(in, data, chunk, &got);
    if (rc) break;
    rc = cli_output_write(job->out, text, encode_piece(job, at, data, got, got < chunk, text));
    at += got;
    if (got < chunk) break;
  }
  free(data);
  free(text);
  return rc;
}

static int encode_work(void *ctx, size_t i, unsigned slot) {
  struct b64_job *job = ctx;
  struct b64_slot *s = &job->slots[slot];
  if (read_piece(job, i, s)) return 1;
  if (slot_alloc(job, slot, s, encode_bound(job, job->piece)) != 0) {
    s->err = ENOMEM;
    return 1;
  }
  s->len = encode_piece(job, (uint64_t)i * job->piece, s->p, s->n, i + 1 == job->pieces,
                        (char *)s->buf);
  return 0;
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
                               SLOW_BLOCK / 4 * 3 + 3 - *w, job->flags).written;
      at += run;
    } else {
      if (!odd_group(f + at, 4, job->flags, job->buf, w)) return SIZE_MAX;
      at += 4;
    }
  }
  return at;
}

/* The reference decoder, a character at a time: decodes p[0..n) after the
 * characters carried from before, writes the bytes of its whole groups and
 * carries an unfinished group on; `eof`: p ends the input. On invalid input
 * it writes the bytes before the bad character (those of a partial group
 * too) and fails. The fast paths hand it whatever they cannot prove they
 * decode the same way. */
static int decode_slow(struct b64_job *job, const unsigned char *p, size_t n, int eof) {
  unsigned char *f = job->f;
  const unsigned char *act = job->act;
  do {
    size_t got = n < SLOW_BLOCK ? n : SLOW_BLOCK, i, k, used, w;
    int bad = 0, end = eof && got == n;
    int rc;
    /* Branch-free but for the stop: every byte is written, kept ones advance. */
    for (i = 0, k = job->carried; i < got; i++) {
      unsigned char c = p[i], a = act[c];
      f[k] = c;
      k += a & B64_KEEP;
      if (a & B64_STOP) {
        bad = end = 1;
        break;
      }
    }
    used = decode_groups(job, f, k, &w);
    if (used == SIZE_MAX) {
      bad = 1;
    } else if (end && used < k) { /* a last group short of 4 characters */
      odd_group(f + used, k - used, job->flags, job->buf, &w);
      bad = 1;
    }
    if (w && (rc = cli_output_write(job->out, job->buf, w)) != 0) return rc;
    if (bad) {
      cli_error("%s: invalid input", job->display);
      return CLI_EXIT_INVALID;
    }
    job->carried = k - used;
    memmove(f, f + used, job->carried);
    p += got, n -= got;
  } while (n);
  return 0;
}

/* Whitespace the library skips but coreutils refuses (without -i): TAB, FF,
 * CR, SPACE. Plain loops the compiler vectorizes: acc stays in registers and
 * is reduced once. */
static int bad_whitespace(const unsigned char *p, size_t n) {
  unsigned char acc[16] = {0}, any = 0;
  size_t i = 0, j;
  for (; i + 16 <= n; i += 16)
    for (j = 0; j < 16; j++) acc[j] |= (p[i + j] <= ' ') & (p[i + j] != '\n');
  for (; i < n; i++) any |= (p[i] <= ' ') & (p[i] != '\n');
  for (j = 0; j < 16; j++) any |= acc[j];
  return any;
}

/* Did the library, which decoded p[0..read) into `written` bytes, skip only
 * line feeds there? It skipped read - kept characters (kept: 4 per group,
 * the padded last one included). Lines of what base64 writes have one
 * length, so a look at where line feeds would be (one byte a line) usually
 * finds them all; otherwise every byte is looked at. */
static int skipped_only_lf(const unsigned char *p, size_t read, size_t written) {
  size_t skipped = read - (written / 3 + (written % 3 != 0)) * 4, lf = 0, at, stride;
  const unsigned char *first, *second;
  if (!skipped) return 1;
  first = memchr(p, '\n', read);
  if (first) {
    at = (size_t)(first - p);
    second = memchr(first + 1, '\n', read - at - 1);
    stride = second ? (size_t)(second - first) : read;
    for (; at < read && p[at] == '\n'; at += stride) lf++;
    if (lf == skipped) return 1;
  }
  return !bad_whitespace(p, read);
}

/* The fast decoding of p[0..n), which starts a group: the library's, which
 * stops before an unfinished last group. It is exact (s->fast) when the
 * library found nothing wrong and skipped only what coreutils skips: line
 * feeds, or with -i any whitespace. Anything else (an error, a padded group
 * followed by more, other whitespace) goes to decode_slow. */
static void decode_fast(const struct b64_job *job, const unsigned char *p, size_t n,
                        struct b64_slot *s) {
  utfx_result r = utfx_base64_decode((const char *)p, n, s->buf, s->cap,
                                     job->flags | UTFX_BASE64_STOP_BEFORE_PARTIAL);
  s->fast = r.status == UTFX_OK && (job->garbage || skipped_only_lf(p, r.read, r.written));
  s->read = r.read;
  s->len = r.written;
}

/* Where the carried unfinished group ends in p[0..n): after the characters
 * that complete it, or after the first byte decoding stops at. */
static size_t group_end(const struct b64_job *job, const unsigned char *p, size_t n) {
  size_t need = 4 - job->carried, i;
  for (i = 0; i < n && need; i++) {
    unsigned char a = job->act[p[i]];
    if (a & B64_STOP) return i + 1;
    need -= a & B64_KEEP;
  }
  return i;
}

/* One piece or read chunk p[0..n), in order. s is its fast decoding, made
 * on the guess that p starts a group; when a group is carried in after all,
 * decode_slow finishes it and the rest is decoded fast again, here. Then the
 * fast result when it is exact, and its unused end by decode_slow; else all
 * of it by decode_slow. keep (streaming): a short unused end is not decoded
 * but left for the caller to put in front of the next chunk (*keep bytes). */
static int decode_emit(struct b64_job *job, struct b64_slot *s, const unsigned char *p, size_t n,
                       int eof, size_t *keep) {
  size_t skip = 0, rest;
  int rc;
  if (job->carried) {
    skip = group_end(job, p, n);
    rc = decode_slow(job, p, skip, eof && skip == n);
    if (rc || skip == n) return rc;
    decode_fast(job, p + skip, n - skip, s);
  }
  if (!s->fast) return decode_slow(job, p + skip, n - skip, eof);
  if (s->len && (rc = cli_output_write(job->out, s->buf, s->len)) != 0) return rc;
  rest = n - skip - s->read;
  if (keep && !eof && rest <= CARRY_MAX) {
    *keep = rest;
    return 0;
  }
  return rest || eof ? decode_slow(job, p + n - rest, rest, eof) : 0;
}

static int decode_stream(struct b64_job *job, const struct cli_input *in) {
  unsigned char *data = malloc(job->chunk + CARRY_MAX);
  struct b64_slot s;
  size_t have = 0, got;
  int rc = 0, eof = 0;
  memset(&s, 0, sizeof s);
  if (!data || slot_alloc(NULL, 0, &s, (job->chunk + CARRY_MAX) / 4 * 3 + 3) != 0) {
    cli_error("out of memory");
    rc = CLI_EXIT_IO;
  }
  while (!rc && !eof) {
    size_t n, keep = 0;
    rc = cli_read_full(in, data + have, job->chunk, &got);
    if (rc) break;
    n = have + got;
    eof = got < job->chunk;
    if (!job->carried) decode_fast(job, data, n, &s);
    rc = decode_emit(job, &s, data, n, eof, &keep);
    /* An unfinished group at the end goes in front of the next read, so
     * that the next chunk starts a group too and stays on the fast path. */
    memmove(data, data + n - keep, keep);
    have = keep;
  }
  free(data);
  free(s.mem);
  return rc;
}

/* The parallel path cuts the text where a group probably starts: after a
 * multiple of 4 lines when the first line ends with a line feed (every line
 * but the last has the same length in what base64 writes), else after a
 * multiple of 4 characters. decode_emit checks it: when a cut falls inside a
 * group after all, the piece is decoded again there. */
static size_t decode_piece_size(const struct cli_input *in, int64_t start, size_t nominal) {
  unsigned char head[1 << 16];
  size_t got = 0, unit = 4;
  const unsigned char *lf;
  if (cli_pread_full(in, head, sizeof head, start, &got) == 0 &&
      (lf = memchr(head, '\n', got)) != NULL)
    unit = 4 * (size_t)(lf - head + 1);
  return nominal > unit ? nominal / unit * unit : unit;
}

static int decode_work(void *ctx, size_t i, unsigned slot) {
  struct b64_job *job = ctx;
  struct b64_slot *s = &job->slots[slot];
  if (read_piece(job, i, s)) return 1;
  if (slot_alloc(job, slot, s, job->piece / 4 * 3 + 3) != 0) {
    s->err = ENOMEM;
    return 1;
  }
  decode_fast(job, s->p, s->n, s);
  return 0;
}

/* ---------------------------------------------------------------- pieces */

static int piece_emit(void *ctx, size_t i, unsigned slot, int decode) {
  struct b64_job *job = ctx;
  struct b64_slot *s = &job->slots[slot];
  int rc;
  if (s->err == ENOMEM) {
    cli_error("out of memory");
    return CLI_EXIT_IO;
  }
  if (s->err) {
    cli_error("%s: read error: %s", job->display,
              s->err < 0 ? "file shrank while being read" : strerror(s->err));
    return CLI_EXIT_IO;
  }
  /* Decoding is done with the piece once decode_emit returns: an unfinished
   * group at its end was copied out (job->f). */
  rc = decode ? decode_emit(job, s, s->p, s->n, i + 1 == job->pieces, NULL)
              : cli_output_write(job->out, s->buf, s->len);
  if (job->mapped) {
    uint64_t done = (uint64_t)i * job->piece + s->n;
    cli_input_release(job->map, (size_t)job->released, (size_t)done);
    job->released = done;
  }
  return rc;
}
static int encode_emit(void *ctx, size_t i, unsigned slot) { return piece_emit(ctx, i, slot, 0); }
static int decode_emit_piece(void *ctx, size_t i, unsigned slot) {
  return piece_emit(ctx, i, slot, 1);
}

/* A regular file: cut into pieces that every core works on, written in
 * order. Both directions read the input through a map (pread into a
 * per-slot buffer when it cannot be mapped): on Zen 4 the copy costs more
 * than the faults, as for convert (docs/perf-decisions.md, "The CLI: base64
 * decode on the mapped input"). CLI_NOT_MAPPED for anything else (a pipe,
 * an empty file): the caller streams it. */
static int run_pieces(struct b64_job *job, const struct cli_input *in, int decode) {
  struct cli_par par;
  struct cli_map map;
  unsigned slots = cli_par_slots(job->threads), k;
  size_t nominal = piece_size();
  off_t start = in->size > 0 ? lseek(in->fd, 0, SEEK_CUR) : -1;
  int rc;
  if (start < 0 || start >= (off_t)in->size) return CLI_NOT_MAPPED;
  job->slots = calloc(slots, sizeof *job->slots);
  if (!job->slots) return CLI_NOT_MAPPED;
  cli_output_slots(job->out, slots);
  job->in = in;
  job->start = (int64_t)start;
  job->size = (uint64_t)(in->size - start);
  job->piece = decode ? decode_piece_size(in, start, nominal) : nominal < 3 ? 3 : nominal / 3 * 3;
  job->pieces = (size_t)((job->size + job->piece - 1) / job->piece);
  job->mapped = cli_input_map(in, &map) == 0 ? map.p : NULL;
  job->map = &map;
  job->released = 0;
  par.pieces = job->pieces;
  par.threads = job->threads;
  par.work = decode ? decode_work : encode_work;
  par.emit = decode ? decode_emit_piece : encode_emit;
  par.ctx = job;
  rc = cli_par_run(&par);
  /* Leave the offset where reading would have: after what was used. */
  if (!rc) (void)lseek(in->fd, (off_t)in->size, SEEK_SET);
  for (k = 0; k < slots; k++) {
    free(job->slots[k].data);
    free(job->slots[k].mem);
  }
  free(job->slots);
  job->slots = NULL;
  if (job->mapped) cli_input_unmap(&map);
  job->mapped = NULL;
  return rc;
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
      {"output", required_argument, NULL, 'o'}, {"threads", required_argument, NULL, 'j'},
      {"help", no_argument, NULL, 'h'},
      {NULL, 0, NULL, 0}};
  struct b64_job job;
  struct cli_output out;
  struct cli_input in;
  const char *out_path = NULL, *path = "-";
  unsigned threads = 0;
  int opt, decode = 0, rc;
  memset(&job, 0, sizeof job);
  job.wrap = 76;
  opterr = 0;
  while ((opt = getopt_long(argc, argv, ":diw:o:j:h", longopts, NULL)) != -1) {
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
      case 'j':
        if (cli_parse_threads(optarg, &threads) != 0) {
          cli_error("invalid thread count '%s' (see utfx base64 --help)", optarg);
          return CLI_EXIT_USAGE;
        }
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
  job.chunk = cli_chunk_size();
  job.threads = cli_threads(threads);
  job.f = malloc(SLOW_BLOCK + 8);
  job.buf = malloc(SLOW_BLOCK / 4 * 3 + 8);
  job.out = &out;
  byte_actions(&job, job.act);
  if (!job.f || !job.buf) {
    free(job.f);
    free(job.buf);
    cli_error("out of memory");
    return CLI_EXIT_IO;
  }
  rc = cli_input_open(&in, path);
  if (!rc) {
    job.display = in.display;
    rc = cli_output_open(&out, out_path, NULL);
    if (!rc) {
      rc = run_pieces(&job, &in, decode);
      if (rc == CLI_NOT_MAPPED) rc = decode ? decode_stream(&job, &in) : encode_stream(&job, &in);
      if (rc)
        cli_output_abort(&out);
      else
        rc = cli_output_commit(&out);
    }
    cli_input_close(&in);
  }
  free(job.f);
  free(job.buf);
  return rc;
}
