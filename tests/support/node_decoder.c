#define _DEFAULT_SOURCE
#include "node_decoder.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void bytes_put(bytes *b, const void *src, size_t n) {
  if (b->n + n > b->cap) {
    b->cap = (b->n + n) * 2;
    b->p = realloc(b->p, b->cap);
    if (!b->p) abort();
  }
  if (n) memcpy(b->p + b->n, src, n);
  b->n += n;
}

void bytes_put_u32(bytes *b, uint32_t v) {
  unsigned char le[4] = {(unsigned char)v, (unsigned char)(v >> 8), (unsigned char)(v >> 16),
                         (unsigned char)(v >> 24)};
  bytes_put(b, le, 4);
}

uint32_t bytes_get_u32(const unsigned char *p) {
  return p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static int write_file(const char *path, const bytes *b) {
  FILE *f = fopen(path, "wb");
  int ok = f && fwrite(b->p, 1, b->n, f) == b->n;
  if (f && fclose(f) != 0) ok = 0;
  return ok;
}

static int read_file(const char *path, bytes *b) {
  FILE *f = fopen(path, "rb");
  unsigned char buf[1 << 16];
  size_t got;
  if (!f) return 0;
  while ((got = fread(buf, 1, sizeof buf, f)) > 0) bytes_put(b, buf, got);
  fclose(f);
  return 1;
}

/* An oracle script, through $UTFX_TESTS_DIR or from the repository root. */
static const char *oracle_path(const char *script) {
  const char *dir = getenv("UTFX_TESTS_DIR");
  static char path[4096];
  snprintf(path, sizeof path, "%s/oracle/%s", dir ? dir : "tests", script);
  return path;
}

const char *node_decoder_oracle(const bytes *cases, bytes *results) {
  return node_run_oracle("decoder_oracle.js", cases, results);
}

const char *node_run_oracle(const char *script, const bytes *cases, bytes *results) {
  char in_path[] = "/tmp/utfx_decoder_cases_XXXXXX", out_path[] = "/tmp/utfx_decoder_node_XXXXXX";
  char cmd[8192];
  int fd_in, fd_out, ok;
  if (system("node --version > /dev/null 2>&1") != 0)
    return "node is not installed or not on PATH; this test needs it";
  if (access(oracle_path(script), R_OK) != 0)
    return "the oracle script is not in tests/oracle/ (run from the repo root)";
  fd_in = mkstemp(in_path);
  fd_out = mkstemp(out_path);
  if (fd_in < 0 || fd_out < 0) return "cannot create temporary files";
  close(fd_in);
  close(fd_out);
  ok = write_file(in_path, cases);
  snprintf(cmd, sizeof cmd, "node '%s' '%s' '%s'", oracle_path(script), in_path, out_path);
  ok = ok && system(cmd) == 0 && read_file(out_path, results);
  unlink(in_path);
  unlink(out_path);
  return ok ? NULL : "running the oracle failed";
}
