/* The chunked reading loop shared by convert, validate and count: reads the
 * input in chunks of a fixed size (constant memory whatever the input size),
 * resolves and skips a byte-order mark, and carries an incomplete trailing
 * character (at most 3 bytes) to the next chunk, so the callbacks always see
 * whole characters and any chunking gives the result of one whole-input call.
 * Also formats the position and description of an ill-formed sequence. */
#define _POSIX_C_SOURCE 200809L

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

size_t cli_stream_bom(struct cli_stream *s, const unsigned char *p, size_t n) {
  size_t start = 0;
  s->enc = s->want.enc;
  if (s->want.detect || s->want.generic) {
    start = cli_detect_bom(&s->want, p, n, s->eof, &s->enc);
  } else if (s->strip_bom) {
    unsigned char bom[4];
    size_t len = cli_bom_bytes(s->enc, bom);
    if (len && n >= len && memcmp(p, bom, len) == 0) start = len;
  }
  s->bom_len = start;
  s->fam = cli_family(s->enc);
  return start;
}

int cli_stream_run(struct cli_stream *s, const struct cli_input *in) {
  size_t chunk = cli_chunk_size(), carry = 0;
  uint64_t base = 0;
  int first = 1, rc = 0;
  struct cli_progress prog;
  /* +8: room for the carried bytes in front of a full chunk. */
  unsigned char *buf = malloc(chunk + 8);
  if (!buf) {
    cli_error("out of memory");
    return CLI_EXIT_IO;
  }
  s->in = in;
  s->enc = s->want.enc;
  s->fam = cli_family(s->enc);
  s->bom_len = 0;
  s->eof = 0;
  s->start = in->size >= 0 ? (int64_t)lseek(in->fd, 0, SEEK_CUR) : -1;
  s->seekable = s->start >= 0;
  s->track = s->positions == 2 || (s->positions == 1 && !s->seekable);
  cli_progress_begin(&prog, in->display, in->size, s->progress);
  for (;;) {
    size_t got, n, start = 0, keep, whole, unit;
    rc = cli_read_full(in, buf + carry, chunk, &got);
    if (rc) break;
    n = carry + got;
    s->eof = got < chunk;
    if (first) {
      first = 0;
      start = cli_stream_bom(s, buf, n);
    }
    unit = cli_unit_size(s->enc);
    keep = s->eof ? (n - start) % unit : cli_incomplete_tail(s->enc, buf + start, n - start);
    whole = n - start - keep;
    s->offset = base + start;
    if (whole) {
      if (cli_needs_swap32(s->enc)) cli_swap32(buf + start, whole / 4);
      rc = s->on_data(s, buf + start, whole);
      if (rc) break;
    }
    if (s->eof) {
      s->offset = base + start + whole;
      if (keep && s->on_tail) rc = s->on_tail(s, buf + start + whole, keep);
      break;
    }
    memmove(buf, buf + start + whole, keep);
    base += start + whole;
    carry = keep;
    cli_progress_update(&prog, base + carry);
  }
  cli_progress_end(&prog);
  free(buf);
  return rc;
}

struct locate_ctx {
  uint64_t target;
  struct cli_pos pos;
};

enum { LOCATED = -1 };

static int locate_data(struct cli_stream *s, unsigned char *p, size_t nbytes) {
  struct locate_ctx *l = s->ctx;
  if (s->offset + nbytes < l->target) {
    cli_pos_advance(&l->pos, s->fam, p, nbytes);
    return 0;
  }
  /* target is a character boundary of the whole input, hence of p too. */
  cli_pos_advance(&l->pos, s->fam, p, (size_t)(l->target - s->offset));
  return LOCATED;
}

int cli_stream_locate(const struct cli_stream *s, uint64_t offset, struct cli_pos *pos) {
  struct cli_stream again;
  struct locate_ctx l;
  int rc;
  if (!s->seekable || lseek(s->in->fd, (off_t)s->start, SEEK_SET) < 0) return -1;
  memset(&again, 0, sizeof again);
  memset(&l, 0, sizeof l);
  again.want = s->want;
  again.strip_bom = s->strip_bom;
  again.on_data = locate_data;
  again.ctx = &l;
  l.target = offset;
  rc = cli_stream_run(&again, s->in);
  if (rc != 0 && rc != LOCATED) return -1;
  *pos = l.pos;
  return 0;
}

void cli_report(const struct cli_stream *s, const struct cli_pos *at, uint64_t offset,
                const char *what) {
  fflush(stdout);
  fprintf(stderr, "%s:%" PRIu64 ":%" PRIu64 ": %s at byte offset %" PRIu64 "\n",
          s->in->display, at->lines + 1, at->col + 1, what, offset);
}

void cli_report_at(const struct cli_stream *s, const struct cli_pos *pos_before_p,
                   const unsigned char *p, size_t e_bytes, const char *what) {
  struct cli_pos at = *pos_before_p;
  if (s->seekable && !s->track) {
    if (cli_stream_locate(s, s->offset + e_bytes, &at) != 0) memset(&at, 0, sizeof at);
  } else {
    cli_pos_advance(&at, s->fam, p, e_bytes);
  }
  cli_report(s, &at, s->offset + e_bytes, what);
}

static void hex_bytes(char *buf, size_t cap, const unsigned char *p, size_t n) {
  size_t i, len = strlen(buf);
  for (i = 0; i < n && len + 4 < cap; i++)
    len += (size_t)sprintf(buf + len, i ? " %02X" : "%02X", p[i]);
}

void cli_describe_invalid(const struct cli_stream *s, const unsigned char *p, size_t e_bytes,
                          size_t n, char *buf, size_t cap) {
  const unsigned char *q = p + e_bytes;
  size_t left = n - e_bytes, unit = cli_unit_size(s->enc);
  uint32_t v;
  buf[0] = '\0';
  if (left < unit) { /* the 1-3 bytes of a unit cut off by the end of input */
    snprintf(buf, cap, "incomplete %s code unit ", cli_encoding_name(s->enc));
    hex_bytes(buf, cap, q, left);
    return;
  }
  switch (s->fam) {
    case FAM_UTF8: {
      size_t len = cli_utf8_sequence_length(q, left), sub;
      uint32_t cp;
      int truncated;
      cli_decode_one(FAM_UTF8, q, left, &cp, &sub);
      /* A valid beginning that the end of input cut short. */
      truncated = s->eof && len == left && sub == len && q[0] >= 0xC2 && q[0] <= 0xF4;
      snprintf(buf, cap, "%s UTF-8 sequence ", truncated ? "truncated" : "invalid");
      hex_bytes(buf, cap, q, len);
      if (!truncated) { /* what is wrong with it: "overlong encoding", ... */
        utfx_error err = utfx_utf8_error_at((const char *)q, left, 0);
        size_t at = strlen(buf);
        if (err.kind != UTFX_ERROR_NONE && at < cap)
          snprintf(buf + at, cap - at, " (%s)", utfx_error_kind_string(err.kind));
      }
      return;
    }
    case FAM_UTF16LE:
    case FAM_UTF16BE:
      v = s->fam == FAM_UTF16LE ? (uint32_t)(q[0] | q[1] << 8) : (uint32_t)(q[0] << 8 | q[1]);
      snprintf(buf, cap, "unpaired surrogate %04" PRIX32, v);
      return;
    case FAM_UTF32:
      memcpy(&v, q, 4);
      snprintf(buf, cap, "invalid UTF-32 code unit %08" PRIX32 " (%s)", v,
               v >= 0xD800 && v <= 0xDFFF ? "a surrogate" : "above U+10FFFF");
      return;
    case FAM_LATIN1:
      break;
  }
  snprintf(buf, cap, "invalid input");
}
