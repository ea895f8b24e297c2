/* The timing loop: warm-up that sizes the batch, then the timed batches. */
#define _POSIX_C_SOURCE 200809L

#include "engine_internal.h"

#include <stdio.h>
#include <time.h>

#include "utfx.h"

/* CPU time of this thread by default: on a shared machine, time spent
 * descheduled is not the code's cost (wall time is --clock wall). */
static clockid_t bench_clock = CLOCK_THREAD_CPUTIME_ID;

void bench_use_wall_clock(int wall) { bench_clock = wall ? CLOCK_MONOTONIC : CLOCK_THREAD_CPUTIME_ID; }

static double now_ns(void) {
  struct timespec ts;
  clock_gettime(bench_clock, &ts);
  return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static volatile size_t sink;

void bench_measure(bench_result *r, const bench_options *opt) {
  double batch_ns = opt->batch_ms * 1e6, t0, t, start;
  size_t iters = 1, i, samples = (size_t)opt->samples;
  if (r->e.tier[0] && utfx_set_implementation(r->e.tier) != 0) {
    fprintf(stderr, "utfx-bench: cannot select tier %s\n", r->e.tier);
    return;
  }
  /* Warm-up doubles as calibration: grow the batch until it lasts batch_ms,
   * and keep running for at least warmup_ms. */
  start = now_ns();
  for (;;) {
    t0 = now_ns();
    sink += r->e.run(r->e.ctx, iters);
    t = now_ns() - t0;
    if (t < batch_ns && iters < ((size_t)1 << 40)) {
      double grow = t > 0 ? batch_ns / t * 1.2 : 16;
      iters = (size_t)((double)iters * (grow > 16 ? 16 : grow < 2 ? 2 : grow));
      continue;
    }
    if (now_ns() - start >= opt->warmup_ms * 1e6) break;
  }
  r->iters = iters;
  r->ns = bench_xrealloc(NULL, (samples ? samples : 1) * sizeof *r->ns);
  for (i = 0; i < samples; i++) {
    t0 = now_ns();
    sink += r->e.run(r->e.ctx, iters);
    t = now_ns() - t0;
    r->ns[i] = t / (double)iters;
  }
  r->count = samples;
}
