/* Regular files at memory speed: the input is mapped (no read() copies), cut
 * into pieces at places where cutting cannot change the result
 * (cli_split_point), and the pieces are worked on by every core and emitted in
 * order (parallel.c). Pipes and terminals keep the chunked loop of stream.c,
 * whose constant memory they need; a mapped file costs address space, not
 * memory. The byte-order mark and an incomplete trailing unit are handled as
 * cli_stream_run handles them, so both paths give the same bytes and
 * messages.
 *
 * With m->copy each piece is read (pread) into a buffer of its slot, which
 * stays in the core's cache, and worked on there: the map is then touched
 * only at the cuts. Which is cheaper depends on the machine: where a fault
 * maps the input 4 KiB at a time (Intel family 6 model 167) the converters
 * ran faster on the copy; where one maps a large folio of the page cache
 * (Zen 4, Linux 6.18: 128 KiB a fault) the map costs no copy and wins, and
 * no caller uses the copy now (figures in bench/README.md, "The CLI", and
 * docs/perf-decisions.md, "The CLI: convert on the mapped input"). */
#define _POSIX_C_SOURCE 200809L

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

/* Nominal piece size: large enough that the per-piece handoff is noise,
 * small enough that the output buffers stay in cache and the last piece does
 * not leave cores idle. UTFX_CLI_SPLIT overrides it (tests: tiny pieces). */
static size_t split_size(void) { return cli_env_size("UTFX_CLI_SPLIT", 1, (size_t)1 << 20); }

enum { MAX_THREADS = 256 };

unsigned cli_threads(unsigned requested) {
  unsigned n = requested ? requested : cli_online_cpus();
  return n < 1 ? 1 : n > MAX_THREADS ? MAX_THREADS : n;
}

int cli_parse_threads(const char *arg, unsigned *threads) {
  char *end;
  unsigned long v;
  if (strcmp(arg, "auto") == 0) {
    *threads = 0;
    return 0;
  }
  if (*arg < '0' || *arg > '9') return -1;
  v = strtoul(arg, &end, 10);
  if (*end != '\0' || v > MAX_THREADS) return -1;
  *threads = (unsigned)v;
  return 0;
}

size_t cli_mapped_cut(const struct cli_mapped *m, size_t i) {
  if (i == 0) return 0;
  if (i >= m->pieces) return m->len;
  return cli_split_point(m->s->enc, m->data, m->len, i * m->split);
}

static int work(void *ctx, size_t i, unsigned slot) {
  struct cli_mapped *m = ctx;
  size_t a = cli_mapped_cut(m, i), b = cli_mapped_cut(m, i + 1);
  const unsigned char *p = m->data + a;
  int swap = cli_needs_swap32(m->s->enc);
  m->read_err[slot] = 0;
  if ((m->copy || swap) && b > a) {
    /* The library takes UTF-32 in host order, and the map is read-only. */
    if (!m->scratch[slot]) m->scratch[slot] = malloc(m->split + 8);
    if (!m->scratch[slot]) return m->work(m, i, slot, NULL, b - a);
    if (m->copy) {
      size_t got;
      int err = cli_pread_full(m->s->in, m->scratch[slot], b - a,
                               m->map->start + (int64_t)(p - m->map->p), &got);
      if (err || got < b - a) {
        m->read_err[slot] = err ? err : -1;
        return 1;
      }
    } else {
      memcpy(m->scratch[slot], p, b - a);
    }
    if (swap) cli_swap32(m->scratch[slot], (b - a) / 4);
    p = m->scratch[slot];
  }
  return m->work(m, i, slot, p, b - a);
}

static int emit(void *ctx, size_t i, unsigned slot) {
  struct cli_mapped *m = ctx;
  int rc;
  if (m->read_err[slot]) {
    cli_error("%s: read error: %s", m->s->in->display,
              m->read_err[slot] < 0 ? "file shrank while being read"
                                    : strerror(m->read_err[slot]));
    return CLI_EXIT_IO;
  }
  rc = m->emit(m, i, slot);
  size_t done = m->s->bom_len + cli_mapped_cut(m, i + 1);
  cli_input_release(m->map, m->released, done);
  m->released = done;
  cli_progress_update(m->prog, done);
  return rc;
}

size_t cli_mapped_window(struct cli_mapped *m, size_t off, unsigned char win[16]) {
  struct cli_stream *s = m->s;
  size_t n = m->len - off < 16 ? m->len - off : 16;
  memcpy(win, m->data + off, n);
  if (cli_needs_swap32(s->enc)) cli_swap32(win, n / 4);
  s->offset = s->bom_len + off;
  s->eof = off + n == m->len;
  return n;
}

int cli_mapped_run(struct cli_mapped *m, struct cli_stream *s, const struct cli_input *in) {
  struct cli_map map;
  struct cli_progress prog;
  struct cli_par par;
  size_t start, tail, unit, i;
  unsigned slots = cli_par_slots(m->threads);
  int rc;
  if (cli_input_map(in, &map) != 0) return CLI_NOT_MAPPED;
  m->scratch = calloc(slots, sizeof *m->scratch);
  m->read_err = calloc(slots, sizeof *m->read_err);
  if (!m->scratch || !m->read_err) {
    free(m->scratch);
    free(m->read_err);
    cli_input_unmap(&map);
    return CLI_NOT_MAPPED;
  }
  s->in = in;
  s->start = map.start;
  s->seekable = 1; /* a report re-reads the file for its line and column */
  s->track = 0;
  s->eof = 1; /* the whole file is here: -f auto looks at all of it */
  start = cli_stream_bom(s, map.p, map.n);
  unit = cli_unit_size(s->enc);
  tail = (map.n - start) % unit;
  m->s = s;
  m->data = map.p + start;
  m->len = map.n - start - tail;
  m->split = split_size();
  if (m->split % unit) m->split += unit - m->split % unit;
  m->pieces = (m->len + m->split - 1) / m->split;
  m->prog = &prog;
  m->map = &map;
  m->released = 0;
  cli_progress_begin(&prog, in->display, in->size, s->progress);
  par.pieces = m->pieces;
  par.threads = m->threads;
  par.work = work;
  par.emit = emit;
  par.ctx = m;
  rc = cli_par_run(&par);
  if (!rc && tail && s->on_tail) {
    unsigned char last[4];
    memcpy(last, m->data + m->len, tail);
    s->offset = start + m->len;
    s->eof = 1;
    rc = s->on_tail(s, last, tail);
  }
  cli_progress_end(&prog);
  /* Leave the offset where reading would have: after what was used. */
  if (!rc) (void)lseek(in->fd, (off_t)map.size, SEEK_SET);
  for (i = 0; i < slots; i++) free(m->scratch[i]);
  free(m->scratch);
  free(m->read_err);
  m->scratch = NULL;
  m->read_err = NULL;
  cli_input_unmap(&map);
  return rc;
}
