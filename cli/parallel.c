/* An ordered parallel loop: pieces 0..n-1 are worked on by a pool of threads
 * in any order, and handed to the calling thread in order (to write them out),
 * with at most `slots` pieces in flight so memory stays bounded. Like pigz:
 * the work runs on every core while the output keeps the input's order.
 *
 * Piece i lives in slot i % slots; a worker takes piece i only once piece
 * i - slots has been emitted, so a slot's buffers are never shared. A piece
 * whose work reports that nothing after it is needed (a strict error) stops
 * the handing out of later pieces; the loop ends once it is emitted. With one
 * thread, or when no thread can be started, the caller does all the work
 * itself, piece by piece. */
#define _GNU_SOURCE /* sched_getaffinity, CPU_COUNT */

#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>

#include "cli.h"

unsigned cli_online_cpus(void) {
#if defined(CPU_COUNT)
  cpu_set_t set;
  /* The CPUs this process may run on (taskset, cgroups), when it can tell. */
  if (sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) > 0)
    return (unsigned)CPU_COUNT(&set);
#endif
  {
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (unsigned)n : 1u;
  }
}

unsigned cli_par_slots(unsigned threads) { return threads > 1 ? 2 * threads : 1; }

struct par_state {
  const struct cli_par *job;
  unsigned slots;
  pthread_mutex_t lock;
  pthread_cond_t changed; /* a piece finished, was emitted, or the loop stops */
  size_t next;            /* next piece to hand out */
  size_t emitted;         /* pieces 0..emitted-1 are out */
  size_t stop_at;         /* no piece after this one is needed (SIZE_MAX: all are) */
  int quit;
  size_t *done; /* per slot: 1 + the piece finished in it, 0 while it is not */
};

static void *worker(void *arg) {
  struct par_state *st = arg;
  pthread_mutex_lock(&st->lock);
  for (;;) {
    size_t i;
    unsigned slot;
    int stop;
    while (!st->quit && st->next < st->job->pieces && st->next <= st->stop_at &&
           st->next >= st->emitted + st->slots)
      pthread_cond_wait(&st->changed, &st->lock);
    if (st->quit || st->next >= st->job->pieces || st->next > st->stop_at) break;
    i = st->next++;
    slot = (unsigned)(i % st->slots);
    pthread_mutex_unlock(&st->lock);
    stop = st->job->work(st->job->ctx, i, slot);
    pthread_mutex_lock(&st->lock);
    if (stop && i < st->stop_at) st->stop_at = i;
    st->done[slot] = i + 1;
    pthread_cond_broadcast(&st->changed);
  }
  pthread_mutex_unlock(&st->lock);
  return NULL;
}

static int run_inline(const struct cli_par *job) {
  size_t i;
  for (i = 0; i < job->pieces; i++) {
    int stop = job->work(job->ctx, i, 0);
    int rc = job->emit(job->ctx, i, 0);
    if (rc || stop) return rc;
  }
  return 0;
}

int cli_par_run(const struct cli_par *job) {
  struct par_state st;
  pthread_t *tids;
  unsigned threads = job->threads, started = 0, t;
  size_t i;
  int rc = 0;
  if (threads > job->pieces) threads = (unsigned)job->pieces;
  if (threads <= 1) return run_inline(job);
  st.job = job;
  st.slots = cli_par_slots(job->threads);
  st.next = st.emitted = 0;
  st.stop_at = SIZE_MAX;
  st.quit = 0;
  st.done = calloc(st.slots, sizeof *st.done);
  tids = malloc(threads * sizeof *tids);
  if (!st.done || !tids) {
    free(st.done);
    free(tids);
    return run_inline(job);
  }
  pthread_mutex_init(&st.lock, NULL);
  pthread_cond_init(&st.changed, NULL);
  for (t = 0; t < threads; t++) {
    if (pthread_create(&tids[t], NULL, worker, &st) != 0) break;
    started++;
  }
  if (started == 0) {
    rc = run_inline(job);
  } else {
    pthread_mutex_lock(&st.lock);
    for (i = 0; i < job->pieces; i++) {
      unsigned slot = (unsigned)(i % st.slots);
      int stop;
      while (st.done[slot] != i + 1) pthread_cond_wait(&st.changed, &st.lock);
      stop = i >= st.stop_at;
      pthread_mutex_unlock(&st.lock);
      rc = job->emit(job->ctx, i, slot);
      pthread_mutex_lock(&st.lock);
      st.done[slot] = 0;
      st.emitted = i + 1;
      if (rc || stop) st.quit = 1;
      pthread_cond_broadcast(&st.changed);
      if (st.quit) break;
    }
    st.quit = 1;
    pthread_cond_broadcast(&st.changed);
    pthread_mutex_unlock(&st.lock);
  }
  for (t = 0; t < started; t++) pthread_join(tids[t], NULL);
  pthread_cond_destroy(&st.changed);
  pthread_mutex_destroy(&st.lock);
  free(st.done);
  free(tids);
  return rc;
}
