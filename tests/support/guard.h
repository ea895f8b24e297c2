/* Test support: guard-page buffers and a seeded random generator.
 *
 * guard_alloc(size) returns a buffer whose last byte is immediately followed
 * by a PROT_NONE page, so any read or write one byte past the end faults;
 * guard_alloc_front(size) puts the protected page right before the first
 * byte instead. Release them with guard_free / guard_free_front and the same
 * size. size may be 0 (the
 * pointer is then the protected boundary itself: any access faults).
 * For typed buffers, pass size = count * sizeof(unit): the end stays exact
 * as long as the size is a multiple of the unit's alignment. */
#ifndef UTFX_TESTS_GUARD_H
#define UTFX_TESTS_GUARD_H

#include <stddef.h>
#include <stdint.h>

void *guard_alloc(size_t size);
void *guard_alloc_front(size_t size);
void guard_free(void *p, size_t size);
void guard_free_front(void *p, size_t size);

/* splitmix64-seeded xoshiro256**: fast, reproducible from one seed. */
typedef struct {
  uint64_t s[4];
} test_rng;
void rng_seed(test_rng *r, uint64_t seed);
uint64_t rng_next(test_rng *r);
/* Uniform in [0, bound). */
uint64_t rng_below(test_rng *r, uint64_t bound);

#endif
