/* Static-inline helpers shared by the AVX2 UTF-16 / UTF-32 / Latin-1 kernels
 * (avx2_utf16_*.c, avx2_utf32.c): UTF-16 loads in either byte order, 32-unit
 * surrogate masks, and the UTF-8 encoders of 8 units
 * (pshufb tables of utf8_pack_tables.h). */
#ifndef UTFX_X86_AVX2_UTF16_COMMON_H
#define UTFX_X86_AVX2_UTF16_COMMON_H

#ifndef __AVX2__
#error "avx2_utf16_common.h needs the avx2 tier flags (UTFX_AVX2_FLAGS, sources.mk)"
#endif

#include <immintrin.h>

#include "../../scalar/unicode.h"
#include "vec_avx2.h"
#include "../../simd/utf8_pack_tables.h"

/* Pins a vector constant in a register: without it GCC rebuilds set1
 * constants inside loops (a GPR move and a broadcast each time). */
#define A2_PIN(x) __asm__("" : "+x"(x))

/* Byte swap of each 16-bit lane. */
static inline __m256i a2_bswap16(__m256i v) { return v16_bswap(v); }

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

/* UTF-8 of 8 units below 0x800 (16-bit lanes): two 16-byte halves and their
 * lengths. Bit j of `two` (8 bits per 128-bit lane): unit j is >= 0x80. */
static inline void a2_encode_2byte_x16(__m256i v, uint32_t two, __m128i *out0, __m128i *out1) {
  __m256i lead = _mm256_or_si256(_mm256_srli_epi16(v, 6), _mm256_set1_epi16(0xC0));
  __m256i trail =
      _mm256_or_si256(_mm256_and_si256(_mm256_slli_epi16(v, 8), _mm256_set1_epi16(0x3F00)),
                      _mm256_set1_epi16((short)0x8000));
  __m256i ascii = _mm256_cmpeq_epi16(_mm256_and_si256(v, _mm256_set1_epi16((short)0xFF80)),
                                     _mm256_setzero_si256());
  __m256i words = _mm256_blendv_epi8(_mm256_or_si256(lead, trail), v, ascii);
  __m128i lo = _mm256_castsi256_si128(words), hi = _mm256_extracti128_si256(words, 1);
  *out0 = _mm_shuffle_epi8(lo, _mm_loadu_si128((const __m128i *)utfxi_pack_2byte[two & 0xFF]));
  *out1 = _mm_shuffle_epi8(hi, _mm_loadu_si128((const __m128i *)utfxi_pack_2byte[two >> 8 & 0xFF]));
}

/* The 1-, 2- or 3-byte UTF-8 forms of 8 BMP values in 32-bit lanes (bytes
 * in memory order), and which lanes are >= 0x80 and >= 0x800. */
UTFXI_INLINE __m256i a2_utf8_forms_x8(__m256i c, __m256i *ge80, __m256i *ge800) {
  __m256i low6 = _mm256_and_si256(c, _mm256_set1_epi32(0x3F));
  __m256i mid6 = _mm256_and_si256(_mm256_srli_epi32(c, 6), _mm256_set1_epi32(0x3F));
  __m256i two =
      _mm256_or_si256(_mm256_or_si256(_mm256_srli_epi32(c, 6), _mm256_slli_epi32(low6, 8)),
                      _mm256_set1_epi32(0x80C0));
  __m256i three =
      _mm256_or_si256(_mm256_or_si256(_mm256_srli_epi32(c, 12), _mm256_slli_epi32(mid6, 8)),
                      _mm256_or_si256(_mm256_slli_epi32(low6, 16), _mm256_set1_epi32(0x8080E0)));
  *ge80 = _mm256_cmpgt_epi32(c, _mm256_set1_epi32(0x7F));
  *ge800 = _mm256_cmpgt_epi32(c, _mm256_set1_epi32(0x7FF));
  return _mm256_blendv_epi8(_mm256_blendv_epi8(c, two, *ge80), three, *ge800);
}

/* UTF-8 of 8 BMP non-surrogate values in 32-bit lanes: two 16-byte halves
 * (4 values each) and their lengths. */
static inline void a2_encode_3byte_x8(__m256i c, __m128i *out0, size_t *len0, __m128i *out1,
                                      size_t *len1) {
  __m256i ge80, ge800, bytes = a2_utf8_forms_x8(c, &ge80, &ge800);
  unsigned m2 = (unsigned)_mm256_movemask_ps(_mm256_castsi256_ps(ge80));
  unsigned m3 = (unsigned)_mm256_movemask_ps(_mm256_castsi256_ps(ge800));
  unsigned i0 = (m2 & 0xF) | (m3 & 0xF) << 4, i1 = (m2 >> 4) | (m3 >> 4) << 4;
  *out0 = _mm_shuffle_epi8(_mm256_castsi256_si128(bytes),
                           _mm_loadu_si128((const __m128i *)utfxi_pack_3byte[i0]));
  *out1 = _mm_shuffle_epi8(_mm256_extracti128_si256(bytes, 1),
                           _mm_loadu_si128((const __m128i *)utfxi_pack_3byte[i1]));
  *len0 = 4 + (size_t)_mm_popcnt_u32(m2 & 0xF) + (size_t)_mm_popcnt_u32(m3 & 0xF);
  *len1 = 4 + (size_t)_mm_popcnt_u32(m2 >> 4) + (size_t)_mm_popcnt_u32(m3 >> 4);
}

/* UTF-8 in 16-bit lanes (after the layout of simdutf's haswell kernel):
 * each unit's four candidate bytes (utfxi_pack_123byte) in two words,
 * first = [c, 0x80 | (c & 0x3F)] and second = [0xE0 | c >> 12, 2-byte lead
 * or middle byte], so that no byte but one XOR depends on the length; one
 * PSHUFB per 8 units packs them. Widening to 32-bit lanes and blending the
 * three forms (two VPBLENDVB) instead was slower (docs/perf-decisions.md,
 * 'UTF-16 -> UTF-8'). */
UTFXI_INLINE __m256i a2_utf8_first_words(__m256i v) {
  const __m256i dup_low = _mm256_setr_epi8(0, 0, 2, 2, 4, 4, 6, 6, 8, 8, 10, 10, 12, 12, 14, 14, 0,
                                           0, 2, 2, 4, 4, 6, 6, 8, 8, 10, 10, 12, 12, 14, 14);
  return _mm256_or_si256(
      _mm256_and_si256(_mm256_shuffle_epi8(v, dup_low), _mm256_set1_epi16(0x3F7F)),
      _mm256_set1_epi16((short)0x8000));
}
/* lt800: the units below 0x800 (all-ones lanes) */
UTFXI_INLINE __m256i a2_utf8_second_words(__m256i v, __m256i lt800) {
  /* [c >> 12, c >> 6 & 0x3F] by a multiply-add of (c >> 4 & 0x0FFC)'s bytes */
  __m256i second = _mm256_maddubs_epi16(
      _mm256_and_si256(_mm256_srli_epi16(v, 4), _mm256_set1_epi16(0x0FFC)),
      _mm256_set1_epi16(0x0140));
  return _mm256_xor_si256(_mm256_or_si256(second, _mm256_set1_epi16((short)0xC0E0)),
                          _mm256_andnot_si256(lt800, _mm256_set1_epi16(0x4000)));
}

/* Packs the words of 16 units whose lengths are 1 + (not lt80) + (not
 * two): four 16-byte parts (units 4k..4k + 3) and where each ends (ends[k]:
 * the UTF-8 length of units 0..4k + 3). */
UTFXI_INLINE void a2_utf8_pack_x16(__m256i first, __m256i second, __m256i lt80, __m256i two,
                                   __m128i out[4], size_t ends[4]) {
  const __m256i groups = _mm256_setr_epi8(0, 1, 2, 3, 8, 9, 10, 11, 4, 5, 6, 7, 12, 13, 14, 15, 0,
                                          1, 2, 3, 8, 9, 10, 11, 4, 5, 6, 7, 12, 13, 14, 15);
  const unsigned char *rows = (const unsigned char *)utfxi_pack_123byte;
  __m256i slots0 = _mm256_unpacklo_epi16(first, second); /* units 0-3, 8-11 */
  __m256i slots1 = _mm256_unpackhi_epi16(first, second); /* units 4-7, 12-15 */
  /* byte k of m: units 4k..4k + 3, bits 0-3 >= 0x80, bits 4-7 >= 0x800 */
  __m256i idx = _mm256_shuffle_epi8(_mm256_packs_epi16(lt80, two), groups);
  uint64_t m = (uint32_t)~_mm256_movemask_epi8(idx);
  /* table rows are 16 bytes: their byte offsets straight from m */
  __m256i shuf0 = _mm256_inserti128_si256(
      _mm256_castsi128_si256(_mm_loadu_si128((const __m128i *)(const void *)(rows + (m << 4 & 0xFF0)))),
      _mm_loadu_si128((const __m128i *)(const void *)(rows + (m >> 12 & 0xFF0))), 1);
  __m256i shuf1 = _mm256_inserti128_si256(
      _mm256_castsi128_si256(_mm_loadu_si128((const __m128i *)(const void *)(rows + (m >> 4 & 0xFF0)))),
      _mm_loadu_si128((const __m128i *)(const void *)(rows + (m >> 20 & 0xFF0))), 1);
  slots0 = _mm256_shuffle_epi8(slots0, shuf0);
  slots1 = _mm256_shuffle_epi8(slots1, shuf1);
  out[0] = _mm256_castsi256_si128(slots0);
  out[1] = _mm256_castsi256_si128(slots1);
  out[2] = _mm256_extracti128_si256(slots0, 1);
  out[3] = _mm256_extracti128_si256(slots1, 1);
  /* a unit's length is 1 + its two bits */
  ends[0] = 4 + (size_t)_mm_popcnt_u64(m & 0xFF);
  ends[1] = 8 + (size_t)_mm_popcnt_u64(m & 0xFFFF);
  ends[2] = 12 + (size_t)_mm_popcnt_u64(m & 0xFFFFFF);
  ends[3] = 16 + (size_t)_mm_popcnt_u64(m);
}

/* UTF-8 of 16 BMP non-surrogate units (16-bit lanes of v, host order). */
UTFXI_INLINE void a2_encode_bmp_x16(__m256i v, __m128i out[4], size_t ends[4]) {
  __m256i lt800 = a2_top_eq(v, 0xF800, 0);
  a2_utf8_pack_x16(a2_utf8_first_words(v), a2_utf8_second_words(v, lt800),
                   a2_top_eq(v, 0xFF80, 0), lt800, out, ends);
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

/* 16 values below 0x10000 (32-bit lanes of a, then b) as 16 UTF-16 units,
 * in order. */
static inline __m256i a2_narrow16(__m256i a, __m256i b) {
  return _mm256_permute4x64_epi64(_mm256_packus_epi32(a, b), 0xD8);
}

/* Sources of the UTF-8 run loops below: UTF-16 in either byte order, or
 * UTF-32 narrowed to 16 bits. */
enum a2_source { A2_UTF16LE, A2_UTF16BE, A2_UTF32 };

/* The 16 source units at index i as 16-bit units in host order. A UTF-32
 * value that is not a BMP scalar value becomes 0xD800 (and a surrogate
 * stays one), so that for every source "no surrogate" means "16 BMP
 * characters". */
UTFXI_INLINE __m256i a2_load_bmp16(const void *s, size_t i, enum a2_source k) {
  if (k == A2_UTF32) {
    const __m256i x10000 = _mm256_set1_epi32(0x10000), x2800 = _mm256_set1_epi32(0x10000 - 0xD800);
    const char32_t *p = (const char32_t *)s + i;
    __m256i a = _mm256_min_epu32(_mm256_loadu_si256((const __m256i *)(const void *)p), x10000);
    __m256i b = _mm256_min_epu32(_mm256_loadu_si256((const __m256i *)(const void *)(p + 8)), x10000);
    a = _mm256_sub_epi32(a, _mm256_and_si256(_mm256_cmpeq_epi32(a, x10000), x2800));
    b = _mm256_sub_epi32(b, _mm256_and_si256(_mm256_cmpeq_epi32(b, x10000), x2800));
    return a2_narrow16(a, b);
  }
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
  A2_PIN(f800);
  A2_PIN(ff80);
  for (;;) {
    __m256i is1 = _mm256_cmpeq_epi16(_mm256_and_si256(v, ff80), _mm256_setzero_si256());
    uint32_t mm = ~(uint32_t)_mm256_movemask_epi8(_mm256_packs_epi16(is1, is1));
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
