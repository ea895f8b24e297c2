/* --processes N: every benchmark timed in N fresh processes of this harness,
 * one after the other, and the batches of all of them pooled, so that a
 * figure does not depend on one process's addresses (buffer alignment,
 * aliasing between source and destination, where a page boundary falls:
 * ASLR moves them from run to run, and issue 34 saw a kernel whose speed
 * changed with them). Each child writes its batches with --raw; the parent
 * reads them back into the results it registered. */
#define _POSIX_C_SOURCE 200809L

#include "engine_internal.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define CHILD_ENV "UTFX_BENCH_CHILD"

void bench_set_place(int index) {
  char v[16];
  snprintf(v, sizeof v, "%d", index);
  setenv(BENCH_PLACE_ENV, v, 1);
}

int bench_is_child(void) {
  const char *v = getenv(CHILD_ENV);
  return v && *v == '1';
}

static bench_result *find(bench_registry *reg, const char *suite, const char *name,
                          const char *impl) {
  size_t i;
  for (i = 0; i < reg->count; i++) {
    bench_result *r = &reg->res[i];
    if (!strcmp(r->e.suite, suite) && !strcmp(r->e.name, name) && !strcmp(r->e.impl, impl))
      return r;
  }
  return NULL;
}

/* Adds the batches of a --raw file (suite,name,impl,sample,iters,ns). */
static int pool_raw(bench_registry *reg, const char *path) {
  FILE *f = fopen(path, "r");
  char line[512];
  if (!f) return -1;
  if (!fgets(line, sizeof line, f)) { /* the header */
    fclose(f);
    return -1;
  }
  while (fgets(line, sizeof line, f)) {
    char *field[6], *p = line;
    int k;
    bench_result *r;
    for (k = 0; k < 6; k++) {
      field[k] = p;
      p += strcspn(p, ",\n");
      if (*p) *p++ = '\0';
    }
    r = find(reg, field[0], field[1], field[2]);
    if (!r) continue; /* not registered here: filtered out */
    r->ns = bench_xrealloc(r->ns, (r->count + 1) * sizeof *r->ns);
    r->ns[r->count++] = atof(field[5]);
    r->iters = (size_t)atof(field[4]);
  }
  fclose(f);
  return 0;
}

int bench_time_in_processes(bench_registry *reg, int n, char **pass, size_t npass) {
  char self[4096], tmp[] = "/tmp/utfx-bench-raw-XXXXXX";
  ssize_t len = readlink("/proc/self/exe", self, sizeof self - 1);
  int fd = mkstemp(tmp), p, rc = 0;
  if (len <= 0 || fd < 0) {
    fprintf(stderr, "utfx-bench: --processes needs /proc/self/exe and a temporary file\n");
    if (fd >= 0) close(fd), unlink(tmp);
    return 2;
  }
  self[len] = '\0';
  close(fd);
  setenv(CHILD_ENV, "1", 1);
  for (p = 0; p < n && rc == 0; p++) {
    fprintf(stderr, "processes: %d/%d\n", p + 1, n);
    bench_set_place(p);
    if (bench_run_child(self, pass, npass, "--raw", tmp) != 0 || pool_raw(reg, tmp) != 0) {
      fprintf(stderr, "utfx-bench: process %d of %d failed\n", p + 1, n);
      rc = 2;
    }
  }
  unsetenv(CHILD_ENV);
  unsetenv(BENCH_PLACE_ENV);
  unlink(tmp);
  return rc;
}
