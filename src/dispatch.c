/* The kernel tiers and the one active-table pointer.
 *
 * Each tier is a static const table. The active pointer starts NULL; the first
 * call detects the CPU, honours UTFX_IMPL, and publishes its choice with a
 * compare-and-swap, so concurrent first calls agree without a lock (detection
 * is pure, so racing resolvers compute the same thing). utfx_set_implementation
 * replaces the pointer atomically: a conversion uses the table it loaded, old
 * or new, never a mix. */
#if defined(__AVX__) && !defined(UTFX_ALLOW_GLOBAL_ISA_FLAGS)
#error "dispatch.c must be built for the baseline ISA (no global -mavx/-march=native)"
#endif

#include "cpu.h"
#include "dispatch.h"
#include "scalar/base64.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

static const struct utfxi_kernels scalar_kernels = {.name = "scalar", UTFXI_SCALAR_KERNELS};

/* The tiers of this architecture (UTFXI_ARCH_TIERS), each in its own
 * directory's list; none when built without SIMD. */
#if defined(__x86_64__) && !defined(UTFX_NO_SIMD)
#include "x86/x86_tiers.h"
#elif defined(__aarch64__) && defined(__ARM_NEON) && !defined(UTFX_NO_SIMD) && \
    (!defined(__BYTE_ORDER__) || __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__)
#include "arm/arm_tiers.h"
#endif
#ifndef UTFXI_ARCH_TIERS
#define UTFXI_ARCH_TIERS
#endif

struct tier {
  const struct utfxi_kernels *kernels;
  uint32_t required; /* UTFXI_CPU_* mask this tier's files are compiled for */
};

/* Best first; scalar last and always runnable. */
static const struct tier tiers[] = {
    UTFXI_ARCH_TIERS
    {&scalar_kernels, 0},
};
#define TIER_COUNT (sizeof tiers / sizeof tiers[0])

_Atomic(const struct utfxi_kernels *) utfxi_active_table;

static const struct tier *find_tier(const char *name) {
  size_t i;
  if (!name) return NULL;
  for (i = 0; i < TIER_COUNT; i++)
    if (strcmp(tiers[i].kernels->name, name) == 0) return &tiers[i];
  return NULL;
}

/* CPUID traps to the hypervisor on many VMs (~0.5 ms), so the detected mask
 * is cached. Detection is pure: racing first calls store the same value. The
 * top bit marks "detected" so that a CPU with no features is cached too. */
static _Atomic uint32_t cpu_features_cache;
#define CPU_DETECTED 0x80000000u

_Atomic unsigned char utfxi_b64_store_ahead = 1;

/* Every way to a vector table (utfxi_resolve, utfx_set_implementation)
 * passes here first, so the tuning choices are set before any kernel runs. */
static uint32_t cpu_features(void) {
  uint32_t f = atomic_load_explicit(&cpu_features_cache, memory_order_relaxed);
  if (!(f & CPU_DETECTED)) {
    atomic_store_explicit(&utfxi_b64_store_ahead, (unsigned char)utfxi_cpu_intel(),
                          memory_order_relaxed);
    f = utfxi_cpu_detect() | CPU_DETECTED;
    atomic_store_explicit(&cpu_features_cache, f, memory_order_relaxed);
  }
  return f & ~CPU_DETECTED;
}

static int tier_supported(const struct tier *t) {
  return (cpu_features() & t->required) == t->required;
}

const struct utfxi_kernels *utfxi_resolve(void) {
  const struct utfxi_kernels *expected = NULL, *choice = NULL;
  const struct tier *forced = find_tier(getenv("UTFX_IMPL"));
  size_t i;
  if (forced && tier_supported(forced)) choice = forced->kernels;
  for (i = 0; !choice && i < TIER_COUNT; i++)
    if (tier_supported(&tiers[i])) choice = tiers[i].kernels;
  if (!atomic_compare_exchange_strong(&utfxi_active_table, &expected, choice)) return expected;
  return choice;
}

const char *utfx_implementation(void) { return utfxi_active()->name; }

int utfx_set_implementation(const char *name) {
  const struct tier *t = find_tier(name);
  if (!t || !tier_supported(t)) return -1;
  atomic_store_explicit(&utfxi_active_table, t->kernels, memory_order_release);
  return 0;
}

size_t utfx_implementation_count(void) { return TIER_COUNT; }

const char *utfx_implementation_name(size_t i) {
  return i < TIER_COUNT ? tiers[i].kernels->name : NULL;
}

int utfx_implementation_supported(const char *name) {
  const struct tier *t = find_tier(name);
  return t && tier_supported(t);
}

size_t utfx_cpu_features(char *buf, size_t cap) {
  char all[256] = ""; /* every name fits: 11 short names and spaces */
  uint32_t f = cpu_features();
  size_t len = 0;
  unsigned i;
  for (i = 0; i < UTFXI_CPU_FEATURE_COUNT; i++) {
    const char *name = utfxi_cpu_feature_name(i);
    if (!(f & (1u << i))) continue;
    if (len) all[len++] = ' ';
    memcpy(all + len, name, strlen(name) + 1);
    len += strlen(name);
  }
  if (cap) {
    size_t k = len < cap - 1 ? len : cap - 1;
    memcpy(buf, all, k);
    buf[k] = '\0';
  }
  return len;
}
