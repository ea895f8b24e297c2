/* Issue 35's functions against Node.js (tests/oracle/parity_oracle.js), on
 * every kernel tier, for bytes that are ASCII, UTF-8 text, UTF-8 with a
 * stray byte, UTF-16LE text with lone surrogates, or random:
 *   utfx_validate_ascii            buffer.isAscii
 *   utfx_detect_encodings (UTF-8)  buffer.isUtf8 (and utfx_validate_utf8)
 *   utfx_swap_bytes_utf16          Buffer.prototype.swap16
 *   utfx_validate_ascii_utf16le    the first unit above U+007F of the string
 *   utfx_utf8_length_from_utf16le_with_surrogates
 *                                  Buffer.byteLength(string, 'utf8') and
 *                                  !string.isWellFormed()
 * node (through $NODE, else PATH) is required: without it the test fails. */
#define _DEFAULT_SOURCE
#include <errno.h>
#include <spawn.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "support/emulated.h"
#include "support/guard.h"
#include "tap.h"

extern char **environ;

#ifndef UTFX_SOURCE_DIR
#define UTFX_SOURCE_DIR "."
#endif

#define MAX_INPUTS 1200
#define MAX_BYTES 6000

static unsigned char inputs[MAX_INPUTS][MAX_BYTES];
static size_t lens[MAX_INPUTS], count;
static unsigned char *answers;
static size_t answers_len;

static void make_input(unsigned char *p, size_t n, int kind, test_rng *r) {
  size_t i = 0;
  while (i < n) {
    uint32_t c;
    if (kind == 0) {
      p[i++] = (unsigned char)rng_below(r, 0x80);
    } else if (kind == 1 || kind == 2) { /* UTF-8 text */
      char32_t one;
      char u8[4];
      size_t w;
      uint64_t k = rng_below(r, 10);
      c = k < 5 ? (uint32_t)rng_below(r, 0x80) : k < 7 ? 0xC0 + (uint32_t)rng_below(r, 0x700)
          : k < 9 ? 0x3000 + (uint32_t)rng_below(r, 0x1000) : 0x1F600 + (uint32_t)rng_below(r, 64);
      one = c;
      w = utfx_convert_utf32_to_utf8(&one, 1, u8, 4, UTFX_STRICT).written;
      if (i + w > n) w = n - i; /* a cut character at the very end: not UTF-8 */
      memcpy(p + i, u8, w);
      i += w;
    } else if (kind == 3) { /* UTF-16LE text */
      uint64_t k = rng_below(r, 20);
      c = k < 10 ? (uint32_t)rng_below(r, 0x80) : k < 15 ? (uint32_t)rng_below(r, 0xD800)
          : k < 19 ? (k % 2 ? 0xD83D : 0xDE00) : 0xD800 + (uint32_t)rng_below(r, 0x800);
      p[i++] = (unsigned char)(c & 0xFF);
      if (i < n) p[i++] = (unsigned char)(c >> 8);
    } else {
      p[i++] = (unsigned char)rng_next(r);
    }
  }
  if (kind == 2 && n) p[rng_below(r, n)] = (unsigned char)(0x80 + rng_below(r, 0x80));
}

static void make_inputs(void) {
  test_rng r;
  size_t t;
  rng_seed(&r, 3535);
  for (t = 0; t < MAX_INPUTS; t++) {
    size_t n = t < 1000 ? t % 200 : 200 + rng_below(&r, MAX_BYTES - 200);
    if (!test_keep(t, 8)) continue;
    make_input(inputs[count], n, (int)(t % 5), &r);
    lens[count++] = n;
  }
}

static int write_inputs(const char *path) {
  FILE *f = fopen(path, "wb");
  size_t t;
  if (!f) return 0;
  for (t = 0; t < count; t++) {
    unsigned char len[4] = {(unsigned char)lens[t], (unsigned char)(lens[t] >> 8),
                            (unsigned char)(lens[t] >> 16), (unsigned char)(lens[t] >> 24)};
    fwrite(len, 1, 4, f);
    fwrite(inputs[t], 1, lens[t], f);
  }
  return fclose(f) == 0;
}

static int run_node(const char *in_path, const char *out_path) {
  const char *node = getenv("NODE");
  char script[4096], *argv[5];
  struct stat st;
  pid_t pid;
  int status;
  snprintf(script, sizeof script, "%s/tests/oracle/parity_oracle.js", UTFX_SOURCE_DIR);
  if (!node) node = "node";
  if (stat(script, &st) != 0) return 0;
  argv[0] = (char *)(uintptr_t)node;
  argv[1] = script;
  argv[2] = (char *)(uintptr_t)in_path;
  argv[3] = (char *)(uintptr_t)out_path;
  argv[4] = NULL;
  fflush(stdout);
  if (posix_spawnp(&pid, node, NULL, NULL, argv, environ) != 0) return 0;
  while (waitpid(pid, &status, 0) < 0)
    if (errno != EINTR) return 0;
  return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

static int read_answers(const char *path) {
  FILE *f = fopen(path, "rb");
  long size;
  if (!f) return 0;
  if (fseek(f, 0, SEEK_END) != 0 || (size = ftell(f)) < 0 || fseek(f, 0, SEEK_SET) != 0 ||
      !(answers = malloc((size_t)size + 1)) || fread(answers, 1, (size_t)size, f) != (size_t)size) {
    fclose(f);
    return 0;
  }
  answers_len = (size_t)size;
  fclose(f);
  return 1;
}

static uint32_t next_u32(size_t *pos) {
  const unsigned char *a = answers + *pos;
  if (*pos + 4 > answers_len) return UINT32_MAX;
  *pos += 4;
  return (uint32_t)a[0] | (uint32_t)a[1] << 8 | (uint32_t)a[2] << 16 | (uint32_t)a[3] << 24;
}

static void compare(void) {
  size_t t, pos = 0;
  for (t = 0; t < count && pos <= answers_len; t++) {
    size_t n = lens[t], units = n / 2;
    char *g = guard_alloc(n);
    uint32_t is_ascii = next_u32(&pos), is_utf8 = next_u32(&pos);
    if (n) memcpy(g, inputs[t], n);
    CHECK((utfx_validate_ascii(g, n).status == UTFX_OK) == (is_ascii == 1), "isAscii %zu", t);
    CHECK(!!(utfx_detect_encodings(g, n) & UTFX_DETECT_UTF8) == (is_utf8 == 1) &&
              (utfx_validate_utf8(g, n).status == UTFX_OK) == (is_utf8 == 1),
          "isUtf8 %zu", t);
    guard_free(g, n);
    if (n % 2 == 0) {
      char16_t *u = guard_alloc(n), *d = guard_alloc(n);
      int flag = -1;
      size_t len;
      uint32_t at, byte_length, well_formed;
      if (n) memcpy(u, inputs[t], n);
      utfx_swap_bytes_utf16(u, units, d);
      CHECK(pos + n <= answers_len && (n == 0 || memcmp(d, answers + pos, n) == 0), "swap16 %zu",
            t);
      pos += n;
      at = next_u32(&pos), byte_length = next_u32(&pos), well_formed = next_u32(&pos);
      CHECK(utfx_validate_ascii_utf16le(u, units).read == at, "first non-ASCII unit %zu", t);
      len = utfx_utf8_length_from_utf16le_with_surrogates(u, units, &flag);
      CHECK(len == byte_length && flag == (well_formed == 0), "byteLength / isWellFormed %zu: %zu/%d",
            t, len, flag);
      guard_free(u, n);
      guard_free(d, n);
    }
  }
  CHECK(t == count && pos == answers_len, "answer file: %zu of %zu records, %zu of %zu bytes", t,
        count, pos, answers_len);
  tap_group("issue 35 functions against Node (isAscii, isUtf8, swap16, byteLength, isWellFormed)");
}

int main(void) {
  const char *tmp = getenv("TMPDIR");
  char in_path[512], out_path[512];
  int fd_in, fd_out, ok;
  if (!tmp) tmp = "/tmp";
  snprintf(in_path, sizeof in_path, "%s/utfx-parity-in-XXXXXX", tmp);
  snprintf(out_path, sizeof out_path, "%s/utfx-parity-out-XXXXXX", tmp);
  fd_in = mkstemp(in_path);
  fd_out = mkstemp(out_path);
  if (fd_in < 0 || fd_out < 0) {
    tap_fail("node oracle", "cannot create temporary files");
    return tap_done();
  }
  close(fd_in);
  close(fd_out);
  make_inputs();
  ok = write_inputs(in_path) && run_node(in_path, out_path) && read_answers(out_path);
  unlink(in_path);
  unlink(out_path);
  if (!ok) {
    tap_fail("node oracle", "node (Node.js) and tests/oracle/parity_oracle.js are required");
    return tap_done();
  }
  tap_for_each_impl(compare);
  free(answers);
  return tap_done();
}
