/* CPU features that select a kernel tier. Only cpu.c probes the CPU. */
#ifndef UTFX_CPU_H
#define UTFX_CPU_H

#include <stddef.h>
#include <stdint.h>

#define UTFXI_CPU_AVX2 (1u << 0)    /* AVX + AVX2 with OS-enabled YMM state */
#define UTFXI_CPU_BMI1 (1u << 1)
#define UTFXI_CPU_BMI2 (1u << 2)
#define UTFXI_CPU_LZCNT (1u << 3)
#define UTFXI_CPU_POPCNT (1u << 4)
#define UTFXI_CPU_AVX512F (1u << 5) /* with OS-enabled opmask and ZMM state */
#define UTFXI_CPU_AVX512BW (1u << 6)
#define UTFXI_CPU_AVX512VL (1u << 7)
#define UTFXI_CPU_AVX512VBMI (1u << 8)
#define UTFXI_CPU_AVX512VBMI2 (1u << 9)
#define UTFXI_CPU_NEON (1u << 10)
#define UTFXI_CPU_AVX512CD (1u << 11) /* (VPLZCNTD: every CPU with VBMI2 has it) */
#define UTFXI_CPU_FEATURE_COUNT 12

/* Exactly the features each x86 tier's files are compiled for (UTFX_AVX2_FLAGS,
 * UTFX_AVX512_FLAGS in sources.mk); NEON is part of every AArch64 CPU. */
#define UTFXI_TIER_AVX2 \
  (UTFXI_CPU_AVX2 | UTFXI_CPU_BMI1 | UTFXI_CPU_BMI2 | UTFXI_CPU_LZCNT | UTFXI_CPU_POPCNT)
#define UTFXI_TIER_AVX512                                                        \
  (UTFXI_TIER_AVX2 | UTFXI_CPU_AVX512F | UTFXI_CPU_AVX512BW | UTFXI_CPU_AVX512VL | \
   UTFXI_CPU_AVX512VBMI | UTFXI_CPU_AVX512VBMI2 | UTFXI_CPU_AVX512CD)

/* Detected features (a mask of UTFXI_CPU_*); pure, so calling it from several
 * threads at once is harmless. */
uint32_t utfxi_cpu_detect(void);
/* Whether the CPU is Intel's ("GenuineIntel"): not a feature, a tuning
 * choice (utfxi_b64_store_ahead, scalar/base64.h). */
int utfxi_cpu_intel(void);
/* Name of feature bit i (0 <= i < UTFXI_CPU_FEATURE_COUNT). */
const char *utfxi_cpu_feature_name(unsigned i);

#endif
