/* The AVX-512 length kernels that are not generic (the others are in
 * avx512_generic.c): the UTF-8 lengths of Latin-1 (n plus the bytes >= 0x80,
 * summed with VPSADBW) and of UTF-32 (from the leading zeros with VPERMB,
 * faster than the generic kernel's three compares per vector:
 * docs/perf-decisions.md, 'UTF-8 length of UTF-32'). */
#ifndef __AVX512VBMI2__
#error "avx512_* files must be compiled with the avx512 tier flags (UTFX_AVX512_FLAGS, sources.mk)"
#endif

#include "avx512_utf16_common.h"
#include "../../simd/generic_ascii.h"
#include "../x86_prototypes.h"

/* Leading ASCII by g_ascii_run8_apart: on ASCII text the counting steps
 * below are bound by their VPSADBW, on port 5. */
size_t utfxi_utf8_length_from_latin1_avx512(const char *s, size_t n) {
  /* n plus the bytes >= 0x80: vpsadbw sums the top bits (0 or 0x80 per byte)
   * into 64-bit lanes, all in vector registers; the sum is 0x80 per byte. */
  __m512i c80 = _mm512_set1_epi8((char)0x80), zero = _mm512_setzero_si512();
  __m512i acc0 = zero, acc1 = zero;
  size_t i = 0, high = 0;
  V_LOADED(c80);
  if (UTFXI_ALIGN_HEAD(*s, n)) {
    /* A masked head makes the loads below 64-byte aligned: the loop is
     * load-bound, and a load across two cache lines costs two. */
    i = utfxi_aligning_step(s, 1, 64, 0, 1);
    high = (size_t)_mm_popcnt_u64(_mm512_movepi8_mask(a512_load8(s, i)));
    i = g_ascii_run8_apart(s, n, i); /* leading ASCII (text, markup) */
  }
  for (; n - i >= 256; i += 256) {
    __m512i a = _mm512_and_si512(_mm512_loadu_si512(s + i), c80);
    __m512i b = _mm512_and_si512(_mm512_loadu_si512(s + i + 64), c80);
    __m512i c = _mm512_and_si512(_mm512_loadu_si512(s + i + 128), c80);
    __m512i d = _mm512_and_si512(_mm512_loadu_si512(s + i + 192), c80);
    acc0 = _mm512_add_epi64(acc0,
                            _mm512_add_epi64(_mm512_sad_epu8(a, zero), _mm512_sad_epu8(b, zero)));
    acc1 = _mm512_add_epi64(acc1,
                            _mm512_add_epi64(_mm512_sad_epu8(c, zero), _mm512_sad_epu8(d, zero)));
  }
  high += (size_t)_mm512_reduce_add_epi64(_mm512_add_epi64(acc0, acc1)) >> 7;
  for (; i < n; i += 64) {
    size_t k = n - i < 64 ? n - i : 64;
    __m512i v = a512_load8(s + i, k);
    high += (size_t)_mm_popcnt_u64(_mm512_movepi8_mask(v));
  }
  return utfxi_add_sat(n, high);
}

/* One chunk (n <= UTFXI_LENGTH_CHUNK, so the per-lane sums cannot wrap). A
 * leaf but for the scalar tail call: short inputs, the common call, pay no
 * frame (a call inside the loop made the kernel save five registers and
 * realign the stack on every call). */
static size_t a512_utf8_length_from_utf32_exact(const char32_t *s, size_t n);

UTFXI_INLINE size_t a512_utf8_length_from_utf32_body(const char32_t *s, size_t n, int exact) {
  /* Bytes beyond the first, from the leading zero bits (VPLZCNTD, 32 for
   * v = 0; fewer operations than the float exponent's conversion and
   * shift): vpermb looks them up by that count, 0..32 in the lane's low
   * byte (its other bytes, 0, look up table[0] = 0): 0 for 25..32 zeros,
   * 1 for 21..24, 2 for 16..20, 3 for 11..15. Values above 0x10FFFF would
   * count wrongly: the OR of the values (one VPTERNLOG for two vectors, not
   * two maxima) is above 0x10FFFF if there is one, and such a chunk is
   * looked at again with the exact maximum (exact); also a chunk with a
   * value of plane 16 and one of planes 1-15, whose OR is above it too. A
   * chunk with one, ill-formed input, is counted by the scalar kernel. */
  __m512i table = _mm512_setr_epi32(0, 0, 0x03000000, 0x03030303, 0x02020202, 0x01010102, 1, 0, 0,
                                    0, 0, 0, 0, 0, 0, 0);
  __m512i top = _mm512_setzero_si512(), acc0 = top, acc1 = top;
  size_t i = 0;
  V_LOADED(table);
  for (; n - i >= 32; i += 32) {
    __m512i a = _mm512_loadu_si512(s + i), b = _mm512_loadu_si512(s + i + 16), ea, eb;
    V_LOADED(a); /* (else gcc loads each vector twice, into the count and the maximum) */
    V_LOADED(b);
    ea = _mm512_lzcnt_epi32(a);
    eb = _mm512_lzcnt_epi32(b);
    top = exact ? _mm512_max_epu32(top, _mm512_max_epu32(a, b))
                : _mm512_ternarylogic_epi32(top, a, b, 0xFE); /* top | a | b */
    acc0 = _mm512_add_epi32(acc0, _mm512_permutexvar_epi8(ea, table));
    acc1 = _mm512_add_epi32(acc1, _mm512_permutexvar_epi8(eb, table));
  }
  for (; i < n; i += 16) {
    size_t k = n - i < 16 ? n - i : 16;
    __m512i a = a512_load32(s + i, k);
    __m512i ea = _mm512_lzcnt_epi32(a);
    top = exact ? _mm512_max_epu32(top, a) : _mm512_or_si512(top, a);
    acc0 = _mm512_add_epi32(acc0, _mm512_permutexvar_epi8(ea, table));
  }
  if (UTFXI_UNLIKELY(_mm512_cmpgt_epu32_mask(top, _mm512_set1_epi32(0x10FFFF))))
    return exact ? utfxi_utf8_length_from_utf32_scalar(s, n)
                 : a512_utf8_length_from_utf32_exact(s, n);
  return n + (size_t)(uint32_t)_mm512_reduce_add_epi32(_mm512_add_epi32(acc0, acc1));
}

UTFXI_INLINE size_t a512_utf8_length_from_utf32(const char32_t *s, size_t n) {
  return a512_utf8_length_from_utf32_body(s, n, 0);
}
/* The chunk again with the exact maximum (rare: out of line). */
__attribute__((noinline)) static size_t a512_utf8_length_from_utf32_exact(const char32_t *s,
                                                                            size_t n) {
  return a512_utf8_length_from_utf32_body(s, n, 1);
}

/* Long inputs: the values before the first 64-byte boundary first, then
 * the loop on aligned loads (a load across two cache lines costs two, and
 * with 4-byte-aligned input every 64-byte load crossed one), in chunks.
 * Out of line: short inputs do not pay for it. */
__attribute__((noinline)) static size_t a512_utf8_length_from_utf32_long(const char32_t *s,
                                                                           size_t n) {
  size_t i = utfxi_aligning_step(s, 4, 64, 0, 1), total = a512_utf8_length_from_utf32(s, i);
  for (; i < n; i += UTFXI_LENGTH_CHUNK) {
    size_t k = n - i < UTFXI_LENGTH_CHUNK ? n - i : UTFXI_LENGTH_CHUNK;
    total = utfxi_add_sat(total, a512_utf8_length_from_utf32(s + i, k));
  }
  return total;
}

/* The one test of the input's size: a long input goes to the chunked,
 * aligned loop; the rest is one chunk. */
size_t utfxi_utf8_length_from_utf32_avx512(const char32_t *s, size_t n) {
  if (UTFXI_ALIGN_HEAD(*s, n)) return a512_utf8_length_from_utf32_long(s, n);
  return a512_utf8_length_from_utf32(s, n);
}
