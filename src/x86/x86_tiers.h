/* The x86-64 tiers, best first, for dispatch.c (UTFXI_ARCH_TIERS): avx512
 * and avx2, each with exactly the features its files are compiled for
 * (cpu.h). One choice per CPU, not per function and CPU family: where
 * measured, no function's avx2 kernel was reliably ahead of its avx512
 * kernel (docs/perf-decisions.md, 'One tier per CPU'; issue 11). */
#ifndef UTFX_X86_TIERS_H
#define UTFX_X86_TIERS_H

#include "../cpu.h"
#include "../internal.h"

extern const struct utfxi_kernels utfxi_avx2_kernels;
extern const struct utfxi_kernels utfxi_avx512_kernels;

/* The AVX-512 emulation test build (`make test-avx512-emu`) compiles the
 * avx512 kernels as plain C over AVX2 (tests/emu/avx512_emu.h), so that tier
 * runs wherever the avx2 tier does. Never defined for the real library. */
#ifdef UTFX_AVX512_EMULATED
#define UTFXI_AVX512_RUNS_ON UTFXI_TIER_AVX2
#else
#define UTFXI_AVX512_RUNS_ON UTFXI_TIER_AVX512
#endif

#define UTFXI_ARCH_TIERS                         \
  {&utfxi_avx512_kernels, UTFXI_AVX512_RUNS_ON}, \
  {&utfxi_avx2_kernels, UTFXI_TIER_AVX2},

#endif
