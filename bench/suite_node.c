/* The node suite: runs bench/node_bench.js, which times Node's own
 * StringDecoder and Buffer.write / TextEncoder.encodeInto on the decode and
 * encode grids (same row names, same inputs), and adds its per-batch times
 * to the decode and encode tables, so utfx sits next to the runtime whose
 * semantics it copies. Node prints one line per benchmark:
 *   suite,name,impl,bytes,chars,ns;ns;ns...
 * and everything else on stderr. */
#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "suites.h"

/* Appends ' quoted ' s to cmd (for sh -c). */
static void append_quoted(char *cmd, size_t cap, const char *s) {
  size_t len = strlen(cmd);
  if (len + 3 >= cap) return;
  cmd[len++] = ' ';
  cmd[len++] = '\'';
  for (; *s && len + 6 < cap; s++) {
    if (*s == '\'') {
      memcpy(cmd + len, "'\\''", 4);
      len += 4;
    } else {
      cmd[len++] = *s;
    }
  }
  cmd[len++] = '\'';
  cmd[len] = '\0';
}

static void parse_line(bench_registry *reg, char *line) {
  char *field[6], *p = line;
  size_t nf = 0, count = 0, cap = 64;
  double *ns;
  bench_entry e;
  line[strcspn(line, "\r\n")] = '\0';
  while (nf < 6) {
    field[nf++] = p;
    if (nf == 6) break;
    p = strchr(p, ',');
    if (!p) return;
    *p++ = '\0';
  }
  memset(&e, 0, sizeof e);
  snprintf(e.suite, sizeof e.suite, "%.15s", field[0]);
  snprintf(e.name, sizeof e.name, "%s", field[1]);
  snprintf(e.impl, sizeof e.impl, "%s", field[2]);
  e.bytes = strtod(field[3], NULL);
  e.chars = strtod(field[4], NULL);
  ns = malloc(cap * sizeof *ns);
  if (!ns) return;
  for (p = field[5]; *p;) {
    char *end;
    double v = strtod(p, &end);
    if (end == p) break;
    if (count == cap) {
      double *grown = realloc(ns, 2 * cap * sizeof *ns);
      if (!grown) break;
      ns = grown;
      cap *= 2;
    }
    ns[count++] = v;
    p = *end == ';' ? end + 1 : end;
  }
  bench_add_external(reg, &e, ns, count);
  free(ns);
}

void bench_suite_node(bench_registry *reg) {
  const bench_options *opt = bench_opts(reg);
  char cmd[8192], num[160], line[4096];
  const char *filter;
  FILE *p;
  int status;
  if (!bench_wanted(reg, "node", NULL, NULL, NULL)) return;
  cmd[0] = '\0';
  snprintf(cmd, sizeof cmd, "command -v");
  append_quoted(cmd, sizeof cmd, opt->node);
  strcat(cmd, " >/dev/null 2>&1");
  if (system(cmd) != 0) {
    fprintf(stderr, "node suite: %s not found; skipped (--node PATH)\n", opt->node);
    return;
  }
  cmd[0] = '\0';
  append_quoted(cmd, sizeof cmd, opt->node);
  append_quoted(cmd, sizeof cmd, opt->node_script);
  snprintf(num, sizeof num, " --samples %g --batch-ms %g --warmup-ms %g", opt->samples,
           opt->batch_ms, opt->warmup_ms);
  strcat(cmd, num);
  if (opt->tiny) strcat(cmd, " --tiny");
  if (opt->wall_clock) strcat(cmd, " --clock wall");
  if ((filter = bench_filter(reg, 'f')) != NULL) {
    strcat(cmd, " --func");
    append_quoted(cmd, sizeof cmd, filter);
  }
  if ((filter = bench_filter(reg, 'i')) != NULL) {
    strcat(cmd, " --input");
    append_quoted(cmd, sizeof cmd, filter);
  }
  fprintf(stderr, "node suite: running %s\n", cmd);
  fflush(NULL);
  p = popen(cmd, "r");
  if (!p) {
    perror("node suite: popen");
    return;
  }
  while (fgets(line, sizeof line, p))
    if (strncmp(line, "decode,", 7) == 0 || strncmp(line, "encode,", 7) == 0)
      parse_line(reg, line);
  status = pclose(p);
  if (status != 0) fprintf(stderr, "node suite: %s exited with status %d\n", opt->node, status);
}
