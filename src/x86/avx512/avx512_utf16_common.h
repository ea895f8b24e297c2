/* Static-inline helpers of the avx512 tier's own kernels (avx512_lengths.c,
 * avx512_utf8_to_latin1.c): masks of the first k lanes and masked loads of
 * up to a vector (the generic kernels' words are the vocabulary's,
 * vec_avx512.h). Everything is static inline, so each including file gets
 * its own AVX-512 copy.
 * References: Lemire & Mula, "Transcoding billions of Unicode characters per
 * second with SIMD instructions", Software: Practice and Experience 52(2),
 * 2022; Clausecker & Lemire, "Transcoding Unicode characters with AVX-512
 * instructions", Software: Practice and Experience 53(12), 2023. */
#ifndef UTFX_X86_AVX512_UTF16_COMMON_H
#define UTFX_X86_AVX512_UTF16_COMMON_H

#ifndef __AVX512VBMI2__
#error "avx512_utf16_common.h needs the avx512 tier flags (UTFX_AVX512_FLAGS, sources.mk)"
#endif

#include <immintrin.h>

#include "vec_avx512.h"
#include "../../simd/generic.h"

/* Mask of the first k (<= 64) lanes. */
static inline __mmask64 a512_mask64(size_t k) { return (__mmask64)_bzhi_u64(~0ull, (unsigned)k); }

/* The first k <= 64 bytes / k <= 16 32-bit values at p; lanes >= k are 0.
 * A partial vector uses a masked load (nothing at or after p + k is read); a
 * whole one a plain load, which is cheaper (docs/perf-decisions.md,
 * 'AVX-512 vocabulary'). */
static inline __m512i a512_load8(const void *p, size_t k) {
  return k == 64 ? _mm512_loadu_si512(p) : _mm512_maskz_loadu_epi8(a512_mask64(k), p);
}
static inline __m512i a512_load32(const void *p, size_t k) {
  return k == 16 ? _mm512_loadu_si512(p)
                 : _mm512_maskz_loadu_epi32((__mmask16)_bzhi_u32(0xFFFF, (unsigned)k), p);
}

#endif
