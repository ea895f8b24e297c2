/* Static-inline helpers shared by the AVX-512 UTF-16 / UTF-32 / Latin-1
 * kernels (avx512_utf16_*.c): masked loads
 * of up to 32 UTF-16 units in either byte order, the per-block surrogate
 * analysis (the encoder of 16 code points to UTF-8 is the vocabulary's,
 * vec_avx512.h). Everything is static
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

/* Constants of the surrogate tests, built once per kernel call and pinned. */
struct a512_u16_consts {
  __m512i f800, fc00, d800, dc00;
};

static inline void a512_u16_consts_init(struct a512_u16_consts *c) {
  c->f800 = _mm512_set1_epi16((short)0xF800);
  c->fc00 = _mm512_set1_epi16((short)0xFC00);
  c->d800 = _mm512_set1_epi16((short)0xD800);
  c->dc00 = _mm512_set1_epi16((short)0xDC00);
  V_LOADED(c->f800);
  V_LOADED(c->fc00);
  V_LOADED(c->d800);
  V_LOADED(c->dc00);
}

/* Surrogate analysis of a block of k units (v as from a512_load16). The block
 * never starts after an unconsumed high surrogate, so the carry into it is
 * always 0. If the block is not the last (`more`) and ends with a high
 * surrogate, that unit is left for the next block: *adv = k - 1. Returns the
 * mask of ill-formed units (lone surrogates); *hi / *lo get the high / low
 * halves of well-formed pairs inside the consumed part. */
struct a512_pairs {
  __mmask32 hi, lo, bad;
  size_t adv;
};

static inline struct a512_pairs a512_analyse(__m512i v, size_t k, int more,
                                             const struct a512_u16_consts *c) {
  struct a512_pairs p;
  __m512i top = _mm512_and_si512(v, c->fc00);
  uint32_t hi = _mm512_cmpeq_epi16_mask(top, c->d800);
  uint32_t lo = _mm512_cmpeq_epi16_mask(top, c->dc00);
  uint32_t bad;
  p.adv = k;
  if (more && (hi >> (k - 1) & 1)) {
    hi &= ~(1u << (k - 1));
    p.adv = k - 1;
  }
  bad = (hi & ~(lo >> 1)) | (lo & ~(hi << 1));
  p.hi = (__mmask32)(hi & ~bad);
  p.lo = (__mmask32)(lo & ~bad);
  p.bad = (__mmask32)bad;
  return p;
}

/* Nonzero if some unit of v is a surrogate (D800..DFFF). */
static inline __mmask32 a512_surrogates(__m512i v, const struct a512_u16_consts *c) {
  return _mm512_cmpeq_epi16_mask(_mm512_and_si512(v, c->f800), c->d800);
}

#endif
