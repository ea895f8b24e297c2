/* Static-inline helpers shared by the AVX2 UTF-16 kernels (avx2_utf16_*.c):
 * UTF-16 loads in either byte order, 32-unit surrogate masks, and the UTF-8
 * run loops over the vocabulary's UTF-8 encoders (vec_avx2.h). */
#ifndef UTFX_X86_AVX2_UTF16_COMMON_H
#define UTFX_X86_AVX2_UTF16_COMMON_H

#ifndef __AVX2__
#error "avx2_utf16_common.h needs the avx2 tier flags (UTFX_AVX2_FLAGS, sources.mk)"
#endif

#include <immintrin.h>

#include "../../scalar/unicode.h"
#include "vec_avx2.h"
#include "../../simd/utf8_pack_tables.h"

/* 16 units at p (all must be in the buffer), as host-order values; lanes of
 * v whose top bits equal `value` under `mask`; one bit per unit (bit j =
 * unit j) of two 16-lane compare results: the generic kernels' vocabulary
 * (vec_avx2.h). */
#define a2_load16 v16_load
#define a2_top_eq(v, mask, value) v16_top_eq((v), (unsigned)(mask), (unsigned)(value))
static inline uint32_t a2_unit_mask(__m256i a, __m256i b) { return (uint32_t)v16_bits2(a, b); }

/* Nonzero if some unit of v is a surrogate. */
static inline int a2_any_surrogate(__m256i v) {
  return !_mm256_testz_si256(a2_top_eq(v, 0xF800, 0xD800), a2_top_eq(v, 0xF800, 0xD800));
}

/* If the 16 units of v (host order) are 8 well-formed pairs, each in one
 * 32-bit lane (high surrogate low), returns nonzero and their code points. */
static inline int a2_aligned_pairs(__m256i v, __m256i *cp) {
  const __m256i pattern = _mm256_set1_epi32((int)0xDC00D800u);
  __m256i top = _mm256_and_si256(v, _mm256_set1_epi16((short)0xFC00));
  __m256i x = _mm256_xor_si256(top, pattern);
  __m256i c3ff = _mm256_set1_epi32(0x3FF);
  if (!_mm256_testz_si256(x, x)) return 0;
  *cp = _mm256_add_epi32(_mm256_or_si256(_mm256_slli_epi32(_mm256_and_si256(v, c3ff), 10),
                                         _mm256_and_si256(_mm256_srli_epi32(v, 16), c3ff)),
                         _mm256_set1_epi32(0x10000));
  return 1;
}

/* How many units from s[i] (a 16-unit block with surrogates) the scalar code
 * takes: the block, plus unit 16 when units 15 and 16 form a pair, so that a
 * pair is never split between scalar and vector code. */
static inline size_t a2_scalar_region(const char16_t *s, size_t n, size_t i, int be) {
  return n - i > 16 && (utfxi_load16(s + i + 15, be) & 0xFC00) == 0xD800 &&
                 (utfxi_load16(s + i + 16, be) & 0xFC00) == 0xDC00
             ? 17
             : 16;
}

/* The same for 16 units whose surrogates are all halves of pairs inside
 * them, but for a high one at unit 15 when take is 15 (it is left out).
 * Each half of a pair makes two of its four bytes, in the slots of a
 * 2-byte form: with hh = (high & 0x3FF) + 0x40 (the code point >> 10), the
 * high half makes 0xF0 | hh >> 8 and 0x80 | (hh >> 2 & 0x3F), the low one
 * 0x80 | (high & 3) << 4 | (low >> 6 & 0xF) (the high half being the unit
 * before it) and 0x80 | (low & 0x3F). */
UTFXI_INLINE void a2_encode_paired_x16(__m256i v, size_t take, __m128i out[4], size_t ends[4]) {
  __m256i lt800 = a2_top_eq(v, 0xF800, 0);
  __m256i sur = a2_top_eq(v, 0xF800, 0xD800), high = a2_top_eq(v, 0xFC00, 0xD800);
  __m256i hh = _mm256_add_epi16(_mm256_and_si256(v, _mm256_set1_epi16(0x3FF)),
                                _mm256_set1_epi16(0x40));
  __m256i prev = _mm256_alignr_epi8(v, _mm256_permute2x128_si256(v, v, 0x08), 14);
  __m256i first_high = _mm256_or_si256(
      _mm256_and_si256(_mm256_slli_epi16(hh, 6), _mm256_set1_epi16(0x3F00)),
      _mm256_set1_epi16((short)0x8000));
  __m256i second_high = _mm256_or_si256(_mm256_and_si256(hh, _mm256_set1_epi16((short)0xFF00)),
                                        _mm256_set1_epi16((short)0xF000));
  __m256i second_low = _mm256_or_si256(
      _mm256_or_si256(_mm256_and_si256(_mm256_slli_epi16(prev, 12), _mm256_set1_epi16(0x3000)),
                      _mm256_and_si256(_mm256_slli_epi16(v, 2), _mm256_set1_epi16(0x0F00))),
      _mm256_set1_epi16((short)0x8000));
  __m256i first = _mm256_blendv_epi8(a2_utf8_first_words(v), first_high, high);
  __m256i second = _mm256_blendv_epi8(a2_utf8_second_words(v, lt800),
                                      _mm256_blendv_epi8(second_low, second_high, high), sur);
  a2_utf8_pack_x16(first, second, a2_top_eq(v, 0xFF80, 0), _mm256_or_si256(lt800, sur), out, ends);
  if (take == 15) ends[3] -= 2; /* the high half at unit 15: its 2 bytes end the output */
}

/* Stores the four parts of a2_encode_*_x16 (ends e) at d. A part's store
 * is whole (16 bytes) where the block's later parts overwrite what it
 * spills, or where `spill` says the caller's next output will; the others
 * write exactly their bytes. */
UTFXI_INLINE void a2_store_utf8_parts(unsigned char *d, const __m128i o[4], const size_t e[4],
                                      int spill) {
  v_store_prefix16(d, o[0], e[0], spill || 16 <= e[3]);
  v_store_prefix16(d + e[0], o[1], e[1] - e[0], spill || e[0] + 16 <= e[3]);
  v_store_prefix16(d + e[1], o[2], e[2] - e[1], spill || e[1] + 16 <= e[3]);
  v_store_prefix16(d + e[2], o[3], e[3] - e[2], spill);
}

/* If every surrogate of the 16 units of v (host order) is half of a pair
 * inside the block (a high one at unit 15 is left for the next block),
 * returns how many units the block takes (15 or 16), else 0. */
UTFXI_INLINE size_t a2_paired_units(__m256i v) {
  uint32_t m = a2_unit_mask(a2_top_eq(v, 0xFC00, 0xD800), a2_top_eq(v, 0xFC00, 0xDC00));
  uint32_t high = m & 0x7FFF, low = m >> 16;
  return low == high << 1 ? 16 - (m >> 15 & 1) : 0;
}

/* Sources of the UTF-8 run loops below: UTF-16 in either byte order. */
enum a2_source { A2_UTF16LE, A2_UTF16BE };

/* The 16 source units at index i as 16-bit units in host order. */
UTFXI_INLINE __m256i a2_load_bmp16(const void *s, size_t i, enum a2_source k) {
  return a2_load16((const char16_t *)s + i, k == A2_UTF16BE);
}

/* UTF-8 of a run of 16-unit blocks below 0x800 (Cyrillic, Greek, Hebrew,
 * Arabic text), from v, the block at *i, on. Each block loads the next one
 * ahead, to know whether its last store may spill (the next block, BMP
 * too, then overwrites it) and whether to go on: the run ends at a block of
 * another kind, or all ASCII (the callers' 32-unit steps are faster), or
 * where fewer than 16 units are left, or where the room after the next
 * block would drop below step_room (the room the caller needs for a step;
 * bounded callers only). The caller has checked room for v (48 bytes). */
UTFXI_INLINE void a2_utf8_run_below800(const void *s, size_t n, size_t *pi, unsigned char *d,
                                       size_t cap, size_t *pw, __m256i v, enum a2_source k,
                                       int bounded, size_t step_room) {
  __m256i f800 = _mm256_set1_epi16((short)0xF800), ff80 = _mm256_set1_epi16((short)0xFF80);
  size_t i = *pi, w = *pw;
  V_LOADED(f800); /* kept in registers, not rebuilt in the loop (generic.h) */
  V_LOADED(ff80);
  for (;;) {
    /* the compare of a2_encode_2byte_x16's forms (one for both) */
    __m256i two_byte = _mm256_cmpgt_epi16(v, _mm256_set1_epi16(0x7F));
    uint32_t mm = (uint32_t)_mm256_movemask_epi8(_mm256_packs_epi16(two_byte, two_byte));
    uint32_t two = (mm & 0xFF) | (mm >> 8 & 0xFF00);
    size_t len0 = 8 + (size_t)_mm_popcnt_u32(two & 0xFF),
           len1 = 8 + (size_t)_mm_popcnt_u32(two >> 8);
    int have = n - i >= 32 && (!bounded || cap - w >= 32 + step_room), more, sp;
    __m256i next = have ? a2_load_bmp16(s, i + 16, k) : v;
    __m128i out0, out1;
    more = have && _mm256_testz_si256(next, f800);
    /* the next block overwrites a spill unless it goes to scalar code */
    sp = more || (have && !a2_any_surrogate(next));
    a2_encode_2byte_x16(v, two, &out0, &out1);
    v_store_prefix16(d + w, out0, len0, 1);
    v_store_prefix16(d + w + len0, out1, len1, sp);
    i += 16;
    w += len0 + len1;
    if (!more || _mm256_testz_si256(next, ff80)) break;
    v = next;
  }
  *pi = i;
  *pw = w;
}

/* The same for runs of BMP blocks with 3-byte characters (Indic, CJK,
 * Hangul text); blocks below 0x800 stay in the run (one kind of block after
 * another would mispredict the branch that leaves it), which ends as the
 * loop above but at any BMP block. */
UTFXI_INLINE void a2_utf8_run_bmp(const void *s, size_t n, size_t *pi, unsigned char *d,
                                  size_t cap, size_t *pw, __m256i v, enum a2_source k, int bounded,
                                  size_t step_room) {
  size_t i = *pi, w = *pw, e[4];
  __m128i o[4];
  for (;;) {
    int more = n - i >= 32 && (!bounded || cap - w >= 48 + step_room);
    __m256i next = more ? a2_load_bmp16(s, i + 16, k) : v;
    more = more && !a2_any_surrogate(next);
    a2_encode_bmp_x16(v, o, e);
    a2_store_utf8_parts(d + w, o, e, more); /* the next block, SIMD too when `more` */
    w += e[3];
    i += 16;
    if (!more) break;
    v = next;
  }
  *pi = i;
  *pw = w;
}

#endif
