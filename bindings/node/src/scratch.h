/* What the addon's files share (addon.c, addon_text.c, addon_base64.c):
 * scratch buffers that grow on demand and are given back above a size,
 * long results as external strings, and Node's errors for running out of
 * memory and for a string that would be too long. */
#ifndef UTFX_NODE_SCRATCH_H
#define UTFX_NODE_SCRATCH_H

#include <node_api.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Makes *p hold at least `need` items of `unit` bytes (at least 4096 items);
 * the old contents are not kept. 0, or -1 when out of memory (*p unchanged). */
static inline int scratch_grow(void **p, size_t *cap, size_t need, size_t unit) {
  void *q;
  if (need <= *cap) return 0;
  if (need < 4096) need = 4096;
  if (need > SIZE_MAX / unit) return -1;
  q = malloc(need * unit);
  if (!q) return -1;
  free(*p);
  *p = q;
  *cap = need;
  return 0;
}

/* Frees *p when it holds more than `keep` items, so one huge call does not
 * keep its memory. */
static inline void scratch_trim(void **p, size_t *cap, size_t keep) {
  if (*cap > keep) {
    free(*p);
    *p = NULL;
    *cap = 0;
  }
}

/* The memory (*p) and length (*n) of the Uint8Array v (the JavaScript side
 * checked its type). The typed array call without its type asks V8 the
 * least (napi_get_buffer_info checks the view twice, for its data and for
 * its length); were v another typed array, its length in elements is within
 * its bytes. An empty one gives a pointer of its own. 0, or -1. */
static inline int scratch_u8_data(napi_env env, napi_value v, void **p, size_t *n) {
  static char empty[1];
  void *d = NULL;
  if (napi_get_typedarray_info(env, v, NULL, n, &d, NULL, NULL) != napi_ok) return -1;
  *p = *n ? d : empty;
  return 0;
}

static inline napi_value scratch_throw_oom(napi_env env) {
  napi_throw_error(env, "ERR_MEMORY_ALLOCATION_FAILED", "Failed to allocate memory");
  return NULL;
}

/* Node's message (node_errors.h) for a string above v8::String::kMaxLength. */
static inline napi_value scratch_throw_too_long(napi_env env, double max_string) {
  char msg[96];
  snprintf(msg, sizeof msg, "Cannot create a string longer than 0x%lx characters",
           (unsigned long)max_string);
  napi_throw_error(env, "ERR_STRING_TOO_LONG", msg);
  return NULL;
}

/* Long strings are external, as Node's own (StringBytes, from about 1 MB):
 * V8 keeps a pointer to a malloc'd block instead of copying into its heap,
 * where such strings cost a large-object allocation (fresh pages) and GC
 * work per call. node_api_create_external_string_* exist from Node 18.18 /
 * 20.4 (as experimental API, so not declared without NAPI_EXPERIMENTAL):
 * weak references, null on an older Node, which then gets copies. Their
 * blocks are reported to V8 as external memory (and given back by the
 * finalizer), as Node reports its own: else V8, which sees only small
 * strings, collects none of them for a long time (a loop of 256 KiB
 * results grew by 900 MB). */
#define SCRATCH_EXTERNAL_MIN ((size_t)1 << 18) /* units (measured: bench.js --suite text, base64) */
#define SCRATCH_EXTERNAL_MAX ((size_t)1 << 28) /* units: well below V8's string limit */
/* The blocks of external strings: their size in a header before the text,
 * so that the finalizer can keep a few of them for the next long result: a
 * fresh block of megabytes is fresh pages (mmap), whose faults cost more
 * than the encode (docs/perf-decisions.md, 'Node session 23'). Shared by
 * every environment (worker threads too): atomic slots, in addon.c. */
#define SCRATCH_BLOCKS 4
#define SCRATCH_BLOCK_HEAD ((size_t)16)
#define SCRATCH_BLOCK_KEEP ((size_t)4 << 20) /* bytes: larger blocks are freed */
extern _Atomic(void *) scratch_blocks[SCRATCH_BLOCKS];

/* Puts block b (at its header) in a free slot, else frees it. */
static inline void scratch_block_release(unsigned char *b) {
  size_t cap;
  memcpy(&cap, b, sizeof cap);
  if (cap <= SCRATCH_BLOCK_KEEP) {
    for (int i = 0; i < SCRATCH_BLOCKS; i++) {
      void *none = NULL;
      if (atomic_compare_exchange_strong(&scratch_blocks[i], &none, (void *)b)) return;
    }
  }
  free(b);
}

/* Memory for `bytes` bytes of an external string's text: a kept block of
 * at least that and at most twice that, else a new one. NULL: out of memory. */
static inline void *scratch_block(size_t bytes) {
  unsigned char *b;
  for (int i = 0; i < SCRATCH_BLOCKS; i++) {
    size_t cap;
    if (!(b = atomic_exchange(&scratch_blocks[i], NULL))) continue;
    memcpy(&cap, b, sizeof cap);
    if (cap >= bytes && cap / 2 <= bytes) return b + SCRATCH_BLOCK_HEAD;
    scratch_block_release(b);
  }
  if (bytes > SIZE_MAX - SCRATCH_BLOCK_HEAD || !(b = malloc(bytes + SCRATCH_BLOCK_HEAD))) return NULL;
  memcpy(b, &bytes, sizeof bytes);
  return b + SCRATCH_BLOCK_HEAD;
}

#if defined(__GNUC__) && !defined(_WIN32)
typedef void (*scratch_finalize)(napi_env env, void *data, void *hint);
extern napi_status node_api_create_external_string_latin1(napi_env env, char *str, size_t length,
                                                           scratch_finalize finalize, void *hint,
                                                           napi_value *result, bool *copied)
    __attribute__((weak, visibility("default")));
extern napi_status node_api_create_external_string_utf16(napi_env env, char16_t *str,
                                                          size_t length, scratch_finalize finalize,
                                                          void *hint, napi_value *result,
                                                          bool *copied)
    __attribute__((weak, visibility("default")));

/* The finalizer of an external string's block; hint: the bytes reported. */
static inline void scratch_external_free(napi_env env, void *data, void *hint) {
  int64_t ignored;
  napi_adjust_external_memory(env, -(int64_t)(uintptr_t)hint, &ignored);
  scratch_block_release((unsigned char *)data - SCRATCH_BLOCK_HEAD);
}
#endif

/* Whether this Node makes external strings of `unit`-byte units and n
 * units are worth one. */
static inline int scratch_external_ok(size_t n, size_t unit) {
#if defined(__GNUC__) && !defined(_WIN32)
  return n >= SCRATCH_EXTERNAL_MIN && n <= SCRATCH_EXTERNAL_MAX &&
         (unit == 1 ? node_api_create_external_string_latin1 != NULL
                    : node_api_create_external_string_utf16 != NULL);
#else
  (void)n, (void)unit;
  return 0;
#endif
}

/* The block s of n units (from scratch_block; scratch_external_ok said
 * yes) as an external string, which then owns it, or NULL on a failure (rare; whether
 * Node freed s is unsaid: it is neither used nor freed again). */
static inline napi_value scratch_external_string(napi_env env, void *s, size_t n, size_t unit) {
#if defined(__GNUC__) && !defined(_WIN32)
  napi_value v = NULL;
  bool copied = false; /* (copied: V8 copied it and the finalizer freed s) */
  int64_t ignored;
  void *size = (void *)(uintptr_t)(n * unit);
  napi_status st =
      unit == 1 ? node_api_create_external_string_latin1(env, s, n, scratch_external_free, size,
                                                         &v, &copied)
                : node_api_create_external_string_utf16(env, s, n, scratch_external_free, size,
                                                        &v, &copied);
  if (st != napi_ok) return NULL;
  napi_adjust_external_memory(env, (int64_t)(n * unit), &ignored);
  return v;
#else
  (void)env, (void)s, (void)n, (void)unit;
  return NULL;
#endif
}

#endif
