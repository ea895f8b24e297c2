/* What the addon's files share (addon.c, addon_text.c, addon_base64.c):
 * scratch buffers that grow on demand and are given back above a size, and
 * Node's errors for running out of memory and for a string that would be too
 * long. */
#ifndef UTFX_NODE_SCRATCH_H
#define UTFX_NODE_SCRATCH_H

#include <node_api.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

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

#endif
