/* Line and column bookkeeping for error messages. Lines end at LF (U+000A);
 * a column counts characters (code points, an ill-formed sequence counting as
 * the U+FFFD characters --replace writes for it), so it does not depend on
 * the encoding. Only strict runs pay for this, one pass per chunk. */
#include <string.h>

#include "cli.h"

static size_t unit_bytes(enum cli_fam fam) {
  return fam == FAM_UTF32 ? 4 : (fam == FAM_UTF16LE || fam == FAM_UTF16BE) ? 2 : 1;
}

/* Is the unit at byte i an LF? p is host order for UTF-32. */
static int is_lf(enum cli_fam fam, const unsigned char *p) {
  uint32_t v;
  switch (fam) {
    case FAM_UTF8:
    case FAM_LATIN1:
      return p[0] == '\n';
    case FAM_UTF16LE:
      return p[0] == '\n' && p[1] == 0;
    case FAM_UTF16BE:
      return p[0] == 0 && p[1] == '\n';
    case FAM_UTF32:
      memcpy(&v, p, 4);
      return v == '\n';
  }
  return 0;
}

/* Counts LF units; for byte encodings it leans on memchr, which libc
 * vectorizes. Returns the count and the byte offset after the last LF. */
static uint64_t scan_lf(enum cli_fam fam, const unsigned char *p, size_t n, size_t *after_last) {
  uint64_t count = 0;
  size_t u = unit_bytes(fam), i;
  *after_last = 0;
  if (u == 1) {
    const unsigned char *q = p, *end = p + n;
    while ((q = memchr(q, '\n', (size_t)(end - q))) != NULL) {
      count++;
      q++;
      *after_last = (size_t)(q - p);
    }
    return count;
  }
  for (i = 0; i + u <= n; i += u) {
    if (is_lf(fam, p + i)) {
      count++;
      *after_last = i + u;
    }
  }
  return count;
}

uint64_t cli_count_lf(enum cli_fam fam, const unsigned char *p, size_t nbytes) {
  size_t after;
  return scan_lf(fam, p, nbytes, &after);
}

void cli_pos_advance(struct cli_pos *pos, enum cli_fam fam, const unsigned char *p,
                     size_t nbytes) {
  size_t after, u = unit_bytes(fam);
  uint64_t lf = scan_lf(fam, p, nbytes, &after);
  if (lf) {
    pos->lines += lf;
    pos->col = 0;
  } else {
    after = 0;
  }
  pos->col += cli_code_points(fam, p + after, (nbytes - after) / u);
}
