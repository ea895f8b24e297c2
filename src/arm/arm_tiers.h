/* The AArch64 tiers, best first, for dispatch.c (UTFXI_ARCH_TIERS): neon,
 * which every little-endian AArch64 CPU has (cpu.c). */
#ifndef UTFX_ARM_TIERS_H
#define UTFX_ARM_TIERS_H

#include "../cpu.h"
#include "../internal.h"

extern const struct utfxi_kernels utfxi_neon_kernels;

#define UTFXI_ARCH_TIERS {&utfxi_neon_kernels, UTFXI_CPU_NEON},

#endif
