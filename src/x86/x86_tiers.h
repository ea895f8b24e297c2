/* The x86-64 tiers, best first, for dispatch.c (UTFXI_ARCH_TIERS): avx512
 * and avx2, each with exactly the features its files are compiled for
 * (cpu.h). One choice per CPU, not per function and CPU family: on Zen 4,
 * Zen 5 and Intel models 207 and 167, no function's avx2 kernel was ahead
 * of its avx512 kernel over the scripts in a second run (the nearest,
 * UTF-16LE -> Latin-1 on Zen 5, 1.08-1.12x in four runs of five, is
 * memory-bound; issue 11). */
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
