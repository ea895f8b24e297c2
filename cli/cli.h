/* Declarations shared by the files of the utfx command-line tool. The tool
 * sees only the public header (include/utfx.h); nothing here is installed. */
#ifndef UTFX_CLI_H
#define UTFX_CLI_H

#include <stddef.h>
#include <stdint.h>

#include "utfx.h"

/* Exit statuses, documented in utfx.1 (EXIT STATUS). */
enum {
  CLI_EXIT_OK = 0,      /* success */
  CLI_EXIT_INVALID = 1, /* ill-formed or unencodable input (data error) */
  CLI_EXIT_USAGE = 2,   /* bad option, unknown encoding, bad argument */
  CLI_EXIT_IO = 3       /* cannot open / read / write, out of memory */
};

/* ---- encodings.c: names, aliases, byte-order marks ---- */

/* Concrete byte encodings of a stream. */
enum cli_enc { CLI_UTF8, CLI_UTF16LE, CLI_UTF16BE, CLI_UTF32LE, CLI_UTF32BE, CLI_LATIN1 };

/* What the user asked for with -f / -t. */
struct cli_encoding {
  enum cli_enc enc;
  int generic; /* "utf-16" / "utf-32": the BOM decides (input), a BOM is written (output) */
  int detect;  /* 1, -f omitted: a BOM decides, else UTF-8; 2, -f auto: a BOM
                  decides, else utfx_detect_encoding of the input */
};

/* Memory families of the library API. UTF-32 data is always handed to the
 * library in host order (the CLI swaps the other order in place). */
enum cli_fam { FAM_UTF8, FAM_UTF16LE, FAM_UTF16BE, FAM_UTF32, FAM_LATIN1 };

int cli_encoding_parse(const char *name, struct cli_encoding *out); /* 0 or -1 */
const char *cli_encoding_name(enum cli_enc enc);                    /* "UTF-16LE" */
size_t cli_unit_size(enum cli_enc enc);                             /* 1, 2 or 4 */
enum cli_fam cli_family(enum cli_enc enc);
int cli_needs_swap32(enum cli_enc enc); /* UTF-32 in the non-host order */
void cli_swap32(unsigned char *p, size_t units);
size_t cli_bom_bytes(enum cli_enc enc, unsigned char out[4]); /* 0 for Latin-1 */
/* Resolves a detect / generic input encoding from the first bytes; returns
 * the length of the BOM found (0 if none) and stores the encoding. `whole`:
 * p holds all of the input (else a first chunk, for -f auto's guess). */
size_t cli_detect_bom(const struct cli_encoding *want, const unsigned char *p, size_t n,
                      int whole, enum cli_enc *enc);
/* Bytes at the end of a chunk that may start a character completed by the
 * next chunk: carried over so every character is converted whole. */
size_t cli_incomplete_tail(enum cli_enc enc, const unsigned char *p, size_t n);
/* A place near byte `at` of p[0..n) where the input may be cut into pieces
 * converted independently with exactly the result of one whole-input call,
 * in either mode: before a byte that starts a decoding step. Unit-aligned,
 * never between the halves of a surrogate pair, at most n, and never
 * decreasing as `at` grows. */
size_t cli_split_point(enum cli_enc enc, const unsigned char *p, size_t n, size_t at);
/* Length of the ill-formed UTF-8 sequence at p as a reader sees it: its lead
 * byte and the continuation bytes that follow, up to the length the lead
 * announces (E0 80 -> 2, ED A0 80 -> 3, a stray 80 -> 1). */
size_t cli_utf8_sequence_length(const unsigned char *p, size_t n);

/* ---- unicode.c: one switch per operation over the public API ---- */

utfx_result cli_validate(enum cli_fam fam, const void *src, size_t units);
utfx_result cli_convert(enum cli_fam from, enum cli_fam to, const void *src, size_t units,
                        void *dst, size_t cap, unsigned flags);
uint64_t cli_code_points(enum cli_fam fam, const void *src, size_t units);
uint64_t cli_utf16_units(enum cli_fam fam, const void *src, size_t units);
/* Decodes the character at src[0..units): returns 0 and its code point, or 1
 * for an ill-formed sequence; *len = units it spans (the maximal subpart the
 * library replaces with one U+FFFD when ill-formed). */
int cli_decode_one(enum cli_fam fam, const void *src, size_t units, uint32_t *cp, size_t *len);
/* U+FFFD in enc ('?' for Latin-1); returns its byte length. */
size_t cli_replacement_bytes(enum cli_enc enc, unsigned char out[4]);

/* ---- position.c: line / column bookkeeping for error messages ---- */

struct cli_pos {
  uint64_t lines; /* LF characters seen */
  uint64_t col;   /* characters since the last LF */
};
/* Accounts for nbytes of whole characters at p. */
void cli_pos_advance(struct cli_pos *pos, enum cli_fam fam, const unsigned char *p, size_t nbytes);
uint64_t cli_count_lf(enum cli_fam fam, const unsigned char *p, size_t nbytes);

/* ---- io.c: input, atomic output, messages, signals ---- */

struct cli_input {
  const char *display; /* file name, or "<stdin>" */
  int fd;
  int64_t size; /* -1 when unknown (pipe, terminal) */
};

struct cli_ring;
struct cli_output {
  int fd;
  int is_stdout;
  int prealloc; /* a regular file not in append mode: each large write is fallocate()d first */
  const char *display;
  char *final_path; /* NULL for stdout */
  char *tmp_path;   /* the temporary file renamed onto final_path by commit */
  int splice;       /* a pipe: pieces from the slot rings go over by vmsplice */
  unsigned nrings;
  struct cli_ring *rings; /* per slot of the ordered loop (cli_output_slots) */
};

extern const char *cli_prog; /* "utfx" or "utfx convert": prefix of messages */
void cli_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void cli_io_init(void);
size_t cli_chunk_size(void); /* read size; UTFX_CLI_CHUNK overrides it (tests) */
/* The size in environment variable name (for tests), if it is a number in
 * [min, 1 GiB]; else dflt. */
size_t cli_env_size(const char *name, size_t min, size_t dflt);

int cli_input_open(struct cli_input *in, const char *path); /* "-" = stdin */
void cli_input_close(struct cli_input *in);
/* Reads until want bytes or end of input; *got < want means end of input. */
int cli_read_full(const struct cli_input *in, unsigned char *buf, size_t want, size_t *got);

/* pread until want bytes or end of file, from any thread; returns 0 or the
 * errno of the failure (nothing printed); *got < want means end of file. */
int cli_pread_full(const struct cli_input *in, unsigned char *buf, size_t want, int64_t off,
                   size_t *got);

/* path NULL: stdout. Otherwise a temporary file next to path; mode_of (or
 * path itself when it exists) gives the permissions of the result. */
int cli_output_open(struct cli_output *o, const char *path, const char *mode_of);
int cli_output_write(struct cli_output *o, const void *p, size_t n);
/* Into a pipe, the ordered loop's pieces are written where the pipe can take
 * them without a copy: cli_output_slots (on the calling thread, before the
 * loop) makes room for `slots` slots; cli_output_slot_buffer (in a slot's
 * work) returns where its next piece of at most cap bytes goes, or NULL (use
 * your own buffer); cli_output_write of bytes there hands them over. */
void cli_output_slots(struct cli_output *o, unsigned slots);
unsigned char *cli_output_slot_buffer(struct cli_output *o, unsigned slot, size_t cap);
int cli_output_commit(struct cli_output *o);
void cli_output_abort(struct cli_output *o);
int cli_flush_stdout(void); /* for stdio output (count, info, help) */

/* A regular input mapped into memory: p[0..n) is what is left of it from the
 * offset it was opened at (stdin may have been read partly). */
struct cli_map {
  void *base;
  size_t size;
  const unsigned char *p;
  size_t n;
  int64_t start; /* file offset of p[0] */
};
/* 0 on success; -1 when the input is not a regular file, is empty from its
 * offset, or cannot be mapped: the caller reads it instead. While mapped, a
 * file that shrinks under us (SIGBUS) ends the run with a message, exit 3. */
int cli_input_map(const struct cli_input *in, struct cli_map *map);
/* Tells the system that p[from..to) will not be read again (it may still be,
 * at the cost of a page fault): the page table entries of what was done go
 * while the run goes on, on this thread, rather than all at once at unmap. */
void cli_input_release(const struct cli_map *map, size_t from, size_t to);
void cli_input_unmap(struct cli_map *map);

/* ---- stream.c: chunked reading with carried partial characters ---- */

struct cli_stream;
typedef int (*cli_chunk_fn)(struct cli_stream *s, unsigned char *p, size_t nbytes);

struct cli_stream {
  /* set by the caller */
  struct cli_encoding want;
  int strip_bom;        /* also drop a leading U+FEFF of an explicit encoding */
  int progress;         /* allowed to show progress (still needs a terminal) */
  int positions;        /* 1: line/column at one error, 2: at every error (--all) */
  cli_chunk_fn on_data; /* whole characters (UTF-32 already in host order) */
  cli_chunk_fn on_tail; /* at end of input: 1-3 bytes of an incomplete unit */
  void *ctx;
  /* set while running */
  const struct cli_input *in;
  enum cli_enc enc;
  enum cli_fam fam;
  uint64_t offset; /* byte offset in the file of p[0] of the current callback */
  int eof;         /* the current data ends the input */
  size_t bom_len;  /* bytes of a detected (and skipped) BOM */
  int seekable;    /* a regular file: cli_stream_locate can re-read it */
  int track;       /* callbacks keep a cli_pos per chunk (else located on error) */
  int64_t start;   /* file offset where the input began */
};

/* Runs the callbacks over the input; returns the first nonzero value they
 * return, CLI_EXIT_IO on a read error, else 0. */
int cli_stream_run(struct cli_stream *s, const struct cli_input *in);
/* Resolves s->enc, s->fam and s->bom_len from the first bytes of the input
 * (BOM detection, --strip-bom); returns the bytes to skip. */
size_t cli_stream_bom(struct cli_stream *s, const unsigned char *p, size_t n);
/* Line and column of byte offset (from the start of the input) by re-reading
 * a seekable input: lets strict runs skip position bookkeeping on regular
 * files and pay for it only when there is an error. 0 on success. */
int cli_stream_locate(const struct cli_stream *s, uint64_t offset, struct cli_pos *pos);
/* "FILE:LINE:COL: what at byte offset N" (at = position of the error). */
void cli_report(const struct cli_stream *s, const struct cli_pos *at, uint64_t offset,
                const char *what);
/* "FILE:LINE:COL: " + what + " at byte offset N" for unit e of p. */
void cli_report_at(const struct cli_stream *s, const struct cli_pos *pos_before_p,
                   const unsigned char *p, size_t e_bytes, const char *what);
/* Describes the ill-formed character at byte e of p (e.g. "invalid UTF-8
 * sequence E0 80"); n = bytes available from p. */
void cli_describe_invalid(const struct cli_stream *s, const unsigned char *p, size_t e_bytes,
                          size_t n, char *buf, size_t cap);

/* ---- parallel.c: an ordered parallel loop over pieces (pthreads) ---- */

struct cli_par {
  size_t pieces;
  unsigned threads; /* at most this many workers; 1: the caller does it all */
  /* Runs on some thread; slot (< cli_par_slots(threads)) is the piece's alone
   * until it is emitted. Nonzero: no piece after this one is needed. */
  int (*work)(void *ctx, size_t piece, unsigned slot);
  /* Runs on the calling thread, pieces in order; nonzero ends the loop and
   * is returned. */
  int (*emit)(void *ctx, size_t piece, unsigned slot);
  void *ctx;
};
int cli_par_run(const struct cli_par *job);
unsigned cli_par_slots(unsigned threads);
unsigned cli_online_cpus(void); /* CPUs this process may run on */
/* Parses a --threads argument: 0 (or "auto") = every CPU; -1 when invalid. */
int cli_parse_threads(const char *arg, unsigned *threads);

/* ---- mapped.c: regular files mapped, cut at character boundaries ---- */

struct cli_mapped;
typedef int (*cli_piece_fn)(struct cli_mapped *m, size_t piece, unsigned slot,
                            const unsigned char *p, size_t nbytes);
typedef int (*cli_emit_fn)(struct cli_mapped *m, size_t piece, unsigned slot);

struct cli_mapped {
  /* set by the caller */
  unsigned threads;   /* resolved (cli_threads): sizes the caller's slot arrays */
  cli_piece_fn work;  /* whole characters p[0..nbytes) (UTF-32 in host order) */
  cli_emit_fn emit;   /* in order, on the calling thread */
  void *ctx;
  int copy; /* work on a copy of each piece (pread into a per-slot buffer in
               the core's cache) instead of on the mapping */
  /* set while running */
  struct cli_stream *s;
  const unsigned char *data; /* the input after its byte-order mark */
  size_t len;                /* bytes of whole units in data */
  size_t split;              /* nominal piece size */
  size_t pieces;
  unsigned char **scratch; /* per slot: the copy, or UTF-32 of the other byte order */
  int *read_err;           /* per slot: errno of the copy's pread, -1: file shrank */
  struct cli_progress *prog;
  const struct cli_map *map;
  size_t released; /* bytes of map->p given back (cli_input_release) */
};

enum { CLI_NOT_MAPPED = -2 };
/* Threads to use: requested, or every CPU for 0. */
unsigned cli_threads(unsigned requested);
/* Runs m over a regular input: resolves the byte-order mark as
 * cli_stream_run does, works on the pieces in parallel, emits them in order,
 * then gives an incomplete trailing unit to s->on_tail. Returns the first
 * nonzero emit / on_tail value, or CLI_NOT_MAPPED (nothing done) when the
 * input cannot be mapped and must be streamed. */
int cli_mapped_run(struct cli_mapped *m, struct cli_stream *s, const struct cli_input *in);
/* Byte offset in data of piece i (i == pieces: len). */
size_t cli_mapped_cut(const struct cli_mapped *m, size_t i);
/* Prepares s for a report about data[off..]: s->offset, s->eof, and a
 * host-order copy of the bytes there (at most 16) in win; returns their
 * count. */
size_t cli_mapped_window(struct cli_mapped *m, size_t off, unsigned char win[16]);

/* ---- progress.c ---- */

struct cli_progress {
  int active;
  int shown;
  int64_t total;
  uint64_t done;
  double start, last;
  const char *name;
};
void cli_progress_begin(struct cli_progress *p, const char *name, int64_t total, int allowed);
void cli_progress_update(struct cli_progress *p, uint64_t done);
void cli_progress_end(struct cli_progress *p);
double cli_now(void);

/* ---- subcommands ---- */

int cli_convert_main(int argc, char **argv);
int cli_validate_main(int argc, char **argv);
int cli_count_main(int argc, char **argv);
int cli_base64_main(int argc, char **argv);
int cli_info_main(int argc, char **argv);
int utfx_cli_bench(int argc, char **argv);

/* Prints "utfx CMD: unknown option ... (see utfx CMD --help)" for the
 * option getopt_long rejected; returns CLI_EXIT_USAGE. */
int cli_bad_option(const char *cmd, char **argv, int missing_argument);

#endif /* UTFX_CLI_H */
