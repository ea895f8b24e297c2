/* The kernel suite: every validate / convert / length / repair function of the
 * public API on each corpus text, for every utfx tier this CPU runs, next to
 * memcpy of the same bytes, ICU, glibc iconv and (when built with it) simdutf.
 *
 * Inputs: each `*.utf8.txt` file of the data directory (a leading BOM is
 * dropped); the UTF-16LE/BE, UTF-32 and Latin-1 forms are made from it once.
 * Functions whose source or target is Latin-1 (or ASCII) run only on texts
 * that Latin-1 (or ASCII) can hold: elsewhere they would stop at the first
 * character, which measures nothing. Conversions use UTFX_REPLACE (Node's
 * semantics) and a destination of the worst-case size. */
#define _POSIX_C_SOURCE 200809L

#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "limit.h"
#include "suites.h"
#include "utfx_operations.h"
#include "utfx.h"

size_t bench_run_call(void *ctx, size_t iters) {
  const bench_call *c = ctx;
  size_t acc = 0, i;
  for (i = 0; i < iters; i++) acc += c->fn(c->state, c->src, c->n, c->dst, c->cap);
  return acc;
}

void bench_add_call(bench_registry *reg, const bench_entry *e, const bench_call *call) {
  bench_entry copy = *e;
  bench_call *c = bench_alloc(reg, sizeof *c);
  *c = *call;
  copy.run = bench_run_call;
  copy.ctx = c;
  bench_add(reg, &copy);
}

/* ---- the operations, through the public API ----------------------------- */

enum form { F_UTF8, F_UTF16LE, F_UTF16BE, F_UTF32, F_LATIN1, F_ASCII, F_FORMS };
static const size_t unit_size[F_FORMS] = {1, 2, 2, 4, 1, 1};

/* Every operation, from the library's one list (the installed
 * utfx_operations.h). */
#define F_utf8 F_UTF8
#define F_utf16le F_UTF16LE
#define F_utf16be F_UTF16BE
#define F_utf32 F_UTF32
#define F_latin1 F_LATIN1
#define F_ascii F_ASCII

#define DEF_CONVERT(from, S, to, T)                                                       \
  static size_t op_convert_##from##_to_##to(const void *state, const void *src, size_t n, \
                                            void *dst, size_t cap) {                     \
    utfx_result r = utfx_convert_##from##_to_##to(src, n, dst, cap, UTFX_REPLACE);       \
    (void)state;                                                                          \
    return r.written;                                                                     \
  }
UTFX_CONVERSIONS(DEF_CONVERT)

#define DEF_LENGTH(to, from, S)                                                     \
  static size_t op_##to##_length_from_##from(const void *state, const void *src, size_t n, \
                                             void *dst, size_t cap) {                  \
    (void)state, (void)dst, (void)cap;                                                 \
    return utfx_##to##_length_from_##from(src, n);                                     \
  }
UTFX_LENGTHS(DEF_LENGTH)

#define DEF_VALIDATE(enc, S)                                                          \
  static size_t op_validate_##enc(const void *state, const void *src, size_t n, void *dst, \
                                  size_t cap) {                                          \
    utfx_result r = utfx_validate_##enc(src, n);                                         \
    (void)state, (void)dst, (void)cap;                                                   \
    return r.read;                                                                       \
  }
UTFX_VALIDATIONS(DEF_VALIDATE)

/* The UTF-16 maps (swap, repair), checks and flagged lengths
 * (utfx_operations.h); their rows are below. */
#define DEF_MAP(op)                                                                      \
  static size_t op_##op(const void *state, const void *src, size_t n, void *dst,         \
                        size_t cap) {                                                    \
    (void)state, (void)cap;                                                              \
    utfx_##op(src, n, dst);                                                              \
    return n;                                                                            \
  }
#define DEF_CHECK(op)                                                                    \
  static size_t op_##op(const void *state, const void *src, size_t n, void *dst,         \
                        size_t cap) {                                                    \
    (void)state, (void)dst, (void)cap;                                                   \
    return utfx_##op(src, n).read;                                                       \
  }
#define DEF_FLAGGED(op)                                                                  \
  static size_t op_##op(const void *state, const void *src, size_t n, void *dst,         \
                        size_t cap) {                                                    \
    int flag;                                                                            \
    (void)state, (void)dst, (void)cap;                                                   \
    return utfx_##op(src, n, &flag) + (size_t)flag;                                      \
  }
UTFX_UTF16_MAPS(DEF_MAP)
UTFX_UTF16_CHECKS(DEF_CHECK)
UTFX_UTF16_FLAGGED_LENGTHS(DEF_FLAGGED)

/* TextDecoder's one-shot decode (utfx_whatwg_decode, no flags) beside the
 * conversion it wraps: the rows of convert_utf8_to_utf16le (UTF-8 input) and
 * to_well_formed_utf16le (UTF-16LE input) get a column whatwg-TIER. The
 * corpus has no BOM, so the outputs are the same. */
static size_t op_whatwg_utf8(const void *state, const void *src, size_t n, void *dst,
                             size_t cap) {
  (void)state;
  return utfx_whatwg_decode(UTFX_UTF8, 0, src, n, dst, cap).written;
}

static size_t op_whatwg_utf16le(const void *state, const void *src, size_t n, void *dst,
                                size_t cap) {
  (void)state;
  return utfx_whatwg_decode(UTFX_UTF16LE, 0, src, 2 * n, dst, cap).written;
}

static size_t op_detect_encodings(const void *state, const void *src, size_t n, void *dst,
                                  size_t cap) {
  (void)state, (void)dst, (void)cap;
  return utfx_detect_encodings(src, n);
}

static size_t op_detect_encoding(const void *state, const void *src, size_t n, void *dst,
                                 size_t cap) {
  (void)state, (void)dst, (void)cap;
  return utfx_detect_encoding(src, n);
}

/* The validations' _detail forms (the offset, as the plain ones' read) and
 * the O(1) trims of an incomplete tail. */
#define DEF_DETAIL(enc, S)                                                               \
  static size_t op_validate_##enc##_detail(const void *state, const void *src, size_t n, \
                                           void *dst, size_t cap) {                     \
    (void)state, (void)dst, (void)cap;                                                  \
    return utfx_validate_##enc##_detail(src, n).offset;                                 \
  }
DEF_DETAIL(utf8, char)
DEF_DETAIL(utf16le, char16_t)
DEF_DETAIL(utf16be, char16_t)
DEF_DETAIL(utf32, char32_t)

#define DEF_TRIM(enc)                                                                    \
  static size_t op_trim_partial_##enc(const void *state, const void *src, size_t n,     \
                                      void *dst, size_t cap) {                          \
    (void)state, (void)dst, (void)cap;                                                  \
    return utfx_trim_partial_##enc(src, n);                                             \
  }
DEF_TRIM(utf8)
DEF_TRIM(utf16le)
DEF_TRIM(utf16be)

typedef struct {
  const char *name;
  enum form from;
  enum form to;    /* F_FORMS when the result is not text */
  size_t out_per_in; /* worst-case destination units per source unit */
  bench_kernel fn;
} op_info;

#define ROW_CONVERT(from, S, to, T) \
  {"convert_" #from "_to_" #to, F_##from, F_##to, 4, op_convert_##from##_to_##to},
#define ROW_LENGTH(to, from, S) \
  {#to "_length_from_" #from, F_##from, F_FORMS, 0, op_##to##_length_from_##from},
#define ROW_VALIDATE(enc, S) {"validate_" #enc, F_##enc, F_FORMS, 0, op_validate_##enc},

static const op_info ops[] = {
    UTFX_VALIDATIONS(ROW_VALIDATE) UTFX_CONVERSIONS(ROW_CONVERT) UTFX_LENGTHS(ROW_LENGTH){
        "to_well_formed_utf16le", F_UTF16LE, F_UTF16LE, 1, op_to_well_formed_utf16le},
    {"to_well_formed_utf16be", F_UTF16BE, F_UTF16BE, 1, op_to_well_formed_utf16be},
    {"swap_bytes_utf16", F_UTF16LE, F_UTF16BE, 1, op_swap_bytes_utf16},
    {"detect_encodings", F_UTF8, F_FORMS, 0, op_detect_encodings},
    {"validate_ascii_utf16le", F_UTF16LE, F_FORMS, 0, op_validate_ascii_utf16le},
    {"validate_ascii_utf16be", F_UTF16BE, F_FORMS, 0, op_validate_ascii_utf16be},
    {"utf8_length_from_utf16le_with_surrogates", F_UTF16LE, F_FORMS, 0,
     op_utf8_length_from_utf16le_with_surrogates},
    {"utf8_length_from_utf16be_with_surrogates", F_UTF16BE, F_FORMS, 0,
     op_utf8_length_from_utf16be_with_surrogates},
    {"detect_encoding", F_UTF8, F_FORMS, 0, op_detect_encoding},
    {"validate_utf8_detail", F_UTF8, F_FORMS, 0, op_validate_utf8_detail},
    {"validate_utf16le_detail", F_UTF16LE, F_FORMS, 0, op_validate_utf16le_detail},
    {"validate_utf16be_detail", F_UTF16BE, F_FORMS, 0, op_validate_utf16be_detail},
    {"validate_utf32_detail", F_UTF32, F_FORMS, 0, op_validate_utf32_detail},
    {"trim_partial_utf8", F_UTF8, F_FORMS, 0, op_trim_partial_utf8},
    {"trim_partial_utf16le", F_UTF16LE, F_FORMS, 0, op_trim_partial_utf16le},
    {"trim_partial_utf16be", F_UTF16BE, F_FORMS, 0, op_trim_partial_utf16be},
};

/* ---- the corpus --------------------------------------------------------- */

typedef struct {
  char label[48];
  const void *text[F_FORMS]; /* NULL where the form cannot hold the text */
  size_t units[F_FORMS];
  size_t code_points;
} corpus;

static int cmp_str(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Cuts s to at most `max` bytes at a character boundary (tiny mode). */
static size_t cut_utf8(const char *s, size_t n, size_t max) {
  if (n <= max) return n;
  while (max > 0 && ((unsigned char)s[max] & 0xC0) == 0x80) max--;
  return max;
}

static int load_corpus(bench_registry *reg, const char *path, const char *file, corpus *c) {
  size_t n, len = strcspn(file, "-.") ? strcspn(file, "-.") : strlen(file);
  char *utf8 = bench_read_file(reg, path, &n);
  utfx_result r;
  if (!utf8) return -1;
  if (n >= 3 && memcmp(utf8, "\xEF\xBB\xBF", 3) == 0) utf8 += 3, n -= 3;
  if (bench_opts(reg)->tiny) n = cut_utf8(utf8, n, 200);
  if (len >= sizeof c->label) len = sizeof c->label - 1;
  memset(c, 0, sizeof *c);
  memcpy(c->label, file, len);
  c->text[F_UTF8] = utf8;
  c->units[F_UTF8] = n;
  {
    char16_t *le = bench_alloc(reg, 2 * n + 2), *be = bench_alloc(reg, 2 * n + 2);
    char32_t *u32 = bench_alloc(reg, 4 * n + 4);
    char *l1 = bench_alloc(reg, n + 1);
    r = utfx_convert_utf8_to_utf16le(utf8, n, le, n, UTFX_STRICT);
    if (r.status != UTFX_OK) {
      fprintf(stderr, "utfx-bench: %s is not valid UTF-8 (offset %zu); skipped\n", path, r.read);
      return -1;
    }
    c->text[F_UTF16LE] = le;
    c->units[F_UTF16LE] = r.written;
    r = utfx_convert_utf8_to_utf16be(utf8, n, be, n, UTFX_STRICT);
    c->text[F_UTF16BE] = be;
    c->units[F_UTF16BE] = r.written;
    r = utfx_convert_utf8_to_utf32(utf8, n, u32, n, UTFX_STRICT);
    c->text[F_UTF32] = u32;
    c->units[F_UTF32] = c->code_points = r.written;
    r = utfx_convert_utf8_to_latin1(utf8, n, l1, n, UTFX_STRICT);
    if (r.status == UTFX_OK) {
      c->text[F_LATIN1] = l1;
      c->units[F_LATIN1] = r.written;
    }
    if (utfx_validate_ascii(utf8, n).status == UTFX_OK) {
      c->text[F_ASCII] = utf8;
      c->units[F_ASCII] = n;
    }
  }
  return 0;
}

/* The files given with --file, labelled by their base name. */
static size_t load_files(bench_registry *reg, corpus **out) {
  const bench_options *opt = bench_opts(reg);
  corpus *list = bench_alloc(reg, opt->nfiles * sizeof *list);
  size_t i, k = 0;
  for (i = 0; i < opt->nfiles; i++) {
    const char *base = strrchr(opt->files[i], '/');
    base = base ? base + 1 : opt->files[i];
    if (load_corpus(reg, opt->files[i], base, &list[k]) == 0)
      k++;
    else
      fprintf(stderr, "utfx-bench: cannot use %s\n", opt->files[i]);
  }
  *out = list;
  return k;
}

/* Loads every *.utf8.txt of the data directory, sorted by name. */
static size_t load_corpora(bench_registry *reg, corpus **out) {
  const char *dir = bench_opts(reg)->data_dir;
  DIR *d;
  struct dirent *ent;
  char **names = NULL;
  size_t count = 0, cap = 0, i, k = 0;
  corpus *list;
  if (bench_opts(reg)->nfiles) return load_files(reg, out);
  d = opendir(dir);
  if (!d) {
    fprintf(stderr, "utfx-bench: cannot open the corpus directory %s (use --data DIR)\n", dir);
    *out = NULL;
    return 0;
  }
  while ((ent = readdir(d)) != NULL) {
    size_t len = strlen(ent->d_name);
    if (len < 9 || strcmp(ent->d_name + len - 9, ".utf8.txt") != 0) continue;
    if (count == cap) {
      cap = cap ? 2 * cap : 32;
      names = realloc(names, cap * sizeof *names);
      if (!names) abort();
    }
    names[count] = bench_alloc(reg, len + 1);
    memcpy(names[count++], ent->d_name, len + 1);
  }
  closedir(d);
  if (count) qsort(names, count, sizeof *names, cmp_str);
  list = bench_alloc(reg, (count ? count : 1) * sizeof *list);
  for (i = 0; i < count; i++) {
    char path[4096];
    char label[48];
    size_t len = strcspn(names[i], "-.");
    snprintf(label, sizeof label, "%.*s", (int)(len < 47 ? len : 47), names[i]);
    if (!bench_wanted(reg, "kernels", NULL, label, NULL)) continue;
    snprintf(path, sizeof path, "%s/%s", dir, names[i]);
    if (load_corpus(reg, path, names[i], &list[k]) == 0) k++;
  }
  free(names);
  *out = list;
  return k;
}

/* ---- --placement: buffers that end just before an unmapped page ------- */

/* Mapped files, the CLI's mmap input and buffers at the end of a heap
 * mapping end so; a masked tail access whose switched-off lanes reach into
 * the unmapped page may cost a microcode assist (issue 34). */
typedef struct guarded guarded;
struct guarded {
  unsigned char *base;
  size_t guard; /* offset of the PROT_NONE page */
  guarded *next;
};
static guarded *guards; /* (one cleanup frees them all) */

static void unguard_all(void *arg) {
  size_t page = (size_t)sysconf(_SC_PAGESIZE);
  guarded *g;
  (void)arg;
  for (g = guards; g; g = g->next) {
    mprotect(g->base + g->guard, page, PROT_READ | PROT_WRITE);
    free(g->base);
  }
  guards = NULL;
}

/* `bytes` bytes (a copy of data, if given) that end where a PROT_NONE page
 * starts. */
static void *at_guard(bench_registry *reg, const void *data, size_t bytes) {
  size_t page = (size_t)sysconf(_SC_PAGESIZE);
  guarded *g = bench_alloc(reg, sizeof *g);
  void *p;
  g->guard = (bytes + page - 1) / page * page;
  if (posix_memalign(&p, page, g->guard + page) != 0) abort();
  g->base = p;
  if (mprotect(g->base + g->guard, page, PROT_NONE) != 0) {
    perror("utfx-bench: mprotect");
    abort();
  }
  if (!guards) bench_at_end(reg, unguard_all, NULL);
  g->next = guards;
  guards = g;
  p = g->base + g->guard - bytes;
  if (data) memcpy(p, data, bytes);
  return p;
}

/* The utfx contestants' call under --placement: the source copied to end at
 * a guard page; the destination of exactly the scalar kernel's output
 * (cap = its units) ending at one. Baselines keep the ordinary buffers (their
 * plain forms may write past the output). Returns 0 if the call cannot be
 * placed (the scalar kernel fails). */
static int place_call(bench_registry *reg, const op_info *op, bench_call *call, void *scratch) {
  const int mode = bench_opts(reg)->placement;
  if (mode & 1) call->src = at_guard(reg, call->src, call->n * unit_size[op->from]);
  if ((mode & 2) && op->to < F_FORMS) {
    size_t out;
    if (utfx_set_implementation("scalar") != 0) return 0;
    out = op->fn(NULL, call->src, call->n, scratch, call->cap);
    call->dst = at_guard(reg, NULL, out * unit_size[op->to]);
    if (op->out_per_in) call->cap = out;
  }
  return 1;
}

/* ---- self-check ---------------------------------------------------------- */

/* Runs `call` once and compares its result (and, for an operation with a
 * text output, the output) with the scalar kernel's, so that no broken or
 * misused implementation reports a speed. tier: the utfx tier call needs, or
 * NULL for a baseline. */
static int agrees_with_scalar(const op_info *op, const bench_call *call, const char *tier,
                              void *scratch) {
  size_t want, got;
  int same;
  if (utfx_set_implementation("scalar") != 0) return 0;
  want = op->fn(NULL, call->src, call->n, call->dst, call->cap);
  if (tier && utfx_set_implementation(tier) != 0) return 0;
  got = call->fn(call->state, call->src, call->n, scratch, call->cap);
  same = got == want;
  if (same && op->to < F_FORMS)
    same = memcmp(call->dst, scratch, want * unit_size[op->to]) == 0;
  return same;
}

/* ---- registration ------------------------------------------------------- */

static void add_checked(bench_registry *reg, const bench_entry *e, const bench_call *call,
                        const op_info *op, void *scratch) {
  if (agrees_with_scalar(op, call, e->tier[0] ? e->tier : NULL, scratch))
    bench_add_call(reg, e, call);
  else
    fprintf(stderr, "utfx-bench: %s %s disagrees with utfx-scalar; not timed\n", e->name,
            e->impl);
}

/* The cell's limit (limit.c): "limit-read" reads the input once with the
 * widest loads, "limit-write" copies the output (the scalar kernel's, so its
 * size is exact) once, "limit-rw" reads the input while storing as many
 * bytes as the output has, at the cell's destination; the report takes the
 * slowest of the three as the limit.
 * call holds the input; out_copy is a source for the copy. */
static void add_limit(bench_registry *reg, const bench_entry *e, const op_info *op,
                      bench_call *call, void *out_copy) {
  bench_entry limit = *e;
  size_t out_units;
  snprintf(limit.impl, sizeof limit.impl, "limit-read");
  if (!bench_wanted(reg, "kernels", NULL, NULL, "limit-read") &&
      !bench_wanted(reg, "kernels", NULL, NULL, "limit-rw") &&
      !bench_wanted(reg, "kernels", NULL, NULL, "limit-write"))
    return;
  call->fn = bench_read_once;
  bench_add_call(reg, &limit, call);
  if (op->to == F_FORMS || utfx_set_implementation("scalar") != 0) return;
  out_units = op->fn(NULL, call->src, call->n / unit_size[op->from], call->dst,
                     op->out_per_in * (call->n / unit_size[op->from]));
  snprintf(limit.impl, sizeof limit.impl, "limit-rw");
  call->cap = out_units * unit_size[op->to];
  call->fn = bench_read_write_once;
  bench_add_call(reg, &limit, call);
  snprintf(limit.impl, sizeof limit.impl, "limit-write");
  call->src = out_copy;
  call->n = out_units * unit_size[op->to];
  call->fn = bench_memcpy_once;
  bench_add_call(reg, &limit, call);
}

/* (destination - source) mod 4096 of the kernels suite's cells. Loops that
 * store as fast as they load (the UTF-16 byte swap, to_well_formed, the
 * byte-order conversions) slow down when a load's address matches a pending
 * store's in its low 12 bits (4K aliasing: the destination a little ahead
 * of the source in the page), and buffer alignment against the cache line
 * matters too; with the ordinary allocator every large buffer starts at the
 * same offset in its page, so one placement decided such cells. Instead a
 * cell's destination is offset from its source by an entry of this set:
 * eight offsets spread over the page (one in every 512 bytes, each at a
 * different offset within its cache line: 0, 8, ..., 56), the i-th in
 * --processes child i and --compare round i (mod 8), the first in a single
 * process; --dst-offset fixes one. docs/perf-decisions.md, 'Bench
 * placement', has the effect. */
static const int dst_offsets[8] = {0, 512 + 8, 1024 + 16, 1536 + 24,
                                   2048 + 32, 2560 + 40, 3072 + 48, 3584 + 56};

static int dst_offset(const bench_options *opt) {
  const char *v = getenv(BENCH_PLACE_ENV);
  if (opt->dst_offset >= 0) return opt->dst_offset;
  return dst_offsets[(v ? (unsigned)atoi(v) : 0u) % 8];
}

/* dst_base (8192 bytes larger than needed) advanced so that
 * (result - src) mod 4096 = delta, less what keeps the result 4-byte aligned
 * for UTF-32 and UTF-16 output (a UTF-8 source may start anywhere). */
static void *offset_dst(void *dst_base, const void *src, int delta) {
  uintptr_t base = ((uintptr_t)dst_base + 4095) & ~(uintptr_t)4095;
  return (void *)(base + ((((uintptr_t)src + (uintptr_t)delta) & 4095) & ~(uintptr_t)3));
}

void bench_suite_kernels(bench_registry *reg) {
  const bench_options *opt = bench_opts(reg);
  const char *tiers[8];
  size_t ntiers = bench_tiers(tiers, 8), ncorpus, c, o, t, max_units = 0;
  corpus *corpora;
  void *dst, *scratch, *out_copy;
  size_t dst_bytes;
  if (!bench_wanted(reg, "kernels", NULL, NULL, NULL)) return;
  ncorpus = load_corpora(reg, &corpora);
  for (c = 0; c < ncorpus; c++)
    if (corpora[c].units[F_UTF8] > max_units) max_units = corpora[c].units[F_UTF8];
  /* One destination for all: benchmarks run one at a time. Any conversion of
   * n UTF-8 bytes (or fewer units of another form) fits in 4n units of 4. */
  dst_bytes = 16 * max_units + 64;
  dst = bench_alloc(reg, dst_bytes + 8192); /* (offset_dst) */
  scratch = bench_alloc(reg, dst_bytes);
  out_copy = bench_alloc(reg, dst_bytes);
  for (o = 0; o < sizeof ops / sizeof ops[0]; o++) {
    const op_info *op = &ops[o];
    if (!bench_wanted(reg, "kernels", op->name, NULL, NULL)) continue;
    for (c = 0; c < ncorpus; c++) {
      const corpus *cp = &corpora[c];
      bench_entry e;
      bench_call call, placed;
      if (!cp->text[op->from] || (op->to < F_FORMS && !cp->text[op->to])) continue;
      memset(&e, 0, sizeof e);
      snprintf(e.suite, sizeof e.suite, "kernels");
      snprintf(e.name, sizeof e.name, "%s/%s", op->name, cp->label);
      e.bytes = (double)(cp->units[op->from] * unit_size[op->from]);
      e.chars = (double)cp->code_points;
      memset(&call, 0, sizeof call);
      call.src = cp->text[op->from];
      call.dst = offset_dst(dst, call.src, dst_offset(opt));

      /* memcpy of the same input bytes, for reference. */
      snprintf(e.impl, sizeof e.impl, "memcpy");
      call.fn = bench_memcpy_once;
      call.n = cp->units[op->from] * unit_size[op->from];
      bench_add_call(reg, &e, &call);
      add_limit(reg, &e, op, &call, out_copy);

      call.src = cp->text[op->from];
      call.dst = offset_dst(dst, call.src, dst_offset(opt));
      call.n = cp->units[op->from];
      call.cap = op->out_per_in ? op->out_per_in * call.n : 0;
      placed = call;
      if (opt->placement && bench_wanted(reg, "kernels", op->name, cp->label, NULL) &&
          !place_call(reg, op, &placed, scratch))
        continue;
      for (t = 0; t < ntiers; t++) {
        if (!bench_tier_distinct(opt, tiers[t], op->name)) continue;
        snprintf(e.impl, sizeof e.impl, "utfx-%s", tiers[t]);
        snprintf(e.tier, sizeof e.tier, "%s", tiers[t]);
        placed.fn = op->fn;
        placed.state = NULL;
        add_checked(reg, &e, &placed, op, scratch);
        if (strcmp(op->name, "convert_utf8_to_utf16le") == 0 ||
            strcmp(op->name, "to_well_formed_utf16le") == 0) {
          snprintf(e.impl, sizeof e.impl, "whatwg-%s", tiers[t]);
          placed.fn = op->name[0] == 'c' ? op_whatwg_utf8 : op_whatwg_utf16le;
          add_checked(reg, &e, &placed, op, scratch);
        }
      }
      e.tier[0] = '\0';
      if (bench_wanted(reg, "kernels", op->name, cp->label, "icu") &&
          bench_icu_op(reg, op->name, &call) == 0) {
        snprintf(e.impl, sizeof e.impl, "icu");
        add_checked(reg, &e, &call, op, scratch);
      }
      if (bench_wanted(reg, "kernels", op->name, cp->label, "iconv") &&
          bench_iconv_op(reg, op->name, &call) == 0) {
        snprintf(e.impl, sizeof e.impl, "iconv");
        add_checked(reg, &e, &call, op, scratch);
      }
#ifdef UTFX_BENCH_SIMDUTF
      {
        size_t s, ns = bench_simdutf_count();
        for (s = 0; s < ns; s++) {
          snprintf(e.impl, sizeof e.impl, "simdutf-%s", bench_simdutf_name(s));
          if (bench_wanted(reg, "kernels", op->name, cp->label, e.impl) &&
              bench_simdutf_op(s, op->name, &call) == 0)
            add_checked(reg, &e, &call, op, scratch);
        }
      }
#endif
    }
  }
}

/* ---- the small suite ------------------------------------------------------ */

/* The same functions on short prefixes (n = 1 ... 256 source units, or
 * --small-lengths) of three texts: ASCII, Latin-1-only and mixed-script.
 * Streams (sockets, StringDecoder chunks, short JavaScript strings) live
 * here, where a kernel's set-up costs more than its loop. Rows are
 * `function/TEXT/n=N`; the prefix is cut back to a character boundary (so it
 * may hold up to 3 units fewer than N) and stays valid text. Reported in ns
 * per call. */
static const char *const small_texts[] = {"ASCII", "Latin1", "Mixed"};
#define SMALL_MAX_LENGTHS 512

/* Parses "1,2,4" or "0-64,100" into lengths (at most cap); returns the count. */
static size_t parse_lengths(const char *spec, size_t *out, size_t cap) {
  size_t k = 0;
  while (spec && *spec && k < cap) {
    char *end;
    unsigned long a = strtoul(spec, &end, 10), b = a;
    if (end == spec) break;
    if (*end == '-') b = strtoul(end + 1, &end, 10);
    for (; a <= b && k < cap; a++) out[k++] = a;
    spec = *end == ',' ? end + 1 : end + strlen(end);
  }
  return k;
}

/* The longest prefix of at most n units of form f that ends at a character
 * boundary. */
static size_t prefix_units(const corpus *cp, enum form f, size_t n) {
  const unsigned char *b = cp->text[f];
  if (n >= cp->units[f]) return cp->units[f];
  if (f == F_UTF8) return cut_utf8(cp->text[f], cp->units[f], n);
  if ((f == F_UTF16LE || f == F_UTF16BE) && n > 0) {
    unsigned hi = b[2 * (n - 1) + (f == F_UTF16LE)];
    if (hi >= 0xD8 && hi <= 0xDB) n--; /* do not split a pair */
  }
  return n;
}

static size_t code_points(enum form f, const void *p, size_t n) {
  switch (f) {
    case F_UTF8:
      return utfx_utf32_length_from_utf8(p, n);
    case F_UTF16LE:
      return utfx_utf32_length_from_utf16le(p, n);
    case F_UTF16BE:
      return utfx_utf32_length_from_utf16be(p, n);
    default:
      return n;
  }
}

void bench_suite_small(bench_registry *reg) {
  static const size_t default_lengths[] = {1, 2, 4, 8, 16, 32, 64, 128, 256};
  const bench_options *opt = bench_opts(reg);
  const char *tiers[8];
  size_t ntiers = bench_tiers(tiers, 8), lengths[SMALL_MAX_LENGTHS], nlen, max_n = 0;
  size_t t, o, l, k, x, nt = 0;
  corpus texts[sizeof small_texts / sizeof small_texts[0]];
  void *dst, *scratch;
  if (!bench_wanted(reg, "small", NULL, NULL, NULL)) return;
  if (opt->small_lengths) {
    nlen = parse_lengths(opt->small_lengths, lengths, SMALL_MAX_LENGTHS);
  } else {
    nlen = sizeof default_lengths / sizeof default_lengths[0];
    memcpy(lengths, default_lengths, sizeof default_lengths);
  }
  if (opt->tiny && nlen > 3) nlen = 3;
  for (l = 0; l < nlen; l++)
    if (lengths[l] > max_n) max_n = lengths[l];
  for (t = 0; t < sizeof small_texts / sizeof small_texts[0]; t++) {
    char path[4096];
    snprintf(path, sizeof path, "%s/%s.utf8.txt", opt->data_dir, small_texts[t]);
    if (load_corpus(reg, path, small_texts[t], &texts[nt]) == 0) nt++;
  }
  dst = bench_alloc(reg, 16 * max_n + 64);
  scratch = bench_alloc(reg, 16 * max_n + 64);
  for (o = 0; o < sizeof ops / sizeof ops[0]; o++) {
    const op_info *op = &ops[o];
    if (!bench_wanted(reg, "small", op->name, NULL, NULL)) continue;
    for (x = 0; x < nt; x++) {
      const corpus *cp = &texts[x];
      if (!cp->text[op->from] || (op->to < F_FORMS && !cp->text[op->to])) continue;
      for (l = 0; l < nlen; l++) {
        bench_entry e;
        bench_call call;
        char input[72];
        snprintf(input, sizeof input, "%.47s/n=%zu", cp->label, lengths[l]);
        if (!bench_wanted(reg, "small", op->name, input, NULL)) continue;
        memset(&e, 0, sizeof e);
        memset(&call, 0, sizeof call);
        snprintf(e.suite, sizeof e.suite, "small");
        snprintf(e.name, sizeof e.name, "%.31s/%.63s", op->name, input);
        call.src = cp->text[op->from];
        call.n = prefix_units(cp, op->from, lengths[l]);
        call.cap = op->out_per_in ? op->out_per_in * call.n : 0;
        call.dst = dst;
        call.fn = op->fn;
        e.bytes = (double)(call.n * unit_size[op->from]);
        e.chars = (double)code_points(op->from, call.src, call.n);
        if (opt->placement && !place_call(reg, op, &call, scratch)) continue;
        for (k = 0; k < ntiers; k++) {
          if (!bench_tier_distinct(opt, tiers[k], op->name)) continue;
          snprintf(e.impl, sizeof e.impl, "utfx-%s", tiers[k]);
          snprintf(e.tier, sizeof e.tier, "%s", tiers[k]);
          add_checked(reg, &e, &call, op, scratch);
        }
      }
    }
  }
}
