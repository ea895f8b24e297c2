/* Shared machinery of the libFuzzer targets (fuzz/fuzz_*.c).
 *
 * A target's checks (a function of the input) run once per kernel tier this
 * CPU supports, scalar first (fz_run_tiers): in scalar's pass every result
 * (fz_convert, fz_length, fz_validate) is recorded, in the other passes each
 * result must equal the recorded one: status, read, written, replaced and
 * output bytes. Since results must be equal, every pass takes the same path
 * through the checks. (Switching tiers once per pass, not once per call,
 * keeps utfx_set_implementation, which probes the CPU, off the hot path.)
 * Each conversion writes into its own exact-size heap allocation (filled with
 * a canary first), so ASan reports any write at or after dst + cap, and the
 * canary catches a write at or after dst + written inside the capacity;
 * sources and destinations start 0-3 units past an aligned address (picked
 * from the input's hash), so SIMD code sees unaligned pointers too. A
 * mismatch or a broken invariant prints what differed and aborts (libFuzzer
 * then saves the input as a crash).
 *
 * The first FZ_CONTROL_BYTES of an input are control bytes (fz_control, below):
 * where the source and the destinations go (an exact heap allocation, ending
 * exactly at a PROT_NONE page, or starting exactly after one, each at any
 * address mod 64), one more capacity and the mode(s) to run it in; the rest is
 * the text. Besides that capacity, every conversion also runs with the exact,
 * exact + slack, one-short and hash-derived capacities (fz_convert_family). */
#ifndef UTFX_FUZZ_COMMON_H
#define UTFX_FUZZ_COMMON_H

#define _DEFAULT_SOURCE /* mmap's MAP_ANONYMOUS under -std=c11 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "utfx.h"
#include "utfx_operations.h"

#include "../tests/support/put_utf8.h" /* the code points of generated inputs */

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define FZ_ASAN 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__)
#define FZ_ASAN 1
#endif
#ifdef FZ_ASAN
#include <sanitizer/asan_interface.h>
#define FZ_POISON(p, n) ASAN_POISON_MEMORY_REGION((p), (n))
#define FZ_UNPOISON(p, n) ASAN_UNPOISON_MEMORY_REGION((p), (n))
#else
#define FZ_POISON(p, n) ((void)(p), (void)(n))
#define FZ_UNPOISON(p, n) ((void)(p), (void)(n))
#endif

#define FZ_CANARY 0xA5

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* What was running, printed with a failure (kept as fields and formatted
 * only then: a snprintf per call would cost a tenth of the run time). */
static struct fz_last {
  const char *op, *run, *what; /* run, what: the decoder target's */
  size_t chunk, call, n, cap, bound;
  unsigned flags;
  utfx_result r;
} fz_last;

static void fz_fail(const char *what, const char *op, const char *tier) {
  const struct fz_last *l = &fz_last;
  fprintf(stderr,
          "utfx fuzz: %s: %s (tier %s; last call: %s%s%s%s n=%zu cap=%zu flags=%u bound=%zu "
          "chunk %zu call %zu -> status %d read %zu written %zu replaced %zu%s%s)\n",
          op, what, tier, l->run ? "run " : "", l->run ? l->run : "", l->run ? ", " : "",
          l->op ? l->op : "?", l->n,
          l->cap, l->flags, l->bound, l->chunk, l->call, (int)l->r.status, l->r.read,
          l->r.written, l->r.replaced, l->what ? "; " : "", l->what ? l->what : "");
  abort();
}

#define FZ_REQUIRE(cond, op, tier)                 \
  do {                                             \
    if (!(cond)) fz_fail(#cond, (op), (tier));     \
  } while (0)

/* 64-bit FNV-1a of the input: the source of the "random" capacity. */
static uint64_t fz_hash(const uint8_t *d, size_t n) {
  uint64_t h = 0xcbf29ce484222325ull;
  size_t i;
  for (i = 0; i < n; i++) h = (h ^ d[i]) * 0x100000001b3ull;
  return h;
}

/* Supported tiers, scalar first; the pass running now. */
static const char *fz_tiers[16];
static size_t fz_ntiers, fz_tier;

static void fz_init_tiers(void) {
  size_t i, n = utfx_implementation_count();
  if (fz_ntiers) return;
  fz_tiers[fz_ntiers++] = "scalar";
  for (i = 0; i < n && fz_ntiers < 16; i++) {
    const char *name = utfx_implementation_name(i);
    if (strcmp(name, "scalar") != 0 && utfx_implementation_supported(name))
      fz_tiers[fz_ntiers++] = name;
  }
}

static void fz_use(size_t t) {
  if (utfx_set_implementation(fz_tiers[t]) != 0) fz_fail("cannot select", "dispatch", fz_tiers[t]);
  fz_tier = t;
}

/* Scalar's results, in call order. */
struct fz_record {
  utfx_result r;
  size_t length;
  unsigned char *bytes;
};
static struct fz_record *fz_log;
static size_t fz_log_len, fz_log_cap, fz_pos;
static uint64_t fz_seed; /* hash of the input: picks destination alignments */

/* True when p[0..n) all hold the canary (a word at a time: the fuzzers'
 * comparison tracing makes a byte loop the most expensive part of a run). */
static int fz_is_canary(const unsigned char *p, size_t n) {
  const uint64_t word = 0x0101010101010101ull * FZ_CANARY;
  size_t i = 0;
  uint64_t diff = 0, v;
  for (; n - i >= 8; i += 8) {
    memcpy(&v, p + i, 8);
    diff |= v ^ word;
  }
  for (; i < n; i++) diff |= p[i] ^ (unsigned)FZ_CANARY;
  return diff == 0;
}

/* ------------------------------------------------------------ placement */

/* The control bytes at the start of every input (missing ones read as 0):
 *   byte 0  bits 0-1 where sources go, bits 2-3 where destinations go:
 *           0 heap (exact allocation, 0-3 units past an aligned address),
 *           1 ending exactly at a PROT_NONE page, 2 starting exactly after
 *           one, 3 the guard side picked per call from the input's hash;
 *           bits 4-5 the mode(s) of the control-capacity run: 0 and 3 both,
 *           1 STRICT, 2 REPLACE; bits 6-7 how byte 3 gives that capacity:
 *           0 full * b3 / 255, 1 b3 itself, 2 full - b3 % 8, 3 full + b3 % 4;
 *   byte 1  the source's offset from the page boundary, bytes (0-63);
 *   byte 2  the destination's offset from the page boundary, bytes (0-63);
 *   byte 3  the capacity parameter.
 * Offsets are rounded down to whole units. With an offset, the bytes between
 * the buffer and the protected page are poisoned for ASan (and, next to a
 * destination, hold the canary), so a kernel that strays there is caught
 * too; offset 0 is the hardware fault. Built without ASan (the long
 * campaign's UBSan build), an offset applies only when bit 7 of its byte is
 * set, so that half the inputs meet the hardware fault. */
#define FZ_CONTROL_BYTES 4
struct fz_control {
  unsigned src_where, dst_where, modes, cap_kind, src_off, dst_off, cap_arg;
};
static struct fz_control fz_ctl;

enum { FZ_HEAP = 0, FZ_END_AT_GUARD = 1, FZ_START_AT_GUARD = 2, FZ_EITHER_GUARD = 3 };

/* Reads the control bytes; returns how many the input had. */
static size_t fz_read_control(const uint8_t *data, size_t size) {
  uint8_t c[FZ_CONTROL_BYTES] = {0};
  size_t k = size < FZ_CONTROL_BYTES ? size : FZ_CONTROL_BYTES;
  if (k) memcpy(c, data, k);
  fz_ctl.src_where = c[0] & 3u;
  fz_ctl.dst_where = c[0] >> 2 & 3u;
  fz_ctl.modes = c[0] >> 4 & 3u;
  fz_ctl.cap_kind = c[0] >> 6;
#ifdef FZ_ASAN
  fz_ctl.src_off = c[1] & 63u;
  fz_ctl.dst_off = c[2] & 63u;
#else /* no ASan to watch the gap: half the inputs put buffers right at the guard */
  fz_ctl.src_off = c[1] & 0x80u ? c[1] & 63u : 0;
  fz_ctl.dst_off = c[2] & 0x80u ? c[2] & 63u : 0;
#endif
  fz_ctl.cap_arg = c[3];
  return k;
}

/* The control capacity for an output of `full` units. */
static size_t fz_control_cap(size_t full) {
  switch (fz_ctl.cap_kind) {
    case 0:
      return (size_t)((double)full * fz_ctl.cap_arg / 255.0);
    case 1:
      return fz_ctl.cap_arg;
    case 2:
      return full > fz_ctl.cap_arg % 8 ? full - fz_ctl.cap_arg % 8 : 0;
    default:
      return full + fz_ctl.cap_arg % 4;
  }
}

/* Guarded arenas, mapped once: [data][PROT_NONE] and [PROT_NONE][data], one
 * pair for sources and one for destinations (each holds one buffer at a
 * time: every buffer is released before the next one of its kind is placed). */
#define FZ_ARENA ((size_t)1 << 20)
static unsigned char *fz_arena[2][2]; /* [0 src, 1 dst][0 end at guard, 1 start after] */

static unsigned char *fz_map_arena(int front) {
  size_t pg = (size_t)sysconf(_SC_PAGESIZE);
  unsigned char *base = mmap(NULL, FZ_ARENA + pg, PROT_READ | PROT_WRITE,
                             MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (base == MAP_FAILED) abort();
  if (mprotect(front ? base : base + FZ_ARENA, pg, PROT_NONE) != 0) abort();
  return front ? base + pg : base;
}

/* A placed buffer: where it is and what to undo. */
struct fz_place {
  unsigned char *p, *gap; /* the buffer; the gap between it and the guard page */
  size_t gap_len;
  void *heap; /* heap placement: the allocation */
  int dst;    /* a destination: its gap holds the canary */
};

/* Places `bytes` (a multiple of unit) for a source (kind 0) or destination
 * (kind 1) as the control bytes say; `call` numbers the call (it picks the
 * side for FZ_EITHER_GUARD and the heap shift, the same on every tier).
 * Release with fz_unplace. */
static struct fz_place fz_place(int kind, size_t bytes, size_t unit, size_t call, uint64_t seed) {
  struct fz_place pl = {NULL, NULL, 0, NULL, 0};
  unsigned where = kind ? fz_ctl.dst_where : fz_ctl.src_where;
  size_t off = (kind ? fz_ctl.dst_off : fz_ctl.src_off) / unit * unit;
  uint64_t pick = seed + (call + 1) * 0x9E3779B97F4A7C15ull;
  if (where == FZ_EITHER_GUARD) where = pick >> 63 ? FZ_START_AT_GUARD : FZ_END_AT_GUARD;
  if (where == FZ_HEAP || bytes + 64 > FZ_ARENA) {
    size_t shift = (size_t)(pick >> 62) * unit;
    if (bytes == 0) return pl;
    pl.heap = malloc(bytes + shift);
    if (!pl.heap) abort();
    pl.p = (unsigned char *)pl.heap + shift;
    return pl;
  }
  {
    int front = where == FZ_START_AT_GUARD;
    unsigned char *arena = fz_arena[kind][front];
    if (!arena) arena = fz_arena[kind][front] = fz_map_arena(front);
    if (front) {
      pl.gap = arena;
      pl.p = arena + off;
    } else {
      pl.p = arena + FZ_ARENA - off - bytes;
      pl.gap = arena + FZ_ARENA - off;
    }
    pl.gap_len = off;
    pl.dst = kind;
    if (kind && off) memset(pl.gap, FZ_CANARY, off);
    FZ_POISON(pl.gap, pl.gap_len);
  }
  return pl;
}

/* Releases a placed buffer; returns 0 when a destination's gap lost its
 * canary (a write before dst or after dst + cap). */
static int fz_unplace(struct fz_place *pl) {
  if (pl->heap) {
    free(pl->heap);
    return 1;
  }
  if (!pl->gap) return 1;
  FZ_UNPOISON(pl->gap, pl->gap_len);
  return !pl->dst || fz_is_canary(pl->gap, pl->gap_len);
}

/* The input's source of n units, placed as the control bytes say. */
static inline struct fz_place fz_place_src(const void *src, size_t n, size_t unit) {
  struct fz_place pl = fz_place(0, n * unit, unit, 0, fz_seed);
  if (n) memcpy(pl.p, src, n * unit);
  return pl;
}

/* The record for this call: appended in scalar's pass, else the next one. */
static struct fz_record *fz_next_record(const char *op) {
  if (fz_tier == 0) {
    if (fz_log_len == fz_log_cap) {
      fz_log_cap = fz_log_cap ? 2 * fz_log_cap : 256;
      fz_log = realloc(fz_log, fz_log_cap * sizeof *fz_log);
      if (!fz_log) abort();
    }
    memset(&fz_log[fz_log_len], 0, sizeof *fz_log);
    fz_pos = fz_log_len + 1;
    return &fz_log[fz_log_len++];
  }
  if (fz_pos >= fz_log_len) fz_fail("more calls than in scalar's pass", op, fz_tiers[fz_tier]);
  return &fz_log[fz_pos++];
}

/* Runs check(text, size) once per tier, scalar first, as described above;
 * the control bytes are read first and not passed on. */
static void fz_run_tiers(void (*check)(const uint8_t *, size_t), const uint8_t *data,
                         size_t size) {
  size_t t, i;
  size_t skip;
  fz_init_tiers();
  memset(&fz_last, 0, sizeof fz_last);
  fz_log_len = 0;
  fz_seed = fz_hash(data, size);
  skip = fz_read_control(data, size);
  data += skip;
  size -= skip;
  for (t = 0; t < fz_ntiers; t++) {
    fz_use(t);
    fz_pos = 0;
    check(data, size);
    if (fz_pos != fz_log_len) fz_fail("fewer calls than in scalar's pass", "", fz_tiers[t]);
  }
  fz_use(0);
  for (i = 0; i < fz_log_len; i++) free(fz_log[i].bytes);
}

/* A private, exact-size copy of n units of `unit` bytes each (NULL for 0). */
static void *fz_copy(const void *src, size_t n, size_t unit) {
  void *p;
  if (n == 0) return NULL;
  p = malloc(n * unit);
  if (!p) abort();
  memcpy(p, src, n * unit);
  return p;
}

/* Every conversion, length and validation of utfx.h through one signature
 * (fz_<op>: wrappers, as a call through a cast function pointer would be
 * undefined), generated from the operation lists (utfx_operations.h), so a
 * new operation has its wrapper here without a line of its own. */
typedef utfx_result (*fz_convert_fn)(const void *, size_t, void *, size_t, unsigned);
typedef size_t (*fz_length_fn)(const void *, size_t);
typedef utfx_result (*fz_validate_fn)(const void *, size_t);

#define FZ_WRAP_CONVERT(from, S, to, T)                                                     \
  static inline utfx_result fz_##from##_to_##to(const void *s, size_t n, void *d,          \
                                                size_t cap, unsigned flags) {              \
    return utfx_convert_##from##_to_##to((const S *)s, n, (T *)d, cap, flags);              \
  }
#define FZ_WRAP_LENGTH(to, from, S)                                                         \
  static inline size_t fz_##to##_length_from_##from(const void *s, size_t n) {             \
    return utfx_##to##_length_from_##from((const S *)s, n);                                 \
  }
#define FZ_WRAP_VALIDATE(enc, S)                                                            \
  static inline utfx_result fz_validate_##enc(const void *s, size_t n) {                   \
    return utfx_validate_##enc((const S *)s, n);                                            \
  }
#define FZ_WRAP_CHECK(op)                                                                   \
  static inline utfx_result fz_##op(const void *s, size_t n) {                             \
    return utfx_##op((const char16_t *)s, n);                                               \
  }
UTFX_CONVERSIONS(FZ_WRAP_CONVERT)
UTFX_LENGTHS(FZ_WRAP_LENGTH)
UTFX_VALIDATIONS(FZ_WRAP_VALIDATE)
UTFX_UTF16_CHECKS(FZ_WRAP_CHECK)

struct fz_output {
  utfx_result r;
  unsigned char *bytes; /* malloc'd copy of the first r.written units (or NULL) */
};

/* Runs fn(src, n, dst, cap, flags) on the current tier and checks it against
 * scalar's; returns the result and a copy of the output (release with
 * free(out.bytes)). */
static struct fz_output fz_convert(const char *op, fz_convert_fn fn, const void *src, size_t n,
                                   size_t unit, size_t cap, unsigned flags) {
  struct fz_output out = {{UTFX_OK, 0, 0, 0}, NULL};
  const char *tier = fz_tiers[fz_tier];
  size_t call = fz_tier == 0 ? fz_log_len : fz_pos; /* the same in every pass */
  struct fz_place pl = fz_place(1, cap * unit, unit, call, fz_seed);
  unsigned char *dst = pl.p;
  struct fz_record *rec;
  utfx_result r;
  if (cap) memset(dst, FZ_CANARY, cap * unit);
  r = fn(src, n, dst, cap, flags);
  fz_last.op = op;
  fz_last.n = n;
  fz_last.cap = cap;
  fz_last.flags = flags;
  fz_last.r = r;
  FZ_REQUIRE(r.written <= cap && r.read <= n, op, tier);
  FZ_REQUIRE(r.status == UTFX_OK || r.status == UTFX_INVALID || r.status == UTFX_DST_FULL, op,
             tier);
  FZ_REQUIRE((r.status == UTFX_OK) == (r.read == n), op, tier);
  FZ_REQUIRE(flags == UTFX_REPLACE || r.replaced == 0, op, tier);
  FZ_REQUIRE(!cap || fz_is_canary(dst + r.written * unit, (cap - r.written) * unit), op,
             tier); /* nothing after `written` */
  rec = fz_next_record(op);
  if (fz_tier == 0) {
    rec->r = r;
    rec->bytes = fz_copy(dst, r.written, unit);
  } else {
    FZ_REQUIRE(r.status == rec->r.status, op, tier);
    FZ_REQUIRE(r.read == rec->r.read, op, tier);
    FZ_REQUIRE(r.written == rec->r.written, op, tier);
    FZ_REQUIRE(r.replaced == rec->r.replaced, op, tier);
    FZ_REQUIRE(r.written == 0 || memcmp(dst, rec->bytes, r.written * unit) == 0, op, tier);
  }
  out.r = r;
  out.bytes = fz_copy(dst, r.written, unit);
  FZ_REQUIRE(fz_unplace(&pl), op, tier); /* nothing before dst or after dst + cap */
  return out;
}

static inline size_t fz_length(const char *op, fz_length_fn fn, const void *src, size_t n) {
  size_t len = fn(src, n);
  struct fz_record *rec = fz_next_record(op);
  if (fz_tier == 0) rec->length = len;
  FZ_REQUIRE(len == rec->length, op, fz_tiers[fz_tier]);
  return len;
}

static inline utfx_result fz_validate(const char *op, fz_validate_fn fn, const void *src, size_t n) {
  utfx_result r = fn(src, n);
  struct fz_record *rec = fz_next_record(op);
  const char *tier = fz_tiers[fz_tier];
  FZ_REQUIRE(r.status == UTFX_OK || r.status == UTFX_INVALID, op, tier);
  FZ_REQUIRE((r.status == UTFX_OK) == (r.read == n) && r.written == 0, op, tier);
  if (fz_tier == 0) rec->r = r;
  FZ_REQUIRE(r.status == rec->r.status && r.read == rec->r.read, op, tier);
  return r;
}

/* The output converted back (STRICT, on every tier) must be the input again;
 * orig_unit is the size of the original's units (the back conversion's
 * destination units). */
static inline void fz_round_trip(const char *op, fz_convert_fn back, const struct fz_output *there,
                                 const void *orig, size_t n, size_t orig_unit) {
  struct fz_output again = fz_convert(op, back, there->bytes, there->r.written, orig_unit, n + 1,
                                      UTFX_STRICT);
  FZ_REQUIRE(again.r.status == UTFX_OK && again.r.written == n, op, "round trip");
  FZ_REQUIRE(n == 0 || memcmp(again.bytes, orig, orig_unit * n) == 0, op, "round trip");
  free(again.bytes);
}

/* The full family check of one conversion with exact length `full`:
 *   - REPLACE with cap = full writes everything (OK, read = n, written = full);
 *   - STRICT agrees with validity (`valid_end` = offset of the first error or
 *     n) unless the target cannot hold a code point (Latin-1, `lossy`);
 *   - every bounded run (full - 1, two hashed caps, and the control bytes'
 *     capacity in the control bytes' modes; with FZ_CAMPAIGN defined only
 *     the last) writes a prefix of the full
 *     output and stops with DST_FULL or the error;
 * and returns the full REPLACE output (release with free). */
static inline struct fz_output fz_convert_family(const char *op, fz_convert_fn fn,
                                                 const void *src, size_t n, size_t unit,
                                                 size_t full, size_t valid_end, int lossy,
                                                 uint64_t h) {
  struct fz_output whole = fz_convert(op, fn, src, n, unit, full, UTFX_REPLACE);
  struct fz_output strict = fz_convert(op, fn, src, n, unit, full + 3, UTFX_STRICT);
  size_t caps[4], k;
  int f;
  if (!lossy) {
    FZ_REQUIRE(whole.r.status == UTFX_OK && whole.r.written == full, op, "length");
    FZ_REQUIRE(strict.r.status == (valid_end == n ? UTFX_OK : UTFX_INVALID), op, "strict");
    FZ_REQUIRE(strict.r.read == valid_end, op, "strict offset");
  } else {
    FZ_REQUIRE(whole.r.status != UTFX_DST_FULL && strict.r.status != UTFX_DST_FULL, op, "lossy");
    FZ_REQUIRE(strict.r.read <= valid_end, op, "lossy strict offset");
    FZ_REQUIRE(whole.r.status != UTFX_OK || whole.r.written == full, op, "lossy length");
  }
  FZ_REQUIRE(strict.r.written <= whole.r.written, op, "strict prefix");
  FZ_REQUIRE(strict.r.written == 0 ||
                 memcmp(strict.bytes, whole.bytes, strict.r.written * unit) == 0,
             op, "strict prefix");
  caps[0] = full ? full - 1 : 0;
  caps[1] = (size_t)(h % (full + 1));
  caps[2] = (size_t)(h >> 32) % (full / 2 + 1);
  caps[3] = fz_control_cap(full);
  /* The campaign build (make fuzz-campaign) leaves the capacities to the
   * fuzzer: only the control bytes' one, so an input costs a third. */
#ifdef FZ_CAMPAIGN
  k = 3;
#else
  k = 0;
#endif
  for (; k < 4; k++) {
    for (f = 0; f < 2; f++) {
      struct fz_output part;
      if (k == 3 && (fz_ctl.modes == 1 + !f)) continue; /* the control run's modes only */
      part = fz_convert(op, fn, src, n, unit, caps[k], (unsigned)f);
      FZ_REQUIRE(part.r.written <= whole.r.written, op, "bounded prefix");
      FZ_REQUIRE(part.r.written == 0 ||
                     memcmp(part.bytes, whole.bytes, part.r.written * unit) == 0,
                 op, "bounded prefix");
      if (f == UTFX_REPLACE && !lossy && caps[k] < full)
        FZ_REQUIRE(part.r.status == UTFX_DST_FULL, op, "bounded status");
      if (f == UTFX_REPLACE && !lossy && caps[k] >= full)
        FZ_REQUIRE(part.r.status == UTFX_OK && part.r.written == full, op, "ample cap");
      free(part.bytes);
    }
  }
  free(strict.bytes);
  return whole;
}

#endif
