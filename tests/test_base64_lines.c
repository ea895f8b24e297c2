/* utfx_base64_encode_lines and utfx_base64_length_from_binary_lines on every
 * kernel tier, against:
 *   - a reference written here: RFC 4648's groups, then a line feed (or CR
 *     LF) before each character whose place on the line (column + index) is
 *     a positive multiple of the line length;
 *   - coreutils `base64 -w W` and Node's Buffer base64 / base64url cut into
 *     lines by hand (tests/oracle/base64_lines_oracle.js), on the same
 *     inputs, each with the final line feed coreutils adds; Node's also
 *     into CR LF lines (UTFX_BASE64_CRLF);
 *   - the scalar kernel;
 * at random lengths (around the vector blocks too), line lengths 1..200 and
 * huge, every column; every capacity (canaries after written); resumed in
 * pieces with the column carried; sources and destinations against guard
 * pages; line length 0. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <spawn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "internal.h"
#include "support/emulated.h"
#include "support/guard.h"
#include "support/slurp.h"
#include "tap.h"

extern char **environ;

#define MAX_BIN 6000
#define MAX_OUT (3 * (MAX_BIN / 3 * 4 + 8)) /* lines of 1 and CR LF: 3 bytes a character */
#define CANARY 0xA5

static test_rng rng;

/* ------------------------------------------------------------ reference */

static size_t ref_text(const unsigned char *b, size_t n, unsigned flags, char *out) {
  const char *abc = (flags & UTFX_BASE64_URL)
                        ? "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
                        : "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  size_t i, w = 0;
  for (i = 0; i < n; i += 3) {
    unsigned long v = (unsigned long)b[i] << 16;
    size_t k = n - i < 3 ? n - i : 3, j;
    if (k > 1) v |= (unsigned long)b[i + 1] << 8;
    if (k > 2) v |= b[i + 2];
    for (j = 0; j <= k; j++) out[w++] = abc[(v >> (18 - 6 * j)) & 63];
    if (k < 3 && !(flags & UTFX_BASE64_NO_PADDING))
      for (; j < 4; j++) out[w++] = '=';
  }
  return w;
}

/* t[0..k) in lines of L (>= 1, small enough that c0 + k does not wrap) from
 * column c0, LF or (UTFX_BASE64_CRLF) CR LF between; pos[j] = where character j lands. */
static size_t ref_lines(const char *t, size_t k, size_t L, size_t c0, unsigned flags, char *out,
                        size_t *pos) {
  size_t j, w = 0;
  for (j = 0; j < k; j++) {
    if (c0 + j > 0 && (c0 + j) % L == 0) {
      if (flags & UTFX_BASE64_CRLF) out[w++] = '\r';
      out[w++] = '\n';
    }
    pos[j] = w;
    out[w++] = t[j];
  }
  return w;
}

/* The column after out[0..w) written from column c0. */
static size_t ref_column(const char *out, size_t w, size_t c0) {
  size_t j = w;
  while (j > 0 && out[j - 1] != '\n') j--;
  return j == 0 ? c0 + w : w - j;
}

/* The result for cap bytes of room: the groups (4 characters, the last one
 * what is left) whose characters and line feeds fit. */
static utfx_result ref_bounded(size_t n, size_t k, const size_t *pos, size_t cap) {
  utfx_result r = {UTFX_OK, 0, 0, 0};
  size_t g;
  for (g = 0; g * 4 < k; g++) {
    size_t e = (g + 1) * 4 < k ? (g + 1) * 4 : k; /* chars after this group */
    if (pos[e - 1] + 1 > cap) {
      r.status = UTFX_DST_FULL;
      return r;
    }
    r.read = (g + 1) * 3 < n ? (g + 1) * 3 : n;
    r.written = pos[e - 1] + 1;
  }
  return r;
}

static int same(utfx_result a, utfx_result b) {
  return a.status == b.status && a.read == b.read && a.written == b.written && a.replaced == 0;
}

static const unsigned flag_sets[] = {
    0,
    UTFX_BASE64_URL,
    UTFX_BASE64_NO_PADDING,
    UTFX_BASE64_URL | UTFX_BASE64_NO_PADDING,
    UTFX_BASE64_CRLF,
    UTFX_BASE64_CRLF | UTFX_BASE64_URL,
    UTFX_BASE64_CRLF | UTFX_BASE64_NO_PADDING,
    UTFX_BASE64_CRLF | UTFX_BASE64_URL | UTFX_BASE64_NO_PADDING};

static size_t pick_len(unsigned k) {
  switch (k % 4) {
    case 0: return (size_t)rng_below(&rng, 40);
    case 1: return 40 + (size_t)rng_below(&rng, 600);
    case 2: return (size_t)rng_below(&rng, MAX_BIN + 1);
    default: return 48 * (size_t)rng_below(&rng, 40) + (size_t)rng_below(&rng, 8);
  }
}

static size_t pick_line(unsigned k) {
  static const size_t around[] = {1, 2, 3, 4, 5, 15, 16, 17, 31, 32, 33, 63, 64, 65, 75, 76, 77,
                                  127, 128, 129, 1000};
  if (k % 2) return around[rng_below(&rng, sizeof around / sizeof around[0])];
  return 1 + (size_t)rng_below(&rng, 200);
}

/* One full encode from column c0, against the reference and the scalar
 * kernel; also the length function. */
static void check_full(const unsigned char *b, size_t n, unsigned flags, size_t L, size_t c0) {
  static char text[MAX_OUT], want[MAX_OUT], got[MAX_OUT + 64];
  static size_t pos[MAX_OUT];
  size_t k = ref_text(b, n, flags, text), len = ref_lines(text, k, L, c0, flags, want, pos);
  size_t col = c0;
  size_t scol = c0;
  utfx_result r, e = {UTFX_OK, n, len, 0};
  memset(got, CANARY, len + 64);
  r = utfx_base64_encode_lines(b, n, got, len, flags, L, &col);
  CHECK(same(r, e) && memcmp(got, want, len) == 0 && (unsigned char)got[len] == CANARY,
        "full n %zu L %zu c0 %zu flags %#x: %d/%zu/%zu", n, L, c0, flags, r.status, r.read,
        r.written);
  CHECK(col == (n ? ref_column(want, len, c0) : c0), "column n %zu L %zu c0 %zu: %zu", n, L, c0,
        col);
  CHECK(utfx_base64_length_from_binary_lines(n, flags, L, c0) == len, "length n %zu L %zu c0 %zu",
        n, L, c0);
  if (n) {
    r = utfxi_base64_encode_lines_scalar(b, n, got, len, flags, L, &scol);
    CHECK(same(r, e) && memcmp(got, want, len) == 0 && scol == col, "scalar n %zu L %zu", n, L);
  }
}

static void test_random(void) {
  static unsigned char b[MAX_BIN];
  unsigned k;
  size_t i;
  rng_seed(&rng, 0x11E5);
  for (k = 0; k < 4000 / test_share(8); k++) {
    size_t n = pick_len(k), L = pick_line(k / 4), c0 = (size_t)rng_below(&rng, L + 1);
    for (i = 0; i < n; i++) b[i] = (unsigned char)rng_next(&rng);
    check_full(b, n, flag_sets[k % 8], L, c0);
  }
  tap_group("base64 lines: random lengths, line lengths and columns, against the reference");
}

/* Every capacity, canaries after written; then the rest resumed from where
 * it stopped gives the one-call text. */
static void test_caps(void) {
  static unsigned char b[MAX_BIN];
  static char text[MAX_OUT], want[MAX_OUT], got[MAX_OUT + 64];
  static size_t pos[MAX_OUT];
  unsigned k;
  rng_seed(&rng, 0xCA9);
  for (k = 0; k < 120 / test_share(6); k++) {
    size_t n = k % 3 ? (size_t)rng_below(&rng, 60) : 60 + (size_t)rng_below(&rng, 300), i, cap;
    size_t L = pick_line(k), c0 = (size_t)rng_below(&rng, L + 1), kk, len;
    unsigned flags = flag_sets[k % 8];
    for (i = 0; i < n; i++) b[i] = (unsigned char)rng_next(&rng);
    kk = ref_text(b, n, flags, text);
    len = ref_lines(text, kk, L, c0, flags, want, pos);
    for (cap = 0; cap <= len + 2; cap++) {
      utfx_result e = n ? ref_bounded(n, kk, pos, cap) : (utfx_result){UTFX_OK, 0, 0, 0}, r;
      size_t col = c0, col2, at;
      memset(got, CANARY, cap + 64);
      r = utfx_base64_encode_lines(b, n, got, cap, flags, L, &col);
      CHECK(same(r, e), "cap n %zu L %zu c0 %zu cap %zu: %d/%zu/%zu want %d/%zu/%zu", n, L, c0,
            cap, r.status, r.read, r.written, e.status, e.read, e.written);
      CHECK(memcmp(got, want, r.written) == 0, "cap text n %zu cap %zu", n, cap);
      for (at = r.written; at < cap + 64; at++)
        if ((unsigned char)got[at] != CANARY) break;
      CHECK(at == cap + 64, "cap n %zu cap %zu: wrote after written", n, cap);
      CHECK(col == ref_column(want, r.written, c0), "cap column n %zu cap %zu", n, cap);
      /* resume with the rest */
      col2 = col;
      r = utfx_base64_encode_lines(b + r.read, n - r.read, got + r.written, MAX_OUT - r.written,
                                   flags, L, &col2);
      CHECK(r.status == UTFX_OK && memcmp(got, want, len) == 0, "resume n %zu cap %zu", n, cap);
    }
  }
  tap_group("base64 lines: every capacity, canaries after written, resumed after DST_FULL");
}

/* Lines of 76 from a line start (c0 0, or 76: the line full, its break
 * due), the shape the avx512 tier writes four lines at a time: every length
 * up to 1300 bytes (0-5 blocks of four lines and every remainder), every
 * flag set; and every capacity of a few lengths around one block. */
static void test_lines76(void) {
  static unsigned char b[1300];
  static char text[MAX_OUT], want[MAX_OUT], got[MAX_OUT + 64];
  static size_t pos[MAX_OUT];
  static const size_t some[] = {244, 245, 246, 456, 473, 474, 700};
  size_t n, i, s, c0;
  rng_seed(&rng, 0x76);
  for (i = 0; i < sizeof b; i++) b[i] = (unsigned char)rng_next(&rng);
  for (c0 = 0; c0 <= 76; c0 += 76)
    for (n = 0; n <= sizeof b; n++) check_full(b, n, flag_sets[n % 8], 76, c0);
  for (s = 0; s < sizeof some / sizeof some[0]; s++)
    for (i = 0; i < 16; i++) {
      size_t kk, len, cap;
      unsigned flags = flag_sets[i % 8];
      n = some[s];
      c0 = i < 8 ? 0 : 76;
      kk = ref_text(b, n, flags, text);
      len = ref_lines(text, kk, 76, c0, flags, want, pos);
      for (cap = 0; cap <= len + 2; cap++) {
        utfx_result e = ref_bounded(n, kk, pos, cap), r;
        size_t col = c0, at;
        memset(got, CANARY, cap + 64);
        r = utfx_base64_encode_lines(b, n, got, cap, flags, 76, &col);
        CHECK(same(r, e) && memcmp(got, want, r.written) == 0,
              "76 cap n %zu c0 %zu cap %zu flags %#x: %d/%zu/%zu", n, c0, cap, flags, r.status,
              r.read, r.written);
        for (at = r.written; at < cap + 64; at++)
          if ((unsigned char)got[at] != CANARY) break;
        CHECK(at == cap + 64, "76 cap n %zu cap %zu: wrote after written", n, cap);
        CHECK(col == ref_column(want, r.written, c0), "76 cap column n %zu cap %zu", n, cap);
      }
    }
  /* source and destination ending at a guard page */
  for (n = 200; n <= 1300; n++) {
    unsigned flags = flag_sets[n % 8];
    unsigned char *end = guard_alloc(n);
    size_t len, col;
    char *dst;
    utfx_result r;
    c0 = n % 2 ? 0 : 76;
    memcpy(end, b, n);
    len = utfx_base64_length_from_binary_lines(n, flags, 76, c0);
    dst = guard_alloc(len);
    col = c0;
    r = utfx_base64_encode_lines(end, n, dst, len, flags, 76, &col);
    CHECK(r.status == UTFX_OK && r.written == len, "76 guard n %zu", n);
    guard_free(dst, len);
    guard_free(end, n);
  }
  tap_group("base64 lines: lines of 76 from a line start, every length to 1300, capacities");
}

/* Pieces of whole groups, the column carried: the one-call text. */
static void test_pieces(void) {
  static unsigned char b[MAX_BIN];
  static char text[MAX_OUT], want[MAX_OUT], got[MAX_OUT];
  static size_t pos[MAX_OUT];
  unsigned k;
  rng_seed(&rng, 0x91EC);
  for (k = 0; k < 300 / test_share(6); k++) {
    size_t n = pick_len(k), L = pick_line(k), col = 0, i = 0, w = 0, len;
    unsigned flags = flag_sets[k % 8];
    for (i = 0; i < n; i++) b[i] = (unsigned char)rng_next(&rng);
    len = ref_lines(text, ref_text(b, n, flags, text), L, 0, flags, want, pos);
    for (i = 0; i < n;) {
      size_t part = 3 * (size_t)rng_below(&rng, 400);
      utfx_result r;
      if (part > n - i || rng_below(&rng, 4) == 0) part = n - i;
      r = utfx_base64_encode_lines(b + i, part, got + w, MAX_OUT - w, flags, L, &col);
      CHECK(r.status == UTFX_OK && r.read == part, "piece n %zu at %zu", n, i);
      i += part;
      w += r.written;
    }
    CHECK(w == len && memcmp(got, want, len) == 0, "pieces n %zu L %zu", n, L);
  }
  tap_group("base64 lines: pieces of whole groups with the column carried = one call");
}

static void test_guard(void) {
  unsigned k;
  rng_seed(&rng, 0x6A4E);
  for (k = 0; k < 200 / test_share(4); k++) {
    size_t n = k % 2 ? (size_t)rng_below(&rng, 100) : (size_t)rng_below(&rng, 3000), i;
    size_t L = pick_line(k), c0 = (size_t)rng_below(&rng, L + 1), len, col;
    unsigned flags = flag_sets[k % 8];
    unsigned char *front = guard_alloc_front(n), *end = guard_alloc(n);
    char *dst;
    utfx_result r;
    len = utfx_base64_length_from_binary_lines(n, flags, L, c0);
    dst = guard_alloc(len);
    for (i = 0; i < n; i++) front[i] = end[i] = (unsigned char)rng_next(&rng);
    col = c0;
    r = utfx_base64_encode_lines(front, n, dst, len, flags, L, &col);
    CHECK(r.status == UTFX_OK && r.written == len, "guard front n %zu L %zu", n, L);
    col = c0;
    r = utfx_base64_encode_lines(end, n, dst, len, flags, L, &col);
    CHECK(r.status == UTFX_OK && r.written == len, "guard end n %zu L %zu", n, L);
    check_full(end, n, flags, L, c0);
    guard_free(dst, len);
    guard_free(end, n);
    guard_free_front(front, n);
  }
  tap_group("base64 lines: sources and destinations against guard pages");
}

/* Line length 0, a column past the line, and lines no output reaches the
 * end of (the room left on the current line still counts). */
static void test_edges(void) {
  static unsigned char b[600];
  static char got[1000], plain[1000];
  size_t i, col, k;
  utfx_result r, p;
  for (i = 0; i < sizeof b; i++) b[i] = (unsigned char)(i * 7 + 3);
  p = utfx_base64_encode(b, sizeof b, plain, sizeof plain, 0);
  col = 5;
  r = utfx_base64_encode_lines(b, sizeof b, got, sizeof got, 0, 0, &col);
  CHECK(same(r, p) && memcmp(got, plain, p.written) == 0 && col == 5 + p.written, "line length 0");
  CHECK(utfx_base64_length_from_binary_lines(sizeof b, 0, 0, 9) == p.written, "length, line 0");
  r = utfx_base64_encode_lines(b, sizeof b, got, sizeof got, 0, 76, NULL);
  CHECK(r.status == UTFX_OK && r.written == p.written + (p.written - 1) / 76, "column NULL");
  col = 100; /* past a line of 76: full, its line feed due */
  r = utfx_base64_encode_lines(b, 3, got, sizeof got, 0, 76, &col);
  CHECK(r.written == 5 && got[0] == '\n' && col == 4, "column past the line");
  r = utfx_base64_encode_lines(b, 0, NULL, 0, 0, 76, &col);
  CHECK(r.status == UTFX_OK && r.written == 0 && col == 4, "empty input keeps the column");
  {
    const size_t huge[] = {SIZE_MAX, SIZE_MAX - 1, SIZE_MAX / 2 + 1, SIZE_MAX / 4 + 3};
    for (k = 0; k < 4; k++) {
      size_t room = 10 + k, L = huge[k];
      col = L - room;
      r = utfx_base64_encode_lines(b, sizeof b, got, sizeof got, 0, L, &col);
      CHECK(r.status == UTFX_OK && r.written == p.written + 1 && got[room] == '\n' &&
                memcmp(got, plain, room) == 0 &&
                memcmp(got + room + 1, plain + room, p.written - room) == 0 &&
                col == p.written - room,
            "line length %zu: one line feed after %zu (col %zu)", L, room, col);
      CHECK(utfx_base64_length_from_binary_lines(sizeof b, 0, L, L - room) == p.written + 1,
            "length, line length %zu", L);
      col = L - room;
      r = utfx_base64_encode_lines(b, sizeof b, got, sizeof got, UTFX_BASE64_CRLF, L, &col);
      CHECK(r.status == UTFX_OK && r.written == p.written + 2 && got[room] == '\r' &&
                got[room + 1] == '\n' && memcmp(got, plain, room) == 0 &&
                memcmp(got + room + 2, plain + room, p.written - room) == 0 &&
                col == p.written - room,
            "line length %zu, CR LF: one break after %zu (col %zu)", L, room, col);
      CHECK(utfx_base64_length_from_binary_lines(sizeof b, UTFX_BASE64_CRLF, L, L - room) ==
                p.written + 2,
            "length, line length %zu, CR LF", L);
      col = 3;
      r = utfx_base64_encode_lines(b, sizeof b, got, sizeof got, 0, L, &col);
      CHECK(r.written == p.written && memcmp(got, plain, p.written) == 0 && col == 3 + p.written,
            "line length %zu from column 3", L);
    }
  }
  CHECK(utfx_base64_length_from_binary_lines(SIZE_MAX, 0, 76, 0) == SIZE_MAX, "saturates");
  CHECK(utfx_base64_length_from_binary_lines(SIZE_MAX / 4 * 3, UTFX_BASE64_CRLF, 76, 0) ==
            SIZE_MAX,
        "saturates, CR LF");
  tap_group("base64 lines: line length 0, columns past the line, huge line lengths");
}

/* ------------------------------------------------------------ oracles */

#define N_ORACLE 24
static const size_t oracle_widths[] = {1, 2, 3, 4, 5, 16, 31, 32, 33, 63, 64, 65, 76, 77, 100, 129, 1000};
#define N_WIDTHS (sizeof oracle_widths / sizeof oracle_widths[0])
static unsigned char *oracle_bin[N_ORACLE];
static size_t oracle_len[N_ORACLE];
static char *coreutils_out[N_ORACLE][N_WIDTHS], *node_out[N_ORACLE][N_WIDTHS];
static char *crlf_out[N_ORACLE][N_WIDTHS];
static size_t coreutils_len[N_ORACLE][N_WIDTHS], node_len[N_ORACLE][N_WIDTHS];
static size_t crlf_len[N_ORACLE][N_WIDTHS];
static int have_coreutils, have_node;


static int run(char *const argv[]) {
  pid_t pid;
  int status = 1;
  fflush(stdout);
  if (posix_spawnp(&pid, argv[0], NULL, NULL, argv, environ) != 0) return 0;
  while (waitpid(pid, &status, 0) < 0)
    if (errno != EINTR) return 0;
  return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

static void ask_oracles(void) {
  char dir[] = "/tmp/utfx_b64_linesXXXXXX", path[512], script[4096], cmd[1024];
  char *argv[N_WIDTHS + 4], widths[N_WIDTHS][16];
  const char *node = getenv("NODE");
  size_t k, w, i;
  if (!mkdtemp(dir)) return;
  rng_seed(&rng, 0x0C0E);
  for (k = 0; k < N_ORACLE; k++) {
    size_t n = k < 6 ? k : (size_t)rng_below(&rng, k % 2 ? 200 : 3000);
    FILE *f;
    oracle_bin[k] = malloc(n + 1);
    oracle_len[k] = n;
    for (i = 0; i < n; i++) oracle_bin[k][i] = (unsigned char)rng_next(&rng);
    snprintf(path, sizeof path, "%s/%zu.bin", dir, k);
    f = fopen(path, "wb");
    if (!f) return;
    fwrite(oracle_bin[k], 1, n, f);
    fclose(f);
  }
  /* coreutils: one shell for every file and width */
  snprintf(cmd, sizeof cmd,
           "for f in %s/*.bin; do for w in 1 2 3 4 5 16 31 32 33 63 64 65 76 77 100 129 1000; "
           "do base64 -w $w < $f > ${f%%.bin}.$w.cu || exit 1; done; done",
           dir);
  argv[0] = "sh";
  argv[1] = "-c";
  argv[2] = cmd;
  argv[3] = NULL;
  have_coreutils = run(argv);
  snprintf(script, sizeof script, "%s/tests/oracle/base64_lines_oracle.js", UTFX_SOURCE_DIR);
  argv[0] = (char *)(uintptr_t)(node ? node : "node");
  argv[1] = script;
  argv[2] = dir;
  for (w = 0; w < N_WIDTHS; w++) {
    snprintf(widths[w], sizeof widths[w], "%zu", oracle_widths[w]);
    argv[3 + w] = widths[w];
  }
  argv[3 + N_WIDTHS] = NULL;
  have_node = run(argv);
  for (k = 0; k < N_ORACLE; k++)
    for (w = 0; w < N_WIDTHS; w++) {
      snprintf(path, sizeof path, "%s/%zu.%zu.cu", dir, k, oracle_widths[w]);
      coreutils_out[k][w] = test_slurp(path, &coreutils_len[k][w]);
      if (!coreutils_out[k][w]) have_coreutils = 0;
      unlink(path);
      snprintf(path, sizeof path, "%s/%zu.%zu.node", dir, k, oracle_widths[w]);
      node_out[k][w] = test_slurp(path, &node_len[k][w]);
      if (!node_out[k][w]) have_node = 0;
      unlink(path);
      snprintf(path, sizeof path, "%s/%zu.%zu.crlf", dir, k, oracle_widths[w]);
      crlf_out[k][w] = test_slurp(path, &crlf_len[k][w]);
      if (!crlf_out[k][w]) have_node = 0;
      unlink(path);
    }
  for (k = 0; k < N_ORACLE; k++) {
    snprintf(path, sizeof path, "%s/%zu.bin", dir, k);
    unlink(path);
  }
  rmdir(dir);
}

/* Ours with coreutils' final line feed (CR LF with UTFX_BASE64_CRLF; none
 * for empty output). */
static size_t ours(size_t k, size_t width, unsigned flags, char *out, size_t cap) {
  size_t col = 0;
  utfx_result r =
      utfx_base64_encode_lines(oracle_bin[k], oracle_len[k], out, cap, flags, width, &col);
  if (r.status != UTFX_OK) return SIZE_MAX;
  if (r.written && (flags & UTFX_BASE64_CRLF)) out[r.written++] = '\r';
  if (r.written) out[r.written++] = '\n';
  return r.written;
}

static void test_oracles(void) {
  static char got[2 * MAX_OUT], both[2 * MAX_OUT];
  size_t k, w;
  if (!have_coreutils) {
    tap_fail("base64 lines: coreutils base64 -w", "coreutils base64 is required");
  } else {
    for (k = 0; k < N_ORACLE; k++)
      for (w = 0; w < N_WIDTHS; w++) {
        size_t len = ours(k, oracle_widths[w], 0, got, sizeof got);
        CHECK(len == coreutils_len[k][w] && memcmp(got, coreutils_out[k][w], len) == 0,
              "coreutils n %zu -w %zu", oracle_len[k], oracle_widths[w]);
      }
    tap_group("base64 lines: = coreutils base64 -w W (1..1000)");
  }
  if (!have_node) {
    tap_fail("base64 lines: node", "node (Node.js) and tests/oracle/base64_lines_oracle.js are required");
    return;
  }
  for (k = 0; k < N_ORACLE; k++)
    for (w = 0; w < N_WIDTHS; w++) {
      size_t a = ours(k, oracle_widths[w], 0, both, sizeof both), b;
      memcpy(both + a, "--\n", 3);
      b = ours(k, oracle_widths[w], UTFX_BASE64_URL | UTFX_BASE64_NO_PADDING, both + a + 3,
               sizeof both - a - 3);
      CHECK(a + 3 + b == node_len[k][w] && memcmp(both, node_out[k][w], a + 3 + b) == 0,
            "node n %zu width %zu", oracle_len[k], oracle_widths[w]);
      a = ours(k, oracle_widths[w], UTFX_BASE64_CRLF, both, sizeof both);
      memcpy(both + a, "--\r\n", 4);
      b = ours(k, oracle_widths[w], UTFX_BASE64_CRLF | UTFX_BASE64_URL | UTFX_BASE64_NO_PADDING,
               both + a + 4, sizeof both - a - 4);
      CHECK(a + 4 + b == crlf_len[k][w] && memcmp(both, crlf_out[k][w], a + 4 + b) == 0,
            "node CR LF n %zu width %zu", oracle_len[k], oracle_widths[w]);
    }
  tap_group("base64 lines: = Node Buffer base64 / base64url cut into LF and CR LF lines");
}

static void suite(void) {
  test_random();
  test_caps();
  test_lines76();
  test_pieces();
  test_guard();
  test_edges();
  test_oracles();
}

int main(void) {
  ask_oracles();
  tap_for_each_impl(suite);
  return tap_done();
}
