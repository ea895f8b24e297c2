#define _DEFAULT_SOURCE
#include "guard.h"

#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

/* guard_alloc:       [data pages, user buffer ends at their end][PROT_NONE]
 * guard_alloc_front: [PROT_NONE][data pages, user buffer starts at their start] */

static size_t page_size(void) { return (size_t)sysconf(_SC_PAGESIZE); }
static size_t data_pages(size_t size) {
  size_t pg = page_size();
  return (size + pg - 1) / pg * pg;
}

static unsigned char *map(size_t len) {
  void *base = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (base == MAP_FAILED) {
    perror("guard_alloc: mmap");
    abort();
  }
  return base;
}

void *guard_alloc(size_t size) {
  size_t pg = page_size(), data = data_pages(size);
  unsigned char *base = map(data + pg);
  if (mprotect(base + data, pg, PROT_NONE) != 0) abort();
  return base + data - size;
}

void *guard_alloc_front(size_t size) {
  size_t pg = page_size(), data = data_pages(size);
  unsigned char *base = map(data + pg);
  if (mprotect(base, pg, PROT_NONE) != 0) abort();
  return base + pg;
}

void guard_free(void *p, size_t size) {
  size_t data = data_pages(size);
  if (p) munmap((unsigned char *)p + size - data, data + page_size());
}

void guard_free_front(void *p, size_t size) {
  size_t pg = page_size();
  if (p) munmap((unsigned char *)p - pg, data_pages(size) + pg);
}

static uint64_t splitmix64(uint64_t *x) {
  uint64_t z = (*x += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

void rng_seed(test_rng *r, uint64_t seed) {
  int i;
  for (i = 0; i < 4; i++) r->s[i] = splitmix64(&seed);
}

static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

uint64_t rng_next(test_rng *r) {
  uint64_t *s = r->s, result = rotl(s[1] * 5, 7) * 9, t = s[1] << 17;
  s[2] ^= s[0];
  s[3] ^= s[1];
  s[1] ^= s[2];
  s[0] ^= s[3];
  s[2] ^= t;
  s[3] = rotl(s[3], 45);
  return result;
}

uint64_t rng_below(test_rng *r, uint64_t bound) { return bound ? rng_next(r) % bound : 0; }
