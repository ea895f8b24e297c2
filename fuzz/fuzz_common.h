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
 * The whole input is text; the capacities tried (exact, exact + slack, one
 * short, and one derived from a hash of the input) need no control bytes, so
 * corpus files stay plain text. */
#ifndef UTFX_FUZZ_COMMON_H
#define UTFX_FUZZ_COMMON_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "utfx.h"

#define FZ_CANARY 0xA5

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* What was running: printed with a failure. */
static char fz_context[256];

static void fz_fail(const char *what, const char *op, const char *tier) {
  fprintf(stderr, "utfx fuzz: %s: %s (tier %s; last call: %s)\n", op, what, tier, fz_context);
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

/* Runs check(data, size) once per tier, scalar first, as described above. */
static void fz_run_tiers(void (*check)(const uint8_t *, size_t), const uint8_t *data,
                         size_t size) {
  size_t t, i;
  fz_init_tiers();
  fz_log_len = 0;
  fz_seed = fz_hash(data, size);
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

/* The same, placed `shift` units after the start of its allocation, so
 * kernels also see sources and destinations that are not 16-byte aligned;
 * the end stays exact (ASan still sees a read or write past it). Release
 * with fz_free_shifted and the same unit and shift. */
static void *fz_alloc_shifted(size_t n, size_t unit, size_t shift) {
  unsigned char *base;
  if (n == 0) return NULL;
  base = malloc((n + shift) * unit);
  if (!base) abort();
  return base + shift * unit;
}

static void fz_free_shifted(void *p, size_t unit, size_t shift) {
  if (p) free((unsigned char *)p - shift * unit);
}

static void *fz_copy_shifted(const void *src, size_t n, size_t unit, size_t shift) {
  void *p = fz_alloc_shifted(n, unit, shift);
  if (n) memcpy(p, src, n * unit);
  return p;
}


/* Conversions through one signature (wrappers: no function pointer casts). */
typedef utfx_result (*fz_convert_fn)(const void *, size_t, void *, size_t, unsigned);
typedef size_t (*fz_length_fn)(const void *, size_t);
typedef utfx_result (*fz_validate_fn)(const void *, size_t);

#define FZ_WRAP_CONVERT(from, S, to, T)                                                     \
  static utfx_result fz_##from##_to_##to(const void *s, size_t n, void *d, size_t cap,     \
                                         unsigned flags) {                                 \
    return utfx_convert_##from##_to_##to((const S *)s, n, (T *)d, cap, flags);              \
  }
#define FZ_WRAP_LENGTH(to, from, S) \
  static size_t fz_##to##_length_from_##from(const void *s, size_t n) {                    \
    return utfx_##to##_length_from_##from((const S *)s, n);                                 \
  }
#define FZ_WRAP_VALIDATE(enc, S) \
  static utfx_result fz_validate_##enc(const void *s, size_t n) {                           \
    return utfx_validate_##enc((const S *)s, n);                                             \
  }

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
  size_t shift = (size_t)((fz_seed + call * 0x9E3779B97F4A7C15ull) >> 62);
  unsigned char *dst = fz_alloc_shifted(cap, unit, shift);
  struct fz_record *rec;
  utfx_result r;
  size_t i;
  if (cap) memset(dst, FZ_CANARY, cap * unit);
  r = fn(src, n, dst, cap, flags);
  snprintf(fz_context, sizeof fz_context,
           "%s n=%zu cap=%zu flags=%u -> status %d read %zu written %zu replaced %zu", op, n, cap,
           flags, (int)r.status, r.read, r.written, r.replaced);
  FZ_REQUIRE(r.written <= cap && r.read <= n, op, tier);
  FZ_REQUIRE(r.status == UTFX_OK || r.status == UTFX_INVALID || r.status == UTFX_DST_FULL, op,
             tier);
  FZ_REQUIRE((r.status == UTFX_OK) == (r.read == n), op, tier);
  FZ_REQUIRE(flags == UTFX_REPLACE || r.replaced == 0, op, tier);
  for (i = r.written * unit; i < cap * unit; i++)
    FZ_REQUIRE(dst[i] == FZ_CANARY, op, tier); /* nothing after `written` */
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
  fz_free_shifted(dst, unit, shift);
  return out;
}

static size_t fz_length(const char *op, fz_length_fn fn, const void *src, size_t n) {
  size_t len = fn(src, n);
  struct fz_record *rec = fz_next_record(op);
  if (fz_tier == 0) rec->length = len;
  FZ_REQUIRE(len == rec->length, op, fz_tiers[fz_tier]);
  return len;
}

static utfx_result fz_validate(const char *op, fz_validate_fn fn, const void *src, size_t n) {
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
 *   - every bounded run (full - 1, a hashed cap) writes a prefix of the full
 *     output and stops with DST_FULL or the error;
 * and returns the full REPLACE output (release with free). */
static inline struct fz_output fz_convert_family(const char *op, fz_convert_fn fn,
                                                 const void *src, size_t n, size_t unit,
                                                 size_t full, size_t valid_end, int lossy,
                                                 uint64_t h) {
  struct fz_output whole = fz_convert(op, fn, src, n, unit, full, UTFX_REPLACE);
  struct fz_output strict = fz_convert(op, fn, src, n, unit, full + 3, UTFX_STRICT);
  size_t caps[3], k;
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
  for (k = 0; k < 3; k++) {
    for (f = 0; f < 2; f++) {
      struct fz_output part = fz_convert(op, fn, src, n, unit, caps[k], (unsigned)f);
      FZ_REQUIRE(part.r.written <= whole.r.written, op, "bounded prefix");
      FZ_REQUIRE(part.r.written == 0 ||
                     memcmp(part.bytes, whole.bytes, part.r.written * unit) == 0,
                 op, "bounded prefix");
      if (f == UTFX_REPLACE && !lossy && caps[k] < full)
        FZ_REQUIRE(part.r.status == UTFX_DST_FULL, op, "bounded status");
      free(part.bytes);
    }
  }
  free(strict.bytes);
  return whole;
}

#endif
