/* What the machine allows a kernel cell: see limit.c. Both have the shape of
 * a bench_kernel (suites.h); n is in bytes. */
#ifndef UTFX_BENCH_LIMIT_H
#define UTFX_BENCH_LIMIT_H

#include <stddef.h>

/* Reads n bytes of src once with the widest loads the CPU has. */
size_t bench_read_once(const void *state, const void *src, size_t n, void *dst, size_t cap);
/* Reads n bytes of src as bench_read_once does while storing cap bytes at
 * dst, in proportion (the traffic of a kernel of that output size). */
size_t bench_read_write_once(const void *state, const void *src, size_t n, void *dst,
                             size_t cap);
/* memcpy of n bytes from src to dst. */
size_t bench_memcpy_once(const void *state, const void *src, size_t n, void *dst, size_t cap);
/* The load width bench_read_once uses here: "avx512", "avx2" or "u64". */
const char *bench_read_width(void);

#endif
