/* Input and output for the CLI: whole-buffer read and write loops that retry
 * on EINTR, atomic output files, one-line error messages, and signals.
 *
 * Atomic output: -o OUT (and --in-place) write a temporary file created with
 * mkstemp in OUT's directory (so rename stays within one file system), fsync
 * it, and rename it onto OUT only when everything succeeded. A failed run
 * unlinks the temporary file, and so do SIGINT, SIGTERM and SIGHUP; OUT is
 * never truncated or half written (after SIGKILL a stray ".OUT.utfx-XXXXXX"
 * may remain, OUT itself is still untouched).
 *
 * SIGPIPE keeps (is reset to) its default action, so `utfx convert big | head`
 * ends silently the way cat does. */
#define _XOPEN_SOURCE 700 /* realpath, lstat, fchmod with POSIX 2008 */
#define _DEFAULT_SOURCE   /* madvise, MADV_DONTNEED */
#define _GNU_SOURCE       /* F_SETPIPE_SZ */

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h> /* getrusage */
#include <sys/stat.h>
#include <sys/uio.h> /* struct iovec */
#include <sys/vfs.h> /* fstatfs */
#include <unistd.h>

#include "cli.h"

const char *cli_prog = "utfx";

void cli_error(const char *fmt, ...) {
  va_list ap;
  fprintf(stderr, "%s: ", cli_prog);
  va_start(ap, fmt);
  vfprintf(stderr, fmt, ap);
  va_end(ap);
  fputc('\n', stderr);
}

/* The temporary file to remove if a signal ends the process; a plain array
 * so the handler only calls async-signal-safe functions. */
static char pending_tmp[4096];
static volatile sig_atomic_t pending_set;

static void on_fatal_signal(int sig) {
  if (pending_set) unlink(pending_tmp);
  signal(sig, SIG_DFL);
  raise(sig);
}

void cli_io_init(void) {
  static const int fatal[] = {SIGINT, SIGTERM, SIGHUP};
  size_t i;
  signal(SIGPIPE, SIG_DFL);
  for (i = 0; i < sizeof fatal / sizeof fatal[0]; i++) {
    struct sigaction sa;
    struct sigaction old;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_fatal_signal;
    sigemptyset(&sa.sa_mask);
    /* Keep an inherited "ignore" (nohup, background jobs) as it was. */
    if (sigaction(fatal[i], NULL, &old) == 0 && old.sa_handler == SIG_IGN) continue;
    sigaction(fatal[i], &sa, NULL);
  }
}

size_t cli_env_size(const char *name, size_t min, size_t dflt) {
  const char *env = getenv(name);
  if (env && *env) {
    char *end;
    unsigned long v = strtoul(env, &end, 10);
    if (*end == '\0' && v >= min && v <= (1ul << 30)) return (size_t)v;
  }
  return dflt;
}

size_t cli_chunk_size(void) { return cli_env_size("UTFX_CLI_CHUNK", 4, (size_t)1 << 20); }

int cli_input_open(struct cli_input *in, const char *path) {
  struct stat st;
  in->size = -1;
  if (strcmp(path, "-") == 0) {
    in->display = "<stdin>";
    in->fd = STDIN_FILENO;
  } else {
    in->display = path;
    do {
      in->fd = open(path, O_RDONLY);
    } while (in->fd < 0 && errno == EINTR);
    if (in->fd < 0) {
      cli_error("%s: %s", path, strerror(errno));
      return CLI_EXIT_IO;
    }
  }
  if (fstat(in->fd, &st) == 0) {
    if (S_ISDIR(st.st_mode)) {
      cli_error("%s: %s", in->display, strerror(EISDIR));
      cli_input_close(in);
      return CLI_EXIT_IO;
    }
    if (S_ISREG(st.st_mode)) in->size = (int64_t)st.st_size;
  }
#if defined(POSIX_FADV_SEQUENTIAL)
  if (in->size > 0) (void)posix_fadvise(in->fd, 0, 0, POSIX_FADV_SEQUENTIAL);
#endif
  return 0;
}

void cli_input_close(struct cli_input *in) {
  if (in->fd > STDIN_FILENO) close(in->fd);
  in->fd = -1;
}

int cli_read_full(const struct cli_input *in, unsigned char *buf, size_t want, size_t *got) {
  size_t have = 0;
  while (have < want) {
    ssize_t r = read(in->fd, buf + have, want - have);
    if (r > 0) {
      have += (size_t)r;
    } else if (r == 0) {
      break;
    } else if (errno != EINTR) {
      cli_error("%s: read error: %s", in->display, strerror(errno));
      *got = have;
      return CLI_EXIT_IO;
    }
  }
  *got = have;
  return 0;
}

int cli_pread_full(const struct cli_input *in, unsigned char *buf, size_t want, int64_t off,
                   size_t *got) {
  size_t have = 0;
  while (have < want) {
    ssize_t r = pread(in->fd, buf + have, want - have, (off_t)(off + (int64_t)have));
    if (r > 0)
      have += (size_t)r;
    else if (r == 0)
      break;
    else if (errno != EINTR) {
      *got = have;
      return errno;
    }
  }
  *got = have;
  return 0;
}

/* A mapped file that shrinks while we read it raises SIGBUS on the lost
 * pages: say so and fail like a read error, instead of dying mysteriously. */
static const char *mapped_name;

static void on_sigbus(int sig) {
  static const char pre[] = "utfx: ", post[] = ": read error: file shrank while being read\n";
  (void)sig;
  if (pending_set) unlink(pending_tmp);
  if (write(STDERR_FILENO, pre, sizeof pre - 1) < 0 ||
      write(STDERR_FILENO, mapped_name, strlen(mapped_name)) < 0 ||
      write(STDERR_FILENO, post, sizeof post - 1) < 0) {
    /* nothing more to do */
  }
  _exit(CLI_EXIT_IO);
}

int cli_input_map(const struct cli_input *in, struct cli_map *map) {
  struct sigaction sa;
  off_t start;
  void *base;
  memset(map, 0, sizeof *map);
  if (in->size <= 0 || (uint64_t)in->size > SIZE_MAX) return -1;
  start = lseek(in->fd, 0, SEEK_CUR);
  if (start < 0 || start >= (off_t)in->size) return -1;
  base = mmap(NULL, (size_t)in->size, PROT_READ, MAP_PRIVATE, in->fd, 0);
  if (base == MAP_FAILED) return -1;
  map->base = base;
  map->size = (size_t)in->size;
  map->start = (int64_t)start;
  map->p = (const unsigned char *)base + start;
  map->n = map->size - (size_t)start;
  mapped_name = in->display;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_sigbus;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGBUS, &sa, NULL);
  return 0;
}

void cli_input_release(const struct cli_map *map, size_t from, size_t to) {
#if defined(MADV_DONTNEED)
  size_t page = (size_t)sysconf(_SC_PAGESIZE);
  size_t a = (size_t)map->start + from, b = (size_t)map->start + to;
  a = (a + page - 1) / page * page;
  b = b / page * page;
  if (b > a) (void)madvise((char *)map->base + a, b - a, MADV_DONTNEED);
#else
  (void)map, (void)from, (void)to;
#endif
}

void cli_input_unmap(struct cli_map *map) {
  if (!map->base) return;
  signal(SIGBUS, SIG_DFL);
  munmap(map->base, map->size);
  memset(map, 0, sizeof *map);
}

/* Into a pipe, a larger pipe buffer means fewer, larger handoffs to the
 * reader (each a wakeup on both sides). Best effort: the size is capped by
 * /proc/sys/fs/pipe-max-size and the user's pipe quota, and a failure leaves
 * the pipe as it was. UTFX_CLI_PIPE sets it (0: leave the pipe alone). */
static void grow_pipe(int fd) {
#if defined(F_SETPIPE_SZ) && defined(F_GETPIPE_SZ)
  struct stat st;
  size_t want = cli_env_size("UTFX_CLI_PIPE", 0, (size_t)1 << 20);
  int have;
  if (want == 0 || fstat(fd, &st) != 0 || !S_ISFIFO(st.st_mode)) return;
  have = fcntl(fd, F_GETPIPE_SZ);
  if (have < 0 || (size_t)have >= want) return;
  (void)fcntl(fd, F_SETPIPE_SZ, (int)want);
#else
  (void)fd;
#endif
}

/* Into a regular file, the blocks of each large write are allocated by
 * fallocate() before it is written: ext4 then maps the page cache onto
 * allocated (unwritten) blocks instead of reserving delayed allocation
 * block by block, which made the write() of 300 MB about a third cheaper
 * (docs/perf-decisions.md, "The CLI: output into a regular file"). With
 * FALLOC_FL_KEEP_SIZE the file's size and contents are only ever changed by
 * the write itself. Not in append mode, where the write's offset is not the
 * one asked for. Only on ext4, where it was measured: on tmpfs it gained
 * nothing, and on a network or FUSE file system each call may be a round
 * trip. UTFX_CLI_PREALLOC=0 turns it off. */
static int may_prealloc(int fd) {
#if defined(FALLOC_FL_KEEP_SIZE)
  const long ext4_magic = 0xEF53; /* EXT4_SUPER_MAGIC (ext2 and ext3 too) */
  struct stat st;
  struct statfs fs;
  int fl = fcntl(fd, F_GETFL);
  return cli_env_size("UTFX_CLI_PREALLOC", 0, 1) != 0 && fl >= 0 && !(fl & O_APPEND) &&
         fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && fstatfs(fd, &fs) == 0 &&
         (long)fs.f_type == ext4_magic;
#else
  (void)fd;
  return 0;
#endif
}

static void prealloc(struct cli_output *o, size_t n) {
#if defined(FALLOC_FL_KEEP_SIZE)
  off_t at;
  if (!o->prealloc || n < ((size_t)64 << 10)) return;
  at = lseek(o->fd, 0, SEEK_CUR);
  /* Unsupported here (EOPNOTSUPP), or a full disk: the write will say. */
  if (at < 0 || fallocate(o->fd, FALLOC_FL_KEEP_SIZE, at, (off_t)n) != 0) o->prealloc = 0;
#else
  (void)o, (void)n;
#endif
}


/* Into a pipe, vmsplice(2) hands the pipe the pages a piece was converted in
 * instead of copying it into pipe pages (a page allocated and filled per
 * 4 KiB, most of the writer's cost after the conversion). The pipe then
 * holds those pages until the reader is done, and a reader may even splice
 * them on, so bytes once handed over are never written again: each slot
 * converts into its own ring of anonymous memory, piece after piece, and
 * gives back (MADV_DONTNEED) the 2 MiB blocks it has passed, and the whole
 * ring before it starts over (the pipe keeps its references to the old
 * pages; the ring gets fresh ones). Fresh pages are zeroed by their fault:
 * the rings ask for transparent huge pages, one fault and one clear per
 * 2 MiB, which costs less than the copy; with 4 KiB pages the faults would
 * cost more than the copy, so the rings are used only when the kernel gives
 * huge pages to madvise(MADV_HUGEPAGE) regions. UTFX_CLI_SPLICE=0 turns it
 * off (docs/perf-decisions.md, "The CLI: into a pipe by vmsplice from
 * rings"). */
struct cli_ring {
  unsigned char *raw, *base; /* the mapping; base: its first 2 MiB boundary */
  size_t size;               /* bytes from base */
  size_t pos;                /* the next piece goes at base + pos */
  size_t freed;              /* base[0..freed) is given back */
  int small;                 /* its pages came in 4 KiB: the slot uses its own buffer */
};

enum { RING_BLOCK = 2 << 20, RING_MIN = 64 << 20 };

static int huge_pages_on_madvise(void) {
#if defined(MADV_HUGEPAGE)
  char buf[128];
  ssize_t n;
  int fd = open("/sys/kernel/mm/transparent_hugepage/enabled", O_RDONLY);
  if (fd < 0) return 0;
  n = read(fd, buf, sizeof buf - 1);
  close(fd);
  if (n <= 0) return 0;
  buf[n] = '\0';
  return strstr(buf, "[always]") != NULL || strstr(buf, "[madvise]") != NULL;
#else
  return 0;
#endif
}

static int may_splice(int fd) {
#if defined(SPLICE_F_GIFT) && defined(MADV_HUGEPAGE) && defined(MADV_DONTNEED)
  struct stat st;
  return cli_env_size("UTFX_CLI_SPLICE", 0, 1) != 0 && fstat(fd, &st) == 0 &&
         S_ISFIFO(st.st_mode) && huge_pages_on_madvise();
#else
  (void)fd;
  return 0;
#endif
}

void cli_output_slots(struct cli_output *o, unsigned slots) {
  if (!o->splice || o->nrings >= slots) return;
  {
    struct cli_ring *r = realloc(o->rings, slots * sizeof *r);
    if (!r) return;
    memset(r + o->nrings, 0, (slots - o->nrings) * sizeof *r);
    o->rings = r;
    o->nrings = slots;
  }
}

static void ring_give_back(struct cli_ring *r, size_t from, size_t to) {
  if (to > from) (void)madvise(r->base + from, to - from, MADV_DONTNEED);
}

static long thread_minor_faults(void) {
#if defined(RUSAGE_THREAD)
  struct rusage ru;
  if (getrusage(RUSAGE_THREAD, &ru) == 0) return ru.ru_minflt;
#endif
  return -1;
}

/* Whether the ring's fresh first block comes as one huge page: its first
 * byte is written (one fault either way), then its last page read and
 * written, which faults again unless the first fault mapped the whole 2 MiB
 * (a smaller large folio does not reach it). When the kernel has no huge page to give (memory
 * fragmented, THP disabled for the process), the ring's 4 KiB faults cost
 * more than the copy into the pipe they save, so the slot writes instead.
 * Two faults and two getrusage calls per 64 MiB of a slot's output; the
 * calling thread's fault count, so other threads do not blur it. */
static int ring_is_huge(struct cli_ring *r) {
  volatile unsigned char *b = r->base;
  long before;
  if (r->size < RING_BLOCK) return 1; /* test rings: nothing to tell */
  b[0] = 0;
  /* Read first: on 4 KiB pages that maps the zero page (and a sanitizer's
   * shadow check faults here, not at the store), so the store's only fault
   * is its copy on write. */
  (void)b[RING_BLOCK - 4096];
  before = thread_minor_faults();
  b[RING_BLOCK - 4096] = 0;
  return before < 0 || thread_minor_faults() == before;
}

unsigned char *cli_output_slot_buffer(struct cli_output *o, unsigned slot, size_t cap) {
#if defined(MADV_HUGEPAGE)
  struct cli_ring *r;
  if (!o->splice || slot >= o->nrings) return NULL;
  r = &o->rings[slot];
  if (!r->raw) {
    /* UTFX_CLI_RING (tests): smaller rings, started over more often. */
    size_t want = cli_env_size("UTFX_CLI_RING", 1, RING_MIN);
    size_t size = cap > want ? cap : want;
    void *raw;
    size = (size + 4095) / 4096 * 4096;
    raw = mmap(NULL, size + RING_BLOCK, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
               -1, 0);
    if (raw == MAP_FAILED) return NULL;
    r->raw = raw;
    r->base = (unsigned char *)(((uintptr_t)raw + RING_BLOCK - 1) &
                                ~(uintptr_t)(RING_BLOCK - 1));
    r->size = size;
    r->pos = r->freed = 0;
    /* UTFX_CLI_RING_HUGE=0 (tests): 4 KiB pages, as when none can be had. */
    (void)madvise(r->base, r->size,
                  cli_env_size("UTFX_CLI_RING_HUGE", 0, 1) ? MADV_HUGEPAGE : MADV_NOHUGEPAGE);
    r->small = !ring_is_huge(r);
  }
  if (r->small || cap > r->size) return NULL;
  if (r->pos + cap > r->size) { /* start over on fresh pages */
    ring_give_back(r, r->freed, r->size);
    r->pos = r->freed = 0;
    r->small = !ring_is_huge(r);
    if (r->small) return NULL;
  }
  return r->base + r->pos;
#else
  (void)o, (void)slot, (void)cap;
  return NULL;
#endif
}

static struct cli_ring *ring_of(const struct cli_output *o, const unsigned char *p) {
  unsigned k;
  for (k = 0; k < o->nrings; k++) {
    const struct cli_ring *r = &o->rings[k];
    if (r->raw && p >= r->base && p < r->base + r->size) return &o->rings[k];
  }
  return NULL;
}

static void rings_free(struct cli_output *o) {
  unsigned k;
  for (k = 0; k < o->nrings; k++)
    if (o->rings[k].raw) munmap(o->rings[k].raw, o->rings[k].size + RING_BLOCK);
  free(o->rings);
  o->rings = NULL;
  o->nrings = 0;
}

int cli_output_open(struct cli_output *o, const char *path, const char *mode_of) {
  struct stat st;
  const char *slash;
  size_t dirlen;
  mode_t mode, mask;
  memset(o, 0, sizeof *o);
  if (!path || strcmp(path, "-") == 0) {
    o->fd = STDOUT_FILENO;
    o->is_stdout = 1;
    o->display = "<stdout>";
    grow_pipe(o->fd);
    o->prealloc = may_prealloc(o->fd);
    o->splice = may_splice(o->fd);
    return 0;
  }
  o->display = path;
  /* OUT a symbolic link: replace the file it points to, not the link. */
  if (lstat(path, &st) == 0 && S_ISLNK(st.st_mode)) o->final_path = realpath(path, NULL);
  if (!o->final_path) o->final_path = strdup(path);
  if (!o->final_path) {
    cli_error("out of memory");
    return CLI_EXIT_IO;
  }
  path = o->final_path;
  slash = strrchr(path, '/');
  dirlen = slash ? (size_t)(slash - path) + 1 : 0;
  o->tmp_path = malloc(strlen(path) + 16);
  if (!o->tmp_path) {
    cli_error("out of memory");
    cli_output_abort(o);
    return CLI_EXIT_IO;
  }
  /* ".NAME.utfx-XXXXXX" beside NAME: hidden, and recognisable if a SIGKILL
   * leaves it behind. */
  memcpy(o->tmp_path, path, dirlen);
  sprintf(o->tmp_path + dirlen, ".%s.utfx-XXXXXX", path + dirlen);
  o->fd = mkstemp(o->tmp_path);
  if (o->fd < 0) {
    cli_error("%s: cannot create a temporary file beside it: %s", path, strerror(errno));
    free(o->tmp_path);
    o->tmp_path = NULL;
    cli_output_abort(o);
    return CLI_EXIT_IO;
  }
  if (strlen(o->tmp_path) < sizeof pending_tmp) {
    memcpy(pending_tmp, o->tmp_path, strlen(o->tmp_path) + 1);
    pending_set = 1;
  }
  o->prealloc = may_prealloc(o->fd);
  /* mkstemp makes 0600; give the result the mode a plain create (or the file
   * it replaces) would have. */
  mask = umask(0);
  umask(mask);
  mode = (mode_t)(0666 & ~mask);
  if (stat(mode_of ? mode_of : path, &st) == 0 && S_ISREG(st.st_mode)) mode = st.st_mode & 07777;
  if (fchmod(o->fd, mode) != 0) {
    /* not fatal: the data is what matters */
  }
  return 0;
}

/* Dies the way an unhandled SIGPIPE would: quietly, status 128 + 13. */
static void die_by_sigpipe(void) {
  signal(SIGPIPE, SIG_DFL);
  raise(SIGPIPE);
  _exit(128 + SIGPIPE);
}

/* Hands p[0..n), in ring r, to the pipe: 0, an error code, or 1 when
 * vmsplice is not available here and nothing was written (write it). */
static int splice_out(struct cli_output *o, struct cli_ring *r, const unsigned char *p, size_t n) {
  size_t end = (size_t)(p - r->base) + n, block;
  struct iovec iov;
  iov.iov_base = r->base + (p - r->base); /* p, writable: it is in the ring */
  iov.iov_len = n;
  while (iov.iov_len > 0) {
    ssize_t w = vmsplice(o->fd, &iov, 1, 0);
    if (w > 0) {
      iov.iov_base = (unsigned char *)iov.iov_base + w;
      iov.iov_len -= (size_t)w;
    } else if (w < 0 && errno == EINTR) {
      continue;
    } else if (w < 0 && (errno == EINVAL || errno == ENOSYS) && iov.iov_len == n) {
      return 1;
    } else {
      if (w < 0 && errno == EPIPE) die_by_sigpipe();
      cli_error("%s: write error: %s", o->display, w < 0 ? strerror(errno) : "no progress");
      return CLI_EXIT_IO;
    }
  }
  /* Never write these bytes again: the next piece starts after them (the
   * pipe holds a page's range, not the page), and the blocks behind it are
   * given back. */
  r->pos = end;
  block = r->pos / RING_BLOCK * RING_BLOCK;
  if (block > r->freed) {
    ring_give_back(r, r->freed, block);
    r->freed = block;
  }
  return 0;
}

int cli_output_write(struct cli_output *o, const void *p, size_t n) {
  const unsigned char *b = p;
  if (o->splice && n > 0) {
    struct cli_ring *r = ring_of(o, b);
    if (r) {
      int rc = splice_out(o, r, b, n);
      if (rc != 1) return rc;
    }
  }
  prealloc(o, n);
  while (n > 0) {
    ssize_t w = write(o->fd, b, n);
    if (w > 0) {
      b += w;
      n -= (size_t)w;
    } else if (w < 0 && errno == EINTR) {
      continue;
    } else {
      if (w < 0 && errno == EPIPE) die_by_sigpipe();
      cli_error("%s: write error: %s", o->display, w < 0 ? strerror(errno) : "no progress");
      return CLI_EXIT_IO;
    }
  }
  return 0;
}

int cli_output_commit(struct cli_output *o) {
  int rc = 0;
  rings_free(o);
  if (o->is_stdout) return 0;
  if (fsync(o->fd) != 0 && errno != EINVAL) {
    cli_error("%s: write error: %s", o->display, strerror(errno));
    rc = CLI_EXIT_IO;
  }
  if (close(o->fd) != 0 && rc == 0) {
    cli_error("%s: write error: %s", o->display, strerror(errno));
    rc = CLI_EXIT_IO;
  }
  o->fd = -1;
  if (rc == 0 && rename(o->tmp_path, o->final_path) != 0) {
    cli_error("%s: cannot rename the temporary file onto it: %s", o->display, strerror(errno));
    rc = CLI_EXIT_IO;
  }
  if (rc != 0) {
    cli_output_abort(o);
    return rc;
  }
  pending_set = 0;
  free(o->tmp_path);
  free(o->final_path);
  o->tmp_path = o->final_path = NULL;
  return 0;
}

void cli_output_abort(struct cli_output *o) {
  rings_free(o);
  if (o->is_stdout) return;
  if (o->fd >= 0 && o->tmp_path) close(o->fd);
  o->fd = -1;
  if (o->tmp_path) unlink(o->tmp_path);
  pending_set = 0;
  free(o->tmp_path);
  free(o->final_path);
  o->tmp_path = o->final_path = NULL;
}

int cli_flush_stdout(void) {
  if (fflush(stdout) != 0 || ferror(stdout)) {
    if (errno == EPIPE) die_by_sigpipe();
    cli_error("<stdout>: write error: %s", strerror(errno));
    return CLI_EXIT_IO;
  }
  return 0;
}
