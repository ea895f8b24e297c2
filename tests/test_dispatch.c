/* Dispatch: the UTFX_IMPL environment variable, utfx_set_implementation while
 * other threads convert, and the first-use race.
 *
 * The environment and first-use tests need a fresh process (the choice is
 * made once per process), so this program re-executes itself
 * (/proc/self/exe) with a mode argument and reads what the child prints. */
#define _DEFAULT_SOURCE
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tap.h"

#define RACE_THREADS 16

/* ------------------------------------------------------------ children */
static pthread_barrier_t barrier;
static const char *race_names[RACE_THREADS];

static void *race_thread(void *arg) {
  size_t i = (size_t)arg;
  char16_t out[8];
  utfx_result r;
  pthread_barrier_wait(&barrier);
  /* Half the threads make the first choice through a conversion, half
   * through utfx_implementation(). */
  if (i % 2) {
    r = utfx_convert_utf8_to_utf16le("\xC3\xA9", 2, out, 8, UTFX_STRICT);
    if (r.status != UTFX_OK || r.written != 1 || out[0] != 0xE9) race_names[i] = "BROKEN";
  }
  if (!race_names[i]) race_names[i] = utfx_implementation();
  return NULL;
}

/* Child modes: "impl" prints the active implementation; "late" also sets
 * UTFX_IMPL after the first use (which must not change anything); "race"
 * makes the first choice from many threads at once and prints the name if
 * they all agree. */
static int child(const char *mode) {
  if (strcmp(mode, "impl") == 0) {
    printf("%s\n", utfx_implementation());
    return 0;
  }
  if (strcmp(mode, "late") == 0) {
    const char *first = utfx_implementation();
    setenv("UTFX_IMPL", "scalar", 1);
    printf("%s\n", strcmp(first, utfx_implementation()) == 0 ? first : "CHANGED");
    return 0;
  }
  if (strcmp(mode, "race") == 0) {
    pthread_t t[RACE_THREADS];
    size_t i;
    pthread_barrier_init(&barrier, NULL, RACE_THREADS);
    for (i = 0; i < RACE_THREADS; i++) pthread_create(&t[i], NULL, race_thread, (void *)i);
    for (i = 0; i < RACE_THREADS; i++) pthread_join(t[i], NULL);
    for (i = 1; i < RACE_THREADS; i++)
      if (race_names[i] != race_names[0] && strcmp(race_names[i], race_names[0]) != 0) {
        printf("DISAGREE %s %s\n", race_names[0], race_names[i]);
        return 0;
      }
    printf("%s\n", race_names[0]);
    return 0;
  }
  return 2;
}

/* Runs this program with `mode` and UTFX_IMPL = impl (unset when NULL);
 * returns the child's first output line in out. */
static int run_child(const char *mode, const char *impl, char *out, size_t cap) {
  int fd[2], status;
  pid_t pid;
  ssize_t got;
  size_t len = 0;
  if (pipe(fd) != 0) return -1;
  pid = fork();
  if (pid < 0) return -1;
  if (pid == 0) {
    char *argv[3];
    argv[0] = (char *)"test_dispatch";
    argv[1] = (char *)mode;
    argv[2] = NULL;
    dup2(fd[1], 1);
    close(fd[0]);
    close(fd[1]);
    if (impl)
      setenv("UTFX_IMPL", impl, 1);
    else
      unsetenv("UTFX_IMPL");
    execv("/proc/self/exe", argv);
    _exit(127);
  }
  close(fd[1]);
  while (len + 1 < cap && (got = read(fd[0], out + len, cap - 1 - len)) != 0) {
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) break;
    len += (size_t)got;
  }
  out[len] = '\0';
  if (len && out[len - 1] == '\n') out[len - 1] = '\0';
  close(fd[0]);
  if (waitpid(pid, &status, 0) != pid) return -1;
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

static const char *best_supported(void) {
  size_t i;
  for (i = 0; i < utfx_implementation_count(); i++)
    if (utfx_implementation_supported(utfx_implementation_name(i)))
      return utfx_implementation_name(i);
  return "none";
}

/* ------------------------------------------------------------ env tests */
static void test_env(void) {
  static const char *const unusable[] = {"", "no-such-impl", "SCALAR", "avx2 ", "neon2"};
  char out[256];
  size_t i;
  const char *best = best_supported();
  CHECK(run_child("impl", NULL, out, sizeof out) == 0 && strcmp(out, best) == 0,
        "no UTFX_IMPL: got '%s', want best '%s'", out, best);
  for (i = 0; i < utfx_implementation_count(); i++) {
    const char *name = utfx_implementation_name(i);
    const char *want = utfx_implementation_supported(name) ? name : best;
    CHECK(run_child("impl", name, out, sizeof out) == 0 && strcmp(out, want) == 0,
          "UTFX_IMPL=%s: got '%s', want '%s'", name, out, want);
  }
  /* Names of tiers this build may not contain are ignored the same way. */
  for (i = 0; i < sizeof unusable / sizeof unusable[0]; i++) {
    int known = utfx_implementation_supported(unusable[i]);
    const char *want = known ? unusable[i] : best;
    CHECK(run_child("impl", unusable[i], out, sizeof out) == 0 && strcmp(out, want) == 0,
          "UTFX_IMPL='%s': got '%s', want '%s'", unusable[i], out, want);
  }
  {
    static const char *const maybe[] = {"avx512", "avx2", "neon"};
    for (i = 0; i < 3; i++) {
      const char *want = utfx_implementation_supported(maybe[i]) ? maybe[i] : best;
      CHECK(run_child("impl", maybe[i], out, sizeof out) == 0 && strcmp(out, want) == 0,
            "UTFX_IMPL=%s: got '%s', want '%s'", maybe[i], out, want);
    }
  }
  CHECK(run_child("late", NULL, out, sizeof out) == 0 && strcmp(out, best) == 0,
        "UTFX_IMPL set after first use changed the choice: '%s'", out);
  CHECK(run_child("late", "scalar", out, sizeof out) == 0 && strcmp(out, "scalar") == 0,
        "UTFX_IMPL=scalar then late: '%s'", out);
  tap_group("UTFX_IMPL selects at first use; unusable values fall back to the best tier");
}

static void test_first_use_race(void) {
  char out[256];
  int i;
  const char *best = best_supported();
  for (i = 0; i < 12; i++) {
    const char *impl = i % 3 == 2 ? "scalar" : NULL;
    const char *want = impl ? impl : best;
    CHECK(run_child("race", impl, out, sizeof out) == 0 && strcmp(out, want) == 0,
          "race #%d (UTFX_IMPL=%s): '%s', want '%s'", i, impl ? impl : "(unset)", out, want);
  }
  tap_group("first use from 16 threads at once in a fresh process agrees");
}

/* ------------------------------------------------------------ flipping */
#define WORKERS 3
static atomic_int stop_flag;
static atomic_ulong worker_errors[WORKERS], worker_rounds[WORKERS];

/* Mixed text with an error in it: every tier must give the same answers. */
static const char sample_text[] =
    "ASCII run long enough for any vector width......................"
    "caf\xC3\xA9 \xE2\x82\xAC \xF0\x9F\x98\x80 \xD0\x9F\xD1\x80\xD0\xB8 \xE6\x97\xA5\xE6\x9C\xAC"
    "more ascii to cross a 64-byte block boundary ........................"
    "\xED\xA0\x80 bad \xF0\x9F\x98 end";

static char16_t want16[sizeof sample_text];
static utfx_result want_r, want_strict;
static size_t want_len;

static void *worker(void *arg) {
  size_t id = (size_t)arg;
  char16_t out[sizeof sample_text];
  while (!atomic_load(&stop_flag)) {
    utfx_result r = utfx_convert_utf8_to_utf16le(sample_text, sizeof sample_text - 1, out,
                                                 sizeof sample_text, UTFX_REPLACE);
    utfx_result s = utfx_validate_utf8(sample_text, sizeof sample_text - 1);
    size_t len = utfx_utf16_length_from_utf8(sample_text, sizeof sample_text - 1);
    if (r.status != want_r.status || r.written != want_r.written ||
        r.replaced != want_r.replaced || memcmp(out, want16, r.written * 2) != 0 ||
        s.read != want_strict.read || len != want_len)
      worker_errors[id]++;
    worker_rounds[id]++;
  }
  return NULL;
}

static void test_flipping(void) {
  pthread_t t[WORKERS];
  size_t i, names = utfx_implementation_count(), flips = 0;
  unsigned long rounds = 0, errors = 0;
  utfx_set_implementation("scalar");
  want_r = utfx_convert_utf8_to_utf16le(sample_text, sizeof sample_text - 1, want16,
                                        sizeof sample_text, UTFX_REPLACE);
  want_strict = utfx_validate_utf8(sample_text, sizeof sample_text - 1);
  want_len = utfx_utf16_length_from_utf8(sample_text, sizeof sample_text - 1);
  CHECK(want_r.replaced == 4 && want_strict.status == UTFX_INVALID, "sample has errors");
  atomic_store(&stop_flag, 0);
  for (i = 0; i < WORKERS; i++) pthread_create(&t[i], NULL, worker, (void *)i);
  /* Flip at least 2000 times and until the workers did 20000 rounds (each flip
   * runs CPUID, which is slow under a hypervisor). */
  for (flips = 0; flips < 2000 || rounds < 20000; flips++) {
    const char *name = utfx_implementation_name(flips % names);
    int rc = utfx_set_implementation(name);
    CHECK((rc == 0) == (utfx_implementation_supported(name) == 1), "set %s", name);
    if (flips % 64 == 0) {
      for (rounds = 0, i = 0; i < WORKERS; i++) rounds += atomic_load(&worker_rounds[i]);
    }
  }
  atomic_store(&stop_flag, 1);
  for (rounds = 0, i = 0; i < WORKERS; i++) {
    pthread_join(t[i], NULL);
    rounds += atomic_load(&worker_rounds[i]);
    errors += atomic_load(&worker_errors[i]);
  }
  CHECK(errors == 0, "%lu wrong results in %lu rounds", errors, rounds);
  printf("# %lu conversions while the implementation flipped %zu times\n", rounds, flips);
  utfx_set_implementation("scalar");
  tap_group("utfx_set_implementation while other threads convert");
}

int main(int argc, char **argv) {
  if (argc > 1) return child(argv[1]);
  test_env();
  test_first_use_race();
  test_flipping();
  return tap_done();
}
