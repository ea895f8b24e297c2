/* The dispatcher as the library's front ends see it (api.c, the streaming
 * decoders): which kernel table is active. dispatch.c owns the tiers, the CPU
 * detection and the pointer; kernels include internal.h only and never see
 * this. */
#ifndef UTFX_DISPATCH_H
#define UTFX_DISPATCH_H

#include <stdatomic.h>

#include "internal.h"

/* The active kernel table: NULL until the first use resolves it. The load is
 * inline in every public function: a call more would cost a short input about
 * as much as its conversion (see docs/perf-decisions.md, 'Dispatch'). */
extern _Atomic(const struct utfxi_kernels *) utfxi_active_table;
UTFXI_COLD const struct utfxi_kernels *utfxi_resolve(void);
static inline const struct utfxi_kernels *utfxi_active(void) {
  const struct utfxi_kernels *k = atomic_load_explicit(&utfxi_active_table, memory_order_acquire);
  return UTFXI_UNLIKELY(!k) ? utfxi_resolve() : k;
}

#endif /* UTFX_DISPATCH_H */
