/* AVX-512 in plain C, for testing the avx512 tier on a CPU without it.
 *
 * `make test-avx512-emu` force-includes this header (-include) into every
 * src/x86/avx512/avx512_*.c, compiled with the AVX2 flags only. After the real
 * <immintrin.h> it redefines the 512-bit vector types and every AVX-512
 * intrinsic those files use as functions over a 64-byte union, following
 * Intel's documented semantics (the Intrinsics Guide's pseudo-code). The
 * kernels' own code is compiled unchanged; dispatch then runs them as the
 * avx512 tier (src/dispatch.c, UTFX_AVX512_EMULATED).
 *
 * Memory access is what the hardware does: an unmasked load or store touches
 * all its bytes, a masked one touches only the elements whose mask bit is set
 * (fault suppression), one element at a time. So a guard page or ASan sees
 * exactly the accesses the real instructions would make.
 *
 * Only what the kernels use is here: an intrinsic that is not redefined
 * reaches the real one, which the compiler refuses without AVX-512 flags
 * (a build error, never silent). Not part of the library.
 *
 * Why not SIMDe: Debian's libsimde-dev 0.7.4 has no masked loads or stores
 * at all (maskz_loadu_*, mask_storeu_*, also at 128/256 bits), no
 * maskz_compress_epi8/16, mask_cmplt_epu8_mask, cvtepi32_epi8 or
 * reduce_add_*; and masked accesses that follow the hardware element by
 * element are the point of this header. */
#ifndef UTFX_TESTS_EMU_AVX512_EMU_H
#define UTFX_TESTS_EMU_AVX512_EMU_H

#include <immintrin.h>
#include <stdint.h>
#include <string.h>

#ifdef __AVX512F__
#error "avx512_emu.h replaces AVX-512: build with the AVX2 flags only"
#endif

/* The kernel files check for the avx512 tier's flags. */
#define __AVX512VBMI2__ 1
/* (vec_avx512.h's V_LOADED and V_PIN pin vectors in registers, "+v"; these
 * vectors are structs in memory, so generic.h's no-op stands in.) */

typedef union {
  uint8_t u8[64];
  int8_t i8[64];
  uint16_t u16[32];
  int16_t i16[32];
  uint32_t u32[16];
  int32_t i32[16];
  uint64_t u64[8];
} utfxemu_m512i;

typedef union {
  float f[16];
  uint32_t u32[16];
} utfxemu_m512;

#undef __m512i
#define __m512i utfxemu_m512i
#undef __m512
#define __m512 utfxemu_m512

/* Loops over the elements of one width. */
#define UTFXEMU_EACH(j, count) for (unsigned j = 0; j < (count); j++)
#define UTFXEMU_BIT(k, j) ((((uint64_t)(k)) >> (j)) & 1u)

static inline utfxemu_m512i utfxemu_zero(void) {
  utfxemu_m512i r;
  memset(&r, 0, sizeof r);
  return r;
}

/* ---------------------------------------------------------------- memory */
static inline utfxemu_m512i utfxemu_loadu_si512(const void *p) {
  utfxemu_m512i r;
  memcpy(&r, p, 64);
  return r;
}
static inline void utfxemu_storeu_si512(void *p, utfxemu_m512i a) { memcpy(p, &a, 64); }
/* A non-temporal store faults unless p is 64-byte aligned, as here. */
static inline void utfxemu_stream_si512(void *p, utfxemu_m512i a) {
  if ((uintptr_t)p % 64) __builtin_trap();
  memcpy(p, &a, 64);
}

/* Masked accesses: element j of `size` bytes at p + j * size, only where
 * mask bit j is set (volatile: the compiler may not widen them). */
static inline void utfxemu_load_elems(void *out, const void *p, uint64_t k, unsigned count,
                                      unsigned size) {
  const volatile unsigned char *src = (const volatile unsigned char *)p;
  unsigned char *o = (unsigned char *)out;
  memset(out, 0, (size_t)count * size);
  UTFXEMU_EACH(j, count) {
    if (UTFXEMU_BIT(k, j))
      for (unsigned b = 0; b < size; b++) o[j * size + b] = src[j * size + b];
  }
}
static inline void utfxemu_store_elems(void *p, const void *in, uint64_t k, unsigned count,
                                       unsigned size) {
  volatile unsigned char *dst = (volatile unsigned char *)p;
  const unsigned char *v = (const unsigned char *)in;
  UTFXEMU_EACH(j, count) {
    if (UTFXEMU_BIT(k, j))
      for (unsigned b = 0; b < size; b++) dst[j * size + b] = v[j * size + b];
  }
}

static inline utfxemu_m512i utfxemu_maskz_loadu_epi8(__mmask64 k, const void *p) {
  utfxemu_m512i r;
  utfxemu_load_elems(&r, p, k, 64, 1);
  return r;
}
static inline utfxemu_m512i utfxemu_maskz_loadu_epi16(__mmask32 k, const void *p) {
  utfxemu_m512i r;
  utfxemu_load_elems(&r, p, k, 32, 2);
  return r;
}
static inline utfxemu_m512i utfxemu_maskz_loadu_epi32(__mmask16 k, const void *p) {
  utfxemu_m512i r;
  utfxemu_load_elems(&r, p, k, 16, 4);
  return r;
}
static inline __m256i utfxemu_mm256_maskz_loadu_epi8(__mmask32 k, const void *p) {
  unsigned char b[32];
  utfxemu_load_elems(b, p, k, 32, 1);
  return _mm256_loadu_si256((const __m256i *)(const void *)b);
}
static inline __m128i utfxemu_mm_maskz_loadu_epi8(__mmask16 k, const void *p) {
  unsigned char b[16];
  utfxemu_load_elems(b, p, k, 16, 1);
  return _mm_loadu_si128((const __m128i *)(const void *)b);
}
static inline void utfxemu_mask_storeu_epi8(void *p, __mmask64 k, utfxemu_m512i a) {
  utfxemu_store_elems(p, &a, k, 64, 1);
}
static inline void utfxemu_mask_storeu_epi16(void *p, __mmask32 k, utfxemu_m512i a) {
  utfxemu_store_elems(p, &a, k, 32, 2);
}
static inline void utfxemu_mask_storeu_epi32(void *p, __mmask16 k, utfxemu_m512i a) {
  utfxemu_store_elems(p, &a, k, 16, 4);
}
static inline void utfxemu_mm256_mask_storeu_epi8(void *p, __mmask32 k, __m256i a) {
  unsigned char b[32];
  _mm256_storeu_si256((__m256i *)(void *)b, a);
  utfxemu_store_elems(p, b, k, 32, 1);
}
static inline void utfxemu_mm256_mask_storeu_epi16(void *p, __mmask16 k, __m256i a) {
  unsigned char b[32];
  _mm256_storeu_si256((__m256i *)(void *)b, a);
  utfxemu_store_elems(p, b, k, 16, 2);
}
/* Unsigned a < b per byte (AVX-512VL on 256 bits): not where max(a, b) == a. */
static inline __mmask32 utfxemu_mm256_cmplt_epu8_mask(__m256i a, __m256i b) {
  return (__mmask32) ~(uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(_mm256_max_epu8(a, b), a));
}
static inline void utfxemu_mm_mask_storeu_epi8(void *p, __mmask16 k, __m128i a) {
  unsigned char b[16];
  _mm_storeu_si128((__m128i *)(void *)b, a);
  utfxemu_store_elems(p, b, k, 16, 1);
}

#undef _mm512_loadu_si512
#define _mm512_loadu_si512 utfxemu_loadu_si512
#undef _mm512_storeu_si512
#define _mm512_storeu_si512 utfxemu_storeu_si512
#undef _mm512_stream_si512
#define _mm512_stream_si512 utfxemu_stream_si512
#undef _mm512_maskz_loadu_epi8
#define _mm512_maskz_loadu_epi8 utfxemu_maskz_loadu_epi8
#undef _mm512_maskz_loadu_epi16
#define _mm512_maskz_loadu_epi16 utfxemu_maskz_loadu_epi16
#undef _mm512_maskz_loadu_epi32
#define _mm512_maskz_loadu_epi32 utfxemu_maskz_loadu_epi32
#undef _mm256_maskz_loadu_epi8
#define _mm256_maskz_loadu_epi8 utfxemu_mm256_maskz_loadu_epi8
#undef _mm_maskz_loadu_epi8
#define _mm_maskz_loadu_epi8 utfxemu_mm_maskz_loadu_epi8
#undef _mm512_mask_storeu_epi8
#define _mm512_mask_storeu_epi8 utfxemu_mask_storeu_epi8
#undef _mm512_mask_storeu_epi16
#define _mm512_mask_storeu_epi16 utfxemu_mask_storeu_epi16
#undef _mm512_mask_storeu_epi32
#define _mm512_mask_storeu_epi32 utfxemu_mask_storeu_epi32
#undef _mm256_mask_storeu_epi8
#define _mm256_mask_storeu_epi8 utfxemu_mm256_mask_storeu_epi8
#undef _mm256_mask_storeu_epi16
#define _mm256_mask_storeu_epi16 utfxemu_mm256_mask_storeu_epi16
#undef _mm_mask_storeu_epi8
#define _mm_mask_storeu_epi8 utfxemu_mm_mask_storeu_epi8
#undef _mm256_cmplt_epu8_mask
#define _mm256_cmplt_epu8_mask utfxemu_mm256_cmplt_epu8_mask

/* ---------------------------------------------------------------- set, cast */
static inline utfxemu_m512i utfxemu_setzero_si512(void) { return utfxemu_zero(); }
static inline utfxemu_m512i utfxemu_set1_epi8(char x) {
  utfxemu_m512i r;
  UTFXEMU_EACH(j, 64) r.u8[j] = (uint8_t)x;
  return r;
}
static inline utfxemu_m512i utfxemu_set1_epi16(short x) {
  utfxemu_m512i r;
  UTFXEMU_EACH(j, 32) r.u16[j] = (uint16_t)x;
  return r;
}
static inline utfxemu_m512i utfxemu_set1_epi32(int x) {
  utfxemu_m512i r;
  UTFXEMU_EACH(j, 16) r.u32[j] = (uint32_t)x;
  return r;
}
static inline utfxemu_m512i utfxemu_set1_epi64(long long x) {
  utfxemu_m512i r;
  UTFXEMU_EACH(j, 8) r.u64[j] = (uint64_t)x;
  return r;
}
/* _mm512_set_* list the highest element first, _mm512_setr_* the lowest. */
static inline utfxemu_m512i utfxemu_set_epi8(const char *e) {
  utfxemu_m512i r;
  UTFXEMU_EACH(j, 64) r.u8[j] = (uint8_t)e[63 - j];
  return r;
}
static inline utfxemu_m512i utfxemu_set_epi16(const short *e) {
  utfxemu_m512i r;
  UTFXEMU_EACH(j, 32) r.u16[j] = (uint16_t)e[31 - j];
  return r;
}
static inline utfxemu_m512i utfxemu_setr_epi32(const int *e) {
  utfxemu_m512i r;
  UTFXEMU_EACH(j, 16) r.u32[j] = (uint32_t)e[j];
  return r;
}
static inline utfxemu_m512i utfxemu_setr_epi64(const long long *e) {
  utfxemu_m512i r;
  UTFXEMU_EACH(j, 8) r.u64[j] = (uint64_t)e[j];
  return r;
}
static inline utfxemu_m512i utfxemu_broadcast_i32x4(__m128i a) {
  utfxemu_m512i r;
  UTFXEMU_EACH(q, 4) _mm_storeu_si128((__m128i *)(void *)(r.u8 + 16 * q), a);
  return r;
}
static inline __m128i utfxemu_castsi512_si128(utfxemu_m512i a) {
  return _mm_loadu_si128((const __m128i *)(const void *)a.u8);
}
static inline __m256i utfxemu_castsi512_si256(utfxemu_m512i a) {
  return _mm256_loadu_si256((const __m256i *)(const void *)a.u8);
}
/* The upper half is undefined on hardware; zero here. */
static inline utfxemu_m512i utfxemu_castsi256_si512(__m256i a) {
  utfxemu_m512i r = utfxemu_zero();
  _mm256_storeu_si256((__m256i *)(void *)r.u8, a);
  return r;
}
static inline utfxemu_m512i utfxemu_castps_si512(utfxemu_m512 a) {
  utfxemu_m512i r;
  memcpy(&r, &a, 64);
  return r;
}
static inline __m128i utfxemu_extracti32x4_epi32(utfxemu_m512i a, int imm) {
  return _mm_loadu_si128((const __m128i *)(const void *)(a.u8 + 16 * (imm & 3)));
}
static inline __m256i utfxemu_extracti64x4_epi64(utfxemu_m512i a, int imm) {
  return _mm256_loadu_si256((const __m256i *)(const void *)(a.u8 + 32 * (imm & 1)));
}

#undef _mm512_setzero_si512
#define _mm512_setzero_si512 utfxemu_setzero_si512
#undef _mm512_set1_epi8
#define _mm512_set1_epi8 utfxemu_set1_epi8
#undef _mm512_set1_epi16
#define _mm512_set1_epi16 utfxemu_set1_epi16
#undef _mm512_set1_epi32
#define _mm512_set1_epi32 utfxemu_set1_epi32
#undef _mm512_set1_epi64
#define _mm512_set1_epi64 utfxemu_set1_epi64
#undef _mm512_set_epi8
#define _mm512_set_epi8(...) utfxemu_set_epi8((const char[64]){__VA_ARGS__})
#undef _mm512_set_epi16
#define _mm512_set_epi16(...) utfxemu_set_epi16((const short[32]){__VA_ARGS__})
#undef _mm512_setr_epi32
#define _mm512_setr_epi32(...) utfxemu_setr_epi32((const int[16]){__VA_ARGS__})
#undef _mm512_setr_epi64
#define _mm512_setr_epi64(...) utfxemu_setr_epi64((const long long[8]){__VA_ARGS__})
#undef _mm512_broadcast_i32x4
#define _mm512_broadcast_i32x4 utfxemu_broadcast_i32x4
#undef _mm512_castsi512_si128
#define _mm512_castsi512_si128 utfxemu_castsi512_si128
#undef _mm512_castsi512_si256
#define _mm512_castsi512_si256 utfxemu_castsi512_si256
#undef _mm512_castsi256_si512
#define _mm512_castsi256_si512 utfxemu_castsi256_si512
#undef _mm512_castps_si512
#define _mm512_castps_si512 utfxemu_castps_si512
#undef _mm512_extracti32x4_epi32
#define _mm512_extracti32x4_epi32 utfxemu_extracti32x4_epi32
#undef _mm512_extracti64x4_epi64
#define _mm512_extracti64x4_epi64 utfxemu_extracti64x4_epi64

/* ---------------------------------------------------------------- arithmetic */
#define UTFXEMU_LANEWISE(name, lane, count, expr)                        \
  static inline utfxemu_m512i name(utfxemu_m512i a, utfxemu_m512i b) { \
    utfxemu_m512i r;                                                   \
    UTFXEMU_EACH(j, count) r.lane[j] = (expr);                         \
    return r;                                                          \
  }
UTFXEMU_LANEWISE(utfxemu_add_epi8, u8, 64, (uint8_t)(a.u8[j] + b.u8[j]))
UTFXEMU_LANEWISE(utfxemu_add_epi16, u16, 32, (uint16_t)(a.u16[j] + b.u16[j]))
UTFXEMU_LANEWISE(utfxemu_add_epi32, u32, 16, a.u32[j] + b.u32[j])
UTFXEMU_LANEWISE(utfxemu_add_epi64, u64, 8, a.u64[j] + b.u64[j])
UTFXEMU_LANEWISE(utfxemu_sub_epi8, u8, 64, (uint8_t)(a.u8[j] - b.u8[j]))
UTFXEMU_LANEWISE(utfxemu_sub_epi32, u32, 16, a.u32[j] - b.u32[j])
UTFXEMU_LANEWISE(utfxemu_subs_epu8, u8, 64, (uint8_t)(a.u8[j] > b.u8[j] ? a.u8[j] - b.u8[j] : 0))
UTFXEMU_LANEWISE(utfxemu_adds_epu8, u8, 64, (uint8_t)(a.u8[j] + b.u8[j] > 255 ? 255 : a.u8[j] + b.u8[j]))
UTFXEMU_LANEWISE(utfxemu_subs_epu16, u16, 32, (uint16_t)(a.u16[j] > b.u16[j] ? a.u16[j] - b.u16[j] : 0))
UTFXEMU_LANEWISE(utfxemu_max_epu32, u32, 16, a.u32[j] > b.u32[j] ? a.u32[j] : b.u32[j])
UTFXEMU_LANEWISE(utfxemu_max_epu8, u8, 64, a.u8[j] > b.u8[j] ? a.u8[j] : b.u8[j])
UTFXEMU_LANEWISE(utfxemu_min_epu8, u8, 64, a.u8[j] < b.u8[j] ? a.u8[j] : b.u8[j])
UTFXEMU_LANEWISE(utfxemu_avg_epu8, u8, 64, (uint8_t)((a.u8[j] + b.u8[j] + 1) >> 1))
UTFXEMU_LANEWISE(utfxemu_min_epu16, u16, 32, a.u16[j] < b.u16[j] ? a.u16[j] : b.u16[j])
UTFXEMU_LANEWISE(utfxemu_min_epu32, u32, 16, a.u32[j] < b.u32[j] ? a.u32[j] : b.u32[j])
/* vplzcntd (AVX512CD): leading zero bits of each lane, 32 for 0. */
static inline utfxemu_m512i utfxemu_lzcnt_epi32(utfxemu_m512i a) {
  utfxemu_m512i r;
  UTFXEMU_EACH(j, 16) {
    uint32_t x = a.u32[j], z = 32;
    while (x) {
      x >>= 1;
      z--;
    }
    r.u32[j] = z;
  }
  return r;
}
UTFXEMU_LANEWISE(utfxemu_and_si512, u64, 8, a.u64[j] & b.u64[j])
UTFXEMU_LANEWISE(utfxemu_or_si512, u64, 8, a.u64[j] | b.u64[j])
UTFXEMU_LANEWISE(utfxemu_xor_si512, u64, 8, a.u64[j] ^ b.u64[j])

static inline utfxemu_m512i utfxemu_mask_sub_epi8(utfxemu_m512i src, __mmask64 k,
                                                  utfxemu_m512i a, utfxemu_m512i b) {
  UTFXEMU_EACH(j, 64) if (UTFXEMU_BIT(k, j)) src.u8[j] = (uint8_t)(a.u8[j] - b.u8[j]);
  return src;
}
static inline utfxemu_m512i utfxemu_mask_add_epi8(utfxemu_m512i src, __mmask64 k,
                                                  utfxemu_m512i a, utfxemu_m512i b) {
  UTFXEMU_EACH(j, 64) if (UTFXEMU_BIT(k, j)) src.u8[j] = (uint8_t)(a.u8[j] + b.u8[j]);
  return src;
}
static inline utfxemu_m512i utfxemu_mask_add_epi16(utfxemu_m512i src, __mmask32 k,
                                                   utfxemu_m512i a, utfxemu_m512i b) {
  UTFXEMU_EACH(j, 32) if (UTFXEMU_BIT(k, j)) src.u16[j] = (uint16_t)(a.u16[j] + b.u16[j]);
  return src;
}
static inline utfxemu_m512i utfxemu_mask_add_epi32(utfxemu_m512i src, __mmask16 k,
                                                   utfxemu_m512i a, utfxemu_m512i b) {
  UTFXEMU_EACH(j, 16) if (UTFXEMU_BIT(k, j)) src.u32[j] = a.u32[j] + b.u32[j];
  return src;
}

/* VPSHLDW: the high 16 bits of each lane of a, then b, shifted left c. */
static inline utfxemu_m512i utfxemu_shldi_epi16(utfxemu_m512i a, utfxemu_m512i b, unsigned int c) {
  UTFXEMU_EACH(j, 32) a.u16[j] = (uint16_t)(((uint32_t)a.u16[j] << 16 | b.u16[j]) << (c & 15) >> 16);
  return a;
}

/* Shifts by an immediate: a count above the lane width gives 0. */
static inline utfxemu_m512i utfxemu_slli_epi16(utfxemu_m512i a, unsigned int c) {
  UTFXEMU_EACH(j, 32) a.u16[j] = c > 15 ? 0 : (uint16_t)(a.u16[j] << c);
  return a;
}
static inline utfxemu_m512i utfxemu_srli_epi16(utfxemu_m512i a, unsigned int c) {
  UTFXEMU_EACH(j, 32) a.u16[j] = c > 15 ? 0 : (uint16_t)(a.u16[j] >> c);
  return a;
}
static inline utfxemu_m512i utfxemu_slli_epi32(utfxemu_m512i a, unsigned int c) {
  UTFXEMU_EACH(j, 16) a.u32[j] = c > 31 ? 0 : a.u32[j] << c;
  return a;
}
static inline utfxemu_m512i utfxemu_srli_epi32(utfxemu_m512i a, unsigned int c) {
  UTFXEMU_EACH(j, 16) a.u32[j] = c > 31 ? 0 : a.u32[j] >> c;
  return a;
}

/* Bit i of the result is bit (a_i << 2 | b_i << 1 | c_i) of imm; the element
 * width (epi32 / epi64) matters only with a mask. */
static inline utfxemu_m512i utfxemu_ternarylogic(utfxemu_m512i a, utfxemu_m512i b,
                                                 utfxemu_m512i c, int imm) {
  utfxemu_m512i r = utfxemu_zero();
  UTFXEMU_EACH(j, 8) {
    for (unsigned t = 0; t < 8; t++) {
      if (!((imm >> t) & 1)) continue;
      r.u64[j] |= ((t & 4) ? a.u64[j] : ~a.u64[j]) & ((t & 2) ? b.u64[j] : ~b.u64[j]) &
                  ((t & 1) ? c.u64[j] : ~c.u64[j]);
    }
  }
  return r;
}

/* vpsadbw: per 64-bit lane, the sum of the 8 absolute byte differences in
 * its low 16 bits, the rest zero. */
static inline utfxemu_m512i utfxemu_sad_epu8(utfxemu_m512i a, utfxemu_m512i b) {
  utfxemu_m512i r;
  UTFXEMU_EACH(q, 8) {
    uint64_t sum = 0;
    for (unsigned j = 0; j < 8; j++) {
      unsigned x = a.u8[8 * q + j], y = b.u8[8 * q + j];
      sum += x > y ? x - y : y - x;
    }
    r.u64[q] = sum;
  }
  return r;
}

/* vpmultishiftqb: byte j of each 64-bit lane of the result is the 8 bits of
 * that lane of data starting at bit (ctrl byte j & 63), wrapping around. */
static inline utfxemu_m512i utfxemu_multishift_epi64_epi8(utfxemu_m512i ctrl,
                                                          utfxemu_m512i data) {
  utfxemu_m512i r;
  UTFXEMU_EACH(q, 8) {
    uint64_t x = data.u64[q];
    for (unsigned j = 0; j < 8; j++) {
      unsigned s = ctrl.u8[8 * q + j] & 63u;
      uint64_t rot = s ? (x >> s) | (x << (64 - s)) : x;
      r.u8[8 * q + j] = (uint8_t)rot;
    }
  }
  return r;
}

static inline int utfxemu_reduce_add_epi32(utfxemu_m512i a) {
  uint32_t s = 0;
  UTFXEMU_EACH(j, 16) s += a.u32[j];
  return (int)s;
}
static inline long long utfxemu_reduce_add_epi64(utfxemu_m512i a) {
  uint64_t s = 0;
  UTFXEMU_EACH(j, 8) s += a.u64[j];
  return (long long)s;
}

/* VPMADDUBSW: unsigned bytes of a times signed bytes of b, adjacent pairs
 * summed with signed saturation. VPMADDWD: signed words multiplied, adjacent
 * pairs summed (the one overflowing case wraps, as the hardware does). */
static inline utfxemu_m512i utfxemu_maddubs_epi16(utfxemu_m512i a, utfxemu_m512i b) {
  utfxemu_m512i r;
  UTFXEMU_EACH(j, 32) {
    int32_t s = (int32_t)a.u8[2 * j] * b.i8[2 * j] + (int32_t)a.u8[2 * j + 1] * b.i8[2 * j + 1];
    r.i16[j] = (int16_t)(s > 32767 ? 32767 : s < -32768 ? -32768 : s);
  }
  return r;
}
static inline utfxemu_m512i utfxemu_madd_epi16(utfxemu_m512i a, utfxemu_m512i b) {
  utfxemu_m512i r;
  UTFXEMU_EACH(j, 16) {
    int64_t s = (int64_t)a.i16[2 * j] * b.i16[2 * j] + (int64_t)a.i16[2 * j + 1] * b.i16[2 * j + 1];
    r.u32[j] = (uint32_t)s;
  }
  return r;
}

#undef _mm512_maddubs_epi16
#define _mm512_maddubs_epi16 utfxemu_maddubs_epi16
#undef _mm512_madd_epi16
#define _mm512_madd_epi16 utfxemu_madd_epi16
#undef _mm512_add_epi8
#define _mm512_add_epi8 utfxemu_add_epi8
#undef _mm512_add_epi16
#define _mm512_add_epi16 utfxemu_add_epi16
#undef _mm512_add_epi32
#define _mm512_add_epi32 utfxemu_add_epi32
#undef _mm512_add_epi64
#define _mm512_add_epi64 utfxemu_add_epi64
#undef _mm512_sub_epi8
#define _mm512_sub_epi8 utfxemu_sub_epi8
#undef _mm512_sub_epi32
#define _mm512_sub_epi32 utfxemu_sub_epi32
#undef _mm512_mask_sub_epi8
#define _mm512_mask_sub_epi8 utfxemu_mask_sub_epi8
#undef _mm512_mask_add_epi8
#define _mm512_mask_add_epi8 utfxemu_mask_add_epi8
#undef _mm512_mask_add_epi16
#define _mm512_mask_add_epi16 utfxemu_mask_add_epi16
#undef _mm512_shldi_epi16
#define _mm512_shldi_epi16 utfxemu_shldi_epi16
#undef _mm512_mask_add_epi32
#define _mm512_mask_add_epi32 utfxemu_mask_add_epi32
#undef _mm512_subs_epu8
#define _mm512_subs_epu8 utfxemu_subs_epu8
#undef _mm512_adds_epu8
#define _mm512_adds_epu8 utfxemu_adds_epu8
#undef _mm512_subs_epu16
#define _mm512_subs_epu16 utfxemu_subs_epu16
#undef _mm512_max_epu32
#define _mm512_max_epu32 utfxemu_max_epu32
#undef _mm512_lzcnt_epi32
#define _mm512_lzcnt_epi32 utfxemu_lzcnt_epi32
#undef _mm512_max_epu8
#define _mm512_max_epu8 utfxemu_max_epu8
#undef _mm512_min_epu8
#define _mm512_min_epu8 utfxemu_min_epu8
#undef _mm512_avg_epu8
#define _mm512_avg_epu8 utfxemu_avg_epu8
#undef _mm512_min_epu16
#define _mm512_min_epu16 utfxemu_min_epu16
#undef _mm512_min_epu32
#define _mm512_min_epu32 utfxemu_min_epu32
#undef _mm512_and_si512
#define _mm512_and_si512 utfxemu_and_si512
#undef _mm512_or_si512
#define _mm512_or_si512 utfxemu_or_si512
#undef _mm512_xor_si512
#define _mm512_xor_si512 utfxemu_xor_si512
#undef _mm512_slli_epi16
#define _mm512_slli_epi16 utfxemu_slli_epi16
#undef _mm512_srli_epi16
#define _mm512_srli_epi16 utfxemu_srli_epi16
#undef _mm512_slli_epi32
#define _mm512_slli_epi32 utfxemu_slli_epi32
#undef _mm512_srli_epi32
#define _mm512_srli_epi32 utfxemu_srli_epi32
#undef _mm512_ternarylogic_epi32
#define _mm512_ternarylogic_epi32 utfxemu_ternarylogic
#undef _mm512_ternarylogic_epi64
#define _mm512_ternarylogic_epi64 utfxemu_ternarylogic
#undef _mm512_sad_epu8
#define _mm512_sad_epu8 utfxemu_sad_epu8
#undef _mm512_multishift_epi64_epi8
#define _mm512_multishift_epi64_epi8 utfxemu_multishift_epi64_epi8
#undef _mm512_reduce_add_epi32
#define _mm512_reduce_add_epi32 utfxemu_reduce_add_epi32
#undef _mm512_reduce_add_epi64
#define _mm512_reduce_add_epi64 utfxemu_reduce_add_epi64

/* ---------------------------------------------------------------- compares */
#define UTFXEMU_CMP(name, mask, lane, count, op)                     \
  static inline mask name(utfxemu_m512i a, utfxemu_m512i b) {      \
    uint64_t k = 0;                                                \
    UTFXEMU_EACH(j, count) k |= (uint64_t)(a.lane[j] op b.lane[j]) << j; \
    return (mask)k;                                                \
  }
UTFXEMU_CMP(utfxemu_cmpeq_epi8_mask, __mmask64, u8, 64, ==)
UTFXEMU_CMP(utfxemu_cmpneq_epi8_mask, __mmask64, u8, 64, !=)
UTFXEMU_CMP(utfxemu_cmpeq_epi16_mask, __mmask32, u16, 32, ==)
UTFXEMU_CMP(utfxemu_cmpneq_epi16_mask, __mmask32, u16, 32, !=)
UTFXEMU_CMP(utfxemu_cmpeq_epi32_mask, __mmask16, u32, 16, ==)
UTFXEMU_CMP(utfxemu_cmpge_epu8_mask, __mmask64, u8, 64, >=)
static inline __mmask64 utfxemu_mask_cmpeq_epi8_mask(__mmask64 k, utfxemu_m512i a, utfxemu_m512i b) {
  return k & utfxemu_cmpeq_epi8_mask(a, b);
}
static inline __mmask64 utfxemu_mask_cmpge_epu8_mask(__mmask64 k, utfxemu_m512i a, utfxemu_m512i b) {
  return k & utfxemu_cmpge_epu8_mask(a, b);
}
UTFXEMU_CMP(utfxemu_cmpge_epu16_mask, __mmask32, u16, 32, >=)
UTFXEMU_CMP(utfxemu_cmpge_epu32_mask, __mmask16, u32, 16, >=)
UTFXEMU_CMP(utfxemu_cmpgt_epu16_mask, __mmask32, u16, 32, >)
UTFXEMU_CMP(utfxemu_cmpgt_epu32_mask, __mmask16, u32, 16, >)
UTFXEMU_CMP(utfxemu_cmplt_epi8_mask, __mmask64, i8, 64, <)
UTFXEMU_CMP(utfxemu_cmpge_epi8_mask, __mmask64, i8, 64, >=)
UTFXEMU_CMP(utfxemu_cmplt_epu8_mask, __mmask64, u8, 64, <)
UTFXEMU_CMP(utfxemu_cmplt_epu16_mask, __mmask32, u16, 32, <)
UTFXEMU_CMP(utfxemu_cmplt_epu32_mask, __mmask16, u32, 16, <)

static inline __mmask64 utfxemu_mask_cmplt_epu8_mask(__mmask64 k, utfxemu_m512i a,
                                                     utfxemu_m512i b) {
  return k & utfxemu_cmplt_epu8_mask(a, b);
}
static inline __mmask64 utfxemu_mask_cmplt_epi8_mask(__mmask64 k, utfxemu_m512i a,
                                                     utfxemu_m512i b) {
  return k & utfxemu_cmplt_epi8_mask(a, b);
}
static inline __mmask64 utfxemu_test_epi8_mask(utfxemu_m512i a, utfxemu_m512i b) {
  uint64_t k = 0;
  UTFXEMU_EACH(j, 64) k |= (uint64_t)((a.u8[j] & b.u8[j]) != 0) << j;
  return k;
}
static inline __mmask32 utfxemu_test_epi16_mask(utfxemu_m512i a, utfxemu_m512i b) {
  uint64_t k = 0;
  UTFXEMU_EACH(j, 32) k |= (uint64_t)((a.u16[j] & b.u16[j]) != 0) << j;
  return (__mmask32)k;
}
static inline __mmask16 utfxemu_test_epi32_mask(utfxemu_m512i a, utfxemu_m512i b) {
  uint64_t k = 0;
  UTFXEMU_EACH(j, 16) k |= (uint64_t)((a.u32[j] & b.u32[j]) != 0) << j;
  return (__mmask16)k;
}
static inline __mmask32 utfxemu_testn_epi16_mask(utfxemu_m512i a, utfxemu_m512i b) {
  return (__mmask32)~utfxemu_test_epi16_mask(a, b);
}
static inline __mmask64 utfxemu_movepi8_mask(utfxemu_m512i a) {
  uint64_t k = 0;
  UTFXEMU_EACH(j, 64) k |= (uint64_t)(a.u8[j] >> 7) << j;
  return k;
}

#undef _mm512_cmpeq_epi8_mask
#define _mm512_cmpeq_epi8_mask utfxemu_cmpeq_epi8_mask
#undef _mm512_cmpneq_epi8_mask
#define _mm512_cmpneq_epi8_mask utfxemu_cmpneq_epi8_mask
#undef _mm512_mask_cmpeq_epi8_mask
#define _mm512_mask_cmpeq_epi8_mask utfxemu_mask_cmpeq_epi8_mask
#undef _mm512_cmpeq_epi16_mask
#define _mm512_cmpeq_epi16_mask utfxemu_cmpeq_epi16_mask
#undef _mm512_cmpeq_epi32_mask
#define _mm512_cmpeq_epi32_mask utfxemu_cmpeq_epi32_mask
#undef _mm512_testn_epi16_mask
#define _mm512_testn_epi16_mask utfxemu_testn_epi16_mask
#undef _mm512_cmpneq_epi16_mask
#define _mm512_cmpneq_epi16_mask utfxemu_cmpneq_epi16_mask
#undef _mm512_cmpge_epu8_mask
#define _mm512_cmpge_epu8_mask utfxemu_cmpge_epu8_mask
#undef _mm512_mask_cmpge_epu8_mask
#define _mm512_mask_cmpge_epu8_mask utfxemu_mask_cmpge_epu8_mask
#undef _mm512_cmpge_epu16_mask
#define _mm512_cmpge_epu16_mask utfxemu_cmpge_epu16_mask
#undef _mm512_cmpge_epu32_mask
#define _mm512_cmpge_epu32_mask utfxemu_cmpge_epu32_mask
#undef _mm512_cmpgt_epu16_mask
#define _mm512_cmpgt_epu16_mask utfxemu_cmpgt_epu16_mask
#undef _mm512_cmpgt_epu32_mask
#define _mm512_cmpgt_epu32_mask utfxemu_cmpgt_epu32_mask
#undef _mm512_cmplt_epi8_mask
#define _mm512_cmplt_epi8_mask utfxemu_cmplt_epi8_mask
#undef _mm512_cmplt_epu8_mask
#define _mm512_cmplt_epu8_mask utfxemu_cmplt_epu8_mask
#undef _mm512_cmplt_epu16_mask
#define _mm512_cmplt_epu16_mask utfxemu_cmplt_epu16_mask
#undef _mm512_cmplt_epu32_mask
#define _mm512_cmplt_epu32_mask utfxemu_cmplt_epu32_mask
#undef _mm512_mask_cmplt_epu8_mask
#define _mm512_mask_cmplt_epu8_mask utfxemu_mask_cmplt_epu8_mask
#undef _mm512_mask_cmplt_epi8_mask
#define _mm512_mask_cmplt_epi8_mask utfxemu_mask_cmplt_epi8_mask
#undef _mm512_cmpge_epi8_mask
#define _mm512_cmpge_epi8_mask utfxemu_cmpge_epi8_mask
#undef _mm512_test_epi8_mask
#define _mm512_test_epi8_mask utfxemu_test_epi8_mask
#undef _mm512_test_epi16_mask
#define _mm512_test_epi16_mask utfxemu_test_epi16_mask
#undef _mm512_test_epi32_mask
#define _mm512_test_epi32_mask utfxemu_test_epi32_mask
#undef _mm512_movepi8_mask
#define _mm512_movepi8_mask utfxemu_movepi8_mask

/* ---------------------------------------------------------------- masked moves */
static inline utfxemu_m512i utfxemu_mask_mov_epi8(utfxemu_m512i src, __mmask64 k,
                                                  utfxemu_m512i a) {
  UTFXEMU_EACH(j, 64) if (UTFXEMU_BIT(k, j)) src.u8[j] = a.u8[j];
  return src;
}
static inline utfxemu_m512i utfxemu_mask_mov_epi16(utfxemu_m512i src, __mmask32 k,
                                                   utfxemu_m512i a) {
  UTFXEMU_EACH(j, 32) if (UTFXEMU_BIT(k, j)) src.u16[j] = a.u16[j];
  return src;
}
static inline utfxemu_m512i utfxemu_mask_mov_epi32(utfxemu_m512i src, __mmask16 k,
                                                   utfxemu_m512i a) {
  UTFXEMU_EACH(j, 16) if (UTFXEMU_BIT(k, j)) src.u32[j] = a.u32[j];
  return src;
}
static inline utfxemu_m512i utfxemu_maskz_mov_epi8(__mmask64 k, utfxemu_m512i a) {
  return utfxemu_mask_mov_epi8(utfxemu_zero(), k, a);
}
static inline utfxemu_m512i utfxemu_maskz_mov_epi32(__mmask16 k, utfxemu_m512i a) {
  return utfxemu_mask_mov_epi32(utfxemu_zero(), k, a);
}

#undef _mm512_mask_mov_epi8
#define _mm512_mask_mov_epi8 utfxemu_mask_mov_epi8
#undef _mm512_mask_mov_epi16
#define _mm512_mask_mov_epi16 utfxemu_mask_mov_epi16
#undef _mm512_mask_mov_epi32
#define _mm512_mask_mov_epi32 utfxemu_mask_mov_epi32
#undef _mm512_maskz_mov_epi8
#define _mm512_maskz_mov_epi8 utfxemu_maskz_mov_epi8
#undef _mm512_maskz_mov_epi32
#define _mm512_maskz_mov_epi32 utfxemu_maskz_mov_epi32

/* ---------------------------------------------------------------- permutes */
/* Selected elements packed to the bottom in order, zeros above. */
static inline utfxemu_m512i utfxemu_maskz_compress_epi8(__mmask64 k, utfxemu_m512i a) {
  utfxemu_m512i r = utfxemu_zero();
  unsigned n = 0;
  UTFXEMU_EACH(j, 64) if (UTFXEMU_BIT(k, j)) r.u8[n++] = a.u8[j];
  return r;
}
/* VPEXPANDB with merging: the low elements of a, in order, to the positions
 * k sets; the others keep src. */
static inline utfxemu_m512i utfxemu_mask_expand_epi8(utfxemu_m512i src, __mmask64 k,
                                                     utfxemu_m512i a) {
  utfxemu_m512i r = src;
  unsigned n = 0;
  UTFXEMU_EACH(j, 64) if (UTFXEMU_BIT(k, j)) r.u8[j] = a.u8[n++];
  return r;
}
static inline utfxemu_m512i utfxemu_maskz_compress_epi16(__mmask32 k, utfxemu_m512i a) {
  utfxemu_m512i r = utfxemu_zero();
  unsigned n = 0;
  UTFXEMU_EACH(j, 32) if (UTFXEMU_BIT(k, j)) r.u16[n++] = a.u16[j];
  return r;
}
static inline utfxemu_m512i utfxemu_maskz_compress_epi32(__mmask16 k, utfxemu_m512i a) {
  utfxemu_m512i r = utfxemu_zero();
  unsigned n = 0;
  UTFXEMU_EACH(j, 16) if (UTFXEMU_BIT(k, j)) r.u32[n++] = a.u32[j];
  return r;
}

/* vpermb / vpermw / vpermd / vpermq: element j = a[idx[j]] with only the low
 * 6 / 5 / 4 / 3 index bits used (argument order: index first). */
static inline utfxemu_m512i utfxemu_maskz_permutexvar_epi8(__mmask64 k, utfxemu_m512i idx,
                                                           utfxemu_m512i a) {
  utfxemu_m512i r;
  UTFXEMU_EACH(j, 64) r.u8[j] = UTFXEMU_BIT(k, j) ? a.u8[idx.u8[j] & 63] : 0;
  return r;
}
static inline utfxemu_m512i utfxemu_permutexvar_epi8(utfxemu_m512i idx, utfxemu_m512i a) {
  return utfxemu_maskz_permutexvar_epi8(~0ull, idx, a);
}
/* the merging form: element j from src where k's bit j is clear */
static inline utfxemu_m512i utfxemu_mask_permutexvar_epi8(utfxemu_m512i src, __mmask64 k,
                                                          utfxemu_m512i idx, utfxemu_m512i a) {
  utfxemu_m512i r;
  UTFXEMU_EACH(j, 64) r.u8[j] = UTFXEMU_BIT(k, j) ? a.u8[idx.u8[j] & 63] : src.u8[j];
  return r;
}
static inline utfxemu_m512i utfxemu_permutexvar_epi16(utfxemu_m512i idx, utfxemu_m512i a) {
  utfxemu_m512i r;
  UTFXEMU_EACH(j, 32) r.u16[j] = a.u16[idx.u16[j] & 31];
  return r;
}
static inline utfxemu_m512i utfxemu_permutexvar_epi32(utfxemu_m512i idx, utfxemu_m512i a) {
  utfxemu_m512i r;
  UTFXEMU_EACH(j, 16) r.u32[j] = a.u32[idx.u32[j] & 15];
  return r;
}
/* valignd: the 32 dwords b then a, from dword imm (mod 16) on. */
static inline utfxemu_m512i utfxemu_alignr_epi32(utfxemu_m512i a, utfxemu_m512i b, int imm) {
  utfxemu_m512i r;
  UTFXEMU_EACH(j, 16) {
    unsigned k = j + ((unsigned)imm & 15);
    r.u32[j] = k < 16 ? b.u32[k] : a.u32[k - 16];
  }
  return r;
}
static inline utfxemu_m512i utfxemu_permutexvar_epi64(utfxemu_m512i idx, utfxemu_m512i a) {
  utfxemu_m512i r;
  UTFXEMU_EACH(j, 8) r.u64[j] = a.u64[idx.u64[j] & 7];
  return r;
}
/* vpermt2d: index bits 0-3 pick the dword, bit 4 the table (a or b). */
static inline utfxemu_m512i utfxemu_permutex2var_epi32(utfxemu_m512i a, utfxemu_m512i idx,
                                                       utfxemu_m512i b) {
  utfxemu_m512i r;
  UTFXEMU_EACH(j, 16) r.u32[j] = (idx.u32[j] & 16 ? b : a).u32[idx.u32[j] & 15];
  return r;
}
/* vpermt2b: index bits 0-5 pick the byte, bit 6 the table (a or b). */
static inline utfxemu_m512i utfxemu_maskz_permutex2var_epi8(__mmask64 k, utfxemu_m512i a,
                                                            utfxemu_m512i idx,
                                                            utfxemu_m512i b) {
  utfxemu_m512i r;
  UTFXEMU_EACH(j, 64) {
    unsigned x = idx.u8[j];
    r.u8[j] = !UTFXEMU_BIT(k, j) ? 0 : (x & 64) ? b.u8[x & 63] : a.u8[x & 63];
  }
  return r;
}
static inline utfxemu_m512i utfxemu_permutex2var_epi8(utfxemu_m512i a, utfxemu_m512i idx,
                                                      utfxemu_m512i b) {
  return utfxemu_maskz_permutex2var_epi8(~0ull, a, idx, b);
}
/* vpshufb: within each 128-bit lane; index bit 7 gives 0, bits 0-3 pick. */
static inline utfxemu_m512i utfxemu_shuffle_epi8(utfxemu_m512i a, utfxemu_m512i b) {
  utfxemu_m512i r;
  UTFXEMU_EACH(j, 64) {
    unsigned x = b.u8[j];
    r.u8[j] = (x & 0x80) ? 0 : a.u8[(j & ~15u) + (x & 15)];
  }
  return r;
}

#undef _mm512_maskz_compress_epi8
#define _mm512_maskz_compress_epi8 utfxemu_maskz_compress_epi8
#undef _mm512_mask_expand_epi8
#define _mm512_mask_expand_epi8 utfxemu_mask_expand_epi8
#undef _mm512_maskz_compress_epi16
#define _mm512_maskz_compress_epi16 utfxemu_maskz_compress_epi16
#undef _mm512_maskz_compress_epi32
#define _mm512_maskz_compress_epi32 utfxemu_maskz_compress_epi32
#undef _mm512_maskz_permutexvar_epi8
#define _mm512_maskz_permutexvar_epi8 utfxemu_maskz_permutexvar_epi8
#undef _mm512_permutexvar_epi8
#define _mm512_permutexvar_epi8 utfxemu_permutexvar_epi8
#undef _mm512_mask_permutexvar_epi8
#define _mm512_mask_permutexvar_epi8 utfxemu_mask_permutexvar_epi8
#undef _mm512_permutexvar_epi16
#define _mm512_permutexvar_epi16 utfxemu_permutexvar_epi16
#undef _mm512_permutexvar_epi32
#define _mm512_permutexvar_epi32 utfxemu_permutexvar_epi32
#undef _mm512_alignr_epi32
#define _mm512_alignr_epi32 utfxemu_alignr_epi32
#undef _mm512_permutexvar_epi64
#define _mm512_permutexvar_epi64 utfxemu_permutexvar_epi64
#undef _mm512_permutex2var_epi32
#define _mm512_permutex2var_epi32 utfxemu_permutex2var_epi32
#undef _mm512_maskz_permutex2var_epi8
#define _mm512_maskz_permutex2var_epi8 utfxemu_maskz_permutex2var_epi8
#undef _mm512_permutex2var_epi8
#define _mm512_permutex2var_epi8 utfxemu_permutex2var_epi8
#undef _mm512_shuffle_epi8
#define _mm512_shuffle_epi8 utfxemu_shuffle_epi8

/* ---------------------------------------------------------------- widen, narrow */
/* vpmovzx*: `count` little-endian elements of `from` bytes at in, zero-extended
 * to fill the 64 bytes. */
static inline utfxemu_m512i utfxemu_zext(const unsigned char *in, unsigned count,
                                         unsigned from) {
  utfxemu_m512i r;
  UTFXEMU_EACH(j, count) {
    uint32_t x = from == 1 ? in[j] : (uint32_t)(in[2 * j] | in[2 * j + 1] << 8);
    if (count == 32)
      r.u16[j] = (uint16_t)x;
    else
      r.u32[j] = x;
  }
  return r;
}
#define UTFXEMU_ZEXT(name, vec_t, store, count, from)       \
  static inline __attribute__((always_inline)) utfxemu_m512i name(vec_t a) { \
    unsigned char b[sizeof(vec_t)];                         \
    store((vec_t *)(void *)b, a);                           \
    return utfxemu_zext(b, count, from);                    \
  }
UTFXEMU_ZEXT(utfxemu_cvtepu8_epi16, __m256i, _mm256_storeu_si256, 32, 1)
UTFXEMU_ZEXT(utfxemu_cvtepu8_epi32, __m128i, _mm_storeu_si128, 16, 1)
UTFXEMU_ZEXT(utfxemu_cvtepu16_epi32, __m256i, _mm256_storeu_si256, 16, 2)
/* vpmovwb / vpmovdw / vpmovdb truncate (the vpmovus* forms would saturate). */
static inline __m256i utfxemu_cvtepi16_epi8(utfxemu_m512i a) {
  unsigned char b[32];
  UTFXEMU_EACH(j, 32) b[j] = (unsigned char)a.u16[j];
  return _mm256_loadu_si256((const __m256i *)(const void *)b);
}
static inline __m256i utfxemu_cvtepi32_epi16(utfxemu_m512i a) {
  uint16_t h[16];
  UTFXEMU_EACH(j, 16) h[j] = (uint16_t)a.u32[j];
  return _mm256_loadu_si256((const __m256i *)(const void *)h);
}
static inline __m128i utfxemu_cvtepi32_epi8(utfxemu_m512i a) {
  unsigned char b[16];
  UTFXEMU_EACH(j, 16) b[j] = (unsigned char)a.u32[j];
  return _mm_loadu_si128((const __m128i *)(const void *)b);
}
/* vpackuswb / vpackusdw: signed to unsigned saturation (vpacksswb: to
 * signed), per 128-bit lane the low half from a, the high half from b. */
#define UTFXEMU_PACKUS(name, in, out, per_lane, min, max, out_t)                 \
  static inline utfxemu_m512i name(utfxemu_m512i a, utfxemu_m512i b) {         \
    utfxemu_m512i r;                                                           \
    UTFXEMU_EACH(l, 4) {                                                       \
      for (unsigned j = 0; j < (per_lane); j++) {                              \
        int32_t x = a.in[(per_lane) * l + j], y = b.in[(per_lane) * l + j];    \
        r.out[2 * (per_lane) * l + j] = (out_t)(x < (min) ? (min) : x > (max) ? (max) : x); \
        r.out[2 * (per_lane) * l + (per_lane) + j] =                           \
            (out_t)(y < (min) ? (min) : y > (max) ? (max) : y);                \
      }                                                                        \
    }                                                                          \
    return r;                                                                  \
  }
UTFXEMU_PACKUS(utfxemu_packus_epi16, i16, u8, 8u, 0, 255, uint8_t)
UTFXEMU_PACKUS(utfxemu_packus_epi32, i32, u16, 4u, 0, 65535, uint16_t)
UTFXEMU_PACKUS(utfxemu_packs_epi16, i16, i8, 8u, -128, 127, int8_t)
/* vcvtudq2ps: unsigned 32-bit to float, rounded to nearest even (the
 * default MXCSR mode, which C's conversion uses too). */
static inline utfxemu_m512 utfxemu_cvtepu32_ps(utfxemu_m512i a) {
  utfxemu_m512 r;
  UTFXEMU_EACH(j, 16) r.f[j] = (float)a.u32[j];
  return r;
}

#undef _mm512_cvtepu8_epi16
#define _mm512_cvtepu8_epi16 utfxemu_cvtepu8_epi16
#undef _mm512_cvtepu8_epi32
#define _mm512_cvtepu8_epi32 utfxemu_cvtepu8_epi32
#undef _mm512_cvtepu16_epi32
#define _mm512_cvtepu16_epi32 utfxemu_cvtepu16_epi32
#undef _mm512_cvtepi16_epi8
#define _mm512_cvtepi16_epi8 utfxemu_cvtepi16_epi8
#undef _mm512_cvtepi32_epi16
#define _mm512_cvtepi32_epi16 utfxemu_cvtepi32_epi16
#undef _mm512_cvtepi32_epi8
#define _mm512_cvtepi32_epi8 utfxemu_cvtepi32_epi8
#undef _mm512_packus_epi16
#define _mm512_packus_epi16 utfxemu_packus_epi16
#undef _mm512_packus_epi32
#define _mm512_packus_epi32 utfxemu_packus_epi32
#undef _mm512_packs_epi16
#define _mm512_packs_epi16 utfxemu_packs_epi16
#undef _mm512_cvtepu32_ps
#define _mm512_cvtepu32_ps utfxemu_cvtepu32_ps

#endif
