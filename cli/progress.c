/* A progress line on stderr for long runs, like `pv` or `zstd -v`: shown only
 * when stderr is a terminal and the input is large (over 64 MiB, or not yet
 * known to be smaller), redrawn at most four times a second, and erased at the
 * end so the terminal is left as it was. Never shown in pipes or logs. */
#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"

#define PROGRESS_MIN_BYTES ((int64_t)64 << 20)

double cli_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void human(char *buf, size_t cap, double bytes) {
  static const char *units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  size_t u = 0;
  while (bytes >= 1024.0 && u + 1 < sizeof units / sizeof units[0]) {
    bytes /= 1024.0;
    u++;
  }
  snprintf(buf, cap, u ? "%.1f %s" : "%.0f %s", bytes, units[u]);
}

static void draw(struct cli_progress *p, double now) {
  char done[32], total[32], speed[32];
  double secs = now - p->start;
  human(done, sizeof done, (double)p->done);
  human(speed, sizeof speed, secs > 0 ? (double)p->done / secs : 0.0);
  if (p->total >= 0) {
    human(total, sizeof total, (double)p->total);
    fprintf(stderr, "\r%s: %s: %s of %s (%d%%), %s/s\033[K", cli_prog, p->name, done, total,
            p->total ? (int)((double)p->done * 100.0 / (double)p->total) : 100, speed);
  } else {
    fprintf(stderr, "\r%s: %s: %s, %s/s\033[K", cli_prog, p->name, done, speed);
  }
  fflush(stderr);
  p->shown = 1;
  p->last = now;
}

void cli_progress_begin(struct cli_progress *p, const char *name, int64_t total, int allowed) {
  p->active = allowed && isatty(STDERR_FILENO) && (total < 0 || total > PROGRESS_MIN_BYTES);
  p->shown = 0;
  p->total = total;
  p->done = 0;
  p->name = name;
  p->start = p->last = p->active ? cli_now() : 0.0;
  /* A known large size: show the line at once, so a slow start is visible. */
  if (p->active && total > PROGRESS_MIN_BYTES) draw(p, p->start);
}

void cli_progress_update(struct cli_progress *p, uint64_t done) {
  double now;
  if (!p->active) return;
  p->done = done;
  if (p->total < 0 && done <= (uint64_t)PROGRESS_MIN_BYTES) return;
  now = cli_now();
  if (now - p->last >= 0.25) draw(p, now);
}

void cli_progress_end(struct cli_progress *p) {
  if (p->shown) {
    fputs("\r\033[K", stderr);
    fflush(stderr);
  }
  p->active = p->shown = 0;
}
