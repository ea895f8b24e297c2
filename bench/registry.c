/* The benchmark registry: entries, filters, memory that lives as long as the
 * run, the utfx tiers, and the suites the front ends register. */
#define _POSIX_C_SOURCE 200809L

#include "engine_internal.h"

#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

#include "utfx.h"

static bench_kernel_probe kernel_probe;

void bench_set_kernel_probe(bench_kernel_probe probe) { kernel_probe = probe; }

void *bench_xrealloc(void *p, size_t size) {
  void *q = realloc(p, size ? size : 1);
  if (!q) {
    fprintf(stderr, "utfx-bench: out of memory\n");
    exit(2);
  }
  return q;
}

void *bench_alloc(bench_registry *reg, size_t size) {
  void *p = bench_xrealloc(NULL, size);
  memset(p, 0, size);
  if (reg->nblocks == reg->blocks_cap) {
    reg->blocks_cap = reg->blocks_cap ? 2 * reg->blocks_cap : 64;
    reg->blocks = bench_xrealloc(reg->blocks, reg->blocks_cap * sizeof *reg->blocks);
  }
  reg->blocks[reg->nblocks++] = p;
  return p;
}

void bench_at_end(bench_registry *reg, void (*fn)(void *), void *arg) {
  if (reg->n_at_end == sizeof reg->at_end / sizeof reg->at_end[0]) {
    fprintf(stderr, "utfx-bench: too many cleanups\n");
    exit(2);
  }
  reg->at_end[reg->n_at_end].fn = fn;
  reg->at_end[reg->n_at_end++].arg = arg;
}

const bench_options *bench_opts(const bench_registry *reg) { return &reg->opt; }

const char *bench_filter(const bench_registry *reg, char which) {
  return which == 'f' ? reg->funcs : which == 'i' ? reg->inputs : reg->impls;
}

/* 1 if s matches one of the comma-separated globs (an empty or NULL list
 * matches everything). */
static int match_list(const char *list, const char *s) {
  char pat[128];
  const char *p = list;
  if (!list || !*list) return 1;
  if (!s) return 1;
  while (*p) {
    size_t len = strcspn(p, ",");
    if (len < sizeof pat) {
      memcpy(pat, p, len);
      pat[len] = '\0';
      if (fnmatch(pat, s, 0) == 0) return 1;
    }
    p += len;
    if (*p == ',') p++;
  }
  return 0;
}

/* A family name selects all its members: "simdutf" matches simdutf-haswell,
 * "utfx" every tier, "node" every node row. */
static int match_impl(const char *list, const char *impl) {
  char family[BENCH_IMPL_MAX];
  size_t len;
  if (match_list(list, impl)) return 1;
  len = strcspn(impl, "-");
  if (len >= sizeof family || impl[len] != '-') return 0;
  memcpy(family, impl, len);
  family[len] = '\0';
  return match_list(list, family);
}

int bench_wanted(const bench_registry *reg, const char *suite, const char *func,
                 const char *input, const char *impl) {
  return match_list(reg->suites, suite) && match_list(reg->funcs, func) &&
         match_list(reg->inputs, input) && (!impl || match_impl(reg->impls, impl));
}

void bench_split_name(const char *name, char *func, size_t cap, const char **input) {
  size_t len = strcspn(name, "/");
  if (len >= cap) len = cap - 1;
  memcpy(func, name, len);
  func[len] = '\0';
  *input = name[len] == '/' ? name + len + 1 : "";
}

/* Node's rows belong to the decode / encode tables but are selected by the
 * "node" suite. */
static int entry_wanted(const bench_registry *reg, const bench_entry *e) {
  char func[BENCH_NAME_MAX];
  const char *input;
  bench_split_name(e->name, func, sizeof func, &input);
  if (strncmp(e->impl, "node", 4) == 0)
    return match_list(reg->suites, "node") && bench_wanted(reg, NULL, func, input, e->impl);
  return bench_wanted(reg, e->suite, func, input, e->impl);
}

static bench_result *push_result(bench_registry *reg, const bench_entry *e) {
  bench_result *r;
  if (reg->count == reg->cap) {
    reg->cap = reg->cap ? 2 * reg->cap : 256;
    reg->res = bench_xrealloc(reg->res, reg->cap * sizeof *reg->res);
  }
  r = &reg->res[reg->count++];
  memset(r, 0, sizeof *r);
  r->e = *e;
  return r;
}

void bench_add(bench_registry *reg, const bench_entry *e) {
  if (entry_wanted(reg, e)) push_result(reg, e);
}

void bench_add_external(bench_registry *reg, const bench_entry *e, const double *ns,
                        size_t count) {
  bench_result *r;
  if (!entry_wanted(reg, e) || count == 0) return;
  r = push_result(reg, e);
  r->e.run = NULL;
  r->ns = bench_xrealloc(NULL, count * sizeof *ns);
  memcpy(r->ns, ns, count * sizeof *ns);
  r->count = count;
  r->iters = 0;
}

size_t bench_tiers(const char **names, size_t cap) {
  size_t i, k = 0, n = utfx_implementation_count();
  for (i = 0; i < n; i++) {
    const char *name = utfx_implementation_name(i);
    if (utfx_implementation_supported(name) && k < cap) names[k++] = name;
  }
  return k;
}

int bench_tier_distinct(const bench_options *opt, const char *tier, const char *op) {
  if (opt->all_tiers || !kernel_probe || strcmp(tier, "scalar") == 0) return 1;
  return !kernel_probe(tier, op);
}

char *bench_read_file(bench_registry *reg, const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  char *buf = NULL;
  size_t size = 0, cap = 0, got;
  if (!f) return NULL;
  do {
    if (size + 65536 > cap) {
      cap = cap ? 2 * cap : 262144;
      buf = bench_xrealloc(buf, cap + 1);
    }
    got = fread(buf + size, 1, cap - size, f);
    size += got;
  } while (got > 0);
  fclose(f);
  {
    char *out = bench_alloc(reg, size + 1);
    if (size) memcpy(out, buf, size);
    out[size] = '\0';
    free(buf);
    *len = size;
    return out;
  }
}

/* ---- suites, registered by the front ends -------------------------------- */

static struct {
  const char *name;
  void (*fn)(bench_registry *);
  int after_timing;
} suites[16];
static size_t nsuites;

void bench_register_suite(const char *name, void (*fn)(bench_registry *), int after_timing) {
  if (nsuites == sizeof suites / sizeof suites[0]) {
    fprintf(stderr, "utfx-bench: too many suites\n");
    exit(2);
  }
  suites[nsuites].name = name;
  suites[nsuites].fn = fn;
  suites[nsuites].after_timing = after_timing;
  nsuites++;
}

size_t bench_suite_count(void) { return nsuites; }
const char *bench_suite_name(size_t i) { return i < nsuites ? suites[i].name : NULL; }

void bench_run_suites(bench_registry *reg, int after_timing) {
  size_t i;
  for (i = 0; i < nsuites; i++)
    if (suites[i].after_timing == after_timing) suites[i].fn(reg);
}

void bench_register_standard_suites(void) {
  bench_register_suite("kernels", bench_suite_kernels, 0);
  bench_register_suite("small", bench_suite_small, 0);
  bench_register_suite("decode", bench_suite_decode, 0);
  bench_register_suite("encode", bench_suite_encode, 0);
  bench_register_suite("base64", bench_suite_base64, 0);
  bench_register_suite("node", bench_suite_node, 1);
}
