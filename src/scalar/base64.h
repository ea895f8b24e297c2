/* Base64 between the tiers: the scalar steps every SIMD kernel hands its
 * unusual blocks (whitespace, padding, errors, a filling destination) and its
 * tails to, so that the decoding rules live in one place (base64_scalar.c). */
#ifndef UTFX_SCALAR_BASE64_H
#define UTFX_SCALAR_BASE64_H

#include "../internal.h"

#include <stdatomic.h>

/* Where a decode stands between steps: source offset i, bytes written w,
 * at a group boundary (no character of a group pending). */
struct utfxi_b64_at {
  size_t i, w;
};

/* Decodes src[at->i..n) (bytes, or UTF-16 units when wide) into
 * dst[at->w..cap) by the rules of `flags` (include/utfx.h), as if the whole
 * call had run in scalar code from offset 0. Returns 0 with *at moved on
 * when it reaches a group boundary at or after offset `pause` (the caller
 * may take blocks in vector code from there and call again), or, when the
 * call is over, 1 + its status with its read and written in *at
 * (utfxi_b64_result). dst NULL: counts the bytes only, as if cap were
 * unbounded (the length functions). (Not a utfx_result through a pointer:
 * the callers' copies of it, whole vectors, waited for the scalar stores
 * that wrote it, a store-forwarding stall per call.) */
int utfxi_base64_decode_steps(const void *src, size_t n, int wide, unsigned char *dst, size_t cap,
                              unsigned flags, size_t pause, struct utfxi_b64_at *at);

/* The call's result from utfxi_base64_decode_steps' nonzero return. (The
 * empty asm keeps the two loads scalar: gcc would read the pair, stored as
 * two words, with one vector load, which waits for both stores.) */
static inline utfx_result utfxi_b64_result(int over, const struct utfxi_b64_at *at) {
  size_t i = at->i, w = at->w;
#if defined(__GNUC__) || defined(__clang__)
  __asm__("" : "+r"(i), "+r"(w));
#endif
  return utfxi_result((utfx_status)(over - 1), i, w, 0);
}

/* 0 standard, 1 url, 2 both: the row of utfxi_b64_class for `flags`. */
static inline unsigned utfxi_b64_alphabet(unsigned flags) {
  if (flags & (UTFX_BASE64_NODE | UTFX_BASE64_ANY_ALPHABET)) return 2;
  return (flags & UTFX_BASE64_URL) ? 1 : 0;
}

/* Encoding in lines (utfx_base64_encode_lines) of L >= 1 characters, from
 * column c <= L. The line breaks (each a separator) k >= 1 characters bring: one before each
 * character at a line position that is a positive multiple of L, i.e.
 * (c + k - 1) / L, computed without overflow. */
static inline size_t utfxi_b64_feeds(size_t c, size_t k, size_t L) {
  return k == 0 ? 0 : (k - 1) / L + ((k - 1) % L >= L - c);
}

/* The column after k characters from column c (1..L when k >= 1). */
static inline size_t utfxi_b64_column_after(size_t c, size_t k, size_t L) {
  size_t t;
  if (k == 0) return c;
  t = (k - 1) % L;
  return t >= L - c ? t - (L - c) + 1 : t + c + 1;
}

/* The bytes between two lines: "\n", or "\r\n" with UTFX_BASE64_CRLF. */
static inline size_t utfxi_b64_sep_len(unsigned flags) {
  return (flags & UTFX_BASE64_CRLF) ? 2 : 1;
}

/* The most characters that fit in cap bytes from column c: in the stream of
 * lines of L characters and a separator of s bytes (L + s slots, the first c
 * taken), the character slots among [c, c + cap). L < SIZE_MAX / 2. */
static inline size_t utfxi_b64_chars_fit(size_t c, size_t cap, size_t L, size_t s) {
  size_t m = L + s, r = cap % m, in_line;
  if (c + r <= L)
    in_line = r;
  else if (c + r <= m)
    in_line = L - c;
  else
    in_line = L - c + (c + r - m);
  return cap / m * L + in_line;
}

/* What utfx_base64_encode_lines writes at most: the bytes src[0..*take) it
 * encodes (whole groups, or all of them) and their characters, for n bytes,
 * cap bytes of room, line length L >= 1 and column c. */
static inline size_t utfxi_b64_lines_plan(size_t n, size_t cap, unsigned flags, size_t L,
                                          size_t c, size_t *take) {
  size_t fit = utfxi_b64_chars_fit(c, cap, L, utfxi_b64_sep_len(flags)), groups = n / 3, chars;
  if (groups > fit / 4) {
    *take = fit / 4 * 3;
    return fit / 4 * 4;
  }
  chars = groups * 4;
  if (n % 3) {
    size_t last = (flags & UTFX_BASE64_NO_PADDING) ? n % 3 + 1 : 4;
    if (fit - chars >= last) {
      *take = n;
      return chars + last;
    }
  }
  *take = groups * 3;
  return chars;
}

/* Line lengths beyond any output are one long line (the arithmetic above
 * needs L + 1). */
static inline size_t utfxi_b64_line_len(size_t L) { return L > SIZE_MAX / 2 ? SIZE_MAX / 2 : L; }

/* Vector encoding of a long input (UTFXI_B64_AHEAD_FROM bytes on: its output
 * leaves L1): each store first asks for the cache line UTFXI_B64_AHEAD bytes
 * on, so that the store finds its line there; without, the stores wait for
 * their lines from L2 (docs/perf-decisions.md, 'Base64 encode: the output's
 * lines fetched ahead'). A prefetch for a write where the tier has one. */
#define UTFXI_B64_AHEAD 512
#define UTFXI_B64_AHEAD_FROM (12 * 1024)
/* Whether the avx512 encode, and the avx512 decode from L2, ask for their
 * output lines ahead: on Intel (model 167) it paid, on AMD Zen 4 and Zen 5
 * the hardware's own stream does better without ('Base64 avx512 encode on
 * AMD: no output prefetch', 'Base64 avx512 decode on AMD: no output
 * prefetch from L2'). dispatch.c sets it from the CPU's vendor before any
 * kernel runs. */
extern _Atomic unsigned char utfxi_b64_store_ahead;
static inline int utfxi_b64_ahead_here(size_t n) {
  return n >= UTFXI_B64_AHEAD_FROM &&
         atomic_load_explicit(&utfxi_b64_store_ahead, memory_order_relaxed);
}
/* From this many input bytes (output 21 MiB: with the input more than a
 * 32 MiB L3 holds) the avx512 encode writes its blocks with non-temporal
 * stores: ordinary stores would first read each output line from memory.
 * Below, where the output may stay in the cache, they are the faster
 * (docs/perf-decisions.md, 'Base64 avx512 encode beyond the cache:
 * non-temporal stores'). */
#define UTFXI_B64_STREAM_FROM ((size_t)16 << 20)
static inline void utfxi_b64_ahead(const void *out) {
  __builtin_prefetch((const char *)out + UTFXI_B64_AHEAD, 1, 3);
}
/* The same for the three cache lines of a step's 129-192 output bytes. */
static inline void utfxi_b64_ahead3(const void *out) {
  utfxi_b64_ahead(out);
  utfxi_b64_ahead((const char *)out + 64);
  utfxi_b64_ahead((const char *)out + 128);
}

#endif
