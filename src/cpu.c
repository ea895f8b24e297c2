/* CPU feature detection: CPUID + XGETBV on x86-64 (an OS that does not save
 * the YMM / ZMM state disables the tiers that need it); NEON is baseline on
 * little-endian AArch64. */
#include "cpu.h"

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <cpuid.h>

static uint64_t xgetbv0(void) {
  uint32_t lo, hi;
  __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
  return (uint64_t)hi << 32 | lo;
}

uint32_t utfxi_cpu_detect(void) {
  unsigned a, b, c, d, max_leaf;
  uint32_t f = 0;
  uint64_t xcr0 = 0;
  int os_ymm, os_zmm;
  if (!__get_cpuid(0, &max_leaf, &b, &c, &d)) return 0;
  if (!__get_cpuid(1, &a, &b, &c, &d)) return 0;
  if (c & (1u << 23)) f |= UTFXI_CPU_POPCNT;
  if ((c & (1u << 27)) && (c & (1u << 28))) xcr0 = xgetbv0(); /* OSXSAVE and AVX */
  os_ymm = (xcr0 & 0x6) == 0x6;                                /* XMM | YMM */
  os_zmm = os_ymm && (xcr0 & 0xE0) == 0xE0;                    /* opmask | ZMM_Hi256 | Hi16_ZMM */
  if (max_leaf >= 7) {
    __cpuid_count(7, 0, a, b, c, d);
    if ((b & (1u << 5)) && os_ymm) f |= UTFXI_CPU_AVX2;
    if (b & (1u << 3)) f |= UTFXI_CPU_BMI1;
    if (b & (1u << 8)) f |= UTFXI_CPU_BMI2;
    if (os_zmm) {
      if (b & (1u << 16)) f |= UTFXI_CPU_AVX512F;
      if (b & (1u << 28)) f |= UTFXI_CPU_AVX512CD;
      if (b & (1u << 30)) f |= UTFXI_CPU_AVX512BW;
      if (b & (1u << 31)) f |= UTFXI_CPU_AVX512VL;
      if (c & (1u << 1)) f |= UTFXI_CPU_AVX512VBMI;
      if (c & (1u << 6)) f |= UTFXI_CPU_AVX512VBMI2;
    }
  }
  if (__get_cpuid(0x80000001, &a, &b, &c, &d) && (c & (1u << 5))) f |= UTFXI_CPU_LZCNT;
  return f;
}

int utfxi_cpu_intel(void) {
  unsigned a, b, c, d;
  return __get_cpuid(0, &a, &b, &c, &d) && b == 0x756E6547u && d == 0x49656E69u &&
         c == 0x6C65746Eu; /* "GenuineIntel" */
}
#elif defined(__aarch64__) && defined(__ARM_NEON) && \
    (!defined(__BYTE_ORDER__) || __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__)
uint32_t utfxi_cpu_detect(void) { return UTFXI_CPU_NEON; }
int utfxi_cpu_intel(void) { return 0; }
#else
uint32_t utfxi_cpu_detect(void) { return 0; }
int utfxi_cpu_intel(void) { return 0; }
#endif

const char *utfxi_cpu_feature_name(unsigned i) {
  static const char *const names[UTFXI_CPU_FEATURE_COUNT] = {
      "avx2",     "bmi1",     "bmi2",       "lzcnt",       "popcnt", "avx512f",
      "avx512bw", "avx512vl", "avx512vbmi", "avx512vbmi2", "neon",  "avx512cd"};
  return i < UTFXI_CPU_FEATURE_COUNT ? names[i] : "";
}
