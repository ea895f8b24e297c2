/* Differential test against Node.js, the behaviour utfx promises to match.
 *
 * The test generates its cases (tests/oracle/gen.h, the same biased random
 * inputs as the ICU test, plus Markus Kuhn's UTF-8 stress test file and each
 * of its lines), writes them to a temporary file, runs ONE
 * `node tests/oracle/node_oracle.js IN OUT` process and compares, on every
 * kernel tier, utfx's results with Node's answers:
 *   - Buffer#toString('utf8') with utfx_convert_utf8_to_utf16le REPLACE;
 *   - Buffer#toString('latin1') with utfx_convert_latin1_to_utf16le;
 *   - Buffer.from(str, 'utf8') (lone surrogates included) with
 *     utfx_convert_utf16le_to_utf8 REPLACE, and Buffer.from(str, 'latin1')
 *     with utfx_convert_utf16le_to_latin1 where every unit is <= 0xFF;
 *   - TextEncoder#encodeInto(str, new Uint8Array(cap)): {read, written} and
 *     the bytes, against utfx_convert_utf16le_to_utf8 REPLACE with that cap
 *     (one random cap per UTF-16 case, and every cap 0..needed+1 for a subset);
 *   - Buffer#write(str, offset, length, 'utf8'): its return value and the
 *     whole buffer afterwards, so bytes after what it wrote must be untouched.
 * The record format is described at the top of node_oracle.js.
 *
 * The script is found through $UTFX_NODE_ORACLE, else UTFX_SOURCE_DIR (which
 * the Makefile defines), else the current directory; node through $NODE,
 * else PATH. A missing node or script is a failure, never a skip: this is the
 * oracle the library's semantics are defined by. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <spawn.h>
#include <stdint.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "oracle/gen.h"
#include "support/emulated.h"
#include "support/guard.h"
#include "tap.h"

extern char **environ;

#ifndef UTFX_SOURCE_DIR
#define UTFX_SOURCE_DIR "."
#endif

#define N_UTF8 600000   /* Buffer#toString('utf8') cases */
#define N_LATIN1 30000  /* Buffer#toString('latin1') cases */
#define N_UTF16 400000  /* Buffer.from(str) + encodeInto with one cap + latin1 */
#define N_SWEEP 20000   /* encodeInto with every cap */
#define N_WRITE 50000   /* Buffer#write into the middle of a buffer */
#define MAX_IN 256      /* units per random input (the Kuhn file is longer) */

enum { K_UTF8 = 1, K_LATIN1 = 2, K_UTF16 = 3, K_SWEEP = 4, K_WRITE = 5 };

/* The cases (exactly the IN file) and Node's answers (the OUT file). */
static unsigned char *cases, *answers;
static size_t cases_len, answers_len;
static unsigned long n_cases[6], n_caps;

/* ---------------------------------------------------------------- writing cases */

static FILE *case_file;

static void put_u32(uint32_t v) {
  unsigned char b[4] = {(unsigned char)v, (unsigned char)(v >> 8), (unsigned char)(v >> 16),
                        (unsigned char)(v >> 24)};
  fwrite(b, 1, 4, case_file);
}

/* Writes one record: kind, payload length, `extra` u32 header words, data. */
static void put_case(int kind, const uint32_t *extra, size_t n_extra, const void *data,
                     size_t len) {
  size_t i;
  fputc(kind, case_file);
  put_u32((uint32_t)(4 * n_extra + len));
  for (i = 0; i < n_extra; i++) put_u32(extra[i]);
  fwrite(data, 1, len, case_file);
  n_cases[kind]++;
}

static unsigned char *read_file(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  unsigned char *buf = NULL;
  long size;
  if (!f) return NULL;
  if (fseek(f, 0, SEEK_END) == 0 && (size = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0) {
    buf = malloc((size_t)size + 1);
    if (buf && fread(buf, 1, (size_t)size, f) != (size_t)size) {
      free(buf);
      buf = NULL;
    }
    *len = (size_t)size;
  }
  fclose(f);
  return buf;
}

/* Markus Kuhn's UTF-8 stress test (tests/data/UTF-8-test.txt). */
static unsigned char *kuhn;
static size_t kuhn_len;

/* The file as a whole and line by line, as UTF-8 to decode. */
static void write_kuhn_utf8_cases(void) {
  size_t start = 0, i;
  put_case(K_UTF8, NULL, 0, kuhn, kuhn_len);
  for (i = 0; i <= kuhn_len; i++) {
    if (i == kuhn_len || kuhn[i] == '\n') {
      put_case(K_UTF8, NULL, 0, kuhn + start, i - start);
      start = i + 1;
    }
  }
}

/* Each line's WHATWG decoding (by utfx here; the UTF-8 cases check it against
 * Node) as UTF-16 to encode with every capacity. */
static void write_kuhn_sweep_cases(void) {
  static char16_t line16[4096];
  size_t start = 0, i;
  for (i = 0; i <= kuhn_len; i++) {
    if (i == kuhn_len || kuhn[i] == '\n') {
      utfx_result r = utfx_convert_utf8_to_utf16le((const char *)kuhn + start, i - start,
                                                   line16, 4096, UTFX_REPLACE);
      put_case(K_SWEEP, NULL, 0, line16, r.written * 2);
      start = i + 1;
    }
  }
}

/* gen_utf16 makes host-order units; the case file and the utf16le functions
 * under test take little-endian bytes (a no-op on a little-endian host). */
static size_t to_le(uint16_t *u, size_t n) {
  size_t i;
  for (i = 0; i < n; i++) {
    const unsigned char b[2] = {(unsigned char)u[i], (unsigned char)(u[i] >> 8)};
    memcpy(&u[i], b, 2);
  }
  return n;
}

static void write_random_cases(void) {
  static unsigned char b[MAX_IN];
  static uint16_t u[MAX_IN];
  test_rng rng;
  unsigned long k, share = (unsigned long)test_share(4); /* a quarter under emulation */
  rng_seed(&rng, 0x0DE20);
  write_kuhn_utf8_cases();
  for (k = 0; k < N_UTF8 / share; k++) put_case(K_UTF8, NULL, 0, b, gen_utf8(&rng, b, MAX_IN));
  for (k = 0; k < N_LATIN1 / share; k++) {
    size_t n = (size_t)rng_below(&rng, 64), i;
    for (i = 0; i < n; i++) b[i] = (unsigned char)rng_next(&rng);
    put_case(K_LATIN1, NULL, 0, b, n);
  }
  for (k = 0; k < N_UTF16 / share; k++) {
    size_t n = to_le(u, gen_utf16(&rng, u, MAX_IN));
    uint32_t cap = (uint32_t)rng_below(&rng, 3 * n + 2);
    put_case(K_UTF16, &cap, 1, u, 2 * n);
  }
  write_kuhn_sweep_cases();
  for (k = 0; k < N_SWEEP / share; k++) put_case(K_SWEEP, NULL, 0, u, 2 * to_le(u, gen_utf16(&rng, u, 48)));
  for (k = 0; k < N_WRITE / share; k++) {
    size_t n = to_le(u, gen_utf16(&rng, u, 64));
    uint32_t w[3];
    w[0] = (uint32_t)rng_below(&rng, 16);       /* offset */
    w[1] = (uint32_t)rng_below(&rng, 3 * n + 2); /* length */
    w[2] = w[0] + w[1] + (uint32_t)rng_below(&rng, 16);
    put_case(K_WRITE, w, 3, u, 2 * n);
  }
}

/* ---------------------------------------------------------------- running node */

static int run_node(const char *in_path, const char *out_path) {
  const char *script = getenv("UTFX_NODE_ORACLE");
  const char *node = getenv("NODE");
  char default_script[4096];
  char *argv[5];
  pid_t pid;
  int rc, status;
  struct stat st;
  if (!script) {
    snprintf(default_script, sizeof default_script, "%s/tests/oracle/node_oracle.js",
             UTFX_SOURCE_DIR);
    script = default_script;
  }
  if (!node) node = "node";
  if (stat(script, &st) != 0) {
    tap_fail("node oracle", "tests/oracle/node_oracle.js not found");
    return 0;
  }
  argv[0] = (char *)(uintptr_t)node;
  argv[1] = (char *)(uintptr_t)script;
  argv[2] = (char *)(uintptr_t)in_path;
  argv[3] = (char *)(uintptr_t)out_path;
  argv[4] = NULL;
  fflush(stdout);
  rc = posix_spawnp(&pid, node, NULL, NULL, argv, environ);
  if (rc != 0) {
    printf("# cannot run %s: %s\n", node, strerror(rc));
    tap_fail("node oracle", "node (Node.js) is required for this test and could not be run");
    return 0;
  }
  while (waitpid(pid, &status, 0) < 0)
    if (errno != EINTR) break;
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    tap_fail("node oracle", "node_oracle.js failed (is node installed and on PATH?)");
    return 0;
  }
  return 1;
}

/* ---------------------------------------------------------------- comparing */

/* Readers over the two buffers; a short or malformed answer file fails once. */
static size_t case_pos, answer_pos;
static int answers_broken;

static uint32_t get_u32(const unsigned char *buf, size_t len, size_t *pos) {
  const unsigned char *b = buf + *pos;
  if (len - *pos < 4) {
    answers_broken = 1;
    *pos = len;
    return 0;
  }
  *pos += 4;
  return (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
}

static const unsigned char *get_bytes(size_t n) {
  const unsigned char *p = answers + answer_pos;
  if (answers_len - answer_pos < n) {
    answers_broken = 1;
    answer_pos = answers_len;
    return answers; /* any valid pointer: the comparison fails via answers_broken */
  }
  answer_pos += n;
  return p;
}

#define CANARY 0xA5
static unsigned char out_buf[4 * 32768 + 64];

/* encodeInto(str, new Uint8Array(cap)) against utfx with that cap. */
static void check_encode_into(const char16_t *s, size_t n, size_t cap, unsigned long k) {
  uint32_t read = get_u32(answers, answers_len, &answer_pos);
  uint32_t written = get_u32(answers, answers_len, &answer_pos);
  const unsigned char *bytes = get_bytes(written);
  utfx_result r;
  size_t i;
  int intact = 1;
  memset(out_buf, CANARY, cap + 16);
  r = utfx_convert_utf16le_to_utf8(s, n, (char *)out_buf, cap, UTFX_REPLACE);
  for (i = r.written; i < cap + 16; i++) intact &= out_buf[i] == CANARY;
  CHECK(r.read == read && r.written == written &&
            r.status == (read == n ? UTFX_OK : UTFX_DST_FULL) &&
            memcmp(out_buf, bytes, written) == 0 && intact && !answers_broken,
        "case %lu: cap %zu: utfx status %d read %zu written %zu%s; encodeInto read %u written %u",
        k, cap, (int)r.status, r.read, r.written, intact ? "" : " (wrote past written)",
        (unsigned)read, (unsigned)written);
  n_caps++;
}

static void check_case(int kind, const unsigned char *p, size_t len, unsigned long k) {
  static char16_t u16[32768];
  utfx_result r;
  uint32_t m;
  const unsigned char *a;
  switch (kind) {
    case K_UTF8:
    case K_LATIN1: {
      size_t need = kind == K_UTF8 ? utfx_utf16_length_from_utf8((const char *)p, len) : len;
      m = get_u32(answers, answers_len, &answer_pos);
      a = get_bytes(m);
      r = kind == K_UTF8 ? utfx_convert_utf8_to_utf16le((const char *)p, len, u16, need,
                                                        UTFX_REPLACE)
                         : utfx_convert_latin1_to_utf16le((const char *)p, len, u16, need,
                                                          UTFX_STRICT);
      CHECK(r.status == UTFX_OK && r.read == len && 2 * r.written == m &&
                memcmp(u16, a, m) == 0 && !answers_broken,
            "case %lu: %s decode of %zu bytes: utfx status %d, %zu units; Node %u units", k,
            kind == K_UTF8 ? "utf8" : "latin1", len, (int)r.status, r.written, (unsigned)m / 2);
      return;
    }
    case K_UTF16: {
      size_t cap = (size_t)get_u32(p, len, &(size_t){0});
      const char16_t *s = (const char16_t *)(p + 4);
      size_t n = (len - 4) / 2, need = utfx_utf8_length_from_utf16le(s, n);
      m = get_u32(answers, answers_len, &answer_pos);
      a = get_bytes(m);
      r = utfx_convert_utf16le_to_utf8(s, n, (char *)out_buf, need, UTFX_REPLACE);
      CHECK(need == m && r.status == UTFX_OK && r.written == m &&
                memcmp(out_buf, a, m) == 0 && !answers_broken,
            "case %lu: utf16le->utf8 of %zu units: utfx %zu bytes (length %zu); Node %u", k, n,
            r.written, need, (unsigned)m);
      check_encode_into(s, n, cap, k);
      m = get_u32(answers, answers_len, &answer_pos);
      r = utfx_convert_utf16le_to_latin1(s, n, (char *)out_buf, n, UTFX_STRICT);
      if (m == 0xFFFFFFFFu) {
        CHECK(r.status == UTFX_INVALID, "case %lu: utf16le->latin1 accepted a unit > 0xFF", k);
      } else {
        a = get_bytes(m);
        CHECK(r.status == UTFX_OK && r.written == m && memcmp(out_buf, a, m) == 0,
              "case %lu: utf16le->latin1 status %d written %zu; Node %u bytes", k,
              (int)r.status, r.written, (unsigned)m);
      }
      return;
    }
    case K_SWEEP: {
      const char16_t *s = (const char16_t *)p;
      size_t n = len / 2, cap;
      m = get_u32(answers, answers_len, &answer_pos);
      CHECK(utfx_utf8_length_from_utf16le(s, n) == m, "case %lu: utf8 length differs", k);
      for (cap = 0; cap <= (size_t)m + 1 && !answers_broken; cap++)
        check_encode_into(s, n, cap, k);
      return;
    }
    case K_WRITE: {
      size_t hp = 0;
      size_t offset = get_u32(p, len, &hp), length = get_u32(p, len, &hp);
      size_t total = get_u32(p, len, &hp), i;
      const char16_t *s = (const char16_t *)(p + 12);
      size_t n = (len - 12) / 2;
      uint32_t ret = get_u32(answers, answers_len, &answer_pos);
      a = get_bytes(total);
      for (i = 0; i < total; i++) out_buf[i] = (unsigned char)((i * 37 + 11) & 0xFF);
      r = utfx_convert_utf16le_to_utf8(s, n, (char *)out_buf + offset, length, UTFX_REPLACE);
      CHECK(r.written == ret && memcmp(out_buf, a, total) == 0 && !answers_broken,
            "case %lu: Buffer#write(str, %zu, %zu): Node returned %u, utfx wrote %zu%s", k,
            offset, length, (unsigned)ret, r.written,
            memcmp(out_buf, a, total) ? " (buffers differ)" : "");
      return;
    }
    default:
      answers_broken = 1;
  }
}

static union {
  unsigned char bytes[65536];
  char16_t units[32768];
} payload;

static void suite(void) {
  static const char *const names[6] = {
      "",
      "Buffer#toString('utf8') == utf8->utf16le REPLACE (random + Kuhn's UTF-8-test.txt)",
      "Buffer#toString('latin1') == latin1->utf16le",
      "Buffer.from(str, 'utf8' / 'latin1') and encodeInto(one cap) == utf16le->utf8/latin1",
      "encodeInto(str, cap) for every cap 0..needed+1 == utf16le->utf8 REPLACE with that cap",
      "Buffer#write(str, offset, length) return and untouched bytes == utf16le->utf8 REPLACE"};
  int kind, last = 0;
  unsigned long k = 0;
  case_pos = answer_pos = 0;
  answers_broken = 0;
  /* Records come grouped by kind: one TAP line per group. */
  while (case_pos < cases_len && !answers_broken) {
    size_t len;
    kind = cases[case_pos];
    case_pos++;
    len = get_u32(cases, cases_len, &case_pos);
    if (kind < K_UTF8 || kind > K_WRITE || len > sizeof payload.bytes ||
        len > cases_len - case_pos) {
      answers_broken = 1;
      break;
    }
    if (last && kind != last) tap_group(names[last]);
    last = kind;
    /* Copied so that UTF-16 data is aligned whatever its offset in the file. */
    memcpy(payload.bytes, cases + case_pos, len);
    check_case(kind, payload.bytes, len, k++);
    case_pos += len;
  }
  CHECK(!answers_broken && answer_pos == answers_len,
        "Node's answer file is malformed or has %zu unread bytes", answers_len - answer_pos);
  if (last) tap_group(names[last]);
}

int main(void) {
  const char *tmp = getenv("TMPDIR");
  char in_path[4096], out_path[4096];
  int fd_in, fd_out, ok;
  if (!tmp || !*tmp) tmp = "/tmp";
  snprintf(in_path, sizeof in_path, "%s/utfx-node-in-XXXXXX", tmp);
  snprintf(out_path, sizeof out_path, "%s/utfx-node-out-XXXXXX", tmp);
  fd_in = mkstemp(in_path);
  fd_out = mkstemp(out_path);
  if (fd_in < 0 || fd_out < 0 || !(case_file = fdopen(fd_in, "wb"))) {
    tap_fail("temporary files", strerror(errno));
    return tap_done();
  }
  close(fd_out);
  kuhn = read_file(UTFX_SOURCE_DIR "/tests/data/UTF-8-test.txt", &kuhn_len);
  ok = kuhn != NULL;
  if (!ok) tap_fail("Kuhn's UTF-8-test.txt", "tests/data/UTF-8-test.txt not found");
  if (ok) write_random_cases();
  fclose(case_file);
  if (ok && run_node(in_path, out_path)) {
    cases = read_file(in_path, &cases_len);
    answers = read_file(out_path, &answers_len);
    if (!cases || !answers) {
      tap_fail("node oracle", "cannot read back the case or answer file");
    } else {
      printf("# cases: utf8 %lu, latin1 %lu, utf16 %lu, encodeInto sweeps %lu, "
             "Buffer#write %lu\n",
             n_cases[K_UTF8], n_cases[K_LATIN1], n_cases[K_UTF16], n_cases[K_SWEEP],
             n_cases[K_WRITE]);
      tap_for_each_impl(suite);
      printf("# encodeInto capacities compared: %lu\n", n_caps);
    }
  }
  unlink(in_path);
  unlink(out_path);
  free(cases);
  free(answers);
  free(kuhn);
  return tap_done();
}
