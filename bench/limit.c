/* The machine's limit for a kernel cell (issue 34): reading the cell's input
 * once with the widest loads this CPU has; memcpy of the cell's output; and
 * both at once, reading the input while storing as many bytes as the output
 * has (timed apart, suite_kernels.c). The limit of a cell is input bytes /
 * the largest of the three: no kernel that reads all of its input and
 * writes all of its output can beat it on this machine. The third binds
 * narrowing kernels: their stores' lines come from and go back to the
 * cache the input streams from (docs/perf-decisions.md, 'The limit of
 * narrowing kernels'). */
#include "limit.h"

#include <stdint.h>
#include <string.h>

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
#define LIMIT_X86 1
#endif

/* Four independent accumulators: the loop is bound by loads, not by a chain
 * of ORs. The OR of everything is returned so the loads cannot be dropped. */
static size_t read_u64(const unsigned char *p, size_t n) {
  uint64_t a = 0, b = 0, c = 0, d = 0, w[4];
  size_t i = 0;
  for (; i + 32 <= n; i += 32) {
    memcpy(w, p + i, 32);
    a |= w[0], b |= w[1], c |= w[2], d |= w[3];
  }
  for (; i < n; i++) a |= p[i];
  return (size_t)(a | b | c | d);
}

#ifdef LIMIT_X86
/* The vector loops start with one unaligned vector and go on from the next
 * vector boundary: a load across two cache lines costs two, and the limit is
 * the best a reader can do. */
__attribute__((target("avx2"))) static size_t read_avx2(const unsigned char *p, size_t n) {
  __m256i a = _mm256_setzero_si256(), b = a, c = a, d = a;
  size_t i = 0;
  if (n >= 256) {
    a = _mm256_loadu_si256((const __m256i *)(const void *)p);
    i = 32 - (size_t)((uintptr_t)p % 32);
  }
  for (; i + 128 <= n; i += 128) {
    a = _mm256_or_si256(a, _mm256_loadu_si256((const __m256i *)(const void *)(p + i)));
    b = _mm256_or_si256(b, _mm256_loadu_si256((const __m256i *)(const void *)(p + i + 32)));
    c = _mm256_or_si256(c, _mm256_loadu_si256((const __m256i *)(const void *)(p + i + 64)));
    d = _mm256_or_si256(d, _mm256_loadu_si256((const __m256i *)(const void *)(p + i + 96)));
  }
  a = _mm256_or_si256(_mm256_or_si256(a, b), _mm256_or_si256(c, d));
  {
    size_t r = (size_t)_mm256_movemask_epi8(a) + read_u64(p + i, n - i);
    _mm256_zeroupper();
    return r;
  }
}

__attribute__((target("avx512f,avx512bw"))) static size_t read_avx512(const unsigned char *p,
                                                                      size_t n) {
  __m512i a = _mm512_setzero_si512(), b = a, c = a, d = a;
  size_t i = 0;
  if (n >= 512) {
    a = _mm512_loadu_si512((const void *)p);
    i = 64 - (size_t)((uintptr_t)p % 64);
  }
  for (; i + 512 <= n; i += 512) { /* a | x | y in one VPTERNLOG */
    a = _mm512_ternarylogic_epi64(a, _mm512_loadu_si512((const void *)(p + i)),
                                  _mm512_loadu_si512((const void *)(p + i + 64)), 0xFE);
    b = _mm512_ternarylogic_epi64(b, _mm512_loadu_si512((const void *)(p + i + 128)),
                                  _mm512_loadu_si512((const void *)(p + i + 192)), 0xFE);
    c = _mm512_ternarylogic_epi64(c, _mm512_loadu_si512((const void *)(p + i + 256)),
                                  _mm512_loadu_si512((const void *)(p + i + 320)), 0xFE);
    d = _mm512_ternarylogic_epi64(d, _mm512_loadu_si512((const void *)(p + i + 384)),
                                  _mm512_loadu_si512((const void *)(p + i + 448)), 0xFE);
  }
  for (; i + 64 <= n; i += 64) a = _mm512_or_si512(a, _mm512_loadu_si512((const void *)(p + i)));
  a = _mm512_or_si512(_mm512_or_si512(a, b), _mm512_or_si512(c, d));
  {
    size_t r = (size_t)_mm512_movepi8_mask(a) + read_u64(p + i, n - i);
    _mm256_zeroupper();
    return r;
  }
}

/* Reads n bytes at p as read_avx2 / read_avx512 do, a block of four
 * vectors a step, and stores m bytes at q in order as it goes: after each
 * block as many whole vectors as bring the stores to the block's share of
 * m (a running count, acc, of input bytes times m). The stored bytes are
 * the block's first vector: what they hold does not matter. */
#define RW_STORES(V, store, first)                                                    \
  for (acc += (V) * 4 * m; acc >= (V) * n && w + (V) <= m; acc -= (V) * n, w += (V)) \
  store(q + w, first)

__attribute__((target("avx2"))) static size_t rw_avx2(const unsigned char *p, size_t n,
                                                      unsigned char *q, size_t m) {
  __m256i a = _mm256_setzero_si256(), b = a, c = a, d = a;
  size_t i = (size_t)(-(uintptr_t)p % 32), w = 0, acc = 0, r = read_u64(p, i); /* (aligned) */
  for (; i + 128 <= n; i += 128) {
    __m256i x = _mm256_loadu_si256((const __m256i *)(const void *)(p + i));
    a = _mm256_or_si256(a, x);
    b = _mm256_or_si256(b, _mm256_loadu_si256((const __m256i *)(const void *)(p + i + 32)));
    c = _mm256_or_si256(c, _mm256_loadu_si256((const __m256i *)(const void *)(p + i + 64)));
    d = _mm256_or_si256(d, _mm256_loadu_si256((const __m256i *)(const void *)(p + i + 96)));
#define RW_STORE256(at, v) _mm256_storeu_si256((__m256i *)(void *)(at), v)
    RW_STORES(32, RW_STORE256, x);
#undef RW_STORE256
  }
  a = _mm256_or_si256(_mm256_or_si256(a, b), _mm256_or_si256(c, d));
  if (w < m) memset(q + w, 0, m - w);
  r += (size_t)_mm256_movemask_epi8(a) + read_u64(p + i, n - i);
  _mm256_zeroupper();
  return r;
}

__attribute__((target("avx512f,avx512bw"))) static size_t rw_avx512(const unsigned char *p,
                                                                    size_t n, unsigned char *q,
                                                                    size_t m) {
  __m512i a = _mm512_setzero_si512(), b = a;
  size_t i = (size_t)(-(uintptr_t)p % 64), w = 0, acc = 0, r = read_u64(p, i); /* (aligned) */
  for (; i + 256 <= n; i += 256) {
    __m512i x = _mm512_loadu_si512((const void *)(p + i));
    a = _mm512_ternarylogic_epi64(a, x, _mm512_loadu_si512((const void *)(p + i + 64)), 0xFE);
    b = _mm512_ternarylogic_epi64(b, _mm512_loadu_si512((const void *)(p + i + 128)),
                                  _mm512_loadu_si512((const void *)(p + i + 192)), 0xFE);
#define RW_STORE512(at, v) _mm512_storeu_si512((void *)(at), v)
    RW_STORES(64, RW_STORE512, x);
#undef RW_STORE512
  }
  a = _mm512_or_si512(a, b);
  if (w < m) memset(q + w, 0, m - w);
  r += (size_t)_mm512_movepi8_mask(a) + read_u64(p + i, n - i);
  _mm256_zeroupper();
  return r;
}
#endif

const char *bench_read_width(void) {
#ifdef LIMIT_X86
  if (__builtin_cpu_supports("avx512bw")) return "avx512";
  if (__builtin_cpu_supports("avx2")) return "avx2";
#endif
  return "u64";
}

size_t bench_read_once(const void *state, const void *src, size_t n, void *dst, size_t cap) {
  (void)state, (void)dst, (void)cap;
#ifdef LIMIT_X86
  if (__builtin_cpu_supports("avx512bw")) return read_avx512(src, n);
  if (__builtin_cpu_supports("avx2")) return read_avx2(src, n);
#endif
  return read_u64(src, n);
}

size_t bench_read_write_once(const void *state, const void *src, size_t n, void *dst,
                             size_t cap) {
  (void)state;
#ifdef LIMIT_X86
  if (__builtin_cpu_supports("avx512bw")) return rw_avx512(src, n, dst, cap);
  if (__builtin_cpu_supports("avx2")) return rw_avx2(src, n, dst, cap);
#endif
  memset(dst, 0, cap);
  return read_u64(src, n);
}

size_t bench_memcpy_once(const void *state, const void *src, size_t n, void *dst, size_t cap) {
  (void)state, (void)cap;
  memcpy(dst, src, n);
  return n;
}
