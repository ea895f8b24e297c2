/* Static-inline helpers shared by the AVX-512 UTF-16 / UTF-32 / Latin-1
 * kernels (avx512_utf16_*.c): masked loads
 * of up to 32 UTF-16 units in either byte order (the per-block surrogate
 * analysis and the encoder of 16 code points to UTF-8 are the
 * vocabulary's, vec_avx512.h). Everything is static
 * inline, so each including file gets its own AVX-512 copy.
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

/* Kernel bodies (UTFXI_INLINE) take the byte order and the bounded flag
 * as constants; constants are pinned in registers with V_LOADED (without
 * it GCC rebuilds set1 constants inside loops with a GPR move +
 * vpbroadcast, and the GPR-to-vector transfers limit the loops:
 * docs/perf-decisions.md, 'AVX-512 vocabulary'). Units are swapped with
 * v16_bswap. */

/* Mask of the first k (<= 32 / 64) lanes. */
static inline __mmask32 a512_mask32(size_t k) { return (__mmask32)_bzhi_u32(~0u, (unsigned)k); }
static inline __mmask64 a512_mask64(size_t k) { return (__mmask64)_bzhi_u64(~0ull, (unsigned)k); }

/* Loads the first k <= 32 units at p, as host-order values; lanes >= k are
 * 0. A partial block uses a masked load (nothing at or after p + k is read);
 * a whole one a plain load, which is cheaper (docs/perf-decisions.md,
 * 'AVX-512 vocabulary'). */
static inline __m512i a512_load16(const char16_t *p, size_t k, int be) {
  __m512i v = k == 32 ? _mm512_loadu_si512(p) : _mm512_maskz_loadu_epi16(a512_mask32(k), p);
  return be ? v16_bswap(v) : v;
}

/* The same for k <= 64 bytes and k <= 16 32-bit values. */
static inline __m512i a512_load8(const void *p, size_t k) {
  return k == 64 ? _mm512_loadu_si512(p) : _mm512_maskz_loadu_epi8(a512_mask64(k), p);
}
static inline __m512i a512_load32(const void *p, size_t k) {
  return k == 16 ? _mm512_loadu_si512(p)
                 : _mm512_maskz_loadu_epi32((__mmask16)_bzhi_u32(0xFFFF, (unsigned)k), p);
}

#endif
